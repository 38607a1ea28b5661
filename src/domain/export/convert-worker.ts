import { parentPort } from 'node:worker_threads';
import { runConversion, type ConversionRequest } from './convert.js';

/**
 * Worker-thread entry of export conversions (conversion-runner.ts starts and reuses it): answers each
 * request, one at a time, with `{progress}` messages, then `{result}` or `{error}`.
 */
parentPort?.on('message', (request: ConversionRequest) => {
  runConversion(request, (fraction) => parentPort?.postMessage({ progress: fraction })).then(
    (result) => parentPort?.postMessage({ result }),
    (error: unknown) => parentPort?.postMessage({ error: error instanceof Error ? error.message : String(error) }),
  );
});
