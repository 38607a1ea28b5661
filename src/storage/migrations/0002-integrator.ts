import { sql, type Kysely, type Migration } from 'kysely';

/**
 * The transactional outbox of events to the integrator. `event_streams` hands out a per-(app, stream)
 * sequence inside the writer's transaction: the row lock it takes orders concurrent writers of the same file,
 * so `seq` is the commit order within a stream and delivery in `seq` order is the order things happened.
 */
export const integrator: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('event_streams')
      .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
      .addColumn('stream_key', 'text', (c) => c.notNull())
      .addColumn('last_seq', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('event_streams_pk', ['app_id', 'stream_key'])
      .execute();

    await db.schema
      .createTable('event_outbox')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
      .addColumn('stream_key', 'text', (c) => c.notNull())
      .addColumn('seq', 'bigint', (c) => c.notNull())
      .addColumn('file_id', 'text')
      .addColumn('event_class', 'text', (c) => c.notNull())
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('user_token', 'text')
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
      .addColumn('lease_until', 'bigint')
      .addColumn('lease_owner', 'text')
      .addColumn('last_attempt_at', 'bigint')
      .addColumn('last_status', 'integer')
      .addColumn('last_error', 'text')
      .addColumn('delivered_at', 'bigint')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addUniqueConstraint('event_outbox_stream_seq', ['app_id', 'stream_key', 'seq'])
      .execute();
    // The claim asks "is an earlier event of this stream still pending?" for each candidate; delivered
    // events stay for days, so only the pending ones are indexed for that question.
    await db.schema
      .createIndex('event_outbox_stream_pending')
      .on('event_outbox')
      .columns(['app_id', 'stream_key', 'seq'])
      .where(sql.ref('status'), '=', 'pending')
      .execute();
    await db.schema.createIndex('event_outbox_due').on('event_outbox').columns(['status', 'next_attempt_at', 'id']).execute();
    await db.schema.createIndex('event_outbox_app_recent').on('event_outbox').columns(['app_id', 'id']).execute();
  },
};
