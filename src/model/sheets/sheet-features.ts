import type { SheetStructureEdit } from '../content.js';
import { moveValidations, type ValidationSheet } from './data-validation.js';
import { moveCharts } from './charts.js';
import { moveFilter, type FilterSheet } from './filter.js';
import { moveHidden } from './hidden.js';
import { moveConditionalFormats } from './conditional-formats.js';
import { moveLocks } from './locks.js';

/**
 * The sheet features kept beside the cells and placed by position (docs/CONTENT-MODEL.md "Sheet features"): each
 * in its own module under its own key of the sheet's map, each moved here when rows or columns are inserted or
 * deleted, in the same transaction as the cells (SheetModel.applyStructureEdit calls this once). Neither this module nor the
 * features import the sheet model (it imports them): they take the sheet as the part of it they use.
 */
export function moveSheetFeatures(sheet: ValidationSheet, edit: SheetStructureEdit): void {
  moveFilter(sheet, edit);
  moveHidden(sheet, edit);
  moveValidations(sheet, edit);
  moveConditionalFormats(sheet, edit);
  moveLocks(sheet, edit);
  moveCharts(sheet, edit);
}
