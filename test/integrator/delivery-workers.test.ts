import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { fileContentEvent } from '../../src/events/builders.js';
import type { Services } from '../../src/services.js';
import { startPeer } from '../content/support.js';
import { testDatabases } from '../support/databases.js';
import { DEFAULT_USER, eventually, FAST_DELIVERY } from '../support/integrator.js';
import { startService, type TestService } from '../support/service.js';

for (const database of testDatabases()) {
  describe(`event delivery at scale [${database.name}]`, () => {
    let svc: TestService;
    beforeEach(async () => {
      // A deadline no attempt reaches even on a loaded machine: an attempt that timed out after the integrator
      // got the event would be retried (at least once), and the test is about claims never overlapping.
      svc = await startService(database, { integrator: true, integratorLink: { ...loadConfig({}).integratorLink, ...FAST_DELIVERY, deliveryTimeoutMs: 30_000 } });
    });
    afterEach(async () => svc.close());

    /** Writes an event in its own transaction, as a feature writes it with its change. */
    const emit = (services: Services, fileId: string, version: number) =>
      services.storage.db
        .transaction()
        .execute((trx) => services.outbox.add(trx, fileContentEvent({ appId: svc.app.id, fileId, userId: DEFAULT_USER.id, version })));
    const outbox = () => svc.services.storage.db.selectFrom('event_outbox').select(['id', 'file_id', 'seq', 'status', 'attempts', 'lease_owner']).execute();

    /** Every event received exactly once, and each file's events in the order they were committed (seq). */
    const expectOnceInOrder = async (count: number) => {
      const rows = await outbox();
      expect(rows).toHaveLength(count);
      const receipts = svc.integrator.deliveries.map((delivery) => delivery.eventId);
      expect(receipts).toHaveLength(count);
      expect(new Set(receipts).size).toBe(count);
      const byId = new Map(rows.map((row) => [row.id, row]));
      const lastSeq = new Map<string, number>();
      for (const id of receipts) {
        const row = byId.get(id)!;
        expect(row.seq, `order of ${row.file_id}`).toBeGreaterThan(lastSeq.get(row.file_id!) ?? 0);
        lastSeq.set(row.file_id!, row.seq);
      }
      for (const row of rows) expect(row).toMatchObject({ status: 'delivered', attempts: 1, lease_owner: null });
    };

    // PostgreSQL: two service instances on one database, both running the worker and both writing, and one of
    // them shut down in the middle of the burst. SQLite, the embedded single-process engine: one instance.
    it(
      database.name === 'postgres'
        ? 'two processes deliver a burst once per event, in order per file, while one of them shuts down'
        : 'delivers a burst once per event, in order per file',
      async () => {
        const peer = database.name === 'postgres' ? await startPeer(svc) : undefined;
        const writers = peer ? [svc.services, peer.services] : [svc.services];
        let peerStopped: Promise<void> | undefined;
        try {
          svc.integrator.eventsAnswer = { status: 200, delayMs: 2 };
          const total = 600;
          let next = 0;
          await Promise.all(
            Array.from({ length: 6 }, async (_, writer) => {
              while (next < total) {
                const i = next++;
                await emit(writers[writer % writers.length]!, `file-${i % 12}`, i);
                if (peer && i === total / 3) {
                  // the process stops (SIGTERM) with deliveries under way; its writes stop with it
                  writers.pop();
                  peerStopped = peer.close();
                }
              }
            }),
          );
          await peerStopped;
          await eventually(() => svc.integrator.events.length === total, 'every event delivered', 60_000);
          await svc.services.delivery.stop();
          await expectOnceInOrder(total);
        } finally {
          if (peer && !peerStopped) await peer.close();
        }
      },
      90_000,
    );

    it('stopping finishes the deliveries under way and gives the other claimed events back', async () => {
      await svc.services.delivery.stop();
      svc.integrator.eventsAnswer = { status: 200, delayMs: 300 };
      for (let i = 0; i < 40; i++) await emit(svc.services, `file-${i % 4}`, i);
      svc.services.delivery.start();
      await eventually(() => svc.integrator.calls.some((call) => call.path === '/events'), 'deliveries under way');
      await svc.services.delivery.stop();

      // what the integrator got is recorded as delivered; nothing else is attempted or still leased
      const rows = await outbox();
      const received = new Set(svc.integrator.deliveries.map((delivery) => delivery.eventId));
      expect(received.size).toBeGreaterThan(0);
      for (const row of rows) {
        if (received.has(row.id)) expect(row).toMatchObject({ status: 'delivered', attempts: 1, lease_owner: null });
        else expect(row).toMatchObject({ status: 'pending', attempts: 0, lease_owner: null });
      }

      // another worker (here: this one again) takes over at once
      svc.integrator.eventsAnswer = { status: 200 };
      svc.services.delivery.start();
      await eventually(() => svc.integrator.events.length === 40, 'the rest delivered');
      await svc.services.delivery.stop();
      await expectOnceInOrder(40);
    });
  });
}
