import { MAX_COLUMNS, MAX_ROWS } from '../a1.js';
import { formatFormula, parseFormula, type Ast } from './parser.js';

/** Rows or columns inserted before `index`, or deleted from `index` on, in the sheet named `sheet`. */
export interface StructureEdit {
  kind: 'insert' | 'delete';
  axis: 'rows' | 'columns';
  sheet: string;
  /** zero-based */
  index: number;
  count: number;
}

const REF_ERROR: Ast = { kind: 'error', code: '#REF!' };

/** Where position `at` goes, or undefined when it is deleted or pushed off the grid. */
function moved(at: number, edit: StructureEdit, limit: number): number | undefined {
  if (at < edit.index) return at;
  if (edit.kind === 'insert') return at + edit.count < limit ? at + edit.count : undefined;
  if (at < edit.index + edit.count) return undefined;
  return at - edit.count;
}

/** A range's span after the edit: deleting part of it shrinks it, inserting inside it widens it. */
function movedSpan(start: number, end: number, edit: Pick<StructureEdit, 'kind' | 'index' | 'count'>, limit: number): [number, number] | undefined {
  if (edit.kind === 'insert') {
    const first = start >= edit.index ? start + edit.count : start;
    const last = Math.min(end >= edit.index ? end + edit.count : end, limit - 1);
    return first < limit ? [first, last] : undefined;
  }
  const deletedEnd = edit.index + edit.count - 1;
  const first = start < edit.index ? start : start > deletedEnd ? start - edit.count : edit.index;
  const last = end < edit.index ? end : end > deletedEnd ? end - edit.count : edit.index - 1;
  return last >= first ? [first, last] : undefined;
}

/** Where a rectangle of cells is after the edit (made on its sheet), or undefined once all its rows or columns are deleted. */
export function shiftRange<R extends { startRow: number; endRow: number; startColumn: number; endColumn: number }>(range: R, edit: Pick<StructureEdit, 'kind' | 'axis' | 'index' | 'count'>): R | undefined {
  if (edit.axis === 'rows') {
    const span = movedSpan(range.startRow, range.endRow, edit, MAX_ROWS);
    return span && { ...range, startRow: span[0], endRow: span[1] };
  }
  const span = movedSpan(range.startColumn, range.endColumn, edit, MAX_COLUMNS);
  return span && { ...range, startColumn: span[0], endColumn: span[1] };
}

function shiftAst(ast: Ast, ownSheet: string, edit: StructureEdit): Ast {
  const affected = (sheet: string | null) => (sheet ?? ownSheet).toLowerCase() === edit.sheet.toLowerCase();
  const limit = edit.axis === 'rows' ? MAX_ROWS : MAX_COLUMNS;
  switch (ast.kind) {
    case 'cell': {
      if (!affected(ast.sheet)) return ast;
      const before = edit.axis === 'rows' ? ast.row : ast.column;
      const position = moved(before, edit, limit);
      if (position === undefined) return REF_ERROR;
      if (position === before) return ast;
      return edit.axis === 'rows' ? { ...ast, row: position } : { ...ast, column: position };
    }
    case 'range': {
      // a whole-column range spans every row (and a whole-row range every column): unmoved on that axis
      if (!affected(ast.sheet) || (ast.shape === 'columns' && edit.axis === 'rows') || (ast.shape === 'rows' && edit.axis === 'columns')) return ast;
      const span = edit.axis === 'rows' ? movedSpan(ast.startRow, ast.endRow, edit, limit) : movedSpan(ast.startColumn, ast.endColumn, edit, limit);
      if (!span) return REF_ERROR;
      const [start, end] = edit.axis === 'rows' ? [ast.startRow, ast.endRow] : [ast.startColumn, ast.endColumn];
      if (span[0] === start && span[1] === end) return ast;
      return edit.axis === 'rows' ? { ...ast, startRow: span[0], endRow: span[1] } : { ...ast, startColumn: span[0], endColumn: span[1] };
    }
    // compound nodes are rebuilt only when a part moved, so an untouched formula keeps its text
    case 'unary':
    case 'percent': {
      const operand = shiftAst(ast.operand, ownSheet, edit);
      return operand === ast.operand ? ast : { ...ast, operand };
    }
    case 'binary': {
      const left = shiftAst(ast.left, ownSheet, edit);
      const right = shiftAst(ast.right, ownSheet, edit);
      return left === ast.left && right === ast.right ? ast : { ...ast, left, right };
    }
    case 'call': {
      const args = ast.args.map((arg) => shiftAst(arg, ownSheet, edit));
      return args.every((arg, i) => arg === ast.args[i]) ? ast : { ...ast, args };
    }
    case 'union': {
      const areas = ast.areas.map((area) => shiftAst(area, ownSheet, edit));
      return areas.every((area, i) => area === ast.areas[i]) ? ast : { ...ast, areas };
    }
    default:
      return ast;
  }
}

/**
 * A formula's text after rows or columns are inserted or deleted: references below or right of the edit
 * move, references to deleted cells become #REF!, ranges grow or shrink. `ownSheet` is the name of the
 * formula's sheet (references without a sheet are to it). Text that does not parse, or that no reference
 * of changes, is returned as it was (its spacing kept).
 */
export function shiftFormula(text: string, ownSheet: string, edit: StructureEdit): string {
  if (edit.count <= 0) return text;
  const parsed = parseFormula(text);
  if (!parsed.ok) return text;
  const shifted = shiftAst(parsed.ast, ownSheet, edit);
  return shifted === parsed.ast ? text : formatFormula(shifted);
}
