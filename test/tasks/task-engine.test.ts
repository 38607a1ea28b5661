import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, Errors } from '../../src/errors.js';
import { openStorage, type Storage } from '../../src/storage/database.js';
import { TaskEngine, type TaskContext, type TaskEngineSettings, type TaskHandler } from '../../src/tasks/task-engine.js';
import { testDatabases } from '../support/databases.js';

const SETTINGS: TaskEngineSettings = { concurrency: 4, perAppConcurrency: 4, pollMs: 20, leaseMs: 300, maxAttempts: 2, retentionMs: 60_000 };

/** A handler whose runs the test steers: each run waits until released, reporting what it was given. */
function steeredHandler(kind: string, maxRunMs = 60_000) {
  const runs: Array<{ context: TaskContext; release: (value?: unknown) => void; fail: (error: Error) => void }> = [];
  const handler: TaskHandler = {
    kind,
    maxRunMs,
    run: (context) =>
      new Promise((resolve, reject) => {
        runs.push({
          context,
          release: () => resolve({ result: { fileId: context.task.fileId, sawUpload: true } }),
          fail: reject,
        });
      }),
  };
  return { handler, runs };
}

for (const database of testDatabases()) {
  describe(`task engine (${database.name})`, () => {
    const cleanup: Array<() => Promise<void>> = [];
    afterEach(async () => {
      for (const step of cleanup.reverse()) await step();
      cleanup.length = 0;
    });

    async function storage(): Promise<Storage> {
      const fresh = await database.fresh();
      const opened = await openStorage(fresh.options);
      cleanup.push(async () => {
        await opened.close();
        await fresh.dispose();
      });
      return opened;
    }

    function engine(over: Storage, settings: Partial<TaskEngineSettings> = {}): TaskEngine {
      const created = new TaskEngine(over, { ...SETTINGS, ...settings });
      cleanup.push(() => created.stop());
      return created;
    }

    it('runs a task to success with real progress, its result and its blobs replaced by the outcome', async () => {
      const db = await storage();
      const tasks = engine(db);
      const seen: Array<Buffer | undefined> = [];
      tasks.register({
        kind: 'demo',
        maxRunMs: 10_000,
        async run(context) {
          seen.push(await context.blob('upload'));
          await context.progress(40);
          expect((await tasks.get('app1', context.task.id)).progress).toBe(40);
          await context.progress(20); // never goes back
          expect((await tasks.get('app1', context.task.id)).progress).toBe(40);
          return { result: { size: seen[0]?.length ?? 0 }, blobs: { out: Buffer.from('result') } };
        },
      });
      const task = await tasks.submit({ appId: 'app1', kind: 'demo', fileId: 'f1', input: { a: 1 }, blobs: { upload: Buffer.from('hello') } });
      expect(task.state).toBe('queued');
      tasks.start();
      await expect.poll(async () => (await tasks.get('app1', task.id)).state).toBe('succeeded');
      const done = await tasks.get('app1', task.id);
      expect(done).toMatchObject({ progress: 100, result: { size: 5 }, error: null, attempts: 1 });
      expect(seen[0]?.toString()).toBe('hello');
      expect(await tasks.blob('app1', task.id, 'upload')).toBeUndefined();
      expect((await tasks.blob('app1', task.id, 'out'))?.toString()).toBe('result');
      // another application does not see the task at all
      expect(await tasks.find('app2', task.id)).toBeUndefined();
      expect(await tasks.blob('app2', task.id, 'out')).toBeUndefined();
      await expect(tasks.get('app2', task.id)).rejects.toMatchObject({ spec: Errors.taskNotFound });
    });

    it('records an ApiError with its code, anything else as 120004, and a run past its limit as 120002', async () => {
      const db = await storage();
      const tasks = engine(db);
      tasks.register({ kind: 'refused', maxRunMs: 10_000, run: async () => Promise.reject(new ApiError(Errors.importCorrupt, 'not a docx')) });
      tasks.register({ kind: 'broken', maxRunMs: 10_000, run: async () => Promise.reject(new Error('boom')) });
      const slow = steeredHandler('slow', 200);
      tasks.register(slow.handler);
      const refused = await tasks.submit({ appId: 'a', kind: 'refused', fileId: 'f', input: {}, blobs: { upload: Buffer.from('x') } });
      const broken = await tasks.submit({ appId: 'a', kind: 'broken', fileId: 'f', input: {} });
      const timed = await tasks.submit({ appId: 'a', kind: 'slow', fileId: 'f', input: {} });
      tasks.start();
      await expect.poll(async () => (await tasks.get('a', refused.id)).error).toEqual({ code: 121005, message: 'not a docx' });
      await expect.poll(async () => (await tasks.get('a', broken.id)).error?.code).toBe(120004);
      await expect.poll(async () => (await tasks.get('a', timed.id)).error?.code).toBe(120002);
      expect((await tasks.get('a', timed.id)).state).toBe('failed');
      expect(slow.runs[0]!.context.signal.aborted).toBe(true);
      expect(await tasks.blob('a', refused.id, 'upload')).toBeUndefined();
    });

    it('caps running tasks per application and in total', async () => {
      const db = await storage();
      const tasks = engine(db, { concurrency: 3, perAppConcurrency: 2 });
      const steered = steeredHandler('work');
      tasks.register(steered.handler);
      for (let index = 0; index < 3; index++) await tasks.submit({ appId: 'busy', kind: 'work', fileId: `b${index}`, input: {} });
      for (let index = 0; index < 2; index++) await tasks.submit({ appId: 'other', kind: 'work', fileId: `o${index}`, input: {} });
      tasks.start();
      await expect.poll(() => steered.runs.length).toBe(3);
      const byApp = (app: string) => steered.runs.filter((run) => run.context.task.appId === app && !run.context.signal.aborted).length;
      expect(byApp('busy')).toBe(2);
      expect(byApp('other')).toBe(1);
      steered.runs[0]!.release();
      await expect.poll(() => steered.runs.length).toBe(4);
      steered.runs.forEach((run) => run.release());
      await expect.poll(() => steered.runs.length).toBe(5);
      steered.runs.forEach((run) => run.release());
    });

    it('takes up a task whose process died (lease ran out), and fails it with 120003 after maxAttempts', async () => {
      const db = await storage();
      // the first "process" claims the task and dies: its engine stops renewing without handing the task back
      const dying = new TaskEngine(db, SETTINGS);
      const first = steeredHandler('work');
      dying.register(first.handler);
      const task = await dying.submit({ appId: 'a', kind: 'work', fileId: 'f', input: {} });
      await dying.claimDue();
      expect((await dying.get('a', task.id)).state).toBe('running');
      await db.db.updateTable('tasks').set({ lease_owner: 'a-dead-process', lease_until: Date.now() - 1 }).where('id', '=', task.id).execute();

      const survivor = engine(db);
      const second = steeredHandler('work');
      survivor.register(second.handler);
      survivor.start();
      await expect.poll(() => second.runs.length).toBe(1);
      expect((await survivor.get('a', task.id)).attempts).toBe(2);
      // the first process's late result is not taken: the task is no longer its own
      first.runs[0]!.release();
      // the second run dies too: with maxAttempts 2 the task fails instead of running a third time
      await survivor.stop();
      await db.db.updateTable('tasks').set({ state: 'running', attempts: 2, lease_owner: 'a-dead-process', lease_until: Date.now() - 1 }).where('id', '=', task.id).execute();
      const third = engine(db);
      third.register(steeredHandler('work').handler);
      await third.claimDue();
      const failed = await third.get('a', task.id);
      expect(failed.state).toBe('failed');
      expect(failed.error?.code).toBe(120003);
    });

    it('hands running tasks back to the queue on a graceful stop', async () => {
      const db = await storage();
      const tasks = new TaskEngine(db, SETTINGS);
      const steered = steeredHandler('work');
      tasks.register(steered.handler);
      const task = await tasks.submit({ appId: 'a', kind: 'work', fileId: 'f', input: {} });
      tasks.start();
      await expect.poll(() => steered.runs.length).toBe(1);
      await tasks.stop();
      expect(await tasks.get('a', task.id)).toMatchObject({ state: 'queued', attempts: 0 });
      expect(steered.runs[0]!.context.signal.aborted).toBe(true);
    });

    it('lets several engines over one database share the work without running a task twice', async () => {
      const db = await storage();
      const engines = [engine(db), engine(db), engine(db)];
      const ran: string[] = [];
      for (const each of engines) {
        each.register({
          kind: 'count',
          maxRunMs: 10_000,
          async run(context) {
            ran.push(context.task.id);
            return { result: {} };
          },
        });
      }
      const ids: string[] = [];
      for (let index = 0; index < 30; index++) ids.push((await engines[0]!.submit({ appId: `app${index % 3}`, kind: 'count', fileId: `f${index}`, input: {} })).id);
      await Promise.all(engines.map((each) => each.claimDue()));
      engines.forEach((each) => each.start());
      await expect.poll(() => ran.length).toBe(30);
      expect(new Set(ran).size).toBe(30);
      await expect.poll(async () => (await Promise.all(ids.map(async (id, index) => (await engines[1]!.get(`app${index % 3}`, id)).state))).every((state) => state === 'succeeded')).toBe(true);
    });
  });
}
