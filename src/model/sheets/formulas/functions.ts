import { arrayArg, isRange, optionalInteger, scalar, type Arg, type FormulaFunction, type RangeArg } from './args.js';
import { ARRAY_FUNCTIONS } from './arrays.js';
import { LAMBDA_FUNCTIONS } from './lambdas.js';
import { elementwise, holdsSeveral } from './lifting.js';
import { libraryFunctions } from './library.js';
import { REFERENCE_FUNCTIONS } from './references.js';
import { DATE_FUNCTIONS } from './dates.js';
import { formatValue } from '../number-format.js';
import { Err, FormulaError, compareValues, finite, satisfies, toBoolean, toNumber, toText, type CellValue, type ComparisonOperator } from './values.js';

/**
 * The engine's functions, by upper-case name. Semantics follow the common desktop spreadsheet: in a range,
 * aggregates take numbers only (text and booleans there are skipped), given directly they convert
 * ("3" and TRUE count as 3 and 1); the first error met is the result.
 */

const MS_PER_DAY = 86_400_000;
/** Serial number of 1970-01-01: dates are days since 1899-12-30, as in the common desktop format. */
const UNIX_EPOCH_SERIAL = 25_569;

/** Visits the numbers of the arguments; returns the first error met. */
function eachNumber(args: Arg[], visit: (value: number) => void): FormulaError | undefined {
  for (const arg of args) {
    if (isRange(arg)) {
      let error: FormulaError | undefined;
      arg.forEach((value) => {
        if (error) return;
        if (value instanceof FormulaError) error = value;
        else if (typeof value === 'number') visit(value);
      });
      if (error) return error;
      continue;
    }
    const value = toNumber(arg);
    if (value instanceof FormulaError) return value;
    if (arg !== null) visit(value);
  }
  return undefined;
}

/** Every value of the arguments, ranges flattened row by row, empty cells of ranges skipped. */
function eachValue(args: Arg[], visit: (value: CellValue) => void): void {
  for (const arg of args) {
    if (!isRange(arg)) {
      visit(arg);
      continue;
    }
    for (let row = 0; row < arg.rows; row++) {
      for (let column = 0; column < arg.columns; column++) {
        const value = arg.get(row, column);
        if (value !== null) visit(value);
      }
    }
  }
}

function aggregate(reduce: (numbers: number[]) => CellValue): FormulaFunction {
  return {
    minArgs: 1,
    maxArgs: 255,
    call(args) {
      const numbers: number[] = [];
      return eachNumber(args, (value) => numbers.push(value)) ?? reduce(numbers);
    },
  };
}

function numeric(minArgs: number, maxArgs: number, compute: (...numbers: number[]) => CellValue): FormulaFunction {
  return {
    minArgs,
    maxArgs,
    call(args) {
      const numbers: number[] = [];
      for (const arg of args) {
        const value = toNumber(scalar(arg));
        if (value instanceof FormulaError) return value;
        numbers.push(value);
      }
      return compute(...numbers);
    },
  };
}

function textual(compute: (text: string) => CellValue): FormulaFunction {
  return {
    minArgs: 1,
    maxArgs: 1,
    call([arg = null]) {
      const value = scalar(arg);
      return value instanceof FormulaError ? value : compute(toText(value));
    },
  };
}

function logical(combine: (values: boolean[]) => boolean): FormulaFunction {
  return {
    minArgs: 1,
    maxArgs: 255,
    call(args) {
      const values: boolean[] = [];
      for (const arg of args) {
        if (isRange(arg)) {
          let error: FormulaError | undefined;
          arg.forEach((value) => {
            if (value instanceof FormulaError) error ??= value;
            else if (typeof value !== 'string') values.push(value === true || (typeof value === 'number' && value !== 0));
          });
          if (error) return error;
          continue;
        }
        const value = toBoolean(arg);
        if (value instanceof FormulaError) return value;
        values.push(value);
      }
      return values.length === 0 ? Err.value : combine(values);
    },
  };
}

