import { numberFormatEngine, type NumberFormatEngine } from './number-format-engine.js';

/**
 * Number formats of spreadsheet cells: the format codes of the common desktop format (the `numFmt` of xlsx, e.g.
 * `#,##0.00`, `0%`, `yyyy-mm-dd`, `# ?/?`, `"¥"#,##0.00;[Red]-"¥"#,##0.00`), applied to a cell's number to give the
 * text the cell shows. Shared by the editor (what the grid draws), the values API (`FORMATTED_VALUE`) and the
 * converters, so every place shows a cell the same way (docs/SHEETS.md "Number formats").
 *
 * The formatting is numfmt's (ECMA-376 number formats as Excel applies them: up to four sections and conditions,
 * literal text, `_x` and `*x`, colours, `[$¥-804]` currencies, digit placeholders, thousands separators and
 * scaling commas, `%`, scientific, fractions `# ?/?` `# ??/??` `?/8`, dates and times with `[h]` elapsed time and
 * fractions of seconds, the 1900 leap-year serials); this module decides what a code that cannot be read shows:
 * General, never an error, since a format only changes how a cell looks.
 *
 * numfmt comes through number-format-engine.ts: with the module on the server, as a chunk of its own in the
 * editor, which awaits it (web/spreadsheet/number-format-loader.ts) before it draws or computes a cell.
 */

/** numfmt; an error names the mistake when the editor formats before it has loaded numfmt. */
function numfmt(): NumberFormatEngine {
  const engine = numberFormatEngine();
  if (!engine) throw new Error('number formats are not loaded yet: the editor awaits loadNumberFormats() before it shows cells');
  return engine;
}

/** The format of a cell without one. */
export const GENERAL = 'General';
/** How a date without a format of its own is shown (typed, or from a csv), and how the editor writes one back. */
export const DATE_FORMAT = 'yyyy-mm-dd';
export const DATE_TIME_FORMAT = 'yyyy-mm-dd hh:mm:ss';

/** The format a date given as `serial` is shown with when nothing says otherwise: with its time when it has one. */
export function dateFormatFor(serial: number): string {
  return Number.isInteger(serial) ? DATE_FORMAT : DATE_TIME_FORMAT;
}
/** Longest format code stored on a cell. */
export const MAX_FORMAT_CODE = 255;

/** Codes numfmt reads, and does not, as seen so far (a workbook uses a handful; the bound keeps odd input from growing it). */
const readability = new Map<string, boolean>();
const READABILITY_KEPT = 1000;

/** Whether numfmt reads the code; asked once per code (numfmt's validity check parses the code again each time). */
function readable(code: string | undefined): code is string {
  if (code === undefined || code === '' || code === GENERAL) return false;
  let known = readability.get(code);
  if (known === undefined) {
    known = numfmt().isValidFormat(code);
    if (readability.size >= READABILITY_KEPT) readability.clear();
    readability.set(code, known);
  }
  return known;
}

/** The text `value` shows under the format `code` (General when the code is empty, General or unreadable). */
export function formatNumber(value: number, code: string | undefined): string {
  if (!Number.isFinite(value)) return String(value);
  if (!readable(code)) return generalNumber(value);
  return numfmt().format(code, value, { throws: false });
}

/** Text under a format: the text section (`@`) when the code has one, else the text itself. */
export function formatText(text: string, code: string | undefined): string {
  return readable(code) ? numfmt().format(code, text, { throws: false }) : text;
}

/** The text a cell's value shows under its format: numbers and text by the code, booleans as TRUE / FALSE. */
export function formatValue(value: string | number | boolean, code: string | undefined): string {
  if (typeof value === 'number') return formatNumber(value, code);
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  return value === '' ? '' : formatText(value, code);
}

/** Whether the code shows dates or times (a number under it is a serial date). */
export function isDateFormat(code: string | undefined): boolean {
  return readable(code) && numfmt().isDateFormat(code);
}

/** Why a format code cannot be stored; undefined when it can (any readable code of at most 255 characters). */
export function invalidFormatCode(code: unknown): string | undefined {
  if (typeof code !== 'string' || code.trim() === '') return 'a number format must be a non-empty string';
  if (code.length > MAX_FORMAT_CODE) return `a number format is at most ${MAX_FORMAT_CODE} characters`;
  if (/[\u0000-\u001f\u007f]/.test(code)) return 'a number format may not contain control characters';
  if (code !== GENERAL && !numfmt().isValidFormat(code)) return `the number format ${JSON.stringify(code)} cannot be read`;
  return undefined;
}

/** About eleven significant digits, as General shows numbers; integers as they are. */
export function generalNumber(value: number): string {
  return numfmt().format(GENERAL, value);
}
