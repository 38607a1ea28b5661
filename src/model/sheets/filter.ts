import type * as Y from 'yjs';
import type { Cell, SheetStructureEdit } from '../content.js';
import { isCellArea, shiftArea, type CellArea } from './cell-area.js';
import { isEmptyCell } from './cells.js';

/**
 * A sheet's filter (docs/SHEETS.md "Sort and filter"): an area whose first row is the header, and per column of it
 * a criterion (a list of shown values to keep, and/or a condition). Rows of the area below the header that a
 * criterion refuses are hidden from view; their cells are untouched, so the values API, formulas and exports read
 * them as before.
 *
 * **Decision: one filter per sheet, shared by everyone** (as the common desktop format stores it, and as the
 * well-known online spreadsheets do by default): it is part of the document, every collaborator sees the same rows,
 * and it goes to xlsx as the sheet's auto filter.
 *
 * Stored under the sheet's `filter` key as a Y.Map: `area` → CellArea, and one entry per filtered column,
 * `column:<index>` → ColumnFilter (the column's index in the sheet). Two people filtering different columns at once
 * both keep their criterion.
 */

/**
 * The part of a sheet (SheetModel) and of a shown value (layout.ts FilterShown) this module reads, declared here
 * rather than imported: the sheet model calls this module when rows or columns move, so it cannot import it back.
 */
export interface FilterSheet {
  readonly rowCount: number;
  readonly columnCount: number;
  featureMap(key: string, create?: boolean): Y.Map<unknown> | undefined;
  forEachCell(visit: (row: number, column: number, cell: Cell) => void, area?: CellArea): void;
}

export interface FilterShown {
  value: string | number | boolean;
  text: string;
  kind: string;
}

export const FILTER_KEY = 'filter';
const AREA = 'area';
const COLUMN_PREFIX = 'column:';

export const FILTER_OPERATORS = ['eq', 'ne', 'gt', 'ge', 'lt', 'le', 'contains', 'notContains', 'beginsWith', 'endsWith'] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

export interface FilterCondition {
  op: FilterOperator;
  /** a number compares with numbers; text compares ignoring case */
  value: string | number;
}

/** What one column keeps: a row shows when its cell passes both parts that are present. */
export interface ColumnFilter {
  /** the shown texts kept ('' keeps blank cells) */
  values?: string[];
  condition?: FilterCondition;
}

export interface SheetFilter {
  /** the header row is `area.startRow`; the rows below it are filtered */
  area: CellArea;
  /** by the column's index in the sheet */
  columns: Map<number, ColumnFilter>;
}

/** Most values one column's list keeps, and the longest condition text. */
export const MAX_FILTER_VALUES = 10_000;
export const MAX_CONDITION_TEXT = 255;

/** A column criterion as stored or sent, checked; undefined when it is malformed or keeps everything. */
export function parseColumnFilter(input: unknown): ColumnFilter | undefined {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return undefined;
  const raw = input as Record<string, unknown>;
  const filter: ColumnFilter = {};
  if (Array.isArray(raw.values)) {
    if (raw.values.length > MAX_FILTER_VALUES || !raw.values.every((value) => typeof value === 'string' && value.length <= 32_767)) return undefined;
    filter.values = [...new Set(raw.values as string[])];
  } else if (raw.values !== undefined) return undefined;
  if (raw.condition !== undefined) {
    const condition = raw.condition as Record<string, unknown> | null;
    if (typeof condition !== 'object' || condition === null) return undefined;
    const op = condition.op;
    const value = condition.value;
    if (typeof op !== 'string' || !(FILTER_OPERATORS as readonly string[]).includes(op)) return undefined;
    if (!(typeof value === 'string' && value.length <= MAX_CONDITION_TEXT) && !(typeof value === 'number' && Number.isFinite(value))) return undefined;
    filter.condition = { op: op as FilterOperator, value };
  }
  return filter.values === undefined && filter.condition === undefined ? undefined : filter;
}

function columnOfKey(key: string): number | undefined {
  if (!key.startsWith(COLUMN_PREFIX)) return undefined;
  const column = Number(key.slice(COLUMN_PREFIX.length));
  return Number.isInteger(column) && column >= 0 ? column : undefined;
}

/** The sheet's filter, or undefined when it has none; criteria outside the area or malformed are left out. */
export function filterOf(sheet: FilterSheet): SheetFilter | undefined {
  const stored = sheet.featureMap(FILTER_KEY);
  const area = stored?.get(AREA);
  if (!stored || !isCellArea(area)) return undefined;
  const columns = new Map<number, ColumnFilter>();
  stored.forEach((value, key) => {
    const column = columnOfKey(key);
    if (column === undefined || column < area.startColumn || column > area.endColumn) return;
    const filter = parseColumnFilter(value);
    if (filter) columns.set(column, filter);
  });
  const { startRow, endRow, startColumn, endColumn } = area;
  return { area: { startRow, endRow, startColumn, endColumn }, columns };
}

