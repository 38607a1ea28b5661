import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sheetModels } from '../../src/model/sheets/sheet-model.js';
import { hiddenOf, setHidden } from '../../src/model/sheets/hidden.js';
import { testDatabases } from '../support/databases.js';
import { startService, type TestService } from '../support/service.js';
import { exportFile, workbookOf } from '../export/support.js';
import { importAndWait } from '../import/support.js';

/**
 * Column widths in xlsx (docs/SHEETS.md "Row heights and column widths"): the export writes a width in pixels as
 * Excel's characters (÷ 7), the import reads `<col min max width hidden>` back as pixels (× 7), hidden columns as
 * the model hides them, and only for the sheet's own columns.
 */

const VALUES = (fileId: string) => `/sdk/v2/api/files/${fileId}/sheets/values`;
const sorted = (widths: Map<number, number>) => [...widths].sort((a, b) => a[0] - b[0]);

for (const database of testDatabases()) {
  describe(`column widths in xlsx [${database.name}]`, () => {
    let svc: TestService;
    beforeAll(async () => {
      svc = await startService(database, { integrator: true });
    });
    afterAll(async () => svc.close());

    it('an exported workbook imported again has the same widths and hidden columns', { timeout: 120_000 }, async () => {
      expect((await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'spreadsheet', fileId: 'cw-out' } })).status).toBe(200);
      expect((await svc.call('POST', VALUES('cw-out'), { body: { range: 'A1:E1', resource: { values: [['a', 'b', 'c', 'd', 'e']] } } })).status).toBe(200);
      await svc.services.content.change(svc.app.id, 'cw-out', { userId: 'editor' }, (doc) => {
        const sheet = sheetModels(doc)[0]!;
        sheet.setColumnWidth(0, 37);
        sheet.setColumnWidth(1, 240);
        sheet.setColumnWidth(3, 150);
        // a column far to the right of the data, inside the grid's 26
        sheet.setColumnWidth(20, 61);
        setHidden(sheet, 'columns', 3, 4, true);
      });

      const { bytes } = await exportFile(svc, 'cw-out', 'xlsx');
      const excel = (await workbookOf(bytes)).worksheets[0]!;
      expect(excel.getColumn(2).width).toBe(34.3);
      expect(excel.getColumn(5).hidden).toBe(true);

      const imported = await importAndWait(svc, { fileId: 'cw-back', type: 'spreadsheet' }, { name: 'columns.xlsx', data: new Uint8Array(bytes) });
      expect(imported.status, imported.text).toBe(200);
      const back = sheetModels(await svc.services.content.read(svc.app.id, 'cw-back'))[0]!;
      // column E was hidden at the default width: it comes back hidden, at the default width (nothing stored)
      expect(sorted(back.columnWidths())).toEqual([[0, 37], [1, 240], [3, 150], [20, 61]]);
      expect(hiddenOf(back, 'columns')).toEqual([3, 4]);
    });

    it('reads a workbook written by exceljs: ranges of columns, a width of 0 hides, a range to the last column stops at the grid\'s', { timeout: 120_000 }, async () => {
      const workbook = new ExcelJS.Workbook();
      const sheet = workbook.addWorksheet('Columns');
      sheet.getCell('A1').value = 'x';
      sheet.getCell('AD1').value = 'far';
      sheet.getColumn(1).width = 20;
      sheet.getColumn(4).width = 12.5;
      sheet.getColumn(4).hidden = true;
      sheet.getColumn(6).width = 400;
      // exceljs writes no width of 0: added as Excel writes it, with one <col> for a range and one spanning to the last column (16,384)
      const zip = await JSZip.loadAsync(await workbook.xlsx.writeBuffer());
      const part = 'xl/worksheets/sheet1.xml';
      const xml = (await zip.file(part)!.async('string'))
        .replace('</cols>', '<col min="3" max="3" width="0" customWidth="1"/><col min="7" max="9" width="5" customWidth="1"/><col min="40" max="16384" width="3"/></cols>');
      zip.file(part, xml);
      const bytes = await zip.generateAsync({ type: 'uint8array' });

      const imported = await importAndWait(svc, { fileId: 'cw-built', type: 'spreadsheet' }, { name: 'built.xlsx', data: bytes });
      expect(imported.status, imported.text).toBe(200);
      const back = sheetModels(await svc.services.content.read(svc.app.id, 'cw-built'))[0]!;
      expect(back.columnCount).toBe(30);
      // 400 characters is more than Excel's 255: bounded; columns 40 and on are outside the sheet's 30
      expect(sorted(back.columnWidths())).toEqual([[0, 140], [3, 88], [5, 1785], [6, 35], [7, 35], [8, 35]]);
      expect(hiddenOf(back, 'columns')).toEqual([2, 3]);
    });
  });
}
