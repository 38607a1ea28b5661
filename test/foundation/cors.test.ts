import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases.js';
import { startService, type TestService } from '../support/service.js';
import { png } from '../attachments/images.js';

const INTRANET = 'https://intranet.example.com';

for (const database of testDatabases()) {
  describe(`CORS for calls from a browser [${database.name}]`, () => {
    let svc: TestService;
    beforeEach(async () => {
      svc = await startService(database, { integrator: true });
    });
    afterEach(async () => svc.close());

    const allow = (origins: string[], appId = svc.app.id) => svc.services.apps.update(appId, { frameOrigins: origins });
    /** A browser's preflight: no credentials, only what it is about to send. */
    const preflight = (path: string, origin: string, method = 'GET', headers = 'x-svc-signature, x-svc-token') =>
      fetch(`${svc.url}${path}`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': headers } });
    const allowedOrigin = (answer: { headers: Headers }) => answer.headers.get('access-control-allow-origin');

    it('opens nothing by default: no preflight, no readable answer', async () => {
      const asked = await preflight('/sdk/v2/collab-files/f/plain-text', INTRANET);
      expect(asked.status).toBe(204);
      expect(allowedOrigin(asked)).toBeNull();
      expect(asked.headers.get('access-control-allow-methods')).toBeNull();

      await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'document', fileId: 'f' } });
      const read = await svc.call('GET', '/sdk/v2/collab-files/f/plain-text', { headers: { origin: INTRANET } });
      expect(read.status).toBe(200);
      expect(allowedOrigin(read)).toBeNull();
      expect(read.headers.get('vary')).toMatch(/Origin/);
    });

    it("answers the app's own origins (wildcards included) and refuses every other", async () => {
      await allow([INTRANET, 'https://*.corp.example', 'http://localhost:8080']);
      const asked = await preflight('/sdk/v2/api/files/f/sheets/values', INTRANET, 'PUT', 'Content-Type, X-Svc-Signature, X-Svc-Token');
      expect(asked.status).toBe(204);
      expect(allowedOrigin(asked)).toBe(INTRANET);
      expect(asked.headers.get('access-control-allow-methods')?.split(', ').sort()).toEqual(['GET', 'POST', 'PUT']);
      expect(asked.headers.get('access-control-allow-headers')).toBe('content-type, x-svc-signature, x-svc-token, x-request-id');
      expect(asked.headers.get('access-control-max-age')).toBe('600');
      expect(asked.headers.get('vary')).toMatch(/Origin/);

      for (const origin of ['https://a.corp.example', 'https://b.a.corp.example', 'http://localhost:8080']) {
        expect(allowedOrigin(await preflight('/sdk/v2/collab-files/f/plain-text', origin)), origin).toBe(origin);
      }
      const refused = [
        'https://evil.example.com',
        'http://intranet.example.com', // another scheme
        'https://intranet.example.com:8443', // another port
        'https://corp.example', // *.name does not cover name itself
        'https://xcorp.example',
        'http://a.corp.example',
        'http://localhost',
        'null',
        'https://*.corp.example',
      ];
      for (const origin of refused) {
        const answer = await preflight('/sdk/v2/collab-files/f/plain-text', origin);
        expect([answer.status, allowedOrigin(answer)], origin).toEqual([204, null]);
      }
      // a method the path has no route for, or a header the service does not take
      expect(allowedOrigin(await preflight('/sdk/v2/collab-files/f/plain-text', INTRANET, 'DELETE'))).toBeNull();
      expect(allowedOrigin(await preflight('/sdk/v2/collab-files/f/plain-text', INTRANET, 'GET', 'x-svc-signature, authorization'))).toBeNull();
      // licence and admin calls are the app secret's business, never a page's; the editor page is a frame, not a call
      expect(allowedOrigin(await preflight(`/sdk/v2/api/license/apps/${svc.app.id}`, INTRANET))).toBeNull();
      expect(allowedOrigin(await preflight('/sdk/v2/api/admin/events', INTRANET))).toBeNull();
      expect(allowedOrigin(await preflight('/sdk/v2/collab-files/f', INTRANET))).toBeNull();
      // not a preflight at all
      const bare = await fetch(`${svc.url}/sdk/v2/collab-files/f/plain-text`, { method: 'OPTIONS' });
      expect([bare.status, allowedOrigin(bare)]).toEqual([204, null]);
    });

    it("opens an answer to the origins of the app that signed it, errors included, never another app's", async () => {
      await allow([INTRANET]);
      await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'document', fileId: 'f' } });
      const read = await svc.call('GET', '/sdk/v2/collab-files/f/plain-text', { headers: { origin: INTRANET } });
      expect(read.status).toBe(200);
      expect(allowedOrigin(read)).toBe(INTRANET);
      expect(read.headers.get('access-control-expose-headers')).toMatch(/x-request-id/);

      // a refusal is readable too, so the page can tell its user why
      svc.integrator.addFile({ id: 'closed', grants: { 'user-1': { readable: false } } });
      await svc.services.files.create(svc.app, { type: 'document', fileId: 'closed', createdBy: 'user-1' });
      const denied = await svc.call('GET', '/sdk/v2/collab-files/closed/plain-text', { headers: { origin: INTRANET } });
      expect([denied.status, allowedOrigin(denied)]).toEqual([403, INTRANET]);
      const unsigned = await svc.call('GET', '/sdk/v2/collab-files/f/plain-text', { signature: null, headers: { origin: INTRANET } });
      expect([unsigned.status, allowedOrigin(unsigned)]).toEqual([401, INTRANET]);
      expect(allowedOrigin(await svc.call('GET', '/sdk/v2/collab-files/f/plain-text', { signature: null, headers: { origin: 'https://evil.example.com' } }))).toBeNull();

      // the origin belongs to another application: this app's answers stay closed to it
      const other = await svc.createApp({ name: 'Other', frameOrigins: ['https://other.example.com'] });
      expect(allowedOrigin(await preflight('/sdk/v2/collab-files/f/plain-text', 'https://other.example.com'))).toBe('https://other.example.com');
      const crossed = await svc.call('GET', '/sdk/v2/collab-files/f/plain-text', { headers: { origin: 'https://other.example.com' } });
      expect([crossed.status, allowedOrigin(crossed)]).toEqual([200, null]);
      const own = await svc.call('GET', '/sdk/v2/collab-files/f/plain-text', { signature: await svc.sign({}, other), headers: { origin: 'https://other.example.com' } });
      expect(allowedOrigin(own)).toBe('https://other.example.com');

      // licence calls answer no page
      const licence = await svc.call('GET', `/sdk/v2/api/license/apps/${svc.app.id}`, { signature: await svc.signLicense(), headers: { origin: INTRANET } });
      expect([licence.status, allowedOrigin(licence)]).toEqual([200, null]);
      // the table API is in a user's context as well
      expect(allowedOrigin(await preflight('/sdk/v2/api/table-api/openapi/v1/tables/t/rows', INTRANET, 'POST', 'content-type, x-svc-signature, x-svc-token'))).toBe(INTRANET);
    });

    it('opens the upload pair to the page and keeps the SDK files open to every page', async () => {
      await allow([INTRANET]);
      await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'document', fileId: 'f' } });
      expect(allowedOrigin(await preflight('/uploader/token', INTRANET, 'POST', 'content-type, x-svc-signature, x-svc-token'))).toBe(INTRANET);
      const tokens = await svc.call('POST', '/uploader/token', { body: [{ filename: 'a.png', fileGuid: 'f', fileSize: 0 }], headers: { origin: INTRANET } });
      expect([tokens.status, allowedOrigin(tokens)]).toEqual([200, INTRANET]);

      // a multipart POST needs no preflight; its answer opens to any app's origin (the access token names the app)
      const form = new FormData();
      form.append('accessToken', tokens.body.data[0].accessToken);
      form.append('file', new Blob([png(2, 2)]), 'a.png');
      const upload = await fetch(`${svc.url}/uploader/upload`, { method: 'POST', body: form, headers: { origin: INTRANET } });
      expect([upload.status, allowedOrigin(upload)]).toEqual([200, INTRANET]);
      const stranger = await fetch(`${svc.url}/uploader/upload`, { method: 'POST', body: new FormData(), headers: { origin: 'https://evil.example.com' } });
      expect([stranger.status, allowedOrigin(stranger)]).toEqual([401, null]);

      const sdk = await fetch(`${svc.url}/sdk/v2/js/sdk.mjs`, { headers: { origin: 'https://anyone.example' } });
      expect([sdk.status, allowedOrigin(sdk)]).toEqual([200, '*']);
    });
  });
}
