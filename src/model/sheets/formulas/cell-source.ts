import { MAX_COLUMNS, MAX_ROWS } from '../a1.js';
import { childrenOf, parseFormula, type Ast, type ParseResult } from './parser.js';
import { SCALAR_PARAMETERS } from './lifting.js';
import { volatility } from './evaluate.js';

/** What a cell holds: a value, a formula (text starting with "=" and longer than it), or null (empty). */
export type CellInput = string | number | boolean | null;

/** A cell's input as a source stores it; `cached`: the value kept beside a formula the engine cannot read. */
export interface StoredInput {
  input: Exclude<CellInput, null>;
  cached?: CellInput;
  /**
   * A formula's text relative to its cell as grid model 3 stores it (formulas/relative.ts), when the source has it:
   * a column of copied formulas stores one such text, parsed once and moved to each cell (`parsedAt`).
   */
  relative?: string;
}

/** A rectangle of cells, zero-based and inclusive. */
export interface SourceArea {
  startRow: number;
  endRow: number;
  startColumn: number;
  endColumn: number;
}

/**
 * Where the engine reads a sheet's cell inputs, cell by cell as formulas need them: the sheet model of a document
 * (formulas/yjs.ts) or the cells a caller handed over (`CellMap`). Nothing is copied whole, so opening a workbook
 * costs nothing until a value is asked for.
 */
export interface CellSource {
  /** The input at (row, column), or undefined where the cell is empty. */
  input(row: number, column: number): StoredInput | undefined;
  /** Visits the non-empty inputs inside `area`, in no particular order. */
  forEachInput(area: SourceArea, visit: (row: number, column: number, stored: StoredInput) => void): void;
  /**
   * Visits the formulas whose text as the source keeps it `accept`s: the A1 text, or a text that parses to the same
   * shape (grid model 3 stores formulas relative to their cell). A source may skip unread whatever it knows holds no
   * accepted text.
   */
  forEachFormula(accept: (text: string) => boolean, visit: (row: number, column: number, stored: StoredInput) => void): void;
  /** The last row and column holding an input (one may be in another cell than the other); undefined when none does. */
  extent(): { lastRow: number; lastColumn: number } | undefined;
}

/** Whether an input is a formula: text starting with "=" and longer than "=". */
export function isFormulaInput(input: CellInput): input is string {
  return typeof input === 'string' && input.length > 1 && input.startsWith('=');
}

/** The cells a caller handed over (`SheetSpec.cells`), kept by position. */
export class CellMap implements CellSource {
  private readonly cells = new Map<number, StoredInput>();
  private lastRow = -1;
  private lastColumn = -1;

  constructor(cells: Iterable<readonly [row: number, column: number, input: CellInput, cached?: CellInput]> = []) {
    for (const [row, column, input, cached] of cells) {
      if (input === null || input === '') continue;
      this.cells.set(row * MAX_COLUMNS + column, cached === undefined ? { input } : { input, cached });
      this.lastRow = Math.max(this.lastRow, row);
      this.lastColumn = Math.max(this.lastColumn, column);
    }
  }

  input(row: number, column: number): StoredInput | undefined {
    return this.cells.get(row * MAX_COLUMNS + column);
  }

  forEachInput(area: SourceArea, visit: (row: number, column: number, stored: StoredInput) => void): void {
    const endRow = Math.min(area.endRow, this.lastRow);
    const endColumn = Math.min(area.endColumn, this.lastColumn);
    const size = (endRow - area.startRow + 1) * (endColumn - area.startColumn + 1);
    if (endRow < area.startRow || endColumn < area.startColumn) return;
    // probe the area when it is much smaller than the sheet, else filter the sheet's cells
    if (size * 4 <= this.cells.size) {
      for (let row = area.startRow; row <= endRow; row++) {
        for (let column = area.startColumn; column <= endColumn; column++) {
          const stored = this.cells.get(row * MAX_COLUMNS + column);
          if (stored) visit(row, column, stored);
        }
      }
      return;
    }
    for (const [key, stored] of this.cells) {
      const row = Math.floor(key / MAX_COLUMNS);
      const column = key - row * MAX_COLUMNS;
      if (row >= area.startRow && row <= endRow && column >= area.startColumn && column <= endColumn) visit(row, column, stored);
    }
  }

  forEachFormula(accept: (text: string) => boolean, visit: (row: number, column: number, stored: StoredInput) => void): void {
    for (const [key, stored] of this.cells) {
      if (!isFormulaInput(stored.input) || !accept(stored.input)) continue;
      const row = Math.floor(key / MAX_COLUMNS);
      visit(row, key - row * MAX_COLUMNS, stored);
    }
  }

  extent(): { lastRow: number; lastColumn: number } | undefined {
    return this.lastRow < 0 ? undefined : { lastRow: this.lastRow, lastColumn: this.lastColumn };
  }
}

/**
 * Functions whose result is one value whatever their arguments are: they reduce ranges and arrays to a number, a
 * count or a truth value and never compute element by element (functions.ts `aggregate`, `counter`, `logical`).
 */
const REDUCING = new Set(['SUM', 'AVERAGE', 'MIN', 'MAX', 'PRODUCT', 'COUNT', 'COUNTA', 'AND', 'OR', 'CONCAT', 'SINGLE']);

/**
 * Functions whose result is one value when each argument is one value: the functions of single values (lifted over
 * arrays only when given one, lifting.ts), and those that answer one of their arguments or a value of them.
 */
const SCALAR_OF_SCALARS = new Set([...SCALAR_PARAMETERS, 'IF', 'IFERROR', 'NOT', 'CONCATENATE', 'TODAY', 'NOW', 'RAND', 'PI']);

