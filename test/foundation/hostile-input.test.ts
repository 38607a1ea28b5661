import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases.js';
import { startService, type TestService } from '../support/service.js';

/**
 * Every documented route, fed malformed input of every kind (bad bodies, odd and over-long ids, junk query
 * values): the answer is a 4xx in its group's envelope with a request id, never a 500.
 * Routes come from the OpenAPI document, so a new route is covered without touching this file.
 */
const [sqlite] = testDatabases();

const HOSTILE_BODIES: Array<{ name: string; raw: string }> = [
  { name: 'broken JSON', raw: '{"a":' },
  { name: 'array', raw: '[1,2,3]' },
  { name: 'string', raw: '"text"' },
  { name: 'number', raw: '1e309' },
  { name: 'null', raw: 'null' },
  { name: 'proto pollution', raw: '{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}}}' },
  { name: 'wrong types everywhere', raw: JSON.stringify({ name: 7, type: [], fileId: {}, rows: 'x', values: 3, range: 9, valueMap: [], cols: {}, userIds: 'u', url: 1, replacements: 'r', keywords: 5, taskId: [] }) },
  { name: 'deep nesting', raw: '['.repeat(5000) + ']'.repeat(5000) },
];

interface OpenApiParameter {
  in: string;
  name: string;
  schema?: { type?: string };
}

/** Text that Number() (and so a coercing validator) reads as an integer, though nobody writes one so. */
const NOT_DECIMAL_INTEGERS = ['99999999999999999999', '0x10', '1e3', ' 7', '7 ', '+7', '0b11', '1.0', 'Infinity'];

const PARAM_VALUES = ['missing-id', '%00', "'; drop table apps; --", 'x'.repeat(300)];

