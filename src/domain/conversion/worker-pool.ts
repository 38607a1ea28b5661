import { parentPort, Worker } from 'node:worker_threads';
import { abortReason, ConversionFailed, ConversionTimedOut } from './conversion-errors.js';

/**
 * Conversions in worker threads, for import and export alike: the event loop stays free for requests and
 * collaboration while a large file is read or written, a heap limit bounds what one conversion may take, and a
 * conversion past its deadline (or whose task is aborted) is terminated with its thread. A thread that answered
 * is kept idle for a while and reused, so the steps of one export, or the next import, do not pay for starting
 * one (under tsx, compiling the converters) each time.
 *
 * A kind's work is a worker entry module that calls `serveJobs(run)`; the main thread runs jobs through a
 * `WorkerPool` of that entry. A job and its result must be structured-clonable.
 */

export interface WorkerPoolLimits {
  /** heap of one worker thread, MiB; a job needing more fails with ConversionFailed `out-of-memory` */
  memoryMb: number;
  /** idle workers kept for reuse */
  idleWorkers?: number;
  /** an idle worker is ended after this long, ms */
  idleMs?: number;
  /**
   * a worker whose memory (heap and buffers) exceeds this many MiB after a job is ended instead of kept idle:
   * V8 gives a heap's pages back to the system only slowly, so a thread kept after a large job holds its peak
   * for the idle time. Unset: always kept.
   */
  keepHeapMb?: number;
}

export interface JobOptions {
  signal: AbortSignal;
  /** the job fails with ConversionTimedOut past this, ms */
  deadlineMs: number;
  onProgress?: (fraction: number) => void;
  /** buffers of the job moved to the worker instead of copied (unusable here afterwards) */
  transfer?: ArrayBuffer[];
}

/** `heapBytes`: the worker's heap and buffers after the job (its isolate's, not the process's) */
type WorkerMessage<Result> = { progress: number } | { result: Result; heapBytes: number } | { error: string };

const DEFAULT_IDLE_WORKERS = 2;
const DEFAULT_IDLE_MS = 30_000;
/**
 * Young generation of a worker, at most: V8 keeps it resident once used. 32 MiB costs a large import no time
 * against 64 MiB and keeps about 40 MiB less resident; 16 MiB made it twice as slow (docs/PERFORMANCE.md).
 */
const YOUNG_GENERATION_MAX_MB = 32;

// Under tsx (tests, npm run demo) this module is TypeScript, and so is the entry a worker loads: that thread
// registers tsx's loader itself first (tsx is a development dependency, never needed by a build, which runs the
// compiled .js as is).
const COMPILED = import.meta.url.endsWith('.js');

function startWorker(entry: URL, memoryMb: number): Worker {
  const resourceLimits = { maxOldGenerationSizeMb: memoryMb, maxYoungGenerationSizeMb: Math.min(YOUNG_GENERATION_MAX_MB, Math.max(8, Math.floor(memoryMb / 8))) };
  if (COMPILED) return new Worker(entry, { resourceLimits });
  const source = entry.href.replace(/\.js$/, '.ts');
  return new Worker(`import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(source)}); })`, { eval: true, resourceLimits });
}

interface IdleWorker {
  worker: Worker;
  timer: NodeJS.Timeout;
}

export class WorkerPool<Job, Result> {
  private readonly idle: IdleWorker[] = [];

  /** `entry`: the worker module's compiled name (`new URL('./x-worker.js', import.meta.url)`). */
  constructor(
    private readonly entry: URL,
    private readonly limits: WorkerPoolLimits,
  ) {}

  run(job: Job, options: JobOptions): Promise<Result> {
    if (options.signal.aborted) return Promise.reject(abortReason(options.signal));
    const worker = this.take();
    worker.ref();
    return new Promise<Result>((resolve, reject) => {
      const finish = (outcome: { result: Result; heapBytes: number } | { error: Error }) => {
        clearTimeout(timer);
        options.signal.removeEventListener('abort', onAbort);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        if ('result' in outcome) {
          if (this.limits.keepHeapMb === undefined || outcome.heapBytes <= this.limits.keepHeapMb * 1024 * 1024) {
            this.putBack(worker);
            resolve(outcome.result);
            return;
          }
          // the caller goes on to store the result (a large import: tens of MiB more): the thread's heap is
          // given back first, so the two do not add up
          const result = outcome.result;
          worker.terminate().then(
            () => resolve(result),
            () => resolve(result),
          );
        } else {
          void worker.terminate();
          reject(outcome.error);
        }
      };
      const onAbort = () => finish({ error: abortReason(options.signal) });
      const onMessage = (message: WorkerMessage<Result>) => {
        if ('progress' in message) options.onProgress?.(message.progress);
        else if ('result' in message) finish(message);
        else finish({ error: new ConversionFailed(message.error) });
      };
      const onError = (error: Error & { code?: string }) =>
        finish({
          error:
            error.code === 'ERR_WORKER_OUT_OF_MEMORY'
              ? new ConversionFailed(`the conversion needs more than its ${this.limits.memoryMb} MiB of memory`, 'out-of-memory')
              : new ConversionFailed(error.message),
        });
      const onExit = (code: number) => finish({ error: new ConversionFailed(`the conversion worker exited (code ${code}) without an answer`) });
      const timer = setTimeout(() => finish({ error: new ConversionTimedOut(`the conversion took longer than ${Math.ceil(options.deadlineMs / 1000)} s`) }), options.deadlineMs);
      options.signal.addEventListener('abort', onAbort, { once: true });
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      worker.postMessage(job, options.transfer ?? []);
    });
  }

  /** Ends the idle workers (at shutdown). */
  async close(): Promise<void> {
    const idle = this.idle.splice(0);
    for (const entry of idle) clearTimeout(entry.timer);
    await Promise.all(idle.map((entry) => entry.worker.terminate()));
  }

  private take(): Worker {
    const reused = this.idle.pop();
    if (!reused) return startWorker(this.entry, this.limits.memoryMb);
    clearTimeout(reused.timer);
    return reused.worker;
  }

  private putBack(worker: Worker): void {
    if (this.idle.length >= (this.limits.idleWorkers ?? DEFAULT_IDLE_WORKERS)) {
      void worker.terminate();
      return;
    }
    const entry: IdleWorker = {
      worker,
      timer: setTimeout(() => {
        this.idle.splice(this.idle.indexOf(entry), 1);
        void worker.terminate();
      }, this.limits.idleMs ?? DEFAULT_IDLE_MS),
    };
    entry.timer.unref();
    // an idle worker never keeps the process alive
    worker.unref();
    this.idle.push(entry);
  }
}

/**
 * The worker side: answers each job, one at a time, with progress messages, then its result or the message of
 * what it threw. `transferOf` names buffers of a result to move to the main thread instead of copying them.
 */
export function serveJobs<Job, Result>(run: (job: Job, progress: (fraction: number) => void) => Promise<Result>, transferOf?: (result: Result) => ArrayBuffer[]): void {
  const port = parentPort;
  if (!port) throw new Error('serveJobs runs in a worker thread');
  const post = (message: WorkerMessage<Result>, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);
  port.on('message', (job: Job) => {
    run(job, (fraction) => post({ progress: fraction })).then(
      (result) => {
        const memory = process.memoryUsage();
        post({ result, heapBytes: memory.heapTotal + memory.external }, transferOf?.(result));
      },
      (error: unknown) => post({ error: error instanceof Error ? error.message : String(error) }),
    );
  });
}
