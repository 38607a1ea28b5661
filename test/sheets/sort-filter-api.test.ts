import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setHidden } from '../../src/model/sheets/hidden.js';
import { filteredRows, filterOf, setColumnFilter, setFilterArea } from '../../src/model/sheets/filter.js';
import { shownReader } from '../../src/model/sheets/shown-cells.js';
import { sheetModels } from '../../src/model/sheets/sheet-model.js';
import { testDatabases } from '../support/databases.js';
import { startService, type TestService } from '../support/service.js';
import { holdsFilesEnding, outsideDataDirectory } from '../../scripts/outside-data.js';
import { author, exportFile, workbookOf } from '../export/support.js';
import { importAndWait } from '../import/support.js';

/**
 * Sort and filter through the real server (docs/SHEETS.md "Sort and filter"): `POST sheets/sort` and its refusals,
 * the filter's xlsx export (auto filter, hidden rows) and import, checked against workbooks saved by Excel
 * (test/fixtures/xlsx-autofilter/README.md) whose hidden rows are what Excel's own filter hid.
 */

const SORT = (fileId: string) => `/sdk/v2/api/files/${fileId}/sheets/sort`;
const VALUES = (fileId: string) => `/sdk/v2/api/files/${fileId}/sheets/values`;
/** Excel-saved workbooks are fetched data, not committed (test/fixtures/xlsx-autofilter/README.md says where they come from). */
const excelSaved = outsideDataDirectory('xlsx-autofilter', (directory) => holdsFilesEnding(directory, '.xlsx'));
const fixture = (name: string) => new Uint8Array(readFileSync(path.join(excelSaved!, name)));

async function createWith(svc: TestService, fileId: string, values: unknown[][]): Promise<void> {
  expect((await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'spreadsheet', fileId } })).status).toBe(200);
  const width = Math.max(...values.map((line) => line.length));
  const written = await svc.call('POST', VALUES(fileId), { body: { range: `Sheet1!A1:${String.fromCharCode(64 + width)}${values.length}`, resource: { values } } });
  expect(written.status, written.text).toBe(200);
}

async function readWith(svc: TestService, fileId: string, range: string, render?: string): Promise<unknown> {
  return (await svc.call('GET', VALUES(fileId), { query: { range, ...(render ? { valueRenderOption: render } : {}) } })).body.data?.values;
}

for (const database of testDatabases()) {
  describe(`sort and filter through the server [${database.name}]`, () => {
    let svc: TestService;
    beforeAll(async () => {
      svc = await startService(database, { integrator: true });
    });
    afterAll(async () => svc.close());

    const create = (fileId: string, values: unknown[][]) => createWith(svc, fileId, values);
    const read = (fileId: string, range: string, render?: string) => readWith(svc, fileId, range, render);

    it('sorts a range by several keys under a header, formulas compared by value and moved with their row', async () => {
      await create('sorted', [
        ['Name', 'Dept', 'Salary', 'Bonus'],
        ['Ada', 'Sales', 4200, '=C2/10'],
        ['Ben', 'Ops', 6100, '=C3/10'],
        ['Cleo', 'Sales', 7300, '=C4/10'],
        ['Dan', 'Ops', 5100, '=C5/10'],
        ['Eve', null, 3900, '=C6/10'],
      ]);
      const sorted = await svc.call('POST', SORT('sorted'), { body: { range: 'Sheet1!A:D', keys: [{ column: 'B' }, { column: 'd', descending: true }], header: true } });
      expect(sorted.status, sorted.text).toBe(200);
      expect(sorted.body).toEqual({ status: 0, message: 'success', data: { sortedRange: 'Sheet1!A1:D6', movedRows: 3 } });
      expect(await read('sorted', 'A1:D6')).toEqual([
        ['Name', 'Dept', 'Salary', 'Bonus'],
        ['Ben', 'Ops', 6100, 610],
        ['Dan', 'Ops', 5100, 510],
        ['Cleo', 'Sales', 7300, 730],
        ['Ada', 'Sales', 4200, 420],
        ['Eve', '', 3900, 390],
      ]);
      expect((await read('sorted', 'D2:D3', 'FORMULA')) as unknown).toEqual([['=C2/10'], ['=C3/10']]);
      // sorted already: nothing moves
      const again = await svc.call('POST', SORT('sorted'), { body: { range: 'A1:D6', keys: [{ column: 'B' }, { column: 'D', descending: true }], header: true } });
      expect(again.body.data).toEqual({ sortedRange: 'Sheet1!A1:D6', movedRows: 0 });
    });

    it('refuses bad keys, merged cells, bad ranges and other kinds with documented codes, writing nothing', async () => {
      await create('refused', [['b', 1, null, 'merged'], ['a', 2]]);
      expect((await svc.call('POST', '/sdk/v2/api/files/refused/sheets/merge-cells', { body: { sheetName: 'Sheet1', cell: 'D1', rowspan: 2, colSpan: 1 } })).status).toBe(200);
      const cases: Array<[Record<string, unknown>, number, number]> = [
        [{ range: 'A1:B2', keys: [{ column: 'C' }] }, 400, 128200],
        [{ range: 'A1:B2', keys: [{ column: '1' }] }, 400, 128200],
        [{ range: 'A1:B2', keys: [] }, 400, 128200],
        [{ range: 'A1:B2' }, 400, 128200],
        [{ range: 'A1:E2', keys: [{ column: 'A' }] }, 409, 128201],
        [{ range: 'A1:B', keys: [{ column: 'A' }], header: 'yes' }, 400, 128200],
        [{ range: 'A1:B2:C', keys: [{ column: 'A' }] }, 400, 72001],
        [{ range: 'Nope!A1:B2', keys: [{ column: 'A' }] }, 404, 72002],
      ];
      for (const [body, status, code] of cases) {
        const answer = await svc.call('POST', SORT('refused'), { body });
        expect([answer.status, answer.body.status], `${JSON.stringify(body)}: ${answer.text}`).toEqual([status, code]);
        expect(answer.body.message).toMatch(/\w/);
      }
      expect(await read('refused', 'A1:D2')).toEqual([['b', 1, '', 'merged'], ['a', 2]]);
      expect((await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'document', fileId: 'refused-text' } })).status).toBe(200);
      const onDocument = await svc.call('POST', SORT('refused-text'), { body: { range: 'A1:B2', keys: [{ column: 'A' }] } });
      expect([onDocument.status, onDocument.body.status]).toEqual([400, 72010]);
    });
  });
}

