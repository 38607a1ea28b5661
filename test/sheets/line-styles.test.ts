import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { docFromState, initialContent } from '../../src/model/content.js';
import { withStyle, toCell } from '../../src/model/sheets/cells.js';
import type { CellStyle } from '../../src/model/sheets/cell-style.js';
import { afterUndoStep, applyStructureEdit, moveSheet, appendSheet, sheetModels, type SheetModel } from '../../src/model/sheets/sheet-model.js';
import { setCellAttributes } from '../../src/domain/sheets/workbook.js';
import { parseA1 } from '../../src/model/sheets/a1.js';
import { xlsx } from '../../src/domain/import/formats/xlsx.js';
import { SpreadsheetEncoder } from '../../src/domain/import/spreadsheet-encoder.js';
import { importedColumnStyles, joinParts, type ImportedColumns } from '../../src/domain/import/conversion.js';
import { sourceFromState, type WorkbookSource } from '../../src/domain/export/source.js';
import { toXlsx } from '../../src/domain/export/converters/xlsx.js';
import { toHtml } from '../../src/domain/export/converters/html.js';
import { firstScreen } from '../../src/domain/sheets/first-screen.js';

/**
 * Whole-row and whole-column styles (docs/SHEETS.md "Cell styles", docs/CONTENT-MODEL.md "spreadsheet"): kept once on
 * the line, keyed by its id; a cell without a style of its own shows its row's, else its column's (Excel's order),
 * empty cells too; a style change of a cell starts from what it shows.
 */

const FILL = { bg: '#ffeeaa' } as const;
const BLUE = { c: '#0000ff' } as const;
const quiet = { step: () => undefined };

function newSheet(): { doc: Y.Doc; sheet: SheetModel } {
  const doc = docFromState(initialContent('spreadsheet'));
  return { doc, sheet: sheetModels(doc)[0]! };
}

async function imported(bytes: Uint8Array): Promise<Y.Doc> {
  const encoder = new SpreadsheetEncoder();
  await xlsx.readWorkbook!(Buffer.from(bytes), encoder, () => undefined);
  return docFromState(joinParts(encoder.finish()));
}

