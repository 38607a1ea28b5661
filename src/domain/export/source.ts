import * as Y from 'yjs';
import { styleOf, type CellStyle } from '../../model/sheets/cell-style.js';
import { formatOf, isEmptyCell } from '../../model/sheets/cells.js';
import { boxTypeOf, docFromState, richTextOf, slideMaps, SLIDE_HEIGHT, SLIDE_WIDTH, type BoxFrame, type ContentKind } from '../../model/content.js';
import { toProseMirrorNodes, type ProseMirrorNode } from '../../model/rich-text/schema.js';
import { MAX_COLUMNS, MAX_ROWS } from '../../model/sheets/a1.js';
import { calculationOf, FormulaError, type ErrorCode } from '../../model/sheets/formulas/index.js';
import { sheetIds, sheetModels, type CellArea } from '../../model/sheets/sheet-model.js';

/**
 * What an exporter reads: a file's content in the content model (docs/CONTENT-MODEL.md), taken apart into
 * plain data (structured-clonable, so it crosses into a worker thread). Converters map FROM these shapes TO
 * a file format; none of them reads a format back.
 */

/** Bytes of an image the content names (`src`), resolved before conversion: only attachments of the file's app. */
export interface ImageAsset {
  data: Uint8Array;
  mimeType: string;
}

/** Images by the `src` the content names them with; a `src` without an entry is shown by its text alternative. */
export type ImageAssets = Record<string, ImageAsset>;

export interface RichTextSource {
  kind: 'richText';
  title: string;
  blocks: ProseMirrorNode[];
  images: ImageAssets;
}

/** A cell as written to a workbook: its value (computed for formulas) and, for formulas, the text without `=`. */
export interface WorkbookCell {
  row: number;
  column: number;
  value: string | number | boolean | null;
  formula?: string;
  /** the value is this error code (`#DIV/0!`) */
  error?: ErrorCode;
  /** the value is a date-time: `value` is its ISO 8601 text */
  date?: boolean;
  /** the cell's number format code (docs/SHEETS.md "Number formats"); absent: General */
  format?: string;
  /** the cell's style (docs/SHEETS.md "Cell styles"); absent: the default look */
  style?: CellStyle;
}

export interface WorkbookSheet {
  name: string;
  /** non-empty cells, row by row */
  cells: WorkbookCell[];
  /** one past the last used row and column (0 when empty) */
  rowCount: number;
  columnCount: number;
  /** column index → width in pixels, for resized columns */
  columnWidths: Record<number, number>;
  /** rows kept in view at the top (a header row) */
  frozenRows: number;
  /** merged areas, disjoint (docs/SHEETS.md "Merged cells") */
  merges: CellArea[];
}

export interface WorkbookSource {
  kind: 'workbook';
  title: string;
  sheets: WorkbookSheet[];
}

export type SlideBox =
  | { type: 'text'; frame: BoxFrame; blocks: ProseMirrorNode[] }
  | { type: 'image'; frame: BoxFrame; src: string; alt: string };

export interface SlidesSource {
  kind: 'slides';
  title: string;
  width: number;
  height: number;
  slides: Array<{ boxes: SlideBox[] }>;
  images: ImageAssets;
}

export type ExportSource = RichTextSource | WorkbookSource | SlidesSource;

/** The source of a collaborative file's content, from its encoded Yjs state. */
export function sourceFromState(state: Uint8Array, kind: ContentKind, title: string): ExportSource {
  const doc = docFromState(state);
  try {
    switch (kind) {
      case 'document':
      case 'documentPro':
        return { kind: 'richText', title, blocks: toProseMirrorNodes(richTextOf(doc)), images: {} };
      case 'spreadsheet':
        return { kind: 'workbook', title, sheets: workbookSheets(doc) };
      case 'presentation':
        return { kind: 'slides', title, width: SLIDE_WIDTH, height: SLIDE_HEIGHT, slides: slideMaps(doc).map(slideOf), images: {} };
    }
  } finally {
    doc.destroy();
  }
}

