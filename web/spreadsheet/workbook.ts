import * as Y from 'yjs';
import { sheetsOf, type Cell, type SheetStructureEdit } from '../../src/model/content.js';
import { columnLetters, MAX_COLUMNS, MAX_ROWS } from '../../src/model/sheets/a1.js';
import { firstRefusal, validationsOf, type ValidationContext } from '../../src/model/sheets/data-validation.js';
import type { SortedCell } from '../../src/model/sheets/sort.js';
import { invalidStylePatch, type Border, type CellStyle, type StylePatch } from '../../src/model/sheets/cell-style.js';
import { formatOf, imageOf, invalidInput, isEmptyCell, toCell, withFormat, withImage, withStyle, type CellInput } from '../../src/model/sheets/cells.js';
import { fillLine, type FillDirection } from '../../src/model/sheets/fill.js';
import { copyFormula } from '../../src/model/sheets/formula-copy.js';
import { dateFormatFor, formatNumber, invalidFormatCode, isDateFormat } from '../../src/model/sheets/number-format.js';
import { parseTyped, typedText } from './typed-input.js';
import { cellInput, isFormulaInput, parseFormula } from '../../src/model/sheets/formulas/index.js';
import { withFormulaFormat } from '../../src/model/sheets/formulas/auto-format.js';
import { invalidSheetName } from '../../src/model/sheets/sheet-names.js';
import { appendSheet, applyStructureEdit, areasOverlap, moveSheet, removeSheet, sheetModels, sheetNamed, sheetNameTaken, SheetModel } from '../../src/model/sheets/sheet-model.js';
import type { CellRange } from '../shared/grid/cell-range.js';
import { lockAllows, lockRefusing, locksOf, removeLock, setLock, type SheetLock } from '../../src/model/sheets/locks.js';
import { structureEditRefusedBy } from '../../src/model/sheets/lock-guard.js';

/**
 * The spreadsheet content model (docs/CONTENT-MODEL.md) as the editor changes it: the sheet model the values API
 * reads through (src/model/sheets/sheet-model.ts). Every change is one Yjs transaction with the editor's origin, so
 * the undo manager undoes this user's changes only.
 */

export { DEFAULT_COLUMN_WIDTH } from '../../src/model/sheets/sheet-model.js';

export type Sheet = SheetModel;

/** One cell an edit writes: what (row, column) holds after it (null: empty). */
export type CellWrite = SortedCell;

/** The toolbar's border presets. */
export type BorderPreset = 'all' | 'outer' | 'bottom' | 'none';

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
    readonly reason: 'sheetName' | 'sheetExists' | 'lastSheet' | 'tooLarge' | 'invalidValue' | 'noSheet' | 'formatTooLarge' | 'styleTooLarge' | 'fillTooLarge' | 'formula' | 'locked' | 'validation',
    message: string,
    /** what the notice names: the refused cell and the rule's message (`validation`) */
    readonly detail?: { cell: string; message: string },
  ) {
    super(message);
  }
}

export class Workbook {
  /** the root the editor's undo manager and observers follow */
  readonly sheets: Y.Array<Y.Map<unknown>>;

  /**
   * How data validation formulas are computed on a sheet (the editor's formula engine); until it is set, pastes, fills
   * and sorts are not checked against the sheet's rules.
   */
  validationContext: ((sheet: Sheet) => ValidationContext) | undefined;

  /** while `keepingReads` runs: the cells read (by sheet, then row × MAX_COLUMNS + column) and the sheets' list */
  private kept: { cells: Map<Sheet, Map<number, Cell | undefined>>; sheets: Sheet[] | undefined } | undefined;

  constructor(
    readonly doc: Y.Doc,
    /** the transaction origin of this editor's changes (what its undo manager tracks) */
    readonly origin: object,
    /** the page's user: locks (src/model/sheets/locks.ts) refuse this user's edits where they do not allow them */
    readonly userId = '',
  ) {
    this.sheets = sheetsOf(doc);
    // a change while reads are kept (none is expected: drawing reads only) forgets them rather than showing stale cells
    doc.on('beforeTransaction', () => {
      if (this.kept) this.kept = { cells: new Map(), sheets: undefined };
    });
  }

