import type { Kysely, Migration } from 'kysely';

/**
 * Suggestion notices (docs/PUSH-AND-EVENTS.md "Suggestion events"): each suggestion of a document the service
 * announced with a Suggestion `create` event, with the Yjs id of its first character, so that when it leaves the
 * document the recorder can tell whether it was accepted or rejected (was that character deleted?) and announce
 * it once. `suggestion` is the announced object (JSON), repeated in the decision's event. A notice goes with its file.
 */
export const suggestionNotices: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('suggestion_notices')
      .addColumn('app_id', 'text', (c) => c.notNull())
      .addColumn('file_id', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('suggestion_id', 'text', (c) => c.notNull())
      .addColumn('suggestion', 'text', (c) => c.notNull())
      .addColumn('item_client', 'bigint', (c) => c.notNull())
      .addColumn('item_clock', 'bigint', (c) => c.notNull())
      .addColumn('decided', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('suggestion_notices_pk', ['app_id', 'file_id', 'kind', 'suggestion_id'])
      .addForeignKeyConstraint('suggestion_notices_file', ['app_id', 'file_id'], 'files', ['app_id', 'file_id'], (c) => c.onDelete('cascade'))
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('suggestion_notices').execute();
  },
};
