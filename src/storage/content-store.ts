import * as Y from 'yjs';
import type { Db, Storage } from './database.js';
import type { ContentHistoryTable } from './schema.js';

/** The file's content row is gone: the file was deleted (its content went with it). */
export class ContentMissing extends Error {}

/** One entry of a file's update log. */
export interface StoredUpdate {
  seq: number;
  update: Uint8Array;
}

/** Everything needed to rebuild a file's content: the compacted snapshot and the updates after it. */
export interface StoredContent {
  snapshot: Uint8Array;
  updates: StoredUpdate[];
  /** seq the snapshot covers */
  snapshotSeq: number;
  /** highest seq the two cover */
  seq: number;
}

/** An update appended: its seq, and how many entries the log holds after the snapshot, this one included. */
export interface Appended {
  seq: number;
  logged: number;
}

function toBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Where a file's recording stands: its update log's counter, how far recording has taken it in, its last write. */
export interface RecordingHead {
  updateSeq: number;
  recordedSeq: number;
  updatedAt: number;
}

/** One history entry as the recorder writes it (content_history). */
export type HistoryEntry = Omit<ContentHistoryTable, 'snapshot'> & { snapshot: Uint8Array };

/** The snapshot of a history entry whose content is no longer kept: no encoded Yjs state is empty. */
const PRUNED_SNAPSHOT = Buffer.alloc(0);

/** Rebuilds a Y.Doc from stored content; an entry that does not decode is skipped, never fatal. */
export function applyStored(doc: Y.Doc, content: StoredContent, origin: unknown, onBadEntry: (seq: number, error: unknown) => void): void {
  Y.applyUpdate(doc, content.snapshot, origin);
  for (const entry of content.updates) {
    try {
      Y.applyUpdate(doc, entry.update, origin);
    } catch (error) {
      onBadEntry(entry.seq, error);
    }
  }
}

/**
 * applyStored with `doc`'s `update` listeners set aside meanwhile (put back after, even if it throws). Yjs encodes a
 * transaction's changes again as an update for those listeners, whatever they do with it: a live document loading
 * its stored content (a million-cell sheet: 16 MB) would have it all encoded once more for Hocuspocus' broadcast,
 * which has nobody to send it to while the document loads (its change callbacks are registered after the load).
 */
export function applyStoredWithoutUpdateEvents(doc: Y.Doc, content: StoredContent, origin: unknown, onBadEntry: (seq: number, error: unknown) => void): void {
  const listeners = doc._observers.get('update');
  doc._observers.delete('update');
  try {
    applyStored(doc, content, origin, onBadEntry);
  } finally {
    if (listeners) {
      // a listener added meanwhile stays beside those put back
      const added = doc._observers.get('update');
      doc._observers.set('update', added ? new Set([...listeners, ...added]) : listeners);
    }
  }
}

/**
 * Durable content of collaborative files (docs/CONTENT-MODEL.md "Storage"): per file, a compacted snapshot
 * plus an append-only log of Yjs updates numbered by a per-file counter. Yjs updates commute, so any
 * process may append at any time and compaction only ever merges what is stored: nothing written by any
 * process is lost. Every write transaction starts with a write, so SQLite takes its lock up front and a
 * second process waits (busy_timeout) instead of failing.
 */
export class ContentStore {
  constructor(private readonly storage: Storage) {}

  private get db(): Db {
    return this.storage.db;
  }

