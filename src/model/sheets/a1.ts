/**
 * A1 notation for spreadsheet ranges (docs/SHEETS.md "Ranges"): `Sheet1!A1:C3`, whole columns `A:C`,
 * whole rows `2:5`, open-ended `A2:C`, a single cell `B7`, a sheet name alone (`Sheet1`, `'Q1!Plan''s'`),
 * `$` anchors and any letter case. Parsed ranges are concrete rectangles (zero-based, inclusive) within the
 * addressable grid; whole rows and columns reach to its edge, so a range has one meaning whatever the sheet.
 */

/** Addressable grid, as in the common desktop format: rows 1-1,048,576 and columns A-XFD. */
export const MAX_ROWS = 1_048_576;
export const MAX_COLUMNS = 16_384;

export interface A1Range {
  /** null: the first sheet */
  sheetName: string | null;
  startRow: number;
  endRow: number;
  startColumn: number;
  endColumn: number;
}

export class A1SyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'A1SyntaxError';
  }
}

/** `0 → "A"`, `25 → "Z"`, `26 → "AA"`, `16383 → "XFD"`. */
export function columnLetters(index: number): string {
  let letters = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  }
  return letters;
}

/** `"A" → 0`, `"xfd" → 16383`; beyond the grid or not letters → undefined. */
export function columnIndex(letters: string): number | undefined {
  if (!/^[A-Za-z]{1,3}$/.test(letters)) return undefined;
  let n = 0;
  for (const char of letters.toUpperCase()) n = n * 26 + (char.charCodeAt(0) - 64);
  return n <= MAX_COLUMNS ? n - 1 : undefined;
}

/** One end of a range: a cell (`B7`), a whole column (`B`) or a whole row (`7`). */
type Corner =
  | { kind: 'cell'; column: number; row: number }
  | { kind: 'column'; column: number }
  | { kind: 'row'; row: number };

const CELL = /^\$?([A-Za-z]{1,3})\$?([0-9]+)$/;
const COLUMN = /^\$?([A-Za-z]{1,3})$/;
const ROW = /^\$?([0-9]+)$/;

function columnOf(letters: string, whole: string): number {
  const column = columnIndex(letters);
  if (column === undefined) throw new A1SyntaxError(`column ${letters.toUpperCase()} in "${whole}" is past the last column XFD`);
  return column;
}

function rowOf(digits: string, whole: string): number {
  const number = Number(digits);
  if (number === 0) throw new A1SyntaxError(`row numbers start at 1 in "${whole}"`);
  if (number > MAX_ROWS) throw new A1SyntaxError(`row ${digits} in "${whole}" is past the last row ${MAX_ROWS}`);
  return number - 1;
}

/** A corner, or undefined when the text does not look like one; throws when it does but is off the grid. */
function parseCorner(text: string, whole: string): Corner | undefined {
  let match = CELL.exec(text);
  if (match) return { kind: 'cell', column: columnOf(match[1] ?? '', whole), row: rowOf(match[2] ?? '', whole) };
  match = COLUMN.exec(text);
  if (match) return { kind: 'column', column: columnOf(match[1] ?? '', whole) };
  match = ROW.exec(text);
  if (match) return { kind: 'row', row: rowOf(match[1] ?? '', whole) };
  return undefined;
}

type Cells = Omit<A1Range, 'sheetName'>;

/**
 * The cell part of a range (no sheet), or undefined when it is not a reference at all. Accepted shapes:
 * `B7`, `A1:C3` (corners in any order), `A:C`, `2:5`, and `A2:C` (from row 2 down to the last row).
 */
function parseReference(text: string): Cells | undefined {
  const parts = text.split(':');
  if (parts.length > 2) return undefined;
  const first = parseCorner(parts[0] ?? '', text);
  if (!first) return undefined;
  if (parts.length === 1) {
    return first.kind === 'cell' ? { startRow: first.row, endRow: first.row, startColumn: first.column, endColumn: first.column } : undefined;
  }
  const second = parseCorner(parts[1] ?? '', text);
  if (!second) return undefined;
  if (first.kind === 'cell' && second.kind === 'cell') {
    return {
      startRow: Math.min(first.row, second.row),
      endRow: Math.max(first.row, second.row),
      startColumn: Math.min(first.column, second.column),
      endColumn: Math.max(first.column, second.column),
    };
  }
  if (first.kind === 'column' && second.kind === 'column') {
    return { startRow: 0, endRow: MAX_ROWS - 1, startColumn: Math.min(first.column, second.column), endColumn: Math.max(first.column, second.column) };
  }
  if (first.kind === 'row' && second.kind === 'row') {
    return { startRow: Math.min(first.row, second.row), endRow: Math.max(first.row, second.row), startColumn: 0, endColumn: MAX_COLUMNS - 1 };
  }
  if (first.kind === 'cell' && second.kind === 'column') {
    return { startRow: first.row, endRow: MAX_ROWS - 1, startColumn: Math.min(first.column, second.column), endColumn: Math.max(first.column, second.column) };
  }
  return undefined;
}

