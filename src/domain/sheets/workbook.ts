import type * as Y from 'yjs';
import { ApiError, Errors } from '../../errors.js';
import { MAX_COLUMNS, MAX_ROWS, formatA1, parseA1IfValid, type A1Range } from '../../model/sheets/a1.js';
import type { Cell } from '../../model/content.js';
import { ALIGNMENTS, BORDER_LINES, borderOf, colourOf, fontNameOf, fontSizeOf, MAX_FONT_SIZE, MIN_FONT_SIZE, type HorizontalAlignment, type StylePatch } from '../../model/sheets/cell-style.js';
import { formatOf, invalidInput, isEmptyCell, toCell, withFormat, withStyle, type CellInput, type ValueRender } from '../../model/sheets/cells.js';
import { formatValue, invalidFormatCode } from '../../model/sheets/number-format.js';
import { calculationOf, FormulaError, isFormulaInput, MAX_FORMULA_LENGTH, parseFormula, toDisplay, type DisplayValue } from '../../model/sheets/formulas/index.js';
import { withFormulaFormat } from '../../model/sheets/formulas/auto-format.js';
import { formulaProblemAt } from '../../model/sheets/formulas/cell-source.js';
import { formulaRelative } from '../../model/sheets/formulas/relative.js';
import { invalidSheetName } from '../../model/sheets/sheet-names.js';
import { refuseInvalidValues } from './data-validation.js';
import { appendSheet, applyStructureEdit, areasOverlap, sheetIds, sheetModels, sheetNamed, sheetNameTaken, type SheetModel } from '../../model/sheets/sheet-model.js';

/**
 * The values API's operations on the spreadsheet content model (docs/CONTENT-MODEL.md, docs/SHEETS.md), through
 * the sheet model (src/model/sheets/sheet-model.ts). Every operation
 * checks everything that can fail before it changes anything: Yjs has no rollback, and a rejected call
 * must leave the sheet as it was.
 */

/** Most cells one read may answer with (after trimming), so one call cannot exhaust the server. */
export const MAX_READ_CELLS = 2_000_000;
/** Most cells one write or append may carry; the body limit usually binds first. */
export const MAX_WRITE_CELLS = 1_000_000;

export interface ReadResult {
  /** the range asked for, in A1 with the sheet's real name (the values stop at its last data) */
  range: string;
  values: Array<Array<string | number | boolean>>;
}

export interface WriteResult {
  /** the cells the values covered */
  updatedRange: string;
  updatedRows: number;
  updatedColumns: number;
  updatedCells: number;
}

export interface SheetInfo {
  sheetId: string;
  name: string;
  index: number;
  rowCount: number;
  columnCount: number;
}

/** The sheet a range names (exact name, else the one name equal ignoring case); null means the first sheet. */
export function findSheet(doc: Y.Doc, name: string | null): { sheet: SheetModel; index: number } {
  const sheets = sheetModels(doc);
  if (name === null) {
    const first = sheets[0];
    if (!first) throw new ApiError(Errors.sheetNotFound, 'the spreadsheet has no sheets');
    return { sheet: first, index: 0 };
  }
  const sheet = sheetNamed(sheets, name);
  if (!sheet) throw new ApiError(Errors.sheetNotFound, `no sheet named "${name}"`, { sheetName: name });
  return { sheet, index: sheets.indexOf(sheet) };
}

/**
 * The number formats of the stored cells of `range`, keyed row × MAX_COLUMNS + column: one walk of the stored
 * cells (each block of imported cells parsed once) instead of a cell look-up for every value read.
 */
function formatsIn(sheet: SheetModel, range: A1Range): Map<number, string> {
  const formats = new Map<number, string>();
  sheet.forEachCell((row, column, cell) => {
    const format = formatOf(cell);
    if (format !== undefined) formats.set(row * MAX_COLUMNS + column, format);
  }, range);
  return formats;
}

