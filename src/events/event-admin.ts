import type { Selectable } from 'kysely';
import { ApiError, Errors } from '../errors.js';
import type { Storage } from '../storage/database.js';
import type { EventDeliveryStatus, EventOutboxTable } from '../storage/schema.js';
import type { DeliveryWorker } from './delivery.js';

/** One event's delivery, as the admin view shows it. Times are ISO 8601 UTC. */
export interface Delivery {
  eventId: string;
  eventClass: string;
  fileId: string | null;
  status: EventDeliveryStatus;
  attempts: number;
  createdAt: string;
  lastAttemptAt: string | null;
  /** HTTP status of the last attempt; null when no answer came (unreachable, timeout) */
  lastStatus: number | null;
  lastError: string | null;
  /** when the next attempt is due (pending events only) */
  nextAttemptAt: string | null;
  deliveredAt: string | null;
  payload: unknown;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function toDelivery(row: Selectable<EventOutboxTable>): Delivery {
  return {
    eventId: row.id,
    eventClass: row.event_class,
    fileId: row.file_id,
    status: row.status,
    attempts: row.attempts,
    createdAt: new Date(row.created_at).toISOString(),
    lastAttemptAt: iso(row.last_attempt_at),
    lastStatus: row.last_status,
    lastError: row.last_error,
    nextAttemptAt: row.status === 'pending' ? iso(row.next_attempt_at) : null,
    deliveredAt: iso(row.delivered_at),
    payload: JSON.parse(row.payload) as unknown,
  };
}

export interface DeliveryFilter {
  status?: EventDeliveryStatus | undefined;
  fileId?: string | undefined;
  limit: number;
  /** only events created before this one (paging back through history) */
  before?: string | undefined;
}

/** The app's own view of its event deliveries (licence scope): what went out, what failed, send again. */
export class EventAdmin {
  constructor(
    private readonly storage: Storage,
    private readonly delivery: DeliveryWorker,
  ) {}

  /** Most recent first. */
  async list(appId: string, filter: DeliveryFilter): Promise<Delivery[]> {
    let query = this.storage.db.selectFrom('event_outbox').selectAll().where('app_id', '=', appId);
    if (filter.status) query = query.where('status', '=', filter.status);
    if (filter.fileId !== undefined) query = query.where('file_id', '=', filter.fileId);
    if (filter.before !== undefined) {
      const anchor = await this.find(appId, filter.before);
      query = query.where('id', '<', anchor.id);
    }
    // Event ids are UUIDv7: their order is creation order.
    const rows = await query.orderBy('id', 'desc').limit(filter.limit).execute();
    return rows.map(toDelivery);
  }

  async get(appId: string, eventId: string): Promise<Delivery> {
    return toDelivery(await this.find(appId, eventId));
  }

  /**
   * Sends one event again, whatever its state: a failed one gets a fresh schedule, a delivered one is sent
   * once more (same X-Svc-Event-Id, so the integrator's dedupe absorbs it), a pending one is made due now.
   */
  async redeliver(appId: string, eventId: string): Promise<Delivery> {
    await this.find(appId, eventId);
    await this.storage.db
      .updateTable('event_outbox')
      .set({ status: 'pending', attempts: 0, next_attempt_at: Date.now(), delivered_at: null })
      .where('app_id', '=', appId)
      .where('id', '=', eventId)
      .execute();
    this.delivery.wake();
    return this.get(appId, eventId);
  }

  /** Puts every failed event of the app back on a fresh schedule; returns how many. */
  async redeliverFailed(appId: string): Promise<number> {
    const result = await this.storage.db
      .updateTable('event_outbox')
      .set({ status: 'pending', attempts: 0, next_attempt_at: Date.now() })
      .where('app_id', '=', appId)
      .where('status', '=', 'failed')
      .executeTakeFirst();
    this.delivery.wake();
    return Number(result.numUpdatedRows);
  }

  private async find(appId: string, eventId: string): Promise<Selectable<EventOutboxTable>> {
    const row = await this.storage.db
      .selectFrom('event_outbox')
      .selectAll()
      .where('app_id', '=', appId)
      .where('id', '=', eventId)
      .executeTakeFirst();
    if (!row) throw new ApiError(Errors.eventNotFound, `event ${eventId} not found`);
    return row;
  }
}