/** Half away from zero, as spreadsheets round (ROUND(2.5) = 3, ROUND(-2.5) = -3). */
function round(value: number, digits: number): CellValue {
  const places = Math.trunc(digits);
  const factor = 10 ** Math.abs(places);
  const scaled = places >= 0 ? Math.abs(value) * factor : Math.abs(value) / factor;
  // the tiny nudge absorbs binary representation error (1.005 is stored as 1.00499999…)
  const rounded = Math.round(scaled * (1 + Number.EPSILON * 4));
  const result = places >= 0 ? rounded / factor : rounded * factor;
  return finite(Math.sign(value) * result);
}

/** A SUMIF/COUNTIF criterion: `5`, `"apples"`, `">=10"`, `"<>x"`, `"a*"` (wildcards * and ?). */
function criterion(arg: Arg): ((value: CellValue) => boolean) | FormulaError {
  const given = scalar(arg);
  if (given instanceof FormulaError) return given;
  if (typeof given === 'number' || typeof given === 'boolean') return (value) => value === given || (typeof given === 'number' && typeof value === 'string' && toNumber(value) === given && value.trim() !== '');
  const text = given === null ? '' : given;
  const match = /^(<=|>=|<>|<|>|=)?(.*)$/s.exec(text);
  const operator = (match?.[1] ?? '=') as ComparisonOperator;
  const operand = match?.[2] ?? '';
  const number = operand.trim() === '' ? Number.NaN : Number(operand);
  const test = (order: number): boolean => satisfies(operator, order);
  if (!Number.isNaN(number)) return (value) => typeof value === 'number' && test(value - number);
  if (operand === '') return operator === '<>' ? (value) => value !== null && value !== '' : (value) => value === null || value === '';
  if (operator === '=' || operator === '<>') {
    const pattern = new RegExp(`^${operand.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`, 'is');
    return (value) => (typeof value === 'string' && pattern.test(value)) === (operator === '=');
  }
  return (value) => typeof value === 'string' && test(compareValues(value, operand));
}

function conditional(summing: boolean): FormulaFunction {
  return {
    minArgs: 2,
    maxArgs: summing ? 3 : 2,
    call([range, test, sumRange]) {
      if (!isRange(range ?? null)) return Err.value;
      const cells = range as RangeArg;
      const matches = criterion(test ?? null);
      if (matches instanceof FormulaError) return matches;
      const target = sumRange === undefined ? cells : sumRange;
      if (summing && !isRange(target)) return Err.value;
      let total = 0;
      for (let row = 0; row < cells.rows; row++) {
        for (let column = 0; column < cells.columns; column++) {
          if (!matches(cells.get(row, column))) continue;
          if (!summing) {
            total++;
            continue;
          }
          const value = (target as RangeArg).get(row, column);
          if (value instanceof FormulaError) return value;
          if (typeof value === 'number') total += value;
        }
      }
      return finite(total);
    },
  };
}

/** The values of a one-row or one-column range, in order; undefined for a larger rectangle. */
function lineOf(range: RangeArg): CellValue[] | undefined {
  if (range.rows !== 1 && range.columns !== 1) return undefined;
  const values: CellValue[] = [];
  for (let i = 0; i < Math.max(range.rows, range.columns); i++) values.push(range.rows === 1 ? range.get(0, i) : range.get(i, 0));
  return values;
}

/**
 * XMATCH's search (XLOOKUP's too): the position of `key` in `line`, or -1. `matchMode` 0 exact, -1 exact or
 * next smaller, 1 exact or next larger, 2 wildcards; `searchMode` 1 first to last, -1 last to first (binary
 * searches 2 and -2 give the same answers on sorted data and are read as 1 and -1).
 */
