import * as Y from 'yjs';
import { MAX_COLUMNS, MAX_ROWS } from '../../model/sheets/a1.js';
import { calculationOf, toDisplay, type CellValue, type Workbook } from '../../model/sheets/formulas/index.js';
import { richTextOf, slideMaps, type ContentKind } from '../../model/content.js';
import { richTextToPlain } from '../../model/rich-text/schema.js';
import { sheetIds } from '../../model/sheets/sheet-model.js';

/**
 * Plain text of a file's content (docs/CONTENT-MODEL.md "Plain text"):
 * - document, documentPro: reading order, one line per paragraph/heading/list item, table rows with
 *   tab-separated cells;
 * - spreadsheet: per sheet, its rows up to the last non-empty one, cells tab-separated (trailing empty cells
 *   dropped), the value shown (formulas computed by the formula engine); sheets separated by a blank line;
 * - presentation: slide by slide, each text box's text in box order; slides separated by a blank line.
 */
export function plainTextOf(doc: Y.Doc, kind: ContentKind): string {
  switch (kind) {
    case 'document':
    case 'documentPro':
      return richTextToPlain(richTextOf(doc));
    case 'spreadsheet': {
      const workbook = calculationOf(doc);
      return sheetIds(doc)
        .map((sheetId) => sheetText(workbook, sheetId))
        .join('\n\n');
    }
    case 'presentation':
      return slideMaps(doc)
        .map((slide) => slideText(slide))
        .join('\n\n');
  }
}

/** A cell as plain text: its computed value, booleans as TRUE/FALSE, errors as their code. */
function cellText(value: Exclude<CellValue, null>): string {
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  return String(toDisplay(value));
}

function sheetText(workbook: Workbook, sheetId: string): string {
  // per row its cells' texts by column (sparse), built in whatever order the cells come
  const rows = new Map<number, string[]>();
  let lastRow = -1;
  workbook.forEachCell(sheetId, { startRow: 0, endRow: MAX_ROWS - 1, startColumn: 0, endColumn: MAX_COLUMNS - 1 }, (row, column, value) => {
    const text = cellText(value);
    if (text === '') return;
    let line = rows.get(row);
    if (!line) rows.set(row, (line = []));
    line[column] = text.replace(/[\t\n\r]+/g, ' ');
    if (row > lastRow) lastRow = row;
  });
  const lines: string[] = [];
  for (let r = 0; r <= lastRow; r++) lines.push(Array.from(rows.get(r) ?? [], (text) => text ?? '').join('\t'));
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