/** Puts a filter on `area` (its first row the header), keeping the criteria of columns still inside it. */
export function setFilterArea(sheet: FilterSheet, area: CellArea): void {
  const stored = sheet.featureMap(FILTER_KEY, true)!;
  const { startRow, endRow, startColumn, endColumn } = area;
  stored.set(AREA, { startRow, endRow, startColumn, endColumn });
  for (const key of [...stored.keys()]) {
    const column = columnOfKey(key);
    if (column !== undefined && (column < startColumn || column > endColumn)) stored.delete(key);
  }
}

/** Removes the filter: every row shows again. */
export function removeFilter(sheet: FilterSheet): void {
  const stored = sheet.featureMap(FILTER_KEY);
  if (stored) for (const key of [...stored.keys()]) stored.delete(key);
}

/** Sets (or, with undefined, clears) one column's criterion; the column lies inside the filter's area (checked by the caller). */
export function setColumnFilter(sheet: FilterSheet, column: number, filter: ColumnFilter | undefined): void {
  const stored = sheet.featureMap(FILTER_KEY, true)!;
  if (filter) stored.set(`${COLUMN_PREFIX}${column}`, filter);
  else stored.delete(`${COLUMN_PREFIX}${column}`);
}

const collator = new Intl.Collator(undefined, { sensitivity: 'base' });

/** The comparisons a condition makes (a filter's, a conditional format's): `order` is the sign of value − operand, NaN when they do not compare. */
export type OrderOperator = 'eq' | 'ne' | 'gt' | 'ge' | 'lt' | 'le';
export type TextOperator = 'contains' | 'notContains' | 'beginsWith' | 'endsWith';

/** Whether an order passes a comparison (NaN passes none but `ne`). */
export function passesOrder(op: OrderOperator, order: number): boolean {
  switch (op) {
    case 'eq':
      return order === 0;
    case 'ne':
      return order !== 0;
    case 'gt':
      return order > 0;
    case 'ge':
      return order >= 0;
    case 'lt':
      return order < 0;
    default:
      return order <= 0;
  }
}

/** Whether a shown text passes a text comparison, ignoring case. */
export function passesText(text: string, op: TextOperator, part: string): boolean {
  const lower = text.toLocaleLowerCase();
  const wanted = part.toLocaleLowerCase();
  if (op === 'contains') return lower.includes(wanted);
  if (op === 'notContains') return !lower.includes(wanted);
  return op === 'beginsWith' ? lower.startsWith(wanted) : lower.endsWith(wanted);
}

function passesCondition(shown: FilterShown, condition: FilterCondition): boolean {
  const { op, value } = condition;
  const number = typeof shown.value === 'number' ? shown.value : undefined;
  const target = typeof value === 'number' ? value : Number.isFinite(Number(value)) && value.trim() !== '' ? Number(value) : undefined;
  if (op === 'contains' || op === 'notContains' || op === 'beginsWith' || op === 'endsWith') return passesText(shown.text, op, String(value));
  // numbers compare as numbers; anything else compares its shown text, ignoring case
  const order = number !== undefined && target !== undefined ? Math.sign(number - target) : shown.kind === 'empty' && op !== 'eq' && op !== 'ne' ? NaN : collator.compare(shown.text, String(value));
  return passesOrder(op, order);
}

/**
 * Whether a cell showing `shown` passes a column's criterion. `kept` is the criterion's `values` as a set: a caller
 * checking many rows makes it once, so each row looks its text up rather than scanning up to MAX_FILTER_VALUES.
 */
export function passesFilter(shown: FilterShown, filter: ColumnFilter, kept: ReadonlySet<string> | undefined = filter.values && new Set(filter.values)): boolean {
  if (kept && !kept.has(shown.kind === 'empty' ? '' : shown.text)) return false;
  return !filter.condition || passesCondition(shown, filter.condition);
}

/** The rows the filter hides, in order (none without a filter or criteria). `shownAt` is what a cell shows. */
export function filteredRows(sheet: FilterSheet, shownAt: (row: number, column: number) => FilterShown): number[] {
  const filter = filterOf(sheet);
  if (!filter || filter.columns.size === 0) return [];
  const hidden: number[] = [];
  const criteria = [...filter.columns].map(([column, criterion]) => ({ column, criterion, kept: criterion.values && new Set(criterion.values) }));
  for (let row = filter.area.startRow + 1; row <= filter.area.endRow; row++) {
    if (!criteria.every(({ column, criterion, kept }) => passesFilter(shownAt(row, column), criterion, kept))) hidden.push(row);
  }
  return hidden;
}

/** The distinct texts a column shows under the header, sorted (blank first as ''), for the filter's value list. */
export function columnValues(sheet: FilterSheet, column: number, shownAt: (row: number, column: number) => FilterShown, limit = MAX_FILTER_VALUES): string[] {
  const filter = filterOf(sheet);
  if (!filter) return [];
  const found = new Set<string>();
  for (let row = filter.area.startRow + 1; row <= filter.area.endRow && found.size < limit; row++) {
    const shown = shownAt(row, column);
    found.add(shown.kind === 'empty' ? '' : shown.text);
  }
  return [...found].sort((a, b) => collator.compare(a, b));
}