describe('row and column styles in the model', () => {
  it('a cell shows its own style, else its row\'s, else its column\'s, empty cells too', () => {
    const { doc, sheet } = newSheet();
    doc.transact(() => {
      sheet.setLineStyle('rows', 2, FILL);
      sheet.setLineStyle('columns', 1, BLUE);
      sheet.setCell(2, 3, { v: 'own', s: { b: true } });
      sheet.setCell(2, 4, { v: 'plain' });
    });
    expect(sheet.styleAt(2, 3)).toEqual({ b: true });
    expect(sheet.styleAt(2, 4)).toEqual(FILL);
    // row before column where both have one
    expect(sheet.styleAt(2, 1)).toEqual(FILL);
    expect(sheet.styleAt(7, 1)).toEqual(BLUE);
    expect(sheet.styleAt(7, 2)).toBeUndefined();
    // nothing is copied into the cells
    expect(sheet.cell(2, 4)).toEqual({ v: 'plain' });
    expect(sheet.cellCount).toBe(2);
    expect([...sheet.lineStyles('rows')]).toEqual([[2, FILL]]);
    expect([...sheet.lineStyles('columns')]).toEqual([[1, BLUE]]);
  });

  it('a sheet without line styles (an old document) reads every style as its cells give it', () => {
    const { doc, sheet } = newSheet();
    doc.transact(() => {
      sheet.setCell(0, 0, { v: 1, s: { i: true } });
      sheet.setCell(1, 0, { v: 2 });
    });
    const reread = sheetModels(docFromState(Y.encodeStateAsUpdate(doc)))[0]!;
    expect(reread.styleAt(0, 0)).toEqual({ i: true });
    expect(reread.styleAt(1, 0)).toBeUndefined();
    expect(reread.lineStyles('rows').size).toBe(0);
  });

  it('a row\'s style follows its row through insertions and deletions above it, and goes with a deleted row', () => {
    const { doc, sheet } = newSheet();
    doc.transact(() => {
      sheet.setLineStyle('rows', 4, FILL);
      sheet.setLineStyle('columns', 2, BLUE);
    });
    doc.transact(() => applyStructureEdit(doc, sheet, { kind: 'insert', axis: 'rows', index: 1, count: 3 }));
    expect([...sheet.lineStyles('rows')]).toEqual([[7, FILL]]);
    expect(sheet.styleAt(7, 0)).toEqual(FILL);
    expect(sheet.styleAt(4, 0)).toBeUndefined();
    doc.transact(() => applyStructureEdit(doc, sheet, { kind: 'delete', axis: 'columns', index: 0, count: 1 }));
    expect([...sheet.lineStyles('columns')]).toEqual([[1, BLUE]]);
    doc.transact(() => applyStructureEdit(doc, sheet, { kind: 'delete', axis: 'rows', index: 7, count: 1 }));
    expect(sheet.lineStyles('rows').size).toBe(0);
    expect(sheet.styleAt(7, 0)).toBeUndefined();
  });

  it('a row deleted and brought back by undo keeps its style', () => {
    const { doc, sheet } = newSheet();
    doc.transact(() => sheet.setLineStyle('rows', 3, FILL));
    const origin = { test: 'undo' };
    const undo = new Y.UndoManager(doc.getArray('sheets'), { trackedOrigins: new Set([origin]), captureTimeout: 0 });
    undo.on('stack-item-popped', ({ stackItem }) => afterUndoStep(doc, stackItem, { revive: true }));
    doc.transact(() => applyStructureEdit(doc, sheet, { kind: 'delete', axis: 'rows', index: 3, count: 1 }), origin);
    expect(sheet.styleAt(3, 0)).toBeUndefined();
    undo.undo();
    expect(sheet.styleAt(3, 0)).toEqual(FILL);
  });

  it('a sheet moved (copied under new ids) keeps its row and column styles', () => {
    const { doc } = newSheet();
    doc.transact(() => {
      const second = appendSheet(doc, 'Second');
      second.setLineStyle('rows', 5, FILL);
      second.setLineStyle('columns', 3, BLUE);
      moveSheet(doc, second, 0);
    });
    const moved = sheetModels(doc)[0]!;
    expect(moved.name).toBe('Second');
    expect(moved.styleAt(5, 0)).toEqual(FILL);
    expect(moved.styleAt(0, 3)).toEqual(BLUE);
  });

  it('a style change of an empty cell in a filled row starts from the row\'s: bolding it keeps the fill', () => {
    const { doc, sheet } = newSheet();
    doc.transact(() => sheet.setLineStyle('rows', 1, FILL));
    doc.transact(() => setCellAttributes(doc, parseA1('B2'), { bold: true }));
    expect(sheet.styleAt(1, 1)).toEqual({ ...FILL, b: true });
    // unbolding gives the row's look back: the cell keeps no style of its own
    doc.transact(() => setCellAttributes(doc, parseA1('B2'), { bold: false }));
    expect(sheet.styleAt(1, 1)).toEqual(FILL);
    expect(sheet.cell(1, 1)).toBeUndefined();
    // taking the fill away shows the default look, over the row's
    doc.transact(() => setCellAttributes(doc, parseA1('B2'), { backgroundColor: null }));
    expect(sheet.styleAt(1, 1)).toBeUndefined();
    expect(sheet.styleAt(1, 2)).toEqual(FILL);
    // and typing into that cell keeps its default look
    doc.transact(() => sheet.setCell(1, 1, toCell('typed', sheet.cell(1, 1))));
    expect(sheet.styleAt(1, 1)).toBeUndefined();
    expect(sheet.cell(1, 1)?.v).toBe('typed');
  });

  it('withStyle on a sheet without line styles stores what it stored before', () => {
    expect(withStyle(undefined, { b: true })).toEqual({ s: { b: true } });
    expect(withStyle({ v: 1, s: { b: true } }, { b: false })).toEqual({ v: 1 });
    expect(withStyle({ s: { b: true } }, { b: false })).toBeNull();
  });
});

