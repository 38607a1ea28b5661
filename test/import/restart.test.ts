import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { LocalAppChanges } from '../../src/apps/app-changes.js';
import { AppService } from '../../src/domain/apps/app-service.js';
import { OutboundPolicy } from '../../src/net/outbound-policy.js';
import { openStorage, type Storage } from '../../src/storage/database.js';
import { testDatabases } from '../support/databases.js';
import { DEFAULT_USER, eventually, startTestIntegrator } from '../support/integrator.js';
import { killed, startServiceProcess } from '../support/processes.js';
import { sign } from '../support/signing.js';

/**
 * A lease far longer than the test: the second process must take the task up because the first is gone
 * (issue 27 point 6), not because the lease ran out (after a kill -9 it used to wait about 50 s).
 */
const LEASE_MS = 120_000;
const TASK_ENV = { SVC_TASK_LEASE_MS: String(LEASE_MS), SVC_TASK_POLL_MS: '100' };

for (const database of testDatabases()) {
  describe(`import across a crash [${database.name}]`, () => {
    const cleanup: Array<() => Promise<unknown>> = [];
    afterEach(async () => {
      for (const step of cleanup.splice(0).reverse()) await step();
    });

    it('an import running when its process is killed is taken up at once by the next process and completes once', { timeout: 180_000 }, async () => {
      const fresh = await database.fresh();
      cleanup.push(() => fresh.dispose());
      const storage: Storage = await openStorage(fresh.options);
      cleanup.push(() => storage.close());
      const apps = new AppService(storage, new OutboundPolicy({ allowPrivateNetworks: true }), new LocalAppChanges());
      const app = await apps.create({ name: 'crash test' });
      const integrator = await startTestIntegrator((appId) => (appId === app.id ? app.secret : undefined));
      cleanup.push(() => integrator.close());
      await apps.update(app.id, { endpointUrl: integrator.url });

      // The file's server hangs on the first download (the task is running when the process dies), serves the next.
      let downloads = 0;
      const hanging: http.ServerResponse[] = [];
      const files = http.createServer((_request, response) => {
        downloads++;
        if (downloads === 1) {
          response.writeHead(200, { 'content-length': '1000' });
          response.write('partial');
          hanging.push(response);
          return;
        }
        response.end('survived the crash');
      });
      await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
      cleanup.push(async () => {
        hanging.forEach((response) => response.destroy());
        files.close();
      });
      const fileUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}/doc.txt`;

      const first = await startServiceProcess(fresh.options, TASK_ENV);
      cleanup.push(async () => first.exitCode === null && first.signalCode === null && killed(first));
      const headers = { 'content-type': 'application/json', 'x-svc-signature': await sign(app.id, app.secret), 'x-svc-token': DEFAULT_USER.token };
      const accepted = (await (
        await fetch(`${first.url}/sdk/v2/api/files/v2/import`, { method: 'POST', headers, body: JSON.stringify({ fileId: 'crash-doc', type: 'document', fileUrl, fileName: 'doc.txt' }) })
      ).json()) as { status: number; data: { taskId: string } };
      expect(accepted.status).toBe(0);
      const taskId = accepted.data.taskId;
      const task = () => storage.db.selectFrom('tasks').selectAll().where('id', '=', taskId).executeTakeFirstOrThrow();
      await eventually(() => downloads === 1, 'the first process downloading the file', 60_000);
      expect((await task()).state).toBe('running');
      await killed(first);
      expect((await task()).state).toBe('running'); // nobody told the database: only the lease will

      expect((await task()).lease_until).toBeGreaterThan(Date.now() + LEASE_MS / 2);
      const second = await startServiceProcess(fresh.options, TASK_ENV);
      cleanup.push(async () => second.exitCode === null && second.signalCode === null && killed(second));
      const ready = Date.now();
      await eventually(async () => (await task()).state === 'succeeded', 'the import taken up and finished by the second process', 60_000);
      // taken up within a few polls of the start, long before the dead process's lease would have run out
      expect(Date.now() - ready).toBeLessThan(LEASE_MS / 4);
      const done = await task();
      expect(done).toMatchObject({ attempts: 2, progress: 100, error_code: null });
      expect(downloads).toBe(2);
      const progress = (await (await fetch(`${second.url}/sdk/v2/api/files/v2/import/progress`, { method: 'POST', headers, body: JSON.stringify({ taskId }) })).json()) as {
        data: unknown;
      };
      expect(progress.data).toEqual({ progress: 100, fileId: 'crash-doc' });
      const text = (await (await fetch(`${second.url}/sdk/v2/collab-files/crash-doc/plain-text`, { headers })).json()) as { data: { content: string } };
      expect(text.data.content).toBe('survived the crash');
      // one file, its upload gone with the finished task
      expect(await storage.db.selectFrom('files').select('file_id').where('app_id', '=', app.id).execute()).toEqual([{ file_id: 'crash-doc' }]);
      expect(await storage.db.selectFrom('task_blobs').select('task_id').execute()).toEqual([]);
    });
  });
}
