import * as Y from 'yjs';
import {
  DEFAULT_COLUMN_COUNT,
  DEFAULT_ROW_COUNT,
  newSheet,
  recordStructureEdit,
  SHEET_BLOCKS,
  SHEET_COLUMNS,
  SHEET_GRID,
  SHEET_MODEL_FIELD,
  SHEET_MODEL_VERSION,
  SHEET_ROWS,
  sheetsOf,
  structureEditsOf,
  type Cell,
  type SheetStructureEdit,
} from '../content.js';
import { AXIS_CHARACTER, AxisIndex, axisKey, parseAxisKey, spanHolding, type AxisKey } from './axis.js';
import { isEmptyCell, sameCell } from './cells.js';
import { formulaInA1, formulaRelative, storedAfterEdit } from './formulas/relative.js';
import { moveSheetFeatures } from './sheet-features.js';
import { areasOverlap, isCellArea, shiftArea, type CellArea } from './cell-area.js';
import { MAX_ROWS } from './a1.js';
import { ownStyleOf, parseCellStyle, type CellStyle } from './cell-style.js';

export { areasOverlap, shiftArea, type CellArea } from './cell-area.js';

/**
 * The one way into a spreadsheet's cells and structure (docs/CONTENT-MODEL.md "spreadsheet"): the editor, the
 * values API, the first screen, the formula engine's binding, import, export, comment anchors and the history
 * view all read and write through it, so that how cells are stored is known here only (model version 2: rows
 * and columns are Yjs sequences whose item ids are their stable ids, axis.ts; a cell is keyed by its row's and
 * column's ids, in a `grid` entry of its own or in a `blocks` run of imported cells).
 *
 * Writes are plain Yjs operations: callers group them in one `doc.transact` with their origin (an editor's undo
 * manager tracks that origin), and check everything that can fail first, since Yjs has no rollback.
 */

/** Width of a column nobody resized, pixels. */
export const DEFAULT_COLUMN_WIDTH = 100;
/**
 * Pixels per unit of an xlsx column width: the width of a digit in Excel's default font (Calibri 11), padding
 * included in the file's width; the export divides by it and the import multiplies.
 */
export const XLSX_PIXELS_PER_WIDTH_UNIT = 7;
/** Height of a row nobody resized and whose content fits one line, pixels. */
export const DEFAULT_ROW_HEIGHT = 24;
/** Bounds of a row height a person sets, pixels: Excel's own (0 is hiding, a feature of its own; 409 points). */
export const MIN_ROW_HEIGHT = 4;
export const MAX_ROW_HEIGHT = 545;

/** Version 1's map of cells keyed by position ("row:col"), converted by upgradeSpreadsheet. */
const LEGACY_CELLS = 'cells';
/**
 * Rows per block of `blocks`: a block holds one column's cells for up to this many rows whose ids are
 * consecutive clocks of one client (rows inserted together), as one JSON text. Writers of many cells at once
 * (the import, the upgrade, a sheet move) store blocks; an edit of one cell stores a `grid` entry, which shadows
 * the block's cell (null there: the cell was cleared).
 */
export const BLOCK_ROWS = 1024;
/** Parsed blocks kept per sheet (a read of a screen or a range parses each block it touches once). */
const PARSED_BLOCKS = 256;
/** A formula's field in a block's JSON text (never inside a JSON string, where every quote is escaped) */
const FORMULA_FIELD = '"f":"';
/** the same field with its stored text, escaped as JSON writes it, read where the field starts */
const STORED_FORMULA = /"f":"((?:[^"\\]|\\.)*)"/y;
/** Searches for a formula field holding another text than the one (as stored, escaped) each is made for; kept by text. */
const otherFormulaFields = new Map<string, RegExp>();
const OTHER_FORMULA_FIELDS_KEPT = 256;

function formulaFieldOtherThan(escaped: string): RegExp {
  let search = otherFormulaFields.get(escaped);
  if (!search) {
    if (otherFormulaFields.size >= OTHER_FORMULA_FIELDS_KEPT) otherFormulaFields.clear();
    search = new RegExp(`"f":"(?!${escaped.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}")`, 'g');
    otherFormulaFields.set(escaped, search);
  }
  return search;
}
/** The editor's view fields (ignored by other readers): resized columns' widths, and whether the first row stays in view. */
const COLUMN_WIDTHS = 'columnWidths';
const FROZEN_ROWS = 'frozenRows';
/**
 * Heights people set on rows (docs/CONTENT-MODEL.md "spreadsheet"): a Y.Map from a row's stable id to its height
 * in pixels. Keyed by row id rather than position, a height follows its row through anyone's insertions and
 * deletions without being rewritten, and two people resizing different rows both keep theirs. Rows without an
 * entry take their height from their content (the editor measures wrapped text and larger fonts).
 */
const ROW_HEIGHTS = 'rowHeights';
/**
 * The sheet's merged areas: a Y.Map from an id to the area (`CellArea`). Keyed by id rather than held in an array
 * so that two people merging at once both keep their merge, and so that a later version can anchor an area to row
 * and column ids under the same key.
 */
const MERGES = 'merges';
/**
 * Whole-row and whole-column styles (an xlsx `<row s>` / `<col style>`, docs/CONTENT-MODEL.md "spreadsheet"): a
 * Y.Map from a row's (column's) stable id to its style (`CellStyle`), so that a style follows its line through
 * structure edits as a row height does, and is kept once rather than copied into every cell of the line. A cell
 * without a style of its own shows its row's, else its column's (Excel's precedence), empty cells too.
 */
const LINE_STYLES = { rows: 'rowStyles', columns: 'columnStyles' } as const;
export type SheetAxis = keyof typeof LINE_STYLES;
/** Each axis's sequence field of a sheet. */
const AXIS_FIELDS = { rows: SHEET_ROWS, columns: SHEET_COLUMNS } as const;

/** A `grid` entry's key: the cell's row id and column id. */
function gridKey(row: AxisKey, column: AxisKey): string {
  return `${row}/${column}`;
}

/** A `blocks` entry's key: the column's id, the first row's id, the number of rows. */
function blockKey(column: AxisKey, firstRow: AxisKey, rows: number): string {
  return `${column}/${firstRow}/${rows.toString(36)}`;
}

interface BlockRef {
  key: string;
  column: AxisKey;
  client: number;
  clock: number;
  length: number;
}

function parseBlockKey(key: string): BlockRef | undefined {
  const [column, firstRow, rows, extra] = key.split('/');
  if (column === undefined || firstRow === undefined || rows === undefined || extra !== undefined) return undefined;
  const first = parseAxisKey(firstRow);
  const length = parseInt(rows, 36);
  if (!first || !parseAxisKey(column) || !Number.isSafeInteger(length) || length <= 0) return undefined;
  return { key, column, client: first.client, clock: first.clock, length };
}

/**
 * A block's text back to its cells (null where none); a malformed block reads as empty. Two forms are read: the
 * cells' array (every version; since version 4 written for blocks without a styled cell), and since version 4
 * `{"styles": [...], "cells": [...]}`, whose cells name their style by its index in `styles`: each distinct style
 * is stored once per block, and the cells read share its one object.
 */
