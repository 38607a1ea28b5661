import type * as Y from 'yjs';
import { ApiError, Errors } from '../../errors.js';
import { columnIndex, formatA1, type A1Range } from '../../model/sheets/a1.js';
import { shownReader } from '../../model/sheets/shown-cells.js';
import type { CellArea } from '../../model/sheets/sheet-model.js';
import { MAX_SORTED_CELLS, sortedCells, sortProblem, writeSortedCells, type SortKey } from '../../model/sheets/sort.js';
import { cellInput } from '../../model/sheets/formulas/index.js';
import { refuseInvalidWrites } from './data-validation.js';
import { findSheet } from './workbook.js';

/** One sort key as the API takes it: a column by its letters (`B`), ascending unless `descending`. */
export interface SortKeyInput {
  column: string;
  descending?: boolean;
}

export interface SortResult {
  /** the area sorted in A1 with the sheet's name (a whole-column range is cut to the sheet's data) */
  sortedRange: string;
  /** rows written at a new place */
  movedRows: number;
}

/**
 * Sorts the rows of `range` by `keys` (docs/SHEETS.md "Sort and filter"), with the editor's model code
 * (src/model/sheets/sort.ts): values as the formula engine computes them, whole cells moving with their row, a
 * header row (`header`) kept on top. Refusals before any write: a key column not in the range or not a column
 * (128200), merged cells in the range (409 / 128201), more than 1,000,000 cells (128202), a value moved into a cell
 * whose `stop` validation rule refuses it (128400).
 */
export function sortRange(doc: Y.Doc, range: A1Range, keyInputs: readonly SortKeyInput[], header: boolean): SortResult {
  const { sheet } = findSheet(doc, range.sheetName);
  const extent = sheet.extent();
  const area: CellArea = {
    startRow: range.startRow,
    endRow: Math.min(range.endRow, extent?.lastRow ?? range.startRow),
    startColumn: range.startColumn,
    endColumn: Math.min(range.endColumn, Math.max(extent?.lastColumn ?? range.startColumn, range.startColumn)),
  };
  if (area.endRow < area.startRow) area.endRow = area.startRow;
  const sortedRange = formatA1({ ...area, sheetName: sheet.name });
  const keys: SortKey[] = keyInputs.map((key) => {
    const column = columnIndex(key.column.toUpperCase());
    if (column === undefined || column < area.startColumn || column > range.endColumn) {
      throw new ApiError(Errors.invalidSortParams, `sort column "${key.column}" is not a column of ${sortedRange}`, { column: key.column, range: sortedRange });
    }
    return { column, descending: key.descending === true };
  });
  // a key column right of the data holds no value: sorting by it keeps the order, as every row ties
  area.endColumn = Math.max(area.endColumn, ...keys.map((key) => key.column));
  const problem = sortProblem(sheet, area, keys);
  if (problem === 'merged') throw new ApiError(Errors.sortRangeMerged, `${sortedRange} holds merged cells: unmerge them before sorting`, { range: sortedRange });
  if (problem === 'tooLarge') throw new ApiError(Errors.sortRangeTooLarge, `${sortedRange} holds more than ${MAX_SORTED_CELLS} cells: sort a smaller range`, { range: sortedRange, limit: MAX_SORTED_CELLS });
  if (problem === 'keyOutside') throw new ApiError(Errors.invalidSortParams, `the sort columns must lie in ${sortedRange}`, { range: sortedRange });
  const written = sortedCells(sheet, area, keys, header, shownReader(doc, sheet));
  // a value moved into a cell whose `stop` rule refuses it is refused as a value written there would be (128400)
  refuseInvalidWrites(doc, sheet, () => written.map(({ row, column, cell }) => ({ row, column, input: cellInput(cell) })));
  return { sortedRange, movedRows: writeSortedCells(sheet, area, written) };
}
