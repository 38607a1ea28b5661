import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { docFromState, initialContent } from '../../src/model/content.js';
import { shownOf } from '../../src/model/sheets/layout.js';
import { applyStructureEdit, sheetModels, type SheetModel } from '../../src/model/sheets/sheet-model.js';
import {
  addConditionalRule,
  ConditionalLookReader,
  conditionalLooks,
  conditionalRulesOf,
  parseConditionalRule,
  removeConditionalRule,
  type ConditionalCondition,
  type ConditionalRule,
  shownCellsOf,
  type ShownCells,
} from '../../src/model/sheets/conditional-formats.js';
import type { CellArea } from '../../src/model/sheets/cell-area.js';

/** Conditional formats in the sheet model (docs/SHEETS.md "Conditional formatting"): the evaluator, storage, structure edits. */

function sheetWith(rows: Array<Array<string | number | boolean | null>>): { doc: ReturnType<typeof docFromState>; sheet: SheetModel } {
  const doc = docFromState(initialContent('spreadsheet'));
  const sheet = sheetModels(doc)[0]!;
  doc.transact(() => rows.forEach((line, row) => line.forEach((value, column) => value !== null && sheet.setCell(row, column, { v: value }))));
  return { doc, sheet };
}

const cellsOfSheet = (sheet: SheetModel): ShownCells =>
  shownCellsOf(sheet, (row, column) => {
    const cell = sheet.cell(row, column);
    return shownOf(cell?.v ?? undefined, cell?.z);
  });

const column = (rows: number): CellArea => ({ startRow: 0, endRow: rows - 1, startColumn: 0, endColumn: 0 });
const RED = { fill: '#ff0000' };
const rule = (condition: ConditionalCondition, ranges: CellArea[], priority = 0, id = `r${priority}`): ConditionalRule => ({ ...condition, id, ranges, priority });

function marked(sheet: SheetModel, rules: ConditionalRule[]): string[] {
  return [...conditionalLooks(rules, cellsOfSheet(sheet)).keys()].sort();
}

