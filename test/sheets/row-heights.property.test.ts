import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { docFromState, initialContent } from '../../src/model/content.js';
import { afterUndoStep, applyStructureEdit, moveSheet, appendSheet, sheetModels, MAX_ROW_HEIGHT, MIN_ROW_HEIGHT, type SheetModel } from '../../src/model/sheets/sheet-model.js';
import { RowHeightIndex } from '../../web/shared/grid/row-heights.js';

/**
 * Row heights (issue 24 point 4): stored by row id, they follow their rows through anyone's insertions and
 * deletions; two replicas setting heights and editing the structure concurrently converge; the grid's height index
 * places rows as a plain array of every row's height would.
 */

const ROWS = 8;

type Step =
  | { replica: 0 | 1; kind: 'height'; row: number; height: number | undefined }
  | { replica: 0 | 1; kind: 'insert' | 'delete'; index: number; count: number }
  | { kind: 'sync' };

const replica = fc.constantFrom<0 | 1>(0, 1);
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ replica, kind: fc.constant('height' as const), row: fc.nat(ROWS - 1), height: fc.option(fc.integer({ min: MIN_ROW_HEIGHT, max: MAX_ROW_HEIGHT }), { nil: undefined, freq: 4 }) }) },
  { weight: 2, arbitrary: fc.record({ replica, kind: fc.constantFrom('insert' as const, 'delete' as const), index: fc.nat(ROWS - 1), count: fc.integer({ min: 1, max: 3 }) }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'sync' as const }) },
);

function sync(a: Y.Doc, b: Y.Doc): void {
  Y.applyUpdate(b, Y.encodeStateAsUpdate(a, Y.encodeStateVector(b)));
  Y.applyUpdate(a, Y.encodeStateAsUpdate(b, Y.encodeStateVector(a)));
}

function sheetOf(doc: Y.Doc): SheetModel {
  return sheetModels(doc)[0]!;
}

/** Every row's height as the model reads it one by one (undefined: the content decides). */
function heights(sheet: SheetModel): Array<number | undefined> {
  return Array.from({ length: sheet.rowCount }, (_, row) => sheet.rowHeight(row));
}

/** The same read through rowHeights(), the map the grid takes. */
function heightsFromMap(sheet: SheetModel): Array<number | undefined> {
  const map = sheet.rowHeights();
  return Array.from({ length: sheet.rowCount }, (_, row) => map.get(row));
}

function newDoc(): Y.Doc {
  const doc = docFromState(initialContent('spreadsheet'));
  doc.transact(() => applyStructureEdit(doc, sheetOf(doc), { kind: 'delete', axis: 'rows', index: ROWS, count: sheetOf(doc).rowCount - ROWS }));
  return doc;
}

function apply(doc: Y.Doc, one: Exclude<Step, { kind: 'sync' }>): void {
  const sheet = sheetOf(doc);
  if (one.kind === 'height') {
    if (one.row < sheet.rowCount) doc.transact(() => sheet.setRowHeight(one.row, one.height));
    return;
  }
  if (one.kind === 'delete' && one.index >= sheet.rowCount) return;
  doc.transact(() => applyStructureEdit(doc, sheet, { kind: one.kind, axis: 'rows', index: one.index, count: one.count }));
}

/** The reference: a plain array of heights, every step applied in order. */
function applyReference(reference: Array<number | undefined>, one: Exclude<Step, { kind: 'sync' }>): void {
  if (one.kind === 'height') {
    if (one.row < reference.length) reference[one.row] = one.height;
    return;
  }
  if (one.kind === 'insert') reference.splice(one.index, 0, ...Array.from({ length: one.count }, () => undefined));
  else if (one.index < reference.length) reference.splice(one.index, Math.min(one.count, reference.length - one.index, reference.length - 1));
}

