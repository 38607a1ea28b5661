import { DEFAULT_COLUMN_WIDTH } from '../../src/model/sheets/sheet-model.js';
import type { CellStyle } from '../../src/model/sheets/cell-style.js';
import type { VirtualGrid } from '../shared/grid/grid.js';
import type { SheetValues } from './values.js';
import type { Sheet } from './workbook.js';

/**
 * Rows of a column whose shown values auto-fit measures from the top: a bound, so that a double-click on a
 * million-row sheet's column edge measures a few thousand texts, not a million (docs/SHEETS.md "Row heights and
 * column widths"). The rows in view are measured too, wherever the sheet is scrolled.
 */
export const AUTO_FIT_SAMPLE_ROWS = 10_000;
/** The cell's padding (4 px each side) and its grid line, pixels. */
const CELL_CHROME = 9;
/** The grid's font size for cells without a size of their own (grid.css), pixels. */
const GRID_FONT_PIXELS = 13;

let measuring: CanvasRenderingContext2D | null | undefined;

/** The CSS font a cell of this style is drawn with (editor.ts drawShown), `family` the grid's own. */
function fontOf(style: CellStyle | undefined, family: string): string {
  const size = style?.fs ? `${style.fs}pt` : `${GRID_FONT_PIXELS}px`;
  return `${style?.i ? 'italic ' : ''}${style?.b ? 'bold ' : ''}${size} ${style?.ff ? `"${style.ff}"` : family}`;
}

/**
 * The width that shows the widest value of `column` whole (Excel's double-click on a column edge): the texts of
 * the first AUTO_FIT_SAMPLE_ROWS rows and of the rows in view, each measured with its cell's font. Wrapped cells
 * take the width they are given, so they are left out; a column showing nothing goes back to the default width.
 */
export function fittedColumnWidth(values: SheetValues, sheet: Sheet, column: number, grid: VirtualGrid): number {
  measuring ??= document.createElement('canvas').getContext('2d');
  if (!measuring) return DEFAULT_COLUMN_WIDTH;
  const context = measuring;
  const family = getComputedStyle(grid.element).fontFamily;
  let widest = 0;
  const measure = (row: number) => {
    const style = values.workbook.style(sheet, row, column);
    const text = values.shown(sheet, row, column).text;
    if (text === '' || style?.w) return;
    context.font = fontOf(style, family);
    widest = Math.max(widest, context.measureText(text).width);
  };
  const last = sheet.rowCount - 1;
  sheet.forEachCell((row) => measure(row), { startRow: 0, endRow: Math.min(last, AUTO_FIT_SAMPLE_ROWS - 1), startColumn: column, endColumn: column });
  const view = grid.rowsInView;
  for (let row = Math.max(view.first, AUTO_FIT_SAMPLE_ROWS); row <= Math.min(view.last, last); row++) measure(row);
  return widest === 0 ? DEFAULT_COLUMN_WIDTH : Math.ceil(widest) + CELL_CHROME;
}
