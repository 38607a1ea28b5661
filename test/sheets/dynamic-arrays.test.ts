import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatFormula, parseFormula, shiftFormula, Workbook, type CellInput, type DisplayValue } from '../../src/model/sheets/formulas/index.js';
import { legacyFormulaRead } from '../../src/model/sheets/formulas/legacy.js';
import { storedFunctionName, typedFormula } from '../../src/model/sheets/formulas/excel-functions.js';
import { inlineDefinitions, storedFormula } from '../../src/model/sheets/formulas/parser.js';
import { SCALAR_PARAMETERS } from '../../src/model/sheets/formulas/lifting.js';
import { FUNCTIONS } from '../../src/model/sheets/formulas/functions.js';

const legacyFormula = (text: string) => legacyFormulaRead(text).text;

/** Dynamic arrays and spilling (issue 23; docs/FORMULAS.md "Dynamic arrays and spill"). */

const SHEET = 's1';

function sheetOf(cells: Array<[row: number, column: number, input: CellInput]>): Workbook {
  return new Workbook([{ id: SHEET, name: 'Sheet1', cells }]);
}

/** The shown values of a rectangle (zero-based, inclusive), rows of display values. */
function block(workbook: Workbook, top: number, left: number, bottom: number, right: number): DisplayValue[][] {
  const rows: DisplayValue[][] = [];
  for (let row = top; row <= bottom; row++) {
    const line: DisplayValue[] = [];
    for (let column = left; column <= right; column++) line.push(workbook.displayValue(SHEET, row, column));
    rows.push(line);
  }
  return rows;
}

/** One formula's whole spill, over A1:A5 = 3, 1, 2, 1, "b" and B1:B5 = "x", "y", "z", "y", "w" (formula in D1). */
function spill(formula: string): DisplayValue[][] {
  const workbook = sheetOf([
    ...[3, 1, 2, 1, 'b'].map((value, row): [number, number, CellInput] => [row, 0, value]),
    ...['x', 'y', 'z', 'y', 'w'].map((value, row): [number, number, CellInput] => [row, 1, value]),
    [0, 3, formula],
  ]);
  const area = workbook.spillArea(SHEET, 0, 3);
  if (!area) return [[workbook.displayValue(SHEET, 0, 3)]];
  return block(workbook, area.startRow, area.startColumn, area.endRow, area.endColumn);
}

