import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases.js';
import { startService, type CallResult, type TestService } from '../support/service.js';

/**
 * Every route of the OpenAPI document, fed odd input (issue 27 point 4): a control character anywhere in the
 * path, the query or a JSON body is 400 / 127003 before it reaches a lookup or the database; and fast-check's
 * paths, queries, headers and bodies never get a 5xx. Runs on SQLite and on PostgreSQL when present (NUL
 * reaching PostgreSQL was a 500); the fuzzing is bounded in time for CI.
 */
interface OpenApiParameter {
  in: string;
  name: string;
}
interface Route {
  method: string;
  path: string;
  parameters: OpenApiParameter[];
  /** the JSON body's top-level fields; undefined when the route takes no JSON body */
  bodyFields: string[] | undefined;
}

/** Time the property run may take per database; fast-check stops generating after it. */
const FUZZ_TIME_MS = 4000;
const CONTROL = '\u0000';

async function routesOf(svc: TestService): Promise<Route[]> {
  type Operation = { parameters?: OpenApiParameter[]; requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> } };
  const spec = (await svc.call('GET', '/openapi.json', { signature: null, token: null })).body as { paths: Record<string, Record<string, Operation>> };
  return Object.entries(spec.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      method: method.toUpperCase(),
      path,
      parameters: operation.parameters ?? [],
      bodyFields: operation.requestBody?.content?.['application/json'] ? Object.keys(operation.requestBody.content['application/json'].schema?.properties ?? {}) : undefined,
    })),
  );
}

const needsLicence = (path: string) => path.includes('/license/') || path.includes('/admin/');
const withBody = (method: string) => method !== 'GET' && method !== 'DELETE' && method !== 'HEAD';

/** The refusal, in the envelope of the route's group (backend, table API, HTML page). */
function isControlRefusal(path: string, response: CallResult): boolean {
  if (response.status !== 400) return false;
  if (path.includes('/table-api/')) return response.body?.code === 70000;
  if (response.headers.get('content-type')?.startsWith('text/html')) return response.text.includes('127003');
  return response.body?.status === 127003;
}

for (const database of testDatabases()) {
  describe(`every route against odd input [${database.name}]`, () => {
    let svc: TestService;
    let routes: Route[];
    beforeAll(async () => {
      svc = await startService(database, { integrator: true, appQps: 1_000_000 });
      routes = await routesOf(svc);
      await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'document', fileId: 'doc' } });
    });
    afterAll(async () => svc.close());

    const call = async (route: Route, path: string, options: Parameters<TestService['call']>[2] = {}) =>
      svc.call(route.method, path, { ...(needsLicence(route.path) ? { signature: await svc.signLicense() } : {}), ...options });

    it('refuses a control character in any path segment, query value or JSON body with 400 / 127003, writing nothing', async () => {
      expect(routes.length).toBeGreaterThan(40);
      const failures: string[] = [];
      for (const route of routes) {
        const plainPath = route.path.replace(/\{[^}]+\}/g, 'doc');
        const attempts: Array<{ what: string; path: string; options: Parameters<TestService['call']>[2] }> = [];
        if (route.path.includes('{')) attempts.push({ what: 'path', path: route.path.replace(/\{[^}]+\}/g, encodeURIComponent(`a${CONTROL}b`)), options: {} });
        attempts.push({ what: 'query', path: plainPath, options: { query: Object.fromEntries([...route.parameters.filter((p) => p.in === 'query').map((p) => p.name), 'extra'].map((name) => [name, `a${CONTROL}b`])) } });
        attempts.push({ what: 'raw query', path: `${plainPath}?x=%01`, options: {} });
        if (withBody(route.method) && route.bodyFields) {
          const fields = route.bodyFields.length > 0 ? route.bodyFields : ['content'];
          attempts.push({ what: 'body', path: plainPath, options: { body: Object.fromEntries(fields.map((name) => [name, `a${CONTROL}b`])) } });
          attempts.push({ what: 'nested body', path: plainPath, options: { body: { ...Object.fromEntries(fields.map((name) => [name, 'x'])), nested: [{ [`k${CONTROL}`]: 1 }] } } });
        }
        for (const attempt of attempts) {
          const response = await call(route, attempt.path, attempt.options);
          if (!isControlRefusal(route.path, response)) failures.push(`${route.method} ${route.path} (${attempt.what}): ${response.status} ${response.text.slice(0, 120)}`);
        }
      }
      expect(failures).toEqual([]);
      // nothing with a NUL was stored anywhere
      const files = await svc.services.storage.db.selectFrom('files').select('file_id').execute();
      expect(files.map((file) => file.file_id)).toEqual(['doc']);
    }, 180_000);

    it('answers fast-check paths, queries, headers and bodies of every route without a 5xx', async () => {
      const text = fc.oneof(fc.string({ maxLength: 12 }), fc.string({ unit: 'binary', maxLength: 12 }), fc.constantFrom('doc', '-1', '0', '1e9', 'abc', '%', '../..', 'Sheet1!A1:B2', ''));
      const request = fc.record({
        route: fc.nat(),
        params: fc.array(text, { minLength: 4, maxLength: 4 }),
        query: fc.dictionary(fc.oneof(fc.constantFrom('pageSize', 'page', 'size', 'offset', 'count', 'range', 'type', 'lang', 'limit', 'before'), fc.string({ maxLength: 6 })), text, { maxKeys: 4 }),
        headers: fc.dictionary(fc.constantFrom('accept', 'accept-language', 'x-request-id', 'content-language', 'x-svc-kit', 'if-none-match', 'range'), fc.string({ maxLength: 20 }).map((value) => value.replace(/[^\t\x20-\x7e]/g, '')), { maxKeys: 3 }),
        body: fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 6 })),
      });
      const failures: string[] = [];
      await fc.assert(
        fc.asyncProperty(request, async ({ route: pick, params, query, headers, body }) => {
          const route = routes[pick % routes.length]!;
          let index = 0;
          const path = route.path.replace(/\{[^}]+\}/g, () => encodeURIComponent(params[index++ % params.length]!));
          const response = await call(route, path, { query, headers, ...(withBody(route.method) ? { body } : {}) });
          if (response.status >= 500) failures.push(`${route.method} ${path} ${JSON.stringify({ query, headers, body }).slice(0, 200)}: ${response.status} ${response.text.slice(0, 160)}`);
          expect(failures).toEqual([]);
        }),
        { numRuns: 100_000, interruptAfterTimeLimit: FUZZ_TIME_MS, seed: Number(process.env.FUZZ_SEED ?? Date.now() % 1_000_000) },
      );
    }, 60_000);
  });
}
