import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { createFile, expectFailure } from '../conversations/support.js';
import { testDatabases } from '../support/databases.js';
import { startService, type CallResult, type TestService } from '../support/service.js';
import { png } from './images.js';
import { fetchAttachment, storedCount, ticketFor, upload } from './support.js';

const READER = { id: 'reader', name: 'Reader', token: 'reader-token' } as const;
const OUTSIDER = { id: 'outsider', name: 'Outsider', token: 'outsider-token' } as const;

/** A fetch answer with its JSON body, shaped for expectFailure. */
async function result(response: Response): Promise<CallResult> {
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined, text };
}

for (const database of testDatabases()) {
  describe(`attachment reads [${database.name}]`, () => {
    let svc: TestService;
    let url: string;
    const image = png(5, 4);
    beforeEach(async () => {
      svc = await startService(database, { integrator: true });
      svc.integrator.addUser({ ...READER });
      svc.integrator.addUser({ ...OUTSIDER });
      svc.integrator.addFile({
        id: 'doc-1',
        grants: { 'user-1': { readable: true, editable: true, manageable: true }, [READER.id]: { readable: true, editable: false }, [OUTSIDER.id]: { readable: false } },
      });
      await createFile(svc, 'doc-1', 'document');
      const ticket = await ticketFor(svc);
      expect((await upload(svc, { accessToken: ticket.accessToken, file: image })).status).toBe(200);
      url = ticket.url;
    });
    afterEach(async () => {
      await svc.close();
    });

    it("the file's read permission decides, per the integrator", async () => {
      const reader = await fetchAttachment(svc, url, { token: READER.token });
      expect(reader.status).toBe(200);
      expect(Buffer.from(await reader.arrayBuffer()).equals(image)).toBe(true);
      // reading is not editing: the reader gets no upload token
      expectFailure(await svc.call('POST', '/uploader/token', { token: READER.token, body: [{ filename: 'a.png', fileGuid: 'doc-1', fileSize: 1 }] }), 403, 40300);

      const outsider = await fetchAttachment(svc, url, { token: OUTSIDER.token });
      expect(outsider.headers.get('content-type')).toMatch(/^application\/json/);
      expectFailure(await result(outsider), 403, 40300, /may not read file doc-1/);
      // a cached copy is no shortcut: the permission is checked before 304
      const etag = `"${url.split('/').pop()}"`;
      expectFailure(await result(await fetchAttachment(svc, url, { token: OUTSIDER.token, headers: { 'if-none-match': etag } })), 403, 40300);
    });

    it('credentials: signature and token are both needed, by header or query', async () => {
      expectFailure(await svc.call('GET', url, { signature: null }), 401, 30001);
      expectFailure(await svc.call('GET', url, { token: null }), 401, 30007);
      expectFailure(await result(await fetch(`${svc.url}${url}?token=user-token`)), 401, 30001);
      expectFailure(await svc.call('GET', url, { signature: await svc.sign({ expiresIn: -60 }) }), 401, 30004);
    });

    it('If-None-Match with the ETag answers 304 without the bytes', async () => {
      const first = await fetchAttachment(svc, url);
      const etag = first.headers.get('etag')!;
      for (const header of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
        const again = await fetchAttachment(svc, url, { headers: { 'if-none-match': header } });
        expect(again.status, header).toBe(304);
        expect(await again.text()).toBe('');
        expect(again.headers.get('etag')).toBe(etag);
        expect(again.headers.get('cache-control')).toBe(first.headers.get('cache-control'));
      }
      expect((await fetchAttachment(svc, url, { headers: { 'if-none-match': '"stale"' } })).status).toBe(200);
    });

    it("unknown guids and another application's attachments are 404 / 75004", async () => {
      expectFailure(await svc.call('GET', '/sdk/v2/attachments/00000000-0000-4000-8000-000000000000'), 404, 75004);
      const other = await svc.createApp();
      expectFailure(await svc.call('GET', url, { signature: await svc.sign({}, other) }), 404, 75004);
      expectFailure(await svc.call('GET', `/sdk/v2/attachments/${'x'.repeat(65)}`), 400, 40000);
    });

    it('deleting the file deletes its attachments', async () => {
      const second = await ticketFor(svc, { bucket: 'attachments' });
      expect((await upload(svc, { accessToken: second.accessToken, file: Buffer.from('notes') })).status).toBe(200);
      await createFile(svc, 'doc-2', 'document');
      const elsewhere = await ticketFor(svc, { fileGuid: 'doc-2' });
      expect((await upload(svc, { accessToken: elsewhere.accessToken, file: png(1, 1) })).status).toBe(200);
      expect(await storedCount(svc)).toBe(3);

      expect((await svc.call('DELETE', '/sdk/v2/api/files/doc-1')).body.data).toEqual({ deleted: true });
      expect(await storedCount(svc)).toBe(1);
      expectFailure(await svc.call('GET', url), 404, 75004);
      expect((await fetchAttachment(svc, elsewhere.url)).status).toBe(200);
    });
  });
}

describe('SVC_UPLOAD_LIMIT', () => {
  it('defaults to 10 MiB and takes an integer number of bytes', () => {
    expect(loadConfig({}).uploadLimitBytes).toBe(10 * 1024 * 1024);
    expect(loadConfig({ SVC_UPLOAD_LIMIT: '2048' }).uploadLimitBytes).toBe(2048);
    for (const bad of ['ten', '1.5', '-1', '0']) expect(() => loadConfig({ SVC_UPLOAD_LIMIT: bad })).toThrow(ConfigError);
  });
});
