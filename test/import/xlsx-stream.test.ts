import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases.js';
import { startService, type TestService } from '../support/service.js';
import { importAndWait } from './support.js';
import { sheetModels } from '../../src/model/sheets/sheet-model.js';

const TASKS = { worker: true, concurrency: 2, perAppConcurrency: 2, pollMs: 50, leaseMs: 10_000, maxAttempts: 2, retentionMs: 3_600_000 };
/** More cells than one block of the spreadsheet encoder (32,768), so the sheet's structs span several blocks. */
const BIG_ROWS = 3_500;
const DAY = Date.UTC(2024, 0, 1);
/** 2024-01-01 as a spreadsheet serial number. */
const DAY_SERIAL = 45_292;

/**
 * Three sheets, written by exceljs' streaming writer with shared strings (so exceljs reads the worksheets as they
 * come): "Big" of 3,500 rows × 10 columns (text, numbers, booleans, dates, a formula in every row and a shared
 * formula down column J), "Totals" with formulas over Big, and an empty "Blank".
 */
async function workbook(): Promise<Uint8Array> {
  const stream = new (await import('node:stream')).PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useSharedStrings: true });
  const big = book.addWorksheet('Big');
  for (let row = 1; row <= BIG_ROWS; row++) {
    big
      .addRow([
        `Item ${row}`,
        row,
        row * 0.5,
        row % 3 === 0,
        new Date(DAY + (row - 1) * 86_400_000),
        { formula: `B${row}*C${row}`, result: row * row * 0.5 },
        `note ${row % 7}`,
        -row,
        row % 2 === 0 ? 'even' : null,
        row === 1 ? { formula: 'B1+H1', result: 0, shareType: 'shared', ref: `J1:J${BIG_ROWS}` } : { sharedFormula: 'J1', result: 0 },
      ] as ExcelJS.CellValue[])
      .commit();
  }
  big.commit();
  const totals = book.addWorksheet('Totals');
  totals.addRow(['Sum of B', { formula: `SUM(Big!B1:B${BIG_ROWS})`, result: 0 }]).commit();
  totals.addRow(['Last F', { formula: `Big!F${BIG_ROWS}`, result: 0 }]).commit();
  totals.commit();
  book.addWorksheet('Blank').commit();
  await book.commit();
  return new Uint8Array(Buffer.concat(chunks));
}

async function rowsSwapped(bytes: Uint8Array): Promise<Uint8Array> {
  const zip = await JSZip.loadAsync(bytes);
  const xml = await zip.file('xl/worksheets/sheet1.xml')!.async('string');
  const rows = [...xml.matchAll(/<row [^>]*r="(\d+)"[\s\S]*?<\/row>/g)];
  const [second, third] = [rows[1]![0], rows[2]![0]];
  zip.file('xl/worksheets/sheet1.xml', xml.replace(second + third, third + second));
  return zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
}