describe('spilling array results', () => {
  it('an array result fills the cells below and right; they hold no formula; A1# is the whole array', () => {
    const workbook = sheetOf([
      [0, 0, '=SEQUENCE(3)'],
      [0, 2, '=SUM(A1#)'],
      [0, 3, '=A3*10'],
      [0, 4, '=ROWS(A1#)'],
    ]);
    expect(block(workbook, 0, 0, 3, 0)).toEqual([[1], [2], [3], ['']]);
    expect(workbook.displayValue(SHEET, 0, 2)).toBe(6);
    expect(workbook.displayValue(SHEET, 0, 3)).toBe(30);
    expect(workbook.displayValue(SHEET, 0, 4)).toBe(3);
    expect(workbook.spillArea(SHEET, 0, 0)).toEqual({ startRow: 0, endRow: 2, startColumn: 0, endColumn: 0, blocked: false });
    expect(workbook.spillAnchor(SHEET, 2, 0)).toEqual({ row: 0, column: 0 });
    expect(workbook.spillAnchor(SHEET, 0, 3)).toBeUndefined();
    const cells: Array<[number, number, unknown, string | undefined]> = [];
    workbook.forEachCell(SHEET, { startRow: 0, endRow: 5, startColumn: 0, endColumn: 0 }, (row, column, value, formula) => cells.push([row, column, value, formula]));
    expect(cells.sort((a, b) => a[0] - b[0])).toEqual([[0, 0, 1, '=SEQUENCE(3)'], [1, 0, 2, undefined], [2, 0, 3, undefined]]);
  });

  it('a value typed in the area gives #SPILL!; clearing it spills again; readers follow', () => {
    const workbook = sheetOf([
      [0, 0, '=SEQUENCE(3)'],
      [0, 2, '=A3*10'],
    ]);
    // shown before the change (a formula never read is computed when it is, and is not reported)
    expect(workbook.value(SHEET, 0, 2)).toBe(30);
    const changed = workbook.setCell(SHEET, 2, 0, 'x');
    expect(workbook.displayValue(SHEET, 0, 0)).toBe('#SPILL!');
    expect(workbook.displayValue(SHEET, 1, 0)).toBe('');
    expect(workbook.displayValue(SHEET, 0, 2)).toBe('#VALUE!');
    expect(workbook.spillArea(SHEET, 0, 0)?.blocked).toBe(true);
    // the cells to redraw: the anchor, the emptied spill and the reader
    expect(changed).toEqual(expect.arrayContaining([{ sheetId: SHEET, row: 0, column: 0 }, { sheetId: SHEET, row: 1, column: 0 }, { sheetId: SHEET, row: 0, column: 2 }]));
    workbook.setCell(SHEET, 2, 0, null);
    expect(block(workbook, 0, 0, 2, 0)).toEqual([[1], [2], [3]]);
    expect(workbook.displayValue(SHEET, 0, 2)).toBe(30);
  });

  it('a formula in the area blocks it too (no cycle), and an array does not spill over another', () => {
    const workbook = sheetOf([
      [0, 0, '=SEQUENCE(3)'],
      [2, 0, '=A1*2'],
      [0, 1, '=SEQUENCE(1,3)'],
    ]);
    expect(workbook.displayValue(SHEET, 0, 0)).toBe('#SPILL!');
    expect(workbook.displayValue(SHEET, 2, 0)).toBe('#SPILL!');
    expect(block(workbook, 0, 1, 0, 3)).toEqual([[1, 2, 3]]);
    // C1 spills over D1… only once A1's array moves away
    workbook.setCell(SHEET, 1, 1, '=SEQUENCE(1,2)');
    expect(block(workbook, 1, 1, 1, 2)).toEqual([[1, 2]]);
    workbook.setCell(SHEET, 0, 2, '=1');
    expect(workbook.displayValue(SHEET, 0, 1)).toBe('#SPILL!');
    workbook.setCell(SHEET, 0, 2, null);
    expect(block(workbook, 0, 1, 0, 3)).toEqual([[1, 2, 3]]);
  });

  it('spilled values recompute when the inputs change, and the area grows and shrinks', () => {
    const workbook = sheetOf([
      [0, 0, 2],
      [0, 1, '=SEQUENCE(A1)'],
      [0, 2, '=SUM(B:B)'],
      [0, 3, '=B3'],
    ]);
    expect(block(workbook, 0, 1, 2, 1)).toEqual([[1], [2], ['']]);
    expect(workbook.displayValue(SHEET, 0, 2)).toBe(3);
    workbook.setCell(SHEET, 0, 0, 4);
    expect(block(workbook, 0, 1, 4, 1)).toEqual([[1], [2], [3], [4], ['']]);
    expect(workbook.displayValue(SHEET, 0, 2)).toBe(10);
    expect(workbook.displayValue(SHEET, 0, 3)).toBe(3);
    workbook.setCell(SHEET, 0, 0, 1);
    expect(block(workbook, 0, 1, 3, 1)).toEqual([[1], [''], [''], ['']]);
    expect(workbook.displayValue(SHEET, 0, 3)).toBe(0);
    // removing the formula takes its spill with it
    workbook.setCell(SHEET, 0, 0, 3);
    workbook.setCell(SHEET, 0, 1, null);
    expect(block(workbook, 0, 1, 2, 1)).toEqual([[''], [''], ['']]);
  });

  it('operators work element by element; whole columns keep implicit intersection', () => {
    expect(spill('=A1:A3*2')).toEqual([[6], [2], [4]]);
    expect(spill('=A1:A2&B1:B2')).toEqual([['3x'], ['1y']]);
    expect(spill('=A1:A3+{10,20}')).toEqual([[13, 23], [11, 21], [12, 22]]);
    expect(spill('=-A1:A2')).toEqual([[-3], [-1]]);
    expect(spill('=A1:A3>1')).toEqual([[true], [false], [true]]);
    expect(spill('=A1:A2*{1;2;3}')).toEqual([[3], [2], ['#N/A']]);
    expect(spill('=A:A&"/"')).toEqual([['3/']]);
    expect(spill('=SUM(A1:A3*A1:A3)')).toEqual([[14]]);
  });

  it('an array passing the grid edge is #SPILL!; an empty one #CALC!', () => {
    const workbook = sheetOf([[1_048_575, 0, '=SEQUENCE(2)']]);
    expect(workbook.displayValue(SHEET, 1_048_575, 0)).toBe('#SPILL!');
    expect(spill('=FILTER(A1:A3,A1:A3>5)')).toEqual([['#CALC!']]);
    expect(spill('=FILTER(A1:A3,A1:A3>5,"none")')).toEqual([['none']]);
    expect(spill('=Z1#')).toEqual([['#REF!']]);
  });

  it('A1# reads, prints and moves as a reference', () => {
    const parsed = parseFormula('=SUM(Sheet2!B2#)+A1#');
    expect(parsed.ok && formatFormula(parsed.ast)).toBe('=SUM(Sheet2!B2#)+A1#');
    expect(shiftFormula('=SUM(A3#)', 'Sheet1', { kind: 'insert', axis: 'rows', sheet: 'Sheet1', index: 0, count: 2 })).toBe('=SUM(A5#)');
    expect(parseFormula('=A1#REF!').ok).toBe(false);
  });
});

