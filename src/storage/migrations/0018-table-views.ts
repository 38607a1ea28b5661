import type { Kysely, Migration } from 'kysely';

/**
 * Saved views (docs/TABLE-API.md "Views"): each view gets its kind (grid, kanban, gallery, form) and its
 * settings as JSON text (src/model/tables/views.ts). Existing views, every table's default view among them,
 * become grid views with default settings.
 */
export const tableViews: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('table_views').addColumn('kind', 'text', (c) => c.notNull().defaultTo('grid')).execute();
    await db.schema.alterTable('table_views').addColumn('settings', 'text', (c) => c.notNull().defaultTo('{}')).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('table_views').dropColumn('settings').execute();
    await db.schema.alterTable('table_views').dropColumn('kind').execute();
  },
};
