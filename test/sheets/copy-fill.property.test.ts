import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { columnLetters, MAX_COLUMNS, MAX_ROWS } from '../../src/model/sheets/a1.js';
import { fillLine } from '../../src/model/sheets/fill.js';
import { copyFormula } from '../../src/model/sheets/formula-copy.js';
import { EXCEL_FUNCTIONS } from '../../src/model/sheets/formulas/excel-functions.js';
import { formulaContext } from '../../web/spreadsheet/formula-context.js';
import { argumentsOf, spelledFunctions, untranslatedArguments } from '../../web/spreadsheet/function-signatures.js';
import { parseTyped, typedText } from '../../web/spreadsheet/typed-input.js';

/** A reference as the reference model keeps it: zero-based position and its anchors. */
interface Reference {
  row: number;
  column: number;
  rowAbsolute: boolean;
  columnAbsolute: boolean;
}

const reference: fc.Arbitrary<Reference> = fc.record({
  row: fc.oneof(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: MAX_ROWS - 1 })),
  column: fc.oneof(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: MAX_COLUMNS - 1 })),
  rowAbsolute: fc.boolean(),
  columnAbsolute: fc.boolean(),
});

function spell(ref: Reference): string {
  return `${ref.columnAbsolute ? '$' : ''}${columnLetters(ref.column)}${ref.rowAbsolute ? '$' : ''}${ref.row + 1}`;
}

/** The reference model: where a reference goes when its formula is copied `rows` down and `columns` right, or '#REF!'. */
function copied(ref: Reference, rows: number, columns: number): string {
  const row = ref.rowAbsolute ? ref.row : ref.row + rows;
  const column = ref.columnAbsolute ? ref.column : ref.column + columns;
  if (row < 0 || row >= MAX_ROWS || column < 0 || column >= MAX_COLUMNS) return '#REF!';
  return spell({ ...ref, row, column });
}

describe('copying formulas (docs/SHEETS.md "Copying and filling formulas")', () => {
  it('moves relative references by the distance, keeps anchored parts, and turns references pushed off the grid into #REF!', () => {
    expect(copyFormula('=A1*2', 1, 0)).toBe('=A2*2');
    expect(copyFormula('=SUM(A1:A3)+$B$1+B$1+$B1', 2, 1)).toBe('=SUM(B3:B5)+$B$1+C$1+$B3');
    expect(copyFormula('=Sheet2!A1', 0, 3)).toBe('=Sheet2!D1');
    expect(copyFormula('=SUM(A:A)+SUM(2:2)', 4, 2)).toBe('=SUM(C:C)+SUM(6:6)');
    expect(copyFormula('=A1', -1, 0)).toBe('=#REF!');
    expect(copyFormula('=SUM($A$1:A3)', -2, 0)).toBe('=SUM($A$1:A1)');
    // a range whose anchored corner is passed turns over: its rows are put in order, each keeping its anchor
    expect(copyFormula('=SUM($A$3:A3)', -2, 0)).toBe('=SUM($A1:A$3)');
    // nothing to move, or no formula: the text as typed
    expect(copyFormula('=sum( $A$1 )', 5, 5)).toBe('=sum( $A$1 )');
    expect(copyFormula('=SUM(A1:', 1, 1)).toBe('=SUM(A1:');
  });

  it('matches a reference model for random references, anchors and distances', () => {
    fc.assert(
      fc.property(fc.array(reference, { minLength: 1, maxLength: 5 }), fc.integer({ min: -40, max: 40 }), fc.integer({ min: -40, max: 40 }), (refs, rows, columns) => {
        const formula = `=${refs.map(spell).join('+')}`;
        const expected = `=${refs.map((ref) => copied(ref, rows, columns)).join('+')}`;
        const moved = copyFormula(formula, rows, columns);
        // a formula none of whose references moves is kept as it was typed
        expect(moved).toBe(expected === formula ? formula : expected);
        // and copying back undoes the copy when nothing left the grid
        if (!expected.includes('#REF!')) expect(copyFormula(moved, -rows, -columns)).toBe(formula);
      }),
    );
  });
});

