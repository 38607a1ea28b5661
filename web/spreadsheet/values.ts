import { SpreadsheetCalculation } from '../../src/model/sheets/formulas/index.js';
import { EMPTY_SHOWN as EMPTY, shownOf, type ShownValue } from '../../src/model/sheets/layout.js';
import type { Sheet, Workbook } from './workbook.js';

export type { ShownValue } from '../../src/model/sheets/layout.js';

/** A formula cell before the engine has computed the workbook (only between first paint and `compute`). */
const PENDING: ShownValue = { value: '…', text: '…', kind: 'pending' };

/**
 * The values cells show: a value as stored, a formula as the shared formula engine computes it (the same
 * engine the values API reads with, src/model/sheets/formulas). The engine follows the document; `flush`
 * applies what changed since the last call (local or remote) and recomputes the dependants.
 *
 * Building the engine computes every formula of the file (about as long as the document takes to load), so
 * the editor paints first and calls `compute` right after: until then formula cells show "…". Whoever needs a
 * value at once (the SDK) calls `compute` first.
 */
export class SheetValues {
  private calculation: SpreadsheetCalculation | undefined;
  private shownBefore: ((sheetId: string, row: number, column: number) => ShownValue | undefined) | undefined;

  constructor(readonly workbook: Workbook) {}

  /**
   * What formula cells show until `compute`: the values of the first screen (first-screen.ts), which the
   * service computed, rather than "…", so that handing over to the editor changes nothing on screen.
   */
  showUntilComputed(shown: (sheetId: string, row: number, column: number) => ShownValue | undefined): void {
    this.shownBefore = shown;
  }

  /** Builds the engine if it is not built yet. */
  compute(): SpreadsheetCalculation {
    this.calculation ??= new SpreadsheetCalculation(this.workbook.doc);
    this.shownBefore = undefined;
    return this.calculation;
  }

  get computed(): boolean {
    return this.calculation !== undefined;
  }

  /** Applies the document's changes to the engine (built or not, it then matches the document). */
  flush(): void {
    this.calculation?.flush();
  }

  /** Recomputes TODAY and NOW; true when a value changed. */
  recalculateClock(): boolean {
    return (this.calculation?.workbook.recalculateVolatile().length ?? 0) > 0;
  }

  shown(sheet: Sheet, row: number, column: number): ShownValue {
    const cell = this.workbook.cell(sheet, row, column);
    if (!cell) return EMPTY;
    if (typeof cell.f !== 'string' || cell.f.length < 2) return shownOf(cell.v, cell.z);
    if (!this.calculation) return this.shownBefore?.(this.workbook.idOf(sheet), row, column) ?? PENDING;
    this.calculation.flush();
    return shownOf(this.calculation.workbook.value(this.workbook.idOf(sheet), row, column), cell.z);
  }

  /** Why a formula shows #ERROR! (it does not parse), for the cell's tooltip. */
  problem(sheet: Sheet, row: number, column: number): string | undefined {
    return this.calculation?.workbook.formulaProblem(this.workbook.idOf(sheet), row, column);
  }
}
