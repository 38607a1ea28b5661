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
  // a node whose parts need no `@` is answered as it is (not a copy): the import checks a formula for rewriting by
  // identity, without printing it twice (docs/PERFORMANCE.md "The million-cell import within its budget")
  const inner = ((): Ast => {
    switch (node.kind) {
      case 'unary':
      case 'percent': {
        const operand = intersected(node.operand, true);
        return operand === node.operand ? node : { ...node, operand };
      }
      case 'binary': {
        // the intersection operator and the union work on references, not on values
        if (node.operator === ' ') return node;
        const left = intersected(node.left, true);
        const right = intersected(node.right, true);
        return left === node.left && right === node.right ? node : { ...node, left, right };
      }
      case 'call': {
        if (ARRAY_ARGUMENTS.has(node.name)) return node;
        // a function of single values (lifting.ts), and IF's condition, read one value of a range: `ABS(@A1:A9)`
        const args = node.args.map((arg, index) => intersected(arg, SCALAR_PARAMETERS.has(node.name) || (node.name === 'IF' && index === 0)));
        return args.every((arg, index) => arg === node.args[index]) ? node : { ...node, args };
      }
      default:
        return node;
    }
  })();
  return wantsOne && manyValued(inner) ? { kind: 'call', name: 'SINGLE', args: [inner] } : inner;
}

/**
 * A legacy formula's text with Excel's `@` where it reads one value of several (the text as it is when none is
 * needed), and whether the engine reads it (parses): the import keeps Excel's value for a formula it cannot read.
 * One parse tells both; only a rewritten text is parsed again.
 */
export function legacyFormulaRead(text: string): { text: string; readable: boolean } {
  const parsed = parseFormula(text);
  if (!parsed.ok) return { text, readable: false };
  const rewritten = intersected(parsed.ast, true);
  if (rewritten === parsed.ast) return { text, readable: true };
  const written = formatFormula(rewritten);
  if (written === formatFormula(parsed.ast)) return { text, readable: true };
  return { text: written, readable: parseFormula(written).ok };
}
