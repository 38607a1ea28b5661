import fc from 'fast-check';
import { decodeJwt } from 'jose';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileContentEvent } from '../../src/events/builders.js';
import { DeliveryWorker, retryDelay } from '../../src/events/delivery.js';
import { v7 as uuidv7 } from 'uuid';
import { DEFAULT_USER, eventually } from '../support/integrator.js';
import { testDatabases } from '../support/databases.js';
import { startService, type TestService } from '../support/service.js';

describe('retry schedule', () => {
  it('grows exponentially to the cap, with jitter in the upper half', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 60 }), fc.double({ min: 0, max: 1, noNaN: true }), (attempt, random) => {
        const settings = { retryBaseMs: 10_000, maxDelayMs: 3_600_000 };
        const nominal = Math.min(settings.maxDelayMs, settings.retryBaseMs * 2 ** (attempt - 1));
        const delay = retryDelay(attempt, settings, random);
        return delay >= Math.floor(nominal / 2) && delay <= nominal;
      }),
    );
  });

  it('spreads the default 16 attempts over hours', () => {
    const settings = { retryBaseMs: 10_000, maxDelayMs: 3_600_000 };
    const total = (random: number) => Array.from({ length: 15 }, (_, i) => retryDelay(i + 1, settings, random)).reduce((a, b) => a + b, 0);
    expect(total(0) / 3_600_000).toBeGreaterThan(3.5);
    expect(total(1) / 3_600_000).toBeLessThan(7.5);
  });
});

