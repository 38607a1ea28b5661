import type * as Y from 'yjs';
import { sheetsOf } from '../../model/content.js';
import { MAX_COLUMNS } from '../../model/sheets/a1.js';
import { styleOf } from '../../model/sheets/cell-style.js';
import { formatOf } from '../../model/sheets/cells.js';
import { calculationOf, sheetIds } from '../../model/sheets/formulas/index.js';
import { columnWidthOf, frozenRowsOf, shownOf } from '../../model/sheets/layout.js';
import type { FirstScreen, FirstScreenCell } from '../../model/sheets/first-screen.js';
import { findSheet, nameOf, cellsOf, countOf } from './workbook.js';
import { cellKey, DEFAULT_COLUMN_COUNT, DEFAULT_ROW_COUNT } from '../../model/content.js';

/** The first screen (model/sheets/first-screen.ts) of a sheet of the document. */
export function firstScreen(doc: Y.Doc, sheetName: string | null, rows: number, width: number): FirstScreen {
  const { sheet, index } = findSheet(doc, sheetName);
  const ids = sheetIds(doc);
  const rowCount = countOf(sheet, 'rowCount', DEFAULT_ROW_COUNT);
  const columnCount = Math.min(countOf(sheet, 'columnCount', DEFAULT_COLUMN_COUNT), MAX_COLUMNS);
  const columnWidths: number[] = [];
  for (let covered = 0; covered < width && columnWidths.length < columnCount; ) {
    const columnWidth = columnWidthOf(sheet, columnWidths.length);
    columnWidths.push(columnWidth);
    covered += columnWidth;
  }
  const shownRows = Math.min(rows, rowCount);
  const cells: FirstScreenCell[] = [];
  const stored = cellsOf(sheet);
  const area = { startRow: 0, endRow: shownRows - 1, startColumn: 0, endColumn: columnWidths.length - 1 };
  calculationOf(doc).forEachCell(ids[index]!, area, (row, column, value) => {
    const storedCell = stored?.get(cellKey(row, column));
    const shown = shownOf(value, formatOf(storedCell));
    if (shown.kind === 'empty' || shown.kind === 'pending') return;
    const style = styleOf(storedCell);
    cells.push(style ? { row, column, text: shown.text, kind: shown.kind, style } : { row, column, text: shown.text, kind: shown.kind });
  });
  return {
    sheets: sheetsOf(doc)
      .toArray()
      .map((each, i) => ({ sheetId: ids[i]!, name: nameOf(each) })),
    sheetId: ids[index]!,
    name: nameOf(sheet),
    rowCount,
    columnCount,
    frozenRows: frozenRowsOf(sheet),
    rows: shownRows,
    columns: columnWidths.length,
    columnWidths,
    cells,
  };
}
