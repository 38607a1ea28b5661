import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { docFromState, initialContent, SHEET_BLOCKS, SHEET_MODEL_VERSION, sheetsOf, type Cell } from '../../src/model/content.js';
import { calculationOf } from '../../src/model/sheets/formulas/index.js';
import { appendSheet, applyStructureEdit, moveSheet, observeSheets, sheetIds, sheetModels, spreadsheetModelVersion, upgradeSpreadsheet, type SheetChanges } from '../../src/model/sheets/sheet-model.js';

/**
 * The sheet model (src/model/sheets/sheet-model.ts) against a reference: a plain map of positions to cells with
 * the grid's size, changed by the same random cell writes and row/column insertions and deletions.
 */

type Operation =
  | { kind: 'set'; row: number; column: number; cell: Cell | null }
  | { kind: 'insert' | 'delete'; axis: 'rows' | 'columns'; index: number; count: number };

const GRID = 12;
const cellValue = fc.oneof(fc.integer({ min: -1000, max: 1000 }), fc.string({ maxLength: 4 }), fc.boolean());
const storedCell: fc.Arbitrary<Cell | null> = fc.oneof(
  fc.constant(null),
  cellValue.map((v): Cell => ({ v })),
  fc.record({ v: cellValue, z: fc.constantFrom('0.00', '0%') }, { noNullPrototype: true }),
  fc.constant<Cell>({ s: { b: true } }),
);
const operation: fc.Arbitrary<Operation> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('set' as const), row: fc.nat(GRID), column: fc.nat(GRID), cell: storedCell }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constantFrom('insert' as const, 'delete' as const), axis: fc.constantFrom('rows' as const, 'columns' as const), index: fc.nat(GRID), count: fc.integer({ min: 1, max: 3 }) }) },
);

interface Reference {
  cells: Map<string, Cell>;
  rows: number;
  columns: number;
}

function applyToReference(reference: Reference, op: Operation): void {
  if (op.kind === 'set') {
    const key = `${op.row},${op.column}`;
    if (op.cell === null) reference.cells.delete(key);
    else reference.cells.set(key, op.cell);
    reference.rows = Math.max(reference.rows, op.row + 1);
    reference.columns = Math.max(reference.columns, op.column + 1);
    return;
  }
  const moved = new Map<string, Cell>();
  for (const [key, cell] of reference.cells) {
    const [row, column] = key.split(',').map(Number) as [number, number];
    const at = op.axis === 'rows' ? row : column;
    let to = at;
    if (at >= op.index) {
      if (op.kind === 'delete' && at < op.index + op.count) continue;
      to = op.kind === 'insert' ? at + op.count : at - op.count;
    }
    moved.set(op.axis === 'rows' ? `${to},${column}` : `${row},${to}`, cell);
  }
  reference.cells = moved;
  const size = op.axis === 'rows' ? 'rows' : 'columns';
  reference[size] = op.kind === 'insert' ? reference[size] + op.count : Math.max(1, reference[size] - op.count);
}

/** The operation as the model takes it: a deletion cut to the grid, as its callers (values API, editor) cut it. */
function checked(op: Operation, rows: number, columns: number): Operation | undefined {
  if (op.kind !== 'delete') return op;
  const size = op.axis === 'rows' ? rows : columns;
  const count = Math.min(op.count, size - op.index, size - 1);
  return count > 0 ? { ...op, count } : undefined;
}

function cellsOf(doc: Y.Doc): Map<string, Cell> {
  const found = new Map<string, Cell>();
  sheetModels(doc)[0]!.forEachCell((row, column, cell) => found.set(`${row},${column}`, cell));
  return found;
}