describe('row heights in the sheet model', () => {
  it('follow row insertions and deletions as a plain array would, read one by one and as a map', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 30 }), (steps) => {
        const doc = newDoc();
        const reference: Array<number | undefined> = Array.from({ length: ROWS }, () => undefined);
        for (const one of steps) {
          if (one.kind === 'sync') continue;
          apply(doc, one);
          applyReference(reference, one);
          expect(heights(sheetOf(doc))).toEqual(reference);
        }
        expect(heightsFromMap(sheetOf(doc))).toEqual(reference);
      }),
      { numRuns: 150 },
    );
  });

  it('converge between two replicas editing concurrently, each height staying on the row it was set on', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 30 }), (steps) => {
        const a = newDoc();
        const b = new Y.Doc();
        Y.applyUpdate(b, Y.encodeStateAsUpdate(a));
        const docs = [a, b];
        for (const one of steps) {
          if (one.kind === 'sync') sync(a, b);
          else apply(docs[one.replica]!, one);
        }
        sync(a, b);
        expect(heights(sheetOf(a))).toEqual(heights(sheetOf(b)));
        expect(heightsFromMap(sheetOf(a))).toEqual(heights(sheetOf(a)));
      }),
      { numRuns: 150 },
    );
  });

  it('a height set on one replica shows on the row the other replica moved down', () => {
    const a = newDoc();
    const b = new Y.Doc();
    Y.applyUpdate(b, Y.encodeStateAsUpdate(a));
    a.transact(() => sheetOf(a).setRowHeight(3, 60));
    b.transact(() => applyStructureEdit(b, sheetOf(b), { kind: 'insert', axis: 'rows', index: 0, count: 2 }));
    sync(a, b);
    expect(sheetOf(a).rowHeight(5)).toBe(60);
    expect(sheetOf(b).rowHeight(5)).toBe(60);
    expect([...sheetOf(b).rowHeights()]).toEqual([[5, 60]]);
  });

  it('comes back with its rows when their deletion is undone, and moves with a sheet', () => {
    const doc = newDoc();
    const origin = { test: 'undo' };
    appendSheet(doc, 'Second');
    const undo = new Y.UndoManager(doc.getArray('sheets'), { trackedOrigins: new Set([origin]), captureTimeout: 0 });
    undo.on('stack-item-popped', ({ stackItem }) => afterUndoStep(doc, stackItem, { revive: true }));
    doc.transact(() => sheetOf(doc).setRowHeight(2, 80), origin);
    doc.transact(() => applyStructureEdit(doc, sheetOf(doc), { kind: 'delete', axis: 'rows', index: 1, count: 3 }), origin);
    expect(sheetOf(doc).rowHeights().size).toBe(0);
    undo.undo();
    expect(sheetOf(doc).rowHeight(2)).toBe(80);
    doc.transact(() => moveSheet(doc, sheetOf(doc), 1));
    expect(sheetModels(doc)[1]!.rowHeight(2)).toBe(80);
  });

  it('leaves out what a broken client stored', () => {
    const doc = newDoc();
    const sheet = sheetOf(doc);
    doc.transact(() => sheet.setRowHeight(1, 40));
    const stored = (doc.getArray('sheets').get(0) as Y.Map<unknown>).get('rowHeights') as Y.Map<unknown>;
    doc.transact(() => {
      stored.set(sheet.rowId(2)!, 'tall');
      stored.set(sheet.rowId(3)!, MAX_ROW_HEIGHT + 1);
      stored.set('not-a-row', 30);
    });
    expect([...sheet.rowHeights()]).toEqual([[1, 40]]);
    expect(sheet.rowHeight(2)).toBeUndefined();
  });
});

describe('the grid\'s row height index', () => {
  const DEFAULT = 24;
  const layout = fc.record({
    rows: fc.integer({ min: 1, max: 60 }),
    own: fc.array(fc.tuple(fc.nat(70), fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 120 }))), { maxLength: 20 }),
  });

  it('places every row and finds the row under every y as a plain array of heights does', () => {
    fc.assert(
      fc.property(layout, fc.array(fc.integer({ min: -10, max: 4000 }), { maxLength: 20 }), ({ rows, own }, ys) => {
        const map = new Map(own);
        const index = new RowHeightIndex(DEFAULT, rows, map);
        const plain = Array.from({ length: rows }, (_, row) => map.get(row) ?? DEFAULT);
        let top = 0;
        for (let row = 0; row < rows; row++) {
          expect(index.top(row)).toBe(top);
          expect(index.heightOf(row)).toBe(plain[row]);
          top += plain[row]!;
        }
        expect(index.total).toBe(top);
        for (const y of ys) {
          const found = index.rowAt(y);
          // the drawn row whose band holds y; past the end the last row; at or before 0 the first drawn one
          let expected = plain.findIndex((height, row) => height > 0 && index.top(row) <= y && y < index.top(row) + height);
          if (expected === -1) expected = y <= 0 ? Math.max(0, plain.findIndex((height) => height > 0)) : rows - 1;
          if (y >= top) expected = rows - 1;
          expect(found).toBe(expected === -1 ? 0 : expected);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('stays a few hundred entries for a million rows', () => {
    const own = new Map(Array.from({ length: 300 }, (_, i) => [i * 3000 + 7, 60] as [number, number]));
    const index = new RowHeightIndex(DEFAULT, 1_048_576, own);
    expect(index.total).toBe(1_048_576 * DEFAULT + 300 * (60 - DEFAULT));
    const y = index.top(600_000) + 5;
    expect(index.rowAt(y)).toBe(600_000);
  });
});