describe('dynamic-array functions', () => {
  it.each([
    ['=SEQUENCE(2,3)', [[1, 2, 3], [4, 5, 6]]],
    ['=SEQUENCE(3,1,10,-5)', [[10], [5], [0]]],
    ['=SORT(A1:A5)', [[1], [1], [2], [3], ['b']]],
    ['=SORT(A1:B4,2,-1)', [[2, 'z'], [1, 'y'], [1, 'y'], [3, 'x']]],
    ['=SORTBY(B1:B3,A1:A3)', [['y'], ['z'], ['x']]],
    ['=SORTBY(B1:B4,A1:A4,-1,B1:B4,1)', [['x'], ['z'], ['y'], ['y']]],
    ['=FILTER(B1:B5,A1:A5=1)', [['y'], ['y']]],
    ['=FILTER(A1:B5,(A1:A5>1)*(B1:B5<>"z"))', [[3, 'x'], ['b', 'w']]],
    ['=UNIQUE(B1:B5)', [['x'], ['y'], ['z'], ['w']]],
    ['=UNIQUE(A1:A4,,TRUE)', [[3], [2]]],
    ['=UNIQUE({"a","A","b"},TRUE)', [['a', 'b']]],
    ['=TRANSPOSE(A1:A3)', [[3, 1, 2]]],
    ['=TOCOL(A1:B2)', [[3], ['x'], [1], ['y']]],
    ['=TOROW(A1:B2,,TRUE)', [[3, 1, 'x', 'y']]],
    ['=CHOOSECOLS(A1:B2,2,1)', [['x', 3], ['y', 1]]],
    ['=CHOOSEROWS(A1:B5,-1)', [['b', 'w']]],
    ['=TAKE(A1:A5,2)', [[3], [1]]],
    ['=TAKE(A1:A5,-2)', [[1], ['b']]],
    ['=DROP(A1:B3,1,1)', [['y'], ['z']]],
    ['=HSTACK(A1:A2,B1:B3)', [[3, 'x'], [1, 'y'], ['#N/A', 'z']]],
    ['=VSTACK({1,2},{3})', [[1, 2], [3, '#N/A']]],
    ['=TEXTSPLIT("a,b;c",",",";")', [['a', 'b'], ['c', '#N/A']]],
    ['=TEXTSPLIT("a,,b",",",,TRUE)', [['a', 'b']]],
    ['=WRAPROWS(A1:A5,2)', [[3, 1], [2, 1], ['b', '#N/A']]],
    ['=WRAPCOLS(B1:B5,3,"-")', [['x', 'y'], ['y', 'w'], ['z', '-']]],
    ['=WRAPROWS(A1:B2,2)', [['#VALUE!']]],
    ['=WRAPROWS(A1:A5,0)', [['#NUM!']]],
    ['=EXPAND({1,2},2,3,0)', [[1, 2, 0], [0, 0, 0]]],
    ['=EXPAND(A1:A2,3)', [[3], [1], ['#N/A']]],
    ['=EXPAND({1,2},1,1)', [['#VALUE!']]],
    ['=TEXTBEFORE("Red riding hood"," ")', [['Red']]],
    ['=TEXTBEFORE("Red riding hood"," ",-1)', [['Red riding']]],
    ['=TEXTAFTER("Red riding hood"," ",2)', [['hood']]],
    ['=TEXTAFTER("a-B-c","b",,1)', [['-c']]],
    ['=TEXTAFTER("a-B-c","b")', [['#N/A']]],
    ['=TEXTBEFORE("abc","x",,,,"none")', [['none']]],
    ['=TEXTBEFORE("abc","x",,,1)', [['abc']]],
    ['=TEXTAFTER("abc","")', [['abc']]],
    ['=TEXTBEFORE("a,b;c",{",",";"},2)', [['a,b']]],
    ['=TEXTBEFORE("abc","b",0)', [['#VALUE!']]],
    ['=XLOOKUP("y",B1:B5,A1:B5)', [[1, 'y']]],
    ['=XLOOKUP(2,A1:A5,B1:B5)', [['z']]],
    ['=MMULT({1,2;3,4},{1;1})', [[3], [7]]],
  ])('%s', (formula, expected) => {
    expect(spill(formula)).toEqual(expected);
  });

  it('RANDARRAY is volatile and in its bounds', () => {
    const workbook = sheetOf([[0, 0, '=RANDARRAY(3,2,5,7,TRUE)']]);
    const values = block(workbook, 0, 0, 2, 1).flat();
    expect(values.every((value) => typeof value === 'number' && Number.isInteger(value) && value >= 5 && value <= 7)).toBe(true);
    expect(workbook.spillArea(SHEET, 0, 0)).toMatchObject({ endRow: 2, endColumn: 1 });
  });
});