describe('the evaluator', () => {
  it('kept up to date cell by cell, it answers the looks a fresh reading of the sheet gives, after any edits', () => {
    const value = fc.oneof(fc.integer({ min: -5, max: 5 }), fc.double({ min: -10, max: 10, noNaN: true }), fc.constantFrom('a', 'A', 'b', '', true), fc.constant(null));
    const conditions: ConditionalCondition[] = [
      { type: 'cellValue', op: 'gt', value: 1, format: RED },
      { type: 'text', op: 'contains', text: 'a', format: { bold: true } },
      { type: 'topBottom', bottom: false, percent: true, rank: 30, format: { fill: '#00ff00' } },
      { type: 'topBottom', bottom: true, percent: false, rank: 3, format: { color: '#0000ff' } },
      { type: 'average', below: true, format: { italic: true } },
      { type: 'duplicates', unique: false, format: RED },
      { type: 'colorScale', points: [{ kind: 'min', color: '#ff0000' }, { kind: 'percentile', value: 50, color: '#ffff00' }, { kind: 'max', color: '#00ff00' }] },
      { type: 'dataBar', color: '#638ec6', min: { kind: 'min' }, max: { kind: 'max' } },
    ];
    // areas over the 6 × 3 grid: some rules share theirs, some overlap
    const area = fc.record({ startRow: fc.integer({ min: 0, max: 5 }), startColumn: fc.integer({ min: 0, max: 2 }) }).chain(({ startRow, startColumn }) =>
      fc.record({ startRow: fc.constant(startRow), startColumn: fc.constant(startColumn), endRow: fc.integer({ min: startRow, max: 5 }), endColumn: fc.integer({ min: startColumn, max: 2 }) }),
    );
    const edit = fc.record({ row: fc.integer({ min: 0, max: 6 }), column: fc.integer({ min: 0, max: 3 }), value });
    fc.assert(
      fc.property(
        fc.array(fc.array(value, { minLength: 3, maxLength: 3 }), { minLength: 6, maxLength: 6 }),
        fc.array(fc.record({ condition: fc.constantFrom(...conditions), ranges: fc.array(area, { minLength: 1, maxLength: 2 }) }), { minLength: 1, maxLength: 4 }),
        fc.array(fc.array(edit, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 6 }),
        (rows, picked, batches) => {
          const { doc, sheet } = sheetWith(rows);
          const rules = picked.map(({ condition, ranges }, index) => rule(condition, ranges, index, `r${index}`));
          const reader = new ConditionalLookReader(rules, cellsOfSheet(sheet));
          for (const batch of batches) {
            doc.transact(() => batch.forEach(({ row, column, value: v }) => sheet.setCell(row, column, v === null ? null : { v })));
            reader.cellsChanged(batch);
            const fresh = conditionalLooks(rules, cellsOfSheet(sheet));
            for (let row = 0; row <= 6; row++) for (let c = 0; c <= 3; c++) expect(reader.lookAt(row, c)).toEqual(fresh.get(`${row}:${c}`));
          }
        },
      ),
    );
  });

  it('top N marks exactly N cells when the numbers are distinct, the N highest (lowest)', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: -1000, max: 1000 }), { minLength: 1, maxLength: 40 }), fc.integer({ min: 1, max: 50 }), fc.boolean(), (numbers, rank, bottom) => {
        const { sheet } = sheetWith(numbers.map((n) => [n]));
        const keys = marked(sheet, [rule({ type: 'topBottom', bottom, percent: false, rank, format: RED }, [column(numbers.length)])]);
        expect(keys.length).toBe(Math.min(rank, numbers.length));
        const sorted = [...numbers].sort((a, b) => (bottom ? a - b : b - a)).slice(0, rank);
        expect(keys).toEqual(numbers.flatMap((n, row) => (sorted.includes(n) ? [`${row}:0`] : [])).sort());
      }),
    );
  });

  it('top N% marks floor(count × N / 100) cells (at least one) when the numbers are distinct', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer(), { minLength: 1, maxLength: 60 }), fc.integer({ min: 1, max: 100 }), (numbers, rank) => {
        const { sheet } = sheetWith(numbers.map((n) => [n]));
        const keys = marked(sheet, [rule({ type: 'topBottom', bottom: false, percent: true, rank, format: RED }, [column(numbers.length)])]);
        expect(keys.length).toBe(Math.max(1, Math.floor((numbers.length * rank) / 100)));
      }),
    );
  });

  it('duplicates and unique split the non-empty cells between them; text compares ignoring case', () => {
    const value = fc.oneof(fc.integer({ min: 0, max: 5 }), fc.constantFrom('a', 'A', 'b', ''), fc.constant(null));
    fc.assert(
      fc.property(fc.array(value, { minLength: 1, maxLength: 30 }), (values) => {
        const { sheet } = sheetWith(values.map((v) => [v]));
        const duplicates = marked(sheet, [rule({ type: 'duplicates', unique: false, format: RED }, [column(values.length)])]);
        const unique = marked(sheet, [rule({ type: 'duplicates', unique: true, format: RED }, [column(values.length)])]);
        const filled = values.flatMap((v, row) => (v === null || v === '' ? [] : [`${row}:0`])).sort();
        expect([...duplicates, ...unique].sort()).toEqual(filled);
        const key = (v: unknown) => (typeof v === 'string' ? v.toLowerCase() : `#${String(v)}`);
        for (const cell of duplicates) {
          const v = values[Number(cell.split(':')[0])];
          expect(values.filter((other) => other !== null && key(other) === key(v)).length).toBeGreaterThan(1);
        }
      }),
    );
  });

  it('above and below average never mark the same cell, and mark what lies strictly beyond the mean', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -100, max: 100 }), { minLength: 1, maxLength: 30 }), (numbers) => {
        const { sheet } = sheetWith(numbers.map((n) => [n]));
        const above = marked(sheet, [rule({ type: 'average', below: false, format: RED }, [column(numbers.length)])]);
        const below = marked(sheet, [rule({ type: 'average', below: true, format: RED }, [column(numbers.length)])]);
        const mean = numbers.reduce((a, b) => a + b, 0) / numbers.length;
        expect(above).toEqual(numbers.flatMap((n, row) => (n > mean ? [`${row}:0`] : [])).sort());
        expect(below).toEqual(numbers.flatMap((n, row) => (n < mean ? [`${row}:0`] : [])).sort());
      }),
    );
  });

  it('cell value rules compare numbers as numbers and text ignoring case; blank cells are never marked', () => {
    const { sheet } = sheetWith([[50], [100], [150], ['Apple'], [null], [true], ['abc']]);
    const range = [column(7)];
    const of = (condition: ConditionalCondition) => marked(sheet, [rule(condition, range)]);
    expect(of({ type: 'cellValue', op: 'gt', value: 100, format: RED })).toEqual(['2:0']);
    expect(of({ type: 'cellValue', op: 'ge', value: '100', format: RED })).toEqual(['1:0', '2:0']);
    expect(of({ type: 'cellValue', op: 'lt', value: 10, format: RED })).toEqual([]);
    expect(of({ type: 'cellValue', op: 'between', value: 120, value2: 40, format: RED })).toEqual(['0:0', '1:0']);
    expect(of({ type: 'cellValue', op: 'notBetween', value: 40, value2: 120, format: RED })).toEqual(['2:0']);
    expect(of({ type: 'cellValue', op: 'eq', value: 'apple', format: RED })).toEqual(['3:0']);
    expect(of({ type: 'text', op: 'contains', text: 'PP', format: RED })).toEqual(['3:0']);
    expect(of({ type: 'text', op: 'beginsWith', text: 'ab', format: RED })).toEqual(['6:0']);
  });

  it('a 3-colour scale gives the lowest, middle and highest their colours and mixes between them', () => {
    const { sheet } = sheetWith([[0], [50], [100], [25]]);
    const scale = rule(
      { type: 'colorScale', points: [{ kind: 'min', color: '#f8696b' }, { kind: 'percentile', value: 50, color: '#ffeb84' }, { kind: 'max', color: '#63be7b' }] },
      [column(4)],
    );
    const looks = conditionalLooks([scale], cellsOfSheet(sheet));
    expect(looks.get('0:0')?.fill).toBe('#f8696b');
    expect(looks.get('2:0')?.fill).toBe('#63be7b');
    // the median of 0, 25, 50, 100 is 37.5: 50 lies a fifth of the way from it to 100
    expect(looks.get('1:0')?.fill).toBe('#e0e282');
  });

  it('data bars grow with the value between the lowest and highest, within the cell', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { minLength: 1, maxLength: 30 }), (numbers) => {
        const { sheet } = sheetWith(numbers.map((n) => [n]));
        const looks = conditionalLooks([rule({ type: 'dataBar', color: '#638ec6', min: { kind: 'min' }, max: { kind: 'max' } }, [column(numbers.length)])], cellsOfSheet(sheet));
        numbers.forEach((a, i) =>
          numbers.forEach((b, j) => {
            const fa = looks.get(`${i}:0`)!.bar!.fraction;
            const fb = looks.get(`${j}:0`)!.bar!.fraction;
            expect(fa).toBeGreaterThanOrEqual(0);
            expect(fa).toBeLessThanOrEqual(1);
            if (a < b) expect(fa).toBeLessThanOrEqual(fb);
          }),
        );
      }),
    );
  });

  it('the first rule that gives a property keeps it; other properties of later rules still show', () => {
    const { sheet } = sheetWith([[200]]);
    const looks = conditionalLooks(
      [rule({ type: 'cellValue', op: 'gt', value: 100, format: { fill: '#ff0000' } }, [column(1)], 0), rule({ type: 'cellValue', op: 'gt', value: 0, format: { fill: '#00ff00', bold: true } }, [column(1)], 1)],
      cellsOfSheet(sheet),
    );
    expect(looks.get('0:0')).toEqual({ fill: '#ff0000', bold: true });
  });
});

