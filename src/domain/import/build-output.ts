import * as Y from 'yjs';
import { attachmentPath } from '../attachments/attachment-service.js';
import { MAX_COLUMNS as MAX_SHEET_COLUMNS, MAX_ROWS as MAX_SHEET_ROWS } from '../sheets/a1.js';
import { cellKey, DEFAULT_COLUMN_COUNT, DEFAULT_ROW_COUNT, newImageBox, newSheet, newSlide, newTextBox, richTextOf, sheetsOf, slidesOf, type Cell } from '../content/model.js';
import { toYNodes } from '../content/rich-text.js';
import { MAX_COLUMNS as MAX_TABLE_COLUMNS } from '../tables/table-service.js';
import type { FileType } from '../files/file-types.js';
import { ConversionError, type ConversionOutput, type ImportedTable, type ReadCell, type ReadContent, type ReadSheet } from './conversion.js';

/** Which file type each shape of content can become. */
export const TARGETS_OF_SHAPE: Record<ReadContent['shape'], readonly FileType[]> = {
  richText: ['document', 'documentPro'],
  workbook: ['spreadsheet', 'table'],
  slides: ['presentation'],
};

function encode(fill: (doc: Y.Doc) => void): Uint8Array {
  const doc = new Y.Doc();
  doc.transact(() => fill(doc));
  const state = Y.encodeStateAsUpdate(doc);
  doc.destroy();
  return state;
}

/** Yjs' content reference of ContentAny (a JSON value), and the info bit saying a map key (parentSub) follows. */
const CONTENT_ANY = 8;
const HAS_PARENT_SUB = 0b0010_0000;

/** Cells and columns a sheet uses. */
function extentOf(sheet: ReadSheet): { cells: number; columns: number } {
  let cells = 0;
  let columns = 0;
  for (const row of sheet.rows) {
    for (let column = 0; column < row.length; column++) {
      if (!row[column]) continue;
      cells++;
      if (column + 1 > columns) columns = column + 1;
    }
  }
  return { cells, columns };
}

/**
 * One client's structs (Yjs update format v1) setting a sheet's cells in its `cells` map (`parent`, the map's
 * item id): one ContentAny struct per cell, written straight to Yjs' encoder. Y.Map#set would make the same
 * structs, but only after creating a million Item objects (13 s and 300 MiB for a 100,000 × 10 sheet).
 */
function writeCells(encoder: Y.UpdateEncoderV1, parent: Y.ID, sheet: ReadSheet, cellCount: number, client: number, report: (fraction: number) => void): void {
  encoder.writeLen(cellCount);
  encoder.writeClient(client);
  encoder.writeLen(0); // from clock 0
  sheet.rows.forEach((row, rowIndex) => {
    if (rowIndex % 10_000 === 0) report(rowIndex / Math.max(1, sheet.rows.length));
    for (let column = 0; column < row.length; column++) {
      const cell = row[column];
      if (!cell) continue;
      encoder.writeInfo(CONTENT_ANY | HAS_PARENT_SUB);
      encoder.writeParentInfo(false);
      encoder.writeLeftID(parent);
      encoder.writeString(cellKey(rowIndex, column));
      encoder.writeLen(1);
      encoder.writeAny(cell.f !== undefined ? { f: cell.f } : { v: cell.v ?? null });
    }
  });
}

/**
 * A spreadsheet's state as one update: the sheets (names, sizes, empty cell maps) through a Y.Doc, whose update
 * has one client and no deletions, followed by each sheet's cells as a client of its own (writeCells).
 */
function spreadsheetState(sheets: readonly ReadSheet[], names: readonly string[], report: (fraction: number) => void): Uint8Array {
  const extents = sheets.map((sheet, index) => {
    const extent = extentOf(sheet);
    if (sheet.rows.length > MAX_SHEET_ROWS || extent.columns > MAX_SHEET_COLUMNS) {
      throw new ConversionError('importContentTooComplex', `sheet ${names[index]} is larger than ${MAX_SHEET_ROWS} rows × ${MAX_SHEET_COLUMNS} columns`);
    }
    return extent;
  });
  const doc = new Y.Doc();
  doc.transact(() =>
    sheetsOf(doc).push(
      sheets.map((sheet, index) => {
        const map = newSheet(names[index]!);
        map.set('rowCount', Math.max(DEFAULT_ROW_COUNT, sheet.rows.length));
        map.set('columnCount', Math.max(DEFAULT_COLUMN_COUNT, extents[index]!.columns));
        return map;
      }),
    ),
  );
  const base = Y.encodeStateAsUpdate(doc);
  // [clients = 1][the client's structs][delete set: no clients]
  if (base[0] !== 1 || base[base.length - 1] !== 0) throw new Error('unexpected shape of a fresh spreadsheet update');
  const encoder = new Y.UpdateEncoderV1();
  encoder.writeLen(1 + sheets.length);
  sheets.forEach((sheet, index) => {
    const parent = (sheetsOf(doc).get(index).get('cells') as Y.Map<Cell>)._item!.id;
    const client = (doc.clientID + 1 + index) % 0x1_0000_0000;
    writeCells(encoder, parent, sheet, extents[index]!.cells, client, (fraction) => report((index + fraction) / sheets.length));
  });
  doc.destroy();
  const cells = encoder.toUint8Array();
  const state = new Uint8Array(cells.length + base.length - 1);
  state.set(cells, 0);
  state.set(base.subarray(1), cells.length); // the sheets' client structs and the empty delete set
  return state;
}

