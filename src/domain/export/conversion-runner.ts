import { Worker } from 'node:worker_threads';
import type { ConversionRequest, ConversionResult, ResultOf } from './convert.js';

/**
 * Runs export conversions in worker threads: the event loop stays free for requests and collaboration while
 * a 200-page document is written, a memory limit bounds what one conversion may take, and a conversion that
 * passes its deadline (or whose task is aborted) is terminated with its worker. A worker that finished
 * cleanly is kept idle for a while and reused, so the steps of one export (and the next export) do not pay
 * for starting a thread each time.
 */

export class ConversionTimeout extends Error {}
export class ConversionFailed extends Error {}

export interface ConversionLimits {
  /** heap of one conversion worker, in MiB */
  memoryMb: number;
  /** idle workers kept for reuse */
  idleWorkers?: number;
  /** an idle worker is ended after this long, ms */
  idleMs?: number;
}

const DEFAULT_IDLE_WORKERS = 2;
const DEFAULT_IDLE_MS = 30_000;

/**
 * The worker: the compiled .js beside this file in a build; under tsx or vitest the .ts source, loaded after
 * registering tsx's loader inside the worker (tsx is a development dependency, never needed by a build).
 */
function newWorker(memoryMb: number): Worker {
  const resourceLimits = { maxOldGenerationSizeMb: memoryMb };
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./convert-worker.js', import.meta.url), { resourceLimits });
  const entry = new URL('./convert-worker.ts', import.meta.url).href;
  const bootstrap = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry)}); })`;
  return new Worker(bootstrap, { eval: true, resourceLimits });
}

interface IdleWorker {
  worker: Worker;
  timer: NodeJS.Timeout;
}

type WorkerMessage = { progress: number } | { result: ConversionResult } | { error: string };

export class ConversionRunner {
  private readonly idle: IdleWorker[] = [];

  constructor(private readonly limits: ConversionLimits) {}

  private take(): Worker {
    const reused = this.idle.pop();
    if (!reused) return newWorker(this.limits.memoryMb);
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
    worker.unref();
    this.idle.push(entry);
  }

  run<R extends ConversionRequest>(request: R, options: { signal: AbortSignal; deadlineMs: number; onProgress?: (fraction: number) => void }): Promise<ResultOf<R>> {
    if (options.signal.aborted) return Promise.reject(options.signal.reason instanceof Error ? options.signal.reason : new ConversionFailed('conversion aborted'));
    const worker = this.take();
    worker.ref();
    return new Promise<ResultOf<R>>((resolve, reject) => {
      const finish = (outcome: { result: ConversionResult } | { error: Error }) => {
        clearTimeout(timer);
        options.signal.removeEventListener('abort', onAbort);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        if ('result' in outcome) {
          this.putBack(worker);
          // the worker answers a request with the result of its op (convert.ts runConversion)
          resolve(outcome.result as ResultOf<R>);
        } else {
          void worker.terminate();
          reject(outcome.error);
        }
      };
      const onAbort = () => finish({ error: options.signal.reason instanceof Error ? options.signal.reason : new ConversionFailed('conversion aborted') });
      const onMessage = (message: WorkerMessage) => {
        if ('progress' in message) options.onProgress?.(message.progress);
        else if ('result' in message) finish({ result: message.result });
        else finish({ error: new ConversionFailed(message.error) });
      };
      const onError = (error: Error) => finish({ error: new ConversionFailed(error.message) });
      const onExit = (code: number) => finish({ error: new ConversionFailed(`conversion worker exited with code ${code}`) });
      const timer = setTimeout(() => finish({ error: new ConversionTimeout(`conversion took longer than ${options.deadlineMs} ms`) }), options.deadlineMs);
      options.signal.addEventListener('abort', onAbort, { once: true });
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      worker.postMessage(request);
    });
  }

  /** Ends the idle workers (at shutdown). */
  async close(): Promise<void> {
    const idle = this.idle.splice(0);
    for (const entry of idle) clearTimeout(entry.timer);
    await Promise.all(idle.map((entry) => entry.worker.terminate()));
  }
}
