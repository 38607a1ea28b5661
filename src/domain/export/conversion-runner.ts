import { Worker } from 'node:worker_threads';
import type { ConversionRequest, ConversionResult } from './convert.js';

/**
 * Runs export conversions in worker threads, one per request: the event loop stays free for requests and
 * collaboration while a 200-page document is written, a memory limit bounds what one conversion may take,
 * and a conversion that passes its deadline (or whose task is aborted) is terminated.
 */

export class ConversionTimeout extends Error {}
export class ConversionFailed extends Error {}

export interface ConversionLimits {
  /** heap of one conversion's worker, in MiB */
  memoryMb: number;
}

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

export class ConversionRunner {
  constructor(private readonly limits: ConversionLimits) {}

  run(request: ConversionRequest, options: { signal: AbortSignal; deadlineMs: number; onProgress?: (fraction: number) => void }): Promise<ConversionResult> {
    return new Promise<ConversionResult>((resolve, reject) => {
      const worker = newWorker(this.limits.memoryMb);
      let settled = false;
      const finish = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        options.signal.removeEventListener('abort', onAbort);
        void worker.terminate();
        outcome();
      };
      const onAbort = () => finish(() => reject(options.signal.reason instanceof Error ? options.signal.reason : new ConversionFailed('conversion aborted')));
      const timer = setTimeout(() => finish(() => reject(new ConversionTimeout(`conversion took longer than ${options.deadlineMs} ms`))), options.deadlineMs);
      if (options.signal.aborted) return onAbort();
      options.signal.addEventListener('abort', onAbort, { once: true });
      worker.on('message', (message: { progress?: number; result?: ConversionResult; error?: string }) => {
        if (message.progress !== undefined) options.onProgress?.(message.progress);
        else if (message.result) finish(() => resolve(message.result!));
        else finish(() => reject(new ConversionFailed(message.error ?? 'conversion failed')));
      });
      worker.on('error', (error) => finish(() => reject(new ConversionFailed(error.message))));
      worker.on('exit', (code) => finish(() => reject(new ConversionFailed(`conversion worker exited with code ${code}`))));
      worker.postMessage(request);
    });
  }
}