describe('the filter through xlsx (import runs a converter: one database is enough)', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startService(testDatabases()[0]!, { integrator: true });
  });
  afterAll(async () => svc.close());

  it('exports the filter as the auto filter with the rows it hides, and hidden columns and rows as hidden', async () => {
    await createWith(svc, 'filtered', [['Fruit', 'Count'], ['apple', 5], ['pear', 12], ['apple', 30], ['fig', 7]]);
    await svc.services.content.change(svc.app.id, 'filtered', author, (doc) => {
      const sheet = sheetModels(doc)[0]!;
      setFilterArea(sheet, { startRow: 0, endRow: 4, startColumn: 0, endColumn: 1 });
      setColumnFilter(sheet, 0, { values: ['apple', 'fig'] });
      setColumnFilter(sheet, 1, { condition: { op: 'lt', value: 20 } });
      setHidden(sheet, 'columns', 3, 3, true);
      setHidden(sheet, 'rows', 4, 4, true);
    });
    const { bytes } = await exportFile(svc, 'filtered', 'xlsx');
    const sheet = (await workbookOf(bytes)).getWorksheet('Sheet1')!;
    expect(sheet.autoFilter).toBe('A1:B5');
    expect([1, 2, 3, 4, 5, 6].map((row) => sheet.getRow(row).hidden)).toEqual([false, false, true, true, true, false]);
    expect([3, 4, 5].map((column) => sheet.getColumn(column).hidden)).toEqual([false, true, false]);

  });

  it.skipIf(!excelSaved)('imports the auto filters of workbooks saved by Excel: the rows hidden are the ones Excel hid (skipped without the fetched workbooks)', { timeout: 120_000 }, async () => {
    for (const name of ['autofilter08.xlsx', 'autofilter04.xlsx']) {
      const fileId = name.replace('.xlsx', '');
      const imported = await importAndWait(svc, { fileId, type: 'spreadsheet' }, { name, data: fixture(name) });
      expect(imported.status, imported.text).toBe(200);
      const excelSheet = (await workbookOf(Buffer.from(fixture(name)))).worksheets[0]!;
      const excelHidden: number[] = [];
      excelSheet.eachRow({ includeEmpty: true }, (row, number) => row.hidden && excelHidden.push(number - 1));
      const doc = await svc.services.content.read(svc.app.id, fileId);
      const sheet = sheetModels(doc)[0]!;
      expect(filterOf(sheet), name).toBeDefined();
      const hidden = filteredRows(sheet, shownReader(doc, sheet));
      if (name === 'autofilter04.xlsx') {
        // a pair of conditions (3000 < Salary < 8000) is not in the model: that column comes without its criterion
        expect([...filterOf(sheet)!.columns.keys()]).toEqual([0]);
        expect(hidden.every((row) => excelHidden.includes(row)) && hidden.length < excelHidden.length).toBe(true);
      } else expect(hidden, name).toEqual(excelHidden);
    }
  });
});
