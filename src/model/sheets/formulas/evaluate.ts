import { arrayArg, isRange, scalar, unionArg, type Arg, type EvaluationContext, type RangeArg } from './args.js';
import { FUNCTIONS } from './functions.js';
import { invoke, lambdaOf } from './lambdas.js';
import { elementwise, holdsSeveral, SCALAR_PARAMETERS } from './lifting.js';
import { CALLED_IN_PLACE, childrenOf, type Ast, type BinaryOperator, type CellReference, type RangeReference } from './parser.js';
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

/**
 * Whether an operand takes part element by element (a dynamic array: `A1:A3*2` is three values). A whole-column or
 * whole-row reference does not: `=A:A&"/"&B:B` reads the formula's row (implicit intersection), as workbooks written
 * before dynamic arrays expect, where a million-row array would be no one's intent.
 */
function spreads(node: Ast, arg: Arg): arg is RangeArg {
  return holdsSeveral(arg) && !(node.kind === 'range' && node.shape !== 'cells');
}

function negated(operator: '-' | '+' | '%', value: CellValue): CellValue {
  const number = toNumber(value);
  if (number instanceof FormulaError) return number;
  return operator === '%' ? number / 100 : operator === '-' ? -number : number;
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
      return context.names?.get(ast.name.toUpperCase()) ?? Err.name;
    case 'missing':
      return null;
    case 'cell':
      return context.cell(ast);
    case 'range':
      return context.range(ast);
    case 'unary':
    case 'percent': {
      const operator = ast.kind === 'unary' ? ast.operator : '%';
      const operand = evaluateAst(ast.operand, context);
      if (spreads(ast.operand, operand)) return elementwise([operand], ([value = null]) => negated(operator, value));
      return negated(operator, intersect(operand, context));
    }
    case 'binary': {
      const left = evaluateAst(ast.left, context);
      const right = evaluateAst(ast.right, context);
      if (ast.operator === ' ') return intersection(left, right, context);
      const operator = ast.operator;
      if (spreads(ast.left, left) || spreads(ast.right, right)) return elementwise([left, right], ([a = null, b = null]) => binary(operator, a, b, context));
      return binary(operator, left, right, context);
    }
    case 'union':
      return joined(ast.areas.map((area) => asReference(area, context)));
    case 'array':
      return arrayArg(ast.rows.map((row) => row.map((element) => (element.kind === 'error' ? FormulaError.of(element.code) : element.value))));
    case 'cube': {
      const sheets = context.sheetsBetween(ast.first, ast.last);
      if (!sheets) return Err.ref;
      return joined(sheets.map((sheet) => context.range({ ...ast.reference, sheet })));
    }
    case 'call': {
      // `A1#`: the array spilling from A1 (Excel stores it as ANCHORARRAY(A1))
      if (ast.name === 'ANCHORARRAY') return ast.args.length === 1 && ast.args[0]!.kind === 'cell' ? context.spill(ast.args[0]!) : Err.value;
      // `@x`: one value of x, the cell in the formula's row or column (implicit intersection), an array's first
      if (ast.name === 'SINGLE') {
        if (ast.args.length !== 1) return Err.value;
        const operand = evaluateAst(ast.args[0]!, context);
        return isRange(operand) && !operand.origin ? (operand.rows > 0 && operand.columns > 0 ? operand.get(0, 0) : Err.calc) : intersect(operand, context);
      }
      if (ast.name === CALLED_IN_PLACE) {
        const lambda = lambdaOf(ast.args[0]!, context);
        return lambda instanceof FormulaError ? lambda : invoke(lambda, ast.args.slice(1).map((arg) => asReference(arg, context)), evaluateAst);
      }
      const fn = FUNCTIONS.get(ast.name);
      // a name LET gave a LAMBDA, called: `LET(f, LAMBDA(x, x*2), f(3))`
      const named = fn ? undefined : context.lambdas?.get(ast.name);
      if (named) return invoke(named, ast.args.map((arg) => asReference(arg, context)), evaluateAst);
      if (!fn) return Err.name;
      if (ast.args.length < fn.minArgs || ast.args.length > fn.maxArgs) return Err.value;
      if (fn.lazy === 'context') return fn.call(ast.args, context, evaluateAst);
      if (fn.lazy) return fn.call(ast.args, (arg, names) => evaluateAst(arg, names ? { ...context, names: new Map([...(context.names ?? []), ...names]) } : context));
      const args = ast.args.map((arg) => asReference(arg, context));
      // a function of single values given an array is computed for each of its values (lifting.ts)
      if (SCALAR_PARAMETERS.has(ast.name) && args.some((arg, index) => spreads(ast.args[index]!, arg))) return elementwise(args, (values) => fn.call(values, context));
      return fn.call(args, context);
    }
  }
}

/** A formula's result: one value, or the rows of an array that spills from the formula's cell (docs/FORMULAS.md "Spill"). */
export type FormulaResult = CellValue | CellValue[][];

/**
 * A formula's value. An array or a range of more than one cell is a dynamic array: its rows are the result, which the
 * workbook spills into the cells below and to the right. A whole-column or whole-row reference as the whole formula
 * gives its cell in the formula's row or column (implicit intersection). An empty cell reads as 0, as spreadsheet
 * applications show it, in the formula's cell and in its spill alike.
 */
export function evaluateFormula(ast: Ast, context: EvaluationContext): FormulaResult {
  const result = evaluateAst(ast, context);
  if (isRange(result) && (result.rows === 0 || result.columns === 0)) return Err.calc;
  if (spreads(ast, result)) {
    const rows: CellValue[][] = [];
    for (let row = 0; row < result.rows; row++) {
      const line: CellValue[] = [];
      for (let column = 0; column < result.columns; column++) line.push(result.get(row, column) ?? 0);
      rows.push(line);
    }
    return rows;
  }
  const value = isRange(result) && !result.origin ? result.get(0, 0) : intersect(result, context);
  return value === null ? 0 : value;
}

/** A formula's result as it is, a reference or array kept whole (a list of values a data validation rule names). */
export function evaluateWhole(ast: Ast, context: EvaluationContext): Arg {
  return evaluateAst(ast, context);
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