function parseBlock(text: unknown, length: number): Array<Cell | null> {
  if (typeof text !== 'string') return [];
  try {
    const parsed: unknown = JSON.parse(text);
    if (Array.isArray(parsed)) return parsed.slice(0, length).map((cell) => (isStoredCell(cell) ? cell : null));
    const { styles, cells } = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as { styles?: unknown; cells?: unknown };
    if (!Array.isArray(cells)) return [];
    const palette: unknown[] = Array.isArray(styles) ? styles : [];
    return (cells as unknown[]).slice(0, length).map((cell) => (isStoredCell(cell) ? withPaletteStyle(cell, palette) : null));
  } catch {
    return [];
  }
}

/** A cell of a block with a style palette, its `s` (an index into `styles`) replaced by that style; an index naming none leaves no style. */
function withPaletteStyle(cell: Cell, styles: readonly unknown[]): Cell {
  const index: unknown = cell.s;
  if (index === undefined) return cell;
  const style = typeof index === 'number' && Number.isInteger(index) ? styles[index] : undefined;
  if (isStoredCell(style)) cell.s = style as CellStyle;
  else delete cell.s;
  return cell;
}

/**
 * The text of a block holding `cells` (stored form): the cells' array when none has a style, else the cells with a
 * palette of the block's distinct styles, each cell's `s` its style's index (parseBlock reads both). A style is
 * recognised by its object first (an import hands every cell of one workbook style the same one), then by its
 * JSON text.
 */
function blockTextOf(cells: ReadonlyArray<Cell | null>): string {
  if (!cells.some((cell) => cell?.s !== undefined)) return JSON.stringify(cells);
  const styles: unknown[] = [];
  const byObject = new Map<object, number>();
  const byText = new Map<string, number>();
  const indexOf = (style: object): number => {
    let index = byObject.get(style);
    if (index !== undefined) return index;
    const text = JSON.stringify(style);
    index = byText.get(text);
    if (index === undefined) byText.set(text, (index = styles.push(style) - 1));
    byObject.set(style, index);
    return index;
  };
  const named = cells.map((cell) => (cell?.s === undefined ? cell : { ...cell, s: indexOf(cell.s) }));
  return JSON.stringify({ styles, cells: named });
}

