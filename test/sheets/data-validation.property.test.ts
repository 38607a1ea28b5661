import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { docFromState, initialContent } from '../../src/model/content.js';
import {
  firstRefusal,
  listItems,
  parseValidationRule,
  passesValidation,
  setValidation,
  subtractArea,
  validationAt,
  validationsOf,
  workbookContext,
  type ValidationContext,
  type ValidationOperator,
  type ValidationRule,
} from '../../src/model/sheets/data-validation.js';
import { calculationOf } from '../../src/model/sheets/formulas/index.js';
import { toText } from '../../src/model/sheets/formulas/values.js';
import { applyStructureEdit, sheetIds, sheetModels, type SheetModel } from '../../src/model/sheets/sheet-model.js';
import type { CellArea } from '../../src/model/sheets/cell-area.js';

/** Data validation in the sheet model (docs/SHEETS.md "Data validation"): the checks, areas, structure edits, formulas. */

function sheetWith(rows: Array<Array<string | number | boolean | null>>) {
  const doc = docFromState(initialContent('spreadsheet'));
  const sheet = sheetModels(doc)[0]!;
  doc.transact(() =>
    rows.forEach((line, row) =>
      line.forEach((value, column) => {
        if (value === null) return;
        sheet.setCell(row, column, typeof value === 'string' && value.startsWith('=') ? { f: value } : { v: value });
      }),
    ),
  );
  const context = () => workbookContext(calculationOf(doc), sheetIds(doc)[0]!);
  return { doc, sheet, context };
}

function rule(input: Record<string, unknown>): ValidationRule {
  const parsed = parseValidationRule(input);
  if (typeof parsed === 'string') throw new Error(parsed);
  return parsed;
}

let counter = 0;
const newId = () => `r${String(counter++).padStart(8, '0')}`;
const noFormulas: ValidationContext = { evaluate: () => null, values: () => [] };
const at = (areas: CellArea[], value: ValidationRule) => ({ ...value, areas, id: 'x' });

const reference: Record<ValidationOperator, (v: number, a: number, b: number) => boolean> = {
  between: (v, a, b) => v >= a && v <= b,
  notBetween: (v, a, b) => v < a || v > b,
  eq: (v, a) => v === a,
  ne: (v, a) => v !== a,
  gt: (v, a) => v > a,
  lt: (v, a) => v < a,
  ge: (v, a) => v >= a,
  le: (v, a) => v <= a,
};

describe('checking a value', () => {
  it('compares whole numbers, decimals and text lengths with their bounds as the operator says', () => {
    const operator = fc.constantFrom<ValidationOperator>('between', 'notBetween', 'eq', 'ne', 'gt', 'lt', 'ge', 'le');
    const number = fc.oneof(fc.integer({ min: -20, max: 20 }), fc.double({ min: -20, max: 20, noNaN: true }));
    fc.assert(
      fc.property(fc.constantFrom('whole', 'decimal', 'textLength'), operator, number, number, fc.oneof(number, fc.string({ maxLength: 25 })), (type, op, a, b, candidate) => {
        const checked = at([{ startRow: 0, endRow: 0, startColumn: 0, endColumn: 0 }], rule({ type, operator: op, value1: a, value2: b }));
        const passes = passesValidation(checked, candidate, 0, 0, noFormulas);
        const expected =
          candidate === '' ? true
          : // the length of the text a number shows, as in Excel (15 significant digits: 19.99999999999995 is "20")
            type === 'textLength' ? reference[op](toText(candidate).length, a, b)
          : typeof candidate !== 'number' || (type === 'whole' && !Number.isInteger(candidate)) ? false
          : reference[op](candidate, a, b);
        expect(passes).toBe(expected);
      }),
    );
  });

  it('refuses a blank only when the rule does not allow blanks, and checks lists ignoring case', () => {
    const list = at([{ startRow: 0, endRow: 9, startColumn: 0, endColumn: 0 }], rule({ type: 'list', values: ['Yes', 'No', ' 42 '], allowBlank: false }));
    expect(list.values).toEqual(['Yes', 'No', '42']);
    expect(passesValidation(list, 'yes', 3, 0, noFormulas)).toBe(true);
    expect(passesValidation(list, 42, 3, 0, noFormulas)).toBe(true);
    expect(passesValidation(list, 'Maybe', 3, 0, noFormulas)).toBe(false);
    expect(passesValidation(list, null, 3, 0, noFormulas)).toBe(false);
    expect(passesValidation({ ...list, allowBlank: true }, '', 3, 0, noFormulas)).toBe(true);
  });

  it('refuses malformed rules with the reason', () => {
    expect(parseValidationRule({ type: 'whole', operator: 'between', value1: 1 })).toMatch(/value2/);
    expect(parseValidationRule({ type: 'list', values: ['a,b'] })).toMatch(/commas/);
    expect(parseValidationRule({ type: 'custom', formula: '=SUM(1,' })).toMatch(/formula/);
    expect(parseValidationRule({ type: 'whole', operator: 'eq', value1: 1, errorStyle: 'loud' })).toMatch(/errorStyle/);
    expect(parseValidationRule({ type: 'date', operator: 'ge', value1: 'TODAY()' })).toMatchObject({ value1: 'TODAY()', errorStyle: 'stop', allowBlank: true });
  });
});

