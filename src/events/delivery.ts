import crypto from 'node:crypto';
import { LoopPause } from '../loop-pause.js';
import { sql, type Selectable } from 'kysely';
import { request } from 'undici';
import type { AppDirectory } from '../apps/app.js';
import type { CallbackClient } from '../integrator/callback-client.js';
import { Deadline } from '../net/deadline.js';
import type { OutboundPolicy } from '../net/outbound-policy.js';
import type { Storage } from '../storage/database.js';
import type { EventOutboxTable } from '../storage/schema.js';
import { SYSTEM_EVENT_CLASSES } from './builders.js';
import { OutcomeRecorder } from './outcome-recorder.js';
import type { Outbox } from './outbox.js';
import type { EventClass } from './types.js';

export interface DeliverySettings {
  /** deadline of one POST /events */
  timeoutMs: number;
  /** files (streams) delivered at once, one event in flight each, so one slow file never holds up the others */
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

/** Pending events of one stream leased by one claim and posted one after the other. */
const STREAM_BATCH = 50;
/** A lease lasts this much longer than one attempt's deadline. */
const LEASE_SPARE_MS = 5000;
/** Time left on a lease after an attempt's deadline for its outcome to be recorded; less, and no attempt starts. */
const RECORD_SPARE_MS = 1000;

/** How often the worker removes delivered events past their retention. */
const PURGE_EVERY_MS = 10 * 60 * 1000;

export interface DeliveryLog {
  warn(object: Record<string, unknown>, message: string): void;
  error(object: Record<string, unknown>, message: string): void;
}

/** What a delivery needs of a claimed event. */
const CLAIMED_COLUMNS = ['id', 'app_id', 'stream_key', 'seq', 'file_id', 'event_class', 'payload', 'user_token', 'attempts', 'next_attempt_at', 'lease_until'] as const;
type OutboxRow = Pick<Selectable<EventOutboxTable>, (typeof CLAIMED_COLUMNS)[number]>;

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
 * Delivers the outbox to `POST {endpointUrl}/events`.
 *
 * A claim leases the first events of up to `concurrency` files' streams at once (the stream's oldest pending
 * event, its head, and the pending ones right after it, up to STREAM_BATCH): on PostgreSQL the heads are
 * selected `FOR UPDATE SKIP LOCKED`, so workers of several processes never claim the same stream together,
 * and while a stream's head is leased no other worker sees a claimable event in it. Each claimed stream is
 * posted one event after the other (a file's order), the streams in parallel. Outcomes are recorded in
 * batches (one statement for many deliveries), and an attempt is only started while the lease still covers
 * it, so an event is posted by one worker per attempt. A crashed worker's leases expire and its events are
 * claimed again: an event is delivered at least once and never lost.
 */
export class DeliveryWorker {
  // Keep-alive connections to the integrators: a delivery reuses an open socket instead of a new handshake.
  private readonly agent;
  private readonly owner = crypto.randomUUID();
  private readonly outcomes: OutcomeRecorder;
  /** the streams being delivered, one promise each */
  private readonly inFlight = new Set<Promise<void>>();
  private running = false;
  private stopping = false;
  private loop: Promise<void> | undefined;
  private readonly pause = new LoopPause();
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly storage: Storage,
    private readonly apps: AppDirectory,
    private readonly callbacks: CallbackClient,
    private readonly outbox: Outbox,
    private readonly settings: DeliverySettings,
  ) {
    this.agent = settings.outbound.dispatcher({ keepAliveTimeout: 30_000, keepAliveMaxTimeout: 600_000, connections: 128 });
    this.outcomes = new OutcomeRecorder(
      storage,
      this.owner,
      (error) => this.log.error({ err: error }, 'event delivery: recording outcomes failed'),
      () => this.wake(),
    );
  }

  /** Where delivery problems are reported; the server hands in its logger when it starts the worker. */
  log: DeliveryLog = { warn: () => {}, error: () => {} };

  /**
   * How long a claim holds. Attempts start only while the lease still covers one whole attempt and the
   * recording of its outcome (see `deliverStream`); after that, the events are presumed orphaned.
   */
  get leaseMs(): number {
    return this.settings.timeoutMs + LEASE_SPARE_MS;
  }

  start(log?: DeliveryLog): void {
    if (log) this.log = log;
    if (this.running) return;
    this.running = true;
    this.unsubscribe = this.outbox.onAdded(() => this.wake());
    this.loop = this.run();
  }

  /**
   * Stops claiming, lets the attempts under way finish (each bounded by its deadline), gives the rest of
   * the claimed events back, and waits until every outcome is recorded: another process takes over at once.
   */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.stopping = true;
    this.unsubscribe?.();
    this.wake();
    await this.loop;
    await Promise.allSettled([...this.inFlight]);
    await this.outcomes.idle();
    this.stopping = false;
  }

  async close(): Promise<void> {
    await this.stop();
    await this.agent.close();
  }

  /** Ends the current wait at once; a wake while the loop is busy ends the next wait before it starts. */
  wake(): void {
    this.pause.wake();
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

  /** Claims what is due now and delivers it, waiting for the outcomes. Returns how many were attempted. */
  async runOnce(): Promise<number> {
    const streams = await this.claim(this.settings.concurrency);
    const attempted = await Promise.all(streams.map((stream) => this.deliverStream(stream)));
    await this.outcomes.idle();
    return attempted.reduce((sum, count) => sum + count, 0);
  }

  private async run(): Promise<void> {
    // Claiming costs a query: with streams in flight, wait until a few slots are free, not just one.
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
          for (const stream of claimed) this.track(this.deliverStream(stream));
          claimedAll = claimed.length === free;
        } catch (error) {
          // a claim that lost a race with another worker's (a deadlock) simply runs again
          if (this.storage.isTransientConflict(error)) this.wake();
          else this.log.error({ err: error }, 'event delivery: claiming due events failed');
        }
      }
      if (!this.running) break;
      if (!claimedAll || this.settings.concurrency - this.inFlight.size < batch) await this.pause.sleep(this.settings.pollMs);
    }
  }

  private track(delivery: Promise<unknown>): void {
    const tracked = delivery
      .then(() => undefined)
      .catch((error: unknown) => this.log.error({ err: error }, 'event delivery failed'))
      .finally(() => {
        this.inFlight.delete(tracked);
        this.wake();
      });
    this.inFlight.add(tracked);
  }


  /**
   * Leases the heads of up to `streams` streams (each the oldest pending event of its stream, due and not
   * leased) and the pending events right after each head, up to STREAM_BATCH per stream. Returns the
   * streams, each in `seq` order.
   */
  private async claim(streams: number): Promise<OutboxRow[][]> {
    const db = this.storage.db;
    const now = Date.now();
    const heads = this.storage.skipLocked(
      db
        .selectFrom('event_outbox as e')
        .select(['e.app_id', 'e.stream_key', 'e.seq'])
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
        // index order (status, next_attempt_at, id): the scan stops after `streams` claimable rows; ids are
        // time-ordered, so ties go oldest first
        .orderBy('e.next_attempt_at')
        .orderBy('e.id')
        .limit(streams),
    );
    // One statement: the heads' row locks (PostgreSQL) last until the leases are written, and a stream whose
    // head is leased has no claimable event, so its followers are safe to lease with it.
    const rows = await db
      .with('heads', () => heads)
      .updateTable('event_outbox')
      .from('heads')
      .set({ lease_until: now + this.leaseMs, lease_owner: this.owner })
      .whereRef('event_outbox.app_id', '=', 'heads.app_id')
      .whereRef('event_outbox.stream_key', '=', 'heads.stream_key')
      .whereRef('event_outbox.seq', '>=', 'heads.seq')
      .where('event_outbox.seq', '<', sql<number>`heads.seq + ${STREAM_BATCH}`)
      .where('event_outbox.status', '=', 'pending')
      // named one by one: SQLite takes no `table.*` here, and PostgreSQL's `*` would add the heads' columns
      .returning(CLAIMED_COLUMNS.map((column) => `event_outbox.${column}` as const))
      .execute();
    return groupByStream(rows);
  }

  /**
   * Posts a claimed stream's events one after the other, each once its predecessor was accepted. Stops at
   * the first failure (the rest waits for its retry, order kept), at an event not due yet, when the lease
   * could run out during the next attempt, or when the worker stops; what is left is given back.
   */
  private async deliverStream(stream: readonly OutboxRow[]): Promise<number> {
    const leaseUntil = stream[0]?.lease_until ?? 0;
    let attempted = 0;
    for (const row of stream) {
      const now = Date.now();
      if (this.stopping || row.next_attempt_at > now || now + this.settings.timeoutMs + RECORD_SPARE_MS > leaseUntil) break;
      attempted++;
      if (!(await this.attempt(row))) break;
    }
    this.outcomes.release(stream.slice(attempted).map((row) => row.id));
    return attempted;
  }

  /** One attempt of one event, its outcome handed to the recorder. True when the integrator accepted it. */
  private async attempt(row: OutboxRow): Promise<boolean> {
    const startedAt = Date.now();
    const outcome = await this.post(row).catch((error: unknown) => ({
      ok: false as const,
      status: null,
      error: `delivery failed: ${error instanceof Error ? error.message : String(error)}`,
    }));
    const attempts = row.attempts + 1;
    if (outcome.ok) {
      this.outcomes.delivery({ id: row.id, attempts, attemptedAt: startedAt, deliveredAt: Date.now(), httpStatus: outcome.status });
      return true;
    }
    const exhausted = attempts >= this.settings.maxAttempts;
    if (exhausted) this.log.warn({ eventId: row.id, appId: row.app_id, attempts, error: outcome.error }, 'event delivery failed for good');
    this.outcomes.failure({
      id: row.id,
      status: exhausted ? 'failed' : 'pending',
      attempts,
      attemptedAt: startedAt,
      nextAttemptAt: exhausted ? startedAt : Date.now() + retryDelay(attempts, this.settings),
      httpStatus: outcome.status,
      error: outcome.error,
    });
    return false;
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
    const deadline = new Deadline(this.settings.timeoutMs);
    const { signal } = deadline;
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
    } finally {
      deadline.clear();
    }
  }
}

/** Claimed rows (in any order) as streams, each in `seq` order. */
function groupByStream(rows: readonly OutboxRow[]): OutboxRow[][] {
  const streams = new Map<string, OutboxRow[]>();
  for (const row of rows) {
    const id = `${row.app_id}\n${row.stream_key}`;
    const stream = streams.get(id);
    if (stream) stream.push(row);
    else streams.set(id, [row]);
  }
  return [...streams.values()].map((stream) => stream.sort((a, b) => a.seq - b.seq));
}
