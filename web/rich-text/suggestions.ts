import { Extension, type Editor } from '@tiptap/core';
import { Plugin, PluginKey, type EditorState, type Transaction } from '@tiptap/pm/state';
import { Decoration, DecorationSet } from '@tiptap/pm/view';
import {
  applySuggestion,
  applySuggestions,
  isSuggestChangesEnabled,
  revertSuggestion,
  revertSuggestions,
  suggestChanges,
  suggestChangesKey,
  transformToSuggestionTransaction,
} from '@handlewithcare/prosemirror-suggest-changes';
import { SUGGESTION_MARK_NAMES as SUGGESTION_MARKS, suggestionsOf, type Suggestion } from '../../src/model/rich-text/marks/suggestion.js';
import { suggestingOnlyRefusal } from '../../src/model/rich-text/suggesting-only.js';
import { colorOf } from '../shared/collaboration.js';
import { t } from './messages.js';

/** Who is typing in this editor: the author every suggestion they make carries. */
export interface SuggestionAuthor {
  id: string;
  name: string;
}

const stampKey = new PluginKey('svc-suggestion-stamp');
const lookKey = new PluginKey('svc-suggestion-look');

/**
 * The library's transaction is left alone when it is not this user's own edit: a collaborator's change arriving
 * through y-prosemirror (already a suggestion, or not), an undo or redo (it takes back what the user did), or a
 * transaction that asks to be left alone (accepting and rejecting). The same test as the library's
 * `withSuggestChanges`, which wraps a view's dispatch; Tiptap gives extensions their own dispatch hook instead.
 */
function isOwnEdit(transaction: Transaction): boolean {
  const ySync = (transaction.getMeta('y-sync$') ?? {}) as { isChangeOrigin?: boolean; isUndoRedoOperation?: boolean };
  const own = (transaction.getMeta(suggestChangesKey) ?? {}) as Record<string, unknown>;
  return transaction.docChanged && !ySync.isChangeOrigin && !ySync.isUndoRedoOperation && !('skip' in own);
}

function suggestionId(): string {
  return crypto.randomUUID();
}

/**
 * Gives every suggestion mark this user's transaction made (the library writes only an id) its author and time.
 * Marks that already name an author (a collaborator's, an imported Word revision's) are kept as they are.
 */
function stampPlugin(author: SuggestionAuthor): Plugin {
  return new Plugin({
    key: stampKey,
    appendTransaction(transactions, _old, state) {
      if (!transactions.some((transaction) => transaction.docChanged && !transaction.getMeta('y-sync$'))) return null;
      const tr = state.tr;
      const now = new Date().toISOString();
      // a suggestion typed letter by letter keeps the time of its first letter: one mark, one run, one Word revision
      const since = new Map<string, string>();
      state.doc.descendants((node) => {
        for (const mark of node.marks) {
          if (SUGGESTION_MARKS.includes(mark.type.name) && mark.attrs.author === author.id && typeof mark.attrs.date === 'string') since.set(`${mark.type.name}\n${String(mark.attrs.id)}`, mark.attrs.date);
        }
      });
      state.doc.descendants((node, pos) => {
        for (const mark of node.marks) {
          if (!SUGGESTION_MARKS.includes(mark.type.name) || mark.attrs.author || mark.attrs.authorName) continue;
          const date = since.get(`${mark.type.name}\n${String(mark.attrs.id)}`) ?? now;
          const stamped = mark.type.create({ ...mark.attrs, author: author.id, authorName: author.name, date });
          if (node.isInline) tr.removeMark(pos, pos + node.nodeSize, mark).addMark(pos, pos + node.nodeSize, stamped);
          else tr.removeNodeMark(pos, mark).addNodeMark(pos, stamped);
        }
      });
      return tr.docChanged ? tr.setMeta(suggestChangesKey, { skip: true }).setMeta('addToHistory', false) : null;
    },
  });
}