describe('rules over areas', () => {
  const area = fc
    .tuple(fc.integer({ min: 0, max: 7 }), fc.integer({ min: 0, max: 7 }), fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 5 }))
    .map(([r1, r2, c1, c2]) => ({ startRow: Math.min(r1, r2), endRow: Math.max(r1, r2), startColumn: Math.min(c1, c2), endColumn: Math.max(c1, c2) }));

  it('subtracting an area leaves exactly the cells outside it, in disjoint pieces', () => {
    fc.assert(
      fc.property(area, area, (a, cut) => {
        const pieces = subtractArea(a, cut);
        for (let row = 0; row <= 8; row++) {
          for (let column = 0; column <= 6; column++) {
            const expected = row >= a.startRow && row <= a.endRow && column >= a.startColumn && column <= a.endColumn && !(row >= cut.startRow && row <= cut.endRow && column >= cut.startColumn && column <= cut.endColumn);
            const holding = pieces.filter((piece) => row >= piece.startRow && row <= piece.endRow && column >= piece.startColumn && column <= piece.endColumn);
            expect(holding.length).toBe(expected ? 1 : 0);
          }
        }
      }),
    );
  });

  it('the last rule set on a cell is its rule, removing takes it off, and rows and columns inserted or deleted move rules with their cells', () => {
    const step = fc.oneof(
      fc.record({ kind: fc.constant('set' as const), area, remove: fc.boolean(), label: fc.integer({ min: 1, max: 999 }) }),
      fc.record({ kind: fc.constantFrom('insert' as const, 'delete' as const), axis: fc.constantFrom('rows' as const, 'columns' as const), index: fc.integer({ min: 0, max: 7 }), count: fc.integer({ min: 1, max: 3 }) }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 12 }), (steps) => {
        const { doc, sheet } = sheetWith([]);
        // the reference: per cell, the label of its rule (0: none; -1: inserted, which takes the rule of an area it
        // falls strictly inside, as merges grow: checked on its own below)
        let grid: number[][] = Array.from({ length: sheet.rowCount }, () => Array<number>(sheet.columnCount).fill(0));
        for (const s of steps) {
          if (s.kind === 'set') {
            doc.transact(() => setValidation(sheet, s.area, s.remove ? undefined : rule({ type: 'whole', operator: 'eq', value1: s.label }), newId));
            for (let row = s.area.startRow; row <= s.area.endRow; row++) for (let column = s.area.startColumn; column <= s.area.endColumn; column++) grid[row]![column] = s.remove ? 0 : s.label;
            continue;
          }
          const length = s.axis === 'rows' ? sheet.rowCount : sheet.columnCount;
          if (s.kind === 'delete' && s.index >= length) continue;
          const count = s.kind === 'delete' ? Math.min(s.count, length - s.index, length - 1) : s.count;
          if (count <= 0) continue;
          doc.transact(() => applyStructureEdit(doc, sheet, { kind: s.kind, axis: s.axis, index: s.index, count }));
          if (s.axis === 'rows') {
            if (s.kind === 'insert') grid.splice(s.index, 0, ...Array.from({ length: count }, () => Array<number>(grid[0]!.length).fill(-1)));
            else grid.splice(s.index, count);
          } else {
            grid = grid.map((line) => {
              const copy = [...line];
              if (s.kind === 'insert') copy.splice(s.index, 0, ...Array<number>(count).fill(-1));
              else copy.splice(s.index, count);
              return copy;
            });
          }
        }
        const rules = validationsOf(sheet);
        for (let row = 0; row < Math.min(grid.length, 12); row++) {
          for (let column = 0; column < Math.min(grid[0]!.length, 10); column++) {
            if (grid[row]![column] !== -1) expect(validationAt(rules, row, column)?.value1 ?? 0).toBe(grid[row]![column]);
          }
        }
        // disjoint: no cell is covered twice
        const covered = new Set<string>();
        for (const r of rules) for (const a of r.areas) for (let row = a.startRow; row <= a.endRow; row++) for (let column = a.startColumn; column <= a.endColumn; column++) {
          const key = `${row}:${column}`;
          expect(covered.has(key)).toBe(false);
          covered.add(key);
        }
      }),
      { numRuns: 150 },
    );
  });
});

