import { v7 as uuidv7 } from 'uuid';
import crypto from 'node:crypto';
import os from 'node:os';
import { LoopPause } from '../loop-pause.js';
import { untilAborted } from './until-aborted.js';
import { sql, type ExpressionBuilder, type Selectable, type Transaction, type UpdateObject } from 'kysely';
import { ApiError, Errors } from '../errors.js';
import type { Db, Storage } from '../storage/database.js';
import type { Database, TasksTable } from '../storage/schema.js';

export type TaskState = 'queued' | 'running' | 'succeeded' | 'failed';
export type JsonObject = Record<string, unknown>;

/** A task as its application sees it. */
export interface TaskView {
  id: string;
  appId: string;
  kind: string;
  fileId: string;
  state: TaskState;
  /** 0-100; 100 only once succeeded */
  progress: number;
  result: JsonObject | null;
  error: { code: number; message: string } | null;
  attempts: number;
  createdAt: number;
  updatedAt: number;
  startedAt: number | null;
  finishedAt: number | null;
}

/** What a handler gets for one run of one task. */
export interface TaskContext {
  readonly task: TaskView;
  readonly input: JsonObject;
  /** Aborted when the task times out, the lease is lost or the process shuts down: stop work, kill children. */
  readonly signal: AbortSignal;
  /**
   * Reports real progress (bytes parsed, rows stored, pages rendered) as 0-99; 100 is written with success.
   * Never goes back; writes are spaced out, so calling it often is cheap.
   */
  progress(percent: number): Promise<void>;
  /** Bytes stored with the task (e.g. the uploaded file, role `upload`). */
  blob(role: string): Promise<Buffer | undefined>;
}

/** What a finished run hands back. */
export interface TaskOutcome {
  /** Recorded as the task's result (JSON). */
  result: JsonObject;
  /**
   * Writes that belong to the task's success (the imported file and its content): run in the transaction that
   * marks the task succeeded, so both commit or neither does. An ApiError thrown here fails the task with its code.
   */
  commit?: (trx: Transaction<Database>) => Promise<void>;
  /** Bytes kept with the task after it succeeded (an export's file), by role; the task's other blobs are removed. */
  blobs?: Record<string, Buffer>;
}

/** One kind of task (one module per kind): registered with `TaskEngine.register`. */
export interface TaskHandler {
  readonly kind: string;
  /** A run longer than this fails with 120002 (taskTimedOut) and its signal is aborted. */
  readonly maxRunMs: number;
  run(context: TaskContext): Promise<TaskOutcome>;
}

/** Asynchronous tasks' options, read from SVC_TASK_* by src/config.ts. */
export interface TaskConfig {
  /** Run tasks in this process. */
  worker: boolean;
  /** Tasks this process runs at once. */
  concurrency: number;
  /** Running tasks of one application at once, across processes. */
  perAppConcurrency: number;
  /** How often the engine looks for waiting tasks when nothing woke it, in ms. */
  pollMs: number;
  /** A running task's lease, in ms: a task whose process died is taken up again after it. */
  leaseMs: number;
  /** Runs of a task interrupted by dying processes before it is failed (120003). */
  maxAttempts: number;
  /** Finished tasks and their files are kept this long, in ms. */
  retentionMs: number;
}

/** The engine's settings: SVC_TASK_* (src/config.ts); whether this process runs tasks at all is the caller's choice. */
export type TaskEngineSettings = Omit<TaskConfig, 'worker'>;

export interface TaskLog {
  warn(object: Record<string, unknown>, message: string): void;
  error(object: Record<string, unknown>, message: string): void;
}

export interface NewTask {
  appId: string;
  kind: string;
  fileId: string;
  input: JsonObject;
  /** bytes the handler reads through `context.blob(role)`, stored with the task */
  blobs?: Record<string, Buffer>;
}

type TaskRow = Selectable<TasksTable>;
type TaskChanges = UpdateObject<Database, 'tasks'>;

