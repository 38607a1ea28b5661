import type { Kysely, Migration } from 'kysely';
import { binaryColumnType } from './column-types.js';

/**
 * Asynchronous tasks (import, export, preview cache; docs/TASKS.md) and the bytes they work on. Both live in
 * the database so that every process sharing it can take up any task, and a task outlives the process that
 * accepted it.
 */
export const tasks: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('tasks')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('app_id', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('file_id', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('input', 'text', (c) => c.notNull())
      .addColumn('result', 'text')
      .addColumn('error_code', 'integer')
      .addColumn('error_message', 'text')
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('lease_owner', 'text')
      .addColumn('lease_until', 'bigint')
      .addColumn('deadline_at', 'bigint')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addColumn('started_at', 'bigint')
      .addColumn('finished_at', 'bigint')
      .execute();
    // the claim scans waiting and running tasks in creation order; finished ones are purged by finished_at
    await db.schema.createIndex('tasks_claim').on('tasks').columns(['state', 'created_at']).execute();
    await db.schema.createIndex('tasks_app_file').on('tasks').columns(['app_id', 'file_id']).execute();
    await db.schema
      .createTable('task_blobs')
      .addColumn('task_id', 'text', (c) => c.notNull().references('tasks.id').onDelete('cascade'))
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('data', binaryColumnType(db), (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('task_blobs_pk', ['task_id', 'role'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('task_blobs').execute();
    await db.schema.dropTable('tasks').execute();
  },
};
