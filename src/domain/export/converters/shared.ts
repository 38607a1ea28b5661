import type { ProseMirrorNode } from '../../../model/rich-text/schema.js';
import { numberToText } from '../../../model/sheets/formulas/values.js';
import { formatValue } from '../../../model/sheets/number-format.js';
import type { ExportSource, WorkbookCell } from '../source.js';

/**
 * The text a workbook cell shows (csv fields, pdf cells): its value under its number format when it has one,
 * else numbers with 15 significant digits, booleans TRUE / FALSE, errors as their code.
 */
export function shownCellText(cell: WorkbookCell): string {
  if (cell.value === null) return '';
  if (cell.format !== undefined && cell.error === undefined) return formatValue(cell.value, cell.format);
  if (typeof cell.value === 'number') return numberToText(cell.value);
  if (typeof cell.value === 'boolean') return cell.value ? 'TRUE' : 'FALSE';
  return cell.value;
}

/** How far a conversion is: converters call `step()` once per unit of work (a block, a row, a slide). */
export interface Progress {
  step(count?: number): void;
}

/**
 * Counts steps against the units a source holds and reports the fraction done (0-1) when it moved by at
 * least a percent (and once when done), so a large file does not flood the task with progress writes.
 */
export class ProgressMeter implements Progress {
  private done = 0;
  private reported = 0;

  constructor(
    private readonly total: number,
    private readonly report: (fraction: number) => void,
  ) {}

  step(count = 1): void {
    this.done += count;
    const fraction = this.total > 0 ? Math.min(1, this.done / this.total) : 1;
    if (fraction - this.reported >= 0.01 || (fraction === 1 && this.reported < 1)) {
      this.reported = fraction;
      this.report(fraction);
    }
  }
}

function countBlocks(nodes: readonly ProseMirrorNode[]): number {
  let count = 0;
  for (const node of nodes) {
    count += 1;
    if (node.content && node.type !== 'paragraph' && node.type !== 'heading' && node.type !== 'codeBlock') count += countBlocks(node.content);
  }
  return count;
}

/** Units of work in a source, as converters step through them: blocks, cells, or boxes of slides. */
export function unitsOf(source: ExportSource): number {
  switch (source.kind) {
    case 'richText':
      return countBlocks(source.blocks);
    case 'workbook':
      return source.sheets.reduce((sum, sheet) => sum + sheet.cells.length, 0);
    case 'slides':
      return source.slides.reduce((sum, slide) => sum + 1 + slide.boxes.length, 0);
  }
}

/** A link target safe to write into an exported file: http(s) and mailto only (no `javascript:`). */
export function safeHref(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const url = new URL(value);
    return ['http:', 'https:', 'mailto:'].includes(url.protocol) ? url.href : undefined;
  } catch {
    return undefined;
  }
}