/** Unique, non-empty sheet names (the model requires both); later duplicates get " (2)", " (3)". */
function uniqueNames(names: readonly string[], fallback: (index: number) => string): string[] {
  const seen = new Set<string>();
  return names.map((raw, index) => {
    const base = raw.trim().slice(0, 28) || fallback(index);
    let name = base;
    for (let n = 2; seen.has(name.toLowerCase()); n++) name = `${base} (${n})`;
    seen.add(name.toLowerCase());
    return name;
  });
}

/** Table column type of a column's cells: all numbers Number, all dates Date, all booleans CheckBox, else text. */
function columnType(cells: ReadonlyArray<ReadCell | undefined>, primary: boolean): string {
  const present = cells.filter((cell): cell is ReadCell => cell !== undefined && cell.v !== undefined && cell.v !== null);
  if (present.length === 0) return 'SingleLineText';
  if (present.every((cell) => cell.date)) return 'Date';
  if (present.every((cell) => typeof cell.v === 'number')) return 'Number';
  if (!primary && present.every((cell) => typeof cell.v === 'boolean')) return 'CheckBox';
  return 'SingleLineText';
}

const DAY_MS = 86_400_000;
const UNIX_EPOCH_SERIAL = 25_569;

function tableValue(cell: ReadCell, type: string): unknown {
  if (type === 'Date') return Math.round(((cell.v as number) - UNIX_EPOCH_SERIAL) * DAY_MS);
  if (type === 'SingleLineText') return String(cell.v ?? cell.f ?? '').slice(0, 10_000);
  return cell.v;
}

/**
 * A sheet as a data table: the first row names the columns, each column's type is inferred from its values.
 * Formula cells without a value are left empty (the table API stores values, not formulas).
 */
function sheetTable(sheet: ReadSheet, name: string): ImportedTable {
  const [header = [], ...body] = sheet.rows;
  const width = Math.max(header.length, ...body.map((row) => row.length), 1);
  if (width > MAX_TABLE_COLUMNS) throw new ConversionError('importContentTooComplex', `sheet ${sheet.name} has more than ${MAX_TABLE_COLUMNS} columns, the most a table holds`);
  const names = uniqueNames(
    Array.from({ length: width }, (_, column) => String(header[column]?.v ?? '')),
    (column) => `Column ${column + 1}`,
  );
  const columns = names.map((columnName, column) => ({ name: columnName, type: columnType(body.map((row) => row[column]), column === 0) }));
  const rows = body
    .filter((row) => row.some((cell) => cell?.v !== undefined && cell?.v !== null))
    .map((row) => {
      const valueMap: Record<string, unknown> = {};
      columns.forEach((column, index) => {
        const cell = row[index];
        if (cell && cell.v !== undefined && cell.v !== null) valueMap[column.name] = tableValue(cell, column.type);
      });
      return valueMap;
    });
  return { name, columns, rows };
}

/** The content read from a file, as the target file type stores it. */
export function buildOutput(content: ReadContent, target: FileType, report: (fraction: number) => void): ConversionOutput {
  if (!TARGETS_OF_SHAPE[content.shape].includes(target)) {
    throw new ConversionError('importFormatUnsupported', `this file cannot become a ${target}: it can become ${TARGETS_OF_SHAPE[content.shape].join(' or ')}`);
  }
  switch (content.shape) {
    case 'richText':
      return { target: 'content', state: encode((doc) => richTextOf(doc).insert(0, toYNodes(content.blocks))), images: content.images };
    case 'slides':
      return {
        target: 'content',
        images: content.images,
        state: encode((doc) => {
          const slides = content.slides.length > 0 ? content.slides : [{ boxes: [] }];
          slidesOf(doc).push(slides.map(() => newSlide()));
          slides.forEach((slide, index) => {
            const boxes = slidesOf(doc).get(index).get('boxes') as Y.Array<Y.Map<unknown>>;
            boxes.push(slide.boxes.map((box) => (box.type === 'image' ? newImageBox(box, { src: attachmentPath(box.guid), alt: box.alt }) : newTextBox(box))));
            slide.boxes.forEach((box, boxIndex) => {
              if (box.type === 'text') (boxes.get(boxIndex).get('content') as Y.XmlFragment).insert(0, toYNodes(box.blocks));
            });
          });
        }),
      };
    case 'workbook': {
      const names = uniqueNames(
        content.sheets.map((sheet) => sheet.name),
        (index) => `Sheet${index + 1}`,
      );
      if (target === 'table') {
        return { target: 'table', tables: content.sheets.map((sheet, index) => sheetTable(sheet, names[index]!)) };
      }
      const state = spreadsheetState(content.sheets, names, report);
      return { target: 'content', images: [], state };
    }
  }
}
