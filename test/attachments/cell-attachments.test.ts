import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addPeople, createFile, data, expectFailure, SECOND_USER } from '../conversations/support.js';
import { testDatabases } from '../support/databases.js';
import { startService, type TestService } from '../support/service.js';
import { fetchAttachment, storedCount } from './support.js';

const LIMIT = 4096;

function form(fields: { range?: string; file?: { bytes: string | Uint8Array<ArrayBuffer>; name: string } }): FormData {
  const body = new FormData();
  if (fields.range !== undefined) body.append('range', fields.range);
  if (fields.file) body.append('file', new Blob([fields.file.bytes]), fields.file.name);
  return body;
}

for (const database of testDatabases()) {
  describe(`files attached to cells (files/{fileId}/attach) [${database.name}]`, () => {
    let svc: TestService;
    const attach = (fileId: string, body: FormData, token?: string) => svc.call('POST', `/sdk/v2/api/files/${fileId}/attach`, { rawBody: body, ...(token ? { token } : {}) });
    beforeEach(async () => {
      svc = await startService(database, { integrator: true, uploadLimitBytes: LIMIT });
      addPeople(svc);
      await createFile(svc, 'sheet-1', 'spreadsheet');
    });
    afterEach(async () => {
      await svc.close();
    });

    it('stores the file with its range (the sheet named as the spreadsheet names it) and serves it as a download', async () => {
      const [attached, ...more] = data(await attach('sheet-1', form({ range: 'sheet1!B2:C3', file: { bytes: 'quarterly figures', name: 'figures.txt' } })));
      expect(more).toEqual([]);
      expect(attached).toMatchObject({ filename: 'figures.txt', mimeType: 'application/octet-stream', images: false, size: 17, cellRange: 'Sheet1!B2:C3', key: `attachments/${attached.GUID}` });
      const stored = await svc.services.storage.db.selectFrom('attachments').select(['cell_range', 'bucket', 'user_id']).where('guid', '=', attached.GUID).executeTakeFirstOrThrow();
      expect(stored).toEqual({ cell_range: 'Sheet1!B2:C3', bucket: 'attachments', user_id: 'user-1' });
      const download = await fetchAttachment(svc, attached.url);
      expect(download.status).toBe(200);
      expect(download.headers.get('content-disposition')).toMatch(/^attachment;.*figures\.txt/);
      expect(await download.text()).toBe('quarterly figures');
    });

    it('refuses what it cannot attach, and stores nothing', async () => {
      await createFile(svc, 'doc-1', 'document');
      const file = { bytes: 'x', name: 'x.txt' };
      expectFailure(await attach('doc-1', form({ range: 'Sheet1!A1', file })), 400, 72010);
      expectFailure(await attach('sheet-1', form({ range: 'Sheet1!A0', file })), 400, 72001);
      expectFailure(await attach('sheet-1', form({ range: 'Nope!A1', file })), 404, 72002);
      expectFailure(await attach('sheet-1', form({ file })), 400, 75000);
      expectFailure(await attach('sheet-1', form({ range: 'Sheet1!A1' })), 400, 75000);
      expectFailure(await attach('sheet-1', form({ range: 'Sheet1!A1', file: { bytes: new Uint8Array(LIMIT + 1), name: 'big.bin' } })), 413, 75001);
      expectFailure(await svc.call('POST', '/sdk/v2/api/files/sheet-1/attach', { body: { range: 'Sheet1!A1' } }), 400, 75000);
      expectFailure(await attach('missing', form({ range: 'Sheet1!A1', file })), 404, 70013);
      svc.integrator.grant('sheet-1', SECOND_USER.id, { readable: true, editable: false });
      expectFailure(await attach('sheet-1', form({ range: 'Sheet1!A1', file }), SECOND_USER.token), 403, 40300);
      expect(await storedCount(svc)).toBe(0);
    });
  });
}