function isStoredCell(value: unknown): value is Cell {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A version 1 key ("row:col") back to its position; undefined for keys that are not a cell address. */
function legacyPosition(key: string): { row: number; column: number } | undefined {
  const separator = key.indexOf(':');
  if (separator <= 0) return undefined;
  const row = Number(key.slice(0, separator));
  const column = Number(key.slice(separator + 1));
  return Number.isInteger(row) && Number.isInteger(column) && row >= 0 && column >= 0 && key.length <= 19 ? { row, column } : undefined;
}

/**
 * A cell as readers see it at (row, column): its formula in A1 form. Formulas are stored relative to their cell
 * (model 3, formulas/relative.ts); this and `storedForm` are the only two places that convert.
 */
function readable(cell: Cell, row: number, column: number): Cell {
  if (typeof cell.f !== 'string') return cell;
  // a stored cell is read again and again while it is in view (every frame that draws it, the engine, the formula
  // bar): its A1 form is kept with it, for the position it was read at (rows or columns inserted before it move it)
  const kept = readableForms.get(cell);
  if (kept && kept.row === row && kept.column === column) return kept.cell;
  const shown = { ...cell, f: formulaInA1(cell.f, row, column) };
  readableForms.set(cell, { row, column, cell: shown });
  return shown;
}

/** Stored formula cells' A1 forms, by the stored cell (an object a block parse or the grid map holds, never changed). */
const readableForms = new WeakMap<Cell, { row: number; column: number; cell: Cell }>();

/** A cell written at (row, column) as it is stored: its formula relative to the cell. */
function storedForm(cell: Cell, row: number, column: number): Cell {
  return typeof cell.f === 'string' ? { ...cell, f: formulaRelative(cell.f, row, column) } : cell;
}

const observedBlocks = new WeakSet<Y.Map<unknown>>();

/**
 * How many keys a map holds, deleted ones included: an upper bound of its entries for choosing how to walk it. Y.Map's
 * `size` counts the live entries by copying them all into an array, which for a grid of 100,000 cells cost as much as
 * a tenth of the read that asked.
 */
function keysHeld(map: Y.Map<unknown> | undefined): number {
  return map?._map.size ?? 0;
}

/** A stored row height as readers take it: a whole number of pixels within the bounds, else none. */
function validRowHeight(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= MIN_ROW_HEIGHT && value <= MAX_ROW_HEIGHT ? value : undefined;
}

function positiveInteger(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : fallback;
}

/** What is stored for one cell: its `grid` key, the entry there (undefined: none; null: a block's cell cleared), the block's cell (null: none). */
interface StoredAt {
  key: string;
  inGrid: unknown;
  inBlock: Cell | null;
}

/** A sheet copied by position (SheetModel.copyOf), to be placed under new row and column ids. */
interface SheetCopy {
  map: Y.Map<unknown>;
  cells: Array<[number, number, Cell]>;
  heights: Map<number, number>;
  lineStyles: Record<SheetAxis, Map<number, CellStyle>>;
}

const models = new WeakMap<Y.Map<unknown>, SheetModel>();
const axisIndexes = new WeakMap<Y.Text, AxisIndex>();

function axisIndexOf(sequence: Y.Text): AxisIndex {
  let index = axisIndexes.get(sequence);
  if (!index) axisIndexes.set(sequence, (index = new AxisIndex(sequence)));
  return index;
}

/**
 * One sheet of a spreadsheet. `SheetModel.of` gives one instance per sheet map, so instances compare by identity
 * as the sheets do. Cells are plain JSON (`Cell`): a value or a formula, a number format, a style; a cell holding
 * only a format or a style is empty but stored.
 */
export class SheetModel {
  /** blocks by column id, then by the client of their rows, sorted by first clock; rebuilt after `blocks` changes */
  private blockIndex: Map<AxisKey, Map<number, BlockRef[]>> | undefined;
  private readonly parsedBlocks = new Map<string, { text: unknown; cells: Array<Cell | null> }>();

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

  /** The stored grid model version (SHEET_MODEL_VERSION once upgraded; 1 for a sheet written before versions). */
  get modelVersion(): number {
    return positiveInteger(this.map.get(SHEET_MODEL_FIELD), 1);
  }

  private axis(field: typeof SHEET_ROWS | typeof SHEET_COLUMNS): AxisIndex | undefined {
    const sequence = this.map.get(field);
    return sequence instanceof Y.Text ? axisIndexOf(sequence) : undefined;
  }

  /** Size of the grid. */
  get rowCount(): number {
    return this.axis(SHEET_ROWS)?.length || positiveInteger(this.map.get('rowCount'), DEFAULT_ROW_COUNT);
  }

  get columnCount(): number {
    return this.axis(SHEET_COLUMNS)?.length || positiveInteger(this.map.get('columnCount'), DEFAULT_COLUMN_COUNT);
  }

  /** Grows the grid to at least `rows` × `columns` (never shrinks it). */
  growTo(rows: number, columns: number): void {
    const rowAxis = this.writableAxis(SHEET_ROWS);
    const columnAxis = this.writableAxis(SHEET_COLUMNS);
    if (rows > rowAxis.length) rowAxis.insert(rowAxis.length, rows - rowAxis.length);
    if (columns > columnAxis.length) columnAxis.insert(columnAxis.length, columns - columnAxis.length);
  }

  private writableAxis(field: typeof SHEET_ROWS | typeof SHEET_COLUMNS): AxisIndex {
    const existing = this.axis(field);
    if (existing) return existing;
    if (this.modelVersion < SHEET_MODEL_VERSION) throw new Error('the sheet is stored in an older model: upgradeSpreadsheet converts it first');
    const sequence = new Y.Text(AXIS_CHARACTER.repeat(field === SHEET_ROWS ? DEFAULT_ROW_COUNT : DEFAULT_COLUMN_COUNT));
    this.map.set(field, sequence);
    return axisIndexOf(sequence);
  }

  /**
   * The stable id of the row at `row` (undefined outside the grid): it stays the row's through insertions and
   * deletions elsewhere, by anyone, and is never reused.
   */
  rowId(row: number): string | undefined {
    return this.axis(SHEET_ROWS)?.keyAt(row);
  }

  /** The stable id of the column at `column`, as rowId. */
  columnId(column: number): string | undefined {
    return this.axis(SHEET_COLUMNS)?.keyAt(column);
  }

  /** How many cells are stored (format-only cells included). */
  get cellCount(): number {
    let count = 0;
    this.forEachCell(() => count++);
    return count;
  }

  /** The stored cell (a formula in A1 form), or undefined where nothing is stored. */
  cell(row: number, column: number): Cell | undefined {
    const cell = this.storedCell(row, column);
    return cell && readable(cell, row, column);
  }

  /**
   * The style a cell shows (the one read every reader of styles uses): its own (a cell's `s`; an empty `s` is the
   * default look chosen over its line's), else its row's, else its column's; undefined for the default look.
   */
  styleAt(row: number, column: number): CellStyle | undefined {
    return this.styleShown(this.storedCell(row, column), row, column);
  }

  /** `styleAt` for a reader that already holds the cell read at (row, column) (the editor keeps a frame's reads). */
  styleShown(cell: Cell | undefined, row: number, column: number): CellStyle | undefined {
    const own = ownStyleOf(cell);
    if (own === undefined) return this.inheritedStyle(row, column);
    for (const _ in own) return own;
    return undefined;
  }

  /** The style a cell without one of its own takes at (row, column): its row's, else its column's. */
  inheritedStyle(row: number, column: number): CellStyle | undefined {
    return this.lineStyle('rows', row) ?? this.lineStyle('columns', column);
  }

  /** The style of the whole row (`axis` rows) or column at `index`; undefined for none. */
  lineStyle(axis: SheetAxis, index: number): CellStyle | undefined {
    const styles = this.map.get(LINE_STYLES[axis]);
    if (!(styles instanceof Y.Map)) return undefined;
    const key = this.axis(AXIS_FIELDS[axis])?.keyAt(index);
    return key === undefined ? undefined : parseCellStyle(styles.get(key));
  }

  /** The styles of whole rows (columns), by position; those of deleted lines are left out. */
  lineStyles(axis: SheetAxis): Map<number, CellStyle> {
    return this.byPosition(LINE_STYLES[axis], AXIS_FIELDS[axis], parseCellStyle);
  }

  /**
   * The valid values (`read`) of the sheet's map `field`, keyed by ids of the `axis` sequence, by position: one
   * lookup per stored value, never a walk over the rows; values of deleted lines are left out.
   */
  private byPosition<T>(field: string, axis: (typeof AXIS_FIELDS)[SheetAxis], read: (value: unknown) => T | undefined): Map<number, T> {
    const found = new Map<number, T>();
    const stored = this.map.get(field);
    const sequence = this.axis(axis);
    if (!(stored instanceof Y.Map) || !sequence) return found;
    stored.forEach((value, key) => {
      const valid = read(value);
      const index = valid === undefined ? undefined : sequence.positionOfKey(key);
      if (index !== undefined) found.set(index, valid!);
    });
    return found;
  }

  /** Gives the whole row (column) at `index` a style, or takes it away (undefined); outside the grid, nothing. */
  setLineStyle(axis: SheetAxis, index: number, style: CellStyle | undefined): void {
    const key = this.axis(AXIS_FIELDS[axis])?.keyAt(index);
    if (key !== undefined) this.setLineStyleByKey(axis, key, style);
  }

  private setLineStyleByKey(axis: SheetAxis, key: AxisKey, style: CellStyle | undefined): void {
    let styles = this.map.get(LINE_STYLES[axis]);
    if (style === undefined) {
      if (styles instanceof Y.Map && styles.has(key)) styles.delete(key);
      return;
    }
    if (!(styles instanceof Y.Map)) this.map.set(LINE_STYLES[axis], (styles = new Y.Map<unknown>()));
    (styles as Y.Map<unknown>).set(key, style);
  }

  /** The cell as stored (a formula relative to the cell), or undefined. */
  private storedCell(row: number, column: number): Cell | undefined {
    const rowId = this.axis(SHEET_ROWS)?.idAt(row);
    const columnKey = this.axis(SHEET_COLUMNS)?.keyAt(column);
    if (!rowId || columnKey === undefined) return undefined;
    const key = gridKey(axisKey(rowId.client, rowId.clock), columnKey);
    const grid = this.grid();
    if (grid?.has(key)) {
      const value = grid.get(key);
      return isStoredCell(value) ? value : undefined;
    }
    return this.blockCell(columnKey, rowId.client, rowId.clock) ?? undefined;
  }

  /** The cell a block holds for (column, row id), null where none does. */
  private blockCell(column: AxisKey, client: number, clock: number): Cell | null {
    const block = spanHolding(this.blocksOf(column)?.get(client) ?? [], clock, (each) => each.clock, (each) => each.length);
    return block ? (this.blockCells(block)[clock - block.clock] ?? null) : null;
  }

  private blocksOf(column: AxisKey): Map<number, BlockRef[]> | undefined {
    if (!this.blockIndex) {
      const index = new Map<AxisKey, Map<number, BlockRef[]>>();
      this.blocks()?.forEach((_, key) => {
        const block = parseBlockKey(key);
        if (!block) return;
        let byClient = index.get(block.column);
        if (!byClient) index.set(block.column, (byClient = new Map()));
        let runs = byClient.get(block.client);
        if (!runs) byClient.set(block.client, (runs = []));
        runs.push(block);
      });
      for (const byClient of index.values()) for (const runs of byClient.values()) runs.sort((a, b) => a.clock - b.clock);
      this.blockIndex = index;
    }
    return this.blockIndex.get(column);
  }

  private blockCells(block: BlockRef): Array<Cell | null> {
    const text = this.blocks()?.get(block.key);
    const parsed = this.parsedBlocks.get(block.key);
    if (parsed && parsed.text === text) {
      // most recently used last
      this.parsedBlocks.delete(block.key);
      this.parsedBlocks.set(block.key, parsed);
      return parsed.cells;
    }
    const cells = parseBlock(text, block.length);
    this.parsedBlocks.set(block.key, { text, cells });
    if (this.parsedBlocks.size > PARSED_BLOCKS) this.parsedBlocks.delete(this.parsedBlocks.keys().next().value!);
    return cells;
  }

  /** Forgets what was derived from `blocks` (it changed). */
  private blocksChanged(): void {
    this.blockIndex = undefined;
    this.parsedBlocks.clear();
  }

  /**
   * Visits the stored cells (format-only cells included) inside `area` (the whole sheet when absent), in no
   * particular order, looking cells up by position or walking the stored ones, whichever is fewer. `stored`: the
   * cell as stored, its formula relative to the cell (formulas/relative.ts).
   */
  forEachCell(visit: (row: number, column: number, cell: Cell, stored: Cell) => void, area?: CellArea): void {
    this.forEachStoredCell((row, column, cell) => visit(row, column, readable(cell, row, column), cell), area);
  }

  /**
   * Visits the formula cells (in A1 form) whose stored text (relative to the cell, formulas/relative.ts: it parses to
   * the same shape as the A1 text) `accept`s; a block none of whose formulas it accepts is skipped without parsing.
   */
  forEachFormulaCell(accept: (stored: string) => boolean, visit: (row: number, column: number, cell: Cell, stored: Cell) => void): void {
    const acceptsOne = (blockText: string) => {
      let at = blockText.indexOf(FORMULA_FIELD);
      while (at >= 0) {
        STORED_FORMULA.lastIndex = at;
        const escaped = STORED_FORMULA.exec(blockText)?.[1];
        if (escaped === undefined) return true;
        if (accept(escaped.includes('\\') ? (JSON.parse(`"${escaped}"`) as string) : escaped)) return true;
        // a column of copied formulas repeats one text: the next formula holding another is found in one search
        const other = formulaFieldOtherThan(escaped);
        other.lastIndex = at + FORMULA_FIELD.length + escaped.length + 1;
        at = other.exec(blockText)?.index ?? -1;
      }
      return false;
    };
    this.forEachStoredCell((row, column, cell) => {
      if (typeof cell.f === 'string' && accept(cell.f)) visit(row, column, readable(cell, row, column), cell);
    }, undefined, acceptsOne);
  }

  /**
   * forEachCell with the cells as stored (formulas relative to their cells); `wanted` skips the blocks whose text it
   * refuses without parsing them (a structure edit's scan skips those holding no formula).
   */
  private forEachStoredCell(visit: (row: number, column: number, cell: Cell) => void, area?: CellArea, wanted?: (blockText: string) => boolean): void {
    const rows = this.axis(SHEET_ROWS);
    const columns = this.axis(SHEET_COLUMNS);
    if (!rows || !columns) return;
    const grid = this.grid();
    const blocks = this.blocks();
    // a block outside the area costs a look-up or two to skip, not one per cell
    const stored = keysHeld(grid) + keysHeld(blocks) * 4;
    if (area) {
      // a look-up costs several times more than visiting an entry: probe only areas much smaller than the sheet
      const size = (area.endRow - area.startRow + 1) * (area.endColumn - area.startColumn + 1);
      if (size * 8 <= stored) {
        for (let row = area.startRow; row <= area.endRow; row++) {
          for (let column = area.startColumn; column <= area.endColumn; column++) {
            const cell = this.storedCell(row, column);
            if (cell) visit(row, column, cell);
          }
        }
        return;
      }
    }
    const inArea = (row: number, column: number) => !area || (row >= area.startRow && row <= area.endRow && column >= area.startColumn && column <= area.endColumn);
    // the row ids of the grid entries (later edits, or null: cleared) by column and row client: they shadow the
    // blocks' cells, found by number rather than by a key built for every cell of every block
    const shadowing = new Map<AxisKey, Map<number, Set<number>>>();
    const blocksStored = keysHeld(blocks) > 0;
    // A sheet has few columns and its grid entries come row after row (a write sets a row's cells together): the
    // previous entry's row and each column's position are reused instead of parsing every key's ids anew.
    const columnPositions = new Map<AxisKey, number | undefined>();
    let rowPrefix = '';
    let rowId: { client: number; clock: number } | undefined;
    let row: number | undefined;
    grid?.forEach((value, key) => {
      if (rowPrefix === '' || !key.startsWith(rowPrefix)) {
        const slash = key.indexOf('/');
        rowPrefix = key.slice(0, slash + 1);
        rowId = parseAxisKey(key.slice(0, slash));
        row = rowId && rows.positionOf(rowId.client, rowId.clock);
      }
      if (!rowId) return;
      const columnKey = key.slice(rowPrefix.length);
      if (blocksStored) {
        let byClient = shadowing.get(columnKey);
        if (!byClient) shadowing.set(columnKey, (byClient = new Map()));
        let clocks = byClient.get(rowId.client);
        if (!clocks) byClient.set(rowId.client, (clocks = new Set()));
        clocks.add(rowId.clock);
      }
      if (!isStoredCell(value)) return;
      let column = columnPositions.get(columnKey);
      if (column === undefined && !columnPositions.has(columnKey)) columnPositions.set(columnKey, (column = columns.positionOfKey(columnKey)));
      if (row !== undefined && column !== undefined && inArea(row, column)) visit(row, column, value);
    });
    blocks?.forEach((_, key) => {
      const block = parseBlockKey(key);
      const column = block && columns.positionOfKey(block.column);
      if (!block || column === undefined || (area && (column < area.startColumn || column > area.endColumn))) return;
      if (wanted && !wanted(String(blocks.get(key)))) return;
      let cells: Array<Cell | null> | undefined;
      const shadowed = shadowing.get(block.column)?.get(block.client);
      rows.forEachPosition(block.client, block.clock, block.length, (offset, row) => {
        cells ??= this.blockCells(block);
        const cell = cells[offset];
        if (cell && !shadowed?.has(block.clock + offset)) visit(row, column, cell);
      }, area?.startRow, area?.endRow);
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
   * nothing (no new Yjs item), so a repeated write leaves the document as it was. A cell outside the grid grows
   * the grid to hold it.
   */
  setCell(row: number, column: number, cell: Cell | null): void {
    this.setStoredCell(row, column, cell && storedForm(cell, row, column));
  }

  /** setCell with the cell in its stored form. */
  private setStoredCell(row: number, column: number, cell: Cell | null): void {
    if (cell === null && (row >= this.rowCount || column >= this.columnCount)) return;
    this.growTo(row + 1, column + 1);
    const rowId = this.axis(SHEET_ROWS)!.idAt(row)!;
    const columnKey = this.axis(SHEET_COLUMNS)!.keyAt(column)!;
    this.writeStored(this.storedAt(axisKey(rowId.client, rowId.clock), rowId, columnKey), cell);
  }

  /** What is stored for a row id and a column key: the `grid` entry, if any (null: a block's cell cleared), and the block's cell. */
  private storedAt(rowKey: AxisKey, rowId: { client: number; clock: number }, columnKey: AxisKey): StoredAt {
    const key = gridKey(rowKey, columnKey);
    // undefined is never stored: a grid entry holds a cell or null
    return { key, inGrid: this.grid()?.get(key), inBlock: this.blockCell(columnKey, rowId.client, rowId.clock) };
  }

  /**
   * Stores `cell` (stored form; null: none) where `at` was read, as a `grid` entry: one that shadows a block's
   * cell, null over a block's cell that is cleared. Writing what is stored already changes nothing.
   */
  private writeStored(at: StoredAt, cell: Cell | null): void {
    let grid = this.grid();
    if (cell === null) {
      if (at.inBlock) {
        if (!grid) this.map.set(SHEET_GRID, (grid = new Y.Map<unknown>()));
        if (at.inGrid !== null) grid.set(at.key, null);
      } else if (at.inGrid !== undefined) grid?.delete(at.key);
      return;
    }
    if (!grid) this.map.set(SHEET_GRID, (grid = new Y.Map<unknown>()));
    if (!sameCell(at.inGrid === undefined ? at.inBlock : at.inGrid, cell)) grid.set(at.key, cell);
  }

  /**
   * Rewrites the cells of `area` in one pass (the values API's writes): `next` is given each cell's position and
   * what is stored there (a formula in A1 form, undefined: nothing) and answers the cell to store there, null to
   * remove it, undefined to leave it. The same as setCell on each cell, row by row (what is stored already is not
   * written again; the grid grows to hold the cells stored), with the rows' and columns' ids looked up once each
   * and each cell's stored content once, instead of several times per cell, and the grid grown once.
   */
  rewriteCells(area: CellArea, next: (row: number, column: number, stored: Cell | undefined) => Cell | null | undefined): void {
    const height = area.endRow - area.startRow + 1;
    const width = area.endColumn - area.startColumn + 1;
    const rowAxis = this.axis(SHEET_ROWS);
    const columnAxis = this.axis(SHEET_COLUMNS);
    const columnKeys = Array.from({ length: width }, (_, c) => columnAxis?.keyAt(area.startColumn + c));
    // what to store (the stored form) by offset in the area, undefined: left as it is; and what was found there
    const planned = new Array<Cell | null | undefined>(height * width);
    const found = new Array<StoredAt | undefined>(height * width);
    let lastRow = -1;
    let lastColumn = -1;
    for (let r = 0; r < height; r++) {
      const row = area.startRow + r;
      const rowId = rowAxis?.idAt(row);
      const rowKey = rowId && axisKey(rowId.client, rowId.clock);
      for (let c = 0; c < width; c++) {
        const column = area.startColumn + c;
        const columnKey = columnKeys[c];
        const at = rowKey !== undefined && columnKey !== undefined ? this.storedAt(rowKey, rowId!, columnKey) : undefined;
        const stored = at && (isStoredCell(at.inGrid) ? at.inGrid : at.inGrid === undefined ? (at.inBlock ?? undefined) : undefined);
        const cell = next(row, column, stored && readable(stored, row, column));
        if (cell === undefined) continue;
        planned[r * width + c] = cell && storedForm(cell, row, column);
        found[r * width + c] = at;
        if (cell !== null) {
          lastRow = Math.max(lastRow, row);
          lastColumn = Math.max(lastColumn, column);
        }
      }
    }
    if (lastRow >= 0) this.growTo(lastRow + 1, lastColumn + 1);
    const rows = this.axis(SHEET_ROWS);
    const columns = this.axis(SHEET_COLUMNS);
    if (!rows || !columns) return;
    for (let c = 0; c < width; c++) columnKeys[c] ??= columns.keyAt(area.startColumn + c);
    for (let r = 0; r < height; r++) {
      let rowId: { client: number; clock: number } | undefined;
      let rowKey: AxisKey | undefined;
      for (let c = 0; c < width; c++) {
        const cell = planned[r * width + c];
        if (cell === undefined) continue;
        let at = found[r * width + c];
        if (!at) {
          // a row or column the grid grew to hold: nothing stored there yet
          rowId ??= rows.idAt(area.startRow + r);
          rowKey ??= rowId && axisKey(rowId.client, rowId.clock);
          const columnKey = columnKeys[c];
          // a cell removed outside the grid: nothing there to remove
          if (rowKey === undefined || columnKey === undefined) continue;
          at = { key: gridKey(rowKey, columnKey), inGrid: undefined, inBlock: null };
        }
        this.writeStored(at, cell);
      }
    }
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

  /** The height a person set on a row, pixels; undefined where the row's content decides it. */
  rowHeight(row: number): number | undefined {
    const heights = this.map.get(ROW_HEIGHTS);
    const key = heights instanceof Y.Map ? this.rowId(row) : undefined;
    return key === undefined ? undefined : validRowHeight((heights as Y.Map<unknown>).get(key));
  }

  /**
   * The heights people set, by row position: one lookup per stored height (a few hundred on a large sheet), never
   * a walk over the rows. Heights of deleted rows are left out.
   */
  rowHeights(): Map<number, number> {
    return this.byPosition(ROW_HEIGHTS, SHEET_ROWS, validRowHeight);
  }

  /** Sets a row's height (checked by the caller: MIN_ROW_HEIGHT to MAX_ROW_HEIGHT), or gives it back to its content (undefined). */
  setRowHeight(row: number, height: number | undefined): void {
    const key = this.rowId(row);
    if (key === undefined) return;
    let heights = this.map.get(ROW_HEIGHTS);
    if (height === undefined) {
      if (heights instanceof Y.Map && heights.has(key)) heights.delete(key);
      return;
    }
    if (!(heights instanceof Y.Map)) this.map.set(ROW_HEIGHTS, (heights = new Y.Map<number>()));
    const rounded = Math.round(height);
    if ((heights as Y.Map<unknown>).get(key) !== rounded) (heights as Y.Map<number>).set(key, rounded);
  }

  /** How many rows from the top stay in view as the sheet scrolls (0: none); a broken value reads as 0. */
  get frozenRows(): number {
    const frozen = this.map.get(FROZEN_ROWS);
    return typeof frozen === 'number' && Number.isInteger(frozen) && frozen > 0 ? Math.min(frozen, MAX_ROWS) : 0;
  }

  /** Keeps the top `frozen` rows in view (an Excel workbook's frozen pane, or the editor's Freeze); 0 unfreezes. */
  setFrozenRows(frozen: number): void {
    this.map.set(FROZEN_ROWS, Number.isFinite(frozen) && frozen > 0 ? Math.min(Math.floor(frozen), MAX_ROWS) : 0);
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

  /**
   * Writes `cells` (by position) into this sheet, whose rows and columns are fresh (one Yjs item per axis, as
   * newSheet or an upgrade makes them): one block per column and band of BLOCK_ROWS rows.
   */
  private writeBlocks(cells: ReadonlyArray<readonly [number, number, Cell]>): void {
    const rows = this.axis(SHEET_ROWS)!;
    const columns = this.axis(SHEET_COLUMNS)!;
    const bands = new Map<string, { column: number; band: number; cells: Array<Cell | null> }>();
    for (const [row, column, cell] of cells) {
      const band = Math.floor(row / BLOCK_ROWS);
      const name = `${column}:${band}`;
      let entry = bands.get(name);
      if (!entry) bands.set(name, (entry = { column, band, cells: [] }));
      entry.cells[row - band * BLOCK_ROWS] = cell;
    }
    let blocks = this.blocks();
    if (!blocks && bands.size > 0) this.map.set(SHEET_BLOCKS, (blocks = new Y.Map<unknown>()));
    for (const { column, band, cells: banded } of bands.values()) {
      const first = band * BLOCK_ROWS;
      const length = Math.min(banded.length, rows.length - first);
      const firstId = rows.idAt(first)!;
      const lastId = rows.idAt(first + length - 1)!;
      if (lastId.client !== firstId.client || lastId.clock !== firstId.clock + length - 1) throw new Error('blocks are written into fresh rows only');
      blocks!.set(blockKey(columns.keyAt(column)!, axisKey(firstId.client, firstId.clock), length), blockTextOf(Array.from({ length }, (_, offset) => banded[offset] ?? null)));
    }
    this.blocksChanged();
  }

  /**
   * The keyed map a sheet feature keeps under its own key of the sheet (the filter, src/model/sheets/filter.ts;
   * docs/CONTENT-MODEL.md "Sheet features"), created when `create` is set. Features read and write their own entries
   * only; structure edits move them through `moveSheetFeatures`.
   */
  featureMap(key: string, create = false): Y.Map<unknown> | undefined {
    const stored = this.map.get(key);
    if (stored instanceof Y.Map) return stored;
    if (!create) return undefined;
    const made = new Y.Map<unknown>();
    this.map.set(key, made);
    return made;
  }

  /**
   * Moves the sheet at `from` to `to`: a Yjs type cannot move, so a copy with the same id and fields replaces it
   * (copyOf, placeCopy).
   */
  static relocate(sheet: SheetModel, from: number, to: number): SheetModel {
    const sheets = sheet.map.parent as Y.Array<Y.Map<unknown>>;
    const copy = sheet.copyOf();
    sheets.delete(from, 1);
    return SheetModel.placeCopy(sheets, to, copy);
  }

  /**
   * A copy of the sheet not yet in any document: the same id and fields, fresh rows and columns of the same size
   * (new Yjs items, so new ids), and the cells, row heights and line styles by position, which placeCopy writes under
   * the new ids.
   */
  private copyOf(): SheetCopy {
    const cells = this.storedCells();
    const heights = this.rowHeights();
    const lineStyles = { rows: this.lineStyles('rows'), columns: this.lineStyles('columns') };
    const map = this.map.clone();
    map.delete(ROW_HEIGHTS);
    map.delete(LINE_STYLES.rows);
    map.delete(LINE_STYLES.columns);
    map.set(SHEET_ROWS, new Y.Text(AXIS_CHARACTER.repeat(this.rowCount)));
    map.set(SHEET_COLUMNS, new Y.Text(AXIS_CHARACTER.repeat(this.columnCount)));
    map.set(SHEET_GRID, new Y.Map<unknown>());
    map.set(SHEET_BLOCKS, new Y.Map<unknown>());
    return { map, cells, heights, lineStyles };
  }

  /** Inserts a copyOf at `at` of `sheets` and writes its cells (in blocks) and row heights there. */
  private static placeCopy(sheets: Y.Array<Y.Map<unknown>>, at: number, copy: SheetCopy): SheetModel {
    sheets.insert(at, [copy.map]);
    const placed = SheetModel.of(copy.map);
    placed.writeBlocks(copy.cells);
    for (const [row, height] of copy.heights) placed.setRowHeight(row, height);
    for (const axis of ['rows', 'columns'] as const) for (const [index, style] of copy.lineStyles[axis]) placed.setLineStyle(axis, index, style);
    return placed;
  }

  /**
   * Replaces every sheet of `target` by a copy of `source`'s (restoring a revision): copies, because a Yjs type
   * belongs to one document, made as a sheet move makes them. `source` is upgraded first if it is older.
   */
  static replaceSheets(target: Y.Doc, source: Y.Doc): void {
    upgradeSpreadsheet(source);
    const copies = sheetModels(source).map((sheet) => sheet.copyOf());
    const sheets = sheetsOf(target);
    if (sheets.length > 0) sheets.delete(0, sheets.length);
    copies.forEach((copy, index) => SheetModel.placeCopy(sheets, index, copy));
  }

  /** The cell stored under (row id, column id), whether or not the row and column are still in the sheet. */
  private cellByIds(rowClient: number, rowClock: number, column: AxisKey): Cell | undefined {
    const grid = this.grid();
    const key = gridKey(axisKey(rowClient, rowClock), column);
    if (grid?.has(key)) {
      const value = grid.get(key);
      return isStoredCell(value) ? value : undefined;
    }
    return this.blockCell(column, rowClient, rowClock) ?? undefined;
  }

  /**
   * Rows or columns brought back under new ids (an undo manager re-inserts a deleted Yjs item as a copy with a
   * new id): copies the cells stored under each old id to its new one, as `grid` entries. `from` and `to` are the
   * first old and new ids of `length` consecutive ones.
   */
  private revive(axis: SheetAxis, from: Y.ID, to: Y.ID, length: number): void {
    const writes: Array<[string, Cell]> = [];
    const lineStyles = this.map.get(LINE_STYLES[axis]);
    for (let offset = 0; lineStyles instanceof Y.Map && offset < length; offset++) {
      const style = parseCellStyle(lineStyles.get(axisKey(from.client, from.clock + offset)));
      if (style !== undefined) this.setLineStyleByKey(axis, axisKey(to.client, to.clock + offset), style);
    }
    if (axis === 'rows') {
      const heights = this.map.get(ROW_HEIGHTS);
      for (let offset = 0; heights instanceof Y.Map && offset < length; offset++) {
        const height = validRowHeight(heights.get(axisKey(from.client, from.clock + offset)));
        if (height !== undefined) heights.set(axisKey(to.client, to.clock + offset), height);
      }
      const columns = this.axis(SHEET_COLUMNS);
      for (let column = 0; columns && column < columns.length; column++) {
        const columnKey = columns.keyAt(column)!;
        for (let offset = 0; offset < length; offset++) {
          const cell = this.cellByIds(from.client, from.clock + offset, columnKey);
          if (cell) writes.push([gridKey(axisKey(to.client, to.clock + offset), columnKey), cell]);
        }
      }
    } else {
      const rows = this.axis(SHEET_ROWS);
      for (let offset = 0; offset < length; offset++) {
        const oldKey = axisKey(from.client, from.clock + offset);
        const newKey = axisKey(to.client, to.clock + offset);
        for (let row = 0; rows && row < rows.length; row++) {
          const id = rows.idAt(row)!;
          const cell = this.cellByIds(id.client, id.clock, oldKey);
          if (cell) writes.push([gridKey(axisKey(id.client, id.clock), newKey), cell]);
        }
      }
    }
    if (writes.length === 0) return;
    let grid = this.grid();
    if (!grid) this.map.set(SHEET_GRID, (grid = new Y.Map<unknown>()));
    for (const [key, cell] of writes) grid.set(key, cell);
  }

  /**
   * Call after an undo manager over the sheets undid or redid a step (its 'stack-item-popped' event): rows and
   * columns it brought back keep their cells (see revive). Written with `origin`, which the undo manager must not
   * track, so the step stays one.
   */
  static afterUndoStep(doc: Y.Doc, stackItem: { deletions: Parameters<typeof Y.iterateDeletedStructs>[1] }, origin: unknown): void {
    const revived: Array<{ sheet: SheetModel; axis: 'rows' | 'columns'; from: Y.ID; to: Y.ID; length: number }> = [];
    doc.transact((transaction) => {
      Y.iterateDeletedStructs(transaction, stackItem.deletions, (struct) => {
        if (!(struct instanceof Y.Item) || struct.redone === null || !(struct.parent instanceof Y.Text)) return;
        const field = struct.parent._item?.parentSub;
        const sheetMap = struct.parent.parent;
        if ((field !== SHEET_ROWS && field !== SHEET_COLUMNS) || !(sheetMap instanceof Y.Map)) return;
        revived.push({ sheet: SheetModel.of(sheetMap as Y.Map<unknown>), axis: field === SHEET_ROWS ? 'rows' : 'columns', from: struct.id, to: struct.redone, length: struct.length });
      });
      for (const { sheet, axis, from, to, length } of revived) sheet.revive(axis, from, to, length);
    }, origin);
  }

  /** Where a `grid` entry's cell stands now; undefined when its row or column was deleted. */
  positionOfGridKey(key: string): { row: number; column: number } | undefined {
    const slash = key.indexOf('/');
    const row = this.axis(SHEET_ROWS)?.positionOfKey(key.slice(0, slash));
    const column = this.axis(SHEET_COLUMNS)?.positionOfKey(key.slice(slash + 1));
    return row === undefined || column === undefined ? undefined : { row, column };
  }

  /** The sheet's stored cells by position (formulas relative to their cells), for rewriting them elsewhere. */
  private storedCells(): Array<[number, number, Cell]> {
    const cells: Array<[number, number, Cell]> = [];
    this.forEachStoredCell((row, column, cell) => cells.push([row, column, cell]));
    return cells;
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
      // formulas are stored relative to their cells: most keep their text (storedAfterEdit)
      other.forEachStoredCell((row, column, cell) => {
        if (typeof cell.f !== 'string' || cell.f.length < 2) return;
        const formula = storedAfterEdit(cell.f, ownName, row, column, shift);
        // the cell keeps its number format and style: only its formula changes
        if (formula !== undefined && formula !== cell.f) rewritten.push([row, column, { ...cell, f: formula }]);
      }, undefined, (blockText) => blockText.includes('"f"'));
      // written under the cells' row and column ids, which the edit below does not change
      for (const [row, column, cell] of rewritten) other.setStoredCell(row, column, cell);
    }
    sheet.applyOwnStructure({ kind: edit.kind, axis: edit.axis, index: edit.index, count: edit.count });
  }

  /** Applies a structure edit to this sheet's own storage: cells, widths, size and log (formulas are applyStructureEdit's). */
  private applyOwnStructure(edit: SheetStructureEdit): void {
    recordStructureEdit(this.map, edit);
    // the cells stay where they are stored, keyed by their rows' and columns' ids: only the sequence changes
    const axis = this.writableAxis(edit.axis === 'rows' ? SHEET_ROWS : SHEET_COLUMNS);
    if (edit.kind === 'insert') axis.insert(Math.min(edit.index, axis.length), edit.count);
    else {
      // a sheet keeps at least one row and one column
      const count = Math.min(edit.count, axis.length - edit.index, axis.length - 1);
      if (count > 0) axis.delete(edit.index, count);
    }
    this.moveColumnWidths(edit);
    this.moveMerges(edit);
    moveSheetFeatures(this, edit);
  }

  private grid(): Y.Map<unknown> | undefined {
    const grid = this.map.get(SHEET_GRID);
    return grid instanceof Y.Map ? grid : undefined;
  }

  private blocks(): Y.Map<unknown> | undefined {
    const blocks = this.map.get(SHEET_BLOCKS);
    if (!(blocks instanceof Y.Map)) return undefined;
    if (!observedBlocks.has(blocks)) {
      observedBlocks.add(blocks);
      blocks.observe(() => models.get(this.map)?.blocksChanged());
    }
    return blocks;
  }

  /**
   * Converts a sheet of an older model to this one, in the caller's transaction; answers whether there was anything
   * to convert. Version 1 (cells keyed by position in `cells`, `rowCount`, `columnCount`): rows and columns as fresh
   * sequences of the same size, the cells in blocks keyed by their new ids, nothing else touched. Version 2 (formulas
   * in A1 form): every formula rewritten relative to its cell (upgradeFormulas). Version 3 (every block a plain
   * array of its cells, each style written out in full): the version field only, the blocks being read as they are.
   */
  upgrade(): boolean {
    if (this.modelVersion >= SHEET_MODEL_VERSION && this.axis(SHEET_ROWS) && this.axis(SHEET_COLUMNS)) return false;
    if ((this.modelVersion === 2 || this.modelVersion === 3) && this.axis(SHEET_ROWS) && this.axis(SHEET_COLUMNS)) {
      // version 3's blocks are read as they are (parseBlock reads both forms): only the version changes
      if (this.modelVersion === 2) this.upgradeFormulas();
      this.map.set(SHEET_MODEL_FIELD, SHEET_MODEL_VERSION);
      return true;
    }
    const legacy = this.map.get(LEGACY_CELLS);
    const cells: Array<[number, number, Cell]> = [];
    let rows = positiveInteger(this.map.get('rowCount'), DEFAULT_ROW_COUNT);
    let columns = positiveInteger(this.map.get('columnCount'), DEFAULT_COLUMN_COUNT);
    if (legacy instanceof Y.Map) {
      legacy.forEach((value, key) => {
        const at = legacyPosition(key);
        if (!at || !isStoredCell(value)) return;
        cells.push([at.row, at.column, storedForm(value, at.row, at.column)]);
        rows = Math.max(rows, at.row + 1);
        columns = Math.max(columns, at.column + 1);
      });
    }
    this.map.set(SHEET_ROWS, new Y.Text(AXIS_CHARACTER.repeat(rows)));
    this.map.set(SHEET_COLUMNS, new Y.Text(AXIS_CHARACTER.repeat(columns)));
    this.map.set(SHEET_GRID, new Y.Map<unknown>());
    this.map.set(SHEET_BLOCKS, new Y.Map<unknown>());
    this.writeBlocks(cells);
    for (const field of [LEGACY_CELLS, 'rowCount', 'columnCount']) if (this.map.has(field)) this.map.delete(field);
    this.map.set(SHEET_MODEL_FIELD, SHEET_MODEL_VERSION);
    return true;
  }

  /**
   * Version 2 → 3: the formulas of the blocks and the `grid` entries, stored in A1 form, rewritten relative to their
   * cells (a block whose formulas change is written again whole). A cell whose row or column was deleted has no
   * position and is left as it is: it is shown nowhere, and only an undo in an editor session (which an upgrade on
   * load precedes) could bring it back.
   */
  private upgradeFormulas(): void {
    const rows = this.axis(SHEET_ROWS)!;
    const columns = this.axis(SHEET_COLUMNS)!;
    const blocks = this.blocks();
    const rewrittenBlocks: Array<[string, string]> = [];
    blocks?.forEach((text, key) => {
      const block = parseBlockKey(key);
      const column = block && columns.positionOfKey(block.column);
      if (!block || column === undefined || typeof text !== 'string' || !text.includes('"f"')) return;
      const cells = parseBlock(text, block.length);
      let changed = false;
      rows.forEachPosition(block.client, block.clock, block.length, (offset, row) => {
        const cell = cells[offset];
        if (!cell || typeof cell.f !== 'string') return;
        const stored = storedForm(cell, row, column);
        if (stored.f !== cell.f) [cells[offset], changed] = [stored, true];
      });
      if (changed) rewrittenBlocks.push([key, blockTextOf(cells)]);
    });
    for (const [key, text] of rewrittenBlocks) blocks!.set(key, text);
    const grid = this.grid();
    const rewrittenCells: Array<[string, Cell]> = [];
    grid?.forEach((value, key) => {
      const at = this.positionOfGridKey(key);
      if (!at || !isStoredCell(value) || typeof value.f !== 'string') return;
      const stored = storedForm(value, at.row, at.column);
      if (stored.f !== value.f) rewrittenCells.push([key, stored]);
    });
    for (const [key, cell] of rewrittenCells) grid!.set(key, cell);
    this.blocksChanged();
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
  return SheetModel.relocate(sheet, from, to);
}

/**
 * Converts every sheet of `doc` stored in an older grid model to this one (SheetModel.upgrade), in one
 * transaction with `origin`. The server runs it when it loads a document; answers whether anything changed.
 */
export function upgradeSpreadsheet(doc: Y.Doc, origin?: unknown): boolean {
  const sheets = sheetModels(doc);
  if (sheets.every((sheet) => sheet.modelVersion >= SHEET_MODEL_VERSION)) return false;
  let changed = false;
  doc.transact(() => {
    for (const sheet of sheets) changed = sheet.upgrade() || changed;
  }, origin);
  return changed;
}

/** The lowest grid model version among the sheets of `doc` (SHEET_MODEL_VERSION for a document with none). */
export function spreadsheetModelVersion(doc: Y.Doc): number {
  return Math.min(SHEET_MODEL_VERSION, ...sheetModels(doc).map((sheet) => sheet.modelVersion));
}

/** See SheetModel.afterUndoStep. */
export const afterUndoStep = SheetModel.afterUndoStep;

/** See SheetModel.replaceSheets. */
export const replaceSheets = SheetModel.replaceSheets;

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
    const field = target._item?.parentSub;
    const sheetMap = target.parent instanceof Y.Map && target.parent.parent === root ? (target.parent as Y.Map<unknown>) : undefined;
    if (sheetMap && field === SHEET_GRID && event instanceof Y.YMapEvent) {
      const sheet = SheetModel.of(sheetMap);
      for (const key of event.keysChanged) {
        const at = sheet.positionOfGridKey(key);
        if (at) changes.cells.push({ sheet, row: at.row, column: at.column });
      }
      continue;
    }
    changes.layout = true;
    // rows or columns inserted or deleted (every cell after them moved), or cells replaced wholesale
    if (sheetMap && (field === SHEET_ROWS || field === SHEET_COLUMNS || field === SHEET_BLOCKS)) changes.sheets = true;
    if (event instanceof Y.YMapEvent && target.parent === root && [...event.keysChanged].some((key) => SHEET_WIDE_FIELDS.has(key))) changes.sheets = true;
  }
  return changes;
}

/** Fields of a sheet whose change means reading the sheet again. */
const SHEET_WIDE_FIELDS = new Set(['name', 'id', SHEET_MODEL_FIELD, SHEET_ROWS, SHEET_COLUMNS, SHEET_GRID, SHEET_BLOCKS, LEGACY_CELLS]);

/** Calls `listener` after every transaction that changed the sheets, with what it changed. Answers how to stop. */
export function observeSheets(doc: Y.Doc, listener: (changes: SheetChanges, transaction: Y.Transaction) => void): () => void {
  const root = sheetsOf(doc);
  const observer = (events: Array<Y.YEvent<Y.AbstractType<unknown>>>, transaction: Y.Transaction) => listener(changesOf(doc, events), transaction);
  root.observeDeep(observer);
  return () => root.unobserveDeep(observer);
}

/**
 * For writers that encode Yjs structs directly rather than through a Y.Doc (the xlsx import's encoder, which
 * would otherwise hold a million Items): the items a sheet's rows, columns and blocks are children of, and the
 * entry name and text of a block. Tied to this storage version: such a writer encodes nothing else by hand.
 */
export const directEncoding = {
  parents(sheet: Y.Map<unknown>): { rows: Y.ID; columns: Y.ID; blocks: Y.ID } {
    const item = (field: string) => {
      const type = sheet.get(field);
      if (!(type instanceof Y.AbstractType) || !type._item) throw new Error(`the sheet has no integrated ${field}`);
      return type._item.id;
    };
    return { rows: item(SHEET_ROWS), columns: item(SHEET_COLUMNS), blocks: item(SHEET_BLOCKS) };
  },
  axisCharacter: AXIS_CHARACTER,
  blockRows: BLOCK_ROWS,
  /** the `blocks` entry of a column's cells for rows (client, firstClock … firstClock + rows − 1) */
  blockEntry(columnClient: number, columnClock: number, rowClient: number, firstRowClock: number, rows: number): string {
    return blockKey(axisKey(columnClient, columnClock), axisKey(rowClient, firstRowClock), rows);
  },
  /** the text of a block whose first cell is at (firstRow, column): formulas written in A1 form are stored relative to their cells */
  blockText(cells: ReadonlyArray<Cell | null | undefined>, firstRow: number, column: number): string {
    return blockTextOf(Array.from(cells, (cell, offset) => (cell ? storedForm(cell, firstRow + offset, column) : null)));
  },
  /** row heights (row → pixels, checked by the caller) of a sheet whose row r is encoded as (rowClient, r) */
  setRowHeights(sheet: Y.Map<unknown>, rowClient: number, heights: ReadonlyMap<number, number>): void {
    const map = new Y.Map<number>();
    sheet.set(ROW_HEIGHTS, map);
    for (const [row, height] of heights) map.set(axisKey(rowClient, row), height);
  },
  /** Whole-row (column) styles of a sheet whose line at index i has the id (client, i), as setRowHeights. */
  setLineStyles(sheet: Y.Map<unknown>, axis: SheetAxis, client: number, styles: ReadonlyMap<number, CellStyle>): void {
    const map = new Y.Map<CellStyle>();
    sheet.set(LINE_STYLES[axis], map);
    for (const [index, style] of styles) map.set(axisKey(client, index), style);
  },
};

/** Whether a stored cell holds a value or formula (not only a format or style). */
export function holdsData(cell: Cell | undefined): cell is Cell {
  return cell !== undefined && !isEmptyCell(cell);
}