describe('SheetModel', () => {
  it('cell writes and row/column insertions and deletions read back as the reference model has them', () => {
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 40 }), (operations) => {
        const doc = docFromState(initialContent('spreadsheet'));
        const sheet = sheetModels(doc)[0]!;
        const reference: Reference = { cells: new Map(), rows: sheet.rowCount, columns: sheet.columnCount };
        for (const raw of operations) {
          const op = checked(raw, reference.rows, reference.columns);
          if (!op) continue;
          doc.transact(() => {
            if (op.kind === 'set') {
              sheet.setCell(op.row, op.column, op.cell);
              sheet.growTo(op.row + 1, op.column + 1);
            } else applyStructureEdit(doc, sheet, op);
          });
          applyToReference(reference, op);
        }
        expect(cellsOf(doc)).toEqual(reference.cells);
        expect([sheet.rowCount, sheet.columnCount]).toEqual([reference.rows, reference.columns]);
        // an area read gives the same cells as filtering the whole sheet, whichever way it visits them
        const area = { startRow: 1, endRow: 3, startColumn: 2, endColumn: 4 };
        const inArea = new Map<string, Cell>();
        sheet.forEachCell((row, column, cell) => inArea.set(`${row},${column}`, cell), area);
        const expected = [...reference.cells].filter(([key]) => {
          const [row, column] = key.split(',').map(Number) as [number, number];
          return row >= 1 && row <= 3 && column >= 2 && column <= 4;
        });
        expect(inArea).toEqual(new Map(expected));
        // a second replica that receives the document's state reads the same
        const replica = docFromState(Y.encodeStateAsUpdate(doc));
        expect(cellsOf(replica)).toEqual(reference.cells);
      }),
      { numRuns: 100 },
    );
  });

  it('a structure edit moves formulas on every sheet with the cells they read, and the sheet\'s log records it', () => {
    const doc = docFromState(initialContent('spreadsheet'));
    const first = sheetModels(doc)[0]!;
    doc.transact(() => {
      first.setCell(0, 0, { v: 2 });
      first.setCell(4, 0, { v: 3 });
      first.setCell(5, 1, { f: '=A1*A5', z: '0.00' });
      const other = appendSheet(doc, 'Other', 'other');
      other.setCell(0, 0, { f: '=Sheet1!A5+1' });
    });
    doc.transact(() => applyStructureEdit(doc, first, { kind: 'insert', axis: 'rows', index: 2, count: 3 }));
    expect(first.cell(7, 0)).toEqual({ v: 3 });
    expect(first.cell(8, 1)).toEqual({ f: '=A1*A8', z: '0.00' });
    expect(sheetModels(doc)[1]!.cell(0, 0)).toEqual({ f: '=Sheet1!A8+1' });
    expect(first.structureEdits()).toEqual([{ kind: 'insert', axis: 'rows', index: 2, count: 3 }]);
    expect(calculationOf(doc).value(sheetIds(doc)[1]!, 0, 0)).toBe(4);
    doc.transact(() => applyStructureEdit(doc, first, { kind: 'delete', axis: 'rows', index: 7, count: 1 }));
    expect(first.cell(7, 1)).toEqual({ f: '=A1*#REF!', z: '0.00' });
  });

  it('a formula read again after rows or columns moved it reads in A1 at its new place (its stored text unchanged)', () => {
    const doc = docFromState(initialContent('spreadsheet'));
    const sheet = sheetModels(doc)[0]!;
    doc.transact(() => sheet.setCell(5, 1, { f: '=A5*2' }));
    // read first: the A1 form is kept with the stored cell for the place it was read at
    expect(sheet.cell(5, 1)).toEqual({ f: '=A5*2' });
    expect(sheet.cell(5, 1)).toBe(sheet.cell(5, 1));
    doc.transact(() => applyStructureEdit(doc, sheet, { kind: 'insert', axis: 'rows', index: 2, count: 3 }));
    expect(sheet.cell(8, 1)).toEqual({ f: '=A8*2' });
    doc.transact(() => applyStructureEdit(doc, sheet, { kind: 'insert', axis: 'columns', index: 0, count: 1 }));
    expect(sheet.cell(8, 2)).toEqual({ f: '=B8*2' });
    doc.transact(() => applyStructureEdit(doc, sheet, { kind: 'delete', axis: 'rows', index: 0, count: 3 }));
    expect(sheet.cell(5, 2)).toEqual({ f: '=B5*2' });
  });

  it('tells observers which cells changed, and that a sheet was added, renamed or moved', () => {
    const doc = docFromState(initialContent('spreadsheet'));
    const sheet = sheetModels(doc)[0]!;
    const seen: SheetChanges[] = [];
    const stop = observeSheets(doc, (changes) => seen.push(changes));
    doc.transact(() => {
      sheet.setCell(3, 2, { v: 'x' });
      sheet.setCell(0, 0, { v: 1 });
    });
    expect(seen.at(-1)).toMatchObject({ sheets: false, layout: false });
    expect(seen.at(-1)!.cells.map(({ sheet: changed, row, column }) => [changed === sheet, row, column]).sort()).toEqual([[true, 0, 0], [true, 3, 2]]);
    doc.transact(() => sheet.setColumnWidth(1, 150));
    expect(seen.at(-1)).toMatchObject({ sheets: false, layout: true, cells: [] });
    doc.transact(() => sheet.rename('Renamed'));
    expect(seen.at(-1)).toMatchObject({ sheets: true });
    let added = sheet;
    doc.transact(() => (added = appendSheet(doc, 'Second')));
    expect(seen.at(-1)).toMatchObject({ sheets: true });
    const addedId = added.id;
    let moved = added;
    doc.transact(() => (moved = moveSheet(doc, added, 0)));
    expect(sheetModels(doc).map((each) => each.name)).toEqual(['Second', 'Renamed']);
    expect(moved.id).toBe(addedId);
    expect(sheetModels(doc)[0]).toBe(moved);
    stop();
    const count = seen.length;
    doc.transact(() => sheet.setCell(9, 9, { v: 9 }));
    expect(seen).toHaveLength(count);
  });

  it('rewriteCells stores what setCell on each cell, row by row, would: over blocks, grid entries and past the grid', () => {
    // a few cells close together, so that blocks, grid entries and the rewrite often meet on one cell
    const placed = fc.record({ row: fc.nat(4), column: fc.nat(4), cell: storedCell });
    // a rectangle near the top, or across the default sheet's last rows (1000) and columns (26): the grid grows
    const area = fc.record({
      startRow: fc.constantFrom(0, 1, 2, 996, 998),
      height: fc.integer({ min: 1, max: 5 }),
      startColumn: fc.oneof(fc.nat(3), fc.integer({ min: 23, max: 27 })),
      width: fc.integer({ min: 1, max: 4 }),
    });
    const answer = fc.oneof(fc.constant(undefined), storedCell);
    fc.assert(
      fc.property(fc.array(placed, { maxLength: 30 }), fc.array(placed, { maxLength: 10 }), area, fc.array(answer, { minLength: 1, maxLength: 20 }), (blocked, edited, shape, answers) => {
        const doc = docFromState(initialContent('spreadsheet'));
        // cells in `blocks` (a moved sheet is written so), then one-cell edits over them in `grid`
        doc.transact(() => {
          const seeded = appendSheet(doc, 'Seeded');
          for (const { row, column, cell } of blocked) seeded.setCell(row, column, cell);
          moveSheet(doc, seeded, 0);
        });
        if (blocked.some(({ cell }) => cell !== null)) expect(sheetsOf(doc).get(0).get(SHEET_BLOCKS)).toBeInstanceOf(Y.Map);
        doc.transact(() => {
          for (const { row, column, cell } of edited) sheetModels(doc)[0]!.setCell(row, column, cell);
        });
        const reference = docFromState(Y.encodeStateAsUpdate(doc));
        const rectangle = { startRow: shape.startRow, endRow: shape.startRow + shape.height - 1, startColumn: shape.startColumn, endColumn: shape.startColumn + shape.width - 1 };
        // what the cells must be afterwards: as before, with each answer stored (null: removed)
        const wanted = cellsOf(doc);
        let asked = 0;
        const given: Array<[number, number, Cell | undefined]> = [];
        doc.transact(() =>
          sheetModels(doc)[0]!.rewriteCells(rectangle, (row, column, stored) => {
            given.push([row, column, stored]);
            const cell = answers[asked++ % answers.length];
            if (cell === null) wanted.delete(`${row},${column}`);
            else if (cell !== undefined) wanted.set(`${row},${column}`, cell);
            return cell;
          }),
        );
        const expected: Array<[number, number, Cell | undefined]> = [];
        reference.transact(() => {
          const sheet = sheetModels(reference)[0]!;
          let index = 0;
          for (let row = rectangle.startRow; row <= rectangle.endRow; row++) {
            for (let column = rectangle.startColumn; column <= rectangle.endColumn; column++) {
              expected.push([row, column, sheet.cell(row, column)]);
              const cell = answers[index++ % answers.length];
              if (cell !== undefined) sheet.setCell(row, column, cell);
            }
          }
        });
        expect(given).toEqual(expected);
        expect(cellsOf(doc)).toEqual(wanted);
        expect(cellsOf(reference)).toEqual(wanted);
        const [written, cellByCell] = [sheetModels(doc)[0]!, sheetModels(reference)[0]!];
        expect([written.rowCount, written.columnCount]).toEqual([cellByCell.rowCount, cellByCell.columnCount]);
      }),
      { numRuns: 100 },
    );
  });

  it('converts documents of the first model version (cells keyed "row:column" in one map) with nothing lost, once', () => {
    // the stored form docs/CONTENT-MODEL.md describes, written by hand as a v1 client wrote it
    const doc = new Y.Doc();
    const sheet = new Y.Map<unknown>();
    doc.getArray('sheets').push([sheet]);
    sheet.set('id', 'v1-sheet');
    sheet.set('name', 'Old');
    sheet.set('rowCount', 40);
    sheet.set('columnCount', 6);
    sheet.set('cells', new Y.Map<unknown>([['0:0', { v: 'Name' }], ['1:0', { v: 3, z: '0.00' }], ['2:0', { f: '=A2*2' }], ['5:3', { s: { bg: '#fff3bf' } }], ['junk', { v: 'not a cell' }]]));
    sheet.set('columnWidths', new Y.Map<number>([['1', 180]]));
    sheet.set('frozenRows', 1);
    const opened = docFromState(Y.encodeStateAsUpdate(doc));
    expect(spreadsheetModelVersion(opened)).toBe(1);
    expect(upgradeSpreadsheet(opened)).toBe(true);
    expect(spreadsheetModelVersion(opened)).toBe(SHEET_MODEL_VERSION);
    expect(upgradeSpreadsheet(opened)).toBe(false);
    const model = sheetModels(opened)[0]!;
    expect([model.id, model.name, model.rowCount, model.columnCount, model.frozenRows, model.columnWidth(1), model.columnWidth(2)]).toEqual(['v1-sheet', 'Old', 40, 6, 1, 180, 100]);
    expect(cellsOf(opened)).toEqual(new Map<string, Cell>([['0,0', { v: 'Name' }], ['1,0', { v: 3, z: '0.00' }], ['2,0', { f: '=A2*2' }], ['5,3', { s: { bg: '#fff3bf' } }]]));
    expect(model.extent()).toEqual({ lastRow: 5, lastColumn: 3 });
    expect(calculationOf(opened).value('v1-sheet', 2, 0)).toBe(6);
  });
});
