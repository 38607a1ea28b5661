import type { ImageCrop, PlaceholderRole, ShapeLook, SlideTransition, ThemeName } from '../../model/slides.js';
import type { ProseMirrorNode } from '../../model/rich-text/schema.js';
import type { PageSetup } from '../../model/rich-text/page-setup.js';
import type { BoxFrame, Cell } from '../../model/content.js';
import type { ErrorName } from '../../errors.js';
import type { FileType } from '../../model/file-types.js';
import type { CellArea } from '../../model/sheets/sheet-model.js';
import type { ImportedFilter } from '../../model/sheets/filter.js';
import type { ImportedValidation } from '../../model/sheets/data-validation.js';
import type { ConditionalRule } from '../../model/sheets/conditional-formats.js';
import type { SheetChart } from '../../model/sheets/charts.js';
import type { CellStyle } from '../../model/sheets/cell-style.js';

/**
 * What a format module reads a file into: the content model's terms, not the file format's. Three shapes cover
 * every format: rich text (documents), a workbook (spreadsheets and tables), slides (presentations).
 */
export type ReadContent =
  | { shape: 'richText'; blocks: ProseMirrorNode[]; images: ExtractedImage[]; pageSetup?: PageSetup }
  | { shape: 'workbook'; sheets: ReadSheet[] }
  | { shape: 'slides'; slides: ReadSlide[]; images: ExtractedImage[] };

/** An image found inside the file (a docx or pptx picture): stored as an attachment of the new file; `guid` is already in the content. */
export interface ExtractedImage {
  guid: string;
  data: Uint8Array;
  filename: string;
}

export interface ReadCell extends Cell {
  /** the value was a date (v is its spreadsheet serial number): a table column of such cells is a Date column */
  date?: true;
}

export interface ReadSheet {
  name: string;
  /** rows of cells, `undefined` for an empty cell; ragged rows are fine */
  rows: Array<Array<ReadCell | undefined>>;
}

/** A box of a slide in the model's points: a text box with its rich text, or a picture (one of `images` by guid). */
export type ReadBox = BoxFrame & {
  /** the group it was in on the file's slide (boxes sharing it are grouped); absent when it stood alone */
  group?: string;
} & ({ type: 'text'; blocks: ProseMirrorNode[]; placeholder?: PlaceholderRole } | { type: 'image'; guid: string; alt: string; crop?: ImageCrop } | { type: 'shape'; look: ShapeLook });

export interface ReadSlide {
  /** in drawing order, the last one on top */
  boxes: ReadBox[];
  /** speaker notes, plain text */
  notes?: string;
  /** one of the model's themes, when the file's slide is in it (its background colour) */
  theme?: ThemeName;
  /** how the slide comes in when presenting; absent for none */
  transition?: SlideTransition;
}

/** Reports how far reading got, 0-1 (bytes or rows read). */
export type ReportFraction = (fraction: number) => void;

/**
 * Where a streaming workbook reader hands what it reads, sheet by sheet and row by row, instead of returning
 * every cell at once: a million cells held as objects cost more memory than the file they came from.
 */
export interface WorkbookSink {
  /** a sheet starts; its rows follow until the next sheet. `position` orders the sheets (lower first; ties keep the order they came in) */
  beginSheet(name: string, position: number): void;
  /** a row of the current sheet: 0-based `index`, each greater than the last; `undefined` for an empty cell */
  row(index: number, cells: ReadonlyArray<ReadCell | undefined>): void;
  /** the current sheet's merged areas (after its rows): disjoint, two cells or more */
  merges(areas: readonly CellArea[]): void;
  /** the current sheet's filter (after its rows; docs/SHEETS.md "Sort and filter") */
  filter(filter: ImportedFilter): void;
  /** the current sheet's data validation rules (after its rows; docs/SHEETS.md "Data validation") */
  validations(rules: readonly ImportedValidation[]): void;
  /** the current sheet's conditional formats (after its rows; docs/SHEETS.md "Conditional formatting") */
  conditionalFormats(rules: readonly ConditionalRule[]): void;
  /** the current sheet is protected (after its rows): it imports as a sheet lock (docs/SHEETS.md "Locks") */
  protectedSheet(): void;
  /** the current sheet's charts the model draws (after its rows; docs/SHEETS.md "Charts") */
  charts(charts: readonly SheetChart[]): void;
  /** the current sheet's rows of a height set in the file (after its rows): row → pixels (docs/SHEETS.md "Row heights and column widths") */
  rowHeights(heights: ReadonlyMap<number, number>): void;
  /** the current sheet's columns of a width set in the file, or hidden, or styled (after its rows; docs/SHEETS.md "Row heights and column widths") */
  columns(columns: readonly ImportedColumns[]): void;
  /** the current sheet's whole-row styles (after its rows): row → style (docs/SHEETS.md "Cell styles") */
  rowStyles(styles: ReadonlyMap<number, CellStyle>): void;
  /** the current sheet's protected ranges (after its rows): each imports as a range lock (docs/SHEETS.md "Locks") */
  protectedRanges(ranges: readonly ImportedProtectedRange[]): void;
  /** the current sheet's hidden rows, 0-based and in order (after its rows; docs/SHEETS.md "Hidden rows and columns") */
  hiddenRows(rows: readonly number[]): void;
  /** the current sheet's frozen pane (after its rows; docs/SHEETS.md "Frozen rows") */
  frozenPane(pane: ImportedFrozenPane): void;
}