describe('event ids', () => {
  it('are UUIDv7 that sort in creation order, even within one millisecond', () => {
    const ids = Array.from({ length: 5000 }, () => uuidv7());
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

for (const database of testDatabases()) {
  describe(`event delivery [${database.name}]`, () => {
    let svc: TestService;
    beforeEach(async () => {
      svc = await startService(database, { integrator: true });
    });
    afterEach(async () => svc.close());

    const emit = (fileId: string, version: number) =>
      svc.services.storage.db
        .transaction()
        .execute((trx) => svc.services.outbox.add(trx, fileContentEvent({ appId: svc.app.id, fileId, userId: DEFAULT_USER.id, version })));
    const versionsOf = (fileId: string) =>
      svc.integrator.events.filter((e) => e.body.fileId === fileId).map((e) => (e.body.fileContent as { version: number }).version);
    const admin = async (method: string, path: string, query?: Record<string, string | number>) =>
      svc.call(method, `/sdk/v2/api/admin/events${path}`, { signature: await svc.signLicense(), token: null, ...(query ? { query } : {}) });

    it('delivers the events of a file in order, through failures and retries', async () => {
      let served = 0;
      // every third delivery attempt fails: retries must not reorder a file's events
      svc.integrator.intercept = (call) => (call.path === '/events' && ++served % 3 === 0 ? { status: 500, body: 'flaky' } : undefined);
      for (let version = 1; version <= 15; version++) {
        await emit('a', version);
        await emit('b', version);
      }
      await eventually(() => svc.integrator.events.length === 30, 'all 30 events', 30_000);
      expect(versionsOf('a')).toEqual(Array.from({ length: 15 }, (_, i) => i + 1));
      expect(versionsOf('b')).toEqual(Array.from({ length: 15 }, (_, i) => i + 1));
    });

    it('does not let a slow file hold up the others', async () => {
      svc.integrator.intercept = (call) =>
        call.path === '/events' && decodeJwt(String(call.headers['x-svc-signature'])).fileId === 'slow' ? { status: 200, body: '{}', delayMs: 1500 } : undefined;
      const started = Date.now();
      await emit('slow', 1);
      for (let version = 1; version <= 5; version++) await emit('fast', version);
      await eventually(() => versionsOf('fast').length === 5, 'the fast file');
      expect(Date.now() - started).toBeLessThan(1400);
      expect(versionsOf('fast')).toEqual([1, 2, 3, 4, 5]);
    });

    it('retries with the same X-Svc-Event-Id, marks failed after the schedule, and redelivers on request', async () => {
      const failing = await startService(database, {
        integrator: true,
        integratorLink: { ...svc.services.config.integratorLink, deliveryMaxAttempts: 3, deliveryRetryBaseMs: 30 },
      });
      try {
        failing.integrator.eventsAnswer = { status: 503 };
        const [eventId] = await failing.services.outbox.add(
          failing.services.storage.db,
          fileContentEvent({ appId: failing.app.id, fileId: 'f', userId: DEFAULT_USER.id, version: 1 }),
        );
        const list = async (query: Record<string, string | number> = {}) =>
          (await failing.call('GET', '/sdk/v2/api/admin/events', { signature: await failing.signLicense(), token: null, query })).body;
        await eventually(async () => (await list({ status: 'failed' })).data.length === 1, 'the event to fail');
        const [failed] = (await list({ status: 'failed' })).data;
        expect(failed).toMatchObject({ eventId, eventClass: 'FileContent', fileId: 'f', status: 'failed', attempts: 3, lastStatus: 503, nextAttemptAt: null });
        expect(failed.lastError).toContain('HTTP 503');
        const attempts = failing.integrator.calls.filter((c) => c.path === '/events');
        expect(attempts.map((c) => c.headers['x-svc-event-id'])).toEqual([eventId, eventId, eventId]);

        failing.integrator.eventsAnswer = { status: 200 };
        const redeliver = await failing.call('POST', '/sdk/v2/api/admin/events/redeliver-failed', { signature: await failing.signLicense(), token: null });
        expect(redeliver.body).toEqual({ status: 0, message: 'success', data: { count: 1 } });
        await eventually(() => failing.integrator.events.length === 1, 'the redelivered event');
        expect(failing.integrator.events[0]?.eventId).toBe(eventId);
        await eventually(async () => (await list()).data[0]?.status === 'delivered', 'delivered status');
        const [delivered] = (await list()).data;
        expect(delivered).toMatchObject({ status: 'delivered', attempts: 1, lastStatus: 200, lastError: null });

        // one event can be sent again on request (the integrator deduplicates by its id)
        const again = await failing.call('POST', `/sdk/v2/api/admin/events/${eventId}/redeliver`, { signature: await failing.signLicense(), token: null });
        expect(again.body.data).toMatchObject({ eventId, status: 'pending' });
        await eventually(() => failing.integrator.deliveries.length === 2, 'the second delivery');
        expect(failing.integrator.events).toHaveLength(1);
      } finally {
        await failing.close();
      }
    });

    it('keeps only the start of a refusing answer as the last error', async () => {
      let refused = false;
      svc.integrator.intercept = (call) => {
        if (call.path !== '/events' || refused) return undefined;
        refused = true;
        return { status: 500, body: 'y'.repeat(2 * 1024 * 1024) };
      };
      await emit('big', 1);
      await eventually(() => svc.integrator.events.length === 1, 'the retried event');
      // outcomes are recorded in batches, a moment after the integrator answered
      await eventually(async () => (await admin('GET', '')).body.data[0]?.status === 'delivered', 'the delivery recorded');
      const [delivery] = (await admin('GET', '')).body.data;
      expect(delivery).toMatchObject({ status: 'delivered', attempts: 2 });
      const row = await svc.services.storage.db.selectFrom('event_outbox').select('last_error').executeTakeFirstOrThrow();
      expect(row.last_error).toBeNull();
    });

    it('lists deliveries newest first with filters and paging, for the licence scope only', async () => {
      for (let version = 1; version <= 5; version++) await emit(version % 2 ? 'odd' : 'even', version);
      await eventually(() => svc.integrator.events.length === 5, 'deliveries');
      const page1 = await admin('GET', '', { limit: 2 });
      expect(page1.status).toBe(200);
      expect(page1.body.data.map((d: { payload: { fileContent: { version: number } } }) => d.payload.fileContent.version)).toEqual([5, 4]);
      const page2 = await admin('GET', '', { limit: 2, before: page1.body.data[1].eventId });
      expect(page2.body.data.map((d: { payload: { fileContent: { version: number } } }) => d.payload.fileContent.version)).toEqual([3, 2]);
      expect((await admin('GET', '', { fileId: 'even' })).body.data).toHaveLength(2);
      expect((await admin('GET', '', { status: 'failed' })).body.data).toHaveLength(0);
      expect((await admin('GET', '', { status: 'lost' })).status).toBe(400);
      expect((await admin('GET', '/no-such-event')).body.status).toBe(40410);
      expect((await admin('POST', '/no-such-event/redeliver')).status).toBe(404);
      const plain = await svc.call('GET', '/sdk/v2/api/admin/events', { token: null });
      expect(plain.status).toBe(403);
      expect(plain.body.status).toBe(30005);
      const other = await svc.createApp();
      const foreign = await svc.call('GET', `/sdk/v2/api/admin/events/${page1.body.data[0].eventId}`, { signature: await svc.signLicense(other), token: null });
      expect(foreign.status).toBe(404);
    });

    it('can run without its worker, driven by runOnce', async () => {
      const manual = await startService(database, { integrator: true, integratorLink: { ...svc.services.config.integratorLink, deliveryWorker: false } });
      try {
        await manual.services.outbox.add(manual.services.storage.db, fileContentEvent({ appId: manual.app.id, fileId: 'm', userId: DEFAULT_USER.id, version: 1 }));
        await new Promise((resolve) => setTimeout(resolve, 150));
        expect(manual.integrator.deliveries).toHaveLength(0);
        expect(await manual.services.delivery.runOnce()).toBe(1);
        expect(manual.integrator.events.map((e) => e.body.fileId)).toEqual(['m']);
        expect(await manual.services.delivery.runOnce()).toBe(0);
      } finally {
        await manual.close();
      }
    });

    it('removes delivered events after the retention, keeps failed ones', async () => {
      await emit('kept', 1);
      await eventually(() => svc.integrator.events.length === 1, 'the event');
      await eventually(
        async () => (await svc.services.storage.db.selectFrom('event_outbox').select('status').executeTakeFirst())?.status === 'delivered',
        'delivered status',
      );
      await svc.services.storage.db.insertInto('event_outbox').values({
        id: 'failed-one', app_id: svc.app.id, stream_key: 'event:failed-one', seq: 1, file_id: null, event_class: 'System', payload: '{}',
        user_token: null, status: 'failed', next_attempt_at: 0, lease_until: null, lease_owner: null, last_attempt_at: 0,
        last_status: 500, last_error: 'HTTP 500', delivered_at: null, created_at: 0,
      }).execute();
      const retention = svc.services.config.integratorLink.deliveryRetentionMs;
      expect(await svc.services.delivery.purge(Date.now())).toBe(0);
      expect(await svc.services.delivery.purge(Date.now() + retention + 1000)).toBe(1);
      const left = await svc.services.storage.db.selectFrom('event_outbox').select('id').execute();
      expect(left.map((r) => r.id)).toEqual(['failed-one']);
    });

    it('never lets two workers claim the same event', async () => {
      const second = new DeliveryWorker(svc.services.storage, svc.services.apps, svc.services.callbacks, svc.services.outbox, {
        timeoutMs: 2000,
        concurrency: 8,
        retryBaseMs: 50,
        maxDelayMs: 400,
        maxAttempts: 16,
        pollMs: 10,
        retentionMs: 0,
        outbound: svc.services.outbound,
      });
      second.start();
      try {
        for (let i = 0; i < 40; i++) {
          await svc.services.storage.db.transaction().execute(async (trx) => {
            await svc.services.outbox.add(trx, fileContentEvent({ appId: svc.app.id, fileId: `f${i % 8}`, userId: DEFAULT_USER.id, version: i }));
          });
        }
        await eventually(() => svc.integrator.events.length === 40, 'all events');
        // outcomes are recorded in batches, a moment after the integrator answered
        await eventually(
          async () => (await svc.services.storage.db.selectFrom('event_outbox').select('status').where('status', '!=', 'delivered').execute()).length === 0,
          'every delivery recorded',
        );
        // Each receipt is one recorded attempt: had two workers claimed one event together, the integrator
        // would have received it more often than attempts were recorded. (On a loaded machine an attempt may
        // time out after the integrator got it and be retried: that is at-least-once, and counted.)
        const rows = await svc.services.storage.db.selectFrom('event_outbox').select(['id', 'attempts', 'status']).execute();
        for (const row of rows) {
          expect(row.status).toBe('delivered');
          expect(svc.integrator.deliveries.filter((d) => d.eventId === row.id).length).toBeLessThanOrEqual(row.attempts);
        }
      } finally {
        await second.close();
      }
    });
  });
}
