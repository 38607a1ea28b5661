import { describe, expect, it } from 'vitest';
import { untilAborted } from '../../src/tasks/until-aborted.js';

/** Unhandled rejections seen while `run` runs and a few turns of the event loop after it. */
async function unhandledDuring(run: () => Promise<void>): Promise<unknown[]> {
  const seen: unknown[] = [];
  const listener = (reason: unknown) => seen.push(reason);
  process.on('unhandledRejection', listener);
  try {
    await run();
    await new Promise((resolve) => setTimeout(resolve, 20));
  } finally {
    process.off('unhandledRejection', listener);
  }
  return seen;
}

describe('untilAborted: a task run raced against its abort signal', () => {
  it('answers the abort reason at once when the signal fired before the run was passed in, and still settles the run', async () => {
    const controller = new AbortController();
    controller.abort(new Error('shutdown'));
    let failLater!: (error: Error) => void;
    const work = new Promise<string>((_resolve, reject) => {
      failLater = reject;
    });
    const seen = await unhandledDuring(async () => {
      await expect(untilAborted(work, controller.signal)).rejects.toThrow('shutdown');
      // the run fails afterwards (its lease is gone): this must not be an unhandled rejection
      failLater(new Error('task is no longer leased by this process'));
    });
    expect(seen).toEqual([]);
  });

  it('answers the run when it ends first, and the abort reason when the signal fires first', async () => {
    expect(await untilAborted(Promise.resolve(42), new AbortController().signal)).toBe(42);
    await expect(untilAborted(Promise.reject('plain'), new AbortController().signal)).rejects.toThrow('plain');
    const controller = new AbortController();
    const pending = untilAborted(new Promise<number>(() => undefined), controller.signal);
    controller.abort(new Error('timeout'));
    await expect(pending).rejects.toThrow('timeout');
  });
});