function wholeSheet(sheetName: string | null): A1Range {
  return { sheetName, startRow: 0, endRow: MAX_ROWS - 1, startColumn: 0, endColumn: MAX_COLUMNS - 1 };
}

/** Reads `'It''s'` from the start of `text`; returns the name and where the quoted part ends. */
function readQuotedName(text: string): { name: string; end: number } {
  let name = '';
  for (let i = 1; i < text.length; i++) {
    const char = text[i];
    if (char !== "'") {
      name += char;
      continue;
    }
    if (text[i + 1] === "'") {
      name += "'";
      i++;
      continue;
    }
    return { name, end: i + 1 };
  }
  throw new A1SyntaxError(`unterminated quoted sheet name in "${text}"`);
}

/**
 * Parses an A1 range (surrounding white space ignored). Throws A1SyntaxError with a readable reason when
 * `input` is not one. Without `!`, a text that reads as a reference is one (`B2` is a cell of the first
 * sheet); anything else is a sheet name alone, meaning the whole sheet.
 */
export function parseA1(input: string): A1Range {
  const text = input.trim();
  if (text.length === 0) throw new A1SyntaxError('the range is empty');
  if (text.length > 1024) throw new A1SyntaxError('the range is longer than 1024 characters');
  if (/[\x00-\x1f\x7f]/.test(text)) throw new A1SyntaxError('the range contains control characters');

  let sheetName: string;
  let reference: string | undefined;
  if (text.startsWith("'")) {
    const quoted = readQuotedName(text);
    sheetName = quoted.name;
    const rest = text.slice(quoted.end);
    if (rest !== '' && !rest.startsWith('!')) throw new A1SyntaxError(`expected "!" after the quoted sheet name in "${text}"`);
    reference = rest === '' ? undefined : rest.slice(1);
  } else {
    const bang = text.lastIndexOf('!');
    if (bang === -1) {
      const cells = parseReference(text);
      if (cells) return { sheetName: null, ...cells };
      if (text.includes("'") || text.includes(':')) {
        throw new A1SyntaxError(`"${text}" is neither a reference nor a sheet name (single-quote names containing ' ! or :)`);
      }
      return wholeSheet(text);
    }
    sheetName = text.slice(0, bang);
    reference = text.slice(bang + 1);
    if (sheetName.includes("'") || sheetName.includes(':')) {
      throw new A1SyntaxError(`the sheet name in "${text}" must be single-quoted (it contains ' ! or :)`);
    }
  }
  if (sheetName === '') throw new A1SyntaxError(`empty sheet name in "${text}"`);
  if (reference === undefined) return wholeSheet(sheetName);
  if (reference === '') throw new A1SyntaxError(`nothing after "!" in "${text}"`);
  const cells = parseReference(reference);
  if (!cells) throw new A1SyntaxError(`"${reference}" is not a cell or range reference (e.g. A1, A1:C3, A:C, 2:5)`);
  return { sheetName, ...cells };
}

/** Names that read back as themselves without quotes, whether alone or before `!`. */
function needsQuotes(name: string): boolean {
  if (!/^[A-Za-z_][A-Za-z0-9_.]*$/.test(name)) return true;
  try {
    return parseReference(name) !== undefined;
  } catch {
    return true;
  }
}

export function formatSheetName(name: string): string {
  return needsQuotes(name) ? `'${name.replace(/'/g, "''")}'` : name;
}

/**
 * The shortest A1 text for a range: a sheet name alone for a whole sheet, `A:C` for whole columns,
 * `2:5` for whole rows, `B7` for one cell, `A1:C3` otherwise. `parseA1(formatA1(r))` equals `r`.
 */
export function formatA1(range: A1Range): string {
  const allRows = range.startRow === 0 && range.endRow === MAX_ROWS - 1;
  const allColumns = range.startColumn === 0 && range.endColumn === MAX_COLUMNS - 1;
  const prefix = range.sheetName === null ? '' : formatSheetName(range.sheetName);
  if (allRows && allColumns && range.sheetName !== null) return prefix;
  let reference: string;
  if (allRows) reference = `${columnLetters(range.startColumn)}:${columnLetters(range.endColumn)}`;
  else if (allColumns) reference = `${range.startRow + 1}:${range.endRow + 1}`;
  else {
    const start = `${columnLetters(range.startColumn)}${range.startRow + 1}`;
    const end = `${columnLetters(range.endColumn)}${range.endRow + 1}`;
    reference = start === end ? start : `${start}:${end}`;
  }
  return prefix === '' ? reference : `${prefix}!${reference}`;
}

/** `parseA1`'s range, or undefined where `input` is not A1 notation (for readers that skip what they cannot read). */
export function parseA1IfValid(input: string): A1Range | undefined {
  try {
    return parseA1(input);
  } catch (error) {
    if (error instanceof A1SyntaxError) return undefined;
    throw error;
  }
}