/**
 * Values of a range: rows from its first row down to its last non-empty row, each row from its first
 * column up to its last non-empty cell (trailing empty rows and cells trimmed, as spreadsheet APIs do).
 * Formulas read as the formula engine computes them (errors as their code, `#DIV/0!`), or as their text
 * with `formula` rendering. The cells are read from the engine's state, kept with the document.
 */
export function readValues(doc: Y.Doc, range: A1Range, render: ValueRender): ReadResult {
  const { sheet, index } = findSheet(doc, range.sheetName);
  const sheetName = sheet.name;
  // parallel arrays rather than one tuple per cell: a read of 100,000 cells allocates three arrays, not 100,000
  const rows: number[] = [];
  const columns: number[] = [];
  const found: DisplayValue[] = [];
  let lastRow = -1;
  let lastColumn = -1;
  const formats = render === 'formatted' ? formatsIn(sheet, range) : undefined;
  calculationOf(doc).forEachCell(sheetIds(doc)[index]!, range, (row, column, value, formula) => {
    rows.push(row);
    columns.push(column);
    if (render === 'formula' && formula !== undefined) found.push(formula);
    else if (formats && !(value instanceof FormulaError)) found.push(formatValue(toDisplay(value), formats.get(row * MAX_COLUMNS + column)));
    else found.push(toDisplay(value));
    if (row > lastRow) lastRow = row;
    if (column > lastColumn) lastColumn = column;
  });
  // as spreadsheet APIs answer it: the whole range asked for (with the sheet's name), values trimmed
  const answered = formatA1({ ...range, sheetName });
  if (found.length === 0) return { range: answered, values: [] };
  const height = lastRow - range.startRow + 1;
  const width = lastColumn - range.startColumn + 1;
  if (height * width > MAX_READ_CELLS) {
    throw new ApiError(
      Errors.sheetRangeTooLarge,
      `the range holds data across ${height} rows × ${width} columns, more than ${MAX_READ_CELLS} cells in one read: read it in parts`,
      { rows: height, columns: width, limit: MAX_READ_CELLS },
    );
  }
  const rowWidths = new Array<number>(height).fill(0);
  for (let i = 0; i < found.length; i++) {
    const r = (rows[i] ?? 0) - range.startRow;
    rowWidths[r] = Math.max(rowWidths[r] ?? 0, (columns[i] ?? 0) - range.startColumn + 1);
  }
  const values = rowWidths.map((w) => new Array<string | number | boolean>(w).fill(''));
  for (let i = 0; i < found.length; i++) {
    const line = values[(rows[i] ?? 0) - range.startRow];
    if (line) line[(columns[i] ?? 0) - range.startColumn] = found[i] ?? '';
  }
  return { range: answered, values };
}

/**
 * Checks values before any change: cells count and each value's type and size. `origin`, where the values' top-left
 * cell goes when that is known before the check: each formula is then judged through its stored form (formulaProblemAt),
 * which a column of copies shares, instead of parsing every text.
 */
function checkValues(values: readonly (readonly unknown[])[], origin?: { row: number; column: number }): { height: number; width: number; cells: number } {
  let width = 0;
  let cells = 0;
  values.forEach((row, r) => {
    if (!Array.isArray(row)) throw new ApiError(Errors.sheetValuesInvalid, `values[${r}] must be an array of cell values`);
    width = Math.max(width, row.length);
    cells += row.length;
    row.forEach((value, c) => {
      if (isFormulaInput(value) && value.length > MAX_FORMULA_LENGTH) {
        throw new ApiError(Errors.formulaTooLong, `values[${r}][${c}]: a formula is at most ${MAX_FORMULA_LENGTH} characters, this one has ${value.length}`, {
          row: r,
          column: c,
          length: value.length,
          limit: MAX_FORMULA_LENGTH,
        });
      }
      const problem = isFormulaInput(value) ? formulaProblem(value, origin && origin.row + r, origin && origin.column + c) : undefined;
      if (problem !== undefined) {
        throw new ApiError(Errors.formulaInvalid, `values[${r}][${c}]: the formula does not parse: ${problem}`, { row: r, column: c, reason: problem });
      }
      const reason = invalidInput(value);
      if (reason) throw new ApiError(Errors.sheetValuesInvalid, `values[${r}][${c}]: ${reason}`);
    });
  });
  if (cells > MAX_WRITE_CELLS) {
    throw new ApiError(Errors.sheetValuesInvalid, `${cells} cells in one call; at most ${MAX_WRITE_CELLS}: write in parts`, { cells, limit: MAX_WRITE_CELLS });
  }
  return { height: values.length, width, cells };
}

