import type { ProseMirrorNode } from '../../model/rich-text/schema.js';
import type { BoxFrame, Cell } from '../../model/content.js';
import type { ErrorName } from '../../errors.js';
import type { FileType } from '../../model/file-types.js';
import type { CellArea } from '../../model/sheets/sheet-model.js';

/**
 * What a format module reads a file into: the content model's terms, not the file format's. Three shapes cover
 * every format: rich text (documents), a workbook (spreadsheets and tables), slides (presentations).
 */
export type ReadContent =
  | { shape: 'richText'; blocks: ProseMirrorNode[]; images: ExtractedImage[] }
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
export type ReadBox = BoxFrame & ({ type: 'text'; blocks: ProseMirrorNode[] } | { type: 'image'; guid: string; alt: string });

export interface ReadSlide {
  /** in drawing order, the last one on top */
  boxes: ReadBox[];
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