describe('row and column styles in xlsx', () => {
  async function styledWorkbook(): Promise<Uint8Array> {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Lines');
    // exceljs gives a row's (column's) style to the cells made after it, as Excel writes them
    sheet.getColumn(4).fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FF00FF00' } };
    sheet.getRow(3).font = { bold: true };
    sheet.getCell('A1').value = 'plain';
    sheet.getCell('A3').value = 'in the bold row';
    sheet.getCell('D5').value = 'in the green column';
    const own = sheet.getCell('B3');
    own.value = 'italic';
    own.style = { font: { italic: true } };
    return new Uint8Array(await book.xlsx.writeBuffer());
  }

  it('reads the columns\' styles of overlapping <col> entries as the last naming each column says, each column once', () => {
    const entry = (startColumn: number, endColumn: number, style?: CellStyle): ImportedColumns => ({ startColumn, endColumn, width: undefined, hidden: false, ...(style ? { style } : {}) });
    const styles = importedColumnStyles([entry(0, 16_383, FILL), entry(2, 3, BLUE), entry(3, 5), entry(5, 6, { b: true })], 8);
    expect([...styles].sort((a, b) => a[0] - b[0])).toEqual([[0, FILL], [1, FILL], [2, BLUE], [3, BLUE], [4, FILL], [5, { b: true }], [6, { b: true }], [7, FILL]]);
    // a crafted file of many entries over every column: one step per column (entries times columns would be 320 million)
    const many = Array.from({ length: 20_000 }, (_, index) => entry(0, 16_383, index % 2 === 0 ? FILL : BLUE));
    const started = performance.now();
    const wide = importedColumnStyles(many, 16_384);
    expect(wide.size).toBe(16_384);
    expect(wide.get(100)).toEqual(BLUE);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('imports a row style and a column style once, on the line, and its cells show them', async () => {
    const doc = await imported(await styledWorkbook());
    const sheet = sheetModels(doc)[0]!;
    expect([...sheet.lineStyles('rows')]).toEqual([[2, { b: true }]]);
    expect(sheet.lineStyles('columns').get(3)).toEqual({ bg: '#00ff00' });
    // the cells' copies of their line's style are not stored
    expect(sheet.cell(2, 0)).toEqual({ v: 'in the bold row' });
    expect(sheet.cell(4, 3)).toEqual({ v: 'in the green column' });
    expect(sheet.styleAt(2, 0)).toEqual({ b: true });
    expect(sheet.styleAt(2, 5)).toEqual({ b: true });
    expect(sheet.styleAt(2, 1)).toEqual({ i: true });
    expect(sheet.styleAt(900, 3)).toEqual({ bg: '#00ff00' });
    expect(sheet.styleAt(0, 0)).toBeUndefined();
  });

  it('a row style without customFormat is not the row\'s (Excel\'s rule)', async () => {
    const zip = await JSZip.loadAsync(await styledWorkbook());
    const part = 'xl/worksheets/sheet1.xml';
    const xml = await zip.file(part)!.async('string');
    expect(xml).toMatch(/<row r="3"[^>]*customFormat="1"/);
    zip.file(part, xml.replace(/(<row r="3"[^>]*?) customFormat="1"/, '$1'));
    const sheet = sheetModels(await imported(await zip.generateAsync({ type: 'uint8array' })))[0]!;
    expect(sheet.lineStyles('rows').size).toBe(0);
    expect(sheet.styleAt(2, 5)).toBeUndefined();
  });

  it('exports them as <row s customFormat> and <col style>, which import back the same; pdf and first screen show them', async () => {
    const doc = await imported(await styledWorkbook());
    const source = sourceFromState(Y.encodeStateAsUpdate(doc), 'spreadsheet', 'lines') as WorkbookSource;
    expect(source.sheets[0]!.rowStyles).toEqual({ 2: { b: true } });
    expect(source.sheets[0]!.cells.find((cell) => cell.row === 2 && cell.column === 0)?.style).toEqual({ b: true });
    const bytes = await toXlsx(source, quiet);
    const xml = await (await JSZip.loadAsync(bytes)).file('xl/worksheets/sheet1.xml')!.async('string');
    expect(xml).toMatch(/<row r="3"[^>]* s="\d+"[^>]*customFormat="1"/);
    expect(xml).toMatch(/<col min="4" max="4"[^>]* style="\d+"/);
    const back = sheetModels(await imported(bytes))[0]!;
    expect([...back.lineStyles('rows')]).toEqual([[2, { b: true }]]);
    expect(back.lineStyles('columns').get(3)).toEqual({ bg: '#00ff00' });
    expect(back.styleAt(2, 1)).toEqual({ i: true });
    expect(back.cell(2, 0)).toEqual({ v: 'in the bold row' });

    // the pdf's table draws the cells of the bold row bold (but the italic one) and an empty cell of the green column green
    const { html } = toHtml(source, quiet, '');
    const row3 = /<tr[^>]*><th>3<\/th>(.*?)<\/tr>/.exec(html)![1]!.match(/<td[^>]*>/g)!;
    expect(row3.map((td) => td.includes('font-weight:bold'))).toEqual([true, false, true, true]);
    expect(row3[1]).toContain('font-style:italic');
    const row2 = /<tr[^>]*><th>2<\/th>(.*?)<\/tr>/.exec(html)![1]!;
    expect(row2.match(/<td[^>]*>/g)![3]).toContain('background:#00ff00');
    const screen = firstScreen(doc, null, 40, 1200);
    expect(screen.cells.find((cell) => cell.row === 2 && cell.column === 0)?.style).toEqual({ b: true });
    // the empty cells of the covered lines are drawn by their line's style
    expect(screen.rowStyles).toEqual([{ row: 2, style: { b: true } }]);
    expect(screen.columnStyles).toEqual([{ column: 3, style: { bg: '#00ff00' } }]);
    expect(firstScreen(doc, null, 2, 250)).toMatchObject({ rowStyles: [], columnStyles: [] });
  });
  it('a styled row holding no cell is written too, and a styled column without a width comes back at the default width', async () => {
    const { doc, sheet } = newSheet();
    doc.transact(() => {
      sheet.setCell(0, 0, { v: 'a' });
      sheet.setLineStyle('rows', 9, FILL);
      sheet.setLineStyle('columns', 2, BLUE);
    });
    const source = sourceFromState(Y.encodeStateAsUpdate(doc), 'spreadsheet', 'empty lines') as WorkbookSource;
    const back = sheetModels(await imported(await toXlsx(source, quiet)))[0]!;
    expect([...back.lineStyles('rows')]).toEqual([[9, FILL]]);
    expect([...back.lineStyles('columns')]).toEqual([[2, BLUE]]);
    expect(back.columnWidths().size).toBe(0);
    // the cell written to keep the row is its row's look: not stored
    expect(back.cellCount).toBe(1);
  });
});
