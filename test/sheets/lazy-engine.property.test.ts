import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import type { Cell } from '../../src/model/content.js';
import { formatA1 } from '../../src/model/sheets/a1.js';
import type { CellReference, RangeReference } from '../../src/model/sheets/formulas/parser.js';
import type { EvaluationContext, RangeArg } from '../../src/model/sheets/formulas/args.js';
import { evaluateFormula, referencesOf } from '../../src/model/sheets/formulas/evaluate.js';
import { Err, FormulaError, isErrorCode, toDisplay, type CellValue, type DisplayValue } from '../../src/model/sheets/formulas/values.js';
import { parseFormula, SpreadsheetCalculation, Workbook, type CellAddress, type CellInput } from '../../src/model/sheets/formulas/index.js';
import { appendSheet, sheetIds, sheetModels } from '../../src/model/sheets/sheet-model.js';
import { mayGiveArray, parsedAt } from '../../src/model/sheets/formulas/cell-source.js';
import { formulaInA1, formulaRelative } from '../../src/model/sheets/formulas/relative.js';
import { MAX_COLUMNS, MAX_ROWS, columnLetters } from '../../src/model/sheets/a1.js';
import { joinParts } from '../../src/domain/import/conversion.js';
import { SpreadsheetEncoder } from '../../src/domain/import/spreadsheet-encoder.js';
import { calculationBytes, calculationOf } from '../../src/model/sheets/formulas/index.js';

/**
 * The engine is built lazily (formulas computed when read, dependants followed only among computed formulas): every
 * value it gives, in any order of reads and edits, must be what a straightforward recursive evaluation of the same
 * inputs gives, and after an edit every cell shown before (read) either is reported as changed or still shows the
 * right value (what the editor relies on to repaint). Through both sources: cells handed over, and a document.
 */

const ROWS = 5;
const COLUMNS = 3;

const address = (row: number, column: number) => formatA1({ sheetName: null, startRow: row, endRow: row, startColumn: column, endColumn: column });

const cellText = fc.tuple(fc.integer({ min: 0, max: ROWS - 1 }), fc.integer({ min: 0, max: COLUMNS - 1 })).map(([row, column]) => address(row, column));
const rangeText = fc
  .tuple(fc.integer({ min: 0, max: ROWS - 1 }), fc.integer({ min: 0, max: ROWS - 1 }), fc.integer({ min: 0, max: COLUMNS - 1 }), fc.integer({ min: 0, max: COLUMNS - 1 }))
  .map(([a, b, c, d]) => `${address(Math.min(a, b), Math.min(c, d))}:${address(Math.max(a, b), Math.max(c, d))}`);
const term: fc.Arbitrary<string> = fc.oneof(
  fc.integer({ min: 0, max: 9 }).map(String),
  cellText,
  cellText,
  rangeText.map((range) => `SUM(${range})`),
  rangeText.map((range) => `COUNT(${range})`),
);
const formula = fc.oneof(
  term,
  fc.tuple(term, fc.constantFrom('+', '-', '*'), term).map(([a, operator, b]) => `${a}${operator}${b}`),
  fc.tuple(cellText, fc.integer({ min: 0, max: 9 }), term, term).map(([test, limit, then, otherwise]) => `IF(${test}>${limit},${then},${otherwise})`),
).map((text) => `=${text}`);
const input: fc.Arbitrary<CellInput> = fc.oneof(fc.constant(null), fc.integer({ min: -5, max: 20 }), fc.constant('x'), formula, formula);

/** readAll over the grid's cells, or over the whole sheet (an area far larger than the cells it holds: the engine indexes what it read by key, not by position) */
type Operation = { kind: 'read'; row: number; column: number } | { kind: 'readAll'; wholeSheet: boolean } | { kind: 'set'; row: number; column: number; input: CellInput };
const position = { row: fc.integer({ min: 0, max: ROWS - 1 }), column: fc.integer({ min: 0, max: COLUMNS - 1 }) };
const operation: fc.Arbitrary<Operation> = fc.oneof(
  fc.record({ kind: fc.constant('read' as const), ...position }),
  fc.record({ kind: fc.constant('readAll' as const), wholeSheet: fc.boolean() }),
  fc.record({ kind: fc.constant('set' as const), ...position, input }),
  fc.record({ kind: fc.constant('set' as const), ...position, input }),
);