describe('hostile input on every route', () => {
  let svc: TestService;
  let routes: Array<{ method: string; path: string; parameters: OpenApiParameter[] }>;
  beforeAll(async () => {
    svc = await startService(sqlite!, { integrator: true, appQps: 1_000_000 });
    const spec = (await svc.call('GET', '/openapi.json', { signature: null, token: null })).body as { paths: Record<string, Record<string, { parameters?: OpenApiParameter[] }>> };
    routes = Object.entries(spec.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ method: method.toUpperCase(), path, parameters: operation.parameters ?? [] })),
    );
  });
  afterAll(async () => svc.close());

  it('answers in the envelope, never with a 500', async () => {
    expect(routes.length).toBeGreaterThan(20);
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    for (const route of routes) {
      for (const param of PARAM_VALUES) {
        const path = route.path.replace(/\{[^}]+\}/g, encodeURIComponent(param));
        const bodies = route.method === 'GET' || route.method === 'DELETE' ? [undefined] : HOSTILE_BODIES;
        for (const body of bodies) {
          const signature = path.includes('/license/') || path.includes('/admin/') ? await svc.signLicense() : undefined;
          const response = await svc.call(route.method, path, { rawBody: body?.raw, ...(signature ? { signature } : {}), query: { range: "'unterminated!A1", pageSize: 'NaN', offset: 'no-such-row' } });
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          const tableApi = path.includes('/table-api/');
          // the editor page answers HTML: its error page carries the code
          const htmlPage = response.headers.get('content-type')?.startsWith('text/html') === true;
          const enveloped =
            response.status < 400 ||
            response.status === 426 ||
            (htmlPage
              ? /<code>\d+<\/code>/.test(response.text)
              : tableApi
                ? typeof response.body?.code === 'number' || response.body?.error === 'Unauthorized'
                : typeof response.body?.status === 'number');
          if (!enveloped || !response.headers.get('x-request-id')) failures.push(`${route.method} ${path.slice(0, 80)} ${body?.name ?? ''}: not in the envelope: ${response.text.slice(0, 120)}`);
          if (response.status >= 500 && response.status !== 503) failures.push(`${route.method} ${path.slice(0, 80)} ${body?.name ?? ''}: ${response.status} ${response.text.slice(0, 120)}`);
        }
      }
    }
    expect(failures).toEqual([]);
    // the input reached validation and the domain, not only the authentication in front of them
    expect([...statuses.keys()].filter((s) => s === 400 || s === 404).length).toBe(2);
  }, 120_000);

  it('refuses every integer query and path parameter that is not plain decimal digits, or out of bounds, with 400', async () => {
    const failures: string[] = [];
    let checked = 0;
    for (const route of routes) {
      for (const parameter of route.parameters.filter((p) => p.schema?.type === 'integer' && (p.in === 'query' || p.in === 'path'))) {
        for (const value of NOT_DECIMAL_INTEGERS) {
          const encoded = encodeURIComponent(value);
          const path = route.path.replace(/\{([^}]+)\}/g, (_match, name: string) => (parameter.in === 'path' && name === parameter.name ? encoded : 'some-id'));
          const signature = path.includes('/license/') || path.includes('/admin/') ? await svc.signLicense() : undefined;
          const response = await svc.call(route.method, path, { ...(signature ? { signature } : {}), ...(parameter.in === 'query' ? { query: { [parameter.name]: value } } : {}) });
          checked++;
          if (response.status !== 400) failures.push(`${route.method} ${route.path} ${parameter.in} ${parameter.name}=${JSON.stringify(value)}: ${response.status} ${response.text.slice(0, 100)}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThan(40);
  }, 120_000);

  it('bounds pages and offsets: a huge page is refused, the last allowed one is an empty page', async () => {
    const license = async (query: Record<string, string>) => svc.call('GET', '/sdk/v2/api/license/users', { signature: await svc.signLicense(), token: null, query });
    expect(await license({ page: '99999999999999999999' })).toMatchObject({ status: 400, body: { status: 40000 } });
    expect(await license({ page: '1000001' })).toMatchObject({ status: 400, body: { status: 40000, message: expect.stringContaining('page') } });
    expect(await license({ page: '1000000', size: '500' })).toMatchObject({ status: 200, body: { status: 0, data: [] } });
    const window = await svc.call('GET', '/sdk/v2/api/table-api/openapi/v1/tables/some-table/row-window', { query: { start: '999999999999999' } });
    expect(window).toMatchObject({ status: 400, body: { code: 70000 } });
  });

  it('answers a text/plain body with 415 / 41500 (table API: 400 / 70000)', async () => {
    const backend = await svc.call('POST', '/sdk/v2/api/files', { rawBody: '{"type":"document","fileId":"x"}', headers: { 'content-type': 'text/plain' } });
    expect(backend).toMatchObject({ status: 415, body: { status: 41500, message: expect.stringContaining('text/plain') } });
    const table = await svc.call('POST', '/sdk/v2/api/table-api/openapi/v1/tables', { rawBody: '{}', headers: { 'content-type': 'text/plain; charset=utf-8' } });
    expect(table).toMatchObject({ status: 400, body: { code: 70000 } });
    expect(await svc.services.storage.db.selectFrom('files').select('file_id').where('file_id', '=', 'x').execute()).toEqual([]);
  });

  it('refuses a fileId with a C1 control character (U+0080-U+009F), in a body and in a path', async () => {
    for (const control of ['\u0080', '\u0085', '\u009f']) {
      const created = await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'document', fileId: `a${control}b` } });
      expect(created).toMatchObject({ status: 400, body: { status: 70001 } });
      const read = await svc.call('GET', `/sdk/v2/collab-files/${encodeURIComponent(`a${control}b`)}/plain-text`);
      expect(read.status).toBe(400);
    }
    expect(await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'document', fileId: 'a-b-ü' } })).toMatchObject({ status: 200 });
  });

  it('answers a URL that cannot be decoded, and an over-long id, in the right envelope', async () => {
    const backend = await svc.call('DELETE', '/sdk/v2/api/files/%E0%A4%A');
    expect(backend.status).toBe(400);
    expect(backend.body).toMatchObject({ status: 40000, data: null });
    const longId = await svc.call('DELETE', `/sdk/v2/api/files/${'x'.repeat(101)}`);
    expect(longId.status).toBe(414);
    expect(longId.body.status).toBe(41400);
    const table = await svc.call('GET', `/sdk/v2/api/table-api/openapi/v1/tables/${'x'.repeat(101)}/columns`);
    expect(table.status).toBe(400);
    expect(table.body).toEqual({ code: 70000, message: expect.stringContaining('100 characters') });
  });
});
