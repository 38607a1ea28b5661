import * as Y from 'yjs';
import {
  cellKey,
  DEFAULT_COLUMN_COUNT,
  DEFAULT_ROW_COUNT,
  newSheet,
  parseCellKey,
  recordStructureEdit,
  sheetsOf,
  type Cell,
} from '../../src/model/content.js';
import { MAX_COLUMNS, MAX_ROWS } from '../../src/model/sheets/a1.js';
import { invalidStylePatch, styleOf, type CellStyle, type StylePatch } from '../../src/model/sheets/cell-style.js';
import { formatOf, invalidInput, isEmptyCell, sameCell, toCell, withFormat, withStyle, type CellInput } from '../../src/model/sheets/cells.js';
import { DATE_FORMAT, DATE_TIME_FORMAT, dateFormatFor, formatNumber, invalidFormatCode, isDateFormat } from '../../src/model/sheets/number-format.js';
import { shiftFormula, type StructureEdit } from '../../src/model/sheets/formulas/index.js';
import { invalidSheetName } from '../../src/model/sheets/sheet-names.js';
import { COLUMN_WIDTHS_FIELD as COLUMN_WIDTHS, columnWidthOf, FROZEN_ROWS_FIELD as FROZEN_ROWS, frozenRowsOf } from '../../src/model/sheets/layout.js';
import type { CellRange } from '../shared/grid/grid.js';

/**
 * The spreadsheet content model (docs/CONTENT-MODEL.md) as the editor changes it: the same root, sheet fields
 * and cell shape the values API reads, through the server's own model helpers. Every change is one Yjs
 * transaction with the editor's origin, so the undo manager undoes this user's changes only.
 *
 * Two sheet fields are the editor's own: `columnWidths` and `frozenRows` (src/model/sheets/layout.ts).
 */

export { DEFAULT_COLUMN_WIDTH } from '../../src/model/sheets/layout.js';

export type Sheet = Y.Map<unknown>;

export interface SheetSummary {
  id: string;
  name: string;
  index: number;
  rowCount: number;
  columnCount: number;
}

/** A refused edit, with a key of the editor's messages so the page can say why. */
export class WorkbookError extends Error {
  constructor(
    readonly reason: 'sheetName' | 'sheetExists' | 'lastSheet' | 'tooLarge' | 'invalidValue' | 'noSheet' | 'formatTooLarge' | 'styleTooLarge',
    message: string,
  ) {
    super(message);
  }
}

function count(sheet: Sheet, field: 'rowCount' | 'columnCount', fallback: number): number {
  const value = sheet.get(field);
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : fallback;
}

export class Workbook {
  readonly sheets: Y.Array<Sheet>;

  constructor(
    readonly doc: Y.Doc,
    /** the transaction origin of this editor's changes (what its undo manager tracks) */
    readonly origin: object,
  ) {
    this.sheets = sheetsOf(doc);
  }

  list(): Sheet[] {
    return this.sheets.toArray();
  }

  summary(sheet: Sheet, index = this.list().indexOf(sheet)): SheetSummary {
    return { id: this.idOf(sheet), name: this.nameOf(sheet), index, rowCount: this.rowCount(sheet), columnCount: this.columnCount(sheet) };
  }

  byId(id: string): Sheet | undefined {
    return this.list().find((sheet) => this.idOf(sheet) === id);
  }

  /** The sheet named `name` exactly, else the one name equal ignoring case (as the values API finds sheets). */
  byName(name: string): Sheet | undefined {
    const sheets = this.list();
    const exact = sheets.find((sheet) => this.nameOf(sheet) === name);
    if (exact) return exact;
    const folded = sheets.filter((sheet) => this.nameOf(sheet).toLowerCase() === name.toLowerCase());
    return folded.length === 1 ? folded[0] : undefined;
  }

  idOf(sheet: Sheet): string {
    const id = sheet.get('id');
    return typeof id === 'string' ? id : '';
  }

  nameOf(sheet: Sheet): string {
    const name = sheet.get('name');
    return typeof name === 'string' ? name : '';
  }

  rowCount(sheet: Sheet): number {
    return count(sheet, 'rowCount', DEFAULT_ROW_COUNT);
  }

  columnCount(sheet: Sheet): number {
    return count(sheet, 'columnCount', DEFAULT_COLUMN_COUNT);
  }

  cells(sheet: Sheet): Y.Map<unknown> | undefined {
    const cells = sheet.get('cells');
    return cells instanceof Y.Map ? cells : undefined;
  }

  cell(sheet: Sheet, row: number, column: number): Cell | undefined {
    const value = this.cells(sheet)?.get(cellKey(row, column));
    return isEmptyCell(value) ? undefined : (value as Cell);
  }