/** The values of a grid computed the plain way: recursively, the members of a static reference cycle being #REF!. */
function referenceValues(inputs: CellInput[][]): (row: number, column: number) => CellValue {
  const asts = inputs.map((line) => line.map((value) => (typeof value === 'string' && value.startsWith('=') ? parseFormula(value) : undefined)));
  const precedents = (row: number, column: number): Array<[number, number]> => {
    const parsed = asts[row]![column];
    if (!parsed?.ok) return [];
    const found: Array<[number, number]> = [];
    for (const reference of referencesOf(parsed.ast)) {
      const [top, bottom, left, right] = reference.kind === 'cell' ? [reference.row, reference.row, reference.column, reference.column] : [reference.startRow, reference.endRow, reference.startColumn, reference.endColumn];
      for (let r = top; r <= Math.min(bottom, ROWS - 1); r++) for (let c = left; c <= Math.min(right, COLUMNS - 1); c++) found.push([r, c]);
    }
    return found;
  };
  const inCycle = (row: number, column: number): boolean => {
    const seen = new Set<number>();
    const stack = precedents(row, column);
    while (stack.length > 0) {
      const [r, c] = stack.pop()!;
      if (r === row && c === column) return true;
      if (seen.has(r * COLUMNS + c)) continue;
      seen.add(r * COLUMNS + c);
      stack.push(...precedents(r, c));
    }
    return false;
  };
  const memo = new Map<number, CellValue>();
  const value = (row: number, column: number): CellValue => {
    if (row >= ROWS || column >= COLUMNS) return null;
    const key = row * COLUMNS + column;
    if (memo.has(key)) return memo.get(key)!;
    const held = inputs[row]![column] ?? null;
    const parsed = asts[row]![column];
    let result: CellValue;
    if (!parsed) result = typeof held === 'string' && isErrorCode(held) ? FormulaError.of(held) : held === '' ? null : held;
    else if (!parsed.ok || inCycle(row, column)) result = parsed.ok ? Err.ref : Err.syntax;
    else {
      const computed = evaluateFormula(parsed.ast, contextAt(row, column));
      result = Array.isArray(computed) ? Err.spill : computed;
    }
    memo.set(key, result);
    return result;
  };
  const area = (top: number, left: number, rows: number, columns: number): RangeArg => ({
    kind: 'range',
    rows,
    columns,
    origin: { row: top, column: left, sheet: 'Sheet1' },
    get: (r, c) => value(top + r, left + c),
    forEach(visit) {
      for (let r = 0; r < rows; r++) {
        for (let c = 0; c < columns; c++) {
          const held = value(top + r, left + c);
          if (held !== null) visit(held, r, c);
        }
      }
    },
  });
  const contextAt = (row: number, column: number): EvaluationContext => ({
    cell: (reference: CellReference) => value(reference.row, reference.column),
    range: (reference: RangeReference | CellReference) =>
      reference.kind === 'cell' ? area(reference.row, reference.column, 1, 1) : area(reference.startRow, reference.startColumn, reference.endRow - reference.startRow + 1, reference.endColumn - reference.startColumn + 1),
    spill: () => Err.ref,
    sheetsBetween: () => undefined,
    now: () => 0,
    position: () => ({ row, column }),
  });
  return value;
}

interface ReadArea {
  startRow: number;
  endRow: number;
  startColumn: number;
  endColumn: number;
}
const GRID: ReadArea = { startRow: 0, endRow: ROWS - 1, startColumn: 0, endColumn: COLUMNS - 1 };
const WHOLE_SHEET: ReadArea = { startRow: 0, endRow: MAX_ROWS - 1, startColumn: 0, endColumn: MAX_COLUMNS - 1 };

/** The engine under test, behind the two ways it is used: cells handed over, or a document it follows. */
interface Engine {
  value(row: number, column: number): CellValue;
  forEachCell(area: ReadArea, visit: (row: number, column: number, value: CellValue) => void): void;
  set(row: number, column: number, input: CellInput): CellAddress[];
}

function cellsEngine(inputs: CellInput[][]): Engine {
  const cells = inputs.flatMap((line, row) => line.map((held, column) => [row, column, held] as const));
  const workbook = new Workbook([{ id: 's1', name: 'Sheet1', cells }]);
  return {
    value: (row, column) => workbook.value('s1', row, column),
    forEachCell: (area, visit) => workbook.forEachCell('s1', area, visit),
    set: (row, column, held) => workbook.setCell('s1', row, column, held),
  };
}

