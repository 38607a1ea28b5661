import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { docFromState, initialContent } from '../../src/model/content.js';
import { shownOf } from '../../src/model/sheets/layout.js';
import { applyStructureEdit, sheetModels, type SheetModel } from '../../src/model/sheets/sheet-model.js';
import { sortedCells, sortProblem, writeSortedCells } from '../../src/model/sheets/sort.js';
import { hiddenOf, setHidden } from '../../src/model/sheets/hidden.js';
import { currentRegion, filteredRows, filterOf, parseColumnFilter, passesFilter, setColumnFilter, setFilterArea } from '../../src/model/sheets/filter.js';

/** Sort and filter in the sheet model (docs/SHEETS.md "Sort and filter"): orders, stability, formulas, criteria, structure edits. */

function sheetWith(rows: Array<Array<string | number | boolean | null>>): { doc: ReturnType<typeof docFromState>; sheet: SheetModel } {
  const doc = docFromState(initialContent('spreadsheet'));
  const sheet = sheetModels(doc)[0]!;
  doc.transact(() => rows.forEach((line, row) => line.forEach((value, column) => value !== null && sheet.setCell(row, column, { v: value }))));
  return { doc, sheet };
}

const shownIn = (sheet: SheetModel) => (row: number, column: number) => {
  const cell = sheet.cell(row, column);
  return shownOf(cell?.v ?? undefined, cell?.z);
};

const value = fc.oneof(fc.integer({ min: -50, max: 50 }), fc.constantFrom('apple', 'Banana', 'cherry', 'APPLE', ''), fc.boolean(), fc.constant(null));

describe('sorting an area', () => {
  it('is a stable permutation of the rows, numbers < text < booleans, blanks last in both directions', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(value, fc.integer()), { minLength: 1, maxLength: 25 }), fc.boolean(), (lines, descending) => {
        // column B labels each row with its original position, so the permutation and its stability can be read back
        const { doc, sheet } = sheetWith([['key', 'label'], ...lines.map(([key], index) => [key, index])]);
        const area = { startRow: 0, endRow: lines.length, startColumn: 0, endColumn: 1 };
        expect(sortProblem(sheet, area, [{ column: 0, descending }])).toBeUndefined();
        doc.transact(() => writeSortedCells(sheet, area, sortedCells(sheet, area, [{ column: 0, descending }], true, shownIn(sheet))));
        expect(sheet.cell(0, 0)?.v).toBe('key');
        const labels = lines.map((_, index) => sheet.cell(index + 1, 1)?.v as number);
        expect([...labels].sort((a, b) => a - b)).toEqual(lines.map((_, index) => index));
        const rank = (key: unknown) => (key === null || key === '' ? 4 : typeof key === 'number' ? 0 : typeof key === 'string' ? 1 : 2);
        for (let k = 1; k < labels.length; k++) {
          const a = lines[labels[k - 1]!]![0];
          const b = lines[labels[k]!]![0];
          const [ra, rb] = [rank(a), rank(b)];
          if (ra === 4 || rb === 4) {
            expect(ra <= rb).toBe(true);
            continue;
          }
          const order = ra !== rb ? ra - rb : typeof a === 'string' ? a.localeCompare(b as string, undefined, { sensitivity: 'base' }) : Number(a) - Number(b);
          const directed = descending ? -order : order;
          expect(directed).toBeLessThanOrEqual(0);
          if (directed === 0) expect(labels[k - 1]!).toBeLessThan(labels[k]!);
        }
      }),
    );
  });

  it('moves formulas with their row, relative references following, and refuses areas over a merge', () => {
    const { doc, sheet } = sheetWith([[3], [1], [2]]);
    doc.transact(() => {
      for (let row = 0; row < 3; row++) sheet.setCell(row, 1, { f: `=A${row + 1}*10`, s: { b: true } });
      sheet.addMerge({ startRow: 5, endRow: 6, startColumn: 0, endColumn: 0 });
    });
    const area = { startRow: 0, endRow: 2, startColumn: 0, endColumn: 1 };
    doc.transact(() => writeSortedCells(sheet, area, sortedCells(sheet, area, [{ column: 0 }], false, shownIn(sheet))));
    expect([0, 1, 2].map((row) => sheet.cell(row, 0)?.v)).toEqual([1, 2, 3]);
    expect([0, 1, 2].map((row) => sheet.cell(row, 1))).toEqual([
      { f: '=A1*10', s: { b: true } },
      { f: '=A2*10', s: { b: true } },
      { f: '=A3*10', s: { b: true } },
    ]);
    expect(sortProblem(sheet, { startRow: 0, endRow: 9, startColumn: 0, endColumn: 1 }, [{ column: 0 }])).toBe('merged');
    expect(sortProblem(sheet, { startRow: 0, endRow: 2, startColumn: 0, endColumn: 1 }, [{ column: 4 }])).toBe('keyOutside');
  });
});