/** Why a formula written at (row, column) does not parse, or undefined; parsed from its text where the cell is not known. */
function formulaProblem(formula: string, row: number | undefined, column: number | undefined): string | undefined {
  if (row === undefined || column === undefined) {
    const parsed = parseFormula(formula);
    return parsed.ok ? undefined : parsed.reason;
  }
  return formulaProblemAt(formula, formulaRelative(formula, row, column), row, column);
}

/** Writes values with their top-left cell at (row, column); grows the sheet to hold them. */
function putValues(doc: Y.Doc, sheet: SheetModel, row: number, column: number, values: readonly (readonly CellInput[])[]): void {
  const width = values.reduce((widest, line) => Math.max(widest, line.length), 0);
  if (width === 0) return;
  // the cells computed so far, row by row: a formula's format may come from a cell this write fills before it
  const written = new Array<Cell | null | undefined>(values.length * width);
  let done = 0;
  const formatAt = (name: string | null, at: number, of: number) => {
    const target = name === null ? sheet : sheetNamed(sheetModels(doc), name);
    const offset = (at - row) * width + (of - column);
    const inWrite = target === sheet && at >= row && of >= column && of < column + width && offset < done && written[offset] !== undefined;
    return formatOf(inWrite ? written[offset] : target?.cell(at, of));
  };
  sheet.rewriteCells({ startRow: row, endRow: row + values.length - 1, startColumn: column, endColumn: column + width - 1 }, (at, of, stored) => {
    const offset = (at - row) * width + (of - column);
    done = offset;
    const line = values[at - row]!;
    if (of - column >= line.length) return undefined;
    // a formula written into a General cell takes the format Excel gives its result (`=DATE(…)` a date); a formatted
    // or styled cell cleared keeps only its format and style (rewriteCells skips what is stored already)
    const next = withFormulaFormat(toCell(line[of - column] ?? null, stored), formatAt);
    written[offset] = next;
    return next;
  });
}

function written(sheetName: string, row: number, column: number, shape: { height: number; width: number; cells: number }): WriteResult {
  if (shape.cells === 0) return { updatedRange: formatA1({ sheetName, startRow: row, endRow: row, startColumn: column, endColumn: column }), updatedRows: 0, updatedColumns: 0, updatedCells: 0 };
  return {
    updatedRange: formatA1({ sheetName, startRow: row, endRow: row + shape.height - 1, startColumn: column, endColumn: column + shape.width - 1 }),
    updatedRows: shape.height,
    updatedColumns: shape.width,
    updatedCells: shape.cells,
  };
}

/**
 * Writes `values` into `range`, top-left first. Cells of the range the values do not reach keep their
 * content; null and "" clear a cell. Values larger than the range are refused. Writing the same values
 * twice leaves the same sheet (and the second write changes nothing at all).
 */
export function writeValues(doc: Y.Doc, range: A1Range, values: readonly (readonly CellInput[])[]): WriteResult {
  const shape = checkValues(values, { row: range.startRow, column: range.startColumn });
  const rows = range.endRow - range.startRow + 1;
  const columns = range.endColumn - range.startColumn + 1;
  if (shape.height > rows || shape.width > columns) {
    throw new ApiError(
      Errors.sheetValuesOutOfRange,
      `${shape.height} rows × ${shape.width} columns of values do not fit the range ${formatA1(range)} (${rows} × ${columns})`,
      { valueRows: shape.height, valueColumns: shape.width, rangeRows: rows, rangeColumns: columns },
    );
  }
  const { sheet } = findSheet(doc, range.sheetName);
  refuseInvalidValues(doc, sheet, range.startRow, range.startColumn, values);
  putValues(doc, sheet, range.startRow, range.startColumn, values);
  return written(sheet.name, range.startRow, range.startColumn, shape);
}