function workbookSheets(doc: Y.Doc): WorkbookSheet[] {
  const workbook = calculationOf(doc);
  const ids = sheetIds(doc);
  return sheetModels(doc).map((sheet, index) => {
    const cells: WorkbookCell[] = [];
    let rowCount = 0;
    let columnCount = 0;
    workbook.forEachCell(ids[index]!, { startRow: 0, endRow: MAX_ROWS - 1, startColumn: 0, endColumn: MAX_COLUMNS - 1 }, (row, column, value, formula) => {
      const cell: WorkbookCell = value instanceof FormulaError ? { row, column, value: value.code, error: value.code } : { row, column, value };
      if (formula !== undefined) cell.formula = formula.replace(/^=/, '');
      const storedCell = sheet.cell(row, column);
      const format = formatOf(storedCell);
      if (format !== undefined) cell.format = format;
      const style = styleOf(storedCell);
      if (style !== undefined) cell.style = style;
      cells.push(cell);
      rowCount = Math.max(rowCount, row + 1);
      columnCount = Math.max(columnCount, column + 1);
    });
    // an empty cell with a style (a filled cell) is drawn too; the engine only walks cells with values
    sheet.forEachCell((row, column, stored) => {
      const style = isEmptyCell(stored) ? styleOf(stored) : undefined;
      if (style === undefined) return;
      cells.push({ row, column, value: null, style });
      rowCount = Math.max(rowCount, row + 1);
      columnCount = Math.max(columnCount, column + 1);
    });
    cells.sort((a, b) => a.row - b.row || a.column - b.column);
    return {
      name: sheet.name.length > 0 ? sheet.name : `Sheet${index + 1}`,
      cells,
      rowCount,
      columnCount,
      columnWidths: Object.fromEntries(sheet.columnWidths()),
      frozenRows: sheet.frozenRows,
      merges: sheet.merges(),
    };
  });
}

function number(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

/** A box's frame, malformed values read as defaults (as editors do), kept on the slide. */
function frameOf(box: Y.Map<unknown>): BoxFrame {
  const width = Math.min(Math.max(number(box.get('width'), 400), 1), SLIDE_WIDTH);
  const height = Math.min(Math.max(number(box.get('height'), 100), 1), SLIDE_HEIGHT);
  const x = Math.min(Math.max(number(box.get('x'), 0), 0), SLIDE_WIDTH - width);
  const y = Math.min(Math.max(number(box.get('y'), 0), 0), SLIDE_HEIGHT - height);
  return { x, y, width, height };
}

function slideOf(slide: Y.Map<unknown>): { boxes: SlideBox[] } {
  const boxes = slide.get('boxes');
  if (!(boxes instanceof Y.Array)) return { boxes: [] };
  return {
    boxes: (boxes as Y.Array<unknown>).toArray().flatMap((box): SlideBox[] => {
      if (!(box instanceof Y.Map)) return [];
      const frame = frameOf(box);
      if (boxTypeOf(box) === 'image') {
        const src = box.get('src');
        const alt = box.get('alt');
        return typeof src === 'string' ? [{ type: 'image', frame, src, alt: typeof alt === 'string' ? alt : '' }] : [];
      }
      const content = box.get('content');
      return [{ type: 'text', frame, blocks: content instanceof Y.XmlFragment ? toProseMirrorNodes(content) : [] }];
    }),
  };
}

/** Every image `src` the source names (document images, slide image boxes), each once. */
export function imageSourcesOf(source: ExportSource): string[] {
  const found = new Set<string>();
  const walk = (nodes: readonly ProseMirrorNode[]) => {
    for (const node of nodes) {
      if (node.type === 'image' && typeof node.attrs?.src === 'string') found.add(node.attrs.src);
      if (node.content) walk(node.content);
    }
  };
  if (source.kind === 'richText') walk(source.blocks);
  if (source.kind === 'slides') {
    for (const slide of source.slides) {
      for (const box of slide.boxes) {
        if (box.type === 'image') found.add(box.src);
        else walk(box.blocks);
      }
    }
  }
  return [...found];
}
