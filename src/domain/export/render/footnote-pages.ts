import type { Page } from 'playwright-core';
import { pageDimensions } from '../../../model/rich-text/page-setup.js';
import { mmToPx, type PageSetup } from '../converters/html.js';

/** The printable box of a rich-text page (paper less margins), in CSS pixels; none for pages without a page setup. */
function contentBox(setup: PageSetup): { width: number; height: number } | undefined {
  if (!setup.format || !setup.margins) return undefined;
  const paper = pageDimensions({ size: setup.format, orientation: setup.landscape ? 'landscape' : 'portrait' });
  const { top, bottom, left, right } = setup.margins;
  return { width: Math.floor(mmToPx(paper.width - left - right)), height: Math.floor(mmToPx(paper.height - top - bottom)) };
}

/**
 * Footnotes at the bottom of their reference's page in the pdf. Chromium's printing has no footnotes (no CSS
 * `float: footnote`), so the page is cut into pages here, before printing, as the printer will lay them out: the
 * page is laid out for print at the printable box's width, then the body's blocks are put one by one on sheets as
 * tall as the printable box, each block's notes (the `section.footnotes` items its references link to) in a list
 * at the bottom of the same sheet. A block that does not fit with its notes starts the next sheet; a page break
 * starts one too. A block taller than a page stays alone on its sheet, which then runs over the printer's pages
 * with its notes after it. Nothing happens to a page without notes: Chromium's own flow prints it.
 */
export async function layOutFootnotePages(page: Page, setup: PageSetup): Promise<void> {
  const box = contentBox(setup);
  if (!box) return;
  await page.emulateMedia({ media: 'print' });
  await page.setViewportSize({ width: box.width, height: 800 });
  await page.evaluate(`(${CUT_INTO_SHEETS})(${box.height})`);
}

/**
 * Runs in the page with the printable height (see layOutFootnotePages). Plain JavaScript in a string: the server is
 * compiled without the DOM's types, and the page receives it as text anyway.
 */
const CUT_INTO_SHEETS = `(pageHeight) => {
  const notes = document.querySelector('body > section.footnotes');
  if (!notes) return;
  const noteItems = new Map(Array.from(notes.querySelectorAll('li[id^="footnote-"]'), (item) => [item.id.slice('footnote-'.length), item]));
  const blocks = Array.from(document.body.children).filter((child) => child !== notes && child.tagName !== 'STYLE' && !child.classList.contains('svc-wm'));
  notes.remove();
  // a sheet is one printed page (2 px less, so rounding never spills an empty page); its notes sit at its bottom
  const style = document.createElement('style');
  style.textContent =
    '.svc-sheet{display:flex;flex-direction:column;min-height:' + (pageHeight - 2) + 'px;break-after:page}.svc-sheet:last-of-type{break-after:auto}' +
    '.svc-sheet-text{display:flow-root}.svc-sheet>.footnotes{margin-top:auto}.svc-sheet>.footnotes:not(:has(li)){display:none}';
  document.head.append(style);
  const newSheet = () => {
    const element = document.createElement('div');
    element.className = 'svc-sheet';
    const text = document.createElement('div');
    text.className = 'svc-sheet-text';
    const section = document.createElement('section');
    section.className = 'footnotes';
    const list = document.createElement('ol');
    section.append(list);
    element.append(text, section);
    document.body.append(element);
    return { text, list, notes: section };
  };
  let sheet = newSheet();
  const fits = () => sheet.text.getBoundingClientRect().height + (sheet.list.children.length > 0 ? sheet.notes.getBoundingClientRect().height : 0) <= pageHeight - 2;
  for (const block of blocks) {
    if (block.classList.contains('page-break')) {
      block.remove();
      sheet = newSheet();
      continue;
    }
    const items = Array.from(block.querySelectorAll('a[id^="footnote-ref-"]')).flatMap((reference) => {
      const item = noteItems.get(reference.id.slice('footnote-ref-'.length));
      return item ? [item] : [];
    });
    const put = () => {
      sheet.text.append(block);
      sheet.list.append(...items);
    };
    put();
    if (!fits() && sheet.text.children.length > 1) {
      sheet = newSheet();
      put();
    }
  }
  // each list numbers its notes as their references are numbered
  for (const [number, item] of noteItems) item.setAttribute('value', number);
}`;