  /**
   * Runs `read` keeping every cell it reads through this workbook, and the sheets' list, until it returns: drawing a
   * screenful reads a cell as its own and as its neighbours' (the borders they share), and the sheet for every cell.
   * A transaction meanwhile forgets what was kept.
   */
  keepingReads(read: () => void): void {
    if (this.kept) return read();
    this.kept = { cells: new Map(), sheets: undefined };
    try {
      read();
    } finally {
      this.kept = undefined;
    }
  }

  /** The cell as the sheet model reads it, format-only cells too (kept while `keepingReads` runs). */
  private read(sheet: Sheet, row: number, column: number): Cell | undefined {
    const kept = this.kept;
    if (!kept) return sheet.cell(row, column);
    let cells = kept.cells.get(sheet);
    if (!cells) kept.cells.set(sheet, (cells = new Map()));
    const key = row * MAX_COLUMNS + column;
    if (cells.has(key)) return cells.get(key);
    const cell = sheet.cell(row, column);
    cells.set(key, cell);
    return cell;
  }

  list(): Sheet[] {
    if (this.kept) return (this.kept.sheets ??= sheetModels(this.doc));
    return sheetModels(this.doc);
  }

  summary(sheet: Sheet, index = this.list().indexOf(sheet)): SheetSummary {
    return { id: sheet.id, name: sheet.name, index, rowCount: sheet.rowCount, columnCount: sheet.columnCount };
  }

  byId(id: string): Sheet | undefined {
    return this.list().find((sheet) => sheet.id === id);
  }

  /** The sheet named `name` exactly, else the one name equal ignoring case (as the values API finds sheets). */
  byName(name: string): Sheet | undefined {
    return sheetNamed(this.list(), name);
  }

  idOf(sheet: Sheet): string {
    return sheet.id;
  }

  nameOf(sheet: Sheet): string {
    return sheet.name;
  }

  rowCount(sheet: Sheet): number {
    return sheet.rowCount;
  }

  columnCount(sheet: Sheet): number {
    return sheet.columnCount;
  }

  /** The cell holding a value or formula; undefined for an empty one (even if it keeps a format or style). */
  cell(sheet: Sheet, row: number, column: number): Cell | undefined {
    const value = this.read(sheet, row, column);
    return isEmptyCell(value) ? undefined : value;
  }

  /**
   * What the formula bar shows: the formula, else the value as typed (a date as a date, text that would read as
   * something else after a `'`), which reads back the same.
   */
  input(sheet: Sheet, row: number, column: number): string {
    const cell = this.cell(sheet, row, column);
    if (!cell) return '';
    if (typeof cell.f === 'string' && cell.f !== '') return cell.f;
    if (typeof cell.v === 'boolean') return cell.v ? 'TRUE' : 'FALSE';
    if (typeof cell.v === 'number' && isDateFormat(cell.z)) return formatNumber(cell.v, dateFormatFor(cell.v));
    if (typeof cell.v === 'string') return typedText(cell.v);
    return cell.v === undefined || cell.v === null ? '' : String(cell.v);
  }

  /** The cell's number format code; undefined for General. */
  format(sheet: Sheet, row: number, column: number): string | undefined {
    return formatOf(this.read(sheet, row, column));
  }

