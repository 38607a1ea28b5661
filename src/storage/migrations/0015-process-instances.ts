import type { Kysely, Migration } from 'kysely';

/**
 * Which processes are alive (docs/TASKS.md "A restart takes its tasks up at once"): one row per running
 * process that runs tasks, named by the per-boot id it writes into the leases it takes, with the host and pid
 * it runs as and a heartbeat. A starting process can then tell a lease held by a process that no longer exists
 * (same host, pid gone; or a heartbeat long silent) from one held by a live process, and take the task up at
 * once instead of waiting for the lease to run out.
 */
export const processInstances: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('process_instances')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('host', 'text', (c) => c.notNull())
      .addColumn('pid', 'integer', (c) => c.notNull())
      .addColumn('started_at', 'bigint', (c) => c.notNull())
      .addColumn('heartbeat_at', 'bigint', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('process_instances').execute();
  },
};
