import * as Y from 'yjs';
import { parseCellKey, richTextOf, sheetsOf, slidesOf, type Cell, type ContentKind } from './model.js';
import { richTextToPlain } from './rich-text.js';

/**
 * Plain text of a file's content (docs/CONTENT-MODEL.md "Plain text"):
 * - document, documentPro: reading order, one line per paragraph/heading/list item, table rows with
 *   tab-separated cells;
 * - spreadsheet: per sheet, its rows up to the last non-empty one, cells tab-separated (trailing empty cells
 *   dropped), the value shown (the formula text when a formula has no value yet); sheets separated by a blank line;
 * - presentation: slide by slide, each text box's text in box order; slides separated by a blank line.
 */
export function plainTextOf(doc: Y.Doc, kind: ContentKind): string {
  switch (kind) {
    case 'document':
    case 'documentPro':
      return richTextToPlain(richTextOf(doc));
    case 'spreadsheet':
      return sheetsOf(doc)
        .toArray()
        .map((sheet) => sheetText(sheet))
        .join('\n\n');
    case 'presentation':
      return slidesOf(doc)
        .toArray()
        .map((slide) => slideText(slide))
        .join('\n\n');
  }
}

export function cellText(cell: Cell | undefined): string {
  if (!cell) return '';
  const value = cell.v;
  if (value === undefined || value === null) return cell.f ?? '';
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  return String(value);
}

function sheetText(sheet: Y.Map<unknown>): string {
  const cells = sheet.get('cells');
  if (!(cells instanceof Y.Map)) return '';
  const rows = new Map<number, Map<number, string>>();
  for (const [key, cell] of (cells as Y.Map<Cell>).entries()) {
    const address = parseCellKey(key);
    const text = cellText(cell);
    if (!address || text === '') continue;
    let row = rows.get(address.row);
    if (!row) rows.set(address.row, (row = new Map()));
    row.set(address.column, text);
  }
  if (rows.size === 0) return '';
  const lastRow = Math.max(...rows.keys());
  const lines: string[] = [];
  for (let r = 0; r <= lastRow; r++) {
    const row = rows.get(r);
    if (!row) {
      lines.push('');
      continue;
    }
    const lastColumn = Math.max(...row.keys());
    const values: string[] = [];
    for (let c = 0; c <= lastColumn; c++) values.push((row.get(c) ?? '').replace(/[\t\n\r]+/g, ' '));
    lines.push(values.join('\t'));
  }
  return lines.join('\n');
}

function slideText(slide: Y.Map<unknown>): string {
  const boxes = slide.get('boxes');
  if (!(boxes instanceof Y.Array)) return '';
  return (boxes as Y.Array<unknown>)
    .toArray()
    .map((box) => (box instanceof Y.Map && box.get('content') instanceof Y.XmlFragment ? richTextToPlain(box.get('content') as Y.XmlFragment) : ''))
    .filter((text) => text.length > 0)
    .join('\n');
}
