import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases.js';
import { startService, type TestService } from '../support/service.js';

for (const database of testDatabases()) {
  describe(`application and seats [${database.name}]`, () => {
    let svc: TestService;
    beforeEach(async () => {
      svc = await startService(database);
    });
    afterEach(async () => svc.close());

    const license = async (method: string, path: string, body?: unknown) =>
      svc.call(method, `/sdk/v2/api/license${path}`, { signature: await svc.signLicense(), token: null, body });

    it('shows the application details with every documented field', async () => {
      const response = await license('GET', `/apps/${svc.app.id}`);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ status: 0, message: 'success' });
      const data = response.body.data;
      expect(data).toEqual({
        appName: 'Test app',
        availableFileTypes: ['document', 'documentPro', 'spreadsheet', 'presentation', 'table'],
        premiumFileTypes: [],
        activatedUserCount: 0,
        userCount: 0,
        memberLimit: 1000,
        seatPolicy: 'open',
        validFrom: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        validUntil: null,
        endpointUrl: null,
        frameOrigins: [],
      });
    });

    it('shows the allowed frame origins, as set and normalized', async () => {
      await svc.services.apps.update(svc.app.id, { frameOrigins: ['HTTPS://Portal.Example.com:443', 'http://*.example.org:8080', 'https://portal.example.com'] });
      const details = await license('GET', `/apps/${svc.app.id}`);
      expect(details.body.data.frameOrigins).toEqual(['https://portal.example.com', 'http://*.example.org:8080']);
      await expect(svc.services.apps.update(svc.app.id, { frameOrigins: ['https://a.example/x'] })).rejects.toMatchObject({ spec: { code: 20003 } });
      await svc.services.apps.update(svc.app.id, { frameOrigins: [] });
      expect((await license('GET', `/apps/${svc.app.id}`)).body.data.frameOrigins).toEqual([]);
    });

    it('gives an application stored before frame origins existed any origin (the column default)', async () => {
      const now = Date.now();
      await svc.services.storage.db
        .insertInto('apps')
        .values({ id: 'legacy-app', name: 'Legacy', secret: 's', available_file_types: '[]', premium_file_types: '[]', member_limit: 1, valid_from: now, valid_until: null, endpoint_url: null, qps_limit: null, created_at: now, updated_at: now })
        .execute();
      expect((await svc.services.apps.get('legacy-app')).frameOrigins).toEqual([]);
    });

    it('never shows or changes another application', async () => {
      const other = await svc.createApp({ name: 'Other' });
      const read = await license('GET', `/apps/${other.id}`);
      expect(read.status).toBe(404);
      expect(read.body.status).toBe(20005);
      const write = await license('PUT', `/apps/${other.id}/endpoint-url`, { url: 'https://evil.example' });
      expect(write.status).toBe(404);
      expect((await svc.services.apps.get(other.id)).endpointUrl).toBeNull();
    });

    it('sets the endpoint URL and shows it, normalised', async () => {
      const put = await license('PUT', `/apps/${svc.app.id}/endpoint-url`, { url: 'https://crm.example.com/svc/' });
      expect(put.body).toEqual({ status: 0, message: 'success', data: null });
      const details = await license('GET', `/apps/${svc.app.id}`);
      expect(details.body.data.endpointUrl).toBe('https://crm.example.com/svc');
    });

    it('rejects endpoint URLs that are not http(s) with 10001 and keeps the old one', async () => {
      await license('PUT', `/apps/${svc.app.id}/endpoint-url`, { url: 'http://ok.example' });
      for (const url of ['ftp://x.example', 'javascript:alert(1)', 'not a url', '', 'https://u:p@x.example', 'http://x.example/?q=1']) {
        const response = await license('PUT', `/apps/${svc.app.id}/endpoint-url`, { url });
        expect(response.status, url).toBe(400);
        expect(response.body.status, url).toBe(10001);
      }
      for (const body of [{}, { url: 42 }, { url: null }]) {
        const response = await license('PUT', `/apps/${svc.app.id}/endpoint-url`, body);
        expect(response.status).toBe(400);
        expect(response.body.status).toBe(10001);
      }
      expect((await license('GET', `/apps/${svc.app.id}`)).body.data.endpointUrl).toBe('http://ok.example');
    });

    it('activates, lists, deactivates and sets seat status, idempotently', async () => {
      expect((await license('POST', '/users/activate', { userIds: ['u1', 'u2', 'u2'] })).body.status).toBe(0);
      expect((await license('POST', '/users/activate', { userIds: ['u1'] })).body.status).toBe(0);
      expect((await license('POST', '/users/deactivate', { userIds: ['u2', 'u3'] })).body.status).toBe(0);
      expect((await license('POST', '/users/deactivate', { userIds: ['u2'] })).body.status).toBe(0);
      expect((await license('POST', '/users/set-status', { userIds: ['u4'], status: -1 })).body.status).toBe(0);

      const list = await svc.call('GET', '/sdk/v2/api/license/users', { signature: await svc.signLicense(), token: null, query: { page: 1, size: 10 } });
      const byUser = Object.fromEntries(list.body.data.map((s: { userId: string; status: number }) => [s.userId, s.status]));
      expect(byUser).toEqual({ u1: 1, u2: 0, u3: 0, u4: -1 });
      for (const seat of list.body.data) expect(seat.createdAt).toMatch(/Z$/);

      const details = await license('GET', `/apps/${svc.app.id}`);
      expect(details.body.data).toMatchObject({ activatedUserCount: 1, userCount: 4 });
    });

    it('pages the seat list', async () => {
      await license('POST', '/users/activate', { userIds: Array.from({ length: 25 }, (_, i) => `user-${String(i).padStart(2, '0')}`) });
      const page = async (p: number, size: number) =>
        (await svc.call('GET', '/sdk/v2/api/license/users', { signature: await svc.signLicense(), token: null, query: { page: p, size } })).body.data;
      const first = await page(1, 10);
      const second = await page(2, 10);
      const third = await page(3, 10);
      expect(first).toHaveLength(10);
      expect(third).toHaveLength(5);
      const ids = [...first, ...second, ...third].map((s: { userId: string }) => s.userId);
      expect(new Set(ids).size).toBe(25);
      expect(await page(0, 10)).toEqual(first);
      const bad = await svc.call('GET', '/sdk/v2/api/license/users', { signature: await svc.signLicense(), token: null, query: { size: 0 } });
      expect(bad.status).toBe(400);
      expect(bad.body.status).toBe(40000);
    });

    it('refuses activation past the member limit and changes nothing', async () => {
      const small = await svc.createApp({ memberLimit: 2 });
      const call = async (path: string, body: unknown) =>
        svc.call('POST', `/sdk/v2/api/license${path}`, { signature: await svc.signLicense(small), token: null, body });
      expect((await call('/users/activate', { userIds: ['a'] })).body.status).toBe(0);
      const over = await call('/users/activate', { userIds: ['b', 'c'] });
      expect(over.status).toBe(409);
      expect(over.body.status).toBe(20010);
      expect(over.body.data).toEqual({ memberLimit: 2, activated: 1 });
      expect((await svc.services.seats.counts(small.id))).toEqual({ activated: 1, total: 1 });
      // re-activating someone already active does not count twice
      expect((await call('/users/activate', { userIds: ['a', 'b'] })).body.status).toBe(0);
      expect((await call('/users/set-status', { userIds: ['c'], status: 1 })).body.status).toBe(20010);
    });

    it('validates seat bodies', async () => {
      const cases: unknown[] = [{}, { userIds: [] }, { userIds: 'u1' }, { userIds: [1] }, { userIds: [''] }, { userIds: Array(1001).fill('u') }];
      for (const body of cases) {
        const response = await license('POST', '/users/activate', body);
        expect(response.status, JSON.stringify(body).slice(0, 40)).toBe(400);
        expect(response.body.status).toBe(40000);
      }
      for (const status of [2, '1', null, 0.5]) {
        const response = await license('POST', '/users/set-status', { userIds: ['u'], status });
        expect(response.status, String(status)).toBe(400);
      }
      expect((await svc.services.seats.counts(svc.app.id)).total).toBe(0);
    });
  });
}
