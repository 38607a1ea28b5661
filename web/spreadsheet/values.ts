import { SpreadsheetCalculation, type CellAddress } from '../../src/model/sheets/formulas/index.js';
import { EMPTY_SHOWN as EMPTY, shownOf, type ShownValue } from '../../src/model/sheets/layout.js';
import { workbookContext, type ValidationContext } from '../../src/model/sheets/data-validation.js';
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
  /** the cells whose computed value changed since `takeRecomputed` was last called ('all': every formula was) */
  private recomputed: CellAddress[] | 'all' = [];

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

  /** How data validation computes its formulas on a sheet: with this engine (built if it is not yet). */
  validationContext(sheet: Sheet): ValidationContext {
    return workbookContext(this.compute().workbook, this.workbook.idOf(sheet));
  }

  get computed(): boolean {
    return this.calculation !== undefined;
  }

  /** Applies the document's changes to the engine (built or not, it then matches the document). */
  flush(): void {
    if (this.calculation) this.noteRecomputed(this.calculation.flush());
  }

  /** Recomputes TODAY and NOW; true when a value changed. */
  recalculateClock(): boolean {
    const changed = this.calculation?.workbook.recalculateVolatile() ?? [];
    this.noteRecomputed(changed);
    return changed.length > 0;
  }

  /**
   * The cells whose computed value changed since the last call (by any flush), or 'all' when every formula was
   * computed again: what shows there may have changed without the cell's own content changing.
   */
  takeRecomputed(): CellAddress[] | 'all' {
    const recomputed = this.recomputed;
    this.recomputed = [];
    return recomputed;
  }

  private noteRecomputed(changed: CellAddress[] | 'all'): void {
    if (this.recomputed === 'all') return;
    if (changed === 'all') this.recomputed = 'all';
    else for (const address of changed) this.recomputed.push(address);
  }

  shown(sheet: Sheet, row: number, column: number): ShownValue {
    const cell = this.workbook.cell(sheet, row, column);
    if (typeof cell?.f !== 'string' || cell.f.length < 2) {
      if (cell?.v !== undefined && cell.v !== null && cell.v !== '') return shownOf(cell.v, cell.z);
      // an empty cell shows what an array formula spills there (under the cell's own format, as in Excel)
      if (!this.calculation) return EMPTY;
      this.flush();
      return shownOf(this.calculation.workbook.value(this.workbook.idOf(sheet), row, column), cell?.z);
    }
    if (!this.calculation) return this.shownBefore?.(this.workbook.idOf(sheet), row, column) ?? PENDING;
    this.flush();
    return shownOf(this.calculation.workbook.value(this.workbook.idOf(sheet), row, column), cell.z);
  }

  /**
   * The area of the array that the cell's formula spills, or that spilled into the cell (zero-based, inclusive):
   * the editor outlines it while one of its cells is selected. Undefined when no array covers the cell or its
   * formula is blocked (#SPILL!).
   */
  spillAround(sheet: Sheet, row: number, column: number): { top: number; left: number; bottom: number; right: number } | undefined {
    if (!this.calculation) return undefined;
    this.flush();
    const engine = this.calculation.workbook;
    const id = this.workbook.idOf(sheet);
    const anchor = engine.spillAnchor(id, row, column) ?? { row, column };
    const area = engine.spillArea(id, anchor.row, anchor.column);
    return area && !area.blocked ? { top: area.startRow, left: area.startColumn, bottom: area.endRow, right: area.endColumn } : undefined;
  }

  /** Whether the cell's formula is an array blocked from spilling (#SPILL!): its tooltip says why. */
  spillBlocked(sheet: Sheet, row: number, column: number): boolean {
    return this.calculation?.workbook.spillArea(this.workbook.idOf(sheet), row, column)?.blocked ?? false;
  }

  /** Why a formula shows #ERROR! (it does not parse), for the cell's tooltip. */
  problem(sheet: Sheet, row: number, column: number): string | undefined {
    return this.calculation?.workbook.formulaProblem(this.workbook.idOf(sheet), row, column);
  }
}