describe('dynamic arrays (property-based)', () => {
  const value = fc.oneof(fc.integer({ min: -50, max: 50 }), fc.constantFrom('a', 'B', 'c', 'b'), fc.boolean());
  const column = fc.array(value, { minLength: 1, maxLength: 12 });
  const columnSheet = (values: Array<number | string | boolean>, formula: string) =>
    sheetOf([...values.map((input, row): [number, number, CellInput] => [row, 0, input]), [0, 2, formula]]);
  const kind = (v: unknown) => (typeof v === 'number' ? 0 : typeof v === 'string' ? 1 : 2);

  it('SORT gives a permutation of its input, in Excel\'s order', () => {
    fc.assert(
      fc.property(column, (values) => {
        const workbook = columnSheet(values, `=SORT(A1:A${values.length})`);
        const sorted = block(workbook, 0, 2, values.length - 1, 2).map(([v]) => v);
        expect([...sorted].map(String).sort()).toEqual(values.map(String).sort());
        for (let i = 1; i < sorted.length; i++) {
          const [a, b] = [sorted[i - 1]!, sorted[i]!];
          expect(kind(a) <= kind(b)).toBe(true);
          if (kind(a) === kind(b)) expect(typeof a === 'string' ? a.toLowerCase() <= (b as string).toLowerCase() : Number(a) <= Number(b)).toBe(true);
        }
      }),
    );
  });

  it('TAKE and DROP of the same count partition the array', () => {
    fc.assert(
      fc.property(column, fc.integer({ min: -14, max: 14 }), (values, count) => {
        const n = values.length;
        const workbook = sheetOf([
          ...values.map((input, row): [number, number, CellInput] => [row, 0, input]),
          [0, 2, `=IFERROR(ROWS(TAKE(A1:A${n},${count})),0)`],
          [0, 3, `=IFERROR(ROWS(DROP(A1:A${n},${count})),0)`],
          [0, 4, `=IFERROR(VSTACK(TAKE(A1:A${n},${count}),DROP(A1:A${n},${count})),"")`],
        ]);
        expect(Number(workbook.displayValue(SHEET, 0, 2)) + Number(workbook.displayValue(SHEET, 0, 3))).toBe(n);
        if (count > 0 && count < n) expect(block(workbook, 0, 4, n - 1, 4).map(([v]) => v)).toEqual(values);
      }),
    );
  });

  it('the spill area has the array\'s shape, and only there cells hold values', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 8 }), fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 5 }), (rows, columns, top, left) => {
        const workbook = sheetOf([[top, left, `=SEQUENCE(${rows},${columns})`]]);
        // a 1×1 array is one value: nothing spills
        const area = rows * columns === 1 ? undefined : { startRow: top, endRow: top + rows - 1, startColumn: left, endColumn: left + columns - 1, blocked: false };
        expect(workbook.spillArea(SHEET, top, left)).toEqual(area);
        let count = 0;
        workbook.forEachCell(SHEET, { startRow: 0, endRow: 20, startColumn: 0, endColumn: 20 }, (row, column, value) => {
          count++;
          expect(value).toBe((row - top) * columns + (column - left) + 1);
        });
        expect(count).toBe(rows * columns);
      }),
    );
  });

  it('spilling, blocking and freeing in any order ends as computing the final inputs from scratch', () => {
    // COUNT over a whole column, not SUM: which of several errors SUM meets first is not part of this property
    const edit = fc.record({ row: fc.integer({ min: 0, max: 5 }), column: fc.integer({ min: 0, max: 2 }), input: fc.constantFrom<CellInput>(null, 1, 'x', '=SEQUENCE(2)', '=SEQUENCE(1,2)', '=A1#', '=COUNT(A:A)') });
    fc.assert(
      fc.property(fc.array(edit, { maxLength: 12 }), (edits) => {
        const live = sheetOf([]);
        const final = new Map<string, [number, number, CellInput]>();
        for (const { row, column, input } of edits) {
          live.setCell(SHEET, row, column, input);
          final.set(`${row},${column}`, [row, column, input]);
        }
        const fresh = sheetOf([...final.values()]);
        expect(block(live, 0, 0, 7, 3)).toEqual(block(fresh, 0, 0, 7, 3));
      }),
      { numRuns: 300 },
    );
  });
});

