import { afterAll, describe, expect, it } from 'vitest';
import { ConversionFailed } from '../../src/domain/conversion/conversion-errors.js';
import { WorkerPool } from '../../src/domain/conversion/worker-pool.js';
import type { ProbeJob } from './fixtures/probe-worker.js';

/**
 * What import and export both rely on in the worker pool, beyond what test/export/limits.test.ts shows with
 * export's own jobs: a job past the heap limit fails as out of memory (import answers 121011 for it), and a
 * thread that answered is reused for the next job.
 */
describe('worker pool', { timeout: 120_000 }, () => {
  const pool = new WorkerPool<ProbeJob, { threadId: number }>(new URL('./fixtures/probe-worker.js', import.meta.url), { memoryMb: 64, idleWorkers: 1 });
  afterAll(() => pool.close());
  const options = () => ({ signal: new AbortController().signal, deadlineMs: 60_000 });

  it('reuses a thread that answered; a job past the heap limit fails as out of memory and ends its thread', async () => {
    const progress: number[] = [];
    const first = await pool.run({ op: 'thread' }, { ...options(), onProgress: (fraction) => progress.push(fraction) });
    expect(progress).toEqual([1]);
    expect((await pool.run({ op: 'thread' }, options())).threadId).toBe(first.threadId);

    const hog = pool.run({ op: 'hog' }, options());
    await expect(hog).rejects.toBeInstanceOf(ConversionFailed);
    await expect(hog).rejects.toMatchObject({ why: 'out-of-memory', message: 'the conversion needs more than its 64 MiB of memory' });
    expect((await pool.run({ op: 'thread' }, options())).threadId).not.toBe(first.threadId);
  });

  it('with keepHeapMb, a thread left holding more than that after its job is ended, not kept (an import pool)', async () => {
    const keeping = new WorkerPool<ProbeJob, { threadId: number }>(new URL('./fixtures/probe-worker.js', import.meta.url), { memoryMb: 64, idleWorkers: 1, keepHeapMb: 32 });
    try {
      const small = await keeping.run({ op: 'thread' }, options());
      expect((await keeping.run({ op: 'thread' }, options())).threadId).toBe(small.threadId);
      const large = await keeping.run({ op: 'thread', holdMb: 40 }, options());
      expect(large.threadId).toBe(small.threadId);
      expect((await keeping.run({ op: 'thread' }, options())).threadId).not.toBe(large.threadId);
    } finally {
      await keeping.close();
    }
  });
});
