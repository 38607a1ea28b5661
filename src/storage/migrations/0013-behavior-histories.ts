import type { Kysely, Migration } from 'kysely';

/**
 * Behavior history (docs/BEHAVIOR-HISTORY.md): what happened to a file outside the editor (shared, approved,
 * archived), written by the integrator's back end and shown beside the edit history (doc-sidebar-info
 * historyType 5). An entry goes with its file.
 *
 * And the cell range an attachment was attached to by the Java kit's `files/{fileId}/attach` (docs/ATTACHMENTS.md
 * "Attached to cells"); null for every other attachment.
 */
export const behaviorHistories: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('behavior_histories')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('app_id', 'text', (c) => c.notNull())
      .addColumn('file_id', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('user_name', 'text', (c) => c.notNull())
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('content', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('recorded_at', 'bigint', (c) => c.notNull())
      .addForeignKeyConstraint('behavior_histories_file', ['app_id', 'file_id'], 'files', ['app_id', 'file_id'], (c) => c.onDelete('cascade'))
      .execute();
    await db.schema.createIndex('behavior_histories_file_time').on('behavior_histories').columns(['app_id', 'file_id', 'created_at']).execute();
    await db.schema.alterTable('attachments').addColumn('cell_range', 'text').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('attachments').dropColumn('cell_range').execute();
    await db.schema.dropTable('behavior_histories').execute();
  },
};
