import type { Kysely, Migration } from 'kysely';
import { binaryColumnType } from './column-types.js';

/**
 * Content of collaborative files (docs/CONTENT-MODEL.md "Storage"):
 * - content_docs: one row per file: the compacted Yjs snapshot, the sequence number it covers, and the
 *   counter that numbers the file's updates;
 * - content_updates: append-only log of Yjs updates, numbered per file, merged into the snapshot by compaction;
 * - content_history: coalesced full-state snapshots with who changed the file (edit history);
 * - content_revisions: named revisions, each pointing at a history snapshot.
 */
export const content: Migration = {
  async up(db: Kysely<unknown>) {
    const binary = binaryColumnType(db);
    await db.schema
      .createTable('content_docs')
      .addColumn('app_id', 'text', (c) => c.notNull())
      .addColumn('file_id', 'text', (c) => c.notNull())
      .addColumn('snapshot', binary, (c) => c.notNull())
      .addColumn('snapshot_seq', 'bigint', (c) => c.notNull())
      .addColumn('update_seq', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('content_docs_pk', ['app_id', 'file_id'])
      .addForeignKeyConstraint('content_docs_file', ['app_id', 'file_id'], 'files', ['app_id', 'file_id'], (c) => c.onDelete('cascade'))
      .execute();

    await db.schema
      .createTable('content_updates')
      .addColumn('app_id', 'text', (c) => c.notNull())
      .addColumn('file_id', 'text', (c) => c.notNull())
      .addColumn('seq', 'bigint', (c) => c.notNull())
      .addColumn('update', binary, (c) => c.notNull())
      .addColumn('user_id', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('content_updates_pk', ['app_id', 'file_id', 'seq'])
      .addForeignKeyConstraint('content_updates_file', ['app_id', 'file_id'], 'files', ['app_id', 'file_id'], (c) => c.onDelete('cascade'))
      .execute();

    await db.schema
      .createTable('content_history')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('app_id', 'text', (c) => c.notNull())
      .addColumn('file_id', 'text', (c) => c.notNull())
      .addColumn('version', 'bigint', (c) => c.notNull())
      .addColumn('history_type', 'integer', (c) => c.notNull())
      .addColumn('snapshot', binary, (c) => c.notNull())
      .addColumn('user_id', 'text')
      .addColumn('user_name', 'text')
      .addColumn('user_ids', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addForeignKeyConstraint('content_history_file', ['app_id', 'file_id'], 'files', ['app_id', 'file_id'], (c) => c.onDelete('cascade'))
      .execute();
    await db.schema.createIndex('content_history_file_time').on('content_history').columns(['app_id', 'file_id', 'created_at']).execute();

    await db.schema
      .createTable('content_revisions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('app_id', 'text', (c) => c.notNull())
      .addColumn('file_id', 'text', (c) => c.notNull())
      .addColumn('history_id', 'text', (c) => c.notNull().references('content_history.id').onDelete('cascade'))
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('label', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text')
      .addColumn('user_name', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addForeignKeyConstraint('content_revisions_file', ['app_id', 'file_id'], 'files', ['app_id', 'file_id'], (c) => c.onDelete('cascade'))
      .execute();
    await db.schema.createIndex('content_revisions_file_time').on('content_revisions').columns(['app_id', 'file_id', 'created_at']).execute();
  },
};