describe('filling (fill handle, Ctrl+D, Ctrl+R)', () => {
  it('repeats the source with formulas moved, continues number series, and keeps each source cell\'s format and style', () => {
    expect(fillLine([{ f: '=A1*2', z: '0.00' }], 3, 1, 'rows')).toEqual([{ f: '=A2*2', z: '0.00' }, { f: '=A3*2', z: '0.00' }, { f: '=A4*2', z: '0.00' }]);
    expect(fillLine([{ f: '=A1*2' }], 2, 1, 'columns')).toEqual([{ f: '=B1*2' }, { f: '=C1*2' }]);
    expect(fillLine([{ v: 1 }, { v: 2 }], 3, 1, 'rows').map((cell) => cell?.v)).toEqual([3, 4, 5]);
    expect(fillLine([{ v: 10 }, { v: 8 }], 2, 1, 'rows').map((cell) => cell?.v)).toEqual([6, 4]);
    expect(fillLine([{ v: 0.1 }, { v: 0.2 }], 2, 1, 'rows').map((cell) => cell?.v)).toEqual([0.3, 0.4]);
    // upwards: the series runs back, a pattern repeats so that it joins the source
    expect(fillLine([{ v: 5 }, { v: 6 }], 2, -1, 'rows').map((cell) => cell?.v)).toEqual([4, 3]);
    expect(fillLine([{ v: 'a' }, { v: 'b' }], 3, -1, 'rows').map((cell) => cell?.v)).toEqual(['b', 'a', 'b']);
    expect(fillLine([{ v: 'x', s: { b: true } }, undefined], 2, 1, 'rows')).toEqual([{ v: 'x', s: { b: true } }, null]);
    // one number is copied, not counted up (as the fill handle does without Ctrl)
    expect(fillLine([{ v: 7 }], 2, 1, 'rows').map((cell) => cell?.v)).toEqual([7, 7]);
  });

  it('a fill of any length ends a linear series where the series would be', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1000, max: 1000 }), fc.integer({ min: -50, max: 50 }), fc.integer({ min: 2, max: 5 }), fc.integer({ min: 1, max: 30 }), (start, step, length, count) => {
        const source = Array.from({ length }, (_, index) => ({ v: start + step * index }));
        const filled = fillLine(source, count, 1, 'rows');
        expect(filled.map((cell) => cell?.v)).toEqual(Array.from({ length: count }, (_, index) => start + step * (length + index)));
      }),
    );
  });
});

describe('typed input (issue 23 point 4)', () => {
  it('reads money and grouped numbers as numbers with the format they were typed in', () => {
    expect(parseTyped('$1,234.50')).toEqual({ input: 1234.5, format: '"$"#,##0.00' });
    expect(parseTyped('-€12')).toEqual({ input: -12, format: '"€"#,##0' });
    expect(parseTyped('¥ 80')).toEqual({ input: 80, format: '"¥"#,##0' });
    expect(parseTyped('($1,234)')).toEqual({ input: -1234, format: '"$"#,##0;("$"#,##0)' });
    expect(parseTyped('1,234,567')).toEqual({ input: 1234567, format: '#,##0' });
    expect(parseTyped('12.5%')).toEqual({ input: 0.125, format: '0.0%' });
    // not numbers: badly grouped, unbalanced, two signs
    for (const text of ['1,23', '$1,2345', '($12', '-$-5', '12,5']) expect(parseTyped(text)).toEqual({ input: text });
  });

  it("keeps what follows a ' as text, and the formula bar shows the ' only where it is needed", () => {
    expect(parseTyped("'0012")).toEqual({ input: '0012', literal: true });
    expect(parseTyped("'TRUE")).toEqual({ input: 'TRUE', literal: true });
    expect(typedText('0012')).toBe("'0012");
    expect(typedText('hello')).toBe('hello');
    expect(typedText('$5')).toBe("'$5");
    fc.assert(
      fc.property(fc.string(), (text) => {
        if (text === '' || text.startsWith('=')) return;
        // what the formula bar shows reads back as the same text
        expect(parseTyped(typedText(text)).input).toBe(text);
      }),
    );
  });
});

describe('function hints', () => {
  it('finds the call and the argument the caret is in, skipping strings and quoted sheet names', () => {
    expect(formulaContext('=SUMIF(', 7)).toEqual({ call: { name: 'SUMIF', argument: 0 } });
    expect(formulaContext('=SUMIF(A1:A9,">,(",', 19)).toEqual({ call: { name: 'SUMIF', argument: 2 } });
    expect(formulaContext("=IF('a,(b'!A1>0,ROUND(", 22)).toEqual({ call: { name: 'ROUND', argument: 0 } });
    expect(formulaContext('=IF(ROUND(A1,2),', 16)).toEqual({ call: { name: 'IF', argument: 1 } });
    expect(formulaContext('=SU', 3)).toEqual({ fragment: { text: 'SU', start: 1 } });
    expect(formulaContext('=_xlfn.CONCAT(', 14)).toEqual({ call: { name: 'CONCAT', argument: 0 } });
    expect(formulaContext('SUM(', 4)).toEqual({});
  });

  it('spells arguments of Excel functions only', () => {
    expect(spelledFunctions().filter((name) => !EXCEL_FUNCTIONS.has(name))).toEqual([]);
  });

  it('names every argument in each language of the page (function hints in Chinese too)', () => {
    expect(untranslatedArguments()).toEqual([]);
    expect(argumentsOf('SUMIF', 'zh-CN')).toEqual(['区域', '条件', '[求和区域]']);
    expect(argumentsOf('INDIRECT', 'zh-CN')).toEqual(['引用文本', '[A1 样式]']);
    expect(argumentsOf('COUNTIFS', 'zh-CN')).toEqual(['条件区域1', '条件1', '[条件区域2', '条件2]', '…']);
    expect(argumentsOf('SUMIF', 'en')).toEqual(['range', 'criteria', '[sum_range]']);
  });
});