describe('functions of single values given arrays (lifting)', () => {
  it.each([
    ['=ABS(A1:A3-2)', [[1], [1], [0]]],
    ['=LEFT(B1:B3,1)&"!"', [['x!'], ['y!'], ['z!']]],
    ['=ROUND(A1:A2/3,{1,2})', [[1, 1], [0.3, 0.33]]],
    ['=ISNUMBER(A4:A5)', [[true], [false]]],
    ['=SUMPRODUCT(--ISNUMBER(SEARCH("y",B1:B5)))', [[2]]],
    ['=SUM(LEN(B1:B5))', [[5]]],
    ['=IF(A1:A3>1,"big","small")', [['big'], ['small'], ['big']]],
    ['=IF(A1:A3>1,B1:B3)', [['x'], [false], ['z']]],
    ['=IFERROR(1/(A1:A3-1),"none")', [[0.5], ['none'], [1]]],
    ['=DATE(2024,A1:A2,1)', [[45352], [45292]]],
    ['=MOD(A1:A3,{2;2})', [[1], [1], ['#N/A']]],
  ])('%s', (formula, expected) => {
    expect(spill(formula)).toEqual(expected);
  });

  it('every function listed as taking single values is one the engine computes eagerly', () => {
    for (const name of SCALAR_PARAMETERS) expect(FUNCTIONS.get(name), name).toMatchObject({ minArgs: expect.any(Number) });
    for (const name of SCALAR_PARAMETERS) expect(FUNCTIONS.get(name)?.lazy, name).toBeFalsy();
  });
});

