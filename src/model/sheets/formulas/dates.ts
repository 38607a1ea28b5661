import * as formulajs from '@formulajs/formulajs';
import { scalar, type Arg, type FormulaFunction } from './args.js';
import { fromLibrary } from './library.js';
import { Err, FormulaError, toNumber, type CellValue } from './values.js';

/**
 * Date functions on Excel's serial numbers with its 1900 calendar, written here because the library's dates are
 * JavaScript's: serial 0 is "January 0, 1900" (YEAR(0) is 1900, EDATE of an empty cell is 0), serial 60 is the
 * 29 February 1900 that never was, and serials before it are one day off a real calendar.
 */

const MS_PER_DAY = 86_400_000;
/** Serial number of 1970-01-01. */
const UNIX_EPOCH_SERIAL = 25_569;
/** The first serial past 9999-12-31. */
const SERIAL_LIMIT = 2_958_466;

export interface DateParts {
  year: number;
  /** 1-12 */
  month: number;
  /** 0-31: day 0 of January 1900 is serial 0 */
  day: number;
}

/** The calendar date of a serial number, as Excel shows it. */
export function dateParts(serial: number): DateParts | FormulaError {
  if (!(serial >= 0 && serial < SERIAL_LIMIT)) return Err.num;
  const days = Math.floor(serial);
  if (days === 0) return { year: 1900, month: 1, day: 0 };
  if (days === 60) return { year: 1900, month: 2, day: 29 };
  // before March 1900 Excel counts from 1899-12-31 (its 29 February 1900 takes a day), after it from 1899-12-30
  const date = new Date((days - UNIX_EPOCH_SERIAL + (days < 60 ? 1 : 0)) * MS_PER_DAY);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

/** The serial number of a date; months and days past their range carry over, as DATE does. */
export function serialOf(year: number, month: number, day: number): number | FormulaError {
  const serial = Date.UTC(year, month - 1, day) / MS_PER_DAY + UNIX_EPOCH_SERIAL;
  const excel = serial < 61 ? serial - 1 : serial;
  return excel >= 0 && excel < SERIAL_LIMIT ? excel : Err.num;
}

/** Text as a number the way VALUE and date arguments read it: `12.5`, `50%`, `$1,234.50`, a date (`2024-03-01`). */
export function numberFromText(text: string): number | FormulaError {
  if (text.trim() === '') return Err.value;
  const plain = toNumber(text);
  if (!(plain instanceof FormulaError)) return plain;
  const money = /^\s*([+-]?)\$?\s*(\d{1,3}(?:,\d{3})+|\d+)(\.\d*)?\s*$/.exec(text);
  if (money) return Number(`${money[1]}${money[2]!.replace(/,/g, '')}${money[3] ?? ''}`);
  const time = /^\s*(\d{1,2}):(\d{2})(?::(\d{2}(?:\.\d+)?))?\s*([AP]M)?\s*$/i.exec(text);
  if (time) {
    const hours = (Number(time[1]) % (time[4] ? 12 : 24)) + (time[4]?.toUpperCase() === 'PM' ? 12 : 0);
    return (hours * 3600 + Number(time[2]) * 60 + Number(time[3] ?? 0)) / 86_400;
  }
  try {
    const date = fromLibrary(formulajs.DATEVALUE(text));
    return typeof date === 'number' ? date : Err.value;
  } catch {
    return Err.value;
  }
}

/** A date argument: an empty cell is serial 0, text must read as a number or a date. */
function serialArg(arg: Arg | undefined): number | FormulaError {
  const value = scalar(arg ?? null);
  return typeof value === 'string' ? numberFromText(value) : toNumber(value);
}

function part(pick: (parts: DateParts) => number): FormulaFunction {
  return {
    minArgs: 1,
    maxArgs: 1,
    call([arg]) {
      const serial = serialArg(arg);
      if (serial instanceof FormulaError) return serial;
      const parts = dateParts(serial);
      return parts instanceof FormulaError ? parts : pick(parts);
    },
  };
}

/** EDATE and EOMONTH: a date some months away, the same day (kept within the month) or the month's last day. */
function monthsAway(endOfMonth: boolean): FormulaFunction {
  return {
    minArgs: 2,
    maxArgs: 2,
    call([start, months]): CellValue {
      const serial = serialArg(start);
      if (serial instanceof FormulaError) return serial;
      const count = serialArg(months);
      if (count instanceof FormulaError) return count;
      const parts = dateParts(serial);
      if (parts instanceof FormulaError) return parts;
      const month = parts.month + Math.trunc(count);
      if (endOfMonth) return serialOf(parts.year, month + 1, 0);
      const lastDay = new Date(Date.UTC(parts.year, month, 0)).getUTCDate();
      return serialOf(parts.year, month, Math.min(parts.day, lastDay));
    },
  };
}

export const DATE_FUNCTIONS: ReadonlyArray<[string, FormulaFunction]> = [
  ['YEAR', part((parts) => parts.year)],
  ['MONTH', part((parts) => parts.month)],
  ['DAY', part((parts) => parts.day)],
  ['EDATE', monthsAway(false)],
  ['EOMONTH', monthsAway(true)],
  [
    'VALUE',
    {
      minArgs: 1,
      maxArgs: 1,
      call([arg]) {
        const value = scalar(arg ?? null);
        if (value instanceof FormulaError || typeof value === 'number') return value;
        // VALUE("") and VALUE(TRUE) are #VALUE! in Excel; an empty cell is 0
        if (value === null) return 0;
        return typeof value === 'string' ? numberFromText(value) : Err.value;
      },
    },
  ],
];
