import { FormulaError, SpreadsheetCalculation, type CellValue } from '../../src/domain/sheets/formulas/index.js';
import { formatValue } from '../../src/domain/sheets/number-format.js';
import type { Sheet, Workbook } from './workbook.js';

/** What a cell shows: its value, the text its number format makes of it, and how to draw it. */
export interface ShownValue {
  value: string | number | boolean;
  /** as the grid, the clipboard and CSV export write it */
  text: string;
  kind: 'empty' | 'number' | 'text' | 'boolean' | 'error' | 'pending';
}

const EMPTY: ShownValue = { value: '', text: '', kind: 'empty' };

function shownOf(value: CellValue | string | number | boolean | undefined, format: string | undefined): ShownValue {
  if (value === undefined || value === null || value === '') return EMPTY;
  if (value instanceof FormulaError) return { value: value.code, text: value.code, kind: 'error' };
  const text = formatValue(value, format);
  if (typeof value === 'number') return { value, text, kind: 'number' };
  if (typeof value === 'boolean') return { value, text, kind: 'boolean' };
  return { value, text, kind: 'text' };
}

/** A formula cell before the engine has computed the workbook (only between first paint and `compute`). */
const PENDING: ShownValue = { value: '…', text: '…', kind: 'pending' };

/**
 * The values cells show: a value as stored, a formula as the shared formula engine computes it (the same
 * engine the values API reads with, src/domain/sheets/formulas). The engine follows the document; `flush`
 * applies what changed since the last call (local or remote) and recomputes the dependants.
 *
 * Building the engine computes every formula of the file (about as long as the document takes to load), so
 * the editor paints first and calls `compute` right after: until then formula cells show "…". Whoever needs a
 * value at once (the SDK) calls `compute` first.
 */
export class SheetValues {
  private calculation: SpreadsheetCalculation | undefined;

  constructor(readonly workbook: Workbook) {}

  /** Builds the engine if it is not built yet. */
  compute(): SpreadsheetCalculation {
    this.calculation ??= new SpreadsheetCalculation(this.workbook.doc);
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
    if (!this.calculation) return PENDING;
    this.calculation.flush();
    return shownOf(this.calculation.workbook.value(this.workbook.idOf(sheet), row, column), cell.z);
  }

  /** Why a formula shows #ERROR! (it does not parse), for the cell's tooltip. */
  problem(sheet: Sheet, row: number, column: number): string | undefined {
    return this.calculation?.workbook.formulaProblem(this.workbook.idOf(sheet), row, column);
  }
}
