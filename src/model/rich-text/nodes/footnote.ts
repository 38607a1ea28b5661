import { canInsertNode, mergeAttributes, Node } from '@tiptap/core';
import type { Node as SchemaNode } from '@tiptap/pm/model';

declare module '@tiptap/core' {
  interface Commands<ReturnType> {
    footnote: {
      /** Puts a footnote reference holding `note` at the caret (replacing a selection); the new note is the number its place gives. */
      insertFootnote: (note?: string) => ReturnType;
      /** Sets the text of the footnote whose reference is at `pos`. */
      setFootnoteNote: (pos: number, note: string) => ReturnType;
    };
  }
}

/** The HTML a footnote reference is written as (its number is drawn by CSS in the editor, written by the exporters). */
export const FOOTNOTE_HTML = { tag: 'sup', class: 'footnote-ref', attribute: 'data-footnote' } as const;

/** The note a footnote node (or its attributes) holds: plain text, '' when missing or malformed. */
export function footnoteNote(attrs: Record<string, unknown> | undefined): string {
  return typeof attrs?.note === 'string' ? attrs.note : '';
}

/** One footnote of a document: where its reference is, its number (1, 2, 3… in document order) and its text. */
export interface NumberedFootnote {
  pos: number;
  number: number;
  note: string;
}

/**
 * The document's footnotes in document order, numbered from 1. Numbers are never stored: they are where the
 * references stand, so moving or deleting one renumbers the rest, and two users inserting notes at once never
 * clash on a number.
 */
export function footnotesIn(doc: SchemaNode): NumberedFootnote[] {
  const notes: NumberedFootnote[] = [];
  doc.descendants((node, pos) => {
    if (node.type.name === 'footnote') notes.push({ pos, number: notes.length + 1, note: footnoteNote(node.attrs) });
    return !node.isInline;
  });
  return notes;
}

/**
 * `footnote` (docs/CONTENT-MODEL.md): an inline atom, the reference mark in the text, whose `note` attribute holds
 * the note's text (plain text). Why an attribute and not content: a Yjs element attribute is one value that a
 * collaborator's change replaces as a whole (last writer wins per note), while nested content would put the
 * note's text inside the paragraph's own flow, where ProseMirror would show and edit it in the line. Notes are
 * short and usually written by one person; the reference itself moves, copies and deletes with the text around
 * it, and its number is derived (footnotesIn), never stored. HTML `<sup class="footnote-ref" data-footnote
 * data-note="…">`; the exporters write the number, the notes and Word's `w:footnoteReference`. Ctrl/⌘+Alt+F, as
 * in Word.
 */
export interface FootnoteOptions {
  /** false where no notes are shown (a presentation's text box): a stored reference is kept, none is inserted */
  insertable: boolean;
}

export const Footnote = Node.create<FootnoteOptions>({
  name: 'footnote',
  group: 'inline',
  inline: true,
  atom: true,
  selectable: true,

  addOptions() {
    return { insertable: true };
  },

  addAttributes() {
    return {
      note: {
        default: '',
        parseHTML: (element) => element.getAttribute('data-note') ?? '',
        renderHTML: (attrs) => ({ 'data-note': footnoteNote(attrs) }),
      },
    };
  },

  parseHTML() {
    // above the superscript mark's `sup` rule (priority 50), which would otherwise read it as an empty superscript
    return [{ tag: `${FOOTNOTE_HTML.tag}[${FOOTNOTE_HTML.attribute}]`, priority: 60 }];
  },

  renderHTML({ HTMLAttributes }) {
    return [FOOTNOTE_HTML.tag, mergeAttributes({ class: FOOTNOTE_HTML.class, [FOOTNOTE_HTML.attribute]: '' }, HTMLAttributes)];
  },

  // the reference has no text of its own: plain text and word count read the body without its notes
  renderText: () => '',

  // GFM footnotes: the exporter's walker numbers them and writes the notes after the text
  markdownForm: { inline: (node, writer) => writer.footnote(footnoteNote(node.attrs)) },

  addCommands() {
    return {
      insertFootnote:
        (note = '') =>
        ({ state, tr, dispatch }) => {
          if (!this.options.insertable || !canInsertNode(state, this.type)) return false;
          if (dispatch) tr.replaceSelectionWith(this.type.create({ note }), true).scrollIntoView();
          return true;
        },
      setFootnoteNote:
        (pos, note) =>
        ({ tr, dispatch }) => {
          const node = tr.doc.nodeAt(pos);
          if (node?.type !== this.type) return false;
          if (dispatch) tr.setNodeAttribute(pos, 'note', note);
          return true;
        },
    };
  },

  addKeyboardShortcuts() {
    /**
     * Backspace after a reference and Delete before one remove it, as in Word. Left to the browser, the reference
     * (an element with no text: its number is drawn by CSS) is deleted or stepped over as the browser sees fit,
     * and Chrome sometimes deletes the space after it instead.
     */
    const deleteAdjacent =
      (side: 'before' | 'after') =>
      () =>
        this.editor.commands.command(({ state, tr, dispatch }) => {
          const { empty, $from } = state.selection;
          const node = side === 'before' ? $from.nodeBefore : $from.nodeAfter;
          if (!empty || node?.type !== this.type) return false;
          const from = side === 'before' ? $from.pos - node.nodeSize : $from.pos;
          if (dispatch) tr.delete(from, from + node.nodeSize).scrollIntoView();
          return true;
        });
    return { 'Mod-Alt-f': () => this.editor.commands.insertFootnote(), Backspace: deleteAdjacent('before'), Delete: deleteAdjacent('after') };
  },
});
