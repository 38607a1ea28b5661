import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases, type TestDatabase } from '../support/databases.js';
import { startService, type TestService } from '../support/service.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';

/**
 * Issue 27 point 3: losing PostgreSQL (connections cut, refused, silent) never ends the process. A TCP proxy
 * the test owns sits between the service and the database; it is cut under a load of writes and restored.
 * Requests meanwhile answer 503 / 127002, /healthz and /readyz say so, the service serves again by itself,
 * and no write it acknowledged is lost. PostgreSQL only (SQLite is a file in the process).
 */
const postgres = testDatabases().find((database) => database.name === 'postgres');
const DATABASE_TIMEOUT_MS = 800;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!postgres)('losing the database', () => {
  let proxy: TcpProxy;
  let svc: TestService;
  beforeAll(async () => {
    const real = new URL(process.env.TEST_DATABASE_URL || process.env.DATABASE_URL!);
    proxy = await startTcpProxy({ host: real.hostname, port: Number(real.port || 5432) });
    // the same fresh schema, reached through the proxy
    const proxied: TestDatabase = {
      name: 'postgres',
      async fresh() {
        const fresh = await postgres!.fresh();
        const url = new URL(fresh.options.databaseUrl!);
        url.hostname = '127.0.0.1';
        url.port = String(proxy.port);
        return { options: { ...fresh.options, databaseUrl: url.toString() }, dispose: fresh.dispose };
      },
    };
    svc = await startService(proxied, { integrator: true, appQps: 1_000_000, databaseTimeoutMs: DATABASE_TIMEOUT_MS });
  });
  afterAll(async () => {
    proxy.mode = 'forward';
    await svc?.close();
    await proxy?.close();
  });

  const health = async () => {
    const [healthz, readyz] = await Promise.all([fetch(`${svc.url}/healthz`), fetch(`${svc.url}/readyz`)]);
    return { healthz: healthz.status, readyz: readyz.status, body: (await healthz.json()) as { status: string } };
  };

  const untilHealthy = async () => {
    for (let tries = 0; tries < 100; tries++) {
      if ((await health()).healthz === 200) return;
      await sleep(100);
    }
    throw new Error('the service did not come back after the database did');
  };

  for (const fault of ['refuse', 'blackhole'] as const) {
    it(`answers 503 / 127002 while the database is ${fault === 'refuse' ? 'cut and refused' : 'silent'}, recovers by itself, loses no acknowledged write`, async () => {
      const acknowledged: string[] = [];
      const answers = new Map<string, number>();
      let running = true;
      let next = 0;
      const writer = async () => {
        while (running) {
          const fileId = `${fault}-${next++}`;
          const response = await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'document', fileId } });
          const key = `${response.status}/${response.body?.status}`;
          answers.set(key, (answers.get(key) ?? 0) + 1);
          if (response.status === 200) acknowledged.push(fileId);
          else await sleep(20);
        }
      };
      const writers = [writer(), writer(), writer(), writer()];
      await sleep(400);
      proxy.mode = fault;
      await sleep(DATABASE_TIMEOUT_MS * 2);
      const during = await health();
      expect(during).toEqual({ healthz: 503, readyz: 503, body: expect.objectContaining({ status: 'unavailable', database: 'postgres' }) });
      const refused = await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'document', fileId: `${fault}-probe` } });
      expect(refused.status).toBe(503);
      expect(refused.body).toMatchObject({ status: 127002 });
      expect(refused.headers.get('retry-after')).toBe('5');

      proxy.mode = 'forward';
      await untilHealthy();
      await sleep(300);
      running = false;
      await Promise.all(writers);

      // every answer was a success or the documented 503; the writes acknowledged before, during and after are all there
      expect([...answers.keys()].filter((key) => key !== '200/0' && key !== '503/127002')).toEqual([]);
      expect(answers.get('503/127002')).toBeGreaterThan(0);
      expect(acknowledged.length).toBeGreaterThan(5);
      const stored = new Set((await svc.services.storage.db.selectFrom('files').select('file_id').execute()).map((row) => row.file_id));
      expect(acknowledged.filter((fileId) => !stored.has(fileId))).toEqual([]);
      const after = await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'document', fileId: `${fault}-after` } });
      expect(after.status).toBe(200);
    }, 60_000);
  }
});