/**
 * The block of data around a cell, as spreadsheets pick what to sort or filter from one selected cell: grown row by
 * row and column by column while the row below, above, or the column beside holds data next to it.
 */
export function currentRegion(sheet: FilterSheet, row: number, column: number): CellArea {
  const area: CellArea = { startRow: row, endRow: row, startColumn: column, endColumn: column };
  const rowHasData = (r: number) => r >= 0 && r < sheet.rowCount && rangeHasData(sheet, { ...area, startRow: r, endRow: r });
  const columnHasData = (c: number) => c >= 0 && c < sheet.columnCount && rangeHasData(sheet, { ...area, startColumn: c, endColumn: c });
  for (let grown = true; grown; ) {
    grown = false;
    if (rowHasData(area.startRow - 1)) (area.startRow--, (grown = true));
    if (rowHasData(area.endRow + 1)) (area.endRow++, (grown = true));
    if (columnHasData(area.startColumn - 1)) (area.startColumn--, (grown = true));
    if (columnHasData(area.endColumn + 1)) (area.endColumn++, (grown = true));
  }
  return area;
}

function rangeHasData(sheet: FilterSheet, area: CellArea): boolean {
  let found = false;
  sheet.forEachCell((_row, _column, cell) => (found ||= !isEmptyCell(cell)), area);
  return found;
}

/** Moves the filter for a structure edit: its area as merges move, its criteria with their columns (dropped with them). */
export function moveFilter(sheet: FilterSheet, edit: SheetStructureEdit): void {
  const stored = sheet.featureMap(FILTER_KEY);
  const area = stored?.get(AREA);
  if (!stored || !isCellArea(area)) return;
  const moved = shiftArea(area, edit);
  // the header row deleted: the filter goes, as it would in the desktop programs
  if (!moved || (edit.axis === 'rows' && edit.kind === 'delete' && edit.index <= area.startRow && area.startRow < edit.index + edit.count)) {
    removeFilter(sheet);
    return;
  }
  stored.set(AREA, moved);
  if (edit.axis !== 'columns') return;
  const criteria: Array<[number, unknown]> = [];
  stored.forEach((value, key) => {
    const column = columnOfKey(key);
    if (column !== undefined && column >= edit.index) criteria.push([column, value]);
  });
  for (const [column] of criteria) stored.delete(`${COLUMN_PREFIX}${column}`);
  for (const [column, value] of criteria) {
    if (edit.kind === 'delete' && column < edit.index + edit.count) continue;
    stored.set(`${COLUMN_PREFIX}${edit.kind === 'insert' ? column + edit.count : column - edit.count}`, value);
  }
}


/** A filter as an import hands it over: the area and the criteria by column index (plain data, for a worker's message). */
export interface ImportedFilter {
  area: CellArea;
  columns: Array<[number, ColumnFilter]>;
}

const XLSX_OPERATORS: Readonly<Record<string, FilterOperator>> = {
  equal: 'eq',
  notEqual: 'ne',
  greaterThan: 'gt',
  greaterThanOrEqual: 'ge',
  lessThan: 'lt',
  lessThanOrEqual: 'le',
};

/**
 * An xlsx `<customFilter operator val>` as a condition: `*` wildcards around the text are the text conditions
 * (`*a*` contains, `a*` begins with, `*a` ends with; with notEqual, `*a*` does not contain), numbers compare as
 * numbers. Undefined for what the model cannot say (other wildcards, `?`).
 */
export function conditionOfXlsx(operator: string | undefined, text: string): FilterCondition | undefined {
  const op = XLSX_OPERATORS[operator ?? 'equal'];
  if (!op) return undefined;
  const starts = text.startsWith('*');
  const ends = text.endsWith('*') && text.length > 1;
  const inner = text.slice(starts ? 1 : 0, ends ? -1 : undefined);
  if (/[*?]/.test(inner) || inner.length > MAX_CONDITION_TEXT) return undefined;
  if (starts || ends) {
    if (op === 'eq') return { op: starts && ends ? 'contains' : starts ? 'endsWith' : 'beginsWith', value: inner };
    if (op === 'ne' && starts && ends) return { op: 'notContains', value: inner };
    return undefined;
  }
  const number = Number(text);
  return { op, value: text.trim() !== '' && Number.isFinite(number) ? number : text };
}

/** Puts an imported filter on a sheet (its criteria checked as any stored one). */
export function applyImportedFilter(sheet: FilterSheet, filter: ImportedFilter): void {
  setFilterArea(sheet, filter.area);
  for (const [column, criterion] of filter.columns) {
    const checked = parseColumnFilter(criterion);
    if (checked && column >= filter.area.startColumn && column <= filter.area.endColumn) setColumnFilter(sheet, column, checked);
  }
}
