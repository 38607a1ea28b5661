import type { SheetStructureEdit } from '../content.js';

/**
 * Areas of a sheet and how row and column insertions and deletions move them: merges (sheet-model.ts) and the sheet
 * features placed by position (sheet-features.ts) share these. A leaf module, so that the features can use them
 * without importing the sheet model that calls them.
 */

/** A rectangle of cells, zero-based and inclusive at both ends. */
export interface CellArea {
  startRow: number;
  endRow: number;
  startColumn: number;
  endColumn: number;
}

/** Whether a stored value is a well-formed area (bounds whole, not negative, in order). */
export function isCellArea(value: unknown): value is CellArea {
  if (typeof value !== 'object' || value === null) return false;
  const area = value as Record<string, unknown>;
  const bounds = [area.startRow, area.endRow, area.startColumn, area.endColumn];
  return (
    bounds.every((bound) => typeof bound === 'number' && Number.isInteger(bound) && bound >= 0) &&
    (area.startRow as number) <= (area.endRow as number) &&
    (area.startColumn as number) <= (area.endColumn as number)
  );
}

/** Whether two areas share a cell. */
export function areasOverlap(a: CellArea, b: CellArea): boolean {
  return a.startRow <= b.endRow && b.startRow <= a.endRow && a.startColumn <= b.endColumn && b.startColumn <= a.endColumn;
}

/**
 * Where a row or column insertion or deletion moves an area's span on its axis: insertions before or inside the
 * span move or grow it, deletions shrink or move it; undefined when every row (column) of the span is deleted.
 */
function shiftSpan(start: number, end: number, edit: SheetStructureEdit): [number, number] | undefined {
  if (edit.kind === 'insert') {
    if (edit.index <= start) return [start + edit.count, end + edit.count];
    if (edit.index <= end) return [start, end + edit.count];
    return [start, end];
  }
  const deletedEnd = edit.index + edit.count - 1;
  const removedBefore = (position: number) => Math.max(0, Math.min(position, deletedEnd + 1) - edit.index);
  const remaining = end - start + 1 - Math.max(0, Math.min(end, deletedEnd) - Math.max(start, edit.index) + 1);
  if (remaining <= 0) return undefined;
  const newStart = start - removedBefore(start);
  return [newStart, newStart + remaining - 1];
}

/** An area after a structure edit (undefined: it is gone), as `shiftSpan` moves it on the edit's axis. */
export function shiftArea(area: CellArea, edit: SheetStructureEdit): CellArea | undefined {
  if (edit.axis === 'rows') {
    const rows = shiftSpan(area.startRow, area.endRow, edit);
    return rows && { ...area, startRow: rows[0], endRow: rows[1] };
  }
  const columns = shiftSpan(area.startColumn, area.endColumn, edit);
  return columns && { ...area, startColumn: columns[0], endColumn: columns[1] };
}