  /** What the formula bar shows: the formula, else the value as typed (a date as a date, which reads back the same). */
  input(sheet: Sheet, row: number, column: number): string {
    const cell = this.cell(sheet, row, column);
    if (!cell) return '';
    if (typeof cell.f === 'string' && cell.f !== '') return cell.f;
    if (typeof cell.v === 'boolean') return cell.v ? 'TRUE' : 'FALSE';
    if (typeof cell.v === 'number' && isDateFormat(cell.z)) return formatNumber(cell.v, dateFormatFor(cell.v));
    return cell.v === undefined || cell.v === null ? '' : String(cell.v);
  }

  /** The cell's number format code; undefined for General. */
  format(sheet: Sheet, row: number, column: number): string | undefined {
    return formatOf(this.cells(sheet)?.get(cellKey(row, column)));
  }

  /**
   * Gives every cell of `range` the number format `code` (null: General), empty cells too, so what is typed
   * there later shows in it. At most MAX_FORMATTED_CELLS cells at once: formats are kept per cell.
   */
  setFormat(sheet: Sheet, range: CellRange, code: string | null): void {
    const reason = code === null ? undefined : invalidFormatCode(code);
    if (reason) throw new WorkbookError('invalidValue', reason);
    this.restyle(sheet, range, 'formatTooLarge', (stored) => withFormat(stored, code));
  }

  /** The cell's style; undefined for the default look. */
  style(sheet: Sheet, row: number, column: number): CellStyle | undefined {
    return styleOf(this.cells(sheet)?.get(cellKey(row, column)));
  }

  /**
   * Changes the style of every cell of `range` by `patch` (docs/SHEETS.md "Cell styles"), empty cells too, so what
   * is typed there later shows in it. At most MAX_FORMATTED_CELLS cells at once: styles are kept per cell.
   */
  setStyle(sheet: Sheet, range: CellRange, patch: StylePatch): void {
    const reason = invalidStylePatch(patch);
    if (reason) throw new WorkbookError('invalidValue', reason);
    this.restyle(sheet, range, 'styleTooLarge', (stored) => withStyle(stored, patch));
  }

  /** Rewrites every cell of `range` as `next` makes it, in one change; cells `next` leaves as they were are not touched. */
  private restyle(sheet: Sheet, range: CellRange, tooLarge: 'formatTooLarge' | 'styleTooLarge', next: (stored: unknown) => Cell | null): void {
    const size = (range.bottom - range.top + 1) * (range.right - range.left + 1);
    if (size > MAX_FORMATTED_CELLS) throw new WorkbookError(tooLarge, `at most ${MAX_FORMATTED_CELLS} cells are formatted at once, not ${size}`);
    this.change(() => {
      const cells = this.cellsForWriting(sheet);
      for (let row = range.top; row <= range.bottom; row++) {
        for (let column = range.left; column <= range.right; column++) {
          const key = cellKey(row, column);
          const stored = cells.get(key);
          const cell = next(stored);
          if (cell === null) {
            if (stored !== undefined) cells.delete(key);
          } else if (!sameCell(stored, cell)) cells.set(key, cell);
        }
      }
    });
  }

  columnWidth(sheet: Sheet, column: number): number {
    return columnWidthOf(sheet, column);
  }

  frozenRows(sheet: Sheet): number {
    return frozenRowsOf(sheet);
  }

  private change(mutate: () => void): void {
    this.doc.transact(mutate, this.origin);
  }

  private cellsForWriting(sheet: Sheet): Y.Map<unknown> {
    let cells = this.cells(sheet);
    if (!cells) {
      cells = new Y.Map<unknown>();
      sheet.set('cells', cells);
    }
    return cells;
  }

  /**
   * Writes a block of typed inputs with its top-left at (row, column), growing the sheet to hold it. Text is
   * read as a spreadsheet reads typing: numbers, TRUE/FALSE, formulas ("=…"), else text. Checked before anything
   * changes, so a refused block leaves the sheet as it was.
   */
  setBlock(sheet: Sheet, row: number, column: number, block: readonly (readonly string[])[]): void {
    const height = block.length;
    const width = block.reduce((widest, line) => Math.max(widest, line.length), 0);
    if (row + height > MAX_ROWS || column + width > MAX_COLUMNS) {
      throw new WorkbookError('tooLarge', `${height} × ${width} cells at row ${row + 1} pass the sheet's limits (${MAX_ROWS} rows, ${MAX_COLUMNS} columns)`);
    }
    const inputs = block.map((line) => line.map(parseTyped));
    for (const line of inputs) {
      for (const { input } of line) {
        const reason = invalidInput(input);
        if (reason) throw new WorkbookError('invalidValue', reason);
      }
    }
    this.change(() => {
      const cells = this.cellsForWriting(sheet);
      inputs.forEach((line, r) =>
        line.forEach(({ input, format }, c) => {
          const key = cellKey(row + r, column + c);
          const stored = cells.get(key);
          const next = toCell(input, stored);
          // a date or percentage typed into a General cell gives it the format it was typed in, as spreadsheets do
          if (next !== null && format !== undefined && next.z === undefined) next.z = format;
          if (next === null) cells.delete(key);
          else cells.set(key, next);
        }),
      );
      if (row + height > this.rowCount(sheet)) sheet.set('rowCount', row + height);
      if (column + width > this.columnCount(sheet)) sheet.set('columnCount', column + width);
    });
  }

