import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { docFromState, initialContent, type Cell } from '../../src/model/content.js';
import { afterUndoStep, appendSheet, applyStructureEdit, moveSheet, sheetModels, type SheetModel } from '../../src/model/sheets/sheet-model.js';

/**
 * The grid model under concurrency (issue 21 point 1): two replicas of one spreadsheet make random row and column
 * insertions and deletions and cell edits, exchanging updates at random moments. Checked against a reference
 * model (positions in plain arrays) when every step is synced, and against what each replica wrote, by row and
 * column id, when steps are concurrent.
 */

const SIZE = 6;

type Step =
  | { replica: 0 | 1; kind: 'set'; row: number; column: number; value: string | null }
  | { replica: 0 | 1; kind: 'insert' | 'delete'; axis: 'rows' | 'columns'; index: number; count: number }
  | { kind: 'sync' };

const replica = fc.constantFrom<0 | 1>(0, 1);
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ replica, kind: fc.constant('set' as const), row: fc.nat(SIZE - 1), column: fc.nat(SIZE - 1), value: fc.option(fc.constantFrom('a', 'b', 'c'), { freq: 4 }) }) },
  { weight: 2, arbitrary: fc.record({ replica, kind: fc.constantFrom('insert' as const, 'delete' as const), axis: fc.constantFrom('rows' as const, 'columns' as const), index: fc.nat(SIZE - 1), count: fc.integer({ min: 1, max: 2 }) }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'sync' as const }) },
);

function sync(a: Y.Doc, b: Y.Doc): void {
  Y.applyUpdate(b, Y.encodeStateAsUpdate(a, Y.encodeStateVector(b)));
  Y.applyUpdate(a, Y.encodeStateAsUpdate(b, Y.encodeStateVector(a)));
}

/** The cells of the first SIZE + 4 rows and columns, by position. */
function grid(sheet: SheetModel): string[][] {
  return Array.from({ length: SIZE + 4 }, (_, row) => Array.from({ length: SIZE + 4 }, (_, column) => String(sheet.cell(row, column)?.v ?? '')));
}

/** Applies a step to a replica; answers the ids of the cell written (a set), or undefined. */
function apply(doc: Y.Doc, one: Exclude<Step, { kind: 'sync' }>, tag: string): { rowId: string; columnId: string; value: string | null } | undefined {
  const sheet = sheetModels(doc)[0]!;
  if (one.kind === 'set') {
    const value = one.value === null ? null : `${one.value}${tag}`;
    doc.transact(() => sheet.setCell(one.row, one.column, value === null ? null : { v: value }));
    return { rowId: sheet.rowId(one.row)!, columnId: sheet.columnId(one.column)!, value };
  }
  doc.transact(() => applyStructureEdit(doc, sheet, { kind: one.kind, axis: one.axis, index: one.index, count: one.count }));
  return undefined;
}

/** The reference: positions in arrays, every step applied in order. */
function applyReference(cells: string[][], one: Exclude<Step, { kind: 'sync' }>, tag: string, size: { rows: number; columns: number }): void {
  if (one.kind === 'set') {
    cells[one.row]![one.column] = one.value === null ? '' : `${one.value}${tag}`;
    return;
  }
  const blankRow = () => Array.from({ length: cells[0]!.length }, () => '');
  if (one.axis === 'rows') {
    if (one.kind === 'insert') cells.splice(one.index, 0, ...Array.from({ length: one.count }, blankRow));
    else {
      const count = Math.min(one.count, size.rows - one.index, size.rows - 1);
      cells.splice(one.index, count);
      cells.push(...Array.from({ length: count }, blankRow));
    }
    size.rows += one.kind === 'insert' ? one.count : -Math.min(one.count, size.rows - one.index, size.rows - 1);
  } else {
    const count = one.kind === 'insert' ? one.count : Math.min(one.count, size.columns - one.index, size.columns - 1);
    for (const line of cells) {
      if (one.kind === 'insert') line.splice(one.index, 0, ...Array.from({ length: count }, () => ''));
      else {
        line.splice(one.index, count);
        line.push(...Array.from({ length: count }, () => ''));
      }
    }
    size.columns += one.kind === 'insert' ? count : -count;
  }
  for (const line of cells) line.length = SIZE + 4 + 8;
  cells.length = SIZE + 4 + 8;
  for (let row = 0; row < cells.length; row++) cells[row] = Array.from({ length: SIZE + 4 + 8 }, (_, column) => cells[row]?.[column] ?? '');
}

