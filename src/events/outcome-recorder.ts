import { sql } from 'kysely';
import type { Storage } from '../storage/database.js';

/** An attempt the integrator answered with 2xx. */
export interface Delivered {
  id: string;
  attempts: number;
  attemptedAt: number;
  deliveredAt: number;
  httpStatus: number;
}

/** An attempt that failed: retried at `nextAttemptAt`, or failed for good. */
export interface Refused {
  id: string;
  status: 'pending' | 'failed';
  attempts: number;
  attemptedAt: number;
  nextAttemptAt: number;
  httpStatus: number | null;
  error: string;
}

/** Tries of one outcome write that lost a race with another transaction. */
const WRITE_ATTEMPTS = 3;
/** Rows of the delivered-events statement; far below both engines' limits on bound parameters. */
const DELIVERED_PER_STATEMENT = 200;

/**
 * Writes the outcomes of delivery attempts in batches: whatever arrived while the previous batch was being
 * written goes out together, the delivered ones in one statement, so the rate of deliveries is not bounded
 * by one commit per event. Every write holds only while the worker that made the attempt still owns the
 * lease (`owner`): a worker whose lease ran out and was taken over records nothing.
 *
 * Until its batch is written an event stays pending and leased by this worker, so no other worker claims
 * it or its stream; a crash before the write means the event is delivered again (at least once).
 */
export class OutcomeRecorder {
  private delivered: Delivered[] = [];
  private refused: Refused[] = [];
  private released: string[] = [];
  private writing: Promise<void> | undefined;

  constructor(
    private readonly storage: Storage,
    private readonly owner: string,
    private readonly onError: (error: unknown) => void,
    /** after each batch: the streams it settled can be claimed again */
    private readonly onWritten: () => void,
  ) {}

  delivery(outcome: Delivered): void {
    this.delivered.push(outcome);
    this.schedule();
  }

  failure(outcome: Refused): void {
    this.refused.push(outcome);
    this.schedule();
  }

  /** Gives leased events back unattempted: claimable again at once. */
  release(ids: readonly string[]): void {
    if (ids.length === 0) return;
    this.released.push(...ids);
    this.schedule();
  }

  /** Resolves when every outcome handed in so far is written (or its write failed and was reported). */
  async idle(): Promise<void> {
    while (this.writing) await this.writing;
  }

  private schedule(): void {
    this.writing ??= this.drain().finally(() => {
      this.writing = undefined;
    });
  }

  private async drain(): Promise<void> {
    // outcomes of attempts that finish in the same turn of the event loop join the first batch
    await new Promise((resolve) => setImmediate(resolve));
    while (this.delivered.length + this.refused.length + this.released.length > 0) {
      const delivered = this.delivered;
      const refused = this.refused;
      const released = this.released;
      this.delivered = [];
      this.refused = [];
      this.released = [];
      try {
        for (let start = 0; start < delivered.length; start += DELIVERED_PER_STATEMENT) {
          const batch = delivered.slice(start, start + DELIVERED_PER_STATEMENT);
          await this.retried(() => this.writeDelivered(batch));
        }
        for (const outcome of refused) await this.retried(() => this.writeRefused(outcome));
        if (released.length > 0) await this.retried(() => this.writeReleased(released));
      } catch (error) {
        // the leases run out and the events are claimed again: delivered again rather than lost
        this.onError(error);
      }
      this.onWritten();
    }
  }

  /**
   * Runs a write again when it lost a race (a deadlock with a claim that took over an expired lease, say):
   * an outcome dropped would mean the event is delivered again.
   */
  private async retried(write: () => Promise<void>): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await write();
      } catch (error) {
        if (attempt >= WRITE_ATTEMPTS || !this.storage.isTransientConflict(error)) throw error;
      }
    }
  }

  private async writeDelivered(batch: readonly Delivered[]): Promise<void> {
    // One UPDATE joined to a list of values; the casts type the bound values the same way on both engines.
    const values = sql.join(
      batch.map(
        (o) =>
          sql`(cast(${o.id} as text), cast(${o.attempts} as integer), cast(${o.attemptedAt} as bigint), cast(${o.deliveredAt} as bigint), cast(${o.httpStatus} as integer))`,
      ),
    );
    await sql`
      with done (id, attempts, attempted_at, delivered_at, http_status) as (values ${values})
      update event_outbox
      set status = 'delivered', attempts = done.attempts, last_attempt_at = done.attempted_at, delivered_at = done.delivered_at,
          last_status = done.http_status, last_error = null, lease_until = null, lease_owner = null
      from done
      where event_outbox.id = done.id and event_outbox.lease_owner = ${this.owner} and event_outbox.status = 'pending'`.execute(this.storage.db);
  }

  private async writeRefused(outcome: Refused): Promise<void> {
    await this.storage.db
      .updateTable('event_outbox')
      .set({
        status: outcome.status,
        attempts: outcome.attempts,
        next_attempt_at: outcome.nextAttemptAt,
        last_attempt_at: outcome.attemptedAt,
        last_status: outcome.httpStatus,
        last_error: outcome.error,
        lease_until: null,
        lease_owner: null,
      })
      .where('id', '=', outcome.id)
      .where('lease_owner', '=', this.owner)
      .where('status', '=', 'pending')
      .execute();
  }

  private async writeReleased(ids: readonly string[]): Promise<void> {
    await this.storage.db
      .updateTable('event_outbox')
      .set({ lease_until: null, lease_owner: null })
      .where('id', 'in', ids)
      .where('lease_owner', '=', this.owner)
      .where('status', '=', 'pending')
      .execute();
  }
}
