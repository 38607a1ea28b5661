import type { CellStyle } from './cell-style.js';
import type { ShownKind } from './layout.js';
import type { ConditionalLook } from './conditional-formats.js';

/** Most rows and pixels of width one first screen covers: a large screen's view, never a bulk read. */
export const MAX_FIRST_SCREEN_ROWS = 500;
export const MAX_FIRST_SCREEN_WIDTH = 20_000;

export interface FirstScreenCell {
  row: number;
  column: number;
  /** the text the cell shows (formulas computed, values under their number format) */
  text: string;
  kind: Exclude<ShownKind, 'empty' | 'pending'>;
  /** absent for the default look */
  style?: CellStyle;
  /** what the sheet's conditional formats make of the cell (docs/SHEETS.md "Conditional formatting"); absent: nothing */
  look?: ConditionalLook;
}

/**
 * The top-left corner of a sheet as the spreadsheet editor first shows it (docs/BROWSER.md "First screen"):
 * the sheets' names, the sheet's size and layout, and the non-empty cells of its first `rows` rows across
 * as many columns as fit in `width` pixels. The editor page draws it read-only while the collaboration sync
 * of the whole document runs.
 */
export interface FirstScreen {
  sheets: Array<{ sheetId: string; name: string }>;
  sheetId: string;
  name: string;
  rowCount: number;
  columnCount: number;
  frozenRows: number;
  /** rows 0 to rows-1 and columns 0 to columns-1 are covered: their cells not listed are empty */
  rows: number;
  columns: number;
  /** widths of the covered columns, pixels */
  columnWidths: number[];
  /** the covered rows a person gave a height, pixels (the others are as tall as their content) */
  rowHeights: Array<{ row: number; height: number }>;
  /**
   * the covered rows and columns with a style of the whole line (docs/SHEETS.md "Cell styles"), which a covered cell
   * not listed in `cells` shows, its row's before its column's; a listed cell's `style` is already the one it shows
   */
  rowStyles: Array<{ row: number; style: CellStyle }>;
  columnStyles: Array<{ column: number; style: CellStyle }>;
  cells: FirstScreenCell[];
}
