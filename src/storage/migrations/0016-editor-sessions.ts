import type { Kysely, Migration } from 'kysely';

/**
 * Editor sessions (docs/SDK.md "Sessions without tokens in URLs"): the short-lived ticket an editor page holds
 * instead of the integrator's token and signature. Only the ticket's SHA-256 is kept; the row keeps what the
 * ticket stands for (the app, the file, the user, the integrator's token that callbacks forward, the signature's
 * claims and expiry) until it expires. A session goes with its file.
 */
export const editorSessions: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('editor_sessions')
      .addColumn('ticket_hash', 'text', (c) => c.primaryKey())
      .addColumn('app_id', 'text', (c) => c.notNull())
      .addColumn('file_id', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('token', 'text', (c) => c.notNull())
      .addColumn('claims', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('signature_expires_at', 'bigint', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addForeignKeyConstraint('editor_sessions_file', ['app_id', 'file_id'], 'files', ['app_id', 'file_id'], (c) => c.onDelete('cascade'))
      .execute();
    await db.schema.createIndex('editor_sessions_expiry').on('editor_sessions').column('expires_at').execute();
    await db.schema.createIndex('editor_sessions_user').on('editor_sessions').columns(['app_id', 'user_id', 'file_id']).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('editor_sessions').execute();
  },
};