it('a rule grows over rows inserted strictly inside it and goes with its last deleted row', () => {
  const { doc, sheet } = sheetWith([]);
  doc.transact(() => setValidation(sheet, { startRow: 1, endRow: 2, startColumn: 0, endColumn: 0 }, rule({ type: 'whole', operator: 'gt', value1: 0 }), newId));
  doc.transact(() => applyStructureEdit(doc, sheet, { kind: 'insert', axis: 'rows', index: 2, count: 2 }));
  expect(validationsOf(sheet)[0]?.areas).toEqual([{ startRow: 1, endRow: 4, startColumn: 0, endColumn: 0 }]);
  doc.transact(() => applyStructureEdit(doc, sheet, { kind: 'delete', axis: 'rows', index: 0, count: 6 }));
  expect(validationsOf(sheet)).toEqual([]);
});

describe('formulas in rules (the formula engine)', () => {
  it('a custom formula reads relative to each cell, sees the value being entered, and follows inserted rows', () => {
    const { doc, sheet, context } = sheetWith([
      ['a', 10],
      [null, 20],
      ['c', 30],
    ]);
    const area = { startRow: 0, endRow: 2, startColumn: 0, endColumn: 0 };
    doc.transact(() => setValidation(sheet, area, rule({ type: 'custom', formula: '=COUNTIF($A$1:$A$3,A1)=1' }), newId));
    const [unique] = validationsOf(sheet);
    expect(passesValidation(unique!, 'b', 1, 0, context())).toBe(true);
    expect(passesValidation(unique!, 'A', 1, 0, context())).toBe(false);
    doc.transact(() => setValidation(sheet, { startRow: 0, endRow: 2, startColumn: 2, endColumn: 2 }, rule({ type: 'custom', formula: 'C1<B1' }), newId));
    const less = validationAt(validationsOf(sheet), 2, 2)!;
    expect(passesValidation(less, 25, 2, 2, context())).toBe(true);
    expect(passesValidation(less, 35, 2, 2, context())).toBe(false);
    doc.transact(() => applyStructureEdit(doc, sheet, { kind: 'insert', axis: 'rows', index: 0, count: 2 }));
    const moved = validationAt(validationsOf(sheet), 4, 2)!;
    expect(moved.formula).toBe('C3<B3');
    expect(passesValidation(moved, 25, 4, 2, context())).toBe(true);
    expect(passesValidation(moved, 35, 4, 2, context())).toBe(false);
    expect(validationAt(validationsOf(sheet), 3, 0)?.formula).toBe('COUNTIF($A$3:$A$5,A3)=1');
  });

  it('a list from a range offers its values, and bounds may be formulas', () => {
    const { doc, sheet, context } = sheetWith([
      [null, null, null, 'North'],
      [null, null, null, 'South'],
      [null, null, null, null],
      [null, null, null, 'North'],
      [null, 5, null, 12],
    ]);
    doc.transact(() => {
      setValidation(sheet, { startRow: 0, endRow: 3, startColumn: 0, endColumn: 0 }, rule({ type: 'list', formula: '$D$1:$D$4' }), newId);
      setValidation(sheet, { startRow: 0, endRow: 3, startColumn: 1, endColumn: 1 }, rule({ type: 'decimal', operator: 'between', value1: '$B$5', value2: '$D$5*2' }), newId);
    });
    const rules = validationsOf(sheet);
    const list = validationAt(rules, 2, 0)!;
    expect(listItems(list, 2, 0, context())).toEqual(['North', 'South']);
    expect(passesValidation(list, 'south', 2, 0, context())).toBe(true);
    expect(passesValidation(list, 'East', 2, 0, context())).toBe(false);
    const bounds = validationAt(rules, 1, 1)!;
    expect(passesValidation(bounds, 24, 1, 1, context())).toBe(true);
    expect(passesValidation(bounds, 4.5, 1, 1, context())).toBe(false);
    const refusal = firstRefusal(rules, [{ row: 0, column: 1, input: 7 }, { row: 3, column: 0, input: 'West' }], context());
    expect(refusal).toMatchObject({ row: 3, column: 0 });
  });
});
