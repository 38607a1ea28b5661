import type { Kysely, Migration } from 'kysely';

/**
 * Table data API (spec 2.5, 4.4). Cells are stored per row as one JSON object keyed by column guid, so a
 * column rename never touches rows. Rows are ordered by `seq`, a per-table counter that only grows: keyset
 * paging on it neither repeats nor skips a row while others are inserted or deleted. A deleted row leaves a
 * tombstone (guid -> seq) so that a paging offset naming it still resolves.
 */
export const tables: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('table_tables')
      .addColumn('guid', 'text', (c) => c.primaryKey())
      .addColumn('app_id', 'text', (c) => c.notNull())
      .addColumn('file_id', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('next_row_seq', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('schema_version', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addForeignKeyConstraint('table_tables_file_fk', ['app_id', 'file_id'], 'files', ['app_id', 'file_id'], (fk) =>
        fk.onDelete('cascade'),
      )
      .execute();
    await db.schema.createIndex('table_tables_base_name').unique().on('table_tables').columns(['app_id', 'file_id', 'name']).execute();

    await db.schema
      .createTable('table_views')
      .addColumn('guid', 'text', (c) => c.primaryKey())
      .addColumn('table_guid', 'text', (c) => c.notNull().references('table_tables.guid').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('table_views_table').on('table_views').columns(['table_guid', 'position']).execute();

    await db.schema
      .createTable('table_columns')
      .addColumn('guid', 'text', (c) => c.primaryKey())
      .addColumn('table_guid', 'text', (c) => c.notNull().references('table_tables.guid').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('props', 'text', (c) => c.notNull())
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('table_columns_table_name').unique().on('table_columns').columns(['table_guid', 'name']).execute();

    await db.schema
      .createTable('table_rows')
      .addColumn('table_guid', 'text', (c) => c.notNull().references('table_tables.guid').onDelete('cascade'))
      .addColumn('seq', 'bigint', (c) => c.notNull())
      .addColumn('guid', 'text', (c) => c.notNull())
      .addColumn('cells', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('table_rows_pk', ['table_guid', 'seq'])
      .execute();
    await db.schema.createIndex('table_rows_guid').unique().on('table_rows').column('guid').execute();

    await db.schema
      .createTable('table_row_tombstones')
      .addColumn('guid', 'text', (c) => c.primaryKey())
      .addColumn('table_guid', 'text', (c) => c.notNull().references('table_tables.guid').onDelete('cascade'))
      .addColumn('seq', 'bigint', (c) => c.notNull())
      .addColumn('deleted_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('table_row_tombstones_table').on('table_row_tombstones').column('table_guid').execute();
  },
};
