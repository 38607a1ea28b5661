import type { CellInput } from '../../src/model/sheets/cells.js';
import { DATE_FORMAT, DATE_TIME_FORMAT } from '../../src/model/sheets/number-format.js';

/**
 * What typing into a spreadsheet cell means (docs/BROWSER.md "Spreadsheet"): numbers, percentages, money, dates,
 * TRUE/FALSE, text forced with a leading `'`. Without DOM, so the service's tests read it too.
 */

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const PERCENT = /^([+-]?(\d+\.?\d*|\.\d+))%$/;
/**
 * A number written with a currency symbol or thousands separators, as people type money: `$1,234.50`, `-€12`,
 * `($1,234)` (negative, as accountants write it), `1,234,567`, `¥ 80`. The separators must group by three.
 */
const GROUPED = /^(\()?([+-])?([$€£¥￥])?\s?([+-])?(\d{1,3}(?:,\d{3})+|\d+)(\.\d*)?(\))?$/;
const DATE = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;
/** Days between the serial epoch 1899-12-30 (docs/SHEETS.md "Dates") and 1970-01-01. */
const EPOCH_OFFSET_DAYS = 25_569;

/** What a typed text means: the cell input, the number format the way it was typed implies, and whether it is text the user forced with `'`. */
export interface TypedInput {
  input: CellInput;
  format?: string;
  /** typed after a `'`: kept as text even if it reads as a number, a date or TRUE */
  literal?: true;
}

/** A number typed with a currency symbol or thousands separators, with the format it was typed in; undefined when it is not one. */
function groupedNumber(text: string): TypedInput | undefined {
  const match = GROUPED.exec(text);
  if (!match) return undefined;
  const [, open, sign, symbol, innerSign, digits, fraction = '', close] = match;
  const grouped = digits!.includes(',');
  if ((!symbol && !grouped) || Boolean(open) !== Boolean(close) || (sign && innerSign) || (open && (sign || innerSign))) return undefined;
  const negative = Boolean(open) || sign === '-' || innerSign === '-';
  const magnitude = Number(`${digits!.replace(/,/g, '')}${fraction === '.' ? '' : fraction}`);
  if (!Number.isFinite(magnitude)) return undefined;
  const decimals = Math.max(0, fraction.length - 1);
  const body = `#,##0${decimals > 0 ? `.${'0'.repeat(decimals)}` : ''}`;
  const code = symbol ? `"${symbol}"${body}` : body;
  return { input: negative ? -magnitude : magnitude, format: open ? `${code};(${code})` : code };
}

/**
 * Typed text as a cell input: a number when it reads as one, a percentage (`12.5%` is 0.125, shown `0.0%`), money
 * and grouped numbers (`$1,234.50` is 1234.5 shown `"$"#,##0.00`), a date (`2024-03-15`, `2024/3/15 9:30`: its serial
 * number, shown as typed), TRUE/FALSE, else the text. A leading `'` keeps the rest as text whatever it reads as
 * (`'0012`), as in spreadsheets; the `'` is not part of the cell. `format` is the number format the way it was typed implies.
 */
export function parseTyped(text: string): TypedInput {
  // text that would be a formula cannot be stored as text (a cell's text starting with "=" is its formula): its ' stays
  if (text.startsWith("'") && !text.startsWith("'=")) return text.length > 1 ? { input: text.slice(1), literal: true } : { input: null };
  const trimmed = text.trim();
  if (trimmed === '') return { input: null };
  if (text.startsWith('=')) return { input: text };
  if (NUMBER.test(trimmed)) {
    const value = Number(trimmed);
    if (Number.isFinite(value)) return { input: value };
  }
  const percent = PERCENT.exec(trimmed);
  if (percent) {
    const decimals = (percent[1]!.split('.')[1] ?? '').length;
    return { input: Number(percent[1]) / 100, format: decimals > 0 ? `0.${'0'.repeat(decimals)}%` : '0%' };
  }
  const grouped = groupedNumber(trimmed);
  if (grouped) return grouped;
  const date = DATE.exec(trimmed);
  if (date) {
    const [, year, month, day, hours, minutes, seconds] = date.map(Number) as number[];
    const time = Date.UTC(year!, month! - 1, day!, hours || 0, minutes || 0, seconds || 0);
    const valid = new Date(time).getUTCDate() === day && (hours || 0) < 24;
    if (valid) return { input: time / 86_400_000 + EPOCH_OFFSET_DAYS, format: date[4] === undefined ? DATE_FORMAT : date[6] === undefined ? 'yyyy-mm-dd hh:mm' : DATE_TIME_FORMAT };
  }
  const upper = trimmed.toUpperCase();
  if (upper === 'TRUE' || upper === 'FALSE') return { input: upper === 'TRUE' };
  return { input: text };
}

/** What to type to get `text` back as text: itself, or with a `'` before it when it would read as something else. */
export function typedText(text: string): string {
  const typed = parseTyped(text);
  return typed.input === text && !typed.literal && !text.startsWith("'") ? text : `'${text}`;
}
