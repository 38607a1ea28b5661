import type { Editor } from '@tiptap/core';
import type { Node as SchemaNode } from '@tiptap/pm/model';
import { Plugin, PluginKey, type Transaction } from '@tiptap/pm/state';
import { Decoration, DecorationSet } from '@tiptap/pm/view';
import { FOOTNOTE_HTML, footnotesIn, type NumberedFootnote } from '../../src/model/rich-text/nodes/footnote.js';
import { element } from '../shared/shell.js';
import { t } from './messages.js';

/**
 * The document's footnotes below its text, numbered as their references stand (footnotesIn), each note a text
 * field typed in place, as Word's draft view and Google Docs show notes in a flowing document. The references in
 * the text show the same numbers (decorations: `data-number`, drawn by rich-text.css, and the note's name).
 * A reference inserted here (toolbar, Ctrl/⌘+Alt+F) takes the caret to its empty note; a click on a reference
 * goes to its note. A collaborator's change renumbers and updates the notes without taking the focus from the one
 * being typed.
 */
export class FootnotesArea {
  readonly element = element('section', 'svc-footnotes');
  private readonly list = element('ol', 'svc-footnote-list');
  private notes: NumberedFootnote[] = [];
  /** each note's item and where its reference stands, followed through every change (a collaborator's too) */
  private items: Array<{ pos: number; item: HTMLLIElement; field: HTMLTextAreaElement }> = [];

  constructor(private readonly editor: Editor) {
    this.element.setAttribute('aria-label', t('footnotes.title'));
    this.element.append(element('h2', 'svc-footnotes-title', t('footnotes.title')), this.list);
    editor.registerPlugin(numberedReferences());
    editor.on('transaction', ({ transaction }) => this.changed(transaction));
    // a change of permission (setEditable) makes the notes editable or read-only with the text
    editor.on('update', () => this.followEditable());
    editor.view.dom.addEventListener('click', (event) => {
      const reference = (event.target as HTMLElement | null)?.closest(`${FOOTNOTE_HTML.tag}.${FOOTNOTE_HTML.class}`);
      if (!reference) return;
      const index = Array.from(editor.view.dom.querySelectorAll(`${FOOTNOTE_HTML.tag}.${FOOTNOTE_HTML.class}`)).indexOf(reference);
      this.items[index]?.field.focus();
    });
    this.show();
  }

  private changed(transaction: Transaction): void {
    if (!transaction.docChanged) return;
    const count = this.notes.length;
    const ySync = transaction.getMeta('y-sync$') as { isChangeOrigin?: boolean } | undefined;
    const follow = ySync ? changedRange(transaction.before, transaction.doc) : (pos: number) => {
      const mapped = transaction.mapping.mapResult(pos, 1);
      return mapped.deletedAfter ? undefined : mapped.pos;
    };
    this.items = this.items.flatMap((entry) => {
      const pos = follow(entry.pos);
      if (pos === undefined) entry.item.remove();
      return pos === undefined ? [] : [{ ...entry, pos }];
    });
    this.show();
    // a reference this user just inserted (one more note, the caret right after an empty one): write its note now
    const before = this.editor.state.selection.$from.nodeBefore;
    if (ySync?.isChangeOrigin || this.notes.length !== count + 1 || before?.type.name !== 'footnote' || before.attrs.note !== '') return;
    const pos = this.editor.state.selection.from - before.nodeSize;
    this.items.find((entry) => entry.pos === pos)?.field.focus();
  }

  /**
   * One item per footnote. A note keeps its item while its reference moves (the field being typed keeps its focus
   * and goes on writing to its own note when a collaborator inserts or deletes one before it); items never move
   * among themselves, since references keep their order: new ones are put in their place.
   */
  private show(): void {
    this.notes = footnotesIn(this.editor.state.doc);
    this.element.hidden = this.notes.length === 0;
    const byPos = new Map(this.items.map((entry) => [entry.pos, entry]));
    for (const entry of this.items) if (!this.notes.some((note) => note.pos === entry.pos)) entry.item.remove();
    this.items = this.notes.map((note) => {
      const entry = byPos.get(note.pos) ?? this.item(note.pos);
      // each list of notes (one here, one per page in documentPro) numbers its items as the references stand
      entry.item.value = note.number;
      entry.field.setAttribute('aria-label', t('footnotes.note', { number: String(note.number) }));
      if (entry.field.value !== note.note && document.activeElement !== entry.field) entry.field.value = note.note;
      return entry;
    });
    // a new note goes beside its neighbour, in whichever list that one stands (documentPro moves items to their page)
    this.items.forEach((entry, index) => {
      if (entry.item.isConnected) return;
      const previous = this.items[index - 1]?.item;
      if (previous?.isConnected) previous.after(entry.item);
      else this.list.insertBefore(entry.item, this.list.firstChild);
    });
  }

  /** Each note's item with where its reference stands, in document order (documentPro's pages place them). */
  placedNotes(): ReadonlyArray<{ pos: number; item: HTMLLIElement }> {
    return this.items;
  }

  private followEditable(): void {
    for (const field of Array.from(this.list.querySelectorAll('textarea'))) field.readOnly = !this.editor.isEditable;
  }

  private item(pos: number): { pos: number; item: HTMLLIElement; field: HTMLTextAreaElement } {
    const item = element('li', 'svc-footnote');
    const field = element('textarea', 'svc-footnote-text');
    field.rows = 1;
    field.readOnly = !this.editor.isEditable;
    field.placeholder = t('footnotes.placeholder');
    const entry = { pos, item, field };
    field.addEventListener('input', () => {
      const current = this.items.find((candidate) => candidate.item === item);
      if (current) this.editor.commands.setFootnoteNote(current.pos, field.value);
    });
    item.append(field);
    return entry;
  }
}

/**
 * Where a reference at `pos` stands after a change that replaced the whole document: y-prosemirror applies a
 * collaborator's change that way, so its mapping says nothing. Only the range where the two documents differ
 * (ProseMirror's findDiffStart/End, as its view compares DOM content) counts as changed: a reference before it
 * stays, one after it moves by the change's length, one inside it is gone (a new item is made if it is still there).
 */
function changedRange(before: SchemaNode, after: SchemaNode): (pos: number) => number | undefined {
  const start = before.content.findDiffStart(after.content);
  if (start === null) return (pos) => pos;
  let { a: endBefore, b: endAfter } = before.content.findDiffEnd(after.content) ?? { a: before.content.size, b: after.content.size };
  const overlap = start - Math.min(endBefore, endAfter);
  if (overlap > 0) {
    endBefore += overlap;
    endAfter += overlap;
  }
  return (pos) => (pos < start ? pos : pos >= endBefore ? pos + endAfter - endBefore : undefined);
}

const numbering = new PluginKey<DecorationSet>('svcFootnoteNumbers');

function referenceNumbers(doc: SchemaNode): DecorationSet {
  const decorations = footnotesIn(doc).map(({ pos, number }) =>
    Decoration.node(pos, pos + 1, { 'data-number': String(number), 'aria-label': t('footnotes.note', { number: String(number) }) }),
  );
  return DecorationSet.create(doc, decorations);
}

/** Each reference's number, worked out again whenever the document changes. */
function numberedReferences(): Plugin<DecorationSet> {
  return new Plugin<DecorationSet>({
    key: numbering,
    state: {
      init: (_config, state) => referenceNumbers(state.doc),
      apply: (tr, numbers) => (tr.docChanged ? referenceNumbers(tr.doc) : numbers),
    },
    props: { decorations: (state) => numbering.getState(state) },
  });
}
