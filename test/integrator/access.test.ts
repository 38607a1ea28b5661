import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RequestAuth } from '../../src/auth/request-auth.js';
import { ALL_PERMISSIONS } from '../../examples/integrator/integrator.js';
import { DEFAULT_USER } from '../support/integrator.js';
import { testDatabases } from '../support/databases.js';
import { startService, type TestService } from '../support/service.js';

for (const database of testDatabases()) {
  describe(`permission resolution through the integrator [${database.name}]`, () => {
    let svc: TestService;
    beforeEach(async () => {
      svc = await startService(database, { integrator: { autoFiles: false } });
      svc.integrator.addUser({ id: 'reader', name: 'Reader', token: 'reader-token' });
      svc.integrator.addFile({
        id: 'doc-1',
        type: 'document',
        creatorId: DEFAULT_USER.id,
        grants: { [DEFAULT_USER.id]: { ...ALL_PERMISSIONS }, reader: { readable: true } },
      });
    });
    afterEach(async () => svc.close());

    const auth = (token: string | undefined = DEFAULT_USER.token): RequestAuth => ({ app: svc.app, claims: {}, token, requestId: 'req-1' });
    const createFile = (fileId: string, token?: string) =>
      svc.call('POST', '/sdk/v2/api/files', { body: { type: 'document', fileId }, ...(token ? { token } : {}) });

    it('resolves the token to the user, forwarding it with credential type 0', async () => {
      expect(await svc.services.access.currentUser(auth())).toMatchObject({ id: DEFAULT_USER.id, name: DEFAULT_USER.name });
      const call = svc.integrator.calls.find((c) => c.path === '/users/current/info');
      expect(call?.headers['x-svc-token']).toBe(DEFAULT_USER.token);
      expect(call?.headers['x-svc-credential-type']).toBe('0');
      expect(call?.headers['x-request-id']).toBe('req-1');
    });

    it('authorizes by the permission booleans and refuses with 403 / 40300', async () => {
      const access = await svc.services.access.authorize(auth(), 'doc-1', 'manageable');
      expect(access.user.id).toBe(DEFAULT_USER.id);
      expect(access.file).toMatchObject({ id: 'doc-1', type: 'document', advancedPermissions: false });
      await expect(svc.services.access.authorize(auth('reader-token'), 'doc-1', 'readable')).resolves.toBeDefined();
      await expect(svc.services.access.authorize(auth('reader-token'), 'doc-1', 'editable')).rejects.toMatchObject({
        spec: { http: 403, code: 40300, tableCode: 20000 },
      });
    });

    it('maps an unknown token to 401 / 10003 (table 20000) and an unknown file to 404 / 10002', async () => {
      await expect(svc.services.access.currentUser(auth('nobody'))).rejects.toMatchObject({ spec: { http: 401, code: 10003, tableCode: 20000 } });
      await expect(svc.services.access.authorize(auth(), 'missing', 'readable')).rejects.toMatchObject({ spec: { http: 404, code: 10002 } });
    });

    it('reports advanced permissions', async () => {
      svc.integrator.addFile({ id: 'locked', grants: { [DEFAULT_USER.id]: { readable: true } }, advancedPermissions: true });
      expect((await svc.services.access.authorize(auth(), 'locked', 'readable')).file.advancedPermissions).toBe(true);
    });

    it('caches answers briefly: a burst makes one callback per token and file', async () => {
      await Promise.all(Array.from({ length: 20 }, () => svc.services.access.authorize(auth(), 'doc-1', 'readable')));
      expect(svc.integrator.calls.filter((c) => c.path === '/users/current/info')).toHaveLength(1);
      expect(svc.integrator.calls.filter((c) => c.path === '/files/doc-1')).toHaveLength(1);
    });

    it('asks every time when the cache is disabled', async () => {
      const uncached = await startService(database, { integrator: true, integratorLink: { ...svc.services.config.integratorLink, permissionCacheMs: 0 } });
      try {
        const who: RequestAuth = { app: uncached.app, claims: {}, token: DEFAULT_USER.token };
        for (let i = 0; i < 3; i++) await uncached.services.access.currentUser(who);
        expect(uncached.integrator.calls.filter((c) => c.path === '/users/current/info')).toHaveLength(3);
      } finally {
        await uncached.close();
      }
    });

    it('gives a slow integrator 408 / 10015 (table 70006) at the deadline', async () => {
      svc.integrator.intercept = (call) => (call.path === '/users/current/info' ? { status: 200, body: '{}', delayMs: 3000 } : undefined);
      const started = Date.now();
      await expect(svc.services.access.currentUser(auth())).rejects.toMatchObject({ spec: { http: 408, code: 10015, tableCode: 70006 } });
      expect(Date.now() - started).toBeLessThan(2900);
    });

    it('POST files needs a token that resolves to a user, and records the creator', async () => {
      expect((await createFile('new-1')).status).toBe(200);
      const row = await svc.services.storage.db.selectFrom('files').select('created_by').where('file_id', '=', 'new-1').executeTakeFirstOrThrow();
      expect(row.created_by).toBe(DEFAULT_USER.id);
      const refused = await createFile('new-2', 'nobody');
      expect(refused.status).toBe(401);
      expect(refused.body).toMatchObject({ status: 10003, data: null });
      expect(refused.body.message).toContain('GET /users/current/info');
      expect(refused.body.message).toContain(refused.body.requestId);
      expect(await svc.services.files.find(svc.app.id, 'new-2')).toBeUndefined();
    });

    it('DELETE files needs manageable', async () => {
      expect((await createFile('doc-1')).status).toBe(200);
      const denied = await svc.call('DELETE', '/sdk/v2/api/files/doc-1', { token: 'reader-token' });
      expect(denied.status).toBe(403);
      expect(denied.body.status).toBe(40300);
      expect(await svc.services.files.find(svc.app.id, 'doc-1')).toBeDefined();
      const allowed = await svc.call('DELETE', '/sdk/v2/api/files/doc-1');
      expect(allowed.body).toEqual({ status: 0, message: 'success', data: { deleted: true } });
      const unknown = await svc.call('DELETE', '/sdk/v2/api/files/not-at-integrator');
      expect(unknown.status).toBe(404);
      expect(unknown.body.status).toBe(10002);
    });

    it('an app without endpoint URL gets 424 / 10001', async () => {
      const bare = await svc.createApp({ endpointUrl: null });
      const response = await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'document', fileId: 'x' }, signature: await svc.sign({}, bare) });
      expect(response.status).toBe(424);
      expect(response.body.status).toBe(10001);
    });
  });
}
