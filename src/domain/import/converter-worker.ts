import v8 from 'node:v8';
import vm from 'node:vm';
import { serveJobs } from '../conversion/worker-pool.js';
import { ConversionError, type ConverterAnswer, type ConverterJob, type ConverterOutput, type WorkbookSink } from './conversion.js';
import { formatReader } from './formats/index.js';
import { inspectZip } from './zip-guard.js';

/** Cells of a streamed spreadsheet between two full collections (collectingEvery). */
const CELLS_PER_COLLECTION = 100_000;

let collect: (() => void) | undefined;

/**
 * A streamed spreadsheet's sink that runs a full garbage collection every `cells` cells. V8 promotes the batches
 * of rows exceljs parses (alive across the reader's awaits) to the old generation and lets them pile up before
 * collecting: on 1,000,000 cells the heap reached 97 MiB for 16 MiB of live data; collected every 100,000
 * cells it stays under 66 MiB, in the same time (docs/PERFORMANCE.md). A worker cannot be given --expose-gc
 * (no V8 flags of its own), so `gc` is taken the way Jest's leak detector takes it: the flag set at run time,
 * the function read from a new context.
 */
function collectingEvery(cells: number, sink: WorkbookSink): WorkbookSink {
  if (!collect) {
    v8.setFlagsFromString('--expose-gc');
    collect = vm.runInNewContext('gc') as () => void;
  }
  const collectNow = collect;
  let since = 0;
  return {
    beginSheet: (name, position) => sink.beginSheet(name, position),
    merges: (areas) => sink.merges(areas),
    filter: (filter) => sink.filter(filter),
    validations: (rules) => sink.validations(rules),
    conditionalFormats: (rules) => sink.conditionalFormats(rules),
    protectedSheet: () => sink.protectedSheet(),
    charts: (charts) => sink.charts(charts),
    rowHeights: (heights) => sink.rowHeights(heights),
    columns: (columns) => sink.columns(columns),
    protectedRanges: (ranges) => sink.protectedRanges(ranges),
    row: (index, row) => {
      sink.row(index, row);
      since += row.length;
      if (since >= cells) {
        since = 0;
        collectNow();
      }
    },
  };
}

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
    // rows go straight from the reader to the encoder: no cell is kept as an object (docs/IMPORT-EXPORT.md)
    const { SpreadsheetEncoder } = await import('./spreadsheet-encoder.js');
    const encoder = new SpreadsheetEncoder();
    await reader.readWorkbook(bytes, collectingEvery(CELLS_PER_COLLECTION, encoder), (fraction) => progress(0.05 + 0.9 * fraction));
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
