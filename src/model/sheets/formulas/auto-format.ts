import { columnIndex } from '../a1.js';
import { DATE_FORMAT, isDateFormat } from '../number-format.js';
import { parseFormula, type Ast } from './parser.js';

/**
 * The number format Excel gives a formula typed into a cell that has none (General), so `=DATE(2024,3,15)` shows a
 * date rather than 45366. Excel's rules, as far as this engine follows them (docs/FORMULAS.md "Formats of formula
 * results"): the formula's leading term decides, reading through `+`, `-` (its left side: `=B1-A1` of two dates is
 * a date in Excel too), a sign and parentheses:
 * - a call of DATE or TODAY gives a date, NOW a date and time, TIME a time;
 * - a reference to a cell with a date or time format gives that format (`=A1+7`).
 * Anything else stays General: a division of plain numbers is not made a percentage, YEAR(A1) is a number.
 */

/** What the functions that answer a date or a time show, in the formats typing a date gives (typed-input.ts). */
const FUNCTION_FORMATS: ReadonlyMap<string, string> = new Map([
  ['DATE', DATE_FORMAT],
  ['TODAY', DATE_FORMAT],
  ['NOW', 'yyyy-mm-dd hh:mm'],
  ['TIME', 'h:mm AM/PM'],
]);

/** A formula's first term as text: a call of one of FUNCTION_FORMATS' functions, or a cell reference (with its sheet). */
const LEADING = /^=[\s(+]*(?:(DATE|TODAY|NOW|TIME)\s*\(|(?:'((?:[^']|'')+)'!|([A-Za-z0-9_.]+)!)?\$?([A-Za-z]{1,3})\$?(\d+))/i;

/** The node whose format the result takes: through `+`, `-`, signs and the left side of the two. */
function leadingTerm(ast: Ast): Ast {
  let node = ast;
  for (;;) {
    if (node.kind === 'binary' && (node.operator === '+' || node.operator === '-')) node = node.left;
    else if (node.kind === 'unary' && node.operator === '+') node = node.operand;
    else return node;
  }
}

/**
 * The format for `formula` typed into a General cell, or undefined to leave it General. `formatOf` gives the
 * number format of a cell a reference names (`sheet` null: the formula's own sheet), undefined for General.
 */
export function formulaFormat(formula: string, formatOf: (sheet: string | null, row: number, column: number) => string | undefined): string | undefined {
  // most formulas start with neither such a call nor a date's reference: they are told apart without parsing
  const leading = LEADING.exec(formula);
  if (!leading) return undefined;
  const [, call, quoted, plain, letters = '', digits = ''] = leading;
  if (call === undefined) {
    const sheet = quoted !== undefined ? quoted.replace(/''/g, "'") : (plain ?? null);
    const column = columnIndex(letters);
    if (column === undefined || !isDateFormat(formatOf(sheet, Number(digits) - 1, column))) return undefined;
  }
  const parsed = parseFormula(formula);
  if (!parsed.ok) return undefined;
  const term = leadingTerm(parsed.ast);
  if (term.kind === 'call') return FUNCTION_FORMATS.get(term.name);
  if (term.kind === 'cell') {
    const format = formatOf(term.sheet, term.row, term.column);
    return isDateFormat(format) ? format : undefined;
  }
  return undefined;
}

/** Gives a stored formula cell without a format the one `formulaFormat` chooses (the editor and the values API write through this). */
export function withFormulaFormat<T extends { f?: string; z?: string }>(cell: T | null, formatOf: (sheet: string | null, row: number, column: number) => string | undefined): T | null {
  if (cell === null || cell.f === undefined || cell.z !== undefined) return cell;
  const format = formulaFormat(cell.f, formatOf);
  if (format !== undefined) cell.z = format;
  return cell;
}