/** How a suggestion's time reads in the page's language. */
function shownTime(date: string | null): string {
  if (!date || Number.isNaN(Date.parse(date))) return '';
  return new Date(date).toLocaleString(document.documentElement.lang || undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** What a suggestion's tooltip and list entry say of who made it and when. */
export function suggestionByline(suggestion: Pick<Suggestion, 'authorName' | 'author' | 'date'>): string {
  return t('suggestion.byline', { name: suggestion.authorName ?? suggestion.author ?? t('suggestion.unknownAuthor'), time: shownTime(suggestion.date) });
}

/** Each suggestion drawn in its author's colour, with its author and time as a tooltip. */
function lookPlugin(): Plugin {
  const decorate = (state: EditorState) => {
    const decorations: Decoration[] = [];
    state.doc.descendants((node, pos) => {
      if (!node.isInline) return true;
      const mark = node.marks.find((candidate) => SUGGESTION_MARKS.includes(candidate.type.name));
      if (!mark) return false;
      const kind = mark.type.name === 'insertion' ? 'suggestion.insertion' : mark.type.name === 'deletion' ? 'suggestion.deletion' : 'suggestion.modification';
      const author = typeof mark.attrs.author === 'string' ? mark.attrs.author : String(mark.attrs.authorName ?? '');
      decorations.push(
        // drawn on a span inside the mark's element: a decoration's attributes go on the text's own wrapper
        Decoration.inline(pos, pos + node.nodeSize, {
          class: `svc-suggestion-look svc-suggestion-look-${mark.type.name}`,
          style: `--svc-suggestion-color: ${colorOf(author)}`,
          title: `${t(kind)} · ${suggestionByline(mark.attrs as Suggestion)}`,
        }),
      );
      return false;
    });
    return DecorationSet.create(state.doc, decorations);
  };
  return new Plugin({
    key: lookKey,
    state: { init: (_config, state) => decorate(state), apply: (tr, old, _oldState, state) => (tr.docChanged ? decorate(state) : old) },
    props: { decorations: (state) => lookKey.getState(state) as DecorationSet },
  });
}

export interface SuggestingOptions {
  author: SuggestionAuthor;
  /**
   * Whether this user may only suggest (`commentable` without `editable`): every edit of theirs is a suggestion, and
   * one that would be more (formatting, changing another's suggestion) is dropped and `refused` called, by the rule
   * the service checks (src/model/rich-text/suggesting-only.ts), which would otherwise close the session.
   */
  onlySuggests: () => boolean;
  refused: () => void;
}

/**
 * The suggesting mode (track changes, docs/CONTENT-MODEL.md "Suggestions"): while it is on, what this user types
 * is marked as an insertion and what they delete stays, marked as a deletion, through
 * `@handlewithcare/prosemirror-suggest-changes`. Each user has their own mode; their suggestions reach the others
 * as any edit does. Accepting and rejecting are plain edits of users who may edit.
 */
export const Suggesting = Extension.create<SuggestingOptions>({
  name: 'suggesting',

  addOptions() {
    return { author: { id: '', name: '' }, onlySuggests: () => false, refused: () => undefined };
  },

  addProseMirrorPlugins() {
    return [suggestChanges(), stampPlugin(this.options.author), lookPlugin()];
  },

  dispatchTransaction({ transaction, next }) {
    const state = this.editor.state;
    if (!isOwnEdit(transaction)) return next(transaction);
    const onlySuggests = this.options.onlySuggests();
    if (!onlySuggests && !isSuggestChangesEnabled(state)) return next(transaction);
    const suggested = transformToSuggestionTransaction(transaction, state, suggestionId);
    // the stamp plugin names the author after this transaction: only the body and others' suggestions are checked here
    const refusal = onlySuggests ? suggestingOnlyRefusal(state.doc, suggested.doc, this.options.author.id) : undefined;
    if (refusal === 'edit' || refusal === 'others') return this.options.refused();
    next(suggested);
  },
});

export function isSuggesting(editor: Editor): boolean {
  return isSuggestChangesEnabled(editor.state);
}

/** Turns the suggesting mode on or off for this user (others are not affected). */
export function setSuggesting(editor: Editor, on: boolean): void {
  editor.view.dispatch(editor.state.tr.setMeta(suggestChangesKey, { enabled: on }));
}

/** The library's commands dispatch transactions of their own: they are decisions, never turned into suggestions. */
function decided(editor: Editor) {
  return (tr: Transaction) => editor.view.dispatch(tr.setMeta(suggestChangesKey, { skip: true }));
}

/** Accepts (keeps an insertion, removes a deletion) or rejects one suggestion, by id. */
export function decideSuggestion(editor: Editor, id: string | number, accept: boolean): boolean {
  return (accept ? applySuggestion(id) : revertSuggestion(id))(editor.state, decided(editor));
}

/** Accepts or rejects every suggestion of the document. */
export function decideAllSuggestions(editor: Editor, accept: boolean): boolean {
  return (accept ? applySuggestions : revertSuggestions)(editor.state, decided(editor));
}

/** The document's suggestions in reading order (the panel's list). */
export function currentSuggestions(editor: Editor): Suggestion[] {
  return suggestionsOf(editor.state.doc);
}
