import type * as Y from 'yjs';
import { MAX_COLUMNS } from '../../model/sheets/a1.js';
import { styleOf } from '../../model/sheets/cell-style.js';
import { formatOf } from '../../model/sheets/cells.js';
import { calculationOf } from '../../model/sheets/formulas/index.js';
import { shownOf } from '../../model/sheets/layout.js';
import type { FirstScreen, FirstScreenCell } from '../../model/sheets/first-screen.js';
import { sheetIds, sheetModels } from '../../model/sheets/sheet-model.js';
import { findSheet } from './workbook.js';

/** The first screen (model/sheets/first-screen.ts) of a sheet of the document. */
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