/** Where an append goes: the row after the last non-empty row of the range's table, at its first column. */
function appendRow(sheet: SheetModel, range: A1Range, width: number): number {
  // the table: the range's columns (widened to the rows being added), from its first row to the sheet's end
  const table: A1Range = { ...range, endRow: MAX_ROWS - 1, endColumn: Math.min(MAX_COLUMNS - 1, Math.max(range.endColumn, range.startColumn + width - 1)) };
  let last = range.startRow - 1;
  sheet.forEachCell((row, _column, cell) => {
    if (row > last && !isEmptyCell(cell)) last = row;
  }, table);
  return last + 1;
}

/**
 * Appends `values` as new rows after the range's table (see appendRow). Not idempotent by itself: each call
 * adds rows again; the service dedupes retries by client request id. Rows may be wider than the range.
 */
export function appendValues(doc: Y.Doc, range: A1Range, values: readonly (readonly CellInput[])[]): WriteResult {
  const shape = checkValues(values);
  const { sheet } = findSheet(doc, range.sheetName);
  const row = appendRow(sheet, range, shape.width);
  if (row + shape.height > MAX_ROWS || range.startColumn + shape.width > MAX_COLUMNS) {
    throw new ApiError(
      Errors.sheetLimitExceeded,
      `appending ${shape.height} rows × ${shape.width} columns at row ${row + 1} would pass the sheet's limits (${MAX_ROWS} rows, ${MAX_COLUMNS} columns)`,
      { maxRows: MAX_ROWS, maxColumns: MAX_COLUMNS },
    );
  }
  refuseInvalidValues(doc, sheet, row, range.startColumn, values);
  putValues(doc, sheet, row, range.startColumn, values);
  return written(sheet.name, row, range.startColumn, shape);
}

export interface DeleteRowsResult {
  sheetName: string;
  deletedRows: number;
  rowCount: number;
}

/**
 * Removes `count` rows from zero-based `index` and shifts the rows below up; formulas on every sheet
 * follow (references below move up, references to removed rows become #REF!). Rows past the sheet's end
 * are not there to remove: the count is cut to the rows that exist. A sheet keeps at least one row.
 */
export function deleteRows(doc: Y.Doc, sheetName: string, index: number, count: number): DeleteRowsResult {
  const { sheet } = findSheet(doc, sheetName);
  const rowCount = sheet.rowCount;
  if (index >= rowCount) {
    throw new ApiError(Errors.sheetRowOutOfRange, `row index ${index} is past the sheet's last row (${rowCount} rows, indexes from 0)`, { rowCount });
  }
  const deleted = Math.min(count, rowCount - index);
  applyStructureEdit(doc, sheet, { kind: 'delete', axis: 'rows', index, count: deleted });
  return { sheetName: sheet.name, deletedRows: deleted, rowCount: sheet.rowCount };
}

/** Adds an empty sheet at the end. Names are unique ignoring case. */
export function addSheet(doc: Y.Doc, name: string): SheetInfo {
  const reason = invalidSheetName(name);
  if (reason) throw new ApiError(Errors.invalidSheetName, `invalid sheet name "${name}": ${reason}`);
  if (sheetNameTaken(doc, name)) throw new ApiError(Errors.sheetExists, `a sheet named "${name}" already exists`, { sheetName: name });
  const sheet = appendSheet(doc, name);
  return { sheetId: sheet.id, name, index: sheetModels(doc).length - 1, rowCount: sheet.rowCount, columnCount: sheet.columnCount };
}

export interface InsertRowsResult {
  sheetName: string;
  insertedRows: number;
  rowCount: number;
}

/**
 * Inserts `count` empty rows before zero-based `index` (index = row count adds them at the end) and shifts the
 * rows below down, through the sheet model's structure edit: formulas on every sheet, comment anchors and the
 * stored cells (with their formats and styles) follow. The sheet may not grow past MAX_ROWS.
 */
