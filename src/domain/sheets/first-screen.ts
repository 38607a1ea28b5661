import type * as Y from 'yjs';
import { MAX_COLUMNS } from '../../model/sheets/a1.js';
import { styleOf, type CellStyle } from '../../model/sheets/cell-style.js';
import { formatOf } from '../../model/sheets/cells.js';
import { calculationOf } from '../../model/sheets/formulas/index.js';
import { shownOf, type ShownKind } from '../../model/sheets/layout.js';
import { sheetIds, sheetModels } from '../../model/sheets/sheet-model.js';
import { findSheet } from './workbook.js';

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
  cells: FirstScreenCell[];
}

export function firstScreen(doc: Y.Doc, sheetName: string | null, rows: number, width: number): FirstScreen {
  const { sheet, index } = findSheet(doc, sheetName);
  const ids = sheetIds(doc);
  const rowCount = sheet.rowCount;
  const columnCount = Math.min(sheet.columnCount, MAX_COLUMNS);
  const columnWidths: number[] = [];
  for (let covered = 0; covered < width && columnWidths.length < columnCount; ) {
    const columnWidth = sheet.columnWidth(columnWidths.length);
    columnWidths.push(columnWidth);
    covered += columnWidth;
  }
  const shownRows = Math.min(rows, rowCount);
  const cells: FirstScreenCell[] = [];
  const area = { startRow: 0, endRow: shownRows - 1, startColumn: 0, endColumn: columnWidths.length - 1 };
  calculationOf(doc).forEachCell(ids[index]!, area, (row, column, value) => {
    const storedCell = sheet.cell(row, column);
    const shown = shownOf(value, formatOf(storedCell));
    if (shown.kind === 'empty' || shown.kind === 'pending') return;
    const style = styleOf(storedCell);
    cells.push(style ? { row, column, text: shown.text, kind: shown.kind, style } : { row, column, text: shown.text, kind: shown.kind });
  });
  return {
    sheets: sheetModels(doc).map((each, i) => ({ sheetId: ids[i]!, name: each.name })),
    sheetId: ids[index]!,
    name: sheet.name,
    rowCount,
    columnCount,
    frozenRows: sheet.frozenRows,
    rows: shownRows,
    columns: columnWidths.length,
    columnWidths,
    cells,
  };
}
