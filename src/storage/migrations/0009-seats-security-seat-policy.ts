import type { Kysely, Migration } from 'kysely';

/**
 * Per-application seat policy (`apps.seat_policy`, apps/seat-policy.ts): `open`, `auto` or `strict`.
 * Every existing application gets `open`, the behaviour it had before seats were enforced.
 */
export const seatPolicy: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('apps')
      .addColumn('seat_policy', 'text', (c) => c.notNull().defaultTo('open'))
      .execute();
  },
};
