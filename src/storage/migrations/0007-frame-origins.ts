import type { Kysely, Migration } from 'kysely';

/**
 * Allowed host origins per application (`apps.frame_origins`): the pages that may frame the editor page
 * (its `frame-ancestors` policy) and, later, call the service from a browser (CORS). A JSON array of
 * normalized origins as text; `[]`, the default of every existing application, means any origin.
 */
export const frameOrigins: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('apps')
      .addColumn('frame_origins', 'text', (c) => c.notNull().defaultTo('[]'))
      .execute();
  },
};
