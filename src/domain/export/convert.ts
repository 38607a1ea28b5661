import type { ContentKind } from '../../model/content.js';
import type { ExportWatermark, RenderedHtml } from './converters/html.js';
import { ProgressMeter, unitsOf } from './converters/shared.js';
import { sourceFromState, type ExportSource, type WorkbookSource } from './source.js';
import { tableWorkbook, type StoredTable } from './table-source.js';

/**
 * The CPU-heavy half of an export, as messages a worker thread answers (convert-worker.ts): taking a
 * file's Yjs state (or a table base's stored rows) apart into an ExportSource, and writing a source as a file or as the HTML page the
 * renderer prints. Everything in and out is structured-clonable. Each format's module (and its library:
 * docx, exceljs, pptxgenjs) is loaded when first asked for, so a fresh worker starts with only what it needs.
 */

/** The worker thread's entry, by its compiled name (the worker pool loads the .ts under tsx). */
export const CONVERT_WORKER = new URL('./convert-worker.js', import.meta.url);

/** Formats written directly from a source; pdf and jpg go through `html` and the renderer. */
export type FileTarget = 'docx' | 'md' | 'xlsx' | 'csv' | 'pptx';

export type ConversionRequest =
  | { op: 'source'; state: Uint8Array; kind: ContentKind; title: string }
  | { op: 'tables'; tables: StoredTable[]; title: string }
  | { op: 'file'; target: FileTarget; source: ExportSource }
  | { op: 'html'; source: ExportSource; watermark?: ExportWatermark };

export type ConversionResult = { op: 'source'; source: ExportSource } | { op: 'tables'; source: WorkbookSource } | { op: 'file'; bytes: Uint8Array } | { op: 'html'; rendered: RenderedHtml };

/** The result a request gets: the one of the same `op`. */
export type ResultOf<R extends ConversionRequest> = Extract<ConversionResult, { op: R['op'] }>;

function mismatch(target: string, source: ExportSource): Error {
  return new Error(`a ${source.kind} source cannot be written as ${target}`);
}

async function writeFile(target: FileTarget, source: ExportSource, meter: ProgressMeter): Promise<Uint8Array> {
  switch (target) {
    case 'docx':
      if (source.kind !== 'richText') throw mismatch(target, source);
      return (await import('./converters/docx.js')).toDocx(source, meter);
    case 'md':
      if (source.kind !== 'richText') throw mismatch(target, source);
      return (await import('./converters/markdown.js')).toMarkdown(source, meter);
    case 'xlsx':
      if (source.kind !== 'workbook') throw mismatch(target, source);
      return (await import('./converters/xlsx.js')).toXlsx(source, meter);
    case 'csv':
      if (source.kind !== 'workbook') throw mismatch(target, source);
      return (await import('./converters/csv.js')).toCsv(source, meter);
    case 'pptx':
      if (source.kind !== 'slides') throw mismatch(target, source);
      return (await import('./converters/pptx.js')).toPptx(source, meter);
  }
}

/** Draws a workbook's charts as SVG; ECharts is loaded only for a workbook that has some. */
async function drawCharts(source: WorkbookSource): Promise<void> {
  const charts = source.sheets.flatMap((sheet) => sheet.charts ?? []);
  if (charts.length === 0) return;
  const { chartSvg } = await import('./chart-svg.js');
  for (const chart of charts) chart.svg = chartSvg(chart.chart, chart.data);
}

/** Runs one request; `progress` receives the fraction done (0-1) of a `file` or `html` request. */
export async function runConversion(request: ConversionRequest, progress: (fraction: number) => void): Promise<ConversionResult> {
  switch (request.op) {
    case 'source': {
      const source = sourceFromState(request.state, request.kind, request.title);
      if (source.kind === 'workbook') await drawCharts(source);
      return { op: 'source', source };
    }
    case 'tables':
      return { op: 'tables', source: tableWorkbook(request.title, request.tables) };
    case 'file':
      return { op: 'file', bytes: await writeFile(request.target, request.source, new ProgressMeter(unitsOf(request.source), progress)) };
    case 'html': {
      const [{ toHtml }, { fontFaceCss }] = await Promise.all([import('./converters/html.js'), import('./render/fonts.js')]);
      return { op: 'html', rendered: toHtml(request.source, new ProgressMeter(unitsOf(request.source), progress), fontFaceCss(), request.watermark) };
    }
  }
}