describe('the grid model under concurrent edits', () => {
  it('synced after every step, both replicas read as the reference model has it', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 30 }), (steps) => {
        const docs = [docFromState(initialContent('spreadsheet')), docFromState(initialContent('spreadsheet'))];
        sync(docs[0]!, docs[1]!);
        const reference = Array.from({ length: SIZE + 12 }, () => Array.from({ length: SIZE + 12 }, () => ''));
        const size = { rows: 1000, columns: 26 };
        steps.forEach((one, index) => {
          if (one.kind === 'sync') return;
          apply(docs[one.replica]!, one, `${index}`);
          applyReference(reference, one, `${index}`, size);
          sync(docs[0]!, docs[1]!);
        });
        const expected = reference.slice(0, SIZE + 4).map((line) => line.slice(0, SIZE + 4));
        expect(grid(sheetModels(docs[0]!)[0]!)).toEqual(expected);
        expect(grid(sheetModels(docs[1]!)[0]!)).toEqual(expected);
        expect(sheetModels(docs[1]!)[0]!.rowCount).toBe(size.rows);
        expect(sheetModels(docs[1]!)[0]!.columnCount).toBe(size.columns);
      }),
      { numRuns: 150 },
    );
  });

  it('with steps concurrent, the replicas converge, and every cell shows a write made to its row and column (the last, where one replica alone wrote it)', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), (steps) => {
        const docs = [docFromState(initialContent('spreadsheet')), docFromState(initialContent('spreadsheet'))];
        sync(docs[0]!, docs[1]!);
        // per cell id, the values written, and the last one per replica
        const written = new Map<string, { values: Set<string>; last: Map<number, string> }>();
        steps.forEach((one, index) => {
          if (one.kind === 'sync') return sync(docs[0]!, docs[1]!);
          const write = apply(docs[one.replica]!, one, `${index}`);
          if (!write) return;
          const key = `${write.rowId} ${write.columnId}`;
          let entry = written.get(key);
          if (!entry) written.set(key, (entry = { values: new Set(), last: new Map() }));
          entry.values.add(write.value ?? '');
          entry.last.set(one.replica, write.value ?? '');
        });
        sync(docs[0]!, docs[1]!);
        const [first, second] = docs.map((doc) => sheetModels(doc)[0]!) as [SheetModel, SheetModel];
        expect(grid(second)).toEqual(grid(first));
        expect([second.rowCount, second.columnCount]).toEqual([first.rowCount, first.columnCount]);
        const shown = grid(first);
        shown.forEach((line, row) =>
          line.forEach((value, column) => {
            const entry = written.get(`${first.rowId(row)} ${first.columnId(column)}`);
            if (!entry) return expect(value).toBe('');
            expect(entry.values.has(value)).toBe(true);
            if (entry.last.size === 1) expect(value).toBe([...entry.last.values()][0]);
          }),
        );
      }),
      { numRuns: 150 },
    );
  });

  it('an undone row or column deletion brings its cells back, imported (blocks) and edited (grid) alike', () => {
    const doc = docFromState(initialContent('spreadsheet'));
    const origin = { user: 'me' };
    const undo = new Y.UndoManager(doc.getArray('sheets'), { trackedOrigins: new Set([origin]), captureTimeout: 0 });
    undo.on('stack-item-popped', ({ stackItem }) => afterUndoStep(doc, stackItem, 'revive'));
    let sheet = sheetModels(doc)[0]!;
    doc.transact(() => {
      sheet.setCell(0, 0, { v: 'top' });
      sheet.setCell(2, 1, { v: 'kept' });
      sheet.setCell(1, 1, { v: 'edited' });
    });
    // a move writes the cells in blocks; then an edit shadows one of them in the grid
    doc.transact(() => {
      appendSheet(doc, 'Other');
      sheet = moveSheet(doc, sheet, 1);
    });
    doc.transact(() => sheet.setCell(1, 1, { v: 'edited again' }));
    const before = grid(sheet);
    expect(before[1]![1]).toBe('edited again');
    expect(before[2]![1]).toBe('kept');
    doc.transact(() => applyStructureEdit(doc, sheet, { kind: 'delete', axis: 'rows', index: 1, count: 2 }), origin);
    expect(sheet.cell(1, 1)).toBeUndefined();
    undo.undo();
    expect(grid(sheet)).toEqual(before);
    doc.transact(() => applyStructureEdit(doc, sheet, { kind: 'delete', axis: 'columns', index: 0, count: 1 }), origin);
    expect(sheet.cell(0, 0)).toBeUndefined();
    undo.undo();
    expect(grid(sheet)).toEqual(before);
    // redo deletes again, undo brings back again
    undo.redo();
    expect(sheet.cell(0, 0)).toBeUndefined();
    undo.undo();
    expect(grid(sheet)).toEqual(before);
    expect(sheet.cell(0, 0)).toEqual<Cell>({ v: 'top' });
  });
});
