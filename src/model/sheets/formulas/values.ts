/**
 * Values the formula engine computes with. Pure TypeScript without Node or DOM imports: the spreadsheet
 * editor in the browser and the server share this engine (docs/SHEETS.md "Formulas").
 */

/**
 * Error values, as spreadsheet applications show them. `#ERROR!` is a formula that does not parse (as in
 * the common web spreadsheet); a reference cycle gives `#REF!`. `#SPILL!` and `#CALC!` are Excel's errors of
 * array results.
 */
export const ERROR_CODES = ['#DIV/0!', '#REF!', '#NAME?', '#VALUE!', '#N/A', '#NUM!', '#NULL!', '#SPILL!', '#CALC!', '#ERROR!'] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export class FormulaError {
  private static readonly interned = new Map<ErrorCode, FormulaError>();

  private constructor(readonly code: ErrorCode) {}

  /** One object per code, so errors compare with `===`. */
  static of(code: ErrorCode): FormulaError {
    let error = FormulaError.interned.get(code);
    if (!error) FormulaError.interned.set(code, (error = new FormulaError(code)));
    return error;
  }

  toString(): string {
    return this.code;
  }
}

export const Err = {
  div0: FormulaError.of('#DIV/0!'),
  ref: FormulaError.of('#REF!'),
  name: FormulaError.of('#NAME?'),
  value: FormulaError.of('#VALUE!'),
  na: FormulaError.of('#N/A'),
  num: FormulaError.of('#NUM!'),
  null: FormulaError.of('#NULL!'),
  spill: FormulaError.of('#SPILL!'),
  calc: FormulaError.of('#CALC!'),
  syntax: FormulaError.of('#ERROR!'),
} as const;

export function isErrorCode(text: string): text is ErrorCode {
  return (ERROR_CODES as readonly string[]).includes(text);
}

/** A cell's computed value; null is an empty cell. */
export type CellValue = number | string | boolean | FormulaError | null;

/** A cell's value as clients see it: errors as their code text, empty as "". */
export type DisplayValue = number | string | boolean;

export function toDisplay(value: CellValue): DisplayValue {
  if (value === null) return '';
  if (value instanceof FormulaError) return value.code;
  return value;
}

/** Numbers as text the way spreadsheets show them: 15 significant digits, so 0.1+0.2 reads "0.3". */
export function numberToText(value: number): string {
  if (Number.isInteger(value) && Math.abs(value) < 1e21) return String(value);
  return String(Number(value.toPrecision(15)));
}

export function toText(value: Exclude<CellValue, FormulaError>): string {
  if (value === null) return '';
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (typeof value === 'number') return numberToText(value);
  return value;
}

const NUMERIC_TEXT = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*%?\s*$/;

/**
 * A value as a number for arithmetic: an empty cell is 0, text that reads as a number counts, other text
 * (the empty text `""` among it, as in Excel: `""*"1"` is #VALUE!) is #VALUE!.
 */
export function toNumber(value: CellValue): number | FormulaError {
  if (value === null) return 0;
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof FormulaError) return value;
  if (!NUMERIC_TEXT.test(value)) return Err.value;
  const trimmed = value.trim();
  return trimmed.endsWith('%') ? Number(trimmed.slice(0, -1)) / 100 : Number(trimmed);
}

export function toBoolean(value: CellValue): boolean | FormulaError {
  if (value === null) return false;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  if (value instanceof FormulaError) return value;
  const upper = value.toUpperCase();
  if (upper === 'TRUE') return true;
  if (upper === 'FALSE') return false;
  return Err.value;
}

/** A finished number: NaN and infinities are #NUM!, as spreadsheets have no such numbers. */
export function finite(value: number): number | FormulaError {
  return Number.isFinite(value) ? value : Err.num;
}

function typeRank(value: Exclude<CellValue, FormulaError | null>): number {
  return typeof value === 'number' ? 0 : typeof value === 'string' ? 1 : 2;
}

/**
 * Spreadsheet ordering: numbers before text before booleans, text ignoring case; an empty cell compares
 * as 0, "" or FALSE, whichever the other side is.
 */
export function compareValues(left: Exclude<CellValue, FormulaError>, right: Exclude<CellValue, FormulaError>): number {
  const a = left ?? blankLike(right);
  const b = right ?? blankLike(left);
  const rankA = typeRank(a);
  const rankB = typeRank(b);
  if (rankA !== rankB) return rankA - rankB;
  if (typeof a === 'string' && typeof b === 'string') {
    const x = a.toLowerCase();
    const y = b.toLowerCase();
    return x < y ? -1 : x > y ? 1 : 0;
  }
  return Number(a) - Number(b);
}

export type ComparisonOperator = '=' | '<>' | '<' | '>' | '<=' | '>=';

/** Whether an order (negative, zero, positive: from compareValues) satisfies a comparison operator. */
export function satisfies(operator: ComparisonOperator, order: number): boolean {
  switch (operator) {
    case '=':
      return order === 0;
    case '<>':
      return order !== 0;
    case '<':
      return order < 0;
    case '>':
      return order > 0;
    case '<=':
      return order <= 0;
    case '>=':
      return order >= 0;
  }
}

function blankLike(other: Exclude<CellValue, FormulaError>): number | string | boolean {
  if (typeof other === 'string') return '';
  if (typeof other === 'boolean') return false;
  return 0;
}
