import { v7 as uuidv7 } from 'uuid';
import type { Db } from '../storage/database.js';
import type { PendingEvent } from './types.js';

/**
 * The transactional outbox. `add` writes through the `db` it is given: pass the transaction that makes the
 * change, and the event commits or rolls back with it. A crash can then neither lose an event nor send one
 * for a change that never happened; the delivery worker takes it from there.
 */
export class Outbox {
  private readonly listeners = new Set<() => void>();

  /** Stores the events and returns their ids (the X-Svc-Event-Id each will be delivered with). */
  async add(db: Db, events: PendingEvent | PendingEvent[]): Promise<string[]> {
    const list = Array.isArray(events) ? events : [events];
    const ids: string[] = [];
    const now = Date.now();
    for (const event of list) {
      // UUIDv7 (RFC 9562): uuid keeps ids made in one millisecond by this process in creation order, so ids sort by
      // creation time, which the admin view uses for "newest first" and paging.
      const id = uuidv7();
      const { streamKey, seq } = event.fileId === null ? { streamKey: `event:${id}`, seq: 1 } : await nextInStream(db, event.appId, event.fileId);
      await db
        .insertInto('event_outbox')
        .values({
          id,
          app_id: event.appId,
          stream_key: streamKey,
          seq,
          file_id: event.fileId,
          event_class: event.eventClass,
          payload: JSON.stringify(event.payload),
          user_token: event.userToken ?? null,
          status: 'pending',
          next_attempt_at: now,
          lease_until: null,
          lease_owner: null,
          last_attempt_at: null,
          last_status: null,
          last_error: null,
          delivered_at: null,
          created_at: now,
        })
        .execute();
      ids.push(id);
    }
    // Wake the worker soon after: the caller's transaction has usually committed by then, and if not, the
    // worker's regular poll finds the event.
    if (ids.length > 0) setTimeout(() => this.listeners.forEach((listener) => listener()), 5).unref();
    return ids;
  }

  /** Called (briefly after) whenever events were added in this process. */
  onAdded(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** The next sequence number of a file's stream; the upsert's row lock orders concurrent writers. */
async function nextInStream(db: Db, appId: string, fileId: string): Promise<{ streamKey: string; seq: number }> {
  const streamKey = `file:${fileId}`;
  const row = await db
    .insertInto('event_streams')
    .values({ app_id: appId, stream_key: streamKey, last_seq: 1 })
    .onConflict((oc) => oc.columns(['app_id', 'stream_key']).doUpdateSet((eb) => ({ last_seq: eb('event_streams.last_seq', '+', 1) })))
    .returning('last_seq')
    .executeTakeFirstOrThrow();
  return { streamKey, seq: Number(row.last_seq) };
}
