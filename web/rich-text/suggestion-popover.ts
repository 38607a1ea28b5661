import type { Editor } from '@tiptap/core';
import type { Mark } from '@tiptap/pm/model';
import type { Suggestion } from '../../src/model/rich-text/marks/suggestion.js';
import { t } from './messages.js';
import { decideSuggestion, isSuggesting, suggestionByline } from './suggestions.js';

/** The insertion or deletion the caret stands in or beside, if any. */
function suggestionAtCaret(editor: Editor): Mark | undefined {
  const { selection } = editor.state;
  if (!selection.empty) return undefined;
  const isSuggestion = (mark: Mark) => (mark.type.name === 'insertion' || mark.type.name === 'deletion') && mark.attrs.id !== null;
  return selection.$from.nodeAfter?.marks.find(isSuggestion) ?? selection.$from.nodeBefore?.marks.find(isSuggestion);
}

/**
 * Accept and Reject from the text: a small box under the caret when it stands in a suggestion, saying what it is,
 * who made it and when. Only for users who may edit, and not while they suggest themselves (the box would follow
 * every letter typed beside their own suggestion); the Suggestions panel lists the same.
 */
export class SuggestionPopover {
  readonly element = document.createElement('div');
  private readonly what = document.createElement('span');
  private current: Mark | undefined;

  constructor(private readonly editor: Editor) {
    this.element.className = 'svc-suggestion-popover';
    this.element.setAttribute('role', 'dialog');
    this.element.setAttribute('aria-label', t('suggestion.panel'));
    this.element.hidden = true;
    this.element.append(this.what, this.button('accept', t('suggestion.accept'), true), this.button('reject', t('suggestion.reject'), false));
    editor.on('selectionUpdate', () => this.follow());
    editor.on('update', () => this.follow());
    editor.on('blur', ({ event }) => {
      if (!this.element.contains(event.relatedTarget as Node | null)) this.element.hidden = true;
    });
  }

  private button(action: string, label: string, accept: boolean): HTMLButtonElement {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'svc-tool';
    button.dataset.suggestionAction = action;
    button.textContent = label;
    button.addEventListener('mousedown', (event) => event.preventDefault());
    button.addEventListener('click', () => {
      if (this.current) decideSuggestion(this.editor, this.current.attrs.id as string | number, accept);
      this.editor.commands.focus();
      this.follow();
    });
    return button;
  }

  private follow(): void {
    const mark = this.editor.isEditable && !isSuggesting(this.editor) ? suggestionAtCaret(this.editor) : undefined;
    this.current = mark;
    if (!mark) {
      this.element.hidden = true;
      return;
    }
    const kind = mark.type.name === 'insertion' ? t('suggestion.insertion') : t('suggestion.deletion');
    this.what.textContent = `${kind} · ${suggestionByline(mark.attrs as Suggestion)}`;
    this.element.hidden = false;
    const parent = this.element.offsetParent as HTMLElement | null;
    const at = this.editor.view.coordsAtPos(this.editor.state.selection.from);
    const origin = parent?.getBoundingClientRect() ?? { left: 0, top: 0 };
    this.element.style.left = `${Math.max(8, at.left - origin.left + (parent?.scrollLeft ?? 0))}px`;
    this.element.style.top = `${at.bottom - origin.top + (parent?.scrollTop ?? 0) + 6}px`;
  }
}