function lineSearch(key: Exclude<CellValue, FormulaError>, line: CellValue[], matchMode: number, searchMode: number): number {
  const pattern = matchMode === 2 && typeof key === 'string' ? new RegExp(`^${key.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/~\*/g, '\u0000').replace(/~\?/g, '\u0001').replace(/\*/g, '.*').replace(/\?/g, '.').replace(/\u0000/g, '\\*').replace(/\u0001/g, '\\?')}$`, 'is') : undefined;
  let best = -1;
  const order = searchMode < 0 ? line.map((_, index) => line.length - 1 - index) : line.map((_, index) => index);
  for (const index of order) {
    const candidate = line[index];
    if (candidate === undefined || candidate === null || candidate instanceof FormulaError || typeof candidate !== typeof key) continue;
    if (pattern ? pattern.test(String(candidate)) : compareValues(candidate, key) === 0) return index;
    if (matchMode !== -1 && matchMode !== 1) continue;
    const comparison = compareValues(candidate, key);
    if ((matchMode === -1 && comparison < 0) || (matchMode === 1 && comparison > 0)) {
      const current = best === -1 ? undefined : line[best];
      if (current === undefined || current === null || current instanceof FormulaError || (matchMode === -1 ? compareValues(candidate, current) > 0 : compareValues(candidate, current) < 0)) best = index;
    }
  }
  return best;
}

const xmatch: FormulaFunction = {
  minArgs: 2,
  maxArgs: 4,
  call([wanted = null, within = null, mode, search]) {
    const key = scalar(wanted);
    if (key instanceof FormulaError) return key;
    const line = isRange(within) ? lineOf(within) : undefined;
    if (!line) return Err.value;
    const matchMode = optionalInteger(mode, 0);
    if (matchMode instanceof FormulaError) return matchMode;
    const searchMode = optionalInteger(search, 1);
    if (searchMode instanceof FormulaError) return searchMode;
    const found = lineSearch(key, line, matchMode, searchMode);
    return found === -1 ? Err.na : found + 1;
  },
};

/** XLOOKUP: the row (or column) of the return range at the position found: one value, or an array that spills. */
const xlookup: FormulaFunction = {
  minArgs: 3,
  maxArgs: 6,
  call([wanted = null, within = null, returned = null, notFound, mode, search]) {
    const key = scalar(wanted);
    if (key instanceof FormulaError) return key;
    const line = isRange(within) ? lineOf(within) : undefined;
    if (!line || !isRange(returned)) return Err.value;
    const matchMode = optionalInteger(mode, 0);
    if (matchMode instanceof FormulaError) return matchMode;
    const searchMode = optionalInteger(search, 1);
    if (searchMode instanceof FormulaError) return searchMode;
    const found = lineSearch(key, line, matchMode, searchMode);
    if (found === -1) return notFound === undefined ? Err.na : scalar(notFound);
    const vertical = isRange(within) && within.columns === 1 && within.rows > 1;
    const width = vertical ? returned.columns : returned.rows;
    if (width === 1) return vertical ? returned.get(found, 0) : returned.get(0, found);
    return arrayArg(vertical ? [Array.from({ length: width }, (_, column) => returned.get(found, column))] : Array.from({ length: width }, (_, row) => [returned.get(row, found)]));
  },
};

const vlookup: FormulaFunction = {
  minArgs: 3,
  maxArgs: 4,
  call([wanted = null, table = null, index = null, approximate = true]) {
    const key = scalar(wanted);
    if (key instanceof FormulaError) return key;
    if (!isRange(table)) return Err.value;
    const column = toNumber(scalar(index));
    if (column instanceof FormulaError) return column;
    const offset = Math.trunc(column) - 1;
    if (offset < 0) return Err.value;
    if (offset >= table.columns) return Err.ref;
    const sorted = toBoolean(scalar(approximate));
    if (sorted instanceof FormulaError) return sorted;
    if (key === null) return Err.na;
    let found = -1;
    for (let row = 0; row < table.rows; row++) {
      const candidate = table.get(row, 0);
      if (candidate instanceof FormulaError || candidate === null) continue;
      const sameKind = typeof candidate === typeof key;
      if (!sorted) {
        if (sameKind && compareValues(candidate, key) === 0) {
          found = row;
          break;
        }
        continue;
      }
      // sorted lookup: the last row whose key is not past the one wanted
      if (!sameKind) continue;
      if (compareValues(candidate, key) > 0) break;
      found = row;
    }
    return found === -1 ? Err.na : table.get(found, offset);
  },
};

