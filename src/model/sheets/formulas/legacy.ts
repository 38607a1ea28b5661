import { SCALAR_PARAMETERS } from './lifting.js';
import { formatFormula, parseFormula, type Ast } from './parser.js';

/**
 * Formulas of workbooks written before dynamic arrays (and formulas Excel 365 stores without its array flag) read a
 * range where one value is wanted by implicit intersection: `=A1:A9*2` in row 5 is A5*2 there, where a dynamic-array
 * formula spills nine values. Excel 365 opens such a formula as `=@A1:A9*2`; the xlsx import writes it the same way,
 * so it keeps the value Excel stored while a formula typed in the editor spills (docs/FORMULAS.md "Dynamic arrays").
 */

/** Functions that may answer several values, which a legacy formula reads one of where one value is wanted. */
const MANY_VALUED = new Set([
  'SEQUENCE', 'SORT', 'SORTBY', 'FILTER', 'UNIQUE', 'RANDARRAY', 'TRANSPOSE', 'TOCOL', 'TOROW', 'CHOOSEROWS', 'CHOOSECOLS',
  'TAKE', 'DROP', 'HSTACK', 'VSTACK', 'TEXTSPLIT', 'MMULT', 'MINVERSE', 'MUNIT', 'FREQUENCY', 'LINEST', 'LOGEST', 'TREND',
  'GROWTH', 'OFFSET', 'INDIRECT', 'XLOOKUP',
]);
/**
 * Functions whose arguments Excel always computed as arrays (`SUMPRODUCT(A1:A9*B1:B9)` needed no Ctrl+Shift+Enter,
 * where `SUM(A1:A9*B1:B9)` read one row): nothing inside them is intersected.
 */
const ARRAY_ARGUMENTS = new Set([
  'SUMPRODUCT', 'MMULT', 'MINVERSE', 'MDETERM', 'TRANSPOSE', 'FREQUENCY', 'LINEST', 'LOGEST', 'TREND', 'GROWTH', 'INDEX',
  'LOOKUP', 'MATCH', 'SUMX2MY2', 'SUMX2PY2', 'SUMXMY2', 'CORREL', 'PEARSON', 'RSQ', 'SLOPE', 'INTERCEPT', 'COVAR', 'FORECAST',
  'STEYX', 'TTEST', 'CHITEST', 'FTEST', 'PROB', 'AGGREGATE',
]);
/** Functions that answer one of their arguments as it is (a range given stays a range). */
const PASSING = new Set(['IF', 'IFERROR', 'IFNA', 'CHOOSE', 'IFS', 'SWITCH']);

function manyValued(node: Ast): boolean {
  if (node.kind === 'range') return node.shape === 'cells' && (node.startRow !== node.endRow || node.startColumn !== node.endColumn);
  if (node.kind === 'array') return node.rows.length > 1 || (node.rows[0]?.length ?? 0) > 1;
  if (node.kind !== 'call') return false;
  if (MANY_VALUED.has(node.name)) return true;
  return PASSING.has(node.name) && node.args.some(manyValued);
}

/** `node` with `@` before each part that may give several values where an operator or the cell wants one. */
function intersected(node: Ast, wantsOne: boolean): Ast {
  const inner = ((): Ast => {
    switch (node.kind) {
      case 'unary':
      case 'percent':
        return { ...node, operand: intersected(node.operand, true) };
      case 'binary':
        // the intersection operator and the union work on references, not on values
        return node.operator === ' ' ? node : { ...node, left: intersected(node.left, true), right: intersected(node.right, true) };
      case 'call':
        if (ARRAY_ARGUMENTS.has(node.name)) return node;
        // a function of single values (lifting.ts), and IF's condition, read one value of a range: `ABS(@A1:A9)`
        return { ...node, args: node.args.map((arg, index) => intersected(arg, SCALAR_PARAMETERS.has(node.name) || (node.name === 'IF' && index === 0))) };
      default:
        return node;
    }
  })();
  return wantsOne && manyValued(inner) ? { kind: 'call', name: 'SINGLE', args: [inner] } : inner;
}

/** A legacy formula's text with Excel's `@` where it reads one value of several; the text as it is when none is needed. */
export function legacyFormula(text: string): string {
  const parsed = parseFormula(text);
  if (!parsed.ok) return text;
  const rewritten = intersected(parsed.ast, true);
  return rewritten === parsed.ast || formatFormula(rewritten) === formatFormula(parsed.ast) ? text : formatFormula(rewritten);
}