describe('the filter', () => {
  it('hides the rows a criterion refuses, by value list and by condition, header kept', () => {
    const { doc, sheet } = sheetWith([
      ['Fruit', 'Count'],
      ['apple', 5],
      ['pear', 12],
      ['apple', 30],
      [null, 7],
    ]);
    expect(currentRegion(sheet, 2, 1)).toEqual({ startRow: 0, endRow: 4, startColumn: 0, endColumn: 1 });
    doc.transact(() => setFilterArea(sheet, currentRegion(sheet, 0, 0)));
    expect(filteredRows(sheet, shownIn(sheet))).toEqual([]);
    doc.transact(() => setColumnFilter(sheet, 0, { values: ['apple', ''] }));
    expect(filteredRows(sheet, shownIn(sheet))).toEqual([2]);
    doc.transact(() => setColumnFilter(sheet, 1, { condition: { op: 'ge', value: 7 } }));
    expect(filteredRows(sheet, shownIn(sheet))).toEqual([1, 2]);
    doc.transact(() => setColumnFilter(sheet, 0, undefined));
    expect(filteredRows(sheet, shownIn(sheet))).toEqual([1]);
  });

  it('checks criteria: unknown operators, non-finite numbers, non-text values are refused; empty ones keep everything', () => {
    expect(parseColumnFilter({ condition: { op: 'like', value: 'a' } })).toBeUndefined();
    expect(parseColumnFilter({ condition: { op: 'gt', value: Infinity } })).toBeUndefined();
    expect(parseColumnFilter({ values: [1, 2] })).toBeUndefined();
    expect(parseColumnFilter({})).toBeUndefined();
    expect(parseColumnFilter({ values: ['a', 'a'], extra: 1 })).toEqual({ values: ['a'] });
    const text = (value: string) => shownOf(value, undefined);
    expect(passesFilter(text('Quarterly report'), { condition: { op: 'contains', value: 'REPORT' } })).toBe(true);
    expect(passesFilter(text('Quarterly report'), { condition: { op: 'beginsWith', value: 'report' } })).toBe(false);
    expect(passesFilter(shownOf(10, undefined), { condition: { op: 'gt', value: '9' } })).toBe(true);
  });

  it('follows row and column insertions and deletions with its area and criteria', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ kind: fc.constantFrom('insert' as const, 'delete' as const), axis: fc.constantFrom('rows' as const, 'columns' as const), index: fc.nat(8), count: fc.integer({ min: 1, max: 2 }) }), { maxLength: 6 }),
        (edits) => {
          // a 6 × 4 table at B2 whose column D keeps "x": the labelled cells say where the criterion's column went
          const { doc, sheet } = sheetWith([]);
          doc.transact(() => {
            for (let row = 1; row <= 6; row++) for (let column = 1; column <= 4; column++) sheet.setCell(row, column, { v: column === 3 ? 'x' : `${row}` });
            setFilterArea(sheet, { startRow: 1, endRow: 6, startColumn: 1, endColumn: 4 });
            setColumnFilter(sheet, 3, { values: ['x'] });
          });
          for (const edit of edits) doc.transact(() => applyStructureEdit(doc, sheet, edit));
          const filter = filterOf(sheet);
          if (!filter) return;
          for (const [column] of filter.columns) expect(sheet.cell(filter.area.startRow, column)?.v).toBe('x');
          // rows inserted inside the area are blank there, so hidden; every original row still shows
          const hidden = [];
          for (let row = filter.area.startRow + 1; row <= filter.area.endRow; row++) if (filter.columns.size > 0 && sheet.cell(row, [...filter.columns.keys()][0]!)?.v !== 'x') hidden.push(row);
          expect(filteredRows(sheet, shownIn(sheet))).toEqual(hidden);
        },
      ),
    );
  });
});

describe('hidden rows and columns', () => {
  it('move with insertions and deletions on their axis as the cells do, and go with deleted ones', () => {
    const axis = fc.constantFrom('rows' as const, 'columns' as const);
    const edits = fc.array(fc.record({ kind: fc.constantFrom('insert' as const, 'delete' as const), index: fc.nat(8), count: fc.integer({ min: 1, max: 2 }) }), { maxLength: 6 });
    fc.assert(
      fc.property(axis, edits, (along, steps) => {
        // lines 2 and 5 hidden; every line's first cell labels it, so where the hidden ones went can be read back
        const { doc, sheet } = sheetWith([]);
        const at = (line: number) => (along === 'rows' ? sheet.cell(line, 0) : sheet.cell(0, line));
        doc.transact(() => {
          for (let line = 0; line < 8; line++) (along === 'rows' ? sheet.setCell(line, 0, { v: `L${line}` }) : sheet.setCell(0, line, { v: `L${line}` }));
          setHidden(sheet, along, 2, 2, true);
          setHidden(sheet, along, 5, 5, true);
        });
        for (const step of steps) doc.transact(() => applyStructureEdit(doc, sheet, { ...step, axis: along }));
        const labelled: number[] = [];
        const size = along === 'rows' ? sheet.rowCount : sheet.columnCount;
        for (let line = 0; line < size; line++) if (at(line)?.v === 'L2' || at(line)?.v === 'L5') labelled.push(line);
        expect(hiddenOf(sheet, along)).toEqual(labelled);
      }),
    );
  });

  it('unhides only what the range covers', () => {
    const { doc, sheet } = sheetWith([]);
    doc.transact(() => setHidden(sheet, 'rows', 1, 4, true));
    doc.transact(() => setHidden(sheet, 'rows', 3, 9, false));
    expect(hiddenOf(sheet, 'rows')).toEqual([1, 2]);
    doc.transact(() => applyStructureEdit(doc, sheet, { kind: 'delete', axis: 'rows', index: 0, count: 2 }));
    expect(hiddenOf(sheet, 'rows')).toEqual([0]);
    doc.transact(() => applyStructureEdit(doc, sheet, { kind: 'insert', axis: 'columns', index: 0, count: 2 }));
    expect(hiddenOf(sheet, 'rows')).toEqual([0]);
  });
});