function storedCell(held: CellInput): Cell | null {
  if (held === null) return null;
  return typeof held === 'string' && held.startsWith('=') ? { f: held } : { v: held };
}

function documentEngine(inputs: CellInput[][]): Engine {
  const doc = new Y.Doc();
  doc.transact(() => {
    const sheet = appendSheet(doc, 'Sheet1', 's1');
    inputs.forEach((line, row) => line.forEach((held, column) => {
      const cell = storedCell(held);
      if (cell) sheet.setCell(row, column, cell);
    }));
  });
  const calculation = new SpreadsheetCalculation(doc);
  const id = sheetIds(doc)[0]!;
  return {
    value: (row, column) => calculation.workbook.value(id, row, column),
    forEachCell: (area, visit) => calculation.workbook.forEachCell(id, area, visit),
    set(row, column, held) {
      doc.transact(() => sheetModels(doc)[0]!.setCell(row, column, storedCell(held)));
      const changed = calculation.flush();
      if (changed === 'all') throw new Error('a cell edit is not a structure change');
      return changed;
    },
  };
}

/** A value as shown: -0 shows as 0 (the engine, as before it was lazy, treats a change from 0 to -0 as none). */
const shown = (value: CellValue): DisplayValue => (value === 0 ? 0 : toDisplay(value));

describe('the lazily built engine against a plain recursive evaluation', () => {
  it.each([
    ['cells handed over', cellsEngine],
    ['a document', documentEngine],
  ] as const)('gives the same values for any reads and edits, and reports every shown cell that changed (%s)', (_, make) => {
    fc.assert(
      fc.property(fc.array(fc.array(input, { minLength: COLUMNS, maxLength: COLUMNS }), { minLength: ROWS, maxLength: ROWS }), fc.array(operation, { maxLength: 12 }), (grid, operations) => {
        const inputs = grid.map((line) => [...line]);
        const engine = make(inputs);
        // what the "editor" shows: cells read, repainted when reported
        const onScreen = new Map<number, DisplayValue>();
        let expected = referenceValues(inputs);
        for (const step of operations) {
          if (step.kind === 'read') {
            const value = shown(engine.value(step.row, step.column));
            expect(value, `${address(step.row, step.column)}`).toEqual(shown(expected(step.row, step.column)));
            onScreen.set(step.row * COLUMNS + step.column, value);
          } else if (step.kind === 'readAll') {
            const seen = new Map<number, DisplayValue>();
            engine.forEachCell(step.wholeSheet ? WHOLE_SHEET : GRID, (row, column, value) => seen.set(row * COLUMNS + column, shown(value)));
            for (let row = 0; row < ROWS; row++) {
              for (let column = 0; column < COLUMNS; column++) {
                const value = seen.get(row * COLUMNS + column) ?? '';
                expect(value, `${address(row, column)} in the area`).toEqual(shown(expected(row, column)));
                onScreen.set(row * COLUMNS + column, value);
              }
            }
          } else {
            inputs[step.row]![step.column] = step.input;
            const reported = engine.set(step.row, step.column, step.input);
            expected = referenceValues(inputs);
            for (const cell of reported) if (onScreen.has(cell.row * COLUMNS + cell.column)) onScreen.set(cell.row * COLUMNS + cell.column, shown(engine.value(cell.row, cell.column)));
            for (const [key, value] of onScreen) {
              const [row, column] = [Math.floor(key / COLUMNS), key % COLUMNS];
              expect(value, `${address(row, column)} on screen after setting ${address(step.row, step.column)}`).toEqual(shown(expected(row, column)));
            }
          }
        }
        for (let row = 0; row < ROWS; row++) for (let column = 0; column < COLUMNS; column++) expect(shown(engine.value(row, column))).toEqual(shown(expected(row, column)));
      }),
      { numRuns: 150 },
    );
  });
});

