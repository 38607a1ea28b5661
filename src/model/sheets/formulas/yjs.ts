import * as Y from 'yjs';
import { parseCellKey, sheetsOf } from '../../content.js';
import { Workbook, type CellAddress, type CellChange, type CellInput, type SheetSpec, type WorkbookOptions } from './workbook.js';

/**
 * A formula Workbook kept in step with a spreadsheet document of the content model
 * (docs/CONTENT-MODEL.md): `doc.getArray('sheets')`, cells `{v?, f?}` keyed "row:column". It observes the
 * document and applies what changed when asked (`flush`, and before every read), so a burst of edits costs
 * one incremental recompute. Editors and the server both use it; neither stores computed values in the
 * document (a formula cell's `v` is ignored: the engine is the one source of values).
 */

/** The input a stored cell stands for: its formula text, else its value; anything else is empty. */
export function cellInput(cell: unknown): CellInput {
  if (typeof cell !== 'object' || cell === null) return null;
  const { f, v } = cell as { f?: unknown; v?: unknown };
  if (typeof f === 'string' && f.length > 1) return f.startsWith('=') ? f : `=${f}`;
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? v : null;
}

/**
 * The ids the engine knows the document's sheets by, in sheet order: each sheet's stable `id`; a sheet
 * without one, or repeating an earlier sheet's (a careless copy), by its position (`#2`).
 */
export function sheetIds(doc: Y.Doc): string[] {
  const seen = new Set<string>();
  return sheetsOf(doc)
    .toArray()
    .map((sheet, index) => {
      const id = sheet.get('id');
      const unique = typeof id === 'string' && !seen.has(id) ? id : `#${index}`;
      seen.add(unique);
      return unique;
    });
}

function sheetSpecs(doc: Y.Doc): SheetSpec[] {
  const ids = sheetIds(doc);
  return sheetsOf(doc)
    .toArray()
    .map((sheet, index) => {
      const name = sheet.get('name');
      const cells = sheet.get('cells');
      const entries: Array<readonly [number, number, CellInput]> = [];
      if (cells instanceof Y.Map) {
        cells.forEach((cell, key) => {
          const at = parseCellKey(key);
          const input = cellInput(cell);
          if (at && input !== null) entries.push([at.row, at.column, input]);
        });
      }
      return { id: ids[index]!, name: typeof name === 'string' ? name : '', cells: entries };
    });
}

const calculations = new WeakMap<Y.Doc, SpreadsheetCalculation>();

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
  private readonly pending = new Map<Y.Map<unknown>, Set<string>>();
  private structural = false;
  private readonly observer: (events: Array<Y.YEvent<Y.AbstractType<unknown>>>) => void;

  constructor(
    private readonly doc: Y.Doc,
    options: WorkbookOptions = {},
  ) {
    this.workbook = new Workbook(sheetSpecs(doc), options);
    this.observer = (events) => this.note(events);
    sheetsOf(doc).observeDeep(this.observer);
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
    const sheets = sheetsOf(this.doc).toArray();
    const ids = sheetIds(this.doc);
    for (const [cells, keys] of this.pending) {
      const sheet = cells.parent;
      const index = sheet instanceof Y.Map ? sheets.indexOf(sheet as Y.Map<unknown>) : -1;
      if (index === -1) continue;
      const sheetId = ids[index]!;
      for (const key of keys) {
        const at = parseCellKey(key);
        if (at) changes.push({ sheetId, row: at.row, column: at.column, input: cellInput(cells.get(key)) });
      }
    }
    this.pending.clear();
    return this.workbook.setCells(changes);
  }

  /** Stops following the document. */
  destroy(): void {
    sheetsOf(this.doc).unobserveDeep(this.observer);
  }

  private note(events: Array<Y.YEvent<Y.AbstractType<unknown>>>): void {
    const sheets = sheetsOf(this.doc);
    for (const event of events) {
      const target = event.target;
      if (target === sheets) {
        this.structural = true;
        continue;
      }
      if (!(event instanceof Y.YMapEvent)) continue;
      if (target.parent === sheets) {
        // a sheet's own fields: its name or its whole cells map change what formulas see
        if (event.keysChanged.has('name') || event.keysChanged.has('cells') || event.keysChanged.has('id')) this.structural = true;
        continue;
      }
      const map = target as Y.Map<unknown>;
      let keys = this.pending.get(map);
      if (!keys) this.pending.set(map, (keys = new Set()));
      for (const key of event.keysChanged) keys.add(key);
    }
  }
}
