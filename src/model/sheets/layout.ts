import { FormulaError, type CellValue } from './formulas/index.js';
import { formatValue } from './number-format.js';

/**
 * What a cell shows, shared by the editor (web/spreadsheet) and the service's first screen (first-screen.ts), so the
 * two draw a cell alike. The sheet's layout (column widths, frozen rows) is read through SheetModel
 * (sheet-model.ts).
 */

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