describe('a column of copied formulas parsed once', () => {
  const edge = (size: number) => fc.oneof(fc.integer({ min: 0, max: 3 }), fc.integer({ min: size - 4, max: size - 1 }), fc.integer({ min: 0, max: size - 1 }));
  const place = fc.record({ row: edge(MAX_ROWS), column: edge(MAX_COLUMNS) });
  const reference = fc
    .record({ row: edge(MAX_ROWS), column: edge(MAX_COLUMNS), rowAnchored: fc.boolean(), columnAnchored: fc.boolean(), sheet: fc.constantFrom('', 'Other!', "'My Sheet'!") })
    .map(({ row, column, rowAnchored, columnAnchored, sheet }) => `${sheet}${columnAnchored ? '$' : ''}${columnLetters(column)}${rowAnchored ? '$' : ''}${row + 1}`);
  const part = fc.oneof(reference, reference, fc.integer({ min: 0, max: 99 }).map(String), fc.constantFrom('"B7"', 'TRUE', 'LOG10(100)', 'A1:B2', 'SUM(C3:C9)', 'A1#'));
  const text = fc
    .tuple(part, fc.array(fc.tuple(fc.constantFrom('+', '*', '&', ','), part), { maxLength: 4 }), fc.constantFrom('', 'SUM', 'IF', 'ROUND'))
    .map(([first, rest, call]) => {
      const body = first + rest.map(([operator, next]) => operator + next).join('');
      return `=${call}(${body})`;
    });

  it('gives at every cell the tree its A1 text parses to', () => {
    fc.assert(
      fc.property(text, place, place, (a1, first, second) => {
        const stored = formulaRelative(a1, first.row, first.column);
        for (const at of [first, second, first]) {
          const own = formulaInA1(stored, at.row, at.column);
          expect(parsedAt(own, stored, at.row, at.column)).toEqual(parseFormula(own));
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('arrays found in blocks without parsing them', () => {
  it('visits exactly the formulas a walk of every cell accepts, whatever texts a block repeats (regular expression characters, quotes, backslashes)', () => {
    // copies of one text, then another: the scan searches past the text just refused in one go
    const texts = ['=$A$1*2', '=A1*2', '=A1*2+0', '="a.b*(c)?[d]{2}|^$"&A1', '="q""uote"&$A1', '="\\"&A1', '=SEQUENCE(2)', '=A1*2+SEQUENCE(1)', '=$A$1:$A$2'];
    const runs = fc.array(fc.tuple(fc.integer({ min: 0, max: texts.length - 1 }), fc.integer({ min: 1, max: 700 })), { minLength: 1, maxLength: 6 });
    fc.assert(
      fc.property(runs, (chosen) => {
        const encoder = new SpreadsheetEncoder();
        encoder.beginSheet('Data', 0);
        let row = 0;
        for (const [text, count] of chosen) for (let copy = 0; copy < count; copy++, row++) encoder.row(row, [{ v: row }, { f: texts[text]! }]);
        const doc = new Y.Doc();
        Y.applyUpdate(doc, joinParts(encoder.finish()));
        const sheet = sheetModels(doc)[0]!;
        const expected: string[] = [];
        sheet.forEachCell((at, column, _cell, stored) => {
          if (typeof stored.f === 'string' && mayGiveArray(stored.f)) expected.push(address(at, column));
        });
        const found: string[] = [];
        sheet.forEachFormulaCell(mayGiveArray, (at, column) => found.push(address(at, column)));
        expect(found.sort()).toEqual(expected.sort());
      }),
      { numRuns: 40 },
    );
  });

  it('spills the arrays of an imported sheet at the first read, past columns of copied formulas and quoted text', () => {
    const encoder = new SpreadsheetEncoder();
    encoder.beginSheet('Data', 0);
    for (let row = 0; row < 3000; row++) {
      encoder.row(row, [
        { v: row },
        { f: `=A${row + 1}*2` },
        row === 2500 ? { f: '="say ""hi"" "&SEQUENCE(2)' } : row === 10 ? { f: '=SEQUENCE(3)' } : row === 20 ? { f: '="\\f"' } : undefined,
      ]);
    }
    const doc = new Y.Doc();
    Y.applyUpdate(doc, joinParts(encoder.finish()));
    const id = sheetIds(doc)[0]!;
    expect(calculationBytes(doc)).toBe(0);
    const workbook = calculationOf(doc);
    expect(workbook.value(id, 12, 2)).toBe(3);
    expect(workbook.value(id, 2501, 2)).toBe('say "hi" 2');
    expect(workbook.value(id, 20, 2)).toBe('\\f');
    expect(workbook.value(id, 2999, 1)).toBe(5998);
    expect(workbook.spillArea(id, 10, 2)).toEqual({ startRow: 10, endRow: 12, startColumn: 2, endColumn: 2, blocked: false });
    // only the formulas read (the arrays, what they read, the cells asked for) are held: not the 3,000 of column B
    expect(workbook.formulasRead()).toBeLessThan(10);
    expect(calculationBytes(doc)).toBe(workbook.formulasRead() * 1_034);
  });
});
