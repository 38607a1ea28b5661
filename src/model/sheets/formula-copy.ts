import { MAX_COLUMNS, MAX_ROWS } from './a1.js';
import { formatFormula, parseFormula, type Ast, type CellReference, type RangeReference } from './formulas/parser.js';

/**
 * A formula copied to another cell, as spreadsheets copy one (paste, fill handle, Ctrl+D, Ctrl+R): its relative
 * references move by the distance between the two cells (`=A1*2` copied one row down is `=A2*2`), anchored parts
 * (`$A$1`, the `$A` of `$A1`) stay, and a reference pushed off the grid becomes `#REF!`. Unlike the structure edits
 * of `shiftFormula`, no cell moved: every relative reference moves, on every sheet it names.
 */

const REF_ERROR: Ast = { kind: 'error', code: '#REF!' };

/** A relative coordinate moved by `by`, or undefined when that leaves the grid. */
function step(at: number, absolute: boolean, by: number, limit: number): number | undefined {
  if (absolute || by === 0) return at;
  const next = at + by;
  return next >= 0 && next < limit ? next : undefined;
}

function moveCell(ast: CellReference, rows: number, columns: number): Ast {
  const row = step(ast.row, ast.rowAbsolute, rows, MAX_ROWS);
  const column = step(ast.column, ast.columnAbsolute, columns, MAX_COLUMNS);
  if (row === undefined || column === undefined) return REF_ERROR;
  return row === ast.row && column === ast.column ? ast : { ...ast, row, column };
}

function moveRange(ast: RangeReference, rows: number, columns: number): Ast {
  // a whole-column range spans every row, a whole-row range every column: they move on their own axis only
  const byRows = ast.shape === 'columns' ? 0 : rows;
  const byColumns = ast.shape === 'rows' ? 0 : columns;
  let startRow = step(ast.startRow, ast.startRowAbsolute, byRows, MAX_ROWS);
  let endRow = step(ast.endRow, ast.endRowAbsolute, byRows, MAX_ROWS);
  let startColumn = step(ast.startColumn, ast.startColumnAbsolute, byColumns, MAX_COLUMNS);
  let endColumn = step(ast.endColumn, ast.endColumnAbsolute, byColumns, MAX_COLUMNS);
  if (startRow === undefined || endRow === undefined || startColumn === undefined || endColumn === undefined) return REF_ERROR;
  // a range with one anchored corner can turn over (`$A$1:A3` copied up): its corners are put back in order
  let { startRowAbsolute, endRowAbsolute, startColumnAbsolute, endColumnAbsolute } = ast;
  if (startRow > endRow) [startRow, endRow, startRowAbsolute, endRowAbsolute] = [endRow, startRow, endRowAbsolute, startRowAbsolute];
  if (startColumn > endColumn) [startColumn, endColumn, startColumnAbsolute, endColumnAbsolute] = [endColumn, startColumn, endColumnAbsolute, startColumnAbsolute];
  if (startRow === ast.startRow && endRow === ast.endRow && startColumn === ast.startColumn && endColumn === ast.endColumn) return ast;
  return { ...ast, startRow, endRow, startColumn, endColumn, startRowAbsolute, endRowAbsolute, startColumnAbsolute, endColumnAbsolute };
}

/** The tree with every reference moved; parts of it that hold no reference are kept as they are. */
function moveReferences(ast: Ast, rows: number, columns: number): Ast {
  if (ast.kind === 'cell') return moveCell(ast, rows, columns);
  if (ast.kind === 'range') return moveRange(ast, rows, columns);
  // every other node is a leaf or holds its operands in the fields below (kinds the parser may add later included)
  const node = ast as unknown as Record<string, unknown>;
  let changed: Record<string, unknown> | undefined;
  for (const field of ['operand', 'left', 'right'] as const) {
    const child = node[field];
    if (!isAst(child)) continue;
    const moved = moveReferences(child, rows, columns);
    if (moved !== child) (changed ??= { ...node })[field] = moved;
  }
  if (Array.isArray(node.args)) {
    const args = (node.args as unknown[]).map((arg) => (isAst(arg) ? moveReferences(arg, rows, columns) : arg));
    if (args.some((arg, index) => arg !== (node.args as unknown[])[index])) (changed ??= { ...node }).args = args;
  }
  return (changed as Ast | undefined) ?? ast;
}

function isAst(value: unknown): value is Ast {
  return typeof value === 'object' && value !== null && typeof (value as { kind?: unknown }).kind === 'string';
}

/**
 * The formula `text` copied `rows` rows down and `columns` columns right (negative: up, left). A formula that does
 * not parse, or none of whose references moves, is answered as it was (its spelling kept); else it is spelled anew.
 */
export function copyFormula(text: string, rows: number, columns: number): string {
  if (rows === 0 && columns === 0) return text;
  const parsed = parseFormula(text);
  if (!parsed.ok) return text;
  const moved = moveReferences(parsed.ast, rows, columns);
  return moved === parsed.ast ? text : formatFormula(moved);
}
