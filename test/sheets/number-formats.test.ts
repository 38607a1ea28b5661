import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sheetModels } from '../../src/model/sheets/sheet-model.js';
import { testDatabases } from '../support/databases.js';
import { DEFAULT_USER } from '../support/integrator.js';
import { startService, type TestService } from '../support/service.js';
import { exportFile, workbookOf } from '../export/support.js';

const FILE = 'ledger';
const VALUES = `/sdk/v2/api/files/${FILE}/sheets/values`;
const author = { userId: DEFAULT_USER.id, name: DEFAULT_USER.name };

for (const database of testDatabases()) {
  describe(`number formats of cells [${database.name}]`, () => {
    let svc: TestService;
    beforeEach(async () => {
      svc = await startService(database, { integrator: true });
      expect((await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'spreadsheet', fileId: FILE } })).status).toBe(200);
    });
    afterEach(async () => svc.close());

    /** Gives cells their formats as the editor does (the `z` of the content model's cells). */
    const format = (formats: Record<string, string>) =>
      svc.services.content.change(svc.app.id, FILE, author, (doc) => {
        const sheet = sheetModels(doc)[0]!;
        for (const [address, code] of Object.entries(formats)) {
          const [column, row] = [address.charCodeAt(0) - 65, Number(address.slice(1)) - 1];
          sheet.setCell(row, column, { ...sheet.cell(row, column), z: code });
        }
      });
    const read = async (range: string, valueRenderOption?: string) => {
      const response = await svc.call('GET', VALUES, { query: { range, ...(valueRenderOption ? { valueRenderOption } : {}) } });
      expect(response.status, response.text).toBe(200);
      return response.body.data.values as unknown[][];
    };
    const write = async (range: string, values: unknown[][]) => {
      const response = await svc.call('POST', VALUES, { body: { range, resource: { values } } });
      expect(response.status, response.text).toBe(200);
    };
    it('FORMATTED_VALUE reads what cells show; values and formulas keep their types otherwise', async () => {
      await write('A1:E1', [[1234.5, 0.256, 45123.5, '=A1*2', 'note']]);
      await format({ A1: '"¥"#,##0.00', B1: '0.0%', C1: 'yyyy-mm-dd hh:mm', D1: '#,##0', E1: '"<"@">"' });
      expect(await read('A1:E1', 'FORMATTED_VALUE')).toEqual([['¥1,234.50', '25.6%', '2023-07-16 12:00', '2,469', '<note>']]);
      expect(await read('A1:E1')).toEqual([[1234.5, 0.256, 45123.5, 2469, 'note']]);
      expect(await read('A1:E1', 'FORMULA')).toEqual([[1234.5, 0.256, 45123.5, '=A1*2', 'note']]);
      // a cell without a format reads as General; booleans and errors as themselves
      await write('A2:C2', [[0.1 + 0.2, true, '=1/0']]);
      expect(await read('A2:C2', 'FORMATTED_VALUE')).toEqual([['0.3', 'TRUE', '#DIV/0!']]);
      const refused = await svc.call('GET', VALUES, { query: { range: 'A1', valueRenderOption: 'PRETTY' } });
      expect(refused.status).toBe(400);
    });

    it('a format belongs to the cell: writing a value or clearing it through the values API keeps it', async () => {
      await write('A1', [[5]]);
      await format({ A1: '0.00' });
      await write('A1', [[7.125]]);
      expect(await read('A1', 'FORMATTED_VALUE')).toEqual([['7.13']]);
      await write('A1', [[null]]);
      expect(await read('A1:B2')).toEqual([]);
      await write('A1', [[3]]);
      expect(await read('A1', 'FORMATTED_VALUE')).toEqual([['3.00']]);
    });

    it('exports keep formats: xlsx cells carry their numFmt, csv writes what cells show', async () => {
      await write('A1:C1', [[1234.5, 45123, 0.5]]);
      await format({ A1: '#,##0.00', B1: 'yyyy-mm-dd' });
      const workbook = await workbookOf((await exportFile(svc, FILE, 'xlsx')).bytes);
      const row = workbook.worksheets[0]!.getRow(1);
      expect(row.getCell(1).numFmt).toBe('#,##0.00');
      expect(row.getCell(1).value).toBe(1234.5);
      expect(row.getCell(2).numFmt).toBe('yyyy-mm-dd');
      expect(row.getCell(3).numFmt ?? 'General').toBe('General');
      const csv = (await exportFile(svc, FILE, 'csv')).bytes.toString('utf8').replace(/^\uFEFF/, '');
      expect(csv).toBe('"1,234.50",2023-07-16,0.5\r\n');
    });
  });
}