describe('legacy formulas of imported workbooks (implicit intersection, @)', () => {
  it('reads one value where an operator or the cell wants one, as Excel 365 opens them', () => {
    expect(legacyFormula('=A1:A9*2')).toBe('=@A1:A9*2');
    // SUM computed its argument for one row unless entered with Ctrl+Shift+Enter; SUMPRODUCT always as an array
    expect(legacyFormula('=SUM(A1:A9*2)')).toBe('=SUM(@A1:A9*2)');
    expect(legacyFormula('=SUMPRODUCT(A1:A9*B1:B9)')).toBe('=SUMPRODUCT(A1:A9*B1:B9)');
    expect(legacyFormula('=A1:A9')).toBe('=@A1:A9');
    expect(legacyFormula('=IF(A1>0,B1:B3,0)')).toBe('=@IF(A1>0,B1:B3,0)');
    expect(legacyFormula('=IF(A1>0,"x","y")')).toBe('=IF(A1>0,"x","y")');
    expect(legacyFormula('=A:A&"/"&B2')).toBe('=A:A&"/"&B2');
    expect(legacyFormula('=-TRANSPOSE(A1:C1)')).toBe('=-@TRANSPOSE(A1:C1)');
    // a function of single values, and IF's condition, read one value too; inside SUMPRODUCT nothing is intersected
    expect(legacyFormula('=ABS(A1:A9)+LEN(B1:B9)')).toBe('=ABS(@A1:A9)+LEN(@B1:B9)');
    expect(legacyFormula('=IF(A1:A9,1,2)')).toBe('=IF(@A1:A9,1,2)');
    expect(legacyFormula('=SUMPRODUCT(--ISNUMBER(SEARCH("x",B1:B9)))')).toBe('=SUMPRODUCT(--ISNUMBER(SEARCH("x",B1:B9)))');
    const parsed = parseFormula('=@(A1:B2 B1:B3)+@A1:A3');
    expect(parsed.ok && formatFormula(parsed.ast)).toBe('=@A1:B2 B1:B3+@A1:A3');
  });

  it('@ takes the cell in the formula\'s row, or an array\'s first value', () => {
    const workbook = sheetOf([
      [0, 0, 1],
      [1, 0, 2],
      [2, 0, 3],
      [1, 1, '=@A1:A3*10'],
      [1, 2, '=@SEQUENCE(3)+5'],
    ]);
    expect(workbook.displayValue(SHEET, 1, 1)).toBe(20);
    expect(workbook.displayValue(SHEET, 1, 2)).toBe(6);
    expect(workbook.spillArea(SHEET, 1, 1)).toBeUndefined();
  });
});

describe('formulas as files store them', () => {
  it('typedFormula takes off Excel\'s storage prefixes, not inside text or sheet names', () => {
    expect(typedFormula('_xlfn._xlws.SORT(A1:A9)+_xlfn.ANCHORARRAY(B1)')).toBe('SORT(A1:A9)+ANCHORARRAY(B1)');
    expect(typedFormula('_xlfn.LET(_xlpm.x,1,_xlpm.x+"_xlfn.")&\'_xlfn.s\'!A1')).toBe('LET(x,1,x+"_xlfn.")&\'_xlfn.s\'!A1');
  });
});

