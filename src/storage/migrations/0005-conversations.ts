import type { Kysely, Migration } from 'kysely';

/**
 * The conversation around a file (docs/CONVERSATIONS.md):
 * - comment_threads: one selection (spec `selectionGuid`) with its anchor, open or closed;
 * - comments: the comments of a thread in order, soft-deleted so that counts and events stay exact;
 * - discussion_messages: a file's discussion (chat);
 * - date_mentions: dates mentioned with a reminder time and the users to remind;
 * - mention_notices: each (place, user) a MentionAt event announced, so a mention is announced once;
 * - conversation_activity: what happened, for doc-sidebar-info (historyType 4).
 * Everything belongs to a file and goes with it.
 */
export const conversations: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('comment_threads')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('app_id', 'text', (c) => c.notNull())
      .addColumn('file_id', 'text', (c) => c.notNull())
      .addColumn('selection_kind', 'text', (c) => c.notNull())
      .addColumn('anchor', 'text', (c) => c.notNull())
      .addColumn('title', 'text')
      .addColumn('selection_content', 'text')
      .addColumn('created_by', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('closed_at', 'bigint')
      .addColumn('closed_by', 'text')
      .addForeignKeyConstraint('comment_threads_file', ['app_id', 'file_id'], 'files', ['app_id', 'file_id'], (c) => c.onDelete('cascade'))
      .execute();
    await db.schema.createIndex('comment_threads_file_time').on('comment_threads').columns(['app_id', 'file_id', 'created_at']).execute();

    await db.schema
      .createTable('comments')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('app_id', 'text', (c) => c.notNull())
      .addColumn('file_id', 'text', (c) => c.notNull())
      .addColumn('thread_id', 'text', (c) => c.notNull().references('comment_threads.id').onDelete('cascade'))
      .addColumn('reply_to', 'text')
      .addColumn('author_id', 'text', (c) => c.notNull())
      .addColumn('nodes', 'text', (c) => c.notNull())
      .addColumn('text', 'text', (c) => c.notNull())
      .addColumn('mentioned', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addColumn('deleted_at', 'bigint')
      .addColumn('deleted_by', 'text')
      .addForeignKeyConstraint('comments_file', ['app_id', 'file_id'], 'files', ['app_id', 'file_id'], (c) => c.onDelete('cascade'))
      .execute();
    await db.schema.createIndex('comments_thread').on('comments').columns(['thread_id', 'created_at']).execute();
    await db.schema.createIndex('comments_file').on('comments').columns(['app_id', 'file_id']).execute();

    await db.schema
      .createTable('discussion_messages')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('app_id', 'text', (c) => c.notNull())
      .addColumn('file_id', 'text', (c) => c.notNull())
      .addColumn('author_id', 'text', (c) => c.notNull())
      .addColumn('nodes', 'text', (c) => c.notNull())
      .addColumn('text', 'text', (c) => c.notNull())
      .addColumn('mentioned', 'text', (c) => c.notNull())
      .addColumn('unixus', 'bigint', (c) => c.notNull())
      .addForeignKeyConstraint('discussion_messages_file', ['app_id', 'file_id'], 'files', ['app_id', 'file_id'], (c) => c.onDelete('cascade'))
      .execute();
    await db.schema.createIndex('discussion_messages_file_time').on('discussion_messages').columns(['app_id', 'file_id', 'unixus']).execute();

    await db.schema
      .createTable('date_mentions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('app_id', 'text', (c) => c.notNull())
      .addColumn('file_id', 'text', (c) => c.notNull())
      .addColumn('author_id', 'text', (c) => c.notNull())
      .addColumn('content', 'text', (c) => c.notNull())
      .addColumn('remind_at', 'bigint', (c) => c.notNull())
      .addColumn('remind_user_ids', 'text', (c) => c.notNull())
      .addColumn('position_id', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addColumn('removed_at', 'bigint')
      .addForeignKeyConstraint('date_mentions_file', ['app_id', 'file_id'], 'files', ['app_id', 'file_id'], (c) => c.onDelete('cascade'))
      .execute();
    await db.schema.createIndex('date_mentions_file').on('date_mentions').columns(['app_id', 'file_id', 'remind_at']).execute();

    await db.schema
      .createTable('mention_notices')
      .addColumn('app_id', 'text', (c) => c.notNull())
      .addColumn('file_id', 'text', (c) => c.notNull())
      .addColumn('place', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('mention_notices_pk', ['app_id', 'file_id', 'place', 'user_id'])
      .addForeignKeyConstraint('mention_notices_file', ['app_id', 'file_id'], 'files', ['app_id', 'file_id'], (c) => c.onDelete('cascade'))
      .execute();

    await db.schema
      .createTable('conversation_activity')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('app_id', 'text', (c) => c.notNull())
      .addColumn('file_id', 'text', (c) => c.notNull())
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('subject_id', 'text', (c) => c.notNull())
      .addColumn('summary', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('user_name', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addForeignKeyConstraint('conversation_activity_file', ['app_id', 'file_id'], 'files', ['app_id', 'file_id'], (c) => c.onDelete('cascade'))
      .execute();
    await db.schema.createIndex('conversation_activity_file_time').on('conversation_activity').columns(['app_id', 'file_id', 'created_at']).execute();
  },
  async down(db: Kysely<unknown>) {
    for (const table of ['conversation_activity', 'mention_notices', 'date_mentions', 'discussion_messages', 'comments', 'comment_threads']) {
      await db.schema.dropTable(table).execute();
    }
  },
};
