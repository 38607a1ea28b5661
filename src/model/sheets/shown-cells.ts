import type * as Y from 'yjs';
import { calculationOf } from './formulas/index.js';
import { EMPTY_SHOWN, shownOf, type ShownValue } from './layout.js';
import { sheetIds, sheetModels, type SheetModel } from './sheet-model.js';

/**
 * What each cell of a sheet shows, as the service reads it for sort and filter (the values API's sort, the export's
 * filtered rows): a value as stored, a formula as the formula engine computes it, under the cell's number format.
 * The editor reads the same through its own engine (web/spreadsheet/values.ts).
 */
export function shownReader(doc: Y.Doc, sheet: SheetModel): (row: number, column: number) => ShownValue {
  const calculation = calculationOf(doc);
  const sheetId = sheetIds(doc)[sheetModels(doc).indexOf(sheet)]!;
  return (row, column) => {
    const cell = sheet.cell(row, column);
    if (cell === undefined) return EMPTY_SHOWN;
    const formula = typeof cell.f === 'string' && cell.f.length > 1;
    return shownOf(formula ? calculation.value(sheetId, row, column) : (cell.v ?? undefined), cell.z);
  };
}
