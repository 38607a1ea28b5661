import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases.js';
import { ooxmlProblems } from '../support/ooxml.js';
import { startService, type TestService } from '../support/service.js';
import { importAndWait } from '../import/support.js';
import { createFile, exportFile } from '../export/support.js';

/** Dynamic arrays through the real server: the values API, xlsx export and import again (docs/FORMULAS.md "Dynamic arrays"). */

const VALUES = (fileId: string) => `/sdk/v2/api/files/${fileId}/sheets/values`;

for (const database of testDatabases()) {
  describe(`dynamic arrays through the service [${database.name}]`, () => {
    let svc: TestService;
    beforeAll(async () => {
      svc = await startService(database, { integrator: true });
    });
    afterAll(async () => svc.close());

    const write = (fileId: string, range: string, values: unknown[][]) => svc.call('POST', VALUES(fileId), { body: { range, resource: { values } } });
    const read = async (fileId: string, range: string, render?: string) => {
      const response = await svc.call('GET', VALUES(fileId), { query: { range, ...(render ? { valueRenderOption: render } : {}) } });
      expect(response.status, response.text).toBe(200);
      return response.body.data.values as unknown[][];
    };

    it('the values API reads spilled values (no formula there), #SPILL! when blocked, and follows the inputs', async () => {
      await createFile(svc, 'spill', 'spreadsheet', 'Spill');
      expect((await write('spill', 'A1:C4', [[3, '=SORT(A1:A4)', '=SUM(B1#)'], [1], [4], [2]])).status).toBe(200);
      expect(await read('spill', 'A1:C4')).toEqual([[3, 1, 10], [1, 2], [4, 3], [2, 4]]);
      expect(await read('spill', 'B1:B4', 'FORMULA')).toEqual([['=SORT(A1:A4)'], [2], [3], [4]]);
      expect((await write('spill', 'A2', [[9]])).status).toBe(200);
      expect(await read('spill', 'B1:C4')).toEqual([[2, 18], [3], [4], [9]]);
      expect((await write('spill', 'B3', [['x']])).status).toBe(200);
      expect(await read('spill', 'B1:C4')).toEqual([['#SPILL!', '#REF!'], [], ['x']]);
    });

    it('xlsx export writes a dynamic array Excel spills (cm and XLDAPR metadata); importing it spills again', async () => {
      await createFile(svc, 'arrays', 'spreadsheet', 'Arrays');
      expect((await write('arrays', 'A1:C3', [['b', '=SEQUENCE(2,2)'], ['a'], ['=SORT(A1:A2)']])).status).toBe(200);
      const { bytes } = await exportFile(svc, 'arrays', 'xlsx');
      expect(await ooxmlProblems(bytes)).toEqual([]);
      const zip = await JSZip.loadAsync(bytes);
      const sheet = await zip.file('xl/worksheets/sheet1.xml')!.async('string');
      expect(sheet).toMatch(/<c r="B1"[^>]* cm="1"><f t="array" ref="B1:C2">_xlfn.SEQUENCE\(2,2\)<\/f>/);
      expect(sheet).toMatch(/<c r="A3"[^>]* cm="1"><f t="array" ref="A3:A4">_xlfn._xlws.SORT\(A1:A2\)<\/f>/);
      expect(await zip.file('xl/metadata.xml')!.async('string')).toContain('fDynamic="1"');

      const imported = await importAndWait(svc, { fileId: 'arrays-again', type: 'spreadsheet' }, { name: 'arrays.xlsx', data: bytes });
      expect(imported.body, imported.text).toMatchObject({ status: 0, data: { progress: 100 } });
      expect(await read('arrays-again', 'A1:C4')).toEqual([['b', 1, 2], ['a', 3, 4], ['a'], ['b']]);
      // the spilled cells came back as the array's, not as values: the array follows its input
      expect(await read('arrays-again', 'A3:A4', 'FORMULA')).toEqual([['=SORT(A1:A2)'], ['b']]);
      expect((await write('arrays-again', 'A1', [['c']])).status).toBe(200);
      expect(await read('arrays-again', 'A3:A4')).toEqual([['a'], ['c']]);
    });
  });
}