  setInput(sheet: Sheet, row: number, column: number, text: string): void {
    this.setBlock(sheet, row, column, [[text]]);
  }

  clear(sheet: Sheet, range: CellRange): void {
    const cells = this.cells(sheet);
    if (!cells) return;
    const cleared: Array<[string, ReturnType<typeof toCell>]> = [];
    cells.forEach((value, key) => {
      const at = parseCellKey(key);
      // clearing keeps a cell's number format (as the Delete key does in spreadsheets)
      if (at && at.row >= range.top && at.row <= range.bottom && at.column >= range.left && at.column <= range.right && !isEmptyCell(value)) cleared.push([key, toCell(null, value)]);
    });
    if (cleared.length > 0) this.change(() => cleared.forEach(([key, next]) => (next === null ? cells.delete(key) : cells.set(key, next))));
  }

  /** Inserts (delta > 0) or removes (delta < 0) rows or columns at `at`, moving the cells below or right. */
  shift(sheet: Sheet, axis: 'row' | 'column', at: number, delta: number): void {
    const field = axis === 'row' ? 'rowCount' : 'columnCount';
    const size = axis === 'row' ? this.rowCount(sheet) : this.columnCount(sheet);
    const limit = axis === 'row' ? MAX_ROWS : MAX_COLUMNS;
    if (delta > 0 && size + delta > limit) throw new WorkbookError('tooLarge', `a sheet has at most ${limit} ${axis}s`);
    // a sheet keeps at least one row and one column
    const removed = delta < 0 ? Math.min(-delta, size - at, size - 1) : 0;
    if (delta < 0 && removed <= 0) return;
    const cells = this.cells(sheet);
    const edit: StructureEdit = {
      kind: delta > 0 ? 'insert' : 'delete',
      axis: axis === 'row' ? 'rows' : 'columns',
      sheet: this.nameOf(sheet),
      index: at,
      count: delta > 0 ? delta : removed,
    };
    this.change(() => {
      // formulas everywhere follow the cells they refer to (references to removed cells become #REF!), and
      // the sheet's log lets comment anchors follow too
      this.shiftFormulas(edit);
      recordStructureEdit(sheet, edit);
      if (cells) {
        const moves: Array<[string, unknown]> = [];
        const removals: string[] = [];
        cells.forEach((value, key) => {
          const position = parseCellKey(key);
          if (!position || position[axis] < at) return;
          removals.push(key);
          const index = position[axis];
          if (delta < 0 && index < at + removed) return;
          const moved = delta > 0 ? index + delta : index - removed;
          moves.push([axis === 'row' ? cellKey(moved, position.column) : cellKey(position.row, moved), value]);
        });
        for (const key of removals) cells.delete(key);
        for (const [key, value] of moves) cells.set(key, value);
      }
      if (axis === 'column') this.shiftWidths(sheet, at, delta > 0 ? delta : -removed);
      sheet.set(field, delta > 0 ? size + delta : size - removed);
    });
  }

  /** Rewrites in place every formula whose references a row or column edit moves (before the cells move). */
  private shiftFormulas(edit: StructureEdit): void {
    for (const other of this.list()) {
      const cells = this.cells(other);
      const ownName = this.nameOf(other);
      cells?.forEach((value, key) => {
        const formula = (value as Cell | undefined)?.f;
        if (typeof formula !== 'string' || formula.length < 2) return;
        const shifted = shiftFormula(formula, ownName, edit);
        if (shifted === formula) return;
        cells.set(key, { ...(value as Cell), f: shifted });
      });
    }
  }

  private shiftWidths(sheet: Sheet, at: number, delta: number): void {
    const widths = sheet.get(COLUMN_WIDTHS);
    if (!(widths instanceof Y.Map)) return;
    const entries: Array<[number, unknown]> = [];
    widths.forEach((width, key) => entries.push([Number(key), width]));
    for (const [column] of entries) if (column >= at) widths.delete(String(column));
    for (const [column, width] of entries) {
      if (column < at) continue;
      if (delta < 0 && column < at - delta) continue;
      widths.set(String(column + delta), width);
    }
  }

