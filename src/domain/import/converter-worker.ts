import { parentPort, workerData } from 'node:worker_threads';
import { buildOutput } from './build-output.js';
import { ConversionError, type ConversionOutput } from './conversion.js';
import type { ConverterJob, WorkerMessage } from './converter-runner.js';
import { FORMAT_READERS } from './formats/index.js';
import { inspectZip } from './zip-guard.js';

/**
 * The converter thread: reads one file (formats/*) and builds what the target type stores, posting progress
 * as it goes. It never touches the database; the task commits what it answers.
 */
async function convert(job: ConverterJob): Promise<ConversionOutput> {
  const reader = FORMAT_READERS.get(job.format);
  if (!reader) throw new ConversionError('importFormatUnsupported', `files of type ${job.format} cannot be imported`);
  const bytes = Buffer.from(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength);
  const post = (message: WorkerMessage, transfer: ArrayBuffer[] = []) => parentPort!.postMessage(message, transfer);
  if (reader.zip) await inspectZip(bytes, job.zipLimits);
  post({ type: 'progress', fraction: 0.05 });
  const content = await reader.read(bytes, (fraction) => post({ type: 'progress', fraction: 0.05 + 0.65 * fraction }));
  return buildOutput(content, job.target, (fraction) => post({ type: 'progress', fraction: 0.7 + 0.3 * fraction }));
}

const job = workerData as ConverterJob;
convert(job).then(
  (output) => {
    const transfer = output.target === 'content' ? [output.state.buffer as ArrayBuffer] : [];
    parentPort!.postMessage({ type: 'done', output } satisfies WorkerMessage, transfer);
  },
  (error: unknown) => {
    const message: WorkerMessage =
      error instanceof ConversionError
        ? { type: 'refused', error: error.error, message: error.message }
        : error instanceof RangeError
          ? { type: 'refused', error: 'importContentTooComplex', message: 'the file is nested too deeply to convert' }
          : { type: 'failed', message: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
    parentPort!.postMessage(message);
  },
);
