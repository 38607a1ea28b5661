import * as formulajs from '@formulajs/formulajs';
import { arrayArg, isRange, type Arg, type FormulaFunction, type RangeArg } from './args.js';
import { EXCEL_FUNCTIONS } from './excel-functions.js';
import { ERROR_CODES, Err, FormulaError, finite, type CellValue, type ErrorCode } from './values.js';

/**
 * Excel functions whose bodies come from @formulajs/formulajs (MIT), behind our own argument layer, so that
 * Excel's rules hold whichever library computes: errors are our FormulaError values in and out, ranges arrive as
 * rows of values, dates leave as serial numbers, non-finite numbers are #NUM!, and a function that throws gives
 * #VALUE! instead of breaking the recalculation. docs/FORMULAS.md says which functions come from where.
 */

type LibraryFunction = (...args: unknown[]) => unknown;

const library = formulajs as unknown as Record<string, unknown>;
const libraryErrors = (formulajs as unknown as { utils: { errors: Record<string, Error> } }).utils.errors;

/** Our error values as the library's Error objects (compared by identity inside the library), and back by message. */
const TO_LIBRARY = new Map<FormulaError, Error>(
  Object.values(libraryErrors)
    .filter((error) => (ERROR_CODES as readonly string[]).includes(error.message))
    .map((error) => [FormulaError.of(error.message as ErrorCode), error]),
);

/** Excel's older names, which the library keeps only under the newer one. */
const ALIASES: Readonly<Record<string, string>> = {
  STDEV: 'STDEV.S',
  STDEVP: 'STDEV.P',
  VAR: 'VAR.S',
  VARP: 'VAR.P',
  MODE: 'MODE.SNGL',
  PERCENTILE: 'PERCENTILE.INC',
  QUARTILE: 'QUARTILE.INC',
  PERCENTRANK: 'PERCENTRANK.INC',
  RANK: 'RANK.EQ',
  COVAR: 'COVARIANCE.P',
  'ISO.CEILING': 'CEILING.PRECISE',
  'FORECAST.LINEAR': 'FORECAST',
  CONFIDENCE: 'CONFIDENCE.NORM',
  POISSON: 'POISSON.DIST',
  WEIBULL: 'WEIBULL.DIST',
};

/**
 * Statistics that, like Excel, take only the numbers of a range (text, booleans and empty cells there are
 * skipped); the library would count empty cells as zeros.
 */
const NUMBERS_OF_RANGES = new Set(
  `AVEDEV DEVSQ GEOMEAN HARMEAN KURT LARGE SMALL MEDIAN MODE MODE.SNGL MODE.MULT PERCENTILE PERCENTILE.INC PERCENTILE.EXC
  QUARTILE QUARTILE.INC QUARTILE.EXC SKEW SKEW.P STDEV STDEV.S STDEV.P STDEVP VAR VAR.S VAR.P VARP TRIMMEAN SUMSQ
  PERCENTRANK PERCENTRANK.INC PERCENTRANK.EXC RANK RANK.EQ RANK.AVG`.split(/\s+/),
);

/** Serial number of 1970-01-01: dates are days since 1899-12-30, as in the common desktop format. */
const UNIX_EPOCH_SERIAL = 25_569;
const MS_PER_DAY = 86_400_000;

/** The library's function for an Excel name: `NORM.S.DIST` is `NORM.S.DIST` as nested objects, or `NORMSDIST`. */
function resolve(name: string): LibraryFunction | undefined {
  const target = ALIASES[name] ?? name;
  let found: unknown = library;
  for (const part of target.split('.')) found = typeof found === 'object' || typeof found === 'function' ? (found as Record<string, unknown>)[part] : undefined;
  if (typeof found === 'function') return found as LibraryFunction;
  const flat = library[target.replace(/\./g, '')];
  return typeof flat === 'function' ? (flat as LibraryFunction) : undefined;
}

function toLibrary(value: CellValue): unknown {
  return value instanceof FormulaError ? (TO_LIBRARY.get(value) ?? value) : value;
}

