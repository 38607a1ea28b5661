import { isRange, scalar, unionArg, type Arg, type EvaluationContext, type RangeArg } from './args.js';
import { FUNCTIONS } from './functions.js';
import { childrenOf, type Ast, type BinaryOperator, type CellReference, type RangeReference } from './parser.js';
import { Err, FormulaError, compareValues, finite, satisfies, toNumber, toText, type CellValue } from './values.js';

function arithmetic(operator: BinaryOperator, left: number, right: number): CellValue {
  switch (operator) {
    case '+':
      return finite(left + right);
    case '-':
      return finite(left - right);
    case '*':
      return finite(left * right);
    case '/':
      return right === 0 ? Err.div0 : finite(left / right);
    default:
      return left === 0 && right <= 0 ? (right === 0 ? Err.num : Err.div0) : finite(left ** right);
  }
}

/**
 * Excel's implicit intersection, where an operator wants one value: a one-column reference gives its cell in the
 * formula's row, a one-row reference its cell in the formula's column (`=A:A*2` in row 5 reads A5); anything
 * else larger than a cell is #VALUE!.
 */
function intersect(arg: Arg, context: EvaluationContext): CellValue {
  if (!isRange(arg) || (arg.rows === 1 && arg.columns === 1) || !arg.origin) return scalar(arg);
  const here = context.position();
  if (arg.columns === 1) {
    const row = here.row - arg.origin.row;
    return row >= 0 && row < arg.rows ? arg.get(row, 0) : Err.value;
  }
  if (arg.rows === 1) {
    const column = here.column - arg.origin.column;
    return column >= 0 && column < arg.columns ? arg.get(0, column) : Err.value;
  }
  return Err.value;
}

function binary(operator: Exclude<BinaryOperator, ' '>, leftArg: Arg, rightArg: Arg, context: EvaluationContext): CellValue {
  const left = intersect(leftArg, context);
  if (left instanceof FormulaError) return left;
  const right = intersect(rightArg, context);
  if (right instanceof FormulaError) return right;
  if (operator === '&') return toText(left) + toText(right);
  if (operator === '=' || operator === '<>' || operator === '<' || operator === '>' || operator === '<=' || operator === '>=') {
    return satisfies(operator, compareValues(left, right));
  }
  const a = toNumber(left);
  if (a instanceof FormulaError) return a;
  const b = toNumber(right);
  if (b instanceof FormulaError) return b;
  return arithmetic(operator, a, b);
}

/** Excel's intersection operator: the cells two references on one sheet share, `#NULL!` when none. */
function intersection(leftArg: Arg, rightArg: Arg, context: EvaluationContext): Arg {
  if (leftArg instanceof FormulaError) return leftArg;
  if (rightArg instanceof FormulaError) return rightArg;
  if (!isRange(leftArg) || !isRange(rightArg) || !leftArg.origin || !rightArg.origin) return Err.value;
  const [a, b] = [leftArg.origin, rightArg.origin];
  if (a.sheet.toLowerCase() !== b.sheet.toLowerCase()) return Err.value;
  const top = Math.max(a.row, b.row);
  const left = Math.max(a.column, b.column);
  const bottom = Math.min(a.row + leftArg.rows, b.row + rightArg.rows) - 1;
  const right = Math.min(a.column + leftArg.columns, b.column + rightArg.columns) - 1;
  if (bottom < top || right < left) return Err.null;
  return context.range({
    kind: 'range', sheet: a.sheet, shape: 'cells', startRow: top, endRow: bottom, startColumn: left, endColumn: right,
    startRowAbsolute: false, endRowAbsolute: false, startColumnAbsolute: false, endColumnAbsolute: false,
  });
}

/** Areas joined by the union operator or a 3-D reference: errors pass on, values that are not references are #VALUE!. */
function joined(parts: Arg[]): Arg {
  const areas: RangeArg[] = [];
  for (const part of parts) {
    if (part instanceof FormulaError) return part;
    if (!isRange(part)) return Err.value;
    areas.push(part);
  }
  return areas.length === 1 ? areas[0]! : unionArg(areas);
}

