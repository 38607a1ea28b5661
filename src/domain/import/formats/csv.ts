import { ConversionError, type FormatReader, type ReadCell } from '../conversion.js';
import { parseIsoDate } from '../../../model/tables/fields/date.js';
import { dateFormatFor } from '../../../model/sheets/number-format.js';
import { serialOfEpochMs } from './serial-dates.js';
import { decodeText } from './text-decoding.js';

const DELIMITERS = [',', ';', '\t'] as const;

/** The delimiter used most on the first line (outside quotes): comma, semicolon or tab. */
function detectDelimiter(text: string): string {
  const end = text.search(/\r|\n/);
  const firstLine = (end < 0 ? text : text.slice(0, end)).replace(/"[^"]*"/g, '');
  let best: string = ',';
  let bestCount = 0;
  for (const delimiter of DELIMITERS) {
    const count = firstLine.split(delimiter).length - 1;
    if (count > bestCount) [best, bestCount] = [delimiter, count];
  }
  return best;
}

/** RFC 4180 records: quoted fields may hold delimiters, line breaks and doubled quotes. */
export function parseCsv(text: string, delimiter: string, report: (fraction: number) => void): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let at = 0;
  const length = text.length;
  const reportEvery = Math.max(1, Math.floor(length / 20));
  let nextReport = reportEvery;
  while (at < length) {
    const char = text[at]!;
    if (quoted) {
      if (char === '"') {
        if (text[at + 1] === '"') {
          field += '"';
          at += 2;
          continue;
        }
        quoted = false;
      } else field += char;
      at++;
      continue;
    }
    if (char === '"' && field.length === 0) quoted = true;
    else if (char === delimiter) {
      row.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      if (char === '\r' && text[at + 1] === '\n') at++;
    } else field += char;
    at++;
    if (at >= nextReport) {
      report(at / length);
      nextReport += reportEvery;
    }
  }
  if (quoted) throw new ConversionError('importCorrupt', 'the CSV file ends inside a quoted field');
  if (field.length > 0 || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const ISO_DAY = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?$/;

/**
 * A CSV field as a cell, as a spreadsheet application reads it: numbers as numbers (not those with leading zeros,
 * which are codes), TRUE/FALSE as booleans, ISO dates as date serial numbers, `=…` as a formula, the rest text.
 */
export function csvCell(field: string): ReadCell | undefined {
  if (field === '') return undefined;
  if (field.startsWith('=') && field.length > 1) return { f: field };
  if (NUMBER.test(field) && !/^[+-]?0\d/.test(field)) {
    const value = Number(field);
    if (Number.isFinite(value)) return { v: value };
  }
  const upper = field.toUpperCase();
  if (upper === 'TRUE' || upper === 'FALSE') return { v: upper === 'TRUE' };
  if (ISO_DAY.test(field)) {
    const ms = parseIsoDate(field);
    if (ms !== undefined) {
      const serial = serialOfEpochMs(ms);
      return { v: serial, date: true, z: dateFormatFor(serial) };
    }
  }
  return { v: field };
}

/** CSV (comma, semicolon or tab separated, UTF-8): one sheet named after nothing in the file, "Sheet1". */
export const csv: FormatReader = {
  zip: false,
  async read(bytes, report) {
    const text = decodeText(bytes);
    const records = parseCsv(text, detectDelimiter(text), report);
    return { shape: 'workbook', sheets: [{ name: 'Sheet1', rows: records.map((record) => record.map(csvCell)) }] };
  },
};
