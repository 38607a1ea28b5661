import * as Y from 'yjs';
import { FormulaError, type CellValue } from './formulas/index.js';
import { formatValue } from './number-format.js';

/**
 * How a sheet is laid out and what its cells show, shared by the editor (web/spreadsheet) and the service's
 * first screen (first-screen.ts), so the two draw a cell alike. Two sheet fields are the editor's own (other
 * readers ignore them): `columnWidths`, a Y.Map from the column index (as text) to its width in pixels,
 * present only for resized columns; `frozenRows`, 0 or 1.
 */

export const DEFAULT_COLUMN_WIDTH = 100;
export const COLUMN_WIDTHS_FIELD = 'columnWidths';
export const FROZEN_ROWS_FIELD = 'frozenRows';

export function columnWidthOf(sheet: Y.Map<unknown>, column: number): number {
  const widths = sheet.get(COLUMN_WIDTHS_FIELD);
  const width = widths instanceof Y.Map ? widths.get(String(column)) : undefined;
  return typeof width === 'number' && width > 0 ? width : DEFAULT_COLUMN_WIDTH;
}

export function frozenRowsOf(sheet: Y.Map<unknown>): number {
  const frozen = sheet.get(FROZEN_ROWS_FIELD);
  return typeof frozen === 'number' && frozen > 0 ? 1 : 0;
}

/** How a cell is drawn: a class by its kind (numbers to the right, errors marked). */
export type ShownKind = 'empty' | 'number' | 'text' | 'boolean' | 'error' | 'pending';

/** What a cell shows: its value, the text its number format makes of it, and how to draw it. */
export interface ShownValue {
  value: string | number | boolean;
  /** as the grid, the clipboard and CSV export write it */
  text: string;
  kind: ShownKind;
}

export const EMPTY_SHOWN: ShownValue = { value: '', text: '', kind: 'empty' };

/** A stored or computed value under its number format (`format` undefined: General). */
export function shownOf(value: CellValue | string | number | boolean | undefined, format: string | undefined): ShownValue {
  if (value === undefined || value === null || value === '') return EMPTY_SHOWN;
  if (value instanceof FormulaError) return { value: value.code, text: value.code, kind: 'error' };
  const text = formatValue(value, format);
  if (typeof value === 'number') return { value, text, kind: 'number' };
  if (typeof value === 'boolean') return { value, text, kind: 'boolean' };
  return { value, text, kind: 'text' };
}
