import type { Kysely, Migration } from 'kysely';
import { binaryColumnType } from './column-types.js';

/**
 * Files made by exports (docs/IMPORT-EXPORT.md "Export"), served through their signed download link until it
 * expires, then removed. The bytes live in the row, so every process sharing the database serves the link
 * (no shared disk); an export goes with its file when the file is deleted.
 */
export const exportFiles: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('export_files')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('app_id', 'text', (c) => c.notNull())
      .addColumn('file_id', 'text', (c) => c.notNull())
      .addColumn('task_id', 'text', (c) => c.notNull())
      .addColumn('file_name', 'text', (c) => c.notNull())
      .addColumn('mime_type', 'text', (c) => c.notNull())
      .addColumn('size', 'bigint', (c) => c.notNull())
      .addColumn('data', binaryColumnType(db), (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addForeignKeyConstraint('export_files_file', ['app_id', 'file_id'], 'files', ['app_id', 'file_id'], (c) => c.onDelete('cascade'))
      .execute();
    await db.schema.createIndex('export_files_expiry').on('export_files').column('expires_at').execute();
    await db.schema.createIndex('export_files_file').on('export_files').columns(['app_id', 'file_id']).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('export_files').execute();
  },
};
