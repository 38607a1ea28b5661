import * as Y from 'yjs';
import { attachmentPath } from '../attachments/attachment-service.js';
import { newImageBox, newSlide, newTextBox, richTextOf, slidesOf } from '../../model/content.js';
import { newShapeBox, notesOf, setCrop } from '../../model/slides.js';
import { toYNodes } from '../../model/rich-text/schema.js';
import { writePageSetup } from '../../model/rich-text/page-setup.js';
import { MAX_COLUMNS as MAX_TABLE_COLUMNS } from '../tables/limits.js';
import type { FileType } from '../../model/file-types.js';
import { ConversionError, joinParts, type ConversionOutput, type ImportedTable, type ReadCell, type ReadContent, type ReadSheet } from './conversion.js';
import { SpreadsheetEncoder } from './spreadsheet-encoder.js';
import { uniqueNames } from './workbook.js';

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

/** A spreadsheet's state from sheets already read whole (csv), through the same encoder a streaming read feeds. */
function spreadsheetState(sheets: readonly ReadSheet[]): Uint8Array {
  const encoder = new SpreadsheetEncoder();
  sheets.forEach((sheet, position) => {
    encoder.beginSheet(sheet.name, position);
    sheet.rows.forEach((row, index) => encoder.row(index, row));
  });
  return joinParts(encoder.finish());
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
export function buildOutput(content: ReadContent, target: FileType): ConversionOutput {
  if (!TARGETS_OF_SHAPE[content.shape].includes(target)) {
    throw new ConversionError('importFormatUnsupported', `this file cannot become a ${target}: it can become ${TARGETS_OF_SHAPE[content.shape].join(' or ')}`);
  }
  switch (content.shape) {
    case 'richText':
      return {
        target: 'content',
        images: content.images,
        state: encode((doc) => {
          richTextOf(doc).insert(0, toYNodes(content.blocks));
          // a document has no page setup (its pages are A4 and numbered); a documentPro keeps the file's
          if (content.pageSetup && target === 'documentPro') writePageSetup(doc, content.pageSetup);
        }),
      };
    case 'slides':
      return {
        target: 'content',
        images: content.images,
        state: encode((doc) => {
          const slides = content.slides.length > 0 ? content.slides : [{ boxes: [] }];
          slidesOf(doc).push(slides.map(() => newSlide()));
          slides.forEach((slide, index) => {
            const slideMap = slidesOf(doc).get(index);
            const boxes = slideMap.get('boxes') as Y.Array<Y.Map<unknown>>;
            if (slide.theme) slideMap.set('theme', slide.theme);
            if (slide.transition) slideMap.set('transition', slide.transition);
            if (slide.notes) notesOf(slideMap)?.insert(0, slide.notes);
            boxes.push(
              slide.boxes.map((box) => {
                const made = box.type === 'image' ? newImageBox(box, { src: attachmentPath(box.guid), alt: box.alt }) : box.type === 'shape' ? newShapeBox(box, box.look) : newTextBox(box);
                if (box.type === 'image' && box.crop) setCrop(made, box.crop);
                if (box.type === 'text' && box.placeholder) made.set('placeholder', box.placeholder);
                if (box.group) made.set('group', box.group);
                return made;
              }),
            );
            slide.boxes.forEach((box, boxIndex) => {
              if (box.type === 'text') (boxes.get(boxIndex).get('content') as Y.XmlFragment).insert(0, toYNodes(box.blocks));
            });
          });
        }),
      };
    case 'workbook': {
      if (target === 'spreadsheet') return { target: 'content', images: [], state: spreadsheetState(content.sheets) };
      const names = uniqueNames(
        content.sheets.map((sheet) => sheet.name),
        (index) => `Sheet${index + 1}`,
      );
      return { target: 'table', tables: content.sheets.map((sheet, index) => sheetTable(sheet, names[index]!)) };
    }
  }
}
