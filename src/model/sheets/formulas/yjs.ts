import type * as Y from 'yjs';
import { observeSheets, sheetIds, sheetModels, type SheetChanges, type SheetModel } from '../sheet-model.js';
import type { Cell } from '../../content.js';
import { isFormulaInput, type CellSource, type StoredInput } from './cell-source.js';
import { Workbook, type CellAddress, type CellChange, type CellInput, type SheetSpec, type WorkbookOptions } from './workbook.js';

/**
 * A formula Workbook kept in step with a spreadsheet document, read through the sheet model
 * (src/model/sheets/sheet-model.ts). It observes the document and applies what changed when asked (`flush`, and
 * before every read), so a burst of edits costs one incremental recompute. Editors and the server both use it;
 * neither stores computed values in the document (a formula cell's `v` is ignored: the engine is the one source
 * of values), except the value an import keeps beside a formula the engine cannot read (`cachedValue`).
 */

/** The input a stored cell stands for: its formula text, else its value; anything else is empty. */
export function cellInput(cell: unknown): CellInput {
  if (typeof cell !== 'object' || cell === null) return null;
  const { f, v } = cell as { f?: unknown; v?: unknown };
  if (typeof f === 'string' && f.length > 1) return f.startsWith('=') ? f : `=${f}`;
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? v : null;
}

/** The value stored beside a formula (an import keeps Excel's for a formula the engine cannot read), else undefined. */
export function cachedValue(cell: unknown): CellInput | undefined {
  if (typeof cell !== 'object' || cell === null) return undefined;
  const { f, v } = cell as { f?: unknown; v?: unknown };
  return typeof f === 'string' && (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') ? v : undefined;
}

/**
 * A cell as the engine reads it, undefined when it holds no input (empty, or a format only); `stored`: the cell as
 * stored, whose formula is relative to the cell (the engine parses one such text once for a column of copies).
 */
function storedInput(cell: unknown, stored?: Cell): StoredInput | undefined {
  const input = cellInput(cell);
  if (input === null || input === '') return undefined;
  const cached = cachedValue(cell);
  const found: StoredInput = cached === undefined ? { input } : { input, cached };
  if (typeof stored?.f === 'string' && isFormulaInput(input)) found.relative = stored.f;
  return found;
}

/** The engine's view of a sheet: its cells read through the sheet model as formulas need them, never copied. */
function sheetSource(sheet: SheetModel): CellSource {
  return {
    input: (row, column) => storedInput(sheet.cell(row, column)),
    forEachInput(area, visit) {
      sheet.forEachCell((row, column, cell, kept) => {
        const stored = storedInput(cell, kept);
        if (stored) visit(row, column, stored);
      }, area);
    },
    forEachFormula(accept, visit) {
      sheet.forEachFormulaCell(accept, (row, column, cell, kept) => {
        const stored = storedInput(cell, kept);
        if (stored) visit(row, column, stored);
      });
    },
    extent() {
      let lastRow = -1;
      let lastColumn = -1;
      sheet.forEachCell((row, column, cell) => {
        if (storedInput(cell) === undefined) return;
        if (row > lastRow) lastRow = row;
        if (column > lastColumn) lastColumn = column;
      });
      return lastRow === -1 ? undefined : { lastRow, lastColumn };
    },
  };
}

function sheetSpecs(doc: Y.Doc): SheetSpec[] {
  const ids = sheetIds(doc);
  return sheetModels(doc).map((sheet, index) => ({ id: ids[index]!, name: sheet.name, source: sheetSource(sheet) }));
}

const calculations = new WeakMap<Y.Doc, SpreadsheetCalculation>();

/**
 * Heap one formula read takes in the engine (its entry, parsed tree, references and dependency records), measured:
 * 100,000 formulas `=B(n)*2` read through `forEachCell` grew the heap by 98.6 MiB beyond the same cells read through
 * the sheet model (docs/PERFORMANCE.md "Formula engine built lazily").
 */
export const BYTES_PER_FORMULA_READ = 1_034;

/** The memory the calculation following `doc` holds (0 when none was made): it grows with the formulas read. */
export function calculationBytes(doc: Y.Doc): number {
  return (calculations.get(doc)?.workbook.formulasRead() ?? 0) * BYTES_PER_FORMULA_READ;
}

/**
 * The calculation following `doc`, made on first use and kept as long as the document lives; brought up
 * to date with the document's changes and the clock (TODAY, NOW) on every call.
 */
export function calculationOf(doc: Y.Doc): Workbook {
  let calculation = calculations.get(doc);
  if (!calculation) calculations.set(doc, (calculation = new SpreadsheetCalculation(doc)));
  else calculation.flush();
  calculation.workbook.recalculateVolatile();
  return calculation.workbook;
}

export class SpreadsheetCalculation {
  readonly workbook: Workbook;
  private readonly pending = new Map<SheetModel, Set<string>>();
  private structural = false;
  private readonly stopObserving: () => void;

  constructor(
    private readonly doc: Y.Doc,
    options: WorkbookOptions = {},
  ) {
    this.workbook = new Workbook(sheetSpecs(doc), options);
    this.stopObserving = observeSheets(doc, (changes) => this.note(changes));
  }

  /**
   * Applies the document's changes seen since the last flush and recomputes what depends on them.
   * Returns the cells whose value changed, or `all` when sheets were added, removed, renamed or replaced
   * (everything was recomputed).
   */
  flush(): CellAddress[] | 'all' {
    if (this.structural) {
      this.structural = false;
      this.pending.clear();
      this.workbook.load(sheetSpecs(this.doc));
      return 'all';
    }
    if (this.pending.size === 0) return [];
    const changes: CellChange[] = [];
    const sheets = sheetModels(this.doc);
    const ids = sheetIds(this.doc);
    for (const [sheet, positions] of this.pending) {
      const index = sheets.indexOf(sheet);
      if (index === -1) continue;
      const sheetId = ids[index]!;
      for (const position of positions) {
        const separator = position.indexOf(',');
        const row = Number(position.slice(0, separator));
        const column = Number(position.slice(separator + 1));
        const cell = sheet.cell(row, column);
        changes.push({ sheetId, row, column, input: cellInput(cell), cached: cachedValue(cell) });
      }
    }
    this.pending.clear();
    return this.workbook.setCells(changes);
  }

  /** Stops following the document. */
  destroy(): void {
    this.stopObserving();
  }

  private note(changes: SheetChanges): void {
    if (changes.sheets) this.structural = true;
    if (this.structural) return;
    for (const { sheet, row, column } of changes.cells) {
      let positions = this.pending.get(sheet);
      if (!positions) this.pending.set(sheet, (positions = new Set()));
      // one entry per cell however often it changed before the flush
      positions.add(`${row},${column}`);
    }
  }
}
