import { shownOf } from '../../src/model/sheets/layout.js';
import type { CellRange } from '../shared/grid/grid.js';
import { t } from './messages.js';
import type { SheetValues } from './values.js';
import type { Sheet } from './workbook.js';

/** The numbers of a selection: their sum, how many, and the number format of the first (how Excel shows them). */
export interface SelectionNumbers {
  sum: number;
  count: number;
  format: string | undefined;
}

/**
 * The numbers the selected cells show (formulas as computed). Only the stored cells are visited, so selecting a
 * whole sparse sheet (Ctrl+A) costs what its data does, not its area.
 */
export function selectionNumbers(values: SheetValues, sheet: Sheet, range: CellRange): SelectionNumbers {
  const result: SelectionNumbers = { sum: 0, count: 0, format: undefined };
  let first: { row: number; column: number } | undefined;
  const area = { startRow: range.top, endRow: range.bottom, startColumn: range.left, endColumn: range.right };
  sheet.forEachCell((row, column) => {
    const shown = values.shown(sheet, row, column);
    if (shown.kind !== 'number' || typeof shown.value !== 'number') return;
    result.sum += shown.value;
    result.count++;
    // the first number in reading order gives its format, whatever order the cells are stored in
    if (!first || row < first.row || (row === first.row && column < first.column)) {
      first = { row, column };
      result.format = values.workbook.format(sheet, row, column);
    }
  }, area);
  return result;
}

/**
 * The strip at the right of the sheet tabs: Sum, Average and Count of the numbers in a selection of more than one
 * cell, shown in the number format of the first of them (as Excel does), empty otherwise.
 */
export class StatusBar {
  readonly element: HTMLElement;

  constructor() {
    this.element = document.createElement('div');
    this.element.className = 'svc-sheet-status';
    this.element.setAttribute('role', 'status');
    this.element.setAttribute('aria-label', t('status.label'));
  }

  show(numbers: SelectionNumbers | undefined): void {
    if (!numbers || numbers.count === 0) {
      this.element.replaceChildren();
      return;
    }
    const { sum, count, format } = numbers;
    const parts = [
      t('status.sum', { value: shownOf(sum, format).text }),
      t('status.average', { value: shownOf(sum / count, format).text }),
      t('status.count', { value: shownOf(count, '#,##0').text }),
    ];
    this.element.replaceChildren(
      ...parts.map((text) => {
        const part = document.createElement('span');
        part.textContent = text;
        return part;
      }),
    );
  }
}