  /** The attachment guid of the cell's image (docs/SHEETS.md "Images in cells"), if it has one. */
  image(sheet: Sheet, row: number, column: number): string | undefined {
    return imageOf(this.read(sheet, row, column));
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

  /** The style the cell shows (its own, else its row's, else its column's); undefined for the default look. */
  style(sheet: Sheet, row: number, column: number): CellStyle | undefined {
    return sheet.styleShown(this.read(sheet, row, column), row, column);
  }

  /**
   * Changes the style of every cell of `range` by `patch` (docs/SHEETS.md "Cell styles"), empty cells too, so what
   * is typed there later shows in it. At most MAX_FORMATTED_CELLS cells at once: styles are kept per cell.
   */
  setStyle(sheet: Sheet, range: CellRange, patch: StylePatch): void {
    const reason = invalidStylePatch(patch);
    if (reason) throw new WorkbookError('invalidValue', reason);
    this.restyle(sheet, range, 'styleTooLarge', (stored, row, column) => withStyle(stored, patch, sheet.inheritedStyle(row, column)));
  }

  /**
   * Draws the borders of a preset on `range` (the toolbar's border list): every side of every cell (`all`), the
   * range's outline (`outer`), the line under its last row (`bottom`), or takes every border of its cells away
   * (`none`). A thin black line, as the desktop programs' default border.
   */
  setBorders(sheet: Sheet, range: CellRange, preset: BorderPreset): void {
    const line: Border = { s: 'thin' };
    this.restyle(sheet, range, 'styleTooLarge', (stored, row, column) => {
      const patch: StylePatch = {};
      if (preset === 'none') Object.assign(patch, { bt: null, br: null, bb: null, bl: null });
      else if (preset === 'all') Object.assign(patch, { bt: line, br: line, bb: line, bl: line });
      else if (preset === 'bottom') {
        if (row === range.bottom) patch.bb = line;
      } else {
        if (row === range.top) patch.bt = line;
        if (row === range.bottom) patch.bb = line;
        if (column === range.left) patch.bl = line;
        if (column === range.right) patch.br = line;
      }
      return Object.keys(patch).length === 0 ? (stored ?? null) : withStyle(stored, patch, sheet.inheritedStyle(row, column));
    });
  }

  /** Rewrites every cell of `range` as `next` makes it, in one change; cells `next` leaves as they were are not touched. */
  private restyle(sheet: Sheet, range: CellRange, tooLarge: 'formatTooLarge' | 'styleTooLarge', next: (stored: Cell | undefined, row: number, column: number) => Cell | null): void {
    const size = (range.bottom - range.top + 1) * (range.right - range.left + 1);
    if (size > MAX_FORMATTED_CELLS) throw new WorkbookError(tooLarge, `at most ${MAX_FORMATTED_CELLS} cells are formatted at once, not ${size}`);
    this.guard(sheet, range);
    this.change(() => {
      for (let row = range.top; row <= range.bottom; row++) {
        for (let column = range.left; column <= range.right; column++) sheet.setCell(row, column, next(sheet.cell(row, column), row, column));
      }
    });
  }

  columnWidth(sheet: Sheet, column: number): number {
    return sheet.columnWidth(column);
  }

  frozenRows(sheet: Sheet): number {
    return sheet.frozenRows;
  }

  private change(mutate: () => void): void {
    this.doc.transact(mutate, this.origin);
  }

  /**
   * Refuses, before anything changes, an edit of `range` (of the sheet itself when absent) that a lock does not let
   * this user make: the service would refuse the whole update and end the session (docs/SHEETS.md "Locks").
   */
  private guard(sheet: Sheet, range?: CellRange): void {
    const locks = locksOf(sheet);
    if (locks.length === 0) return;
    const refusing = range
      ? lockRefusing(locks, { startRow: range.top, endRow: range.bottom, startColumn: range.left, endColumn: range.right }, this.userId)
      : locks.find((lock) => lock.type === 'sheet' && !lockAllows(lock, this.userId));
    if (refusing) throw new WorkbookError('locked', `${sheet.name} is locked here for this user`);
  }

  /** Refuses (WorkbookError 'locked') when a lock does not let this user change `range`: before a cell opens for typing. */
  checkEditable(sheet: Sheet, range: CellRange): void {
    this.guard(sheet, range);
  }

  /** The sheet's locks (locks.ts). */
  locks(sheet: Sheet): SheetLock[] {
    return locksOf(sheet);
  }

  /** Sets a lock (checked with parseLock by the caller; the editor offers this to users with `manageable` only). */
  setLock(sheet: Sheet, lock: SheetLock): void {
    this.change(() => setLock(sheet, lock));
  }

  removeLock(sheet: Sheet, id: string): boolean {
    let removed = false;
    this.change(() => (removed = removeLock(sheet, id)));
    return removed;
  }

  /**
   * Writes a block of typed inputs with its top-left at (row, column), growing the sheet to hold it. Text is
   * read as a spreadsheet reads typing: numbers, TRUE/FALSE, formulas ("=…"), else text. Checked before anything
   * changes (a formula that does not parse among the checks), so a refused block leaves the sheet as it was.
   */
  setBlock(sheet: Sheet, row: number, column: number, block: readonly (readonly string[])[]): void {
    const height = block.length;
    const width = block.reduce((widest, line) => Math.max(widest, line.length), 0);
    this.checkFits(row, column, height, width);
    this.guard(sheet, { top: row, left: column, bottom: row + Math.max(0, height - 1), right: column + Math.max(0, width - 1) });
    const inputs = block.map((line) => line.map(parseTyped));
    for (const line of inputs) {
      for (const { input } of line) {
        const reason = invalidInput(input);
        if (reason) throw new WorkbookError('invalidValue', reason);
        // as Excel refuses a formula it cannot read when it is typed ("There's a problem with this formula")
        const parsed = isFormulaInput(input) ? parseFormula(input) : undefined;
        if (parsed?.ok === false) throw new WorkbookError('formula', parsed.reason);
      }
    }
    const formatAt = this.referencedFormat(sheet);
    const writes: CellWrite[] = [];
    inputs.forEach((line, r) =>
      line.forEach(({ input, format }, c) => {
        // a formula typed into a General cell takes the format Excel gives its result (`=DATE(…)` a date)
        const next = withFormulaFormat(toCell(input, sheet.cell(row + r, column + c)), formatAt);
        // a date or percentage typed into a General cell gives it the format it was typed in, as spreadsheets do
        if (next !== null && format !== undefined && next.z === undefined) next.z = format;
        writes.push({ row: row + r, column: column + c, cell: next });
      }),
    );
    this.writeCells(sheet, writes, { rows: row + height, columns: column + width });
  }

  /** The number format of the cell a formula on `sheet` refers to (another sheet's by name), for withFormulaFormat. */
  private referencedFormat(sheet: Sheet): (name: string | null, row: number, column: number) => string | undefined {
    return (name, row, column) => formatOf((name === null ? sheet : sheetNamed(this.list(), name))?.cell(row, column));
  }

  /** The stored cells of `range` row by row (undefined where nothing is stored, images left behind): what a copy takes. */
  cellsOf(sheet: Sheet, range: CellRange): Array<Array<Cell | undefined>> {
    const rows: Array<Array<Cell | undefined>> = [];
    for (let row = range.top; row <= range.bottom; row++) {
      const line: Array<Cell | undefined> = [];
      for (let column = range.left; column <= range.right; column++) {
        const stored = sheet.cell(row, column);
        const cell = stored === undefined ? undefined : { ...stored };
        delete cell?.img;
        line.push(cell);
      }
      rows.push(line);
    }
    return rows;
  }

  /**
   * Pastes cells copied in this editor with their top-left at (row, column): values, formats and styles as they
   * were, formulas copied as spreadsheets copy them (relative references moved by `moved`, the distance from where
   * they were copied; none for a cut, whose formulas keep pointing where they did). An empty copied cell clears its
   * target's content and look.
   */
  pasteCells(sheet: Sheet, row: number, column: number, block: ReadonlyArray<ReadonlyArray<Cell | undefined>>, moved: { rows: number; columns: number } | undefined): void {
    const width = block.reduce((widest, line) => Math.max(widest, line.length), 0);
    this.checkFits(row, column, block.length, width);
    this.guard(sheet, { top: row, left: column, bottom: row + Math.max(0, block.length - 1), right: column + Math.max(0, width - 1) });
    const writes: CellWrite[] = [];
    block.forEach((line, r) =>
      line.forEach((copied, c) => {
        const formula = copied?.f !== undefined && moved ? copyFormula(copied.f, moved.rows, moved.columns) : copied?.f;
        const image = imageOf(sheet.cell(row + r, column + c));
        const cell: Cell | null = copied === undefined ? null : formula === undefined ? { ...copied } : { ...copied, f: formula };
        writes.push({ row: row + r, column: column + c, cell: image === undefined ? cell : withImage(cell, image) });
      }),
    );
    this.writeCells(sheet, writes, { rows: row + block.length, columns: column + width });
  }

  /**
   * Fills `target` from `source` (docs/SHEETS.md "Copying and filling formulas"): `target` holds `source` and reaches
   * past it on one side (the fill handle dragged down, up, right or left; Ctrl+D: the top row down the selection;
   * Ctrl+R: the left column across it). Each line of the source along the fill repeats (formulas moved as they
   * travel) or continues as a series of numbers (src/model/sheets/fill.ts).
   */
  fill(sheet: Sheet, source: CellRange, target: CellRange): void {
    const down = target.bottom > source.bottom;
    const up = target.top < source.top;
    const right = target.right > source.right;
    const left = target.left < source.left;
    const along: 'rows' | 'columns' = down || up ? 'rows' : 'columns';
    if (!(down || up || right || left)) return;
    const size = (target.bottom - target.top + 1) * (target.right - target.left + 1);
    if (size > MAX_FORMATTED_CELLS) throw new WorkbookError('fillTooLarge', `at most ${MAX_FORMATTED_CELLS} cells are filled at once, not ${size}`);
    this.checkFits(target.top, target.left, target.bottom - target.top + 1, target.right - target.left + 1);
    this.guard(sheet, target);
    const direction: FillDirection = down || right ? 1 : -1;
    const cells = this.cellsOf(sheet, source);
    const writes: CellWrite[] = [];
    if (along === 'rows') {
      const count = down ? target.bottom - source.bottom : source.top - target.top;
      for (let column = source.left; column <= source.right; column++) {
        const line = cells.map((cellsOfRow) => cellsOfRow[column - source.left]);
        fillLine(line, count, direction, 'rows').forEach((cell, k) => writes.push({ row: down ? source.bottom + 1 + k : source.top - 1 - k, column, cell }));
      }
    } else {
      const count = right ? target.right - source.right : source.left - target.left;
      for (let row = source.top; row <= source.bottom; row++) {
        fillLine(cells[row - source.top]!, count, direction, 'columns').forEach((cell, k) => writes.push({ row, column: right ? source.right + 1 + k : source.left - 1 - k, cell }));
      }
    }
    this.writeCells(sheet, writes, { rows: target.bottom + 1, columns: target.right + 1 });
  }

  /**
   * Writes cells an edit computed (typed or pasted text, pasted cells, a fill, a sort) in one transaction, the sheet
   * grown to `grow` rows and columns. Refused whole, before anything changes, when one of them breaks a `stop` data
   * validation rule (docs/SHEETS.md "Data validation"): the notice names the first such cell.
   */
  writeCells(sheet: Sheet, writes: readonly CellWrite[], grow?: { rows: number; columns: number }): void {
    const context = this.validationContext?.(sheet);
    const refusal = context && firstRefusal(validationsOf(sheet), writes.map(({ row, column, cell }) => ({ row, column, input: cellInput(cell) })), context);
    if (refusal) {
      const cell = `${columnLetters(refusal.column)}${refusal.row + 1}`;
      throw new WorkbookError('validation', `${cell} breaks its data validation rule`, { cell, message: refusal.rule.errorMessage ?? '' });
    }
    this.change(() => {
      for (const { row, column, cell } of writes) sheet.setCell(row, column, cell);
      if (grow) sheet.growTo(grow.rows, grow.columns);
    });
  }

  /** Refuses a block of `height` × `width` cells at (row, column) that passes the grid's limits. */
  private checkFits(row: number, column: number, height: number, width: number): void {
    if (row + height > MAX_ROWS || column + width > MAX_COLUMNS) {
      throw new WorkbookError('tooLarge', `${height} × ${width} cells at row ${row + 1} pass the sheet's limits (${MAX_ROWS} rows, ${MAX_COLUMNS} columns)`);
    }
  }

  setInput(sheet: Sheet, row: number, column: number, text: string): void {
    this.setBlock(sheet, row, column, [[text]]);
  }

  clear(sheet: Sheet, range: CellRange): void {
    this.guard(sheet, range);
    const cleared: Array<[number, number, Cell | null]> = [];
    // clearing keeps a cell's number format (as the Delete key does in spreadsheets)
    sheet.forEachCell(
      (row, column, cell) => {
        if (!isEmptyCell(cell)) cleared.push([row, column, toCell(null, cell)]);
      },
      { startRow: range.top, endRow: range.bottom, startColumn: range.left, endColumn: range.right },
    );
    if (cleared.length > 0) this.change(() => cleared.forEach(([row, column, next]) => sheet.setCell(row, column, next)));
  }

  /** Inserts (delta > 0) or removes (delta < 0) rows or columns at `at`, moving the cells below or right. */
  shift(sheet: Sheet, axis: 'row' | 'column', at: number, delta: number): void {
    const size = axis === 'row' ? sheet.rowCount : sheet.columnCount;
    const limit = axis === 'row' ? MAX_ROWS : MAX_COLUMNS;
    if (delta > 0 && size + delta > limit) throw new WorkbookError('tooLarge', `a sheet has at most ${limit} ${axis}s`);
    // a sheet keeps at least one row and one column
    const removed = delta < 0 ? Math.min(-delta, size - at, size - 1) : 0;
    if (delta < 0 && removed <= 0) return;
    const edit: SheetStructureEdit = { kind: delta > 0 ? 'insert' : 'delete', axis: axis === 'row' ? 'rows' : 'columns', index: at, count: delta > 0 ? delta : removed };
    if (structureEditRefusedBy(locksOf(sheet), edit, this.userId)) throw new WorkbookError('locked', `${sheet.name} is locked there for this user`);
    this.change(() => applyStructureEdit(this.doc, sheet, edit));
  }

  setColumnWidth(sheet: Sheet, column: number, width: number): void {
    this.guard(sheet);
    this.change(() => sheet.setColumnWidth(column, width));
  }

  /**
   * Sets the height of the rows `top` to `bottom` (pixels, MIN_ROW_HEIGHT to MAX_ROW_HEIGHT: the caller checked), or
   * gives them back to their content (undefined), as Excel's Row height and AutoFit do.
   */
  setRowHeight(sheet: Sheet, top: number, bottom: number, height: number | undefined): void {
    this.guard(sheet);
    this.change(() => {
      for (let row = top; row <= bottom; row++) sheet.setRowHeight(row, height);
    });
  }

  /**
   * Merges `range` into one cell (docs/SHEETS.md "Merged cells"): merges inside it are replaced by the one merge, and
   * the cells under it keep what they hold (the top-left one shows). One cell merges nothing.
   */
  merge(sheet: Sheet, range: CellRange): void {
    if (range.top === range.bottom && range.left === range.right) return;
    const area = { startRow: range.top, endRow: range.bottom, startColumn: range.left, endColumn: range.right };
    this.guard(sheet, range);
    this.change(() => {
      for (const merge of sheet.merges()) if (areasOverlap(merge, area)) sheet.removeMerge(merge);
      sheet.addMerge(area);
    });
  }

  /** Whether a merge lies in `range` (what the merge command undoes there). */
  hasMerge(sheet: Sheet, range: CellRange): boolean {
    const area = { startRow: range.top, endRow: range.bottom, startColumn: range.left, endColumn: range.right };
    return sheet.merges().some((merge) => areasOverlap(merge, area));
  }

  /** Splits every merge touching `range` back into its cells, which show what they kept. */
  unmerge(sheet: Sheet, range: CellRange): void {
    const area = { startRow: range.top, endRow: range.bottom, startColumn: range.left, endColumn: range.right };
    const touched = sheet.merges().filter((merge) => areasOverlap(merge, area));
    if (touched.length === 0) return;
    this.guard(sheet, range);
    this.change(() => touched.forEach((merge) => sheet.removeMerge(merge)));
  }

  setFrozenRows(sheet: Sheet, frozen: number): void {
    this.guard(sheet);
    this.change(() => sheet.setFrozenRows(frozen));
  }

  /** Checks a new name for `sheet` (or for a new sheet): valid and unique ignoring case. */
  private checkName(name: string, sheet?: Sheet): void {
    const reason = invalidSheetName(name);
    if (reason) throw new WorkbookError('sheetName', reason);
    if (sheetNameTaken(this.doc, name, sheet)) throw new WorkbookError('sheetExists', `a sheet named "${name}" already exists`);
  }

  /** The first of `Sheet2`, `Sheet3`, … not taken. */
  nextSheetName(base: string): string {
    const taken = new Set(this.list().map((sheet) => sheet.name.toLowerCase()));
    let n = this.list().length + 1;
    while (taken.has(`${base}${n}`.toLowerCase())) n++;
    return `${base}${n}`;
  }

  addSheet(name: string): Sheet {
    this.checkName(name);
    let sheet: Sheet | undefined;
    this.change(() => (sheet = appendSheet(this.doc, name)));
    return sheet!;
  }

  renameSheet(sheet: Sheet, name: string): void {
    if (name === sheet.name) return;
    this.checkName(name, sheet);
    this.guard(sheet);
    this.change(() => sheet.rename(name));
  }

  deleteSheet(sheet: Sheet): void {
    const index = this.list().indexOf(sheet);
    if (index === -1) throw new WorkbookError('noSheet', 'the sheet no longer exists');
    if (this.sheets.length <= 1) throw new WorkbookError('lastSheet', 'a spreadsheet keeps at least one sheet');
    this.guard(sheet);
    this.change(() => removeSheet(this.doc, index));
  }

  /** Moves a sheet to another place in the order: a Yjs type cannot move, so it is re-inserted as a copy (same id). */
  moveSheet(sheet: Sheet, to: number): Sheet {
    const target = Math.max(0, Math.min(to, this.sheets.length - 1));
    let moved = sheet;
    this.change(() => (moved = moveSheet(this.doc, sheet, target)));
    return moved;
  }
}

/** Most cells one number format change touches. */
export const MAX_FORMATTED_CELLS = 100_000;
