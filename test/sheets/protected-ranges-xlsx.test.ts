import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sheetModels } from '../../src/model/sheets/sheet-model.js';
import { setLock } from '../../src/model/sheets/locks.js';
import { testDatabases } from '../support/databases.js';
import { startService, type TestService } from '../support/service.js';
import { exportFile, workbookOf } from '../export/support.js';
import { importAndWait } from '../import/support.js';

/**
 * Excel's protected ranges ("Allow Edit Ranges", `<protectedRanges>` in a worksheet) and range locks
 * (docs/SHEETS.md "Locks"): a range lock is exported as a `<protectedRange name sqref>`, and a protected range is
 * imported as a range lock whose locker is no user, so nobody edits inside until a manageable user removes it.
 */

const SHEET = 'xl/worksheets/sheet1.xml';
const sheetXml = async (bytes: Uint8Array) => (await JSZip.loadAsync(bytes)).file(SHEET)!.async('string');
const locksOf = async (svc: TestService, fileId: string) =>
  ((await svc.call('GET', `/sdk/v2/api/files/${fileId}/sheets/locks`)).body.data.locks as Array<{ sheetName: string; locks: Array<{ id: string; lockerId: unknown; ranges: string[] }> }>).map((entry) => [
    entry.sheetName,
    entry.locks.map(({ id, lockerId, ranges }) => ({ id, lockerId, ranges })),
  ]);
const write = (svc: TestService, fileId: string, range: string) => svc.call('POST', `/sdk/v2/api/files/${fileId}/sheets/values`, { body: { range, resource: { values: [['new']] } } });

for (const database of testDatabases()) {
  describe(`protected ranges in xlsx [${database.name}]`, () => {
    let svc: TestService;
    beforeAll(async () => {
      svc = await startService(database, { integrator: true });
    });
    afterAll(async () => svc.close());

    it('exports range locks as protected ranges, which import back as range locks nobody edits', { timeout: 120_000 }, async () => {
      expect((await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'spreadsheet', fileId: 'pr-out' } })).status).toBe(200);
      expect((await write(svc, 'pr-out', 'A1')).status).toBe(200);
      await svc.services.content.change(svc.app.id, 'pr-out', { userId: 'editor' }, (doc) => {
        const sheet = sheetModels(doc)[0]!;
        const lock = { lockerId: 'someone', visitorPermission: 'readable' as const, users: { editor: 'editable' as const }, departments: {}, groups: {} };
        setLock(sheet, { ...lock, id: 'budget & "totals"', type: 'range', areas: [{ startRow: 1, endRow: 3, startColumn: 1, endColumn: 2 }, { startRow: 9, endRow: 9, startColumn: 0, endColumn: 0 }] });
        setLock(sheet, { ...lock, id: 'sheet-wide', type: 'sheet', areas: [] });
      });

      const { bytes } = await exportFile(svc, 'pr-out', 'xlsx');
      const xml = await sheetXml(bytes);
      // after the sheet protection, as the schema orders a worksheet
      expect(xml).toMatch(/<sheetProtection\b[^>]*\/><protectedRanges><protectedRange name="budget &amp; &quot;totals&quot;" sqref="B2:C4 A10"\/><\/protectedRanges>/);
      // exceljs (and so Excel's schema order) still reads the workbook
      expect((await workbookOf(bytes)).worksheets[0]!.getCell('A1').value).toBe('new');

      const imported = await importAndWait(svc, { fileId: 'pr-back', type: 'spreadsheet' }, { name: 'ranges.xlsx', data: new Uint8Array(bytes) });
      expect(imported.status, imported.text).toBe(200);
      expect(await locksOf(svc, 'pr-back')).toEqual([
        ['Sheet1', [
          { id: 'xlsx-range:budget & "totals"', lockerId: 'xlsx-sheet-protection', ranges: ['B2:C4', 'A10'] },
          { id: 'xlsx-sheet-protection', lockerId: 'xlsx-sheet-protection', ranges: [] },
        ]],
      ]);
      // exported again, the range keeps its name
      expect(await sheetXml((await exportFile(svc, 'pr-back', 'xlsx')).bytes)).toContain('<protectedRange name="budget &amp; &quot;totals&quot;" sqref="B2:C4 A10"/>');
    });

    it('imports the protected ranges of an unprotected sheet as range locks: writes inside are refused, outside go through', { timeout: 120_000 }, async () => {
      const workbook = new ExcelJS.Workbook();
      workbook.addWorksheet('Plan').getCell('A1').value = 'x';
      const zip = await JSZip.loadAsync(await workbook.xlsx.writeBuffer());
      const xml = (await zip.file(SHEET)!.async('string')).replace(
        '</sheetData>',
        '</sheetData><protectedRanges><protectedRange name="Inputs" sqref="C3:D5" securityDescriptor="O:WDG:WDD:(A;;CC;;;S-1-5-21-1)"/><protectedRange name="Broken" sqref="not-a-range"/><protectedRange sqref="F1"/></protectedRanges>',
      );
      zip.file(SHEET, xml);
      const imported = await importAndWait(svc, { fileId: 'pr-built', type: 'spreadsheet' }, { name: 'plan.xlsx', data: await zip.generateAsync({ type: 'uint8array' }) });
      expect(imported.status, imported.text).toBe(200);
      expect(await locksOf(svc, 'pr-built')).toEqual([
        ['Plan', [
          { id: 'xlsx-range:Inputs', lockerId: 'xlsx-sheet-protection', ranges: ['C3:D5'] },
          { id: 'xlsx-range:Range2', lockerId: 'xlsx-sheet-protection', ranges: ['F1'] },
        ]],
      ]);
      const refused = await write(svc, 'pr-built', 'Plan!D4');
      expect([refused.status, refused.body.status]).toEqual([403, 128300]);
      expect((await write(svc, 'pr-built', 'Plan!B2')).status).toBe(200);
    });
  });
}
