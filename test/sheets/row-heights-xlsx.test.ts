import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sheetModels } from '../../src/model/sheets/sheet-model.js';
import { testDatabases } from '../support/databases.js';
import { startService, type TestService } from '../support/service.js';
import { exportFile, workbookOf } from '../export/support.js';
import { importAndWait } from '../import/support.js';

/**
 * Row heights in xlsx (docs/SHEETS.md "Row heights and column widths"): a height a person set is exported as
 * Excel's `<row ht customHeight="1">` in points, and imported back as the same pixels; heights Excel computed
 * for wrapped text (no customHeight) are left to the editor, which measures the content itself.
 */

const VALUES = (fileId: string) => `/sdk/v2/api/files/${fileId}/sheets/values`;

for (const database of testDatabases()) {
  describe(`row heights in xlsx [${database.name}]`, () => {
    let svc: TestService;
    beforeAll(async () => {
      svc = await startService(database, { integrator: true });
    });
    afterAll(async () => svc.close());

    it('exports set heights as Excel\'s custom heights, and an export imported again has them on the same rows', { timeout: 120_000 }, async () => {
      expect((await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'spreadsheet', fileId: 'rh-out' } })).status).toBe(200);
      expect((await svc.call('POST', VALUES('rh-out'), { body: { range: 'A1:A6', resource: { values: [['a'], ['b'], ['c'], ['d'], ['e'], ['f']] } } })).status).toBe(200);
      await svc.services.content.change(svc.app.id, 'rh-out', { userId: 'editor' }, (doc) => {
        const sheet = sheetModels(doc)[0]!;
        sheet.setRowHeight(1, 40);
        sheet.setRowHeight(4, 90);
        // an empty row far below the data keeps its height too
        sheet.setRowHeight(20, 16);
      });

      const { bytes } = await exportFile(svc, 'rh-out', 'xlsx');
      const excel = (await workbookOf(bytes)).worksheets[0]!;
      expect(excel.getRow(2).height).toBe(30);
      expect(excel.getRow(5).height).toBe(67.5);
      expect(excel.getRow(21).height).toBe(12);
      expect(excel.getRow(3).height).toBeUndefined();
      const xml = await (await JSZip.loadAsync(bytes)).file('xl/worksheets/sheet1.xml')!.async('string');
      expect(xml).toMatch(/<row r="2"[^>]*ht="30"[^>]*customHeight="1"/);

      const imported = await importAndWait(svc, { fileId: 'rh-back', type: 'spreadsheet' }, { name: 'rows.xlsx', data: new Uint8Array(bytes) });
      expect(imported.status, imported.text).toBe(200);
      const back = sheetModels(await svc.services.content.read(svc.app.id, 'rh-back'))[0]!;
      expect([...back.rowHeights()].sort((a, b) => a[0] - b[0])).toEqual([[1, 40], [4, 90], [20, 16]]);
    });

    it('imports only heights a person set: a computed height (no customHeight) is the editor\'s to measure; out-of-range heights are bounded', { timeout: 120_000 }, async () => {
      const workbook = new ExcelJS.Workbook();
      const sheet = workbook.addWorksheet('Rows');
      sheet.getCell('A1').value = 'x';
      sheet.getRow(3).height = 45;
      sheet.getRow(6).height = 600;
      const written = await workbook.xlsx.writeBuffer();
      // Excel's computed height of a wrapped row carries ht without customHeight
      const zip = await JSZip.loadAsync(written);
      const part = 'xl/worksheets/sheet1.xml';
      const xml = (await zip.file(part)!.async('string')).replace('<row r="1"', '<row r="1" ht="48"');
      zip.file(part, xml);
      const bytes = await zip.generateAsync({ type: 'uint8array' });
      const imported = await importAndWait(svc, { fileId: 'rh-built', type: 'spreadsheet' }, { name: 'built.xlsx', data: bytes });
      expect(imported.status, imported.text).toBe(200);
      const back = sheetModels(await svc.services.content.read(svc.app.id, 'rh-built'))[0]!;
      expect([...back.rowHeights()].sort((a, b) => a[0] - b[0])).toEqual([[2, 60], [5, 545]]);
    });
  });
}
