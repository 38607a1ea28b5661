import * as Y from 'yjs';
import { notesOf } from '../../src/model/slides.js';
import type { Deck } from './deck.js';
import { t } from './messages.js';

/**
 * The speaker notes of the open slide, below it: a plain text field bound to the slide's `notes` Y.Text. What is
 * typed goes in as the smallest change (the text between the common start and end), so collaborators typing in
 * the same notes merge; their changes come in with the caret kept where it was.
 */
export class NotesPane {
  readonly element: HTMLElement;
  private readonly field: HTMLTextAreaElement;
  private notes: Y.Text | undefined;
  private slideId: string | undefined;
  private readonly observer = () => this.pull();

  constructor(private readonly deck: Deck) {
    this.element = document.createElement('div');
    this.element.className = 'svc-notes';
    this.field = document.createElement('textarea');
    this.field.className = 'svc-notes-field';
    this.field.setAttribute('aria-label', t('notes.label'));
    this.field.placeholder = t('notes.placeholder');
    this.field.addEventListener('input', () => this.push());
    this.element.append(this.field);
  }

  /** Shows the notes of `slideId` (undefined: none); a slide from before notes existed gets them on the first key. */
  show(slideId: string | undefined): void {
    const slide = slideId === undefined ? undefined : this.deck.slide(slideId);
    const notes = slide ? notesOf(slide) : undefined;
    if (slideId === this.slideId && notes === this.notes) return;
    this.notes?.unobserve(this.observer);
    this.slideId = slideId;
    this.notes = notes;
    notes?.observe(this.observer);
    this.field.disabled = slideId === undefined;
    this.field.value = notes?.toString() ?? '';
  }

  setEditable(editable: boolean): void {
    this.field.readOnly = !editable;
  }

  private push(): void {
    if (this.slideId === undefined) return;
    const notes = this.notes ?? this.deck.notes(this.slideId);
    if (!notes) return;
    if (notes !== this.notes) this.show(this.slideId);
    const before = notes.toString();
    const after = this.field.value;
    let start = 0;
    while (start < before.length && start < after.length && before[start] === after[start]) start++;
    let end = 0;
    while (end < before.length - start && end < after.length - start && before[before.length - 1 - end] === after[after.length - 1 - end]) end++;
    this.deck.doc.transact(() => {
      notes.delete(start, before.length - start - end);
      notes.insert(start, after.slice(start, after.length - end));
    }, this);
  }

  private pull(): void {
    const text = this.notes?.toString() ?? '';
    if (text === this.field.value) return;
    const { selectionStart, selectionEnd } = this.field;
    this.field.value = text;
    this.field.setSelectionRange(Math.min(selectionStart, text.length), Math.min(selectionEnd, text.length));
  }
}
