import type { WorkbookCell, WorkbookSource } from '../source.js';
import { shownCellText, type Progress } from './shared.js';
import { formatDelimited } from '../../../model/sheets/delimited.js';

/**
 * spreadsheet → CSV (RFC 4180, quoted as model/sheets/delimited.ts says): the first sheet, rows up to the last non-empty one, computed values of
 * formulas (numbers as the spreadsheet shows them: under their number format when they have one, else 15
 * significant digits; booleans TRUE/FALSE, errors as their code). UTF-8 with
 * a byte-order mark, so spreadsheet programs read CJK text correctly; CRLF line ends.
 */

export function toCsv(source: WorkbookSource, progress: Progress): Uint8Array {
  const sheet = source.sheets[0];
  const lines: string[][] = [];
  if (sheet) {
    // a cell with only a style (an empty filled cell) shows nothing: it neither adds a line nor a field
    const valued = sheet.cells.filter((cell) => cell.value !== null);
    const rows: WorkbookCell[][] = Array.from({ length: valued.reduce((last, cell) => Math.max(last, cell.row + 1), 0) }, () => []);
    for (const cell of valued) rows[cell.row]![cell.column] = cell;
    progress.step(sheet.cells.length - valued.length);
    for (const row of rows) {
      lines.push(Array.from({ length: row.length }, (_, column) => (row[column] ? shownCellText(row[column]) : '')));
      progress.step(row.reduce((count) => count + 1, 0));
    }
  }
  const text = lines.length > 0 ? `${formatDelimited(lines, ',', '\r\n')}\r\n` : '';
  return new TextEncoder().encode(`\uFEFF${text}`);
}