  /** Creates the file's content row with `initial` unless it exists; true when this call created it. */
  async initialize(db: Db, appId: string, fileId: string, initial: Uint8Array): Promise<boolean> {
    const result = await db
      .insertInto('content_docs')
      .values({ app_id: appId, file_id: fileId, snapshot: toBuffer(initial), snapshot_seq: 0, update_seq: 0, updated_at: Date.now() })
      .onConflict((conflict) => conflict.columns(['app_id', 'file_id']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
  }

  async head(appId: string, fileId: string): Promise<{ snapshotSeq: number; updateSeq: number } | undefined> {
    const row = await this.db
      .selectFrom('content_docs')
      .select(['snapshot_seq', 'update_seq'])
      .where('app_id', '=', appId)
      .where('file_id', '=', fileId)
      .executeTakeFirst();
    return row ? { snapshotSeq: row.snapshot_seq, updateSeq: row.update_seq } : undefined;
  }

  async updatesAfter(appId: string, fileId: string, seq: number): Promise<StoredUpdate[]> {
    const rows = await this.db
      .selectFrom('content_updates')
      .select(['seq', 'update'])
      .where('app_id', '=', appId)
      .where('file_id', '=', fileId)
      .where('seq', '>', seq)
      .orderBy('seq')
      .execute();
    return rows.map((row) => ({ seq: row.seq, update: row.update }));
  }

  /**
   * Snapshot and log read consistently: if a compaction moved the snapshot between the two reads (and
   * deleted log entries this read expected), read again.
   */
  async load(appId: string, fileId: string): Promise<StoredContent | undefined> {
    for (;;) {
      const row = await this.db
        .selectFrom('content_docs')
        .select(['snapshot', 'snapshot_seq'])
        .where('app_id', '=', appId)
        .where('file_id', '=', fileId)
        .executeTakeFirst();
      if (!row) return undefined;
      const updates = await this.updatesAfter(appId, fileId, row.snapshot_seq);
      const after = await this.head(appId, fileId);
      if (after && after.snapshotSeq !== row.snapshot_seq) continue;
      const last = updates.at(-1)?.seq ?? row.snapshot_seq;
      return { snapshot: row.snapshot, updates, snapshotSeq: row.snapshot_seq, seq: last };
    }
  }

  /** Appends one update to the file's log and returns its seq and the log's length. The file's content row must exist. */
  async append(appId: string, fileId: string, update: Uint8Array, userId: string | null): Promise<Appended> {
    return this.db.transaction().execute(async (trx) => {
      const counter = await trx
        .updateTable('content_docs')
        .set((eb) => ({ update_seq: eb('update_seq', '+', 1), updated_at: Date.now() }))
        .where('app_id', '=', appId)
        .where('file_id', '=', fileId)
        .returning(['update_seq', 'snapshot_seq'])
        .executeTakeFirst();
      if (!counter) throw new ContentMissing(`content of ${appId}/${fileId} does not exist (file deleted?)`);
      await trx
        .insertInto('content_updates')
        .values({ app_id: appId, file_id: fileId, seq: counter.update_seq, update: toBuffer(update), user_id: userId, created_at: Date.now() })
        .execute();
      const seq = Number(counter.update_seq);
      return { seq, logged: seq - Number(counter.snapshot_seq) };
    });
  }

  /**
   * Merges the log into the snapshot when it holds at least `minUpdates` entries. Reads first, then writes
   * only if no other process compacted meanwhile (the snapshot_seq guard); entries appended after the read
   * stay in the log. Returns whether it compacted.
   */
  async compact(appId: string, fileId: string, minUpdates: number, onBadEntry: (seq: number, error: unknown) => void): Promise<boolean> {
    const content = await this.load(appId, fileId);
    if (!content || content.updates.length < Math.max(1, minUpdates)) return false;
    const doc = new Y.Doc();
    applyStored(doc, content, null, onBadEntry);
    const merged = Y.encodeStateAsUpdate(doc);
    doc.destroy();
    return this.db.transaction().execute(async (trx) => {
      const moved = await trx
        .updateTable('content_docs')
        .set({ snapshot: toBuffer(merged), snapshot_seq: content.seq, updated_at: Date.now() })
        .where('app_id', '=', appId)
        .where('file_id', '=', fileId)
        .where('snapshot_seq', '=', content.snapshotSeq)
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) === 0) return false;
      await trx.deleteFrom('content_updates').where('app_id', '=', appId).where('file_id', '=', fileId).where('seq', '<=', content.seq).execute();
      return true;
    });
  }

  // -------------------------------------------------------------------------------------------------
  // Recording (the content engine's coalesced versions, history entries and recovery)

  async recordingHead(appId: string, fileId: string): Promise<RecordingHead | undefined> {
    const row = await this.db
      .selectFrom('content_docs')
      .select(['update_seq', 'recorded_seq', 'updated_at'])
      .where('app_id', '=', appId)
      .where('file_id', '=', fileId)
      .executeTakeFirst();
    return row ? { updateSeq: Number(row.update_seq), recordedSeq: Number(row.recorded_seq), updatedAt: Number(row.updated_at) } : undefined;
  }

  /** Who wrote the newest update after `seq`, and when (undefined when compaction took them into the snapshot). */
  async lastUpdateAfter(appId: string, fileId: string, seq: number): Promise<{ userId: string | null; createdAt: number } | undefined> {
    const row = await this.db
      .selectFrom('content_updates')
      .select(['user_id', 'created_at'])
      .where('app_id', '=', appId)
      .where('file_id', '=', fileId)
      .where('seq', '>', seq)
      .orderBy('seq', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row ? { userId: row.user_id, createdAt: Number(row.created_at) } : undefined;
  }

  /** Every file whose log holds updates not yet recorded. */
  async unrecordedFiles(): Promise<Array<{ appId: string; fileId: string }>> {
    const rows = await this.db.selectFrom('content_docs').select(['app_id', 'file_id']).whereRef('update_seq', '>', 'recorded_seq').execute();
    return rows.map((row) => ({ appId: row.app_id, fileId: row.file_id }));
  }

  /**
   * Moves the file's `recorded_seq` forward to `seq`, never back; false when it already stood there or beyond
   * (another process recorded those updates), so an edit is recorded once.
   */
  async advanceRecorded(db: Db, appId: string, fileId: string, seq: number): Promise<boolean> {
    const advanced = await db
      .updateTable('content_docs')
      .set({ recorded_seq: seq })
      .where('app_id', '=', appId)
      .where('file_id', '=', fileId)
      .where('recorded_seq', '<', seq)
      .executeTakeFirst();
    return advanced.numUpdatedRows > 0n;
  }

  async addHistory(db: Db, entry: HistoryEntry): Promise<void> {
    await db
      .insertInto('content_history')
      .values({ ...entry, snapshot: toBuffer(entry.snapshot) })
      .execute();
  }

  /**
   * Drops the content snapshots of the file's history entries past the newest `kept`, at most `limit` of them,
   * except those a revision names (restoring it needs them): the entries stay, their content is gone.
   */
  async pruneHistory(db: Db, appId: string, fileId: string, kept: number, limit: number): Promise<void> {
    const older = await db
      .selectFrom('content_history')
      .select('id')
      .where('app_id', '=', appId)
      .where('file_id', '=', fileId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .offset(kept)
      .execute();
    if (older.length === 0) return;
    await db
      .updateTable('content_history')
      .set({ snapshot: PRUNED_SNAPSHOT })
      .where('app_id', '=', appId)
      .where('file_id', '=', fileId)
      .where('id', 'in', older.map((row) => row.id))
      .where((eb) => eb.not(eb.exists(eb.selectFrom('content_revisions').select('content_revisions.id').whereRef('content_revisions.history_id', '=', 'content_history.id'))))
      .execute();
  }
}
