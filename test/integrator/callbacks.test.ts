import net from 'node:net';
import { jwtVerify } from 'jose';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CallContext } from '../../src/integrator/callback-client.js';
import { ALL_PERMISSIONS } from '../../examples/integrator/integrator.js';
import { DEFAULT_USER, eventually } from '../support/integrator.js';
import { testDatabases } from '../support/databases.js';
import { startService, type TestService } from '../support/service.js';

/** A loopback port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

for (const database of testDatabases()) {
  describe(`callback client [${database.name}]`, () => {
    let svc: TestService;
    beforeEach(async () => {
      svc = await startService(database, { integrator: { autoFiles: false } });
      const integrator = svc.integrator;
      integrator.departments.set('d-root', { id: 'd-root', name: 'Company' });
      integrator.departments.set('d-eng', { id: 'd-eng', name: 'Engineering', parentId: 'd-root' });
      integrator.teams.set('team-1', { id: 'team-1', name: 'Team One' });
      integrator.addUser({ id: DEFAULT_USER.id, name: DEFAULT_USER.name, email: DEFAULT_USER.email, teamGuid: 'team-1', departmentId: 'd-eng' });
      integrator.addUser({ id: 'u2', name: 'Second', token: 'u2-token', teamGuid: 'team-1', departmentId: 'd-root' });
      integrator.addFile({ id: 'doc', name: 'Plan', type: 'document', creatorId: DEFAULT_USER.id, grants: { [DEFAULT_USER.id]: { ...ALL_PERMISSIONS }, u2: { readable: true } } });
      integrator.addFile({ id: 'pdf', name: 'Scan', type: 'file', creatorId: 'u2', grants: { [DEFAULT_USER.id]: { readable: true } } });
    });
    afterEach(async () => svc.close());

    const user = (): CallContext => ({ app: svc.app, credential: { kind: 'user', token: DEFAULT_USER.token }, requestId: 'rid-7' });
    const system = (fileId?: string, userId?: string): CallContext => ({ app: svc.app, credential: { kind: 'system', fileId, userId } });
    const client = () => svc.services.callbacks;
    const answer = (path: string, status: number, body: string) => {
      svc.integrator.intercept = (call) => (call.path === path ? { status, body } : undefined);
    };

    it('answers every callback of contract notes 2 from the reference integrator', async () => {
      const c = client();
      expect(await c.currentUser(user())).toMatchObject({ id: DEFAULT_USER.id, teamGuid: 'team-1' });
      expect(await c.user(user(), 'u2')).toMatchObject({ id: 'u2', name: 'Second' });
      expect((await c.users(user(), ['u2', DEFAULT_USER.id, 'ghost'])).map((u) => u.id)).toEqual(['u2', DEFAULT_USER.id]);
      expect(await c.currentTeam(user())).toEqual({ id: 'team-1', name: 'Team One', memberCount: 2 });
      expect(await c.watermarks(user(), DEFAULT_USER.id)).toEqual([]);
      svc.integrator.addUser({ id: 'marked', name: 'Marked', watermark: ['Marked', 'Internal'] });
      expect(await c.watermarks(user(), 'marked')).toEqual(['Marked', 'Internal']);
      expect(await c.departmentPaths(user(), DEFAULT_USER.id)).toEqual([[{ id: 'd-root', name: 'Company' }, { id: 'd-eng', name: 'Engineering' }]]);
      expect(await c.file(user(), 'doc')).toMatchObject({ id: 'doc', type: 'document', permissions: { manageable: true } });
      expect(await c.file(system('doc'), 'doc')).toMatchObject({ id: 'doc', permissions: { readable: true } });
      expect((await c.fileForUser(system('doc', 'u2'), 'doc', 'u2')).permissions).toMatchObject({ readable: true, editable: false });
      expect((await c.files(user(), { limit: 10, orderBy: 'created_at' })).map((f) => f.id).sort()).toEqual(['doc', 'pdf']);
      expect((await c.collaborators(user(), 'doc')).map((u) => [u.id, u.isManager])).toEqual([[DEFAULT_USER.id, true], ['u2', false]]);
      expect(await c.fileUrl(system('doc'), 'doc')).toBe(`${svc.integrator.url}/files/doc`);
      expect((await c.teamMembers(user(), 'team-1')).map((u) => u.id)).toEqual([DEFAULT_USER.id, 'u2']);
      expect(await c.department(user(), 'd-root')).toEqual({ id: 'd-root', name: 'Company', allMemberCount: 2 });
      expect(await c.departmentChildren(user(), 'd-root')).toEqual([{ id: 'd-eng', name: 'Engineering', allMemberCount: 1 }]);
      expect((await c.departmentMembers(user(), 'd-eng')).members.map((u) => u.id)).toEqual([DEFAULT_USER.id]);
      expect((await c.recentUsers(user(), 'doc')).map((u) => u.id)).toEqual(['u2']);
      const recent = await c.recentFiles(user(), 'doc');
      expect(recent).toEqual([expect.objectContaining({ id: 'pdf', type: 'file', fullUrl: `${svc.integrator.url}/files/pdf` })]);
      const found = await c.search(user(), { keyword: 'pla', fileId: 'doc' });
      expect(found.files.results.map((f) => f.id)).toEqual(['doc']);
    });

    it('forwards the token on user calls and signs system calls (claims fileId, userId, exp)', async () => {
      await client().currentUser(user());
      await client().fileForUser(system('doc', 'u2'), 'doc', 'u2');
      const [userCall, systemCall] = svc.integrator.calls;
      expect(userCall?.headers).toMatchObject({ 'x-svc-token': DEFAULT_USER.token, 'x-svc-credential-type': '0', 'x-request-id': 'rid-7' });
      expect(userCall?.headers['x-svc-signature']).toBeUndefined();
      expect(systemCall?.headers['x-svc-credential-type']).toBe('3');
      expect(systemCall?.headers['x-svc-token']).toBeUndefined();
      const { payload, protectedHeader } = await jwtVerify(String(systemCall?.headers['x-svc-signature']), new TextEncoder().encode(svc.app.secret));
      expect(protectedHeader).toMatchObject({ alg: 'HS256', kid: svc.app.id });
      expect(payload).toMatchObject({ fileId: 'doc', userId: 'u2' });
      expect(payload.exp! - Math.floor(Date.now() / 1000)).toBeLessThanOrEqual(300);
    });

    it('maps a 404 to the code of the callback (10002-10008)', async () => {
      const cases: Array<[string, () => Promise<unknown>, number]> = [
        ['/files/doc', () => client().file(user(), 'doc'), 10002],
        ['/users/current/info', () => client().currentUser(user()), 10003],
        ['/users/u2', () => client().user(user(), 'u2'), 10004],
        ['/users/batch/get', () => client().users(user(), ['u2']), 10005],
        ['/files/doc/collaborators', () => client().collaborators(user(), 'doc'), 10006],
        ['/search/users/recent', () => client().recentUsers(user(), 'doc'), 10007],
        ['/search/files/recent', () => client().recentFiles(user(), 'doc'), 10008],
      ];
      for (const [path, call, code] of cases) {
        answer(path, 404, '{}');
        const error = await call().then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error, path).toMatchObject({ spec: { code } });
        expect((error as Error).message, path).toContain('(request id ');
      }
    });

    it('maps bad answers to their own codes, naming the callback and the request id', async () => {
      const cases: Array<[number, string, number, number]> = [
        [500, '{}', 10009, 502],
        [400, '{}', 10009, 502],
        [204, '', 10010, 502],
        [302, '', 10010, 502],
        [200, '{"id":', 10011, 502],
        [200, '{"id":"doc","name":"Plan","type":"document"}', 10012, 502],
        [200, '{"id":"doc","name":"Plan","type":"document","permissions":{"readable":"yes"}}', 10012, 502],
        [200, '{"id":"doc","name":"Plan","type":"video","permissions":{}}', 10013, 502],
      ];
      for (const [status, body, code, http] of cases) {
        answer('/files/doc', status, body);
        const error = await client().file(user(), 'doc').then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error, `${status} ${body}`).toMatchObject({ spec: { code, http } });
        expect((error as Error).message).toContain('callback GET /files/{fileId} failed');
        expect((error as Error).message).toContain('request id rid-7');
      }
      answer('/users/current/info', 200, '{"name":"no id"}');
      await expect(client().currentUser(user())).rejects.toMatchObject({ spec: { code: 10014 } });
    });

    it('refuses an answer over 4 MiB as 10011 without buffering it all', async () => {
      answer('/files/doc', 200, `{"id":"${'x'.repeat(5 * 1024 * 1024)}"}`);
      await expect(client().file(user(), 'doc')).rejects.toMatchObject({ spec: { code: 10011 } });
    });

    it('maps an unreachable endpoint to 10015 / 502 and a slow one to 10015 / 408', async () => {
      const gone = await svc.createApp({ endpointUrl: `http://127.0.0.1:${await closedPort()}` });
      await expect(client().currentUser({ app: gone, credential: { kind: 'user', token: 't' } })).rejects.toMatchObject({ spec: { code: 10015, http: 502 } });
      svc.integrator.intercept = (call) => (call.path === '/users/u2' ? { status: 200, body: '{}', delayMs: 2500 } : undefined);
      await expect(client().user(user(), 'u2')).rejects.toMatchObject({ spec: { code: 10015, http: 408, tableCode: 70006 } });
    });

    it('retries an idempotent GET once after a 5xx, never a POST', async () => {
      let failures = 1;
      svc.integrator.intercept = (call) => (call.path === '/users/u2' && failures-- > 0 ? { status: 503, body: '' } : undefined);
      expect((await client().user(user(), 'u2')).id).toBe('u2');
      expect(svc.integrator.calls.filter((c) => c.path === '/users/u2')).toHaveLength(2);

      svc.integrator.intercept = (call) => (call.path === '/users/batch/get' ? { status: 503, body: '' } : undefined);
      await expect(client().users(user(), ['u2'])).rejects.toMatchObject({ spec: { code: 10009 } });
      expect(svc.integrator.calls.filter((c) => c.path === '/users/batch/get')).toHaveLength(1);
    });

    it('validates recent files: ISO 8601 UTC timestamps, fullUrl only for type file', async () => {
      const entry = { id: 'x', name: 'X', type: 'document', permissions: { readable: true }, createdAt: '2026-01-02T03:04:05Z', updatedAt: '2026-01-02T03:04:05.123Z' };
      const serve = (entries: unknown[]) => answer('/search/files/recent', 200, JSON.stringify(entries));
      serve([entry, { ...entry, id: 'y', type: 'file', fullUrl: 'https://intranet.example/f/y' }]);
      expect((await client().recentFiles(user(), 'doc')).map((f) => f.id)).toEqual(['x', 'y']);
      for (const bad of [
        { ...entry, createdAt: '2026-01-02T03:04:05+08:00' },
        { ...entry, updatedAt: '2026-01-02 03:04:05' },
        { ...entry, fullUrl: 'https://intranet.example/f/x' },
        { ...entry, type: 'file' },
      ]) {
        serve([bad]);
        await expect(client().recentFiles(user(), 'doc'), JSON.stringify(bad)).rejects.toMatchObject({ spec: { code: 10012 } });
      }
    });

    it('reports each failed callback to the integrator as a System event', async () => {
      answer('/users/current/info', 500, '{"error":"database down"}');
      const response = await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'document', fileId: 'n1' } });
      expect(response.status).toBe(502);
      expect(response.body.status).toBe(10009);
      svc.integrator.intercept = undefined;
      await eventually(() => svc.integrator.events.some((e) => e.eventClass === 'System'), 'the System event');
      const event = svc.integrator.events.find((e) => e.eventClass === 'System');
      expect(event?.credentialType).toBe('3');
      expect(event?.body).toMatchObject({
        kind: 'System',
        type: 'endpointCallback',
        appId: svc.app.id,
        request: { url: `${svc.integrator.url}/users/current/info` },
        response: { status: 500, body: '{"error":"database down"}' },
      });
      expect(String(event?.body.errorMessage)).toContain(response.body.requestId);
      const headers = (event?.body.request as { headers: Record<string, string> }).headers;
      expect(headers['x-svc-token']).not.toBe(DEFAULT_USER.token);
    });

    it('reports a failure that repeats once a minute, not once per request', async () => {
      answer('/users/current/info', 503, '');
      for (let i = 0; i < 5; i++) {
        expect((await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'document', fileId: `n${i}` } })).body.status).toBe(10009);
      }
      answer('/files/doc', 500, '');
      await expect(client().file(user(), 'doc')).rejects.toMatchObject({ spec: { code: 10009 } });
      svc.integrator.intercept = undefined;
      await eventually(() => svc.integrator.events.filter((e) => e.eventClass === 'System').length === 2, 'two System events');
      await new Promise((resolve) => setTimeout(resolve, 200));
      const urls = svc.integrator.events.filter((e) => e.eventClass === 'System').map((e) => (e.body.request as { url: string }).url);
      expect(urls.sort()).toEqual([`${svc.integrator.url}/files/doc`, `${svc.integrator.url}/users/current/info`]);
    });
  });
}
