import { afterEach, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases.js';
import { startService, type CallResult, type TestService } from '../support/service.js';

for (const database of testDatabases()) {
  describe(`server [${database.name}]`, () => {
    let svc: TestService;
    afterEach(async () => svc.close());

    it('answers health checks with the engine in use', async () => {
      svc = await startService(database);
      const response = await svc.call('GET', '/healthz', { signature: null, token: null });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ status: 'ok', database: database.name });
    });

    it('serves OpenAPI 3 generated from the route schemas, and the docs page', async () => {
      svc = await startService(database);
      const spec = await svc.call('GET', '/openapi.json', { signature: null, token: null });
      expect(spec.body.openapi).toMatch(/^3\./);
      const paths = Object.keys(spec.body.paths);
      expect(paths).toEqual(expect.arrayContaining(['/sdk/v2/api/files', '/sdk/v2/api/license/apps/{appId}', '/sdk/v2/api/license/users/activate']));
      expect(spec.body.paths['/sdk/v2/api/files'].post.requestBody.content['application/json'].schema.required).toEqual(['type', 'fileId']);
      // Error answers: the backend envelope, the table API's own, its bare 401; /healthz with both answers.
      const errorOf = (path: string, method: string, status: string) => spec.body.paths[path][method].responses[status]?.content['application/json'].schema;
      expect(Object.keys(errorOf('/sdk/v2/api/files', 'post', '4XX').properties)).toEqual(['status', 'message', 'data', 'requestId']);
      expect(Object.keys(errorOf('/sdk/v2/api/files', 'post', '5XX').properties)).toEqual(['status', 'message', 'data', 'requestId']);
      expect(errorOf('/sdk/v2/api/files', 'post', '200')).toBeDefined();
      const tables = '/sdk/v2/api/table-api/openapi/v1/tables';
      expect(Object.keys(errorOf(tables, 'post', '4XX').properties)).toEqual(['code', 'message']);
      expect(errorOf(tables, 'post', '401').properties.error.enum).toEqual(['Unauthorized']);
      expect(errorOf('/uploader/upload', 'post', '4XX')).toBeDefined();
      expect(Object.keys(spec.body.paths['/healthz'].get.responses)).toEqual(['200', '503']);
      expect(spec.body.paths['/healthz'].get.security).toEqual([]);
      // the editor page answers its errors as an HTML page, not an envelope
      expect(Object.keys(spec.body.paths['/sdk/v2/collab-files/{fileId}'].get.responses)).not.toContain('4XX');
      const docs = await fetch(`${svc.url}/docs/`);
      expect(docs.status).toBe(200);
    });

    it('echoes a sane incoming request id and makes one otherwise', async () => {
      svc = await startService(database);
      const echoed = await svc.call('GET', '/healthz', { headers: { 'x-request-id': 'trace-123' }, signature: null, token: null });
      expect(echoed.headers.get('x-request-id')).toBe('trace-123');
      const replaced = await svc.call('GET', '/healthz', { headers: { 'x-request-id': 'bad id <script>' }, signature: null, token: null });
      expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('answers unknown routes in the envelope', async () => {
      svc = await startService(database);
      for (const path of ['/nope', '/sdk/v2/api/nope']) {
        const response = await svc.call('GET', path);
        expect(response.status).toBe(404);
        expect(response.body).toMatchObject({ status: 40400, data: null });
      }
    });

    it('refuses bodies over the limit with 413 / 41300 and writes nothing', async () => {
      svc = await startService(database, { bodyLimitBytes: 2048 });
      const response = await svc.call('POST', '/sdk/v2/api/files', {
        body: { type: 'document', fileId: 'big', contentKey: 'x'.repeat(4096) },
      });
      expect(response.status).toBe(413);
      expect(response.body.status).toBe(41300);
      expect(await svc.services.files.find(svc.app.id, 'big')).toBeUndefined();
    });

    it('limits each application to its requests per second with 429 and Retry-After', async () => {
      svc = await startService(database, { appQps: 5 });
      const signature = await svc.signLicense();
      const statuses: number[] = [];
      let limited: CallResult | undefined;
      for (let i = 0; i < 12; i++) {
        const response = await svc.call('GET', '/sdk/v2/api/license/users', { signature, token: null });
        statuses.push(response.status);
        if (response.status === 429) limited = response;
      }
      expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(10);
      expect(limited?.body.status).toBe(42900);
      expect(Number(limited?.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      // the table API draws on the same budget: still limited within the same second window
      const table = await svc.call('GET', '/sdk/v2/api/table-api/openapi/v1/tables', { signature, query: { baseGuid: 'b' } });
      expect(table.status).toBe(429);
      expect(table.body.code).toBe(42900);
      // another application has its own budget
      const other = await svc.createApp({ qpsLimit: 100 });
      const response = await svc.call('GET', '/sdk/v2/api/license/users', { signature: await svc.signLicense(other), token: null });
      expect(response.status).toBe(200);
    });
  });
}
