import type { Editor } from '@tiptap/core';
import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { Plugin, PluginKey, TextSelection, type EditorState, type Transaction } from '@tiptap/pm/state';
import { Decoration, DecorationSet } from '@tiptap/pm/view';
import { toolButton } from '../shared/tool-button.js';
import { findMatches, MAX_MATCHES, type FindOptions, type TextMatch } from './find-matches.js';
import { t } from './messages.js';

interface FindState {
  query: string;
  options: FindOptions;
  matches: TextMatch[];
  /** index of the current match in `matches`, -1 when there is none */
  current: number;
  decorations: DecorationSet;
}

/** What the find bar asks of the plugin: a new search, or another current match. */
type FindMeta = { query: string; options: FindOptions } | { current: number };

const findKey = new PluginKey<FindState>('svcFindReplace');

function decorate(doc: ProseMirrorNode, matches: TextMatch[], current: number): DecorationSet {
  return DecorationSet.create(
    doc,
    matches.map((match, index) =>
      Decoration.inline(match.from, match.to, { class: index === current ? 'svc-find-match svc-find-current' : 'svc-find-match' }),
    ),
  );
}

/** The first match at or after `position` (wrapping to the first), the one a search starts from. */
function matchFrom(matches: TextMatch[], position: number): number {
  if (matches.length === 0) return -1;
  const after = matches.findIndex((match) => match.from >= position);
  return after === -1 ? 0 : after;
}

const NO_SEARCH: FindState = { query: '', options: { matchCase: false, wholeWord: false }, matches: [], current: -1, decorations: DecorationSet.empty };

/**
 * The highlights of a search: every match decorated, the current one distinct. They are found again when the
 * document changes (a collaborator's edit too), the current one staying where it was.
 */
function findPlugin(): Plugin<FindState> {
  return new Plugin<FindState>({
    key: findKey,
    state: {
      init: () => NO_SEARCH,
      apply(tr: Transaction, previous: FindState, _old: EditorState, state: EditorState): FindState {
        const meta = tr.getMeta(findKey) as FindMeta | undefined;
        if (meta && 'query' in meta) {
          const matches = findMatches(state.doc, meta.query, meta.options);
          const current = matchFrom(matches, state.selection.from);
          return { query: meta.query, options: meta.options, matches, current, decorations: decorate(state.doc, matches, current) };
        }
        if (meta) return { ...previous, current: meta.current, decorations: decorate(state.doc, previous.matches, meta.current) };
        if (!tr.docChanged || previous.query === '') return previous;
        const matches = findMatches(state.doc, previous.query, previous.options);
        const was = previous.matches[previous.current];
        const current = matchFrom(matches, was ? tr.mapping.map(was.from) : 0);
        return { ...previous, matches, current, decorations: decorate(state.doc, matches, current) };
      },
    },
    props: { decorations: (state) => findKey.getState(state)?.decorations },
  });
}

function checkbox(label: string, onChange: () => void): { wrapper: HTMLLabelElement; input: HTMLInputElement } {
  const wrapper = document.createElement('label');
  wrapper.className = 'svc-find-option';
  const input = document.createElement('input');
  input.type = 'checkbox';
  input.addEventListener('change', onChange);
  wrapper.append(input, label);
  return { wrapper, input };
}

function textField(label: string, placeholder: string): HTMLInputElement {
  const input = document.createElement('input');
  input.type = 'text';
  input.placeholder = placeholder;
  input.setAttribute('aria-label', label);
  return input;
}

/**
 * The find and replace bar of document and documentPro: Ctrl/Cmd+F opens it to find, Ctrl/Cmd+H with the
 * replace field. Enter goes to the next match, Shift+Enter to the previous one, Escape closes it and gives the
 * focus back to the text where it was. Replace changes the current match, Replace all every match in one
 * transaction: one undo step and one collaborative change. A user who may not edit finds but cannot replace.
 */
export class FindReplaceBar {
  readonly element: HTMLElement;
  private readonly query: HTMLInputElement;
  private readonly replacement: HTMLInputElement;
  private readonly counter: HTMLElement;
  private readonly matchCase: HTMLInputElement;
  private readonly wholeWord: HTMLInputElement;
  private readonly replaceRow: HTMLElement;