export function insertRows(doc: Y.Doc, sheetName: string, index: number, count: number): InsertRowsResult {
  const { sheet } = findSheet(doc, sheetName);
  const rowCount = sheet.rowCount;
  if (index > rowCount) {
    throw new ApiError(Errors.sheetRowOutOfRange, `row index ${index} is past the sheet's end (${rowCount} rows, indexes from 0; ${rowCount} adds rows at the end)`, { rowCount });
  }
  if (rowCount + count > MAX_ROWS) {
    throw new ApiError(Errors.sheetLimitExceeded, `inserting ${count} rows into ${rowCount} would pass the sheet's limit of ${MAX_ROWS} rows`, { maxRows: MAX_ROWS, rowCount, count });
  }
  applyStructureEdit(doc, sheet, { kind: 'insert', axis: 'rows', index, count });
  return { sheetName: sheet.name, insertedRows: count, rowCount: sheet.rowCount };
}

/** Most cells one attribute change may cover: each becomes a stored cell. */
export const MAX_ATTRIBUTE_CELLS = 100_000;

/** The cell attributes the kits' `sheets/attrs` call sets (docs/SHEETS.md "Cell attributes"); null resets one. */
export interface CellAttributes {
  bold?: boolean | null;
  italic?: boolean | null;
  color?: string | null;
  backgroundColor?: string | null;
  horizontalAlign?: HorizontalAlignment | null;
  numberFormat?: string | null;
  fontFamily?: string | null;
  fontSize?: number | null;
  wrapText?: boolean | null;
  /** each side given: `{style, color?}` or null (no border there) */
  borders?: Partial<Record<'top' | 'right' | 'bottom' | 'left', { style: string; color?: string } | null>>;
}

const ATTRIBUTE_KEYS: ReadonlyArray<keyof CellAttributes> = ['bold', 'italic', 'color', 'backgroundColor', 'horizontalAlign', 'numberFormat', 'fontFamily', 'fontSize', 'wrapText', 'borders'];
const BORDER_KEYS = { top: 'bt', right: 'br', bottom: 'bb', left: 'bl' } as const;

/** The `borders` attribute as style fields, or a refusal naming what is wrong. */
function borderPatch(value: unknown): StylePatch {
  const shape = `borders is an object of top, right, bottom, left, each {style: ${BORDER_LINES.join(' | ')}, color?: #rrggbb} or null`;
  if (typeof value !== 'object' || value === null || Array.isArray(value) || Object.keys(value).length === 0) throw attributesRefused(shape, 'borders');
  const patch: StylePatch = {};
  for (const [side, given] of Object.entries(value as Record<string, unknown>)) {
    const key = BORDER_KEYS[side as keyof typeof BORDER_KEYS];
    if (key === undefined) throw attributesRefused(`${shape}; not ${JSON.stringify(side).slice(0, 40)}`, 'borders');
    if (given === null) {
      patch[key] = null;
      continue;
    }
    const { style, color, ...rest } = (typeof given === 'object' && !Array.isArray(given) ? given : {}) as Record<string, unknown>;
    const border = borderOf({ s: style, c: color });
    if (border === undefined || Object.keys(rest).length > 0 || (color !== undefined && border.c === undefined)) throw attributesRefused(`${shape}; ${side} is ${JSON.stringify(given).slice(0, 60)}`, 'borders');
    patch[key] = border;
  }
  return patch;
}

function attributesRefused(reason: string, attribute?: string): ApiError {
  return new ApiError(Errors.cellAttributesInvalid, reason, attribute === undefined ? {} : { attribute });
}

