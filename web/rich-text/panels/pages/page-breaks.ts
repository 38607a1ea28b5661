import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import type { EditorView } from '@tiptap/pm/view';

/** A4 at 96 CSS pixels per inch, with Word's default margins (2.54 cm top and bottom, 3.18 cm at the sides). */
export const PAGE = { width: 794, height: 1123, marginTop: 96, marginBottom: 96, marginSide: 120, gap: 24 } as const;
/** From the top of one page to the top of the next. */
export const PAGE_PITCH = PAGE.height + PAGE.gap;
const CONTENT_HEIGHT = PAGE.height - PAGE.marginTop - PAGE.marginBottom;

/** Space to leave before the block at `pos` so that it starts on the next page. */
export interface PageBreak {
  pos: number;
  height: number;
}

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
 * holds one is laid out item by item.
 */
export function pageBreaks(view: EditorView, zoom: number): { breaks: PageBreak[]; pages: number } {
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
    const page = Math.floor(top / PAGE_PITCH);
    const contentTop = page * PAGE_PITCH + PAGE.marginTop;
    const contentBottom = page * PAGE_PITCH + PAGE.height - PAGE.marginBottom;
    const overflows = top + height > contentBottom + 1;
    const splittable = SPLITTABLE.has(node.type.name) && node.childCount > 0;
    if (splittable && (breakPage !== undefined || holdsPageBreak(node) || (overflows && top >= contentTop - 1 && top < contentBottom))) {
      shift -= oldGap;
      node.forEach((child, offset) => place(child, pos + 1 + offset));
      return;
    }
    let gap = 0;
    if (breakPage !== undefined) {
      if (page <= breakPage) gap = (breakPage + 1) * PAGE_PITCH + PAGE.marginTop - top;
      breakPage = undefined;
    } else if (top < contentTop - 1) gap = contentTop - top;
    else if (overflows && (top > contentTop + 1 || height <= CONTENT_HEIGHT)) gap = PAGE_PITCH + contentTop - top;
    gap = Math.round(gap);
    if (gap > 0) breaks.push({ pos, height: gap });
    shift += gap - oldGap;
    bottom = Math.max(bottom, top + gap + height);
    if (node.type.name === 'pageBreak') breakPage = Math.floor((top + gap) / PAGE_PITCH);
  };

  view.state.doc.forEach((node, offset) => place(node, offset));
  // a break at the very end leaves an empty page after it, as in a word processor
  const lastPage = Math.max(Math.floor(bottom / PAGE_PITCH), breakPage === undefined ? 0 : breakPage + 1);
  return { breaks, pages: lastPage + 1 };
}
