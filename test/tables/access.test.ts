import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { testDatabases } from '../support/databases.js';
import { DEFAULT_USER, FAST_DELIVERY } from '../support/integrator.js';
import { startService, type StartOptions, type TestService } from '../support/service.js';
import { API, createBase, createTable, expectTableError, insertRows } from './helpers.js';

interface Endpoint {
  name: string;
  method: string;
  path: string;
  body?: unknown;
  query?: Record<string, string>;
  write: boolean;
}

for (const database of testDatabases()) {
  describe(`table API: authentication, permissions and failures [${database.name}]`, () => {
    let svc: TestService;
    let base: string;
    let endpoints: Endpoint[];

    /** A base with one table of two columns and one row, and every endpoint of the API aimed at them. */
    const setUp = async (options: StartOptions = {}) => {
      svc = await startService(database, { integrator: true, ...options });
      base = await createBase(svc);
      const table = await createTable(svc, base, [
        { name: 'Name', type: 'SingleLineText' },
        { name: 'Extra', type: 'Number' },
      ]);
      const [row] = await insertRows(svc, table.guid, [{ Name: 'first' }]);
      const t = `${API}/tables/${table.guid}`;
      const extra = table.columns[1]!.guid;
      endpoints = [
        { name: 'GET /tables', method: 'GET', path: `${API}/tables`, query: { baseGuid: base }, write: false },
        { name: 'POST /tables', method: 'POST', path: `${API}/tables`, body: { baseGuid: base, name: 'New', cols: [{ name: 'A', type: 'Number' }] }, write: true },
        { name: 'GET columns', method: 'GET', path: `${t}/columns`, write: false },
        { name: 'POST columns', method: 'POST', path: `${t}/columns`, body: { name: 'C', type: 'Number', viewGuid: table.defaultViewGuid }, write: true },
        { name: 'PUT column', method: 'PUT', path: `${t}/columns/${extra}`, body: { name: 'Renamed' }, write: true },
        { name: 'DELETE column', method: 'DELETE', path: `${t}/columns/${extra}`, write: true },
        { name: 'GET rows', method: 'GET', path: `${t}/rows`, write: false },
        { name: 'GET row', method: 'GET', path: `${t}/rows/${row!.guid}`, write: false },
        { name: 'POST rows', method: 'POST', path: `${t}/rows`, body: { rows: [{ Name: 'x' }] }, write: true },
        { name: 'PATCH row', method: 'PATCH', path: `${t}/rows/${row!.guid}`, body: { valueMap: { Name: 'y' } }, write: true },
        { name: 'DELETE row', method: 'DELETE', path: `${t}/rows/${row!.guid}`, write: true },
      ];
    };
    beforeEach(() => setUp());
    afterEach(async () => svc.close());

    const call = (endpoint: Endpoint, options: { signature?: string | null; token?: string | null } = {}) =>
      svc.call(endpoint.method, endpoint.path, { body: endpoint.body, query: endpoint.query, ...options });

    it('answers a missing, invalid or expired signature, or a missing token, with exactly {"error":"Unauthorized"}', async () => {
      const expired = await svc.sign({ expiresIn: -60 });
      const foreign = await svc.sign({}, { ...svc.app, secret: 'not-the-secret' });
      for (const endpoint of endpoints) {
        for (const options of [{ signature: null }, { signature: 'not-a-jwt' }, { signature: expired }, { signature: foreign }, { token: null }]) {
          const response = await call(endpoint, options);
          expect(response.status, `${endpoint.name} ${JSON.stringify(options)}`).toBe(401);
          expect(response.text).toBe('{"error":"Unauthorized"}');
        }
      }
    });

    it('answers 401 / 20000 when the integrator cannot resolve the token to a user', async () => {
      for (const endpoint of endpoints) {
        const response = await call(endpoint, { token: 'unknown-token' });
        expectTableError(response, 401, 20000);
      }
    });

    it('needs readable for reads and editable for writes (403 / 20000), and changes nothing when refused', async () => {
      const before = await Promise.all(endpoints.filter((e) => !e.write).map((e) => call(e)));
      svc.integrator.grant(base, DEFAULT_USER.id, { readable: true, editable: false });
      svc.services.access.forget();
      for (const endpoint of endpoints) {
        const response = await call(endpoint);
        if (endpoint.write) expectTableError(response, 403, 20000, /edit/);
        else expect(response.status, endpoint.name).toBe(200);
      }
      const after = await Promise.all(endpoints.filter((e) => !e.write).map((e) => call(e)));
      expect(after.map((r) => r.body)).toEqual(before.map((r) => r.body));

      svc.services.access.forget();
      svc.integrator.grant(base, DEFAULT_USER.id, { readable: false, editable: false });
      for (const endpoint of endpoints) expectTableError(await call(endpoint), 403, 20000);
    });

    it('refuses every call on a file with advanced permissions (403 / 20000)', async () => {
      svc.integrator.files.get(base)!.advancedPermissions = true;
      svc.services.access.forget();
      for (const endpoint of endpoints) expectTableError(await call(endpoint), 403, 20000, /advanced permissions/);
    });

    it('answers 408 / 70006 on every endpoint when a callback exceeds its deadline', async () => {
      await svc.close();
      await setUp({ integratorLink: { ...loadConfig({}).integratorLink, ...FAST_DELIVERY, callbackTimeoutMs: 300 } });
      svc.services.access.forget();
      svc.integrator.intercept = () => ({ status: 200, body: '{}', delayMs: 700 });
      for (const endpoint of endpoints) expectTableError(await call(endpoint), 408, 70006);
      svc.integrator.intercept = undefined;
    });

    it('answers 500 / 10000 on every endpoint, with a trace id, when the integrator fails unexpectedly', async () => {
      svc.services.access.forget();
      svc.integrator.intercept = () => ({ status: 200, body: 'not json' });
      for (const endpoint of endpoints) {
        const response = await call(endpoint);
        expectTableError(response, 500, 10000);
        expect(response.body.message).toContain(response.headers.get('x-request-id')!);
      }
      svc.integrator.intercept = undefined;
    });

    it('answers a fault of ours with 500 / 10000 and the trace id, never a partial answer', async () => {
      // table_links refers to table_rows (PostgreSQL refuses to drop a table others refer to)
      await svc.services.storage.db.schema.dropTable('table_links').execute();
      await svc.services.storage.db.schema.dropTable('table_rows').execute();
      for (const endpoint of endpoints.filter((e) => e.path.includes('/rows'))) {
        const response = await call(endpoint);
        expectTableError(response, 500, 10000, /request id/);
        expect(response.body.message).toContain(response.headers.get('x-request-id')!);
      }
    });

    it('answers 404 / 70001 on every endpoint when the integrator does not know the base file', async () => {
      svc.services.access.forget();
      svc.integrator.intercept = (served) => (served.path.startsWith('/files/') ? { status: 404, body: '{}' } : undefined);
      for (const endpoint of endpoints) expectTableError(await call(endpoint), 404, 70001);
      svc.integrator.intercept = undefined;
    });

    it('answers unknown tables (70002), rows (70005) and columns (70004) with their codes', async () => {
      const t = `${API}/tables/tblMissing`;
      for (const [method, path, body] of [
        ['GET', `${t}/columns`],
        ['POST', `${t}/columns`, { name: 'C', type: 'Number', viewGuid: 'v' }],
        ['PUT', `${t}/columns/colX`, { name: 'N' }],
        ['DELETE', `${t}/columns/colX`],
        ['GET', `${t}/rows`],
        ['GET', `${t}/rows/rowX`],
        ['POST', `${t}/rows`, { rows: [{}] }],
        ['PATCH', `${t}/rows/rowX`, { valueMap: {} }],
        ['DELETE', `${t}/rows/rowX`],
      ] as const) {
        expectTableError(await svc.call(method, path, { body }), 404, 70002);
      }
      const rowsPath = endpoints.find((e) => e.name === 'GET row')!.path.replace(/[^/]+$/, 'rowMissing');
      expectTableError(await svc.call('GET', rowsPath), 404, 70005);
      expectTableError(await svc.call('PATCH', rowsPath, { body: { valueMap: {} } }), 404, 70005);
      expectTableError(await svc.call('DELETE', rowsPath), 404, 70005);
      const columnPath = endpoints.find((e) => e.name === 'PUT column')!.path.replace(/[^/]+$/, 'colMissing');
      expectTableError(await svc.call('PUT', columnPath, { body: { name: 'N' } }), 400, 70004);
      expectTableError(await svc.call('DELETE', columnPath), 400, 70004);
    });

    it('keeps applications apart: another app sees neither the base nor its tables', async () => {
      const other = await svc.createApp();
      const signature = await svc.sign({}, other);
      for (const endpoint of endpoints) {
        const response = await call(endpoint, { signature });
        expect([404], `${endpoint.name}: ${response.text}`).toContain(response.status);
        expect([70001, 70002]).toContain(response.body.code);
      }
    });

    it('answers a body above the configured limit with 400 / 70012 before reading it', async () => {
      await svc.close();
      svc = await startService(database, { integrator: true, tableBodyLimitBytes: 2048 });
      const big = { rows: [{ Name: 'x'.repeat(4000) }] };
      for (const path of [`${API}/tables`, `${API}/tables/tblAny/rows`, `${API}/tables/tblAny/columns`]) {
        expectTableError(await svc.call('POST', path, { body: big }), 400, 70012);
      }
      expectTableError(await svc.call('PATCH', `${API}/tables/tblAny/rows/rowAny`, { body: { valueMap: big } }), 400, 70012);
      expectTableError(await svc.call('PUT', `${API}/tables/tblAny/columns/colAny`, { body: { name: 'x'.repeat(4000) } }), 400, 70012);
      expectTableError(await svc.call('DELETE', `${API}/tables/tblAny/rows/rowAny`, { rawBody: 'x'.repeat(4000) }), 400, 70012);
      expectTableError(await svc.call('DELETE', `${API}/tables/tblAny/columns/colAny`, { rawBody: 'x'.repeat(4000) }), 400, 70012);
    });

    it('answers unknown paths and wrong content types in the table envelope', async () => {
      expectTableError(await svc.call('GET', `${API}/nothing-here`), 404, 40400);
      const xml = await svc.call('POST', endpoints[1]!.path, { rawBody: '<a/>', headers: { 'content-type': 'application/xml' } });
      expectTableError(xml, 400, 70000);
    });
  });
}
