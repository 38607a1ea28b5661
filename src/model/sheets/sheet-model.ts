import * as Y from 'yjs';
import { DEFAULT_COLUMN_COUNT, DEFAULT_ROW_COUNT, newSheet, recordStructureEdit, sheetsOf, structureEditsOf, type Cell, type SheetStructureEdit } from '../content.js';
import { isEmptyCell, sameCell } from './cells.js';
import { shiftFormula } from './formulas/shift.js';

/**
 * The one way into a spreadsheet's cells and structure (docs/CONTENT-MODEL.md "spreadsheet"): the editor, the
 * values API, the first screen, the formula engine's binding, import, export, comment anchors and the history
 * view all read and write through it, so that how cells are stored (today one `cells` map entry per cell,
 * keyed by position) is known here only and can change behind it.
 *
 * Writes are plain Yjs operations: callers group them in one `doc.transact` with their origin (an editor's undo
 * manager tracks that origin), and check everything that can fail first, since Yjs has no rollback.
 */

/** A rectangle of cells, zero-based and inclusive at both ends. */
export interface CellArea {
  startRow: number;
  endRow: number;
  startColumn: number;
  endColumn: number;
}

/** Width of a column nobody resized, pixels. */
export const DEFAULT_COLUMN_WIDTH = 100;

/** The sheet's map of stored cells. */
const CELLS = 'cells';
/** The editor's view fields (ignored by other readers): resized columns' widths, and whether the first row stays in view. */
const COLUMN_WIDTHS = 'columnWidths';
const FROZEN_ROWS = 'frozenRows';
/**
 * The sheet's merged areas: a Y.Map from an id to the area (`CellArea`). Keyed by id rather than held in an array
 * so that two people merging at once both keep their merge, and so that a later version can anchor an area to row
 * and column ids under the same key.
 */
const MERGES = 'merges';

function isCellArea(value: unknown): value is CellArea {
  if (typeof value !== 'object' || value === null) return false;
  const area = value as Record<string, unknown>;
  const bounds = [area.startRow, area.endRow, area.startColumn, area.endColumn];
  return (
    bounds.every((bound) => typeof bound === 'number' && Number.isInteger(bound) && bound >= 0) &&
    (area.startRow as number) <= (area.endRow as number) &&
    (area.startColumn as number) <= (area.endColumn as number)
  );
}

/** Whether two areas share a cell. */
export function areasOverlap(a: CellArea, b: CellArea): boolean {
  return a.startRow <= b.endRow && b.startRow <= a.endRow && a.startColumn <= b.endColumn && b.startColumn <= a.endColumn;
}

/**
 * Where a row or column insertion or deletion moves an area's span on its axis: insertions before or inside the
 * span move or grow it, deletions shrink or move it; undefined when every row (column) of the span is deleted.
 */
function shiftSpan(start: number, end: number, edit: SheetStructureEdit): [number, number] | undefined {
  if (edit.kind === 'insert') {
    if (edit.index <= start) return [start + edit.count, end + edit.count];
    if (edit.index <= end) return [start, end + edit.count];
    return [start, end];
  }
  const deletedEnd = edit.index + edit.count - 1;
  const removedBefore = (position: number) => Math.max(0, Math.min(position, deletedEnd + 1) - edit.index);
  const remaining = end - start + 1 - Math.max(0, Math.min(end, deletedEnd) - Math.max(start, edit.index) + 1);
  if (remaining <= 0) return undefined;
  const newStart = start - removedBefore(start);
  return [newStart, newStart + remaining - 1];
}

/** An area after a structure edit (undefined: it is gone), as `shiftSpan` moves it on the edit's axis. */
export function shiftArea(area: CellArea, edit: SheetStructureEdit): CellArea | undefined {
  if (edit.axis === 'rows') {
    const rows = shiftSpan(area.startRow, area.endRow, edit);
    return rows && { ...area, startRow: rows[0], endRow: rows[1] };
  }
  const columns = shiftSpan(area.startColumn, area.endColumn, edit);
  return columns && { ...area, startColumn: columns[0], endColumn: columns[1] };
}

