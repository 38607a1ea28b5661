import type { Cell } from '../content.js';
import { copyFormula } from './formula-copy.js';
import type { ShownValue } from './layout.js';
import { areasOverlap, type CellArea, type SheetModel } from './sheet-model.js';

/**
 * Sorting the rows of an area by one or more of its columns (docs/SHEETS.md "Sort and filter"), for the editor and
 * the values API alike. Whole cells move with their row (value or formula, format, style, image); a moved formula's
 * relative references move with it, as a copied formula's do (`=B2*2` sorted from row 2 to row 5 is `=B5*2`), which
 * is what the desktop programs do. The caller wraps the writes in one transaction: one undo step.
 */

export interface SortKey {
  /** the column's index in the sheet, inside the area */
  column: number;
  descending?: boolean;
}

/** Most cells one sort rewrites (the editor's and the API's limit). */
export const MAX_SORTED_CELLS = 1_000_000;

/** Why an area cannot be sorted, or undefined when it can. */
export type SortProblem = 'tooLarge' | 'merged' | 'keyOutside';

/** Ascending order of kinds, as the desktop programs sort: numbers, text, booleans, errors; blanks always last. */
const KIND_ORDER: Readonly<Record<ShownValue['kind'], number>> = { number: 0, pending: 0, text: 1, boolean: 2, error: 3, empty: 4 };

const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: false });

/** Compares two shown values in ascending order (blanks compare equal to each other and are placed by the caller). */
export function compareShown(a: ShownValue, b: ShownValue): number {
  const kinds = KIND_ORDER[a.kind] - KIND_ORDER[b.kind];
  if (kinds !== 0) return kinds;
  if (a.kind === 'number' && typeof a.value === 'number' && typeof b.value === 'number') return a.value - b.value;
  if (a.kind === 'boolean') return Number(a.value) - Number(b.value);
  return collator.compare(String(a.value), String(b.value));
}

/** What stands in the way of sorting `area` by `keys`; undefined when nothing does. */
export function sortProblem(sheet: SheetModel, area: CellArea, keys: readonly SortKey[]): SortProblem | undefined {
  if ((area.endRow - area.startRow + 1) * (area.endColumn - area.startColumn + 1) > MAX_SORTED_CELLS) return 'tooLarge';
  if (keys.length === 0 || keys.some((key) => key.column < area.startColumn || key.column > area.endColumn)) return 'keyOutside';
  if (sheet.merges().some((merge) => areasOverlap(merge, area))) return 'merged';
  return undefined;
}

/**
 * The new order of the area's rows (sheet row indexes, top to bottom), the header row (when `header`) kept on top.
 * Stable: rows equal under every key keep their order.
 */
export function sortedRows(area: CellArea, keys: readonly SortKey[], header: boolean, shownAt: (row: number, column: number) => ShownValue): number[] {
  const first = header ? area.startRow + 1 : area.startRow;
  const rows: number[] = [];
  for (let row = first; row <= area.endRow; row++) rows.push(row);
  const shown = new Map<number, ShownValue[]>(rows.map((row) => [row, keys.map((key) => shownAt(row, key.column))]));
  rows.sort((a, b) => {
    const left = shown.get(a)!;
    const right = shown.get(b)!;
    for (let k = 0; k < keys.length; k++) {
      const x = left[k]!;
      const y = right[k]!;
      // blanks last whichever the direction
      if (x.kind === 'empty' || y.kind === 'empty') {
        if (x.kind !== y.kind) return x.kind === 'empty' ? 1 : -1;
        continue;
      }
      const order = compareShown(x, y);
      if (order !== 0) return keys[k]!.descending ? -order : order;
    }
    return a - b;
  });
  return header ? [area.startRow, ...rows] : rows;
}

/** One cell a sort writes: what the cell at (row, column) holds after it (null: empty). */
export interface SortedCell {
  row: number;
  column: number;
  cell: Cell | null;
}

/**
 * What sorting the area's rows (checked first with `sortProblem`) writes: each cell of a row that moves, at its new
 * place (a formula's relative references moved with it). Rows that stay are not in it.
 */
export function sortedCells(sheet: SheetModel, area: CellArea, keys: readonly SortKey[], header: boolean, shownAt: (row: number, column: number) => ShownValue): SortedCell[] {
  const order = sortedRows(area, keys, header, shownAt);
  const rows = new Map<number, Map<number, Cell>>();
  sheet.forEachCell((row, column, cell) => {
    let line = rows.get(row);
    if (!line) rows.set(row, (line = new Map()));
    line.set(column, cell);
  }, area);
  const written: SortedCell[] = [];
  order.forEach((from, index) => {
    const to = area.startRow + index;
    if (from === to) return;
    const source = rows.get(from);
    for (let column = area.startColumn; column <= area.endColumn; column++) {
      const cell = source?.get(column);
      const formula = typeof cell?.f === 'string' ? copyFormula(cell.f, to - from, 0) : undefined;
      written.push({ row: to, column, cell: cell === undefined ? null : formula === undefined ? cell : { ...cell, f: formula } });
    }
  });
  return written;
}

/** Writes what `sortedCells` answered; answers how many rows moved. */
export function writeSortedCells(sheet: SheetModel, area: CellArea, written: readonly SortedCell[]): number {
  for (const { row, column, cell } of written) sheet.setCell(row, column, cell);
  return written.length / (area.endColumn - area.startColumn + 1);
}