function concatenate(acceptsRanges: boolean): FormulaFunction {
  return {
    minArgs: 1,
    maxArgs: 255,
    call(args) {
      let text = '';
      let error: FormulaError | undefined;
      if (!acceptsRanges && args.some((arg) => isRange(arg) && (arg.rows > 1 || arg.columns > 1))) return Err.value;
      eachValue(args, (value) => {
        if (value instanceof FormulaError) error ??= value;
        else text += toText(value);
      });
      return error ?? text;
    },
  };
}

/** Counts the values of ranges that `inRange` accepts and the values given directly that `direct` accepts. */
function counter(inRange: (value: Exclude<CellValue, null>) => boolean, direct: (value: CellValue) => boolean): FormulaFunction {
  return {
    minArgs: 1,
    maxArgs: 255,
    call(args) {
      let count = 0;
      for (const arg of args) {
        if (isRange(arg)) arg.forEach((value) => (count += inRange(value) ? 1 : 0));
        else if (direct(arg)) count++;
      }
      return count;
    },
  };
}

function serialNow(milliseconds: number): number {
  return UNIX_EPOCH_SERIAL + milliseconds / MS_PER_DAY;
}

/** ROW/COLUMN: the reference's first row or column (1-based), or the formula's own cell without an argument. */
function position(axis: 'row' | 'column'): FormulaFunction {
  return {
    minArgs: 0,
    maxArgs: 1,
    call([reference], context) {
      if (reference === undefined) return context.position()[axis] + 1;
      if (!isRange(reference) || !reference.origin) return Err.value;
      return reference.origin[axis] + 1;
    },
  };
}

/** ROWS/COLUMNS: the size of a reference or an array; a single value counts as one. */
function size(axis: 'rows' | 'columns'): FormulaFunction {
  return {
    minArgs: 1,
    maxArgs: 1,
    call([arg = null]) {
      if (isRange(arg)) return arg[axis];
      return arg instanceof FormulaError ? arg : 1;
    },
  };
}

function holdsError(range: RangeArg): boolean {
  let found = false;
  range.forEach((value) => (found ||= value instanceof FormulaError));
  return found;
}