/** The style change and number format `attrs` ask for, after checking every key and value (nothing is written on a refusal). */
function attributeChange(attrs: Record<string, unknown>): { patch: StylePatch; numberFormat: string | null | undefined } {
  const unknown = Object.keys(attrs).filter((key) => !(ATTRIBUTE_KEYS as readonly string[]).includes(key));
  if (unknown.length > 0) throw attributesRefused(`unknown attribute ${JSON.stringify(unknown[0]).slice(0, 60)}; known: ${ATTRIBUTE_KEYS.join(', ')}`, unknown[0]);
  if (Object.keys(attrs).length === 0) throw attributesRefused(`no attribute given; known: ${ATTRIBUTE_KEYS.join(', ')}`);
  const patch: StylePatch = {};
  for (const [key, field] of [['bold', 'b'], ['italic', 'i']] as const) {
    const value = attrs[key];
    if (value === undefined) continue;
    if (value !== null && typeof value !== 'boolean') throw attributesRefused(`${key} is true, false or null`, key);
    patch[field] = value === true;
  }
  for (const [key, field] of [['color', 'c'], ['backgroundColor', 'bg']] as const) {
    const value = attrs[key];
    if (value === undefined) continue;
    if (value !== null && colourOf(value) === undefined) throw attributesRefused(`${key} is a colour #rrggbb or null, not ${JSON.stringify(value).slice(0, 40)}`, key);
    patch[field] = value === null ? null : colourOf(value)!;
  }
  const align = attrs.horizontalAlign;
  if (align !== undefined) {
    if (align !== null && !(ALIGNMENTS as readonly unknown[]).includes(align)) throw attributesRefused(`horizontalAlign is left, center, right or null, not ${JSON.stringify(align).slice(0, 40)}`, 'horizontalAlign');
    patch.a = align as HorizontalAlignment | null;
  }
  if (attrs.fontFamily !== undefined) {
    const name = attrs.fontFamily === null ? null : fontNameOf(attrs.fontFamily);
    if (name === undefined) throw attributesRefused(`fontFamily is a font name (1-64 letters, digits, spaces, dots, dashes, underscores) or null, not ${JSON.stringify(attrs.fontFamily).slice(0, 40)}`, 'fontFamily');
    patch.ff = name;
  }
  if (attrs.fontSize !== undefined) {
    const size = attrs.fontSize === null ? null : fontSizeOf(attrs.fontSize);
    if (size === undefined) throw attributesRefused(`fontSize is ${MIN_FONT_SIZE} to ${MAX_FONT_SIZE} points or null, not ${JSON.stringify(attrs.fontSize).slice(0, 40)}`, 'fontSize');
    patch.fs = size;
  }
  if (attrs.wrapText !== undefined) {
    if (attrs.wrapText !== null && typeof attrs.wrapText !== 'boolean') throw attributesRefused('wrapText is true, false or null', 'wrapText');
    patch.w = attrs.wrapText === true;
  }
  if (attrs.borders !== undefined) Object.assign(patch, borderPatch(attrs.borders));
  const numberFormat = attrs.numberFormat;
  if (numberFormat !== undefined && numberFormat !== null) {
    const reason = invalidFormatCode(numberFormat);
    if (reason) throw attributesRefused(`numberFormat: ${reason}`, 'numberFormat');
  }
  return { patch, numberFormat: numberFormat as string | null | undefined };
}

export interface AttributesResult {
  /** the cells changed, in A1 with the sheet's own name (whole rows or columns cut to the sheet's size) */
  updatedRange: string;
  updatedCells: number;
}

/**
 * Sets cell attributes on every cell of `range` in one change: bold, italic, colours and alignment onto the cell
 * style (cell-style.ts), numberFormat onto the cell's number format; null resets an attribute, attributes not
 * given stay. Whole rows or columns stop at the sheet's size; an explicit range beyond it grows the sheet.
 */