/** The stored key of a cell: its zero-based position. Private to this module: no consumer relies on it. */
function keyOf(row: number, column: number): string {
  return `${row}:${column}`;
}

/** A stored key back to its position; undefined for keys that are not a cell address. */
function positionOf(key: string): { row: number; column: number } | undefined {
  const separator = key.indexOf(':');
  if (separator <= 0) return undefined;
  const row = Number(key.slice(0, separator));
  const column = Number(key.slice(separator + 1));
  return Number.isInteger(row) && Number.isInteger(column) && row >= 0 && column >= 0 && key.length <= 19 ? { row, column } : undefined;
}

/** Whether an event of an observer of the sheets changed stored cells only (no size, layout or sheet field). */
function isCellEvent(event: Y.YEvent<Y.AbstractType<unknown>>): boolean {
  return event.target instanceof Y.Map && event.target._item?.parentSub === CELLS;
}

function isStoredCell(value: unknown): value is Cell {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function positiveInteger(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : fallback;
}

const models = new WeakMap<Y.Map<unknown>, SheetModel>();

/**
 * One sheet of a spreadsheet. `SheetModel.of` gives one instance per sheet map, so instances compare by identity
 * as the sheets do. Cells are plain JSON (`Cell`): a value or a formula, a number format, a style; a cell holding
 * only a format or a style is empty but stored.
 */
export class SheetModel {
  private constructor(private readonly map: Y.Map<unknown>) {}

  static of(map: Y.Map<unknown>): SheetModel {
    let model = models.get(map);
    if (!model) models.set(map, (model = new SheetModel(map)));
    return model;
  }

  /** The stable id (a UUID); '' for a sheet written without one. */
  get id(): string {
    const id = this.map.get('id');
    return typeof id === 'string' ? id : '';
  }

  get name(): string {
    const name = this.map.get('name');
    return typeof name === 'string' ? name : '';
  }

  rename(name: string): void {
    this.map.set('name', name);
  }

  /** Size of the grid. */
  get rowCount(): number {
    return positiveInteger(this.map.get('rowCount'), DEFAULT_ROW_COUNT);
  }

  get columnCount(): number {
    return positiveInteger(this.map.get('columnCount'), DEFAULT_COLUMN_COUNT);
  }

  /** Grows the grid to at least `rows` × `columns` (never shrinks it). */
  growTo(rows: number, columns: number): void {
    if (rows > this.rowCount) this.map.set('rowCount', rows);
    if (columns > this.columnCount) this.map.set('columnCount', columns);
  }

  /** How many cells are stored (format-only cells included). */
  get cellCount(): number {
    return this.cells()?.size ?? 0;
  }

  /** The stored cell, or undefined where nothing is stored. */
  cell(row: number, column: number): Cell | undefined {
    const value = this.cells()?.get(keyOf(row, column));
    return isStoredCell(value) ? value : undefined;
  }

  /**
   * Visits the stored cells (format-only cells included) inside `area` (the whole sheet when absent), in no
   * particular order, looking cells up by position or walking the stored ones, whichever is fewer.
   */
  forEachCell(visit: (row: number, column: number, cell: Cell) => void, area?: CellArea): void {
    const cells = this.cells();
    if (!cells) return;
    if (area) {
      // a look-up costs several times more than visiting an entry: probe only areas much smaller than the sheet
      const size = (area.endRow - area.startRow + 1) * (area.endColumn - area.startColumn + 1);
      if (size * 8 <= cells.size) {
        for (let row = area.startRow; row <= area.endRow; row++) {
          for (let column = area.startColumn; column <= area.endColumn; column++) {
            const value = cells.get(keyOf(row, column));
            if (isStoredCell(value)) visit(row, column, value);
          }
        }
        return;
      }
    }
    cells.forEach((value, key) => {
      const at = positionOf(key);
      if (!at || !isStoredCell(value)) return;
      if (area && (at.row < area.startRow || at.row > area.endRow || at.column < area.startColumn || at.column > area.endColumn)) return;
      visit(at.row, at.column, value);
    });
  }

  /** The last row and column holding a stored cell (format-only cells count); undefined for a sheet with none. */
  extent(): { lastRow: number; lastColumn: number } | undefined {
    let lastRow = -1;
    let lastColumn = -1;
    this.forEachCell((row, column) => {
      if (row > lastRow) lastRow = row;
      if (column > lastColumn) lastColumn = column;
    });
    return lastRow === -1 ? undefined : { lastRow, lastColumn };
  }

  /**
   * Stores `cell` at (row, column), or removes what is there for null. Writing what is already stored changes
   * nothing (no new Yjs item), so a repeated write leaves the document as it was.
   */
  setCell(row: number, column: number, cell: Cell | null): void {
    const key = keyOf(row, column);
    let cells = this.cells();
    if (cell === null) {
      if (cells?.has(key)) cells.delete(key);
      return;
    }
    if (!cells) this.map.set(CELLS, (cells = new Y.Map<unknown>()));
    if (!sameCell(cells.get(key), cell)) cells.set(key, cell);
  }

  /** Row and column insertions and deletions made on this sheet, oldest first (comment anchors replay them). */
  structureEdits(): SheetStructureEdit[] {
    return structureEditsOf(this.map);
  }

  columnWidth(column: number): number {
    const widths = this.map.get(COLUMN_WIDTHS);
    const width = widths instanceof Y.Map ? widths.get(String(column)) : undefined;
    return typeof width === 'number' && width > 0 ? width : DEFAULT_COLUMN_WIDTH;
  }

  /** Widths of the resized columns, by column index. */
  columnWidths(): Map<number, number> {
    const found = new Map<number, number>();
    const widths = this.map.get(COLUMN_WIDTHS);
    if (!(widths instanceof Y.Map)) return found;
    widths.forEach((width, key) => {
      const column = Number(key);
      if (Number.isInteger(column) && column >= 0 && typeof width === 'number' && Number.isFinite(width) && width > 0) found.set(column, width);
    });
    return found;
  }

  setColumnWidth(column: number, width: number): void {
    let widths = this.map.get(COLUMN_WIDTHS);
    if (!(widths instanceof Y.Map)) this.map.set(COLUMN_WIDTHS, (widths = new Y.Map<number>()));
    (widths as Y.Map<number>).set(String(column), Math.round(width));
  }

  /** 0 or 1: whether the first row stays in view. */
  get frozenRows(): number {
    const frozen = this.map.get(FROZEN_ROWS);
    return typeof frozen === 'number' && frozen > 0 ? 1 : 0;
  }

  setFrozenRows(frozen: number): void {
    this.map.set(FROZEN_ROWS, frozen > 0 ? 1 : 0);
  }

  /**
   * The merged areas, top to bottom then left to right. An area a broken client wrote, or that overlaps one before
   * it, is left out, so readers always see disjoint areas of at least two cells.
   */
  merges(): CellArea[] {
    const stored = this.map.get(MERGES);
    if (!(stored instanceof Y.Map)) return [];
    const areas: CellArea[] = [];
    stored.forEach((value) => {
      if (isCellArea(value) && (value.startRow < value.endRow || value.startColumn < value.endColumn)) areas.push(value);
    });
    areas.sort((a, b) => a.startRow - b.startRow || a.startColumn - b.startColumn || a.endRow - b.endRow || a.endColumn - b.endColumn);
    const kept: CellArea[] = [];
    for (const area of areas) if (!kept.some((other) => areasOverlap(other, area))) kept.push(area);
    return kept.map(({ startRow, endRow, startColumn, endColumn }) => ({ startRow, endRow, startColumn, endColumn }));
  }

  /** The merged area holding (row, column), if any. */
  mergeAt(row: number, column: number): CellArea | undefined {
    return this.merges().find((area) => area.startRow <= row && row <= area.endRow && area.startColumn <= column && column <= area.endColumn);
  }

  /**
   * Merges `area` (checked by the caller: at least two cells, inside the grid, overlapping no merge). The cells
   * under it stay stored: the top-left one is what the merge shows, and unmerging shows the others again.
   */
  addMerge(area: CellArea): void {
    let stored = this.map.get(MERGES);
    if (!(stored instanceof Y.Map)) this.map.set(MERGES, (stored = new Y.Map<unknown>()));
    const { startRow, endRow, startColumn, endColumn } = area;
    (stored as Y.Map<unknown>).set(crypto.randomUUID(), { startRow, endRow, startColumn, endColumn });
  }

  /** Removes the merge that covers exactly `area`; answers whether there was one. */
  removeMerge(area: CellArea): boolean {
    const stored = this.map.get(MERGES);
    if (!(stored instanceof Y.Map)) return false;
    let found: string | undefined;
    stored.forEach((value, key) => {
      if (isCellArea(value) && value.startRow === area.startRow && value.endRow === area.endRow && value.startColumn === area.startColumn && value.endColumn === area.endColumn) found = key;
    });
    if (found !== undefined) stored.delete(found);
    return found !== undefined;
  }

  /** Moves, grows, shrinks or drops the merges for a structure edit (a merge shrunk to one cell goes). */
  private moveMerges(edit: SheetStructureEdit): void {
    const stored = this.map.get(MERGES);
    if (!(stored instanceof Y.Map)) return;
    const updates: Array<[string, CellArea | undefined]> = [];
    stored.forEach((value, key) => {
      if (!isCellArea(value)) return;
      const moved = shiftArea(value, edit);
      const single = moved !== undefined && moved.startRow === moved.endRow && moved.startColumn === moved.endColumn;
      if (moved === undefined || single) updates.push([key, undefined]);
      else if (moved.startRow !== value.startRow || moved.endRow !== value.endRow || moved.startColumn !== value.startColumn || moved.endColumn !== value.endColumn) {
        updates.push([key, moved]);
      }
    });
    for (const [key, area] of updates) {
      if (area) stored.set(key, area);
      else stored.delete(key);
    }
  }

  /** A deep copy with the same id, for moving the sheet (Yjs types cannot move); integrate it before reading it. */
  copy(): Y.Map<unknown> {
    return this.map.clone();
  }

  /**
   * Moves the stored cells for a row or column insertion or deletion (cells in deleted rows or columns go).
   * Part of `applyStructureEdit`, which also rewrites formulas and records the edit.
   */
  private moveCells(edit: SheetStructureEdit): void {
    const cells = this.cells();
    if (!cells) return;
    const axis = edit.axis === 'rows' ? 'row' : 'column';
    const end = edit.index + edit.count;
    const moves: Array<[string, unknown]> = [];
    const removals: string[] = [];
    cells.forEach((value, key) => {
      const at = positionOf(key);
      if (!at || at[axis] < edit.index) return;
      removals.push(key);
      if (edit.kind === 'delete' && at[axis] < end) return;
      const moved = edit.kind === 'insert' ? at[axis] + edit.count : at[axis] - edit.count;
      moves.push([axis === 'row' ? keyOf(moved, at.column) : keyOf(at.row, moved), value]);
    });
    for (const key of removals) cells.delete(key);
    for (const [key, value] of moves) cells.set(key, value);
  }

  private moveColumnWidths(edit: SheetStructureEdit): void {
    const widths = this.map.get(COLUMN_WIDTHS);
    if (edit.axis !== 'columns' || !(widths instanceof Y.Map)) return;
    const entries = [...this.columnWidths()];
    for (const [column] of entries) if (column >= edit.index) widths.delete(String(column));
    for (const [column, width] of entries) {
      if (column < edit.index) continue;
      if (edit.kind === 'delete' && column < edit.index + edit.count) continue;
      widths.set(String(edit.kind === 'insert' ? column + edit.count : column - edit.count), width);
    }
  }

  /**
   * Inserts or deletes rows or columns of `sheet` (a checked edit: a deletion within the sheet, an insertion within
   * the limits). Formulas on every sheet follow the cells they refer to (references to deleted cells become #REF!,
   * formulas/shift.ts), the cells move, and the sheet's log records the edit so that comment anchors follow too.
   */
  static applyStructureEdit(doc: Y.Doc, sheet: SheetModel, edit: SheetStructureEdit): void {
    const shift = { ...edit, sheet: sheet.name };
    for (const other of sheetModels(doc)) {
      const ownName = other.name;
      const rewritten: Array<[number, number, Cell]> = [];
      other.forEachCell((row, column, cell) => {
        if (typeof cell.f !== 'string' || cell.f.length < 2) return;
        const formula = shiftFormula(cell.f, ownName, shift);
        // the cell keeps its number format and style: only its formula changes
        if (formula !== cell.f) rewritten.push([row, column, { ...cell, f: formula }]);
      });
      for (const [row, column, cell] of rewritten) other.setCell(row, column, cell);
    }
    sheet.applyOwnStructure({ kind: edit.kind, axis: edit.axis, index: edit.index, count: edit.count });
  }

  /** Applies a structure edit to this sheet's own storage: cells, widths, size and log (formulas are applyStructureEdit's). */
  private applyOwnStructure(edit: SheetStructureEdit): void {
    recordStructureEdit(this.map, edit);
    this.moveCells(edit);
    this.moveColumnWidths(edit);
    this.moveMerges(edit);
    const field = edit.axis === 'rows' ? 'rowCount' : 'columnCount';
    const size = edit.axis === 'rows' ? this.rowCount : this.columnCount;
    // a sheet keeps at least one row and one column
    this.map.set(field, edit.kind === 'insert' ? size + edit.count : Math.max(1, size - edit.count));
  }

  private cells(): Y.Map<unknown> | undefined {
    const cells = this.map.get(CELLS);
    return cells instanceof Y.Map ? cells : undefined;
  }
}

/** The sheets in order (entries a broken client wrote that are not sheet maps are left out). */
export function sheetModels(doc: Y.Doc): SheetModel[] {
  return sheetsOf(doc)
    .toArray()
    .filter((sheet: unknown): sheet is Y.Map<unknown> => sheet instanceof Y.Map)
    .map((sheet) => SheetModel.of(sheet));
}

/**
 * The ids the formula engine and the APIs know the sheets by, in sheet order: each sheet's stable `id`; a sheet
 * without one, or repeating an earlier sheet's (a careless copy), by its position (`#2`).
 */
export function sheetIds(doc: Y.Doc): string[] {
  const seen = new Set<string>();
  return sheetModels(doc).map((sheet, index) => {
    const id = sheet.id;
    const unique = id !== '' && !seen.has(id) ? id : `#${index}`;
    seen.add(unique);
    return unique;
  });
}

/** The sheet named `name` exactly, else the one sheet whose name equals it ignoring case. */
export function sheetNamed(sheets: readonly SheetModel[], name: string): SheetModel | undefined {
  const exact = sheets.find((sheet) => sheet.name === name);
  if (exact) return exact;
  const folded = name.toLowerCase();
  const matches = sheets.filter((sheet) => sheet.name.toLowerCase() === folded);
  return matches.length === 1 ? matches[0] : undefined;
}

/** Whether a sheet other than `except` is named `name` ignoring case (sheet names are unique so). */
export function sheetNameTaken(doc: Y.Doc, name: string, except?: SheetModel): boolean {
  const folded = name.toLowerCase();
  return sheetModels(doc).some((sheet) => sheet !== except && sheet.name.toLowerCase() === folded);
}

/** Appends an empty sheet (names are checked by the caller). */
export function appendSheet(doc: Y.Doc, name: string, id: string = crypto.randomUUID()): SheetModel {
  const map = newSheet(name, id);
  sheetsOf(doc).push([map]);
  return SheetModel.of(map);
}

/** Removes the sheet at `index`. */
export function removeSheet(doc: Y.Doc, index: number): void {
  sheetsOf(doc).delete(index, 1);
}

/** Moves a sheet to `to` in the order: a Yjs type cannot move, so a copy with the same id is inserted. Answers the sheet at its new place. */
export function moveSheet(doc: Y.Doc, sheet: SheetModel, to: number): SheetModel {
  const sheets = sheetsOf(doc);
  const from = sheetModels(doc).indexOf(sheet);
  if (from === -1 || from === to) return sheet;
  const copy = sheet.copy();
  sheets.delete(from, 1);
  sheets.insert(to, [copy]);
  return SheetModel.of(copy);
}

/** See SheetModel.applyStructureEdit. */
export const applyStructureEdit = SheetModel.applyStructureEdit;

/** What a transaction on the sheets changed, as the formula binding and the editor need to know it. */
export interface SheetChanges {
  /** sheets added, removed, moved, renamed, re-identified or their cells replaced wholesale: read everything again */
  sheets: boolean;
  /** any change other than cell contents: sizes, widths, frozen rows, the structure log */
  layout: boolean;
  /** cells whose stored content changed */
  cells: Array<{ sheet: SheetModel; row: number; column: number }>;
}

/** Sorts the events of an observer of the sheets (`observeSheets`) into what they changed. */
function changesOf(doc: Y.Doc, events: Array<Y.YEvent<Y.AbstractType<unknown>>>): SheetChanges {
  const root = sheetsOf(doc);
  const changes: SheetChanges = { sheets: false, layout: false, cells: [] };
  for (const event of events) {
    const target = event.target;
    if (target === root) {
      changes.sheets = changes.layout = true;
      continue;
    }
    if (isCellEvent(event) && event instanceof Y.YMapEvent && target.parent instanceof Y.Map) {
      const sheet = SheetModel.of(target.parent as Y.Map<unknown>);
      for (const key of event.keysChanged) {
        const at = positionOf(key);
        if (at) changes.cells.push({ sheet, row: at.row, column: at.column });
      }
      continue;
    }
    changes.layout = true;
    if (event instanceof Y.YMapEvent && target.parent === root && (event.keysChanged.has('name') || event.keysChanged.has(CELLS) || event.keysChanged.has('id'))) changes.sheets = true;
  }
  return changes;
}

/** Calls `listener` after every transaction that changed the sheets, with what it changed. Answers how to stop. */
export function observeSheets(doc: Y.Doc, listener: (changes: SheetChanges, transaction: Y.Transaction) => void): () => void {
  const root = sheetsOf(doc);
  const observer = (events: Array<Y.YEvent<Y.AbstractType<unknown>>>, transaction: Y.Transaction) => listener(changesOf(doc, events), transaction);
  root.observeDeep(observer);
  return () => root.unobserveDeep(observer);
}

/**
 * For writers that encode Yjs structs directly rather than through a Y.Doc (the xlsx import's encoder, which
 * would otherwise hold a million Items): the item a sheet's cell entries are children of, and the entry name of
 * a cell. Tied to this storage version: such a writer encodes nothing else by hand.
 */
export const directEncoding = {
  cellParent(sheet: Y.Map<unknown>): Y.ID {
    const cells = sheet.get(CELLS);
    if (!(cells instanceof Y.Map) || !cells._item) throw new Error('the sheet has no integrated cells map');
    return cells._item.id;
  },
  cellEntry(row: number, column: number): string {
    return keyOf(row, column);
  },
};

/** Whether a stored cell holds a value or formula (not only a format or style). */
export function holdsData(cell: Cell | undefined): cell is Cell {
  return cell !== undefined && !isEmptyCell(cell);
}
