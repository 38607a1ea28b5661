import crypto from 'node:crypto';
import { sql, type Selectable, type Updateable } from 'kysely';
import { request } from 'undici';
import type { AppService } from '../domain/apps/app-service.js';
import type { CallbackClient } from '../integrator/callback-client.js';
import type { OutboundPolicy } from '../net/outbound-policy.js';
import type { Storage } from '../storage/database.js';
import type { EventOutboxTable } from '../storage/schema.js';
import { SYSTEM_EVENT_CLASSES } from './builders.js';
import type { Outbox } from './outbox.js';
import type { EventClass } from './types.js';

export interface DeliverySettings {
  /** deadline of one POST /events */
  timeoutMs: number;
  /** events in flight at once; at most one per file, so one slow file never holds up the others */
  concurrency: number;
  retryBaseMs: number;
  maxDelayMs: number;
  maxAttempts: number;
  pollMs: number;
  /** delivered events are kept this long for the admin view, then removed; 0 keeps them */
  retentionMs: number;
  /** which addresses deliveries may connect to (the endpoint URL is checked again at connect time) */
  outbound: OutboundPolicy;
}

/** How often the worker removes delivered events past their retention. */
const PURGE_EVERY_MS = 10 * 60 * 1000;

export interface DeliveryLog {
  warn(object: Record<string, unknown>, message: string): void;
  error(object: Record<string, unknown>, message: string): void;
}

type OutboxRow = Selectable<EventOutboxTable>;

/** How much of a refusing answer is kept as the delivery's last error. */
const ERROR_BODY_CHARS = 300;

/** The first `chars` characters of an answer; the rest is not read (an integrator may send anything). */
async function readStart(body: AsyncIterable<Buffer> & { destroy(): void }, chars: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= chars * 4) {
      body.destroy();
      break;
    }
  }
  return Buffer.concat(chunks).toString('utf8').slice(0, chars);
}

/**
 * Delay before retry number `attempt` (1 = after the first failure): exponential from `retryBaseMs`, capped
 * at `maxDelayMs`, with "equal jitter" (a random point in the upper half) so failed deliveries of many
 * events do not come back in lockstep.
 */
export function retryDelay(attempt: number, settings: Pick<DeliverySettings, 'retryBaseMs' | 'maxDelayMs'>, random = Math.random()): number {
  const nominal = Math.min(settings.maxDelayMs, settings.retryBaseMs * 2 ** Math.min(attempt - 1, 40));
  return Math.round(nominal / 2 + (nominal / 2) * random);
}

/**
 * Delivers the outbox to `POST {endpointUrl}/events`. Claims due events with a lease (at most the head of each
 * file's stream, so a file's events go out in order, one at a time, while different files go in parallel),
 * posts them with a stable `X-Svc-Event-Id`, and records success (2xx within the deadline) or schedules a
 * retry with backoff; after `maxAttempts` the event is marked failed. A crashed worker's leases expire and
 * the events are claimed again, so an event is delivered at least once and never lost. Several processes
 * may run workers over one PostgreSQL database: the claim skips rows another worker is claiming.
 */
