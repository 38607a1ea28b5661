import type { Ast, CellReference, RangeReference } from './parser.js';
import { Err, FormulaError, toNumber, type CellValue } from './values.js';

/** A rectangle of cells handed to a function (SUM(A1:B3)); read lazily, empty cells skipped. */
export interface RangeArg {
  readonly kind: 'range';
  readonly rows: number;
  readonly columns: number;
  /** value at an offset from the top-left corner */
  get(row: number, column: number): CellValue;
  /** every non-empty cell, in no particular order */
  forEach(visit: (value: Exclude<CellValue, null>, row: number, column: number) => void): void;
  /**
   * where a reference starts (zero-based) and the name of its sheet; absent for an array of values (`{1,2;3,4}`,
   * a function's computed result). OFFSET and ROW read it.
   */
  readonly origin?: { readonly row: number; readonly column: number; readonly sheet: string };
}

/** An array of values (rows of equal length) as a range argument without a place on a sheet. */
export function arrayArg(rows: ReadonlyArray<ReadonlyArray<CellValue>>): RangeArg {
  const width = rows[0]?.length ?? 0;
  return {
    kind: 'range',
    rows: rows.length,
    columns: width,
    get: (row, column) => rows[row]?.[column] ?? null,
    forEach(visit) {
      rows.forEach((line, row) =>
        line.forEach((value, column) => {
          if (value !== null) visit(value, row, column);
        }),
      );
    },
  };
}

/**
 * Several areas as one argument (the union operator `(A1:A3,C1)`, a 3-D reference `Sheet1:Sheet3!A1`): their
 * values one after another in a single column, as the functions that take them (SUM, COUNT, RANK…) read them.
 */
export function unionArg(areas: readonly RangeArg[]): RangeArg {
  const sizes = areas.map((area) => area.rows * area.columns);
  return {
    kind: 'range',
    rows: sizes.reduce((sum, size) => sum + size, 0),
    columns: 1,
    get(row) {
      let index = row;
      for (const [i, area] of areas.entries()) {
        if (index < sizes[i]!) return area.get(Math.floor(index / area.columns), index % area.columns);
        index -= sizes[i]!;
      }
      return null;
    },
    forEach(visit) {
      let offset = 0;
      for (const [i, area] of areas.entries()) {
        const start = offset;
        area.forEach((value, row, column) => visit(value, start + row * area.columns + column, 0));
        offset += sizes[i]!;
      }
    },
  };
}

export type Arg = CellValue | RangeArg;

export function isRange(arg: Arg): arg is RangeArg {
  return typeof arg === 'object' && arg !== null && !(arg instanceof FormulaError);
}

/** What evaluation needs from the workbook. */
export interface EvaluationContext {
  cell(reference: CellReference): CellValue;
  /** a range, or a single cell passed to a function (a reference, not a value: SUM skips text there) */
  range(reference: RangeReference | CellReference): RangeArg | FormulaError;
  /** the array spilling from a formula's cell (`A1#`): its area as a reference; #REF! when that cell does not spill */
  spill(anchor: CellReference): RangeArg | FormulaError;
  /** the names of the sheets from `first` to `last` in the workbook's order (a 3-D reference), or undefined when either is missing */
  sheetsBetween(first: string, last: string): string[] | undefined;
  /** milliseconds since 1970 (TODAY, NOW) */
  now(): number;
  /** the cell whose formula is being computed (ROW(), COLUMN()), zero-based */
  position(): { row: number; column: number };
  /** the names LET and a LAMBDA's parameters define around the part being computed, by upper-case name */
  readonly names?: ReadonlyMap<string, Arg>;
  /** the functions LET names (`LET(f, LAMBDA(x, x*2), f(3))`), by upper-case name */
  readonly lambdas?: ReadonlyMap<string, Lambda>;
  /** parameters of the LAMBDA being computed that its caller left out (ISOMITTED) */
  readonly omitted?: ReadonlySet<string>;
}

/** A LAMBDA: its parameters (upper case), its body, and the names around where it was written (a closure). */
export interface Lambda {
  readonly parameters: readonly string[];
  readonly body: Ast;
  readonly context: EvaluationContext;
}

/**
 * A function of the engine: args evaluated first, or (lazy) the syntax trees, for IF and IFERROR. A function may
 * answer a reference (INDIRECT, OFFSET, IF choosing a range) or an array, which the caller reads as a range.
 * `volatile`: its value may change without any cell it names changing (RAND, INDIRECT, OFFSET), so the
 * engine recomputes it after every change, as Excel does.
 */
export type FormulaFunction = (
  | { lazy?: false; minArgs: number; maxArgs: number; call(args: Arg[], context: EvaluationContext): Arg }
  /** `names`: evaluate with these names defined, besides those defined around the call */
  | { lazy: true; minArgs: number; maxArgs: number; call(args: Ast[], evaluate: (ast: Ast, names?: ReadonlyMap<string, Arg>) => Arg): Arg }
  /** LET, LAMBDA and the functions taking one (lambdas.ts): the syntax trees, the context, and the evaluator */
  | { lazy: 'context'; minArgs: number; maxArgs: number; call(args: Ast[], context: EvaluationContext, evaluate: (ast: Ast, context: EvaluationContext) => Arg): Arg }
) & { volatile?: 'clock' | 'always' };

/** A range where one value is wanted: a single cell stands for its value; anything larger is #VALUE!. */
export function scalar(arg: Arg): CellValue {
  if (!isRange(arg)) return arg;
  return arg.rows === 1 && arg.columns === 1 ? arg.get(0, 0) : Err.value;
}


/** An optional whole-number argument, or its default when left out or empty. */
export function optionalInteger(arg: Arg | undefined, fallback: number): number | FormulaError {
  if (arg === undefined || arg === null) return fallback;
  const value = toNumber(scalar(arg));
  return value instanceof FormulaError ? value : Math.trunc(value);
}
