import type * as Y from 'yjs';
import { MAX_COLUMNS } from '../../model/sheets/a1.js';
import { formatOf } from '../../model/sheets/cells.js';
import { calculationOf } from '../../model/sheets/formulas/index.js';
import { shownOf } from '../../model/sheets/layout.js';
import type { FirstScreen, FirstScreenCell } from '../../model/sheets/first-screen.js';
import { sheetIds, sheetModels } from '../../model/sheets/sheet-model.js';
import { conditionalLooks, conditionalRulesOf, shownCellsOf } from '../../model/sheets/conditional-formats.js';
import { shownReader } from '../../model/sheets/shown-cells.js';
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
  // the rules look at their whole areas (a top 10 of a column reaches below the screen), so that the editor, which
  // computes the same, changes nothing when it takes over
  const rules = conditionalRulesOf(sheet);
  const shownAt = rules.length > 0 ? shownReader(doc, sheet) : undefined;
  const looks = shownAt ? conditionalLooks(rules, shownCellsOf(sheet, shownAt)) : undefined;
  calculationOf(doc).forEachCell(ids[index]!, area, (row, column, value) => {
    const storedCell = sheet.cell(row, column);
    const shown = shownOf(value, formatOf(storedCell));
    if (shown.kind === 'empty' || shown.kind === 'pending') return;
    const style = sheet.styleAt(row, column);
    const look = looks?.get(`${row}:${column}`);
    cells.push({ row, column, text: shown.text, kind: shown.kind, ...(style ? { style } : {}), ...(look ? { look } : {}) });
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
    rowHeights: [...sheet.rowHeights()].filter(([row]) => row < shownRows).sort((a, b) => a[0] - b[0]).map(([row, height]) => ({ row, height })),
    rowStyles: [...sheet.lineStyles('rows')].filter(([row]) => row < shownRows).sort((a, b) => a[0] - b[0]).map(([row, style]) => ({ row, style })),
    columnStyles: [...sheet.lineStyles('columns')].filter(([column]) => column < columnWidths.length).sort((a, b) => a[0] - b[0]).map(([column, style]) => ({ column, style })),
    cells,
  };
}
