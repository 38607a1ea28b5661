import { Readable } from 'node:stream';
import { createRequire } from 'node:module';
import ExcelJS from 'exceljs';
import { ConversionError, type FormatReader, type ReadCell, type ReadSheet } from '../conversion.js';
import { serialOfEpochMs } from './serial-dates.js';

// exceljs translates a shared formula to each cell of its range with this helper; its stream reader does not.
const { slideFormula } = createRequire(import.meta.url)('exceljs/lib/utils/shared-formula.js') as {
  slideFormula(formula: string, fromCell: string, toCell: string): string;
};

/** Chunk size of the stream the reader consumes: progress moves with the bytes read. */
const CHUNK = 64 * 1024;

type CellValue = ExcelJS.CellValue;

/** An exceljs value as a cell of the model: formulas keep their text, dates become serial numbers. */
function toCell(value: CellValue, address: string, masters: Map<string, string>): ReadCell | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'number' || typeof value === 'boolean') return { v: value };
  if (typeof value === 'string') return value === '' ? undefined : { v: value };
  if (value instanceof Date) return { v: serialOfEpochMs(value.getTime()), date: true };
  if ('formula' in value && typeof value.formula === 'string') {
    masters.set(address, value.formula);
    return { f: `=${value.formula}` };
  }
  if ('sharedFormula' in value && typeof value.sharedFormula === 'string') {
    const master = masters.get(value.sharedFormula);
    if (master !== undefined) return { f: `=${slideFormula(master, value.sharedFormula, address)}` };
    return toCell((value as { result?: CellValue }).result ?? null, address, masters);
  }
  if ('richText' in value && Array.isArray(value.richText)) return { v: value.richText.map((run) => run.text).join('') };
  if ('text' in value && typeof value.text === 'string') return { v: value.text };
  if ('error' in value) return { v: String(value.error) };
  return undefined;
}

/**
 * Excel workbooks (xlsx, xlsm; macros are not kept): every sheet, values, formulas (their text; the service
 * computes them), dates as serial numbers. Read as a stream (exceljs WorkbookReader), so memory follows the
 * content, not the XML; progress is the share of the file's bytes read.
 */
export const xlsx: FormatReader = {
  extensions: ['xlsx', 'xlsm'],
  zip: true,
  async read(bytes, report) {
    let consumed = 0;
    const input = Readable.from(
      (function* chunks() {
        for (let at = 0; at < bytes.length; at += CHUNK) {
          consumed = Math.min(bytes.length, at + CHUNK);
          report((0.95 * consumed) / bytes.length);
          yield bytes.subarray(at, at + CHUNK);
        }
      })(),
    );
    const reader = new ExcelJS.stream.xlsx.WorkbookReader(input, { sharedStrings: 'cache', styles: 'cache', hyperlinks: 'ignore', worksheets: 'emit', entries: 'emit' });
    const sheets: ReadSheet[] = [];
    try {
      for await (const worksheet of reader) {
        const sheetReader = worksheet as unknown as AsyncIterable<ExcelJS.Row> & { name: string };
        const sheet: ReadSheet = { name: sheetReader.name, rows: [] };
        const masters = new Map<string, string>();
        for await (const row of sheetReader) {
          const cells: Array<ReadCell | undefined> = [];
          row.eachCell({ includeEmpty: false }, (cell, column) => {
            cells[column - 1] = toCell(cell.value, cell.address, masters);
          });
          sheet.rows[row.number - 1] = cells;
        }
        for (let index = 0; index < sheet.rows.length; index++) sheet.rows[index] ??= [];
        sheets.push(sheet);
      }
    } catch (error) {
      if (error instanceof ConversionError) throw error;
      throw new ConversionError('importCorrupt', `the file is not a readable xlsx workbook (${error instanceof Error ? error.message.slice(0, 200) : 'unreadable'})`);
    }
    if (sheets.length === 0) throw new ConversionError('importCorrupt', 'the workbook has no worksheet');
    report(1);
    return { shape: 'workbook', sheets };
  },
};
