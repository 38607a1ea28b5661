import type { Kysely, Migration } from 'kysely';
import { binaryColumnType } from './column-types.js';

/**
 * Images and other attachments uploaded into a collaborative file (docs/ATTACHMENTS.md). The bytes live in
 * the row itself, so one SQLite process and many processes sharing a PostgreSQL database serve the same
 * attachments with no shared disk. An attachment belongs to a file and goes with it.
 */
export const attachments: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('attachments')
      .addColumn('app_id', 'text', (c) => c.notNull())
      .addColumn('guid', 'text', (c) => c.notNull())
      .addColumn('file_id', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('bucket', 'text', (c) => c.notNull())
      .addColumn('filename', 'text', (c) => c.notNull())
      .addColumn('mime_type', 'text', (c) => c.notNull())
      .addColumn('size', 'bigint', (c) => c.notNull())
      .addColumn('width', 'integer')
      .addColumn('height', 'integer')
      .addColumn('data', binaryColumnType(db), (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      // The guid comes from the upload's access token: a second upload with the same token collides here.
      .addPrimaryKeyConstraint('attachments_pk', ['app_id', 'guid'])
      .addForeignKeyConstraint('attachments_file', ['app_id', 'file_id'], 'files', ['app_id', 'file_id'], (c) => c.onDelete('cascade'))
      .execute();
    await db.schema.createIndex('attachments_file').on('attachments').columns(['app_id', 'file_id']).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('attachments').execute();
  },
};