function rowsOf(range: RangeArg): unknown[][] {
  const rows: unknown[][] = [];
  for (let row = 0; row < range.rows; row++) {
    const line: unknown[] = [];
    for (let column = 0; column < range.columns; column++) line.push(toLibrary(range.get(row, column)));
    rows.push(line);
  }
  return rows;
}

/** A range's numbers (Excel's rule for statistics), or the first error in it. */
function numbersOf(range: RangeArg): number[] | FormulaError {
  const numbers: number[] = [];
  let error: FormulaError | undefined;
  for (let row = 0; row < range.rows; row++) {
    for (let column = 0; column < range.columns; column++) {
      const value = range.get(row, column);
      if (value instanceof FormulaError) error ??= value;
      else if (typeof value === 'number') numbers.push(value);
    }
  }
  return error ?? numbers;
}

/** A date the library made (local midnight of its fields) as a serial number. */
function serialOf(date: Date): number | FormulaError {
  const time = date.getTime();
  if (Number.isNaN(time)) return Err.value;
  const utc = Date.UTC(date.getFullYear(), date.getMonth(), date.getDate(), date.getHours(), date.getMinutes(), date.getSeconds(), date.getMilliseconds());
  const serial = UNIX_EPOCH_SERIAL + utc / MS_PER_DAY;
  // Excel's 1900 calendar counts a 29 February 1900 that never was: serials before March 1900 are one less
  return serial < 61 ? serial - 1 : serial;
}

/** A library result as a value of ours; arrays become array values (rows of values). */
export function fromLibrary(result: unknown): CellValue | RangeArg {
  if (result instanceof Error) return (ERROR_CODES as readonly string[]).includes(result.message) ? FormulaError.of(result.message as ErrorCode) : Err.value;
  if (typeof result === 'number') return finite(result);
  if (typeof result === 'string' || typeof result === 'boolean') return result;
  if (result instanceof Date) return serialOf(result);
  if (result === null || result === undefined) return 0;
  if (Array.isArray(result)) {
    const rows = (result.length > 0 && Array.isArray(result[0]) ? result : [result]) as unknown[][];
    if (rows.length === 0 || rows[0]!.length === 0) return Err.calc;
    return arrayArg(rows.map((line) => line.map((value) => scalarOf(fromLibrary(value)))));
  }
  return Err.value;
}

function scalarOf(value: CellValue | RangeArg): CellValue {
  return isRange(value) ? value.get(0, 0) : value;
}

/** One Excel function computed by the library, or undefined when the library does not have it. */
function libraryFunction(name: string): FormulaFunction | undefined {
  const body = resolve(name);
  if (!body) return undefined;
  const numbersOnly = NUMBERS_OF_RANGES.has(name);
  return {
    minArgs: 0,
    maxArgs: 255,
    call(args: Arg[]) {
      const given: unknown[] = [];
      for (const arg of args) {
        if (!isRange(arg)) {
          given.push(toLibrary(arg));
          continue;
        }
        if (numbersOnly) {
          const numbers = numbersOf(arg);
          if (numbers instanceof FormulaError) return numbers;
          given.push(numbers);
          continue;
        }
        // a single cell stands for its value; a range for its rows
        given.push(arg.rows === 1 && arg.columns === 1 && arg.origin ? toLibrary(arg.get(0, 0)) : rowsOf(arg));
      }
      try {
        // an array result (MMULT, MINVERSE…) spills from the formula's cell
        return fromLibrary(body(...given));
      } catch {
        return Err.value;
      }
    },
  };
}

/** Every Excel function the library computes, by name, except those given in `own`. */
export function libraryFunctions(own: ReadonlySet<string>): Array<[string, FormulaFunction]> {
  const found: Array<[string, FormulaFunction]> = [];
  for (const name of EXCEL_FUNCTIONS) {
    if (own.has(name)) continue;
    const fn = libraryFunction(name);
    if (fn) found.push([name, fn]);
  }
  return found;
}
