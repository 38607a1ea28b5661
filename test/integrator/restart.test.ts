import { afterEach, describe, expect, it } from 'vitest';
import { LocalAppChanges } from '../../src/apps/app-changes.js';
import { AppService } from '../../src/domain/apps/app-service.js';
import { fileContentEvent } from '../../src/events/builders.js';
import { Outbox } from '../../src/events/outbox.js';
import { OutboundPolicy } from '../../src/net/outbound-policy.js';
import { openStorage, type Storage } from '../../src/storage/database.js';
import { testDatabases } from '../support/databases.js';
import { DEFAULT_USER, eventually, startTestIntegrator } from '../support/integrator.js';
import { killed, startServiceProcess } from '../support/processes.js';



for (const database of testDatabases()) {
  describe(`event delivery across a crash [${database.name}]`, () => {
    const cleanup: Array<() => Promise<unknown>> = [];
    afterEach(async () => {
      for (const step of cleanup.splice(0).reverse()) await step();
    });

    it('delivers every event after the process is killed mid-delivery: none lost', { timeout: 120_000 }, async () => {
      const fresh = await database.fresh();
      cleanup.push(() => fresh.dispose());
      const storage: Storage = await openStorage(fresh.options);
      cleanup.push(() => storage.close());
      const app = await new AppService(storage, new OutboundPolicy({ allowPrivateNetworks: true }), new LocalAppChanges()).create({ name: 'crash test' });
      const integrator = await startTestIntegrator((appId) => (appId === app.id ? app.secret : undefined));
      cleanup.push(() => integrator.close());
      await new AppService(storage, new OutboundPolicy({ allowPrivateNetworks: true }), new LocalAppChanges()).update(app.id, { endpointUrl: integrator.url });
      // Slow answers keep deliveries in flight when the process dies.
      integrator.eventsAnswer = { status: 200, delayMs: 150 };

      const first = await startServiceProcess(fresh.options);
      cleanup.push(async () => first.exitCode === null && first.signalCode === null && killed(first));
      const outbox = new Outbox();
      const total = 24;
      for (let i = 0; i < total; i++) {
        await storage.db.transaction().execute((trx) =>
          outbox.add(trx, fileContentEvent({ appId: app.id, fileId: `file-${i % 4}`, userId: DEFAULT_USER.id, version: Math.floor(i / 4) + 1 })),
        );
      }
      await eventually(() => integrator.deliveries.length >= 3, 'a few deliveries before the crash');
      await killed(first);
      const beforeRestart = integrator.events.length;
      expect(beforeRestart).toBeLessThan(total);

      const second = await startServiceProcess(fresh.options);
      cleanup.push(async () => second.exitCode === null && second.signalCode === null && killed(second));
      await eventually(() => integrator.events.length === total, `all ${total} events after the restart`, 90_000);
      // per file, the versions arrived in order (at least once each)
      for (let f = 0; f < 4; f++) {
        const versions = integrator.events.filter((e) => e.body.fileId === `file-${f}`).map((e) => (e.body.fileContent as { version: number }).version);
        expect(versions).toEqual([1, 2, 3, 4, 5, 6]);
      }
      await eventually(
        async () => (await storage.db.selectFrom('event_outbox').select('id').where('status', '=', 'delivered').execute()).length === total,
        'every outbox row marked delivered',
      );
    });
  });
}