/** A node where a reference is wanted (a function's argument, an area of a union): a cell stays a reference (SUM skips text there). */
function asReference(ast: Ast, context: EvaluationContext): Arg {
  return ast.kind === 'cell' ? context.range(ast) : evaluateAst(ast, context);
}

function evaluateAst(ast: Ast, context: EvaluationContext): Arg {
  switch (ast.kind) {
    case 'number':
    case 'string':
    case 'boolean':
      return ast.value;
    case 'error':
      return FormulaError.of(ast.code);
    case 'name':
      return Err.name;
    case 'missing':
      return null;
    case 'cell':
      return context.cell(ast);
    case 'range':
      return context.range(ast);
    case 'unary': {
      const value = toNumber(intersect(evaluateAst(ast.operand, context), context));
      if (value instanceof FormulaError) return value;
      return ast.operator === '-' ? -value : value;
    }
    case 'percent': {
      const value = toNumber(intersect(evaluateAst(ast.operand, context), context));
      return value instanceof FormulaError ? value : value / 100;
    }
    case 'binary':
      if (ast.operator === ' ') return intersection(evaluateAst(ast.left, context), evaluateAst(ast.right, context), context);
      return binary(ast.operator, evaluateAst(ast.left, context), evaluateAst(ast.right, context), context);
    case 'union':
      return joined(ast.areas.map((area) => asReference(area, context)));
    case 'cube': {
      const sheets = context.sheetsBetween(ast.first, ast.last);
      if (!sheets) return Err.ref;
      return joined(sheets.map((sheet) => context.range({ ...ast.reference, sheet })));
    }
    case 'call': {
      const fn = FUNCTIONS.get(ast.name);
      if (!fn) return Err.name;
      if (ast.args.length < fn.minArgs || ast.args.length > fn.maxArgs) return Err.value;
      if (fn.lazy) return fn.call(ast.args, (arg) => evaluateAst(arg, context));
      return fn.call(
        ast.args.map((arg) => asReference(arg, context)),
        context,
      );
    }
  }
}

/**
 * A formula's value. A range as the whole result gives its single cell or #VALUE! (results do not spill);
 * a reference to an empty cell gives 0, as spreadsheet applications show it.
 */
export function evaluateFormula(ast: Ast, context: EvaluationContext): CellValue {
  const value = intersect(evaluateAst(ast, context), context);
  return value === null ? 0 : value;
}

/**
 * Whether the formula calls a volatile function: `clock` when one reads the clock (TODAY, NOW: recomputed when
 * asked, `recalculateVolatile`), `always` when one may change at any calculation (RAND, INDIRECT, OFFSET:
 * recomputed after every change); `clock` wins, as such a formula is recomputed both ways.
 */
export function volatility(ast: Ast): 'clock' | 'always' | undefined {
  let found: 'clock' | 'always' | undefined;
  const visit = (node: Ast): void => {
    if (node.kind === 'call') {
      const kind = FUNCTIONS.get(node.name)?.volatile;
      if (kind === 'clock' || (kind === 'always' && found === undefined)) found = kind;
    }
    for (const child of childrenOf(node)) visit(child);
  };
  visit(ast);
  return found;
}

/**
 * Every cell and range the formula refers to, for the dependency graph. A 3-D reference stands for its
 * reference on each sheet `sheetsBetween` names (without it, on its first and last sheet).
 */
export function referencesOf(ast: Ast, sheetsBetween?: (first: string, last: string) => string[] | undefined): Array<CellReference | RangeReference> {
  const found: Array<CellReference | RangeReference> = [];
  const visit = (node: Ast): void => {
    if (node.kind === 'cell' || node.kind === 'range') found.push(node);
    else if (node.kind === 'cube') {
      for (const sheet of sheetsBetween?.(node.first, node.last) ?? [node.first, node.last]) found.push({ ...node.reference, sheet });
    } else for (const child of childrenOf(node)) visit(child);
  };
  visit(ast);
  return found;
}