/** Whether evaluating this node surely gives one value, never an array or a range of several cells. */
function surelyOneValue(node: Ast): boolean {
  switch (node.kind) {
    case 'number':
    case 'string':
    case 'boolean':
    case 'error':
    case 'missing':
    case 'cell':
      return true;
    case 'unary':
    case 'percent':
      return surelyOneValue(node.operand);
    case 'binary':
      return node.operator !== ' ' && surelyOneValue(node.left) && surelyOneValue(node.right);
    case 'call':
      if (REDUCING.has(node.name)) return true;
      return SCALAR_OF_SCALARS.has(node.name) && childrenOf(node).every(surelyOneValue);
    default:
      return false;
  }
}

const classified = new Map<string, boolean>();
const CLASSIFIED_KEPT = 4096;

/**
 * Whether a formula may give an array, and so spill into the cells below and to the right of its own: every formula
 * but those made only of single values, cells and the functions above. A text that does not parse gives one value
 * (its cached value or #ERROR!). Remembered by text: a column of copied formulas stores one text many times.
 */
export function mayGiveArray(text: string): boolean {
  const known = classified.get(text);
  if (known !== undefined) return known;
  const parsed = parseFormula(text.startsWith('=') ? text : `=${text}`);
  const answer = parsed.ok && !surelyOneValue(parsed.ast);
  // a bounded memory: a workbook of many distinct formulas starts it again rather than growing it
  if (classified.size >= CLASSIFIED_KEPT) classified.clear();
  classified.set(text, answer);
  return answer;
}

/** Parsed relative texts whose tree moves to any cell by arithmetic (null: it does not, each A1 text is parsed). */
const relativeTrees = new Map<string, Ast | null>();
const RELATIVE_TREES_KEPT = 4096;

/**
 * The parse of the formula `text` (A1) stored at (row, column), `relative` its stored form when the source has it
 * (StoredInput.relative). A relative text made only of single-cell references (no range,
 * no 3-D reference) is parsed once and its tree moved to each cell: a coordinate without `$` is its distance from the
 * cell, wrapped around the grid's edge (relative.ts), so adding the cell's coordinates back (modulo the grid) gives the
 * A1 tree. The first cell of each text checks this against the parse of its A1 text; a text that differs, or holds
 * ranges (their corners are reordered when parsed), is parsed from its A1 text at every cell.
 */
export function parsedAt(text: string, relative: string | undefined, row: number, column: number): ParseResult {
  if (relative === undefined) return parseFormula(text);
  const known = relativeTrees.get(relative);
  if (known) return { ok: true, ast: movedTo(known, row, column) };
  if (known === null) return parseFormula(text);
  const own = parseFormula(text);
  const template = parseFormula(relative.startsWith('=') ? relative : `=${relative}`);
  const movable = own.ok && template.ok && onlySingleCells(template.ast) && JSON.stringify(movedTo(template.ast, row, column)) === JSON.stringify(own.ast);
  if (relativeTrees.size >= RELATIVE_TREES_KEPT) relativeTrees.clear();
  relativeTrees.set(relative, movable && template.ok ? template.ast : null);
  return own;
}

/**
 * Why the formula `a1` written at (row, column), whose stored form is `relative` (formulaRelative), does not parse, or
 * undefined when it does, decided as parsedAt decides it for the engine: a relative text whose tree moves to any cell
 * parses at every cell without the tokenizer running again. A write of a column of copied formulas checks each of
 * them before storing any; their A1 texts all differ, their stored form is one text.
 */
export function formulaProblemAt(a1: string, relative: string, row: number, column: number): string | undefined {
  if (relativeTrees.get(relative)) return undefined;
  const parsed = parsedAt(a1, relative, row, column);
  return parsed.ok ? undefined : parsed.reason;
}

function onlySingleCells(node: Ast): boolean {
  if (node.kind === 'range' || node.kind === 'cube') return false;
  return childrenOf(node).every(onlySingleCells);
}

/** A relative tree moved to (row, column): its coordinates without `$` added to the cell's, modulo the grid. */
function movedTo(node: Ast, row: number, column: number): Ast {
  switch (node.kind) {
    case 'cell':
      return {
        ...node,
        row: node.rowAbsolute ? node.row : (node.row + row) % MAX_ROWS,
        column: node.columnAbsolute ? node.column : (node.column + column) % MAX_COLUMNS,
      };
    case 'unary':
    case 'percent':
      return { ...node, operand: movedTo(node.operand, row, column) };
    case 'binary':
      return { ...node, left: movedTo(node.left, row, column), right: movedTo(node.right, row, column) };
    case 'call':
      return { ...node, args: node.args.map((arg) => movedTo(arg, row, column)) };
    case 'union':
      return { ...node, areas: node.areas.map((area) => movedTo(area, row, column)) };
    default:
      // no reference inside: shared as it is (trees are never changed once parsed)
      return node;
  }
}

const relativeVolatility = new Map<string, ReturnType<typeof volatility>>();

/** Whether the formula calls a volatile function (evaluate.ts `volatility`), remembered by relative text: the same for every copy. */
export function volatilityOf(stored: StoredInput, ast: Ast): ReturnType<typeof volatility> {
  const relative = stored.relative;
  if (relative === undefined) return volatility(ast);
  if (relativeVolatility.has(relative)) return relativeVolatility.get(relative);
  const found = volatility(ast);
  if (relativeVolatility.size >= RELATIVE_TREES_KEPT) relativeVolatility.clear();
  relativeVolatility.set(relative, found);
  return found;
}