/** The rows above and columns left of a workbook's frozen pane: what stays in view as the sheet scrolls. */
export interface ImportedFrozenPane {
  rows: number;
  columns: number;
}

/** An xlsx `<protectedRange>`: its name and its areas. */
export interface ImportedProtectedRange {
  name: string;
  areas: CellArea[];
}

/** Columns `startColumn` to `endColumn` (0-based) as a workbook gives them: their width in pixels, whether hidden, their style. */
export interface ImportedColumns {
  startColumn: number;
  endColumn: number;
  width: number | undefined;
  hidden: boolean;
  style?: CellStyle;
}

/**
 * Each column's style of a sheet's imported columns below `columnCount` (the last entry naming a column wins), column
 * → style. The entries are taken from the last back and each column is set once (`unset` skips those set already),
 * so a file of many overlapping entries, each over every column, costs a step per column, not per entry and column.
 */
export function importedColumnStyles(columns: readonly ImportedColumns[], columnCount: number): Map<number, CellStyle> {
  const found = new Map<number, CellStyle>();
  // unset[c]: towards the first column at or after c not set yet (columnCount: none)
  const unset = Int32Array.from({ length: columnCount + 1 }, (_, column) => column);
  const firstUnset = (column: number): number => {
    while (unset[column] !== column) column = unset[column] = unset[unset[column]!]!;
    return column;
  };
  for (let entry = columns.length - 1; entry >= 0; entry--) {
    const { startColumn, endColumn, style } = columns[entry]!;
    const last = Math.min(endColumn, columnCount - 1);
    if (style === undefined || startColumn > last) continue;
    for (let column = firstUnset(startColumn); column <= last; column = firstUnset(column + 1)) {
      found.set(column, style);
      unset[column] = column + 1;
    }
  }
  return found;
}

/** One module per format (formats/*.ts; formats/index.ts names the extensions each reads). */
export interface FormatReader {
  /** zip containers are inspected for bombs before the reader sees them */
  readonly zip: boolean;
  read(bytes: Buffer, report: ReportFraction): Promise<ReadContent>;
  /** workbook formats that can stream: the same content as `read`, handed to `sink` as it is read */
  readWorkbook?(bytes: Buffer, sink: WorkbookSink, report: ReportFraction): Promise<void>;
}

/** A refusal raised inside a converter, carried across the worker boundary by name. */
export class ConversionError extends Error {
  constructor(
    readonly error: ErrorName,
    message: string,
  ) {
    super(message);
  }
}

/** The converter's answer for one import, built in the worker. */
export type ConversionOutput =
  | { target: 'content'; state: Uint8Array; images: ExtractedImage[] }
  | { target: 'table'; tables: ImportedTable[] };

export interface ImportedTable {
  name: string;
  columns: Array<{ name: string; type: string }>;
  /** values by column name, as the table API's valueMap */
  rows: Array<Record<string, unknown>>;
}

/** How far a zip container (docx, xlsx, pptx) may go before the import refuses it (zip-guard.ts checks them). */
export interface ZipLimits {
  /** entries in the archive */
  maxEntries: number;
  /** all entries together, uncompressed */
  maxUncompressedBytes: number;
  /** uncompressed : compressed of one entry larger than 1 MiB */
  maxRatio: number;
}

/** What the converter thread (converter-worker.ts) is given for one import, and what it answers. */
export interface ConverterJob {
  /** file extension, lower case */
  format: string;
  target: FileType;
  bytes: Uint8Array;
  zipLimits: ZipLimits;
}

/**
 * The converter thread's output: a content state as the parts it was encoded in, joined (joinParts) by the
 * caller once the thread has ended, so that a large state is never held twice by the thread.
 */
export type ConverterOutput = Exclude<ConversionOutput, { target: 'content' }> | { target: 'content'; stateParts: Uint8Array[]; images: ExtractedImage[] };

export type ConverterAnswer = { output: ConverterOutput } | { refused: ErrorName; message: string };

/** The parts of a state, in order, as one array. */
export function joinParts(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const joined = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    joined.set(part, at);
    at += part.length;
  }
  return joined;
}

/** The converter thread's entry, by its compiled name (the worker pool loads the .ts under tsx). */
export const CONVERTER_WORKER = new URL('./converter-worker.js', import.meta.url);
