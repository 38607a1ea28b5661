import { arrayArg, isRange, type Arg, type RangeArg } from './args.js';
import { Err, FormulaError, type CellValue } from './values.js';

/**
 * Excel's lifting of scalar operations over arrays (dynamic arrays): an operator, or a function whose parameters
 * each want one value, given arrays is computed value by value and answers an array (`=ABS(A1:A3)` spills three
 * values, `SUMPRODUCT(--ISNUMBER(SEARCH("x", B1:B9)))` counts). Workbooks written before dynamic arrays read
 * such an argument by implicit intersection instead; their formulas carry Excel's `@` there (legacy.ts).
 */

/** Largest array a formula builds (SEQUENCE, RANDARRAY, MAKEARRAY, a lifted call): Excel's grid, 1,048,576 × 16,384, is far more than a tab holds. */
export const MAX_ARRAY_CELLS = 1_000_000;

/**
 * Functions whose every parameter is one value (a number, text, a date, a truth value), never a range: given
 * arrays they are lifted. Functions that take ranges (SUM, MATCH, INDEX…), or answer one of their arguments as it
 * is (IF, CHOOSE), are not here; IF and IFERROR lift their own way (functions.ts).
 */
export const SCALAR_PARAMETERS: ReadonlySet<string> = new Set(
  `ABS ACOS ACOSH ACOT ACOTH ARABIC ASIN ASINH ATAN ATAN2 ATANH BASE CEILING CEILING.MATH CEILING.PRECISE COMBIN COMBINA
  COS COSH COT COTH CSC CSCH DECIMAL DEGREES EVEN EXP FACT FACTDOUBLE FLOOR FLOOR.MATH FLOOR.PRECISE INT ISO.CEILING LN LOG
  LOG10 MOD MROUND ODD PERMUT POWER QUOTIENT RADIANS ROMAN ROUND ROUNDDOWN ROUNDUP SEC SECH SIGN SIN SINH SQRT SQRTPI TAN
  TANH TRUNC
  CHAR CLEAN CODE DOLLAR EXACT FIND FIXED LEFT LEN LOWER MID NUMBERVALUE PROPER REPLACE REPT RIGHT SEARCH SUBSTITUTE TEXT
  TRIM UNICHAR UNICODE UPPER VALUE
  DATE DATEDIF DATEVALUE DAY DAYS EDATE EOMONTH HOUR ISOWEEKNUM MINUTE MONTH SECOND TIME TIMEVALUE WEEKDAY WEEKNUM YEAR
  ISBLANK ISERR ISERROR ISEVEN ISLOGICAL ISNA ISNONTEXT ISNUMBER ISODD ISTEXT NOT`.split(/\s+/),
);

/** An argument that holds more than one value. */
export function holdsSeveral(arg: Arg): arg is RangeArg {
  return isRange(arg) && (arg.rows > 1 || arg.columns > 1);
}

/**
 * Arguments combined value by value: a single value, a one-row or a one-column array is repeated along the others'
 * rows or columns; past the end of a shorter array is #N/A. `combine` answers one value; an array there is
 * #CALC! (Excel has no arrays of arrays). More than MAX_ARRAY_CELLS values is #NUM!, as SEQUENCE's limit.
 */
export function elementwise(args: readonly Arg[], combine: (values: CellValue[]) => Arg): RangeArg | FormulaError {
  const rows = Math.max(...args.map((arg) => (isRange(arg) ? arg.rows : 1)));
  const columns = Math.max(...args.map((arg) => (isRange(arg) ? arg.columns : 1)));
  if (rows * columns > MAX_ARRAY_CELLS) return Err.num;
  const pick = (arg: Arg, row: number, column: number): CellValue => {
    if (!isRange(arg)) return arg;
    const r = arg.rows === 1 ? 0 : row;
    const c = arg.columns === 1 ? 0 : column;
    return r < arg.rows && c < arg.columns ? arg.get(r, c) : Err.na;
  };
  const values: CellValue[][] = [];
  for (let row = 0; row < rows; row++) {
    const line: CellValue[] = [];
    for (let column = 0; column < columns; column++) line.push(oneValue(combine(args.map((arg) => pick(arg, row, column)))));
    values.push(line);
  }
  return arrayArg(values);
}

/** One value of a result computed for one cell of an array. */
export function oneValue(result: Arg): CellValue {
  if (!isRange(result)) return result;
  return result.rows === 1 && result.columns === 1 ? result.get(0, 0) : Err.calc;
}