describe('storage', () => {
  it('keeps well-formed rules, newest on top, and refuses malformed ones', () => {
    const { doc, sheet } = sheetWith([[1]]);
    doc.transact(() => {
      expect(addConditionalRule(sheet, { type: 'cellValue', op: 'gt', value: 1, format: RED }, [column(3)], 'first')).toBeDefined();
      expect(addConditionalRule(sheet, { type: 'duplicates', unique: false, format: { bold: true } }, [column(3)], 'second')).toBeDefined();
      expect(addConditionalRule(sheet, { type: 'cellValue', op: 'gt', value: 1, format: { fill: 'red' } }, [column(3)], 'bad colour')).toBeUndefined();
      expect(addConditionalRule(sheet, { type: 'topBottom', bottom: false, percent: true, rank: 101, format: RED }, [column(3)], 'bad rank')).toBeUndefined();
      sheet.featureMap('conditionalFormats', true)!.set('broken', { type: 'text', id: 'broken', priority: -99, ranges: [column(1)], op: 'contains', text: '' });
    });
    expect(conditionalRulesOf(sheet).map((r) => r.id)).toEqual(['second', 'first']);
    expect(parseConditionalRule({ ...conditionalRulesOf(sheet)[0], ranges: [{ startRow: 2, endRow: 1, startColumn: 0, endColumn: 0 }] })).toBeUndefined();
    doc.transact(() => removeConditionalRule(sheet, 'second'));
    expect(conditionalRulesOf(sheet).map((r) => r.id)).toEqual(['first']);
  });

  it('a rule moves with its cells: after random row and column edits it marks the same labelled cells', () => {
    const edit = fc.record({ kind: fc.constantFrom('insert' as const, 'delete' as const), axis: fc.constantFrom('rows' as const, 'columns' as const), index: fc.integer({ min: 0, max: 7 }), count: fc.integer({ min: 1, max: 3 }) });
    fc.assert(
      fc.property(fc.array(edit, { maxLength: 6 }), fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 5 }), (edits, top, left) => {
        // an 8×8 grid labelled by position; the rule marks labels containing "x" inside its area
        const { doc, sheet } = sheetWith(Array.from({ length: 8 }, (_, r) => Array.from({ length: 8 }, (_, c) => `x${r}-${c}`)));
        const area = { startRow: top, endRow: top + 2, startColumn: left, endColumn: left + 2 };
        doc.transact(() => addConditionalRule(sheet, { type: 'text', op: 'contains', text: 'x', format: RED }, [area], 'moving'));
        const labels = (keys: string[]) => keys.map((key) => sheet.cell(Number(key.split(':')[0]), Number(key.split(':')[1]))?.v).sort();
        const before = labels(marked(sheet, conditionalRulesOf(sheet)));
        const deleted = new Set<unknown>();
        for (const step of edits) {
          if (step.kind === 'delete') {
            const rows = step.axis === 'rows';
            sheet.forEachCell((_r, _c, cell) => deleted.add(cell.v), rows ? { startRow: step.index, endRow: step.index + step.count - 1, startColumn: 0, endColumn: 99 } : { startRow: 0, endRow: 99, startColumn: step.index, endColumn: step.index + step.count - 1 });
          }
          if (step.kind === 'delete' && (step.axis === 'rows' ? sheet.rowCount : sheet.columnCount) <= step.index + step.count) continue;
          applyStructureEdit(doc, sheet, step);
        }
        const after = labels(marked(sheet, conditionalRulesOf(sheet)));
        expect(after).toEqual(before.filter((label) => !deleted.has(label)));
      }),
    );
  });
});
