import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { toXlsx } from '../../src/domain/export/converters/xlsx.js';
import type { WorkbookSource } from '../../src/domain/export/source.js';
import { countWorkbook, countXlsxFile, XLSX_FEATURES } from '../../scripts/office-fidelity.js';

/**
 * The xlsx counter of `npm run fidelity` (docs/IMPORT-EXPORT.md "Excel workbooks"): it reads the features the
 * service's xlsx writer puts in a file as the model counter counts them in the content it was given, so the
 * "export" column measures what the writer loses, not what the two counters disagree on. The corpus run itself
 * takes about 45 s, too long for the suite: this checks the counters on a workbook holding each feature the
 * writer writes.
 */
const SOURCE: WorkbookSource = {
  kind: 'workbook',
  title: 'features',
  sheets: [
    {
      name: 'First',
      cells: [
        { row: 0, column: 0, value: 'Name', style: { b: true } },
        { row: 0, column: 1, value: 'Amount', style: { bg: '#ffcc00', bb: { s: 'thin' } } },
        { row: 1, column: 0, value: 'a' },
        { row: 1, column: 1, value: 2.5, format: '0.00' },
        { row: 2, column: 1, value: 5, formula: 'B2*2', format: '0.00' },
        { row: 3, column: 1, value: '2026-01-02T00:00:00.000Z', date: true },
        // a filled empty cell: fills and borders count without a value
        { row: 4, column: 2, value: null, style: { bg: '#00ff00', bl: { s: 'double' } } },
      ],
      rowCount: 5,
      columnCount: 3,
      columnWidths: { 0: 150, 2: 40 },
      rowHeights: { 1: 40 },
      // a filled row and an italic one (not counted); a bold column of a width, and a filled one right of the last
      // cell (not counted; its <col> has the default width)
      rowStyles: { 1: { bg: '#ddeeff' }, 2: { i: true } },
      columnStyles: { 0: { b: true }, 5: { bg: '#ddeeff' } },
      frozenRows: 1,
      merges: [{ startRow: 2, startColumn: 0, endRow: 3, endColumn: 0 }],
      hidden: { rows: [3], columns: [2] },
      protected: true,
      protectedRanges: [{ name: 'Inputs', areas: [{ startRow: 1, startColumn: 1, endRow: 2, endColumn: 1 }] }],
    },
    { name: 'Second', cells: [{ row: 0, column: 0, value: true }], rowCount: 1, columnCount: 1, columnWidths: {}, rowHeights: {}, frozenRows: 0, merges: [] },
  ],
};

describe('the xlsx fidelity counter', () => {
  it('counts in the written file what the model counter counts in the content written', async () => {
    const model = countWorkbook(SOURCE);
    expect(model).toMatchObject({ sheets: 2, values: 7, formulas: 1, merges: 1, numberFormats: 3, boldCells: 1, fills: 2, borders: 2, columnWidths: 2, rowHeights: 1, lineStyles: 2, hiddenColumns: 1, hiddenRows: 1, frozenPanes: 1, protections: 2 });
    const file = await countXlsxFile(await toXlsx(SOURCE, { step: () => undefined }));
    // the frozen header row is written as the model has it (no bold added): B1 is not bold
    expect(file.counts).toEqual(model);
    expect(file.lastColumns).toEqual([3, 1]);
    for (const feature of XLSX_FEATURES) expect(file.counts[feature], feature).toBeGreaterThanOrEqual(model[feature]);
  });

  it('counts columns up to the last column holding a cell, or up to the columns it is given', async () => {
    const wide: WorkbookSource = { ...SOURCE, sheets: [{ ...SOURCE.sheets[1]!, columnWidths: { 0: 80, 5: 80 }, hidden: { rows: [], columns: [6] } }] };
    const bytes = await toXlsx(wide, { step: () => undefined });
    expect((await countXlsxFile(bytes)).counts).toMatchObject({ columnWidths: 1, hiddenColumns: 0 });
    // the writer gives a hidden column without a width the default one (so that it comes back as wide once shown)
    expect((await countXlsxFile(bytes, [7])).counts).toMatchObject({ columnWidths: 3, hiddenColumns: 1 });
  });

  it('counts frozen rows and frozen columns apart: the model keeps rows only, so a pane frozen at E5 is not all kept', async () => {
    const book = new ExcelJS.Workbook();
    book.addWorksheet('Both', { views: [{ state: 'frozen', xSplit: 4, ySplit: 4 }] }).getCell('A1').value = 1;
    book.addWorksheet('Columns', { views: [{ state: 'frozen', xSplit: 2, ySplit: 0 }] }).getCell('A1').value = 1;
    book.addWorksheet('Split', { views: [{ state: 'split', xSplit: 2000, ySplit: 2000 }] }).getCell('A1').value = 1;
    const counts = (await countXlsxFile(new Uint8Array(await book.xlsx.writeBuffer()))).counts;
    expect(counts).toMatchObject({ frozenPanes: 1, frozenColumns: 2 });
  });

  it("counts an empty cell that repeats its row's or column's look with the line, not as a filled cell", async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Lines');
    const yellow: ExcelJS.Fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFFFFF00' } };
    const green: ExcelJS.Fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FF00FF00' } };
    sheet.getCell('D2').value = 1;
    const row = sheet.getRow(1);
    row.fill = yellow;
    // the row's cells written out as Excel does for a formatted row: two empty ones in its look, one with a value, one
    // empty in a look of its own
    row.getCell(1).fill = yellow;
    row.getCell(2).fill = yellow;
    row.getCell(3).value = 'kept';
    row.getCell(3).fill = yellow;
    row.getCell(4).fill = green;
    const counts = (await countXlsxFile(new Uint8Array(await book.xlsx.writeBuffer()))).counts;
    expect(counts).toMatchObject({ lineStyles: 1, fills: 2, values: 2 });
  });
});