export class DeliveryWorker {
  private readonly agent;
  private readonly owner = crypto.randomUUID();
  private readonly inFlight = new Set<Promise<void>>();
  private running = false;
  private loop: Promise<void> | undefined;
  private wakeUp: (() => void) | undefined;
  private wokenWhileBusy = false;
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly storage: Storage,
    private readonly apps: AppService,
    private readonly callbacks: CallbackClient,
    private readonly outbox: Outbox,
    private readonly settings: DeliverySettings,
  ) {
    this.agent = settings.outbound.dispatcher({ keepAliveTimeout: 10_000, connections: 128 });
  }

  /** Where delivery problems are reported; the server hands in its logger when it starts the worker. */
  log: DeliveryLog = { warn: () => {}, error: () => {} };

  /** A lease outlives one delivery attempt comfortably; after that, the event is presumed orphaned. */
  get leaseMs(): number {
    return this.settings.timeoutMs + 2000;
  }

  start(log?: DeliveryLog): void {
    if (log) this.log = log;
    if (this.running) return;
    this.running = true;
    this.unsubscribe = this.outbox.onAdded(() => this.wake());
    this.loop = this.run();
  }

  /** Stops claiming, and waits for the deliveries in flight (each bounded by its deadline). */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.unsubscribe?.();
    this.wake();
    await this.loop;
    await Promise.allSettled([...this.inFlight]);
  }

  async close(): Promise<void> {
    await this.stop();
    await this.agent.close();
  }

  /** Ends the current wait at once; a wake while the loop is busy ends the next wait before it starts. */
  wake(): void {
    const wakeUp = this.wakeUp;
    this.wakeUp = undefined;
    if (wakeUp) wakeUp();
    else this.wokenWhileBusy = true;
  }

  /** Removes delivered events older than the retention; failed ones stay until redelivered. Returns how many. */
  async purge(now = Date.now()): Promise<number> {
    const result = await this.storage.db
      .deleteFrom('event_outbox')
      .where('status', '=', 'delivered')
      .where('delivered_at', '<', now - this.settings.retentionMs)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Claims what is due now and delivers it, waiting for the outcome. Returns how many were attempted. */
  async runOnce(): Promise<number> {
    const claimed = await this.claim(this.settings.concurrency);
    await Promise.all(claimed.map((row) => this.deliver(row)));
    return claimed.length;
  }

  private async run(): Promise<void> {
    // Claiming costs a query: with deliveries in flight, wait until a few slots are free, not just one.
    const batch = Math.max(1, Math.floor(this.settings.concurrency / 4));
    let lastPurge = 0;
    while (this.running) {
      if (this.settings.retentionMs > 0 && Date.now() - lastPurge > PURGE_EVERY_MS) {
        lastPurge = Date.now();
        await this.purge().catch((error: unknown) => this.log.error({ err: error }, 'event delivery: removing old events failed'));
      }
      const free = this.settings.concurrency - this.inFlight.size;
      let claimedAll = false;
      if (free >= batch || (free > 0 && this.inFlight.size === 0)) {
        try {
          const claimed = await this.claim(free);
          for (const row of claimed) this.track(this.deliver(row));
          claimedAll = claimed.length === free;
        } catch (error) {
          this.log.error({ err: error }, 'event delivery: claiming due events failed');
        }
      }
      if (!this.running) break;
      if (!claimedAll || this.settings.concurrency - this.inFlight.size < batch) await this.sleep(this.settings.pollMs);
    }
  }

  private track(delivery: Promise<void>): void {
    const tracked = delivery
      .catch((error: unknown) => this.log.error({ err: error }, 'event delivery: recording the outcome failed'))
      .finally(() => {
        this.inFlight.delete(tracked);
        this.wake();
      });
    this.inFlight.add(tracked);
  }

  private sleep(ms: number): Promise<void> {
    if (this.wokenWhileBusy) {
      this.wokenWhileBusy = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.wakeUp = undefined;
        resolve();
      }, ms);
      this.wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  /** Leases up to `limit` due events, each the oldest undelivered event of its stream. */
  private async claim(limit: number): Promise<OutboxRow[]> {
    const db = this.storage.db;
    const now = Date.now();
    const due = this.storage.skipLocked(
      db
        .selectFrom('event_outbox as e')
        .select('e.id')
        .where('e.status', '=', 'pending')
        .where('e.next_attempt_at', '<=', now)
        .where((eb) => eb.or([eb('e.lease_until', 'is', null), eb('e.lease_until', '<', now)]))
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('event_outbox as earlier')
                .select(sql.lit(1).as('one'))
                .whereRef('earlier.app_id', '=', 'e.app_id')
                .whereRef('earlier.stream_key', '=', 'e.stream_key')
                .whereRef('earlier.seq', '<', 'e.seq')
                .where('earlier.status', '=', 'pending'),
            ),
          ),
        )
        // index order (status, next_attempt_at, id): the scan stops after `limit` claimable rows; ids are
        // time-ordered, so ties go oldest first
        .orderBy('e.next_attempt_at')
        .orderBy('e.id')
        .limit(limit),
    );
    return db
      .updateTable('event_outbox')
      .set({ lease_until: now + this.leaseMs, lease_owner: this.owner })
      .where('id', 'in', due)
      .where('status', '=', 'pending')
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
      .returningAll()
      .execute();
  }

  private async deliver(row: OutboxRow): Promise<void> {
    const startedAt = Date.now();
    const outcome = await this.post(row).catch((error: unknown) => ({
      ok: false as const,
      status: null,
      error: `delivery failed: ${error instanceof Error ? error.message : String(error)}`,
    }));
    const attempts = row.attempts + 1;
    if (outcome.ok) {
      await this.finish(row, {
          status: 'delivered',
          attempts,
          delivered_at: Date.now(),
          last_attempt_at: startedAt,
          last_status: outcome.status,
          last_error: null,
          lease_until: null,
          lease_owner: null,
        });
      return;
    }
    const exhausted = attempts >= this.settings.maxAttempts;
    if (exhausted) this.log.warn({ eventId: row.id, appId: row.app_id, attempts, error: outcome.error }, 'event delivery failed for good');
    await this.finish(row, {
        status: exhausted ? 'failed' : 'pending',
        attempts,
        next_attempt_at: exhausted ? startedAt : Date.now() + retryDelay(attempts, this.settings),
        last_attempt_at: startedAt,
        last_status: outcome.status,
        last_error: outcome.error,
        lease_until: null,
        lease_owner: null,
      });
  }

  /** Records an attempt's outcome, but only while this worker still holds the lease it was made under. */
  private async finish(row: OutboxRow, changes: Updateable<EventOutboxTable>): Promise<void> {
    await this.storage.db
      .updateTable('event_outbox')
      .set(changes)
      .where('id', '=', row.id)
      .where('lease_owner', '=', this.owner)
      .where('status', '=', 'pending')
      .execute();
  }

  private async post(row: OutboxRow): Promise<{ ok: true; status: number } | { ok: false; status: number | null; error: string }> {
    const app = await this.apps.find(row.app_id);
    if (!app) return { ok: false, status: null, error: 'the application no longer exists' };
    if (!app.endpointUrl) return { ok: false, status: null, error: 'the application has no endpoint URL' };
    const payload = JSON.parse(row.payload) as Record<string, unknown>;
    const userId = typeof payload.userId === 'string' ? payload.userId : undefined;
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'x-svc-sdk-event': row.event_class,
      'x-svc-event-id': row.id,
      ...(this.callbacks.credentialHeaders(app, { kind: 'system', fileId: row.file_id ?? undefined, userId })),
    };
    if (row.user_token !== null) {
      headers['x-svc-token'] = row.user_token;
      if (!SYSTEM_EVENT_CLASSES.has(row.event_class as EventClass)) headers['x-svc-credential-type'] = '0';
    }
    const signal = AbortSignal.timeout(this.settings.timeoutMs);
    try {
      const response = await request(`${app.endpointUrl}/events`, {
        method: 'POST',
        headers,
        body: row.payload,
        dispatcher: this.agent,
        signal,
      });
      const text = await readStart(response.body, ERROR_BODY_CHARS);
      if (response.statusCode >= 200 && response.statusCode < 300) return { ok: true, status: response.statusCode };
      return { ok: false, status: response.statusCode, error: `HTTP ${response.statusCode}: ${text}` };
    } catch (error) {
      if (signal.aborted) return { ok: false, status: null, error: `no answer within ${this.settings.timeoutMs} ms` };
      const code = (error as { code?: unknown }).code;
      return { ok: false, status: null, error: `unreachable (${typeof code === 'string' ? code : error instanceof Error ? error.message : 'network error'})` };
    }
  }
}