  setColumnWidth(sheet: Sheet, column: number, width: number): void {
    this.change(() => {
      let widths = sheet.get(COLUMN_WIDTHS);
      if (!(widths instanceof Y.Map)) {
        widths = new Y.Map<number>();
        sheet.set(COLUMN_WIDTHS, widths);
      }
      (widths as Y.Map<number>).set(String(column), Math.round(width));
    });
  }

  setFrozenRows(sheet: Sheet, frozen: number): void {
    this.change(() => sheet.set(FROZEN_ROWS, frozen > 0 ? 1 : 0));
  }

  /** Checks a new name for `sheet` (or for a new sheet): valid and unique ignoring case. */
  private checkName(name: string, sheet?: Sheet): void {
    const reason = invalidSheetName(name);
    if (reason) throw new WorkbookError('sheetName', reason);
    const folded = name.toLowerCase();
    if (this.list().some((other) => other !== sheet && this.nameOf(other).toLowerCase() === folded)) {
      throw new WorkbookError('sheetExists', `a sheet named "${name}" already exists`);
    }
  }

  /** The first of `Sheet2`, `Sheet3`, … not taken. */
  nextSheetName(base: string): string {
    const taken = new Set(this.list().map((sheet) => this.nameOf(sheet).toLowerCase()));
    let n = this.list().length + 1;
    while (taken.has(`${base}${n}`.toLowerCase())) n++;
    return `${base}${n}`;
  }

  addSheet(name: string): Sheet {
    this.checkName(name);
    const sheet = newSheet(name, crypto.randomUUID());
    this.change(() => this.sheets.push([sheet]));
    return sheet;
  }

  renameSheet(sheet: Sheet, name: string): void {
    if (name === this.nameOf(sheet)) return;
    this.checkName(name, sheet);
    this.change(() => sheet.set('name', name));
  }

  deleteSheet(sheet: Sheet): void {
    const index = this.list().indexOf(sheet);
    if (index === -1) throw new WorkbookError('noSheet', 'the sheet no longer exists');
    if (this.sheets.length <= 1) throw new WorkbookError('lastSheet', 'a spreadsheet keeps at least one sheet');
    this.change(() => this.sheets.delete(index, 1));
  }

  /** Moves a sheet to another place in the order: a Yjs type cannot move, so it is re-inserted as a copy (same id). */
  moveSheet(sheet: Sheet, to: number): Sheet {
    const from = this.list().indexOf(sheet);
    const target = Math.max(0, Math.min(to, this.sheets.length - 1));
    if (from === -1 || from === target) return sheet;
    const copy = sheet.clone();
    this.change(() => {
      this.sheets.delete(from, 1);
      this.sheets.insert(target, [copy]);
    });
    return copy;
  }
}

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const PERCENT = /^([+-]?(\d+\.?\d*|\.\d+))%$/;
const DATE = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;
/** Most cells one number format change touches. */
export const MAX_FORMATTED_CELLS = 100_000;
/** Days between the serial epoch 1899-12-30 (docs/SHEETS.md "Dates") and 1970-01-01. */
const EPOCH_OFFSET_DAYS = 25_569;

/**
 * Typed text as a cell input: a number when it reads as one, a percentage (`12.5%` is 0.125, shown `0.0%`), a date
 * (`2024-03-15`, `2024/3/15 9:30`: its serial number, shown as typed), TRUE/FALSE, else the text (formulas stay
 * text). `format` is the number format the way it was typed implies.
 */
export function parseTyped(text: string): { input: CellInput; format?: string } {
  const trimmed = text.trim();
  if (trimmed === '') return { input: null };
  if (text.startsWith('=')) return { input: text };
  if (NUMBER.test(trimmed)) {
    const value = Number(trimmed);
    if (Number.isFinite(value)) return { input: value };
  }
  const percent = PERCENT.exec(trimmed);
  if (percent) {
    const decimals = (percent[1]!.split('.')[1] ?? '').length;
    return { input: Number(percent[1]) / 100, format: decimals > 0 ? `0.${'0'.repeat(decimals)}%` : '0%' };
  }
  const date = DATE.exec(trimmed);
  if (date) {
    const [, year, month, day, hours, minutes, seconds] = date.map(Number) as number[];
    const time = Date.UTC(year!, month! - 1, day!, hours || 0, minutes || 0, seconds || 0);
    const valid = new Date(time).getUTCDate() === day && (hours || 0) < 24;
    if (valid) return { input: time / 86_400_000 + EPOCH_OFFSET_DAYS, format: date[4] === undefined ? DATE_FORMAT : date[6] === undefined ? 'yyyy-mm-dd hh:mm' : DATE_TIME_FORMAT };
  }
  const upper = trimmed.toUpperCase();
  if (upper === 'TRUE' || upper === 'FALSE') return { input: upper === 'TRUE' };
  return { input: text };
}
