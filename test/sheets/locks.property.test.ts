import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { appendSheet, applyStructureEdit, type CellArea } from '../../src/model/sheets/sheet-model.js';
import { locksOf, lockRefusing, setLock } from '../../src/model/sheets/locks.js';
import { locksBefore, refusalOf } from '../../src/model/sheets/lock-guard.js';
import { AreaSpan } from '../support/area-span.js';

/**
 * Range locks under row and column edits (locks.ts moveLocks, through applyStructureEdit): cells labelled inside and
 * outside the lock before the edits stay inside and outside it after, wherever the edits move them; the lock goes
 * only with its last row or column (test/support/area-span.ts). And the guard (lock-guard.ts) refuses a cell write from an excluded user exactly where
 * the moved lock covers it.
 */

type Edit = { kind: 'insert' | 'delete'; axis: 'rows' | 'columns'; index: number; count: number };

const GRID = 8;
const area: fc.Arbitrary<CellArea> = fc
  .tuple(fc.nat(GRID - 1), fc.nat(GRID - 1), fc.nat(3), fc.nat(3))
  .map(([row, column, extraRows, extraColumns]) => ({ startRow: row, endRow: Math.min(GRID - 1, row + extraRows), startColumn: column, endColumn: Math.min(GRID - 1, column + extraColumns) }));
const edit: fc.Arbitrary<Edit> = fc.record({
  kind: fc.constantFrom('insert' as const, 'delete' as const),
  axis: fc.constantFrom('rows' as const, 'columns' as const),
  index: fc.nat(GRID),
  count: fc.integer({ min: 1, max: 3 }),
});

const inside = (a: CellArea, row: number, column: number) => row >= a.startRow && row <= a.endRow && column >= a.startColumn && column <= a.endColumn;

describe('range locks move with rows and columns', () => {
  it('keep covering exactly the cells they covered, and the guard refuses writes there', () => {
    fc.assert(
      fc.property(area, fc.array(edit, { maxLength: 6 }), fc.nat(GRID * 2 - 1), fc.nat(GRID * 2 - 1), (locked, edits, probeRow, probeColumn) => {
        const doc = new Y.Doc();
        const sheet = appendSheet(doc, 'Sheet1');
        doc.transact(() => {
          sheet.growTo(GRID, GRID);
          for (let row = 0; row < GRID; row++) for (let column = 0; column < GRID; column++) sheet.setCell(row, column, { v: inside(locked, row, column) ? 'in' : 'out' });
          setLock(sheet, { id: 'l', type: 'range', lockerId: 'alice', visitorPermission: 'readable', users: {}, departments: {}, groups: {}, areas: [locked] });
        });
        const rowsLocked = AreaSpan.covering(locked.startRow, locked.endRow);
        const columnsLocked = AreaSpan.covering(locked.startColumn, locked.endColumn);
        for (const each of edits) {
          const size = each.axis === 'rows' ? sheet.rowCount : sheet.columnCount;
          if (each.kind === 'delete' && (each.index >= size || size - each.count < 1)) continue;
          const step = { ...each, index: Math.min(each.index, size) };
          doc.transact(() => applyStructureEdit(doc, sheet, step));
          (step.axis === 'rows' ? rowsLocked : columnsLocked).apply(step);
        }
        const [lock] = locksOf(sheet);
        sheet.forEachCell((row, column, cell) => {
          const covered = lock !== undefined && inside(lock.areas[0]!, row, column);
          if (cell.v === 'in') expect(covered).toBe(true);
          if (cell.v === 'out') expect(covered).toBe(false);
        });
        // the lock goes when its last row or column goes; rows inserted inside it belong to it
        if (rowsLocked.slots.length === 0 || columnsLocked.slots.length === 0) expect(lock).toBeUndefined();
        else expect(lock?.areas[0]).toEqual({ startRow: rowsLocked.start, endRow: rowsLocked.end, startColumn: columnsLocked.start, endColumn: columnsLocked.end });
        // a write by Bob at a probe cell is refused exactly where the lock covers it
        const row = probeRow % sheet.rowCount;
        const column = probeColumn % sheet.columnCount;
        const before = locksBefore(doc);
        let refused: ReturnType<typeof refusalOf>;
        doc.transact((transaction) => {
          sheet.setCell(row, column, { v: 'bob' });
          refused = refusalOf(doc, transaction, before, { userId: 'bob', manageable: false });
        });
        const cell = { startRow: row, endRow: row, startColumn: column, endColumn: column };
        expect(refused! !== undefined).toBe(lockRefusing(locksOf(sheet), cell, 'bob') !== undefined);
      }),
      { numRuns: 150 },
    );
  });
});
