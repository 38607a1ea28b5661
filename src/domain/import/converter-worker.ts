import { serveJobs } from '../conversion/worker-pool.js';
import { ConversionError, type ConverterAnswer, type ConverterJob, type ConverterOutput } from './conversion.js';
import { formatReader } from './formats/index.js';
import { inspectZip } from './zip-guard.js';

/**
 * The converter thread: reads one file (formats/*) and builds what the target type stores, reporting progress
 * as it goes. It never touches the database; the task commits what it answers. What builds the output is loaded
 * for the target that needs it, like the format readers: a spreadsheet's thread never loads the rich-text schema
 * (Tiptap, ProseMirror) nor the attachment service that build-output.ts brings, a document's never loads the
 * sheet model (docs/PERFORMANCE.md "The million-cell import within its budget").
 */
async function convert(job: ConverterJob, progress: (fraction: number) => void): Promise<ConverterOutput> {
  const reader = await formatReader(job.format);
  if (!reader) throw new ConversionError('importFormatUnsupported', `files of type ${job.format} cannot be imported`);
  const bytes = Buffer.from(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength);
  if (reader.zip) await inspectZip(bytes, job.zipLimits);
  progress(0.05);
  if (job.target === 'spreadsheet' && reader.readWorkbook) {
    // rows go straight from the reader to the encoder: no cell is kept as an object (docs/IMPORT-EXPORT.md). No
    // full collections are forced along the way any more: since the encoder writes blocks (model 3) they cost a
    // million-cell import 1.7-3.9 s of CPU for no lower peak (docs/PERFORMANCE.md "The million-cell import within
    // its budget")
    const { SpreadsheetEncoder } = await import('./spreadsheet-encoder.js');
    const encoder = new SpreadsheetEncoder();
    await reader.readWorkbook(bytes, encoder, (fraction) => progress(0.05 + 0.9 * fraction));
    return { target: 'content', images: [], stateParts: encoder.finish() };
  }
  const content = await reader.read(bytes, (fraction) => progress(0.05 + 0.9 * fraction));
  const { buildOutput } = await import('./build-output.js');
  const output = buildOutput(content, job.target);
  return output.target === 'content' ? { target: 'content', images: output.images, stateParts: [output.state] } : output;
}

// A refusal is an answer, not a failure: it names the error the import fails with (ConversionError's name cannot
// cross the thread boundary as an exception).
serveJobs<ConverterJob, ConverterAnswer>(
  async (job, progress) => {
    try {
      return { output: await convert(job, progress) };
    } catch (error) {
      if (error instanceof ConversionError) return { refused: error.error, message: error.message };
      if (error instanceof RangeError) return { refused: 'importContentTooComplex', message: 'the file is nested too deeply to convert' };
      throw error;
    }
  },
  (answer) => ('output' in answer && answer.output.target === 'content' ? [...new Set(answer.output.stateParts.map((part) => part.buffer as ArrayBuffer))] : []),
);