const PURGE_EVERY_MS = 10 * 60 * 1000;
/** How often a process that runs tasks says it is alive (at most; a third of the lease when that is shorter). */
const HEARTBEAT_MS = 5000;
/** Heartbeats a process may miss before its leases are taken as those of a process that no longer exists. */
const MISSED_HEARTBEATS = 3;
/** Rows of processes silent this long are removed (a host's pid check needs only the recent ones). */
const INSTANCE_RETENTION_MS = 24 * 3600 * 1000;
/** progress is written at most this often per task (and always when it jumped by 10 or more) */
const PROGRESS_WRITE_MS = 250;

/** Why a run's signal was aborted. */
class TaskAbort extends Error {
  constructor(readonly why: 'timeout' | 'shutdown' | 'lease-lost') {
    super(`task aborted: ${why}`);
  }
}

/** The task is no longer this process's to finish (its lease ran out and another process took it). */
class LeaseLost extends Error {}

/** Instance ids of the engines running in this process (tests run several in one). */
const RUNNING_HERE = new Set<string>();

/** Whether the process of this instance runs on this host now (signal 0 checks without sending anything). */
function processExists(pid: number, instance: string | null): boolean {
  // this pid under an id no engine here runs: the process restarted in its place (a container's pid 1)
  if (pid === process.pid) return instance !== null && RUNNING_HERE.has(instance);
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, it is someone else's
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function parseJson(text: string | null): JsonObject | null {
  return text === null ? null : (JSON.parse(text) as JsonObject);
}

function toView(row: TaskRow): TaskView {
  return {
    id: row.id,
    appId: row.app_id,
    kind: row.kind,
    fileId: row.file_id,
    state: row.state as TaskState,
    progress: row.progress,
    result: parseJson(row.result),
    error: row.error_code === null ? null : { code: row.error_code, message: row.error_message ?? '' },
    attempts: row.attempts,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
  };
}

/**
 * Durable asynchronous tasks (docs/TASKS.md). A task is a row: submitted as `queued`, claimed by one process
 * (a lease it renews while it runs), then `succeeded` with progress 100 and a result, or `failed` with an error
 * code and message. Several processes over one PostgreSQL database share the work: the claim skips rows another
 * process is claiming (`FOR UPDATE SKIP LOCKED`; SQLite serialises writers). A process that dies leaves its
 * leases behind: the task is claimed again, up to `maxAttempts` runs, then failed with 120003; a run longer
 * than its kind's `maxRunMs` fails with 120002. Nothing is left "in progress" for ever.
 *
 * The lease names the process by a per-boot id registered in `process_instances` with its host, pid and a
 * heartbeat. A lease whose process no longer exists (same host and its pid is gone, or its heartbeat silent for
 * MISSED_HEARTBEATS beats and a lease) is given up at once, so a restarted process takes its tasks up without waiting for
 * the lease to run out.
 */
export class TaskEngine {
  private readonly handlers = new Map<string, TaskHandler>();
  private readonly owner = crypto.randomUUID();
  private readonly inFlight = new Map<string, { controller: AbortController; done: Promise<void> }>();
  private running = false;
  private loop: Promise<void> | undefined;
  private readonly pause = new LoopPause();
  private heartbeat: NodeJS.Timeout | undefined;
  log: TaskLog = { warn: () => {}, error: () => {} };

  constructor(
    private readonly storage: Storage,
    private readonly settings: TaskEngineSettings,
  ) {}

  /** Adds a kind of task. Each kind registers once, before `start`. */
  register(handler: TaskHandler): void {
    if (this.handlers.has(handler.kind)) throw new Error(`task kind ${handler.kind} is registered twice`);
    this.handlers.set(handler.kind, handler);
  }

  /** Stores a new task (in `db`, which may be the caller's transaction) and wakes the local worker. */
  async submit(task: NewTask, db: Db = this.storage.db): Promise<TaskView> {
    if (!this.handlers.has(task.kind)) throw new Error(`no handler for task kind ${task.kind}`);
    const now = Date.now();
    const row = {
      id: uuidv7(),
      app_id: task.appId,
      kind: task.kind,
      file_id: task.fileId,
      state: 'queued',
      progress: 0,
      input: JSON.stringify(task.input),
      result: null,
      error_code: null,
      error_message: null,
      attempts: 0,
      lease_owner: null,
      lease_until: null,
      deadline_at: null,
      created_at: now,
      updated_at: now,
      started_at: null,
      finished_at: null,
    };
    const insert = async (trx: Db) => {
      await trx.insertInto('tasks').values(row).execute();
      for (const [role, data] of Object.entries(task.blobs ?? {})) {
        await trx.insertInto('task_blobs').values({ task_id: row.id, role, data, created_at: now }).execute();
      }
    };
    if (db.isTransaction) await insert(db);
    else await db.transaction().execute(insert);
    setTimeout(() => this.wake(), 5).unref();
    return toView(row);
  }

  /** The task if it belongs to `appId`; tasks of other applications do not exist for it. */
  async find(appId: string, taskId: string): Promise<TaskView | undefined> {
    const row = await this.storage.db.selectFrom('tasks').selectAll().where('id', '=', taskId).where('app_id', '=', appId).executeTakeFirst();
    return row ? toView(row) : undefined;
  }

  async get(appId: string, taskId: string, kind?: string): Promise<TaskView> {
    const task = await this.find(appId, taskId);
    if (!task || (kind !== undefined && task.kind !== kind)) throw new ApiError(Errors.taskNotFound, `task ${taskId} not found`);
    return task;
  }

  /** A queued or running task of `kind` on the file, if any. */
  async active(appId: string, kind: string, fileId: string): Promise<TaskView | undefined> {
    const row = await this.tasksOfFile(appId, kind, fileId).where('state', 'in', ['queued', 'running']).executeTakeFirst();
    return row ? toView(row) : undefined;
  }

  /** The newest task of `kind` on the file, whatever its state (a file's current preview cache). */
  async latest(appId: string, kind: string, fileId: string): Promise<TaskView | undefined> {
    const row = await this.tasksOfFile(appId, kind, fileId).orderBy('created_at', 'desc').orderBy('id', 'desc').executeTakeFirst();
    return row ? toView(row) : undefined;
  }

  /** The tasks of `kind` on one file of one application. */
  private tasksOfFile(appId: string, kind: string, fileId: string) {
    return this.storage.db.selectFrom('tasks').selectAll().where('app_id', '=', appId).where('file_id', '=', fileId).where('kind', '=', kind);
  }

  /** Bytes stored with a task of `appId`. */
  async blob(appId: string, taskId: string, role: string): Promise<Buffer | undefined> {
    const row = await this.storage.db
      .selectFrom('task_blobs')
      .innerJoin('tasks', 'tasks.id', 'task_blobs.task_id')
      .select('task_blobs.data')
      .where('tasks.app_id', '=', appId)
      .where('task_blobs.task_id', '=', taskId)
      .where('task_blobs.role', '=', role)
      .executeTakeFirst();
    // the driver's Buffer is the task's own (both drivers answer one per row): a copy would be one more file-sized
    // buffer alive beside it until the next collection, during an import's conversion (docs/PERFORMANCE.md)
    return row?.data;
  }

  start(log?: TaskLog): void {
    if (log) this.log = log;
    if (this.running) return;
    this.running = true;
    RUNNING_HERE.add(this.owner);
    this.heartbeat = setInterval(() => {
      this.beat().catch((error: unknown) => this.log.warn({ err: error }, 'tasks: the process heartbeat failed'));
    }, this.heartbeatMs);
    this.heartbeat.unref();
    this.loop = this.beat()
      .catch((error: unknown) => this.log.warn({ err: error }, 'tasks: registering this process failed'))
      .then(() => this.run());
  }

  private get heartbeatMs(): number {
    return Math.max(50, Math.min(HEARTBEAT_MS, Math.floor(this.settings.leaseMs / 3)));
  }

  /** Says this process is alive (registering it the first time). */
  private async beat(now = Date.now()): Promise<void> {
    const alive = { host: os.hostname(), pid: process.pid, heartbeat_at: now };
    const updated = await this.storage.db.updateTable('process_instances').set(alive).where('id', '=', this.owner).executeTakeFirst();
    if (updated.numUpdatedRows === 0n) await this.storage.db.insertInto('process_instances').values({ id: this.owner, started_at: now, ...alive }).execute();
  }

  /**
   * Gives up at once the leases of running tasks whose process no longer exists: on this host with its pid
   * gone (or this very pid under an id this process does not run: a container restarted), or silent for
   * MISSED_HEARTBEATS beats and at least a lease. Their tasks are then claimed like any orphan. A lease of a process that never
   * registered (older than the registry) still runs out as before.
   */
  private async releaseLeasesOfGoneProcesses(now = Date.now()): Promise<void> {
    const owners = await this.storage.db
      .selectFrom('tasks')
      .innerJoin('process_instances', 'process_instances.id', 'tasks.lease_owner')
      .select(['tasks.lease_owner as owner', 'process_instances.host', 'process_instances.pid', 'process_instances.heartbeat_at as heartbeatAt'])
      .where('tasks.state', '=', 'running')
      .where('tasks.lease_until', '>=', now)
      .where('tasks.lease_owner', '!=', this.owner)
      .distinct()
      .execute();
    // never sooner than a lease: a process whose loop stalls (a busy host, a slow database) is late, not gone
    const silentSince = now - Math.max(this.settings.leaseMs, MISSED_HEARTBEATS * this.heartbeatMs);
    const gone = owners
      .filter((row) => row.heartbeatAt < silentSince || (row.host === os.hostname() && !processExists(row.pid, row.owner)))
      .flatMap((row) => (row.owner === null ? [] : [row.owner]));
    if (gone.length === 0) return;
    const released = await this.storage.db
      .updateTable('tasks')
      .set({ lease_until: now - 1, updated_at: now })
      .where('state', '=', 'running')
      .where('lease_owner', 'in', gone)
      .executeTakeFirst();
    this.log.warn({ processes: gone, tasks: Number(released.numUpdatedRows) }, 'tasks: taking up the tasks of processes that no longer exist');
    await this.storage.db.deleteFrom('process_instances').where('id', 'in', gone).execute();
  }

  /**
   * Stops claiming and hands the tasks running here back to the queue (their runs are aborted), so another
   * process, or this one after a restart, takes them up at once instead of after their lease.
   */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    RUNNING_HERE.delete(this.owner);
    clearInterval(this.heartbeat);
    this.wake();
    await this.loop;
    for (const { controller } of this.inFlight.values()) controller.abort(new TaskAbort('shutdown'));
    await Promise.allSettled([...this.inFlight.values()].map((run) => run.done));
    await this.storage.db
      .deleteFrom('process_instances')
      .where('id', '=', this.owner)
      .execute()
      .catch((error: unknown) => this.log.warn({ err: error }, 'tasks: unregistering this process failed'));
  }

  wake(): void {
    this.pause.wake();
  }

  /** Fails orphaned tasks that ran out of attempts, then claims and starts what fits. Returns how many started. */
  async claimDue(): Promise<number> {
    await this.releaseLeasesOfGoneProcesses();
    await this.failExhausted();
    let started = 0;
    while (this.inFlight.size < this.settings.concurrency) {
      const row = await this.claimOne();
      if (!row) break;
      this.execute(row);
      started++;
    }
    return started;
  }

  /** Removes finished tasks past the retention (their blobs go with them). Returns how many. */
  async purge(now = Date.now()): Promise<number> {
    await this.storage.db.deleteFrom('process_instances').where('heartbeat_at', '<', now - INSTANCE_RETENTION_MS).execute();
    const result = await this.storage.db
      .deleteFrom('tasks')
      .where('state', 'in', ['succeeded', 'failed'])
      .where('finished_at', '<', now - this.settings.retentionMs)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  private async run(): Promise<void> {
    let lastPurge = 0;
    while (this.running) {
      try {
        if (Date.now() - lastPurge > PURGE_EVERY_MS) {
          lastPurge = Date.now();
          await this.purge();
        }
        await this.claimDue();
      } catch (error) {
        this.log.error({ err: error }, 'tasks: claiming failed');
      }
      if (!this.running) break;
      await this.pause.sleep(this.settings.pollMs);
    }
  }


  /** Orphaned tasks (lease ran out) that already had `maxAttempts` runs: failed, never retried for ever. */
  private async failExhausted(): Promise<void> {
    const now = Date.now();
    await this.storage.db
      .updateTable('tasks')
      .set({
        state: 'failed',
        error_code: Errors.taskInterrupted.code,
        error_message: `the task was interrupted ${this.settings.maxAttempts} times (the process running it stopped) and is not tried again`,
        lease_owner: null,
        lease_until: null,
        finished_at: now,
        updated_at: now,
      })
      .where('state', '=', 'running')
      .where('lease_until', '<', now)
      .where('attempts', '>=', this.settings.maxAttempts)
      .execute();
  }

  /**
   * Claims the oldest waiting task (or orphaned running one) of a kind this process handles, from an
   * application below its concurrency cap.
   */
  private async claimOne(): Promise<TaskRow | undefined> {
    const kinds = [...this.handlers.keys()];
    if (kinds.length === 0) return undefined;
    const now = Date.now();
    const claimable = (eb: ExpressionBuilder<Database, 'tasks'>) =>
      eb.or([eb('state', '=', 'queued'), eb.and([eb('state', '=', 'running'), eb('lease_until', '<', now), eb('attempts', '<', this.settings.maxAttempts)])]);
    return this.storage.db.transaction().execute(async (trx) => {
      const candidate = await this.storage
        .skipLocked(
          trx
            .selectFrom('tasks as t')
            .select('t.id')
            .where((eb) =>
              eb.or([
                eb('t.state', '=', 'queued'),
                eb.and([eb('t.state', '=', 'running'), eb('t.lease_until', '<', now), eb('t.attempts', '<', this.settings.maxAttempts)]),
              ]),
            )
            .where('t.kind', 'in', kinds)
            .where(
              (eb) =>
                eb
                  .selectFrom('tasks as r')
                  .select((inner) => inner.fn.countAll<number>().as('n'))
                  .whereRef('r.app_id', '=', 't.app_id')
                  .where('r.state', '=', 'running')
                  .where('r.lease_until', '>=', now),
              '<',
              this.settings.perAppConcurrency,
            )
            .orderBy('t.created_at')
            .orderBy('t.id')
            .limit(1),
        )
        .executeTakeFirst();
      if (!candidate) return undefined;
      return trx
        .updateTable('tasks')
        .set((eb) => ({
          state: 'running',
          lease_owner: this.owner,
          lease_until: now + this.settings.leaseMs,
          attempts: eb('attempts', '+', 1),
          started_at: eb.fn.coalesce('started_at', sql<number>`${now}`),
          updated_at: now,
        }))
        .where('id', '=', candidate.id)
        .where(claimable)
        .returningAll()
        .executeTakeFirst();
    });
  }

  private execute(row: TaskRow): void {
    const handler = this.handlers.get(row.kind)!;
    const controller = new AbortController();
    const deadline = Date.now() + handler.maxRunMs;
    const done = this.runTask(row, handler, controller, deadline).finally(() => {
      this.inFlight.delete(row.id);
      this.wake();
    });
    this.inFlight.set(row.id, { controller, done });
  }

  private async runTask(row: TaskRow, handler: TaskHandler, controller: AbortController, deadline: number): Promise<void> {
    const timer = setTimeout(() => controller.abort(new TaskAbort('timeout')), Math.max(0, deadline - Date.now()));
    const heartbeat = setInterval(() => {
      this.renew(row.id).catch((error: unknown) => {
        if (error instanceof LeaseLost) controller.abort(new TaskAbort('lease-lost'));
        else this.log.warn({ err: error, taskId: row.id }, 'tasks: renewing a lease failed');
      });
    }, Math.max(50, Math.floor(this.settings.leaseMs / 3)));
    try {
      await this.ownRow(row.id, { deadline_at: deadline });
      const context = this.context(row, controller.signal);
      const outcome = await untilAborted(handler.run(context), controller.signal);
      await this.succeed(row.id, outcome);
    } catch (error) {
      await this.settleFailure(row, handler, controller.signal, error).catch((settleError: unknown) =>
        this.log.error({ err: settleError, taskId: row.id }, 'tasks: recording a failure failed'),
      );
    } finally {
      clearTimeout(timer);
      clearInterval(heartbeat);
      if (!controller.signal.aborted) controller.abort(new TaskAbort('shutdown'));
    }
  }

  private async settleFailure(row: TaskRow, handler: TaskHandler, signal: AbortSignal, error: unknown): Promise<void> {
    const abort = signal.aborted && signal.reason instanceof TaskAbort ? signal.reason.why : undefined;
    if (error instanceof LeaseLost || abort === 'lease-lost') return;
    if (abort === 'shutdown') {
      await this.ownRow(row.id, (eb) => ({ state: 'queued', lease_owner: null, lease_until: null, attempts: eb('attempts', '-', 1) }));
      return;
    }
    if (abort === 'timeout') {
      await this.fail(row.id, Errors.taskTimedOut.code, `the ${row.kind} task ran longer than its limit of ${Math.round(handler.maxRunMs / 1000)} s`);
      return;
    }
    if (error instanceof ApiError) {
      await this.fail(row.id, error.spec.code, error.message);
      return;
    }
    this.log.error({ err: error, taskId: row.id, kind: row.kind }, 'tasks: a task failed unexpectedly');
    await this.fail(row.id, Errors.taskFailed.code, `the ${row.kind} task failed unexpectedly`);
  }

  private context(row: TaskRow, signal: AbortSignal): TaskContext {
    let shown = row.progress;
    let writtenAt = 0;
    return {
      task: toView(row),
      input: parseJson(row.input) ?? {},
      signal,
      progress: async (percent) => {
        const value = Math.max(0, Math.min(99, Math.floor(percent)));
        if (value <= shown) return;
        const now = Date.now();
        if (now - writtenAt < PROGRESS_WRITE_MS && value - shown < 10) return;
        shown = value;
        writtenAt = now;
        await this.ownRow(row.id, { progress: value });
      },
      blob: (role) => this.blob(row.app_id, row.id, role),
    };
  }

  /** Extends the lease of a task this process runs; LeaseLost when another process has it now. */
  private async renew(taskId: string): Promise<void> {
    await this.ownRow(taskId, { lease_until: Date.now() + this.settings.leaseMs });
  }

  /** Updates a running task only while this process holds its lease; LeaseLost otherwise. */
  private async ownRow(
    taskId: string,
    changes: TaskChanges | ((eb: ExpressionBuilder<Database, 'tasks'>) => TaskChanges),
    db: Db = this.storage.db,
  ): Promise<void> {
    const result = await db
      .updateTable('tasks')
      .set((eb) => ({ ...(typeof changes === 'function' ? changes(eb) : changes), updated_at: Date.now() }))
      .where('id', '=', taskId)
      .where('lease_owner', '=', this.owner)
      .where('state', '=', 'running')
      .executeTakeFirst();
    if (result.numUpdatedRows === 0n) throw new LeaseLost(`task ${taskId} is no longer leased by this process`);
  }

  /** Success and the handler's writes in one transaction, only while the lease is still ours. */
  private async succeed(taskId: string, outcome: TaskOutcome): Promise<void> {
    await this.storage.db.transaction().execute(async (trx) => {
      const now = Date.now();
      await this.ownRow(taskId, { state: 'succeeded', progress: 100, result: JSON.stringify(outcome.result), lease_owner: null, lease_until: null, finished_at: now }, trx);
      await outcome.commit?.(trx);
      await trx.deleteFrom('task_blobs').where('task_id', '=', taskId).execute();
      for (const [role, data] of Object.entries(outcome.blobs ?? {})) {
        await trx.insertInto('task_blobs').values({ task_id: taskId, role, data, created_at: now }).execute();
      }
    });
  }

  /** Records the failure and drops the task's blobs (its input is not needed any more). */
  private async fail(taskId: string, code: number, message: string): Promise<void> {
    await this.storage.db.transaction().execute(async (trx) => {
      await this.ownRow(taskId, { state: 'failed', error_code: code, error_message: message, lease_owner: null, lease_until: null, finished_at: Date.now() }, trx);
      await trx.deleteFrom('task_blobs').where('task_id', '=', taskId).execute();
    });
  }
}

