import type { Kysely, Migration } from 'kysely';
import { sql } from 'kysely';

/**
 * `content_docs.recorded_seq`: the update seq up to which a file's changes are recorded (version, history
 * entry, FileContent event). Updates after it were stored and acknowledged but not yet recorded; a process
 * that stopped abruptly leaves such updates, and another records them (domain/content/content-service.ts).
 * Existing files count as recorded up to their last update: what older versions left is recovered no worse
 * than they did.
 */
export const recordedSeq: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('content_docs')
      .addColumn('recorded_seq', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
    await sql`update content_docs set recorded_seq = update_seq`.execute(db);
  },
};