describe('xlsx → spreadsheet, streamed from the reader to the encoder [sqlite]', { timeout: 120_000 }, () => {
  let svc: TestService;
  let bytes: Uint8Array;
  beforeAll(async () => {
    bytes = await workbook();
    svc = await startService(testDatabases()[0]!, { integrator: true, tasks: TASKS, imports: { limitBytes: 8 * 1024 * 1024, converterMemoryMb: 256, converterTimeoutMs: 60_000, fetchTimeoutMs: 2000 } });
  });
  afterAll(async () => {
    await svc.close();
  });

  const values = async (fileId: string, range: string) => {
    const answer = await svc.call('GET', `/sdk/v2/api/files/${fileId}/sheets/values`, { query: { range } });
    expect(answer.status, answer.text).toBe(200);
    return answer.body.data.values as unknown[][];
  };

  it('every sheet in order, every cell of a sheet larger than one encoder block, formulas (shared too, across sheets) computed, dates as serials', async () => {
    const done = await importAndWait(svc, { fileId: 'streamed', type: 'spreadsheet' }, { name: 'streamed.xlsx', data: bytes });
    expect(done.body.status, done.text).toBe(0);
    const doc = await svc.services.content.read(svc.app.id, 'streamed');
    const sheets = doc.getArray<any>('sheets').toArray();
    expect(sheets.map((sheet) => sheet.get('name'))).toEqual(['Big', 'Totals', 'Blank']);
    const models = sheetModels(doc);
    expect(models.map((sheet) => sheet.cellCount)).toEqual([BIG_ROWS * 10 - BIG_ROWS / 2, 4, 0]);
    expect(models[0]!.rowCount).toBe(BIG_ROWS);
    expect(models[0]!.cell(BIG_ROWS - 1, 9)).toEqual({ f: `=B${BIG_ROWS}+H${BIG_ROWS}` });

    expect(await values('streamed', 'Big!A1:J2')).toEqual([
      ['Item 1', 1, 0.5, false, DAY_SERIAL, 0.5, 'note 1', -1, '', 0],
      ['Item 2', 2, 1, false, DAY_SERIAL + 1, 2, 'note 2', -2, 'even', 0],
    ]);
    const last = BIG_ROWS;
    expect(await values('streamed', `Big!A${last}:J${last}`)).toEqual([[`Item ${last}`, last, last * 0.5, false, DAY_SERIAL + last - 1, last * last * 0.5, `note ${last % 7}`, -last, 'even', 0]]);
    expect(await values('streamed', 'Totals!A1:B2')).toEqual([
      ['Sum of B', (BIG_ROWS * (BIG_ROWS + 1)) / 2],
      ['Last F', last * last * 0.5],
    ]);
  });

  it('number formats come along: cells show in the editor and FORMATTED_VALUE as in the workbook; csv dates as dates', async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Formats');
    const cells: Array<[ExcelJS.CellValue, string | undefined]> = [
      [1234.5, '#,##0.00'],
      [0.256, '0.0%'],
      [new Date(Date.UTC(2024, 2, 15)), 'yyyy-mm-dd'],
      [45366.375, 'yyyy-mm-dd hh:mm'],
      [-42, '#,##0;(#,##0)'],
      [7, undefined],
      [0.5, '# ?/?'],
    ];
    cells.forEach(([value, format], index) => {
      const cell = sheet.getCell(1, index + 1);
      cell.value = value;
      if (format) cell.numFmt = format;
    });
    const done = await importAndWait(svc, { fileId: 'formatted', type: 'spreadsheet' }, { name: 'formatted.xlsx', data: new Uint8Array(await book.xlsx.writeBuffer()) });
    expect(done.body.status, done.text).toBe(0);
    const shown = await svc.call('GET', '/sdk/v2/api/files/formatted/sheets/values', { query: { range: 'A1:G1', valueRenderOption: 'FORMATTED_VALUE' } });
    // fractions show as Excel shows them (numfmt): `# ?/?` keeps the space where the whole number would stand
    expect(shown.body.data.values).toEqual([['1,234.50', '25.6%', '2024-03-15', '2024-03-15 09:00', '(42)', '7', ' 1/2']]);
    expect(await values('formatted', 'A1:C1')).toEqual([[1234.5, 0.256, 45366]]);

    const csv = new TextEncoder().encode('when,amount\n2024-03-15,12\n2024-03-16 08:30,13\n');
    expect((await importAndWait(svc, { fileId: 'dated', type: 'spreadsheet' }, { name: 'dated.csv', data: csv })).body.status).toBe(0);
    const dates = await svc.call('GET', '/sdk/v2/api/files/dated/sheets/values', { query: { range: 'A2:B3', valueRenderOption: 'FORMATTED_VALUE' } });
    expect(dates.body.data.values).toEqual([['2024-03-15', '12'], ['2024-03-16 08:30:00', '13']]);
  });

  it('a worksheet listing a row after a later one fails as corrupt (121005) and creates no file', async () => {
    const done = await importAndWait(svc, { fileId: 'disordered', type: 'spreadsheet' }, { name: 'disordered.xlsx', data: await rowsSwapped(bytes) });
    expect(done.body.status, done.text).toBe(121005);
    expect(done.body.message).toContain('row 2 after row 3');
    expect(await svc.services.files.find(svc.app.id, 'disordered')).toBeUndefined();
  });

  it('the same workbook still becomes a table (rows collected whole to type the columns)', async () => {
    const done = await importAndWait(svc, { fileId: 'as-table', type: 'table' }, { name: 'streamed.xlsx', data: bytes });
    expect(done.body.status, done.text).toBe(0);
    const tables = await svc.call('GET', '/sdk/v2/api/table-api/openapi/v1/tables', { query: { baseGuid: 'as-table' } });
    expect(tables.status, tables.text).toBe(200);
    const list = Array.isArray(tables.body.data) ? tables.body.data : tables.body.data.tables;
    expect(list.map((table: { name: string }) => table.name).sort()).toEqual(['Big', 'Blank', 'Totals']);
  });
});
