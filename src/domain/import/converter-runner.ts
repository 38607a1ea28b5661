import { Worker } from 'node:worker_threads';
import { ApiError, Errors, type ErrorName } from '../../errors.js';
import type { FileType } from '../files/file-types.js';
import type { ConversionOutput } from './conversion.js';
import type { ZipLimits } from './zip-guard.js';

export interface ConverterJob {
  /** file extension, lower case */
  format: string;
  target: FileType;
  bytes: Uint8Array;
  zipLimits: ZipLimits;
}

export type WorkerMessage =
  | { type: 'progress'; fraction: number }
  | { type: 'done'; output: ConversionOutput }
  | { type: 'refused'; error: ErrorName; message: string }
  | { type: 'failed'; message: string };

export interface ConverterLimits {
  /** heap of one converter thread, MiB */
  memoryMb: number;
  /** one conversion, ms */
  timeoutMs: number;
}

// Under tsx (tests, npm run demo) this module is TypeScript, and so is the worker it starts: that thread
// registers tsx's loader itself before importing it. The build runs the compiled JavaScript as is.
const compiled = import.meta.url.endsWith('.js');
const WORKER_URL = new URL(compiled ? './converter-worker.js' : './converter-worker.ts', import.meta.url);
const WORKER_SOURCE: URL | string = compiled
  ? WORKER_URL
  : `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(WORKER_URL.href)}); })`;

/**
 * Runs one conversion in its own worker thread (never on the main thread, never inside a transaction), with a
 * heap limit and a deadline; the thread is terminated on timeout, on `signal` and when it is done. A converter
 * out of memory refuses the file as too complex (121011), past its deadline as 120002.
 */
export function runConverter(job: ConverterJob, limits: ConverterLimits, onProgress: (fraction: number) => void, signal: AbortSignal): Promise<ConversionOutput> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, {
      eval: typeof WORKER_SOURCE === 'string',
      workerData: job,
      transferList: [job.bytes.buffer as ArrayBuffer],
      resourceLimits: { maxOldGenerationSizeMb: limits.memoryMb, maxYoungGenerationSizeMb: Math.min(64, Math.max(8, Math.floor(limits.memoryMb / 8))) },
      stdout: false,
      stderr: false,
    });
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      void worker.terminate();
      outcome();
    };
    const timer = setTimeout(
      () => finish(() => reject(new ApiError(Errors.taskTimedOut, `converting the file took longer than ${Math.round(limits.timeoutMs / 1000)} s`))),
      limits.timeoutMs,
    );
    const onAbort = () => finish(() => reject(signal.reason instanceof Error ? signal.reason : new Error('conversion aborted')));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (message: WorkerMessage) => {
      switch (message.type) {
        case 'progress':
          onProgress(message.fraction);
          return;
        case 'done':
          return finish(() => resolve(message.output));
        case 'refused':
          return finish(() => reject(new ApiError(Errors[message.error], message.message)));
        case 'failed':
          return finish(() => reject(new ApiError(Errors.importConverterFailed, `the converter failed on this file (${message.message.slice(0, 300)})`)));
      }
    });
    worker.on('error', (error: Error & { code?: string }) =>
      finish(() =>
        reject(
          error.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new ApiError(Errors.importContentTooComplex, `converting the file needs more than the converter's ${limits.memoryMb} MiB of memory`)
            : new ApiError(Errors.importConverterFailed, `the converter stopped: ${error.message.slice(0, 300)}`),
        ),
      ),
    );
    worker.on('exit', (code) => finish(() => reject(new ApiError(Errors.importConverterFailed, `the converter exited (code ${code}) without an answer`))));
  });
}
