import type { Kysely, Migration } from 'kysely';

/** The tables this migration reads and fills, as they are at this migration. */
interface LinkMigrationTables {
  table_columns: { guid: string; table_guid: string; type: string };
  table_rows: { table_guid: string; seq: number; guid: string; cells: string };
  table_links: { row_guid: string; column_guid: string; target_row_guid: string };
}

/** Rows read (and link rows written) per statement while filling the index from existing cells. */
const MIGRATION_PAGE = 1000;

/**
 * Link integrity by index (docs/TABLE-API.md "Link cells"): one row per row guid a Link cell names, so that
 * deleting a row finds the cells naming it by `target_row_guid` instead of scanning every linking row's JSON.
 * A link row goes with its linking row and its column (foreign keys, cascading); the cells stay the truth
 * the API reads, the index only says where to look. Existing Link cells are indexed here.
 */
export const tableLinks: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('table_links')
      .addColumn('row_guid', 'text', (c) => c.notNull().references('table_rows.guid').onDelete('cascade'))
      .addColumn('column_guid', 'text', (c) => c.notNull().references('table_columns.guid').onDelete('cascade'))
      .addColumn('target_row_guid', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('table_links_pk', ['row_guid', 'column_guid', 'target_row_guid'])
      .execute();
    await db.schema.createIndex('table_links_target').on('table_links').column('target_row_guid').execute();
    await db.schema.createIndex('table_links_column').on('table_links').column('column_guid').execute();

    const typed = db as unknown as Kysely<LinkMigrationTables>;
    const linkColumns = await typed.selectFrom('table_columns').select(['guid', 'table_guid']).where('type', '=', 'Link').execute();
    for (const column of linkColumns) {
      let after = -1;
      for (;;) {
        const page = await typed
          .selectFrom('table_rows')
          .select(['seq', 'guid', 'cells'])
          .where('table_guid', '=', column.table_guid)
          .where('seq', '>', after)
          .orderBy('seq')
          .limit(MIGRATION_PAGE)
          .execute();
        const links = page.flatMap((row) => {
          const linked = (JSON.parse(row.cells) as Record<string, unknown>)[column.guid];
          if (!Array.isArray(linked)) return [];
          return linked.filter((guid): guid is string => typeof guid === 'string').map((guid) => ({ row_guid: row.guid, column_guid: column.guid, target_row_guid: guid }));
        });
        for (let start = 0; start < links.length; start += MIGRATION_PAGE) {
          await typed.insertInto('table_links').values(links.slice(start, start + MIGRATION_PAGE)).execute();
        }
        if (page.length < MIGRATION_PAGE) break;
        after = Number(page[page.length - 1]!.seq);
      }
    }
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('table_links').execute();
  },
};