const OWN_FUNCTIONS = new Map<string, FormulaFunction>([
  ['SUM', aggregate((numbers) => finite(numbers.reduce((sum, value) => sum + value, 0)))],
  ['AVERAGE', aggregate((numbers) => (numbers.length === 0 ? Err.div0 : finite(numbers.reduce((sum, value) => sum + value, 0) / numbers.length)))],
  // a loop, not Math.min(...numbers): spreading a whole column's numbers would overflow the stack
  ['MIN', aggregate((numbers) => (numbers.length === 0 ? 0 : numbers.reduce((least, value) => (value < least ? value : least))))],
  ['MAX', aggregate((numbers) => (numbers.length === 0 ? 0 : numbers.reduce((most, value) => (value > most ? value : most))))],
  ['PRODUCT', aggregate((numbers) => finite(numbers.reduce((product, value) => product * value, 1)))],
  ['COUNT', counter((value) => typeof value === 'number', (value) => typeof value === 'number' || (typeof value === 'string' && value.trim() !== '' && !(toNumber(value) instanceof FormulaError)))],
  ['COUNTA', counter((value) => value !== '', (value) => value !== null)],
  ['ABS', numeric(1, 1, (value) => Math.abs(value))],
  ['ROUND', numeric(1, 2, (value, digits = 0) => round(value, digits))],
  ['INT', numeric(1, 1, (value) => Math.floor(value))],
  ['MOD', numeric(2, 2, (value, divisor) => (divisor === 0 ? Err.div0 : finite(value - divisor * Math.floor(value / divisor))))],
  ['SQRT', numeric(1, 1, (value) => (value < 0 ? Err.num : Math.sqrt(value)))],
  ['POWER', numeric(2, 2, (base, exponent) => (base === 0 && exponent <= 0 ? (exponent === 0 ? Err.num : Err.div0) : finite(base ** exponent)))],
  [
    'IF',
    {
      lazy: true,
      minArgs: 2,
      maxArgs: 3,
      call([test, then, otherwise], evaluate) {
        const tested = evaluate(test!);
        // an array of conditions chooses value by value (`IF(A1:A9>0, "yes", "no")` spills nine answers)
        if (holdsSeveral(tested)) {
          return elementwise([tested, evaluate(then!), otherwise === undefined ? false : evaluate(otherwise)], ([each = null, yes = null, no = null]) => {
            const condition = toBoolean(each);
            return condition instanceof FormulaError ? condition : condition ? yes : no;
          });
        }
        const condition = toBoolean(scalar(tested));
        if (condition instanceof FormulaError) return condition;
        // the branch taken is the answer as it is: a reference stays one (`SUM(IF(x,A1:A3,B1:B3))`)
        if (condition) return evaluate(then!);
        return otherwise === undefined ? false : evaluate(otherwise);
      },
    },
  ],
  [
    'IFERROR',
    {
      lazy: true,
      minArgs: 2,
      maxArgs: 2,
      call([value, fallback], evaluate) {
        const result = evaluate(value!);
        // errors among an array's values are replaced one by one (`IFERROR(A1:A9/B1:B9, 0)`)
        if (holdsSeveral(result) && holdsError(result)) return elementwise([result, evaluate(fallback!)], ([each = null, instead = null]) => (each instanceof FormulaError ? instead : each));
        return result instanceof FormulaError ? evaluate(fallback!) : result;
      },
    },
  ],
  ['AND', logical((values) => values.every(Boolean))],
  ['OR', logical((values) => values.some(Boolean))],
  [
    'NOT',
    {
      minArgs: 1,
      maxArgs: 1,
      call([arg = null]) {
        const value = toBoolean(scalar(arg));
        return value instanceof FormulaError ? value : !value;
      },
    },
  ],
  ['VLOOKUP', vlookup],
  ['CONCAT', concatenate(true)],
  ['CONCATENATE', concatenate(false)],
  ['LEN', textual((text) => text.length)],
  ['UPPER', textual((text) => text.toUpperCase())],
  ['LOWER', textual((text) => text.toLowerCase())],
  ['TRIM', textual((text) => text.trim().replace(/ {2,}/g, ' '))],
  ['SUMIF', conditional(true)],
  ['COUNTIF', conditional(false)],
  ['TODAY', { minArgs: 0, maxArgs: 0, volatile: 'clock', call: (_args, context) => Math.floor(serialNow(context.now())) }],
  ['NOW', { minArgs: 0, maxArgs: 0, volatile: 'clock', call: (_args, context) => serialNow(context.now()) }],
  ...REFERENCE_FUNCTIONS,
  ...DATE_FUNCTIONS,
  ...ARRAY_FUNCTIONS,
  ...LAMBDA_FUNCTIONS,
  ['XLOOKUP', xlookup],
  ['XMATCH', xmatch],
  ['ROW', position('row')],
  ['COLUMN', position('column')],
  ['ROWS', size('rows')],
  ['COLUMNS', size('columns')],
  [
    // one formatter for cells and TEXT: what a format code shows in a cell is what TEXT gives
    'TEXT',
    {
      minArgs: 2,
      maxArgs: 2,
      call([value = null, code = null]) {
        const shown = scalar(value);
        if (shown instanceof FormulaError) return shown;
        const format = scalar(code);
        if (format instanceof FormulaError) return format;
        const number = typeof shown === 'string' ? toNumber(shown) : shown;
        return formatValue(number instanceof FormulaError ? (shown as string) : (number ?? ''), toText(format));
      },
    },
  ],
]);

/** Library functions whose value changes at every calculation (RANDARRAY is ours, arrays.ts). */
const RANDOM = new Set(['RAND', 'RANDBETWEEN']);

/** Every function of the engine: ours first, then the Excel functions @formulajs/formulajs computes (library.ts). */
export const FUNCTIONS: ReadonlyMap<string, FormulaFunction> = new Map([
  ...OWN_FUNCTIONS,
  ...libraryFunctions(new Set(OWN_FUNCTIONS.keys())).map(([name, fn]): [string, FormulaFunction] => [name, RANDOM.has(name) ? { ...fn, volatile: 'always' } : fn]),
]);