export function setCellAttributes(doc: Y.Doc, range: A1Range, attrs: Record<string, unknown>): AttributesResult {
  const { patch, numberFormat } = attributeChange(attrs);
  const { sheet } = findSheet(doc, range.sheetName);
  const area = {
    ...range,
    endRow: range.endRow === MAX_ROWS - 1 ? Math.max(range.startRow, sheet.rowCount - 1) : range.endRow,
    endColumn: range.endColumn === MAX_COLUMNS - 1 ? Math.max(range.startColumn, sheet.columnCount - 1) : range.endColumn,
  };
  const cells = (area.endRow - area.startRow + 1) * (area.endColumn - area.startColumn + 1);
  if (cells > MAX_ATTRIBUTE_CELLS) {
    throw new ApiError(Errors.cellAttributesRangeTooLarge, `${cells} cells in one attribute change; at most ${MAX_ATTRIBUTE_CELLS}: set them in parts`, { cells, limit: MAX_ATTRIBUTE_CELLS });
  }
  for (let row = area.startRow; row <= area.endRow; row++) {
    for (let column = area.startColumn; column <= area.endColumn; column++) {
      let next: Cell | null = withStyle(sheet.cell(row, column), patch, sheet.inheritedStyle(row, column));
      if (numberFormat !== undefined) next = withFormat(next, numberFormat);
      sheet.setCell(row, column, next);
    }
  }
  sheet.growTo(area.endRow + 1, area.endColumn + 1);
  return { updatedRange: formatA1({ ...area, sheetName: sheet.name }), updatedCells: cells };
}

/** `text` as one A1 cell without a sheet name (`B2`), else undefined. */
function singleCell(text: string): A1Range | undefined {
  const range = parseA1IfValid(text);
  return range !== undefined && range.sheetName === null && range.startRow === range.endRow && range.startColumn === range.endColumn ? range : undefined;
}

export interface MergeResult {
  /** the merged area in A1, with the sheet's real name */
  range: string;
  /** false when the area was merged already or is one cell: nothing changed */
  merged: boolean;
}

/**
 * Merges `rowSpan` × `columnSpan` cells from `cellText` (one A1 cell) on the sheet named `sheetName`. Spans below
 * 1 or a cell that is not one A1 cell: 126100; an area past the sheet's last row or column: 126101; an area sharing
 * a cell with another merge: 126102. The same merge again, or one cell, changes nothing (a retry is safe).
 */
export function mergeCells(doc: Y.Doc, sheetName: string, cellText: string, rowSpan: number, columnSpan: number): MergeResult {
  if (!Number.isInteger(rowSpan) || !Number.isInteger(columnSpan) || rowSpan < 1 || columnSpan < 1) {
    throw new ApiError(Errors.invalidMergeParams, `rowspan and colSpan must be whole numbers of at least 1 (got ${rowSpan} and ${columnSpan})`, { rowspan: rowSpan, colSpan: columnSpan });
  }
  const cell = singleCell(cellText);
  if (!cell) {
    throw new ApiError(Errors.invalidMergeParams, `cell must be one cell in A1 notation without a sheet name, like "B2" (got "${cellText}")`, { cell: cellText });
  }
  const { sheet } = findSheet(doc, sheetName);
  const area = { startRow: cell.startRow, endRow: cell.startRow + rowSpan - 1, startColumn: cell.startColumn, endColumn: cell.startColumn + columnSpan - 1 };
  const range = formatA1({ ...area, sheetName: sheet.name });
  if (area.endRow >= sheet.rowCount || area.endColumn >= sheet.columnCount) {
    throw new ApiError(Errors.mergeOutsideSheet, `${range} reaches past the sheet's ${sheet.rowCount} rows × ${sheet.columnCount} columns`, {
      range,
      rowCount: sheet.rowCount,
      columnCount: sheet.columnCount,
    });
  }
  const existing = sheet.merges();
  const same = existing.some((other) => other.startRow === area.startRow && other.endRow === area.endRow && other.startColumn === area.startColumn && other.endColumn === area.endColumn);
  if (same || (rowSpan === 1 && columnSpan === 1)) return { range, merged: false };
  const overlapped = existing.find((other) => areasOverlap(other, area));
  if (overlapped) {
    const other = formatA1({ ...overlapped, sheetName: sheet.name });
    throw new ApiError(Errors.mergeOverlaps, `${range} overlaps the merged cells ${other}: unmerge them first`, { range, overlaps: other });
  }
  sheet.addMerge(area);
  return { range, merged: true };
}
