import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS } from '../../examples/integrator/integrator.js';
import { testDatabases } from '../support/databases.js';
import { DEFAULT_USER } from '../support/integrator.js';
import { startService, type TestService } from '../support/service.js';
import { addPeople, createFile, data, expectFailure, SECOND_USER, talk, THIRD_USER } from './support.js';

const page = <T>(results: T[]) => ({ count: results.length, page: 1, pageSize: 20, pageCount: 1, results });
const user = (id: string, name: string) => ({ id, name, avatar: '', email: `${id}@example.com` });

for (const database of testDatabases()) {
  describe(`mention suggestions [${database.name}]`, () => {
    let svc: TestService;
    beforeEach(async () => {
      svc = await startService(database, { integrator: true });
      addPeople(svc);
      await createFile(svc, 'doc', 'document');
      svc.integrator.addFile({ id: 'doc', grants: { [DEFAULT_USER.id]: { ...ALL_PERMISSIONS }, [SECOND_USER.id]: { readable: true }, [THIRD_USER.id]: { readable: true } } });
      svc.integrator.addFile({ id: 'contract', name: 'Contract.pdf', type: 'file', grants: { [DEFAULT_USER.id]: { readable: true, editable: false, commentable: false } } });
      svc.integrator.addFile({ id: 'plan', name: 'Plan 2025', type: 'spreadsheet', grants: { [DEFAULT_USER.id]: { readable: true, editable: true, commentable: false } } });
    });
    afterEach(async () => svc.close());

    const suggest = (keyword?: string, fileId = 'doc', token?: string) =>
      talk(svc, 'GET', fileId, 'mention-suggestions', { ...(keyword === undefined ? {} : { query: { keyword } }), ...(token ? { token } : {}) });
    const served = (path: string) => svc.integrator.calls.filter((call) => call.path === path);

    it('offers the recent users and files without a keyword, asking both callbacks in parallel with the user\'s token', async () => {
      svc.integrator.intercept = async (call) => {
        if (call.path.startsWith('/search/')) await new Promise((resolve) => setTimeout(resolve, 600));
        return undefined;
      };
      const started = Date.now();
      const suggestions = data(await suggest());
      expect(Date.now() - started).toBeLessThan(1150);
      expect(suggestions.users).toEqual([
        { id: SECOND_USER.id, name: SECOND_USER.name, avatar: SECOND_USER.avatar, email: '' },
        { id: THIRD_USER.id, name: THIRD_USER.name, avatar: '', email: '' },
      ]);
      expect(suggestions.files).toEqual([
        expect.objectContaining({ id: 'contract', name: 'Contract.pdf', type: 'file', fullUrl: `${svc.integrator.url}/files/contract`, permissions: { readable: true, editable: false, commentable: false } }),
        expect.objectContaining({ id: 'plan', name: 'Plan 2025', type: 'spreadsheet', permissions: { readable: true, editable: true, commentable: false } }),
      ]);
      expect(suggestions.files[1]).not.toHaveProperty('fullUrl');
      expect(suggestions.files[0].createdAt).toMatch(/Z$/);
      expect(suggestions.failures).toEqual([]);
      for (const path of ['/search/users/recent', '/search/files/recent']) {
        expect(served(path)).toHaveLength(1);
        expect(served(path)[0]!.headers).toMatchObject({ 'x-svc-token': DEFAULT_USER.token, 'x-svc-credential-type': '0' });
      }

      // a blank keyword is no keyword
      data(await suggest('   '));
      expect(served('/search/users/recent')).toHaveLength(2);
      expect(served('/search')).toHaveLength(0);
    });

    it('searches with a trimmed keyword: users of the three lists once each, files from the file list', async () => {
      const found = data(await suggest('  sec  '));
      expect(found.users.map((u: { id: string }) => u.id)).toEqual([SECOND_USER.id]);
      expect(found.files).toEqual([]);
      expect(data(await suggest('PLAN')).files.map((f: { id: string }) => f.id)).toEqual(['plan']);
      expect(served('/search')).toHaveLength(2);
      expect(served('/search/users/recent')).toHaveLength(0);

      svc.integrator.intercept = (call) =>
        call.path === '/search'
          ? {
              status: 200,
              body: JSON.stringify({
                files: page([{ id: 'x1', name: 'X', type: 'file', fullUrl: 'https://intranet.example/x1', permissions: { readable: true } }]),
                recentUsers: page([user('u2', 'Two'), user('u3', 'Three')]),
                collaborators: page([user('u3', 'Three again'), user('u4', 'Four')]),
                teamMembers: page([user('u2', 'Two'), { id: 5, name: 'Five' }]),
                department: page([]),
              }),
            }
          : undefined;
      const merged = data(await suggest('t'));
      expect(merged.users).toEqual([user('u2', 'Two'), user('u3', 'Three'), user('u4', 'Four'), { id: '5', name: 'Five', avatar: '', email: '' }]);
      expect(merged.files).toEqual([{ id: 'x1', name: 'X', type: 'file', fullUrl: 'https://intranet.example/x1', permissions: { readable: true, editable: false, commentable: false } }]);
      expect(merged.failures).toEqual([]);
    });

    it('refuses a keyword over 100 characters with 74000, and counts characters, not bytes', async () => {
      expectFailure(await suggest('k'.repeat(101)), 400, 74000, /at most 100 characters/);
      expectFailure(await suggest('k'.repeat(1001)), 400, 74000);
      expect(data(await suggest(` ${'文'.repeat(100)} `)).users).toEqual([]);
      expect(data(await suggest('😀'.repeat(100))).files).toEqual([]);
      expect(served('/search')).toHaveLength(2);
    });

    it('still offers one list when the other callback fails, naming the failure', async () => {
      svc.integrator.intercept = (call) => (call.path === '/search/files/recent' ? { status: 500, body: '{}' } : undefined);
      const withoutFiles = data(await suggest());
      expect(withoutFiles.users.map((u: { id: string }) => u.id)).toEqual([SECOND_USER.id, THIRD_USER.id]);
      expect(withoutFiles.files).toEqual([]);
      expect(withoutFiles.failures).toEqual([{ source: 'files', status: 10009, message: expect.stringContaining('GET /search/files/recent') }]);

      svc.integrator.intercept = (call) => (call.path === '/search/users/recent' ? { status: 404 } : undefined);
      const withoutUsers = data(await suggest());
      expect(withoutUsers.users).toEqual([]);
      expect(withoutUsers.files.map((f: { id: string }) => f.id)).toEqual(['contract', 'plan']);
      expect(withoutUsers.failures).toEqual([{ source: 'users', status: 10007, message: expect.stringContaining('answered HTTP 404') }]);

      // a malformed answer (a third-party file without fullUrl) is a failure of that list, not of the request
      svc.integrator.intercept = (call) =>
        call.path === '/search/files/recent' ? { status: 200, body: JSON.stringify([{ id: 'f', name: 'F', type: 'file', permissions: { readable: true } }]) } : undefined;
      expect(data(await suggest()).failures).toEqual([{ source: 'files', status: 10012, message: expect.stringContaining('fullUrl') }]);
    });

    it('fails with the error when both lists fail, or when the search fails', async () => {
      svc.integrator.intercept = (call) => {
        if (call.path === '/search/users/recent') return { status: 404 };
        if (call.path === '/search/files/recent') return { status: 200, body: 'not json' };
        return undefined;
      };
      const both = await suggest();
      expectFailure(both, 502, 10007, /GET \/search\/users\/recent.*GET \/search\/files\/recent/);
      expect(both.body.data.failures).toEqual([
        { source: 'users', status: 10007, message: expect.any(String) },
        { source: 'files', status: 10011, message: expect.any(String) },
      ]);

      svc.integrator.intercept = (call) => (call.path === '/search' ? { status: 503 } : undefined);
      expectFailure(await suggest('plan'), 502, 10009, /POST \/search/);
      svc.integrator.intercept = (call) => (call.path === '/search' ? { status: 200, body: '{"files": 3}' } : undefined);
      expectFailure(await suggest('plan'), 502, 10012);
    });

    it('needs readable on a registered file; table files have mentions too', async () => {
      svc.integrator.addUser({ id: 'user-9', name: 'Outsider', token: 'token-9' });
      svc.integrator.grant('doc', 'user-9', { readable: false });
      expectFailure(await suggest(undefined, 'doc', 'token-9'), 403, 40300);
      expectFailure(await suggest('x', 'doc', 'token-9'), 403, 40300);
      expectFailure(await suggest(undefined, 'not-registered'), 404, 70013);
      expect(served('/search/users/recent')).toHaveLength(0);
      await createFile(svc, 'tbl', 'table');
      expect(data(await suggest(undefined, 'tbl')).failures).toEqual([]);
    });
  });
}
