import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import type { EditorView } from '@tiptap/pm/view';
import { pageDimensions, type PageSetup } from '../../../../src/model/rich-text/page-setup.js';

/** The sheets of the paged view in CSS pixels (96 per inch), from the file's page setup. */
export interface PageGeometry {
  width: number;
  height: number;
  marginTop: number;
  marginBottom: number;
  marginLeft: number;
  marginRight: number;
  /** space between two sheets */
  gap: number;
  /** from the top of one page to the top of the next */
  pitch: number;
}

const GAP = 24;
const px = (mm: number) => Math.round((mm * 96) / 25.4);

export function pageGeometry(setup: PageSetup): PageGeometry {
  const { width, height } = pageDimensions(setup);
  const { top, bottom, left, right } = setup.margins;
  return { width: px(width), height: px(height), marginTop: px(top), marginBottom: px(bottom), marginLeft: px(left), marginRight: px(right), gap: GAP, pitch: px(height) + GAP };
}

/** Space to leave before the block at `pos` so that it starts on the next page. */
export interface PageBreak {
  pos: number;
  height: number;
}

/** The page's text and the layout around it: where to push blocks down, how many pages, on which page each note stands. */
export interface PageLayout {
  breaks: PageBreak[];
  pages: number;
  /** the page (from 0) of each footnote reference, by its position: its note is printed at that page's bottom */
  notePages: Map<number, number>;
}

/** Height of the rule and space above a page's notes, in CSS pixels (the notes' box pads itself by it). */
export const NOTES_SEPARATOR = 12;

/** Blocks that hold blocks and may be split between pages (tables are not: their rows cannot hold a spacer). */
const SPLITTABLE = new Set(['bulletList', 'orderedList', 'taskList', 'listItem', 'taskItem', 'blockquote', 'bookmark']);
export const GAP_CLASS = 'svc-page-gap';

/** A page break (docs/CONTENT-MODEL.md `pageBreak`) somewhere inside the node: the container must be laid out child by child. */
function holdsPageBreak(node: ProseMirrorNode): boolean {
  let found = false;
  node.descendants((child) => {
    if (child.type.name === 'pageBreak') found = true;
    return !found;
  });
  return found;
}

/**
 * Where the document's blocks must be pushed down so that none crosses a page's bottom margin and the block
 * after a page break starts a new page, measured on the rendered editor (`zoom` is its CSS zoom). The gaps
 * already in place are discounted, so the answer does not depend on the previous one. A block taller than a
 * page starts a page and runs over; a list, quote or bookmark that does not fit, follows a page break or
 * holds one is laid out item by item. `noteHeights` (by reference position) are the notes to keep at the bottom of
 * their reference's page: a page's text ends above them, and a block whose notes would not fit goes to the next page
 * with them (blocks are the unit here, as for every break of this layout, where Word moves the reference's line).
 */
export function pageBreaks(view: EditorView, zoom: number, sheet: PageGeometry, noteHeights: ReadonlyMap<number, number>): PageLayout {
  const pitch = sheet.pitch;
  const notePositions = [...noteHeights.keys()].sort((a, b) => a - b);
  const notePages = new Map<number, number>();
  /** per page, the height its notes take at its bottom (their separator included) */
  const reserved: number[] = [];
  const contentHeight = sheet.height - sheet.marginTop - sheet.marginBottom;
  const rootTop = view.dom.getBoundingClientRect().top;
  const breaks: PageBreak[] = [];
  /** new gaps so far minus old gaps so far: how far every later block moves */
  let shift = 0;
  let bottom = 0;
  /** the page of a page break whose next block is still to place: that block starts on the page after it */
  let breakPage: number | undefined;

  const place = (node: ProseMirrorNode, pos: number): void => {
    const dom = view.nodeDOM(pos);
    if (!(dom instanceof HTMLElement)) return;
    const previous = dom.previousElementSibling;
    const oldGap = previous instanceof HTMLElement && previous.classList.contains(GAP_CLASS) ? previous.offsetHeight : 0;
    const rect = dom.getBoundingClientRect();
    const height = rect.height / zoom;
    const top = (rect.top - rootTop) / zoom - oldGap + shift;
    const page = Math.floor(top / pitch);
    const contentTop = page * pitch + sheet.marginTop;
    // the block's own notes go on its page too: with them it must fit above the notes already there (Word's rule)
    const notes = notePositions.filter((note) => note >= pos && note < pos + node.nodeSize);
    const notesHeight = notes.reduce((sum, note) => sum + (noteHeights.get(note) ?? 0), 0);
    const notesOn = (onPage: number) => (notes.length === 0 ? 0 : notesHeight + (reserved[onPage] ? 0 : NOTES_SEPARATOR));
    const contentBottom = page * pitch + sheet.height - sheet.marginBottom - (reserved[page] ?? 0) - notesOn(page);
    const overflows = top + height > contentBottom + 1;
    const splittable = SPLITTABLE.has(node.type.name) && node.childCount > 0;
    if (splittable && (breakPage !== undefined || holdsPageBreak(node) || (overflows && top >= contentTop - 1 && top < contentBottom))) {
      shift -= oldGap;
      node.forEach((child, offset) => place(child, pos + 1 + offset));
      return;
    }
    let gap = 0;
    if (breakPage !== undefined) {
      if (page <= breakPage) gap = (breakPage + 1) * pitch + sheet.marginTop - top;
      breakPage = undefined;
    } else if (top < contentTop - 1) gap = contentTop - top;
    else if (overflows && (top > contentTop + 1 || height <= contentHeight)) gap = pitch + contentTop - top;
    gap = Math.round(gap);
    if (gap > 0) breaks.push({ pos, height: gap });
    shift += gap - oldGap;
    bottom = Math.max(bottom, top + gap + height);
    const placedPage = Math.floor((top + gap) / pitch);
    if (notes.length > 0) {
      reserved[placedPage] = (reserved[placedPage] ?? 0) + notesOn(placedPage);
      for (const note of notes) notePages.set(note, placedPage);
    }
    if (node.type.name === 'pageBreak') breakPage = placedPage;
  };

  view.state.doc.forEach((node, offset) => place(node, offset));
  // a break at the very end leaves an empty page after it, as in a word processor
  const lastPage = Math.max(Math.floor(bottom / pitch), breakPage === undefined ? 0 : breakPage + 1);
  return { breaks, pages: Math.max(lastPage, ...notePages.values()) + 1, notePages };
}
