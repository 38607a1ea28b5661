import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { docFromState, initialContent } from '../../src/model/content.js';
import type { CellStyle } from '../../src/model/sheets/cell-style.js';
import { applyStructureEdit, sheetModels, type SheetAxis, type SheetModel } from '../../src/model/sheets/sheet-model.js';

/**
 * Whole-row and whole-column styles (docs/SHEETS.md "Cell styles"): keyed by line id, they follow their rows and
 * columns through insertions and deletions as plain arrays of styles would, every cell showing its own style, else
 * its row's, else its column's; two replicas styling lines and editing the structure at once converge.
 */

const SIZE = 6;
const STYLES: readonly CellStyle[] = [{ b: true }, { bg: '#ffeeaa' }, { i: true, c: '#0000ff' }];

type Step =
  | { replica: 0 | 1; kind: 'style'; axis: SheetAxis; index: number; style: CellStyle | undefined }
  | { replica: 0 | 1; kind: 'insert' | 'delete'; axis: SheetAxis; index: number; count: number }
  | { replica: 0 | 1; kind: 'cell'; row: number; column: number; style: CellStyle }
  | { kind: 'sync' };

const replica = fc.constantFrom<0 | 1>(0, 1);
const axis = fc.constantFrom<SheetAxis>('rows', 'columns');
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ replica, kind: fc.constant('style' as const), axis, index: fc.nat(SIZE - 1), style: fc.option(fc.constantFrom(...STYLES), { nil: undefined, freq: 4 }) }) },
  { weight: 3, arbitrary: fc.record({ replica, kind: fc.constantFrom('insert' as const, 'delete' as const), axis, index: fc.nat(SIZE - 1), count: fc.integer({ min: 1, max: 2 }) }) },
  { weight: 1, arbitrary: fc.record({ replica, kind: fc.constant('cell' as const), row: fc.nat(SIZE - 1), column: fc.nat(SIZE - 1), style: fc.constantFrom(...STYLES) }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'sync' as const }) },
);

function sheetOf(doc: Y.Doc): SheetModel {
  return sheetModels(doc)[0]!;
}

function newDoc(): Y.Doc {
  const doc = docFromState(initialContent('spreadsheet'));
  const sheet = sheetOf(doc);
  doc.transact(() => {
    applyStructureEdit(doc, sheet, { kind: 'delete', axis: 'rows', index: SIZE, count: sheet.rowCount - SIZE });
    applyStructureEdit(doc, sheet, { kind: 'delete', axis: 'columns', index: SIZE, count: sheet.columnCount - SIZE });
  });
  return doc;
}

function apply(doc: Y.Doc, one: Exclude<Step, { kind: 'sync' }>): void {
  const sheet = sheetOf(doc);
  const length = (which: SheetAxis) => (which === 'rows' ? sheet.rowCount : sheet.columnCount);
  if (one.kind === 'style') {
    if (one.index < length(one.axis)) doc.transact(() => sheet.setLineStyle(one.axis, one.index, one.style));
  } else if (one.kind === 'cell') {
    if (one.row < sheet.rowCount && one.column < sheet.columnCount) doc.transact(() => sheet.setCell(one.row, one.column, { v: 1, s: one.style }));
  } else if (one.kind === 'insert' || one.index < length(one.axis)) {
    doc.transact(() => applyStructureEdit(doc, sheet, { kind: one.kind, axis: one.axis, index: one.index, count: one.count }));
  }
}

interface Reference {
  rows: Array<CellStyle | undefined>;
  columns: Array<CellStyle | undefined>;
  /** cells' own styles, by row then column */
  cells: Array<Array<CellStyle | undefined>>;
}

/** The reference: plain arrays, every step applied in order. */
function applyReference(reference: Reference, one: Exclude<Step, { kind: 'sync' }>): void {
  if (one.kind === 'cell') {
    if (one.row < reference.rows.length && one.column < reference.columns.length) reference.cells[one.row]![one.column] = one.style;
    return;
  }
  const line = reference[one.axis];
  if (one.kind === 'style') {
    if (one.index < line.length) line[one.index] = one.style;
    return;
  }
  const blank = (count: number) => Array.from({ length: count }, () => undefined);
  if (one.kind === 'insert') {
    line.splice(one.index, 0, ...blank(one.count));
    if (one.axis === 'rows') reference.cells.splice(one.index, 0, ...blank(one.count).map(() => blank(reference.columns.length)));
    else for (const row of reference.cells) row.splice(one.index, 0, ...blank(one.count));
  } else if (one.index < line.length) {
    const count = Math.min(one.count, line.length - one.index, line.length - 1);
    line.splice(one.index, count);
    if (one.axis === 'rows') reference.cells.splice(one.index, count);
    else for (const row of reference.cells) row.splice(one.index, count);
  }
}

/** Every cell's shown style, row by row. */
function shown(sheet: SheetModel): Array<Array<CellStyle | undefined>> {
  return Array.from({ length: sheet.rowCount }, (_, row) => Array.from({ length: sheet.columnCount }, (_, column) => sheet.styleAt(row, column)));
}

describe('row and column styles in the sheet model', () => {
  it('follow insertions and deletions as plain arrays would; a cell shows its own, else its row\'s, else its column\'s', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 30 }), (steps) => {
        const doc = newDoc();
        const blank = () => Array.from({ length: SIZE }, () => undefined);
        const reference: Reference = { rows: blank(), columns: blank(), cells: Array.from({ length: SIZE }, blank) };
        for (const one of steps) {
          if (one.kind === 'sync') continue;
          apply(doc, one);
          applyReference(reference, one);
        }
        const sheet = sheetOf(doc);
        const expected = reference.cells.map((cells, row) => cells.map((own, column) => own ?? reference.rows[row] ?? reference.columns[column]));
        expect(shown(sheet)).toEqual(expected);
        const listed = (line: Array<CellStyle | undefined>) => line.flatMap((style, index) => (style ? [[index, style]] : []));
        expect([...sheet.lineStyles('rows')].sort((a, b) => a[0] - b[0])).toEqual(listed(reference.rows));
        expect([...sheet.lineStyles('columns')].sort((a, b) => a[0] - b[0])).toEqual(listed(reference.columns));
      }),
      { numRuns: 150 },
    );
  });

  it('two replicas styling lines and editing the structure at once converge', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 30 }), (steps) => {
        const first = newDoc();
        const second = docFromState(Y.encodeStateAsUpdate(first));
        const docs = [first, second] as const;
        const sync = () => {
          Y.applyUpdate(second, Y.encodeStateAsUpdate(first, Y.encodeStateVector(second)));
          Y.applyUpdate(first, Y.encodeStateAsUpdate(second, Y.encodeStateVector(first)));
        };
        for (const one of steps) {
          if (one.kind === 'sync') sync();
          else apply(docs[one.replica], one);
        }
        sync();
        expect(shown(sheetOf(second))).toEqual(shown(sheetOf(first)));
        expect([...sheetOf(second).lineStyles('rows')].sort((a, b) => a[0] - b[0])).toEqual([...sheetOf(first).lineStyles('rows')].sort((a, b) => a[0] - b[0]));
      }),
      { numRuns: 100 },
    );
  });
});