  constructor(private readonly editor: Editor) {
    editor.registerPlugin(findPlugin());
    this.element = document.createElement('div');
    this.element.className = 'svc-find-bar';
    this.element.setAttribute('role', 'search');
    this.element.setAttribute('aria-label', t('find.label'));
    this.element.hidden = true;

    this.query = textField(t('find.label'), t('find.placeholder'));
    this.counter = document.createElement('span');
    this.counter.className = 'svc-find-count';
    this.counter.setAttribute('aria-live', 'polite');
    const matchCase = checkbox(t('find.matchCase'), () => this.search());
    const wholeWord = checkbox(t('find.wholeWord'), () => this.search());
    this.matchCase = matchCase.input;
    this.wholeWord = wholeWord.input;
    const findRow = document.createElement('div');
    findRow.className = 'svc-find-row';
    findRow.append(
      this.query,
      this.counter,
      toolButton(t('find.previous'), '↑', () => this.step(-1)),
      toolButton(t('find.next'), '↓', () => this.step(1)),
      matchCase.wrapper,
      wholeWord.wrapper,
      toolButton(t('find.close'), '✕', () => this.close()),
    );

    this.replacement = textField(t('replace.label'), t('replace.placeholder'));
    this.replaceRow = document.createElement('div');
    this.replaceRow.className = 'svc-find-row';
    this.replaceRow.hidden = true;
    this.replaceRow.append(
      this.replacement,
      toolButton(t('replace.one'), t('replace.one'), () => this.replaceCurrent()),
      toolButton(t('replace.all'), t('replace.all'), () => this.replaceAll()),
    );
    this.element.append(findRow, this.replaceRow);

    this.query.addEventListener('input', () => this.search());
    this.element.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') this.close();
      else if (event.key === 'Enter' && event.target === this.query) this.step(event.shiftKey ? -1 : 1);
      else if (event.key === 'Enter' && event.target === this.replacement) this.replaceCurrent();
      else return;
      event.preventDefault();
    });
    editor.on('transaction', () => this.showCount());
  }

  /** Ctrl/Cmd+F and Ctrl/Cmd+H anywhere in the page open the bar (instead of the browser's own find or history). */
  listen(target: HTMLElement | Document): void {
    target.addEventListener('keydown', (event) => {
      if (!(event instanceof KeyboardEvent) || !(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return;
      const key = event.key.toLowerCase();
      if (key !== 'f' && key !== 'h') return;
      event.preventDefault();
      this.open(key === 'h');
    });
  }

  /** Shows the bar, with the replace field when asked and the user may edit, the selected text as the query. */
  open(withReplace: boolean): void {
    const { from, to, empty } = this.editor.state.selection;
    const selected = empty ? '' : this.editor.state.doc.textBetween(from, to, ' ');
    if (selected && !selected.includes('\n') && selected.length <= 200) this.query.value = selected;
    this.element.hidden = false;
    this.replaceRow.hidden = !(withReplace && this.editor.isEditable);
    this.query.focus();
    this.query.select();
    this.search();
  }

  close(): void {
    this.element.hidden = true;
    this.dispatch({ query: '', options: this.options() });
    this.editor.commands.focus();
  }

  private options(): FindOptions {
    return { matchCase: this.matchCase.checked, wholeWord: this.wholeWord.checked };
  }

  private state(): FindState {
    return findKey.getState(this.editor.state) ?? NO_SEARCH;
  }

  private dispatch(meta: FindMeta, select?: TextMatch): void {
    const tr = this.editor.state.tr.setMeta(findKey, meta).setMeta('addToHistory', false);
    if (select) tr.setSelection(TextSelection.create(tr.doc, select.from, select.to)).scrollIntoView();
    this.editor.view.dispatch(tr);
  }

  private search(): void {
    this.dispatch({ query: this.query.value, options: this.options() });
    const { matches, current } = this.state();
    if (current >= 0) this.dispatch({ current }, matches[current]);
  }

  /** Goes to the next (1) or previous (-1) match, wrapping around. */
  private step(direction: 1 | -1): void {
    const { matches, current } = this.state();
    if (matches.length === 0) return;
    const next = (current + direction + matches.length) % matches.length;
    this.dispatch({ current: next }, matches[next]);
  }

  private replaceCurrent(): void {
    const { matches, current } = this.state();
    const match = matches[current];
    if (!match || !this.editor.isEditable) return;
    this.editor.view.dispatch(this.editor.state.tr.insertText(this.replacement.value, match.from, match.to));
    // on to the next match after the new text (a replacement that holds the query is not found again)
    const after = this.state();
    const next = matchFrom(after.matches, match.from + this.replacement.value.length);
    if (next >= 0) this.dispatch({ current: next }, after.matches[next]);
  }

  private replaceAll(): void {
    const { matches } = this.state();
    if (matches.length === 0 || !this.editor.isEditable) return;
    const tr = this.editor.state.tr;
    // from the last to the first, so the positions still to replace do not move
    for (const match of [...matches].reverse()) tr.insertText(this.replacement.value, match.from, match.to);
    this.editor.view.dispatch(tr);
  }

  private showCount(): void {
    if (this.element.hidden) return;
    const { query, matches, current } = this.state();
    if (query === '') this.counter.textContent = '';
    else if (matches.length === 0) this.counter.textContent = t('find.none');
    else {
      const total = matches.length >= MAX_MATCHES ? `${MAX_MATCHES}+` : String(matches.length);
      this.counter.textContent = t('find.count', { index: String(current + 1), total });
    }
    if (!this.editor.isEditable) this.replaceRow.hidden = true;
  }
}
