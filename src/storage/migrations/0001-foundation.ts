import type { Kysely, Migration } from 'kysely';

export const foundation: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('apps')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('secret', 'text', (c) => c.notNull())
      .addColumn('available_file_types', 'text', (c) => c.notNull())
      .addColumn('premium_file_types', 'text', (c) => c.notNull())
      .addColumn('member_limit', 'integer', (c) => c.notNull())
      .addColumn('valid_from', 'bigint', (c) => c.notNull())
      .addColumn('valid_until', 'bigint')
      .addColumn('endpoint_url', 'text')
      .addColumn('qps_limit', 'integer')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('seats')
      .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('status', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('seats_pk', ['app_id', 'user_id'])
      .execute();
    await db.schema.createIndex('seats_app_status').on('seats').columns(['app_id', 'status']).execute();

    await db.schema
      .createTable('files')
      .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
      .addColumn('file_id', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('content_key', 'text')
      .addColumn('created_by', 'text')
      .addColumn('version', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('files_pk', ['app_id', 'file_id'])
      .execute();
  },
};