describe('LAMBDA and the functions calling one', () => {
  it.each([
    ['=LET(f,LAMBDA(x,x*2),f(A1))', [[6]]],
    ['=LET(add,LAMBDA(a,b,a+b),twice,LAMBDA(x,add(x,x)),twice(5))', [[10]]],
    ['=LET(k,10,f,LAMBDA(x,x+k),k,100,f(1))', [[11]]],
    ['=MAP(A1:A3,LAMBDA(x,x*10))', [[30], [10], [20]]],
    ['=MAP(A1:A2,B1:B2,LAMBDA(n,s,s&n))', [['x3'], ['y1']]],
    ['=REDUCE(0,A1:A4,LAMBDA(acc,v,acc+v))', [[7]]],
    ['=SCAN(0,A1:A4,LAMBDA(acc,v,acc+v))', [[3], [4], [6], [7]]],
    ['=BYROW(A1:B3,LAMBDA(r,COUNTA(r)))', [[2], [2], [2]]],
    ['=BYCOL(SEQUENCE(2,3),LAMBDA(c,SUM(c)))', [[5, 7, 9]]],
    ['=MAKEARRAY(2,3,LAMBDA(r,c,r*10+c))', [[11, 12, 13], [21, 22, 23]]],
    ['=LET(f,LAMBDA(a,b,IF(ISOMITTED(b),a,a*b)),f(3)+f(3,2))', [[9]]],
    ['=LAMBDA(x,x+1)', [['#CALC!']]],
    ['=MAP(A1:A2,LAMBDA(x,SEQUENCE(2)))', [['#CALC!'], ['#CALC!']]],
    ['=LET(f,LAMBDA(x,x),f(1,2))', [['#VALUE!']]],
    ['=MAP(A1:A2,5)', [['#VALUE!']]],
    ['=nosuch(1)', [['#NAME?']]],
    ['=LAMBDA(x,x+1)(2)', [[3]]],
    ['=LAMBDA(a,b,a*b)(A1,4)+1', [[13]]],
    ['=LAMBDA(x,x)(1,2)', [['#VALUE!']]],
    ['=MAP(A1:A2,LAMBDA(x,LAMBDA(y,y*x)(2)))', [[6], [2]]],
  ])('%s', (formula, expected) => {
    expect(spill(formula)).toEqual(expected);
  });

  it('LAMBDA names are stored with _xlpm. and read back without it', () => {
    expect(typedFormula('_xlfn.MAP(A1:A3,_xlfn.LAMBDA(_xlpm.x,_xlpm.x*2))')).toBe('MAP(A1:A3,LAMBDA(x,x*2))');
    expect(storedFormula('LAMBDA(x,x+1)(2)', storedFunctionName)).toBe('_xlfn.LAMBDA(_xlpm.x,_xlpm.x+1)(2)');
    expect(typedFormula(storedFormula('MAP(A1:A3,LAMBDA(x,x*2))', storedFunctionName))).toBe('MAP(A1:A3,LAMBDA(x,x*2))');
  });

  it('a LAMBDA called in place prints as typed and parses back to the same tree', () => {
    const parsed = parseFormula('=LAMBDA(x,y,x*y)(3,A1)');
    expect(parsed.ok && formatFormula(parsed.ast)).toBe('=LAMBDA(x,y,x*y)(3,A1)');
  });

  it('a LAMBDA the Name Manager defines is called by its name', () => {
    const double = parseFormula('LAMBDA(x,x*2)');
    const names = new Map(double.ok ? [['DOUBLE', double.ast]] : []);
    const inlined = inlineDefinitions('=Double(A1)+DOUBLE(1)', { names });
    expect(inlined).toBe('=LAMBDA(x,x*2)(A1)+LAMBDA(x,x*2)(1)');
    expect(spill(inlined)).toEqual([[8]]);
  });
});
