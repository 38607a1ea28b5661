import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases.js';
import { startService, type TestService } from '../support/service.js';

for (const database of testDatabases()) {
  describe(`collaborative file registry [${database.name}]`, () => {
    let svc: TestService;
    beforeEach(async () => {
      svc = await startService(database, { integrator: true });
    });
    afterEach(async () => svc.close());

    const create = (body: unknown, options: { signature?: string } = {}) => svc.call('POST', '/sdk/v2/api/files', { body, ...options });

    it('creates a file of each type', async () => {
      for (const type of ['document', 'documentPro', 'spreadsheet', 'presentation', 'table']) {
        const response = await create({ type, fileId: `file-${type}` });
        expect(response.status).toBe(200);
        expect(response.body.data).toMatchObject({ fileId: `file-${type}`, type });
      }
    });

    it('rejects a second create of the same fileId with 70012 and keeps the first', async () => {
      await create({ type: 'document', fileId: 'dup' });
      const again = await create({ type: 'spreadsheet', fileId: 'dup' });
      expect(again.status).toBe(409);
      expect(again.body.status).toBe(70012);
      expect((await svc.services.files.get(svc.app.id, 'dup')).type).toBe('document');
    });

    it('rejects bad parameters with 70001', async () => {
      const cases: unknown[] = [
        {},
        { type: 'document' },
        { fileId: 'x' },
        { type: 'video', fileId: 'x' },
        { type: 'document', fileId: 123 },
        { type: 'document', fileId: '' },
        { type: 'document', fileId: 'x'.repeat(65) },
        { type: 'document', fileId: 'a/b' },
        { type: 'document', fileId: 'a b' },
        [],
        'text',
      ];
      for (const body of cases) {
        const response = await create(body);
        expect(response.status, JSON.stringify(body)).toBe(400);
        expect(response.body.status, JSON.stringify(body)).toBe(70001);
      }
      expect((await create({ type: 'document', fileId: 'x'.repeat(64) })).status).toBe(200);
    });

    it('rejects malformed JSON and wrong content types clearly', async () => {
      const broken = await svc.call('POST', '/sdk/v2/api/files', { rawBody: '{"type": "document",' });
      expect(broken.status).toBe(400);
      expect(broken.body.status).toBe(70001);
      expect(broken.body.message).toMatch(/JSON/);
      const xml = await svc.call('POST', '/sdk/v2/api/files', { rawBody: '<a/>', headers: { 'content-type': 'application/xml' } });
      expect(xml.status).toBe(415);
      expect(xml.body.status).toBe(41500);
    });

    it('accepts a JSON content type without a body on DELETE, as client kits send it', async () => {
      await create({ type: 'document', fileId: 'kit' });
      const response = await svc.call('DELETE', '/sdk/v2/api/files/kit', { headers: { 'content-type': 'application/json' } });
      expect(response.status).toBe(200);
      expect(response.body.data.deleted).toBe(true);
      const emptyCreate = await svc.call('POST', '/sdk/v2/api/files', { headers: { 'content-type': 'application/json' } });
      expect(emptyCreate.status).toBe(400);
      expect(emptyCreate.body.status).toBe(70001);
    });

    it('refuses a type outside the app availableFileTypes with 70003', async () => {
      const docsOnly = await svc.createApp({ availableFileTypes: ['document'] });
      const response = await create({ type: 'table', fileId: 't' }, { signature: await svc.sign({}, docsOnly) });
      expect(response.status).toBe(400);
      expect(response.body.status).toBe(70003);
    });

    it('deletes idempotently', async () => {
      await create({ type: 'document', fileId: 'gone' });
      const first = await svc.call('DELETE', '/sdk/v2/api/files/gone');
      expect(first.body).toEqual({ status: 0, message: 'success', data: { deleted: true } });
      const second = await svc.call('DELETE', '/sdk/v2/api/files/gone');
      expect(second.body).toEqual({ status: 0, message: 'success', data: { deleted: false } });
      expect((await create({ type: 'document', fileId: 'gone' })).status).toBe(200);
    });

    it('keeps applications apart', async () => {
      const other = await svc.createApp();
      const otherSignature = await svc.sign({}, other);
      await create({ type: 'document', fileId: 'shared-id' });
      // the same fileId is free in another app, and deleting it there leaves ours alone
      expect((await create({ type: 'spreadsheet', fileId: 'shared-id' }, { signature: otherSignature })).status).toBe(200);
      const removed = await svc.call('DELETE', '/sdk/v2/api/files/shared-id', { signature: otherSignature });
      expect(removed.body.data.deleted).toBe(true);
      expect((await svc.services.files.get(svc.app.id, 'shared-id')).type).toBe('document');
    });
  });
}
