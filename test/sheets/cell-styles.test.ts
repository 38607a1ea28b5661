import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import type { Cell } from '../../src/model/content.js';
import { appendSheet, sheetModels } from '../../src/model/sheets/sheet-model.js';
import { addressOf as cellKey, putCells, storedCells as cellsOf } from './stored-cells.js';
import { toHtml } from '../../src/domain/export/converters/html.js';
import { toCsv } from '../../src/domain/export/converters/csv.js';
import { sourceFromState } from '../../src/domain/export/source.js';
import { testDatabases } from '../support/databases.js';
import { startService, type TestService } from '../support/service.js';
import { createFile, exportFile, setCells, workbookOf } from '../export/support.js';
import { importAndWait } from '../import/support.js';

const TASKS = { worker: true, concurrency: 2, perAppConcurrency: 2, pollMs: 50, leaseMs: 10_000, maxAttempts: 2, retentionMs: 3_600_000 };
const IMPORTS = { limitBytes: 8 * 1024 * 1024, converterMemoryMb: 256, converterTimeoutMs: 60_000, fetchTimeoutMs: 2000 };
const quiet = { step: () => undefined };

describe('spreadsheet cell styles through the server [sqlite]', { timeout: 120_000 }, () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startService(testDatabases()[0]!, { integrator: true, tasks: TASKS, imports: IMPORTS });
  });
  afterAll(async () => {
    await svc.close();
  });

  /** The stored cells of a file's first sheet, by key. */
  async function storedCells(fileId: string): Promise<Record<string, Cell>> {
    const doc = await svc.services.content.read(svc.app.id, fileId);
    return cellsOf(doc);
  }

  it('xlsx export writes bold, italic, font colour, fill and alignment; frozen rows look as the editor shows them (not made bold)', async () => {
    await createFile(svc, 'styled', 'spreadsheet', 'Styled');
    await setCells(svc, 'styled', {
      [cellKey(0, 0)]: { v: 'Head', s: { i: true } },
      [cellKey(1, 0)]: { v: 'Total', s: { b: true, i: true, c: '#c92a2a' } },
      [cellKey(1, 1)]: { v: 42, s: { bg: '#fff3bf', a: 'center' } },
      // an empty filled cell is exported with its fill
      [cellKey(1, 2)]: { s: { bg: '#d3f9d8' } },
      [cellKey(2, 0)]: { f: '=B2*2', s: { a: 'right' } },
      [cellKey(3, 0)]: { v: 'long text', s: { ff: 'Georgia', fs: 14, w: true, bt: { s: 'thin' }, bb: { s: 'double', c: '#1c7ed6' }, bl: { s: 'dashed' } } },
    });
    await svc.services.content.change(svc.app.id, 'styled', { userId: 'u', name: 'U' }, (doc) => sheetModels(doc)[0]!.setFrozenRows(1));
    const sheet = (await workbookOf((await exportFile(svc, 'styled', 'xlsx')).bytes)).getWorksheet('Sheet1')!;
    expect(sheet.getCell('A1').font).toMatchObject({ italic: true });
    expect(sheet.getCell('A1').font?.bold).toBeFalsy();
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(sheet.getCell('A2').font).toMatchObject({ bold: true, italic: true, color: { argb: 'FFC92A2A' } });
    expect(sheet.getCell('B2').fill).toMatchObject({ type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFFFF3BF' } });
    expect(sheet.getCell('B2').alignment).toMatchObject({ horizontal: 'center' });
    expect(sheet.getCell('B2').font?.bold).toBeFalsy();
    expect(sheet.getCell('C2').fill).toMatchObject({ fgColor: { argb: 'FFD3F9D8' } });
    expect(sheet.getCell('C2').value).toBeNull();
    expect(sheet.getCell('A3').alignment).toMatchObject({ horizontal: 'right' });
    expect(sheet.getCell('A3').value).toEqual({ formula: 'B2*2', result: 84 });
    // fonts, wrapping and borders (issue 24)
    expect(sheet.getCell('A4').font).toMatchObject({ name: 'Georgia', size: 14 });
    expect(sheet.getCell('A4').alignment).toMatchObject({ wrapText: true });
    expect(sheet.getCell('A4').border).toEqual({
      top: { style: 'thin', color: { argb: 'FF000000' } },
      bottom: { style: 'double', color: { argb: 'FF1C7ED6' } },
      left: { style: 'dashed', color: { argb: 'FF000000' } },
    });
  });

  it('an xlsx with styles imports with the part the model keeps', async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Styles');
    const a1 = sheet.getCell('A1');
    a1.value = 'bold red';
    a1.font = { bold: true, italic: true, color: { argb: 'FFFF0000' }, name: 'Arial', size: 14 };
    const b1 = sheet.getCell('B1');
    b1.value = 12;
    b1.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FF00B0F0' } };
    b1.alignment = { horizontal: 'center', vertical: 'top' };
    // a hatched fill and a justified alignment have no place in the model: left out; a theme colour is the theme's (accent 1 of exceljs' theme)
    const c1 = sheet.getCell('C1');
    c1.value = 'themed';
    c1.font = { color: { theme: 4 } };
    c1.fill = { type: 'pattern', pattern: 'darkGrid', fgColor: { argb: 'FF00FF00' } };
    c1.alignment = { horizontal: 'justify' };
    const d1 = sheet.getCell('D1');
    d1.value = { formula: 'B1*2', result: 24 };
    d1.alignment = { horizontal: 'right' };
    // borders (their colours: RGB, or the theme's dark 2, #1F497D in exceljs' theme), wrapping, an explicit font; the theme's font and the default 11 points are the default look
    const e1 = sheet.getCell('E1');
    e1.value = 'boxed';
    e1.border = { top: { style: 'thin' }, right: { style: 'mediumDashed', color: { argb: 'FF1C7ED6' } }, bottom: { style: 'hair' }, left: { style: 'thick', color: { theme: 3 } } };
    e1.alignment = { wrapText: true };
    e1.font = { name: 'Calibri', size: 11, scheme: 'minor' };
    const done = await importAndWait(svc, { fileId: 'imported-styles', type: 'spreadsheet' }, { name: 'styles.xlsx', data: new Uint8Array(await book.xlsx.writeBuffer()) });
    expect(done.body.status, done.text).toBe(0);
    const cells = await storedCells('imported-styles');
    expect(cells[cellKey(0, 0)]).toEqual({ v: 'bold red', s: { b: true, i: true, c: '#ff0000', ff: 'Arial', fs: 14 } });
    expect(cells[cellKey(0, 1)]).toEqual({ v: 12, s: { bg: '#00b0f0', a: 'center' } });
    expect(cells[cellKey(0, 2)]).toEqual({ v: 'themed', s: { c: '#4f81bd' } });
    expect(cells[cellKey(0, 3)]).toEqual({ f: '=B1*2', s: { a: 'right' } });
    expect(cells[cellKey(0, 4)]).toEqual({ v: 'boxed', s: { w: true, bt: { s: 'thin' }, br: { s: 'medium', c: '#1c7ed6' }, bb: { s: 'thin' }, bl: { s: 'thick', c: '#1f497d' } } });
  });

  it('the attrs call sets fonts, wrapping and borders, and refuses bad ones with 126001, changing nothing', async () => {
    await createFile(svc, 'attrs-fonts', 'spreadsheet');
    const call = (attrs: Record<string, unknown>) => svc.call('POST', '/sdk/v2/api/files/attrs-fonts/sheets/attrs', { body: { range: 'A1:B1', attrs } });
    const done = await call({ fontFamily: 'Georgia', fontSize: 14, wrapText: true, borders: { bottom: { style: 'double', color: '#1C7ED6' }, top: { style: 'thin' } } });
    expect(done.status, done.text).toBe(200);
    expect((await storedCells('attrs-fonts'))[cellKey(0, 1)]).toEqual({ s: { ff: 'Georgia', fs: 14, w: true, bt: { s: 'thin' }, bb: { s: 'double', c: '#1c7ed6' } } });
    for (const bad of [{ fontFamily: 'x;y' }, { fontSize: 0 }, { wrapText: 'yes' }, { borders: { middle: { style: 'thin' } } }, { borders: { top: { style: 'wavy' } } }, { borders: { top: { style: 'thin', color: 'red' } } }]) {
      const refused = await call(bad);
      expect(refused.status, JSON.stringify(bad)).toBe(400);
      expect(refused.body.status).toBe(126001);
    }
    expect((await call({ borders: { top: null }, fontFamily: null, wrapText: false })).status).toBe(200);
    expect((await storedCells('attrs-fonts'))[cellKey(0, 1)]).toEqual({ s: { fs: 14, bb: { s: 'double', c: '#1c7ed6' } } });
  });

  it('values written or cleared through the API keep the style; rows deleted move it, formulas moved keep it', async () => {
    await createFile(svc, 'kept', 'spreadsheet');
    await setCells(svc, 'kept', {
      [cellKey(0, 0)]: { v: 'gone' },
      [cellKey(1, 0)]: { v: 1, s: { b: true } },
      [cellKey(2, 0)]: { v: 2, s: { c: '#0000ff' } },
      [cellKey(3, 0)]: { f: '=A3*2', z: '0.00', s: { bg: '#ffffff' } },
    });
    const values = '/sdk/v2/api/files/kept/sheets/values';
    const written = await svc.call('POST', values, { body: { range: 'A2:A3', resource: { values: [[10], ['']] } } });
    expect(written.status, written.text).toBe(200);
    expect((await svc.call('DELETE', '/sdk/v2/api/files/kept/sheets/Sheet1/rows/0')).status).toBe(200);
    const cells = await storedCells('kept');
    expect(cells[cellKey(0, 0)]).toEqual({ v: 10, s: { b: true } });
    expect(cells[cellKey(1, 0)]).toEqual({ s: { c: '#0000ff' } });
    expect(cells[cellKey(2, 0)]).toEqual({ f: '=A2*2', z: '0.00', s: { bg: '#ffffff' } });
  });

  it('the pdf export draws the styles; csv leaves a style-only cell out', async () => {
    const doc = new Y.Doc();
    appendSheet(doc, 'S');
    putCells(doc, {
      A1: { v: 'x', s: { b: true, c: '#c92a2a', a: 'center' } },
      B4: { s: { bg: '#fff3bf' } },
      // what does not validate is not drawn: a stored style is read through the same check as a written one
      B1: { v: 'y', s: { c: 'red;background:url(x)', i: 'yes' } as unknown as Cell['s'] },
    });
    const source = sourceFromState(Y.encodeStateAsUpdate(doc), 'spreadsheet', 'Styled');
    if (source.kind !== 'workbook') throw new Error(`a spreadsheet's source is a workbook, not ${source.kind}`);
    const { html } = toHtml(source, quiet, '');
    expect(html).toContain('<td style="font-weight:bold;color:#c92a2a;text-align:center">x</td>');
    expect(html).toContain('<td style="background:#fff3bf"></td>');
    expect(html).toContain('<td>y</td>');
    expect(html).not.toContain('url(x)');
    expect(new TextDecoder().decode(toCsv(source, quiet))).toBe('x,y\r\n');
  });
});
