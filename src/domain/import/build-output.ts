import * as Y from 'yjs';
import { MAX_COLUMNS as MAX_SHEET_COLUMNS, MAX_ROWS as MAX_SHEET_ROWS } from '../sheets/a1.js';
import { cellKey, DEFAULT_COLUMN_COUNT, DEFAULT_ROW_COUNT, newSheet, newSlide, newTextBox, richTextOf, sheetsOf, slidesOf, type Cell } from '../content/model.js';
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

/** Fills a sheet already in the document (a Y type can be read back only once integrated). */
function fillSheet(map: Y.Map<unknown>, sheet: ReadSheet, report: (fraction: number) => void): void {
  const cells = map.get('cells') as Y.Map<Cell>;
  let columns = 0;
  sheet.rows.forEach((row, rowIndex) => {
    if (rowIndex % 5000 === 0) report(rowIndex / Math.max(1, sheet.rows.length));
    row.forEach((cell, column) => {
      if (!cell) return;
      const { date: _date, ...stored } = cell;
      cells.set(cellKey(rowIndex, column), stored);
      if (column + 1 > columns) columns = column + 1;
    });
  });
  if (sheet.rows.length > MAX_SHEET_ROWS || columns > MAX_SHEET_COLUMNS) {
    throw new ConversionError('importContentTooComplex', `sheet ${sheet.name} is larger than ${MAX_SHEET_ROWS} rows × ${MAX_SHEET_COLUMNS} columns`);
  }
  map.set('rowCount', Math.max(DEFAULT_ROW_COUNT, sheet.rows.length));
  map.set('columnCount', Math.max(DEFAULT_COLUMN_COUNT, columns));
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
            boxes.push(slide.boxes.map((box) => newTextBox(box)));
            slide.boxes.forEach((box, boxIndex) => (boxes.get(boxIndex).get('content') as Y.XmlFragment).insert(0, toYNodes(box.blocks)));
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
      return {
        target: 'content',
        images: [],
        state: encode((doc) => {
          sheetsOf(doc).push(names.map((name) => newSheet(name)));
          content.sheets.forEach((sheet, index) =>
            fillSheet(sheetsOf(doc).get(index), { ...sheet, name: names[index]! }, (fraction) => report((index + fraction) / content.sheets.length)),
          );
        }),
      };
    }
  }
}
