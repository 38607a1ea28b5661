import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { docFromState, initialContent } from '../../src/model/content.js';
import { MAX_COLUMNS, MAX_ROWS } from '../../src/model/sheets/a1.js';
import {
  ERROR_CODES,
  formatFormula,
  FormulaError,
  MAX_FORMULA_LENGTH,
  parseFormula,
  shiftFormula,
  SpreadsheetCalculation,
  Workbook,
  type Ast,
  type CellInput,
  type StructureEdit,
} from '../../src/model/sheets/formulas/index.js';
import { formulaFormat, withFormulaFormat } from '../../src/model/sheets/formulas/auto-format.js';
import { inlineDefinitions, type ArrayElement, type TableDefinition } from '../../src/model/sheets/formulas/parser.js';
import { appendSheet, SheetModel } from '../../src/model/sheets/sheet-model.js';

const SHEET = 's1';

/** A one-sheet workbook from rows of inputs (row 0 is row 1). */
function sheetOf(rows: CellInput[][], now?: () => number): Workbook {
  const cells: Array<[number, number, CellInput]> = [];
  rows.forEach((line, row) => line.forEach((input, column) => cells.push([row, column, input])));
  return new Workbook([{ id: SHEET, name: 'Sheet1', cells }], now ? { now } : {});
}

/** The value of one formula computed over a small fixed sheet: A1:A4 = 1, 2, 3, "x"; B1:B4 = 10, 20, 30, TRUE. */
function compute(formula: string): ReturnType<Workbook['displayValue']> {
  const workbook = sheetOf([
    [1, 10],
    [2, 20],
    [3, 30],
    ['x', true],
    [null, null, formula],
  ]);
  return workbook.displayValue(SHEET, 4, 2);
}

describe('formula functions and operators', () => {
  it.each([
    ['=1+2*3', 7],
    ['=(1+2)*3', 9],
    ['=2^3^2', 64],
    ['=-2^2', 4],
    ['=50%', 0.5],
    ['=10/4', 2.5],
    ['=0.1+0.2', 0.30000000000000004],
    ['="a"&1&TRUE', 'a1TRUE'],
    ['=1<2', true],
    ['="abc"="ABC"', true],
    ['=2>"1"', false],
    ['=A1+B1', 11],
    ['=$A$2*B$2', 40],
    ['=SUM(A1:B4)', 66],
    ['=SUM(A:A)', 6],
    ['=SUM(1:2)', 33],
    ['=SUM(A1,"2",TRUE)', 4],
    ['=AVERAGE(A1:A4)', 2],
    ['=COUNT(A1:B4)', 6],
    ['=COUNTA(A1:B4)', 8],
    ['=MIN(A1:B3)', 1],
    ['=MAX(A1:B3)', 30],
    ['=MAX(D1:D9)', 0],
    ['=IF(A1>0,"yes","no")', 'yes'],
    ['=IF(A1>5,"yes")', false],
    ['=IF(FALSE,1/0,"safe")', 'safe'],
    ['=AND(TRUE,A1)', true],
    ['=OR(FALSE,0)', false],
    ['=NOT(B4)', false],
    ['=ROUND(2.5)', 3],
    ['=ROUND(-2.5)', -3],
    ['=ROUND(1.005,2)', 1.01],
    ['=ROUND(1234,-2)', 1200],
    ['=ABS(-3)', 3],
    ['=VLOOKUP(2,A1:B3,2,FALSE)', 20],
    ['=VLOOKUP(2.5,A1:B3,2)', 20],
    ['=VLOOKUP("X",A1:B4,2,FALSE)', true],
    ['=CONCAT(A1:A3,"-")', '123-'],
    ['=CONCATENATE("a","b",A1)', 'ab1'],
    ['=LEN("héllo")', 5],
    ['=UPPER("abc")', 'ABC'],
    ['=LOWER("ABC")', 'abc'],
    ['=IFERROR(1/0,"oops")', 'oops'],
    ['=IFERROR(A1,"oops")', 1],
    ['=SUMIF(A1:A3,">1")', 5],
    ['=SUMIF(A1:A4,"x",B1:B4)', 0],
    ['=SUMIF(A1:A3,">=2",B1:B3)', 50],
    ['=COUNTIF(A1:A4,"x")', 1],
    ['=COUNTIF(A1:B3,">5")', 3],
    ['=COUNTIF(A1:A4,"<>x")', 3],
    ['=A1', 1],
    ['=D9', 0],
  ] as const)('%s = %j', (formula, expected) => {
    expect(compute(formula)).toEqual(expected);
  });

  it('TODAY and NOW read the clock as serial dates, and recompute when asked', () => {
    let now = Date.UTC(2026, 10, 23, 18, 0);
    const workbook = sheetOf([['=TODAY()', '=NOW()', '=A1+1']], () => now);
    expect(workbook.value(SHEET, 0, 0)).toBe(46349);
    expect(workbook.value(SHEET, 0, 1)).toBeCloseTo(46349.75, 6);
    // shown, so computed: a formula never read computes when it is, and is not reported
    expect(workbook.value(SHEET, 0, 2)).toBe(46350);
    now += 86_400_000;
    expect(workbook.recalculateVolatile().map((cell) => cell.column).sort()).toEqual([0, 1, 2]);
    expect(workbook.value(SHEET, 0, 2)).toBe(46351);
  });
});

describe('Excel semantics measured by the formula oracle (issue 23)', () => {
  it.each([
    // empty arguments read as empty values
    ['=ROUND(2.5,)', 3],
    ['=IF(FALSE,1,)', 0],
    ['=IF(A1=1,"one",)', 'one'],
    // Excel's storage prefixes are read without them
    ['=_xlfn.CONCAT("a","b")', 'ab'],
    ['=_xlfn.STDEV.S(A1:A3)', 1],
    // "" is text, not zero, in arithmetic; an empty cell is zero
    ['=""*"1"', '#VALUE!'],
    ['=E9+1', 1],
    // functions computed by @formulajs/formulajs behind our argument layer
    ['=SIN(RADIANS(90))', 1],
    ['=MEDIAN(A1:A4)', 2],
    ['=LARGE(B1:B4,1)', 30],
    ['=ISNA(NA())', true],
    ['=ISERROR(1/0)', true],
    ['=SUBSTITUTE("a-b-c","-","+")', 'a+b+c'],
    ['=LEFT("hello",2)&MID("hello",2,3)', 'heell'],
    ['=SUMPRODUCT(A1:A3,B1:B3)', 140],
    ['=COUNTIFS(A1:A3,">1",B1:B3,"<30")', 1],
    ['=INDEX(A1:B3,2,2)', 20],
    ['=MATCH(3,A1:A3,0)', 3],
    ['=DATE(2024,1,31)', 45322],
    ['=EDATE(DATE(2024,1,31),1)', 45351],
    ['=YEAR(45322)', 2024],
    ['=HEX2DEC("FF")', 255],
    ['=ROUND(PMT(0.05/12,360,-200000),2)', 1073.64],
    ['=ROW()', 5],
    ['=XLOOKUP(20,B1:B3,A1:A3)', 2],
    ['=XLOOKUP(25,B1:B3,A1:A3,"none")', 'none'],
    ['=XLOOKUP(25,B1:B3,A1:A3,,-1)', 2],
    ['=XLOOKUP(25,B1:B3,A1:A3,,1)', 3],
    ['=_xlfn.XLOOKUP("x*",A1:A4,B1:B4,,2)', true],
    ['=XMATCH(30,B1:B3)', 3],
    ['=XMATCH(3,A1:A4,0,-1)', 3],
    ['=XMATCH(99,A1:A3)', '#N/A'],
    ['=COLUMN(B7)', 2],
    ['=ROWS(A1:B3)*COLUMNS(A1:B3)', 6],
    ['=TEXT(1234.5,"#,##0.00")', '1,234.50'],
    ['=TEXT(45366,"yyyy-mm-dd")', '2024-03-15'],
    // a one-column range where one value is wanted reads the formula's row (implicit intersection)
    ['=SUM(A:A)+0', 6],
  ])('%s is %j', (formula, expected) => {
    expect(compute(formula)).toEqual(expected);
  });

  it('a whole column in an operator, or a reference after @, reads the cell in the formula\'s own row', () => {
    // without @ a range of cells spills (test/sheets/dynamic-arrays.test.ts); an imported legacy formula gets the @
    const workbook = sheetOf([[1, '=A:A*10'], [2, '=@A1:A3*10'], [3, '=@A1:A2*10']]);
    expect([0, 1, 2].map((row) => workbook.displayValue(SHEET, row, 1))).toEqual([10, 20, '#VALUE!']);
  });

  it('defined names and table references of an imported workbook become the references they stand for', () => {
    const sales: TableDefinition = { sheet: 'Data', startRow: 0, endRow: 10, startColumn: 1, headerRows: 1, totalsRows: 1, columns: ['Name', 'Gender ', 'Amount'] };
    const rate = parseFormula('Setup!$B$1');
    const definitions = { tables: new Map([['SALES', sales]]), names: new Map(rate.ok ? [['TAXRATE', rate.ast]] : []), row: 4 };
    expect(
      ['=SUM(Sales[Amount])*TaxRate', '=Sales[]', '=Sales[#All]', '=Sales[[#This Row],[Gender ]]', '=Sales[@Amount]*2', '=Sales[[#Headers],[Name]:[Amount]]', '=Sales[[#Totals],[Amount]]', '=Other[x]', '=Vlook1', '=A1+1'].map((text) =>
        inlineDefinitions(text, definitions),
      ),
    ).toEqual(['=SUM(Data!$D$2:$D$10)*Setup!$B$1', '=Data!$B$2:$D$10', '=Data!$B$1:$D$11', '=Data!$C$5', '=Data!$D$5*2', '=Data!$B$1:$D$1', '=Data!$D$11', '=#REF!', '=Vlook1', '=A1+1']);
    // without definitions a name longer than a column's three letters is a name (#NAME?), not a reference
    expect(compute('=Vlook1')).toBe('#NAME?');
  });

  it('an error code stored in a cell is that error value, not text', () => {
    const workbook = sheetOf([['#N/A', '=ISNA(A1)', '=ISTEXT(A1)', '=IFERROR(A1,"none")']]);
    expect([1, 2, 3].map((column) => workbook.displayValue(SHEET, 0, column))).toEqual([true, false, 'none']);
    expect(workbook.value(SHEET, 0, 0)).toBe(FormulaError.of('#N/A'));
  });
});

describe('array constants and LET (issue 23)', () => {
  it.each([
    ['=SUM({1,2;3,4})', 10],
    ['=SUM({1,-2,"a",TRUE})', -1],
    ['={7,8,9}', 7],
    ['=MATCH(3,{1,2,3},0)', 3],
    ['=VLOOKUP(2,{1,"a";2,"b"},2,FALSE)', 'b'],
    ['=MMULT({1,2},{3;4})', 11],
    ['=COUNTA({1,#N/A})', 2],
    ['=LET(x,2,y,x*3,x+y)', 8],
    ['=LET(x,A1:A3,SUM(x))', 6],
    ['=LET(x,1,LET(y,x+1,x+y))', 3],
    ['=LET(total,SUM(B1:B3),total/3)', 20],
    ['=LET(x,1,y)', '#NAME?'],
    ['=LET(x,1)', '#VALUE!'],
  ] as const)('%s is %s', (formula, expected) => {
    expect(compute(formula)).toBe(expected);
  });

  it('an array constant whose rows differ in length, or that holds a reference, does not parse', () => {
    expect(parseFormula('={1,2;3}')).toMatchObject({ ok: false, reason: /same number of values/ });
    expect(parseFormula('={A1,2}')).toMatchObject({ ok: false, reason: /numbers, text, TRUE, FALSE or error values/ });
    expect(formatFormula((parseFormula('={1,-2.5;"a""b",#N/A}') as { ast: Ast }).ast)).toBe('={1,-2.5;"a""b",#N/A}');
  });
});

describe('formats of formula results (Excel\'s automatic formats, issue 23)', () => {
  const formats: Record<string, string> = { A1: 'yyyy-mm-dd', B1: '0.00%', 'Other!C3': 'hh:mm' };
  const formatOf = (sheet: string | null, row: number, column: number) => formats[`${sheet === null ? '' : `${sheet}!`}${String.fromCharCode(65 + column)}${row + 1}`];
  it.each([
    ['=DATE(2024,3,15)', 'yyyy-mm-dd'],
    ['=TODAY()+7', 'yyyy-mm-dd'],
    ['=(NOW())', 'yyyy-mm-dd hh:mm'],
    ['=TIME(9,30,0)', 'h:mm AM/PM'],
    ['=A1+7', 'yyyy-mm-dd'],
    ['=$A$1-A2', 'yyyy-mm-dd'],
    ['=Other!C3+1', 'hh:mm'],
    ['=7+A1', undefined],
    ['=A2/B2', undefined],
    ['=B1*2', undefined],
    ['=YEAR(A1)', undefined],
    ['=DATEVALUE("2024-01-01")', undefined],
    ['=SUM(A1:A3)', undefined],
    ['=DATE(2024,', undefined],
  ] as const)('%s → %s', (formula, expected) => {
    expect(formulaFormat(formula, formatOf)).toBe(expected);
  });

  it('a cell with a format keeps it; a formula cell without one is given the chosen one', () => {
    expect(withFormulaFormat({ f: '=TODAY()', z: '0.00' }, formatOf)).toEqual({ f: '=TODAY()', z: '0.00' });
    expect(withFormulaFormat({ f: '=TODAY()' }, formatOf)).toEqual({ f: '=TODAY()', z: 'yyyy-mm-dd' });
    expect(withFormulaFormat<{ v?: number; f?: string; z?: string }>({ v: 3 }, formatOf)).toEqual({ v: 3 });
  });
});

describe('formula errors', () => {
  it.each([
    ['=1/0', '#DIV/0!'],
    ['=A1/D1', '#DIV/0!'],
    ['=AVERAGE(D1:D3)', '#DIV/0!'],
    ['=NoSuchSheet!A1', '#REF!'],
    ["='Missing sheet'!A1:B2", '#REF!'],
    ['=A1048577', '#REF!'],
    ['=XFE1', '#REF!'],
    ['=SUM(A1:ZZZZ9)', '#REF!'],
    ['=VLOOKUP(1,A1:B3,3,FALSE)', '#REF!'],
    ['=NOSUCHFUNCTION(1)', '#NAME?'],
    ['=undefinedName+1', '#NAME?'],
    ['="abc"+1', '#VALUE!'],
    ['=A4*2', '#VALUE!'],
    ['=@A1:A3+1', '#VALUE!'],
    ['=ABS()', '#VALUE!'],
    ['=VLOOKUP(9,A1:B3,2,FALSE)', '#N/A'],
    ['=SQRT(-1)', '#NUM!'],
    ['=10^400', '#NUM!'],
    ['=1+', '#ERROR!'],
    ['=SUM(1,2', '#ERROR!'],
    ['=(1))', '#ERROR!'],
    ['="open', '#ERROR!'],
    ['=1 2', '#ERROR!'],
    ['=#BOGUS!', '#ERROR!'],
    ['=1/0+#N/A', '#DIV/0!'],
    ['=IFERROR(#REF!,#N/A)', '#N/A'],
  ] as const)('%s gives %s', (formula, expected) => {
    expect(compute(formula)).toBe(expected);
  });

  it('a formula that does not parse shows the value stored with it (an import keeps Excel\'s), else #ERROR!', () => {
    const workbook = new Workbook([{ id: SHEET, name: 'Sheet1', cells: [[0, 0, '=LAMBDA(x,x)(1)', 1], [0, 1, '=A1+1'], [0, 2, '=X(', '#N/A'], [0, 3, '=X(']] }]);
    expect([0, 1, 2, 3].map((column) => workbook.displayValue(SHEET, 0, column))).toEqual([1, 2, '#N/A', '#ERROR!']);
    // kept through a reload (a sheet added), dropped when the cell is given a formula that parses
    workbook.addSheet({ id: 's2', name: 'Sheet2' });
    expect(workbook.displayValue(SHEET, 0, 1)).toBe(2);
    workbook.setCells([{ sheetId: SHEET, row: 0, column: 0, input: '=5' }]);
    expect(workbook.displayValue(SHEET, 0, 1)).toBe(6);
  });

  it('an enormous or deeply nested formula is #ERROR!, with the reason, and never throws', () => {
    const long = `=${'1+'.repeat(MAX_FORMULA_LENGTH)}1`;
    const deep = `=${'('.repeat(2000)}1${')'.repeat(2000)}`;
    const negations = `=${'-'.repeat(4000)}1`;
    const workbook = sheetOf([[long, deep, negations]]);
    expect([0, 1, 2].map((column) => workbook.displayValue(SHEET, 0, column))).toEqual(['#ERROR!', '#ERROR!', '#ERROR!']);
    expect(workbook.formulaProblem(SHEET, 0, 0)).toMatch(/at most 8192 characters/);
    expect(workbook.formulaProblem(SHEET, 0, 1)).toMatch(/deeper than 100 levels/);
    expect(workbook.formulaProblem(SHEET, 0, 2)).toMatch(/deeper than 100 levels/);
  });

  it('a chain of more than 1,000 operators is #ERROR! (the tree would be too deep to evaluate)', () => {
    const workbook = sheetOf([[`=${'1+'.repeat(1500)}1`]]);
    expect(workbook.displayValue(SHEET, 0, 0)).toBe('#ERROR!');
    expect(workbook.formulaProblem(SHEET, 0, 0)).toMatch(/deeper than 1000 levels/);
  });

  it('a sum of 900 cells written as A1+A2+… (a long operator chain) computes', () => {
    const formula = `=${Array.from({ length: 900 }, (_, i) => `A${i + 1}`).join('+')}`;
    const rows: CellInput[][] = Array.from({ length: 900 }, () => [1]);
    rows[0]!.push(formula);
    expect(sheetOf(rows).value(SHEET, 0, 1)).toBe(900);
  });
});

describe('references computed at evaluation time, 3-D references, union and intersection (issue 23)', () => {
  it.each([
    ['=INDIRECT("B2")', 20],
    ['=SUM(INDIRECT("A1:A3"))', 6],
    ['=INDIRECT("Z99")', 0],
    ['=INDIRECT("not a reference")', '#REF!'],
    ['=SUM(OFFSET(A1,1,0,2,1))', 5],
    ['=OFFSET(A1,2,1)', 30],
    ['=OFFSET(A1,-1,0)', '#REF!'],
    ['=ROWS(OFFSET(A1,0,0,3,2))*10+COLUMNS(OFFSET(A1,0,0,3,2))', 32],
    ['=ADDRESS(2,3)', '$C$2'],
    ['=ADDRESS(2,3,4,TRUE,"My sheet")', "'My sheet'!C2"],
    ['=ISREF(A1)', true],
    ['=ISREF(1)', false],
    ['=SUM((A1:A2,B3))', 33],
    ['=COUNT((A1,A2,A4))', 2],
    ['=RANK(A2,(A1,A2,A3),1)', 2],
    ['=@(A1:B2 B1:B3)', '#VALUE!'],
    ['=SUM(A1:B2 B1:B3)', 30],
    ['=A1:B1 B1:B2', 10],
    ['=A1:A2 B1:B2', '#NULL!'],
    ["=Sheet1!#REF!", '#REF!'],
  ])('%s is %j', (formula, expected) => {
    expect(compute(formula)).toBe(expected);
  });

  it('a 3-D reference reads every sheet from the first to the last, in the workbook\'s order, and follows their changes', () => {
    const workbook = new Workbook([
      { id: 'a', name: 'Jan', cells: [[0, 0, 1], [1, 0, '=SUM(Jan:Mar!A1)'], [2, 0, "=COUNT('Jan:Mar'!A1:B1)"], [3, 0, '=SUM(Mar:Jan!A1)']] },
      { id: 'b', name: 'Feb', cells: [[0, 0, 10]] },
      { id: 'c', name: 'Mar', cells: [[0, 0, 100], [0, 1, 5]] },
      { id: 'd', name: 'Apr', cells: [[0, 0, 1000]] },
    ]);
    expect([1, 2, 3].map((row) => workbook.value('a', row, 0))).toEqual([111, 4, 111]);
    workbook.setCell('b', 0, 0, 20);
    expect(workbook.value('a', 1, 0)).toBe(121);
    expect(new Workbook([{ id: 'a', name: 'Jan', cells: [[0, 0, '=SUM(Jan:Nope!A1)']] }]).displayValue('a', 0, 0)).toBe('#REF!');
  });

  it('INDIRECT and OFFSET recompute after every change, reading cells computed in the same recalculation', () => {
    const workbook = sheetOf([[1, '=A1*2', '=INDIRECT("B"&A1)', '=C1+1'], [7, '=A2*2']]);
    expect(workbook.value(SHEET, 0, 2)).toBe(2);
    expect(workbook.value(SHEET, 0, 3)).toBe(3);
    // the text now names B2, which depends on A2: no static reference links them
    const changed = workbook.setCell(SHEET, 0, 0, 2);
    expect(workbook.value(SHEET, 0, 2)).toBe(14);
    expect(workbook.value(SHEET, 0, 3)).toBe(15);
    expect(changed).toEqual(expect.arrayContaining([{ sheetId: SHEET, row: 0, column: 2 }, { sheetId: SHEET, row: 0, column: 3 }]));
    workbook.setCell(SHEET, 1, 0, 8);
    expect(workbook.value(SHEET, 0, 2)).toBe(16);
  });

  it('RAND gives a new number after any change, as in Excel', () => {
    const workbook = sheetOf([['=RAND()', 1]]);
    const first = workbook.value(SHEET, 0, 0);
    const seen = new Set([first]);
    for (let i = 2; i < 6; i++) {
      workbook.setCell(SHEET, 0, 1, i);
      seen.add(workbook.value(SHEET, 0, 0));
    }
    expect(seen.size).toBeGreaterThan(1);
  });

  it('a circle closed through INDIRECT is #REF!, as a static cycle is', () => {
    const workbook = sheetOf([['=INDIRECT("B1")', '=A1+1']]);
    expect(workbook.displayValue(SHEET, 0, 1)).toBe('#REF!');
  });
});

describe('dates on Excel\'s 1900 calendar and VALUE (issue 23)', () => {
  it.each([
    ['=YEAR(0)*10000+MONTH(0)*100+DAY(0)', 19000100],
    ['=DAY(60)', 29],
    ['=YEAR(DATE(2024,2,29))', 2024],
    ['=EDATE(E9,E9)', 0],
    ['=EDATE(0,1)', 31],
    ['=EDATE(DATE(2024,1,31),1)', 45351],
    ['=EOMONTH(DATE(2024,1,15),1)', 45351],
    ['=EDATE(-1,1)', '#NUM!'],
    ['=VALUE("")', '#VALUE!'],
    ['=VALUE("ABC")', '#VALUE!'],
    ['=VALUE("12:00")', 0.5],
    ['=VALUE("$1,234.50")', 1234.5],
    ['=VALUE("50%")', 0.5],
    ['=VALUE(E9)', 0],
    ['=TEXT(1,"yyyy-mm-dd")', '1900-01-01'],
    ['=TEXT(61,"yyyy-mm-dd")', '1900-03-01'],
  ])('%s is %j', (formula, expected) => {
    expect(compute(formula)).toBe(expected);
  });
});

describe('reference cycles', () => {
  it('give #REF! to every cell of the cycle, and cells reading them see the error', () => {
    const workbook = sheetOf([['=B1+1', '=A1+1', '=A1*2', '=C1+C1']]);
    expect(workbook.displayValue(SHEET, 0, 0)).toBe('#REF!');
    expect(workbook.displayValue(SHEET, 0, 1)).toBe('#REF!');
    expect(workbook.displayValue(SHEET, 0, 2)).toBe('#REF!');
    // breaking the cycle recomputes everything that hung on it
    workbook.setCell(SHEET, 0, 1, 5);
    expect([0, 1, 2, 3].map((column) => workbook.value(SHEET, 0, column))).toEqual([6, 5, 12, 24]);
  });

  it('a formula reading itself, directly or through a range, is a cycle', () => {
    const workbook = sheetOf([['=A1'], ['=SUM(A1:A3)'], [1]]);
    expect(workbook.displayValue(SHEET, 0, 0)).toBe('#REF!');
    expect(workbook.displayValue(SHEET, 1, 0)).toBe('#REF!');
  });

  // how fast it ends is the benchmark's business (npm run bench -- formulas), not a timed test's
  it('a cycle through 50,000 cells ends without exhausting the stack', () => {
    const rows: CellInput[][] = Array.from({ length: 50_000 }, (_, row) => [`=A${row + 2}`]);
    rows[rows.length - 1] = ['=A1'];
    const workbook = sheetOf(rows);
    expect(workbook.displayValue(SHEET, 0, 0)).toBe('#REF!');
    expect(workbook.displayValue(SHEET, 49_999, 0)).toBe('#REF!');
  });
});

describe('incremental recompute', () => {
  it('a change recomputes its dependants only and reports the cells whose value changed', () => {
    const workbook = sheetOf([[1, '=A1*2', '=B1+1', 7, '=D1']]);
    // the row shown (computed) before the change, as an editor shows it
    expect(workbook.value(SHEET, 0, 2)).toBe(3);
    expect(workbook.value(SHEET, 0, 4)).toBe(7);
    const changed = workbook.setCell(SHEET, 0, 0, 10);
    expect(changed.map((cell) => cell.column).sort()).toEqual([0, 1, 2]);
    expect(workbook.value(SHEET, 0, 2)).toBe(21);
    // an input that leaves a formula's value unchanged stops there
    workbook.setCell(SHEET, 0, 1, '=A1*2+0');
    expect(workbook.setCell(SHEET, 0, 1, '=A1*2').map((cell) => cell.column)).toEqual([1]);
  });

  it('a chain of 10,000 dependent formulas follows a change at its head', () => {
    const rows: CellInput[][] = [[1], ...Array.from({ length: 10_000 }, (_, row) => [`=A${row + 1}+1`])];
    const workbook = sheetOf(rows);
    expect(workbook.value(SHEET, 10_000, 0)).toBe(10_001);
    const changed = workbook.setCell(SHEET, 0, 0, 100);
    expect(changed).toHaveLength(10_001);
    expect(workbook.value(SHEET, 10_000, 0)).toBe(10_100);
  });

  it('ranges, whole columns and cleared cells are followed', () => {
    const workbook = sheetOf([[1, '=SUM(A:A)', '=COUNT(A1:A5)']]);
    workbook.setCells([
      { sheetId: SHEET, row: 3, column: 0, input: 5 },
      { sheetId: SHEET, row: 999, column: 0, input: 10 },
    ]);
    expect(workbook.value(SHEET, 0, 1)).toBe(16);
    expect(workbook.value(SHEET, 0, 2)).toBe(2);
    workbook.setCell(SHEET, 0, 0, null);
    expect(workbook.value(SHEET, 0, 1)).toBe(15);
    expect(workbook.value(SHEET, 0, 0)).toBeNull();
  });

  it('a small range watched cell by cell is followed, and forgotten when the formula changes', () => {
    const workbook = sheetOf([[1, 2, '=SUM(A1:B2)'], [3, 4]]);
    expect(workbook.value(SHEET, 0, 2)).toBe(10);
    expect(workbook.setCell(SHEET, 1, 1, 40)).toContainEqual({ sheetId: SHEET, row: 0, column: 2 });
    expect(workbook.value(SHEET, 0, 2)).toBe(46);
    workbook.setCell(SHEET, 0, 2, '=A1');
    // B2 is no longer read: changing it recomputes nothing
    expect(workbook.setCell(SHEET, 1, 1, 5)).toEqual([{ sheetId: SHEET, row: 1, column: 1 }]);
    expect(workbook.value(SHEET, 0, 2)).toBe(1);
  });

  it('aggregates over a whole column of 200,000 numbers compute (no argument spreading)', () => {
    const cells: Array<[number, number, CellInput]> = Array.from({ length: 200_000 }, (_, row) => [row, 0, row % 1000]);
    cells.push([0, 1, '=MAX(A:A)'], [1, 1, '=MIN(A:A)'], [2, 1, '=COUNT(A:A)'], [3, 1, '=AVERAGE(A:A)']);
    const workbook = new Workbook([{ id: SHEET, name: 'Sheet1', cells }]);
    expect([0, 1, 2, 3].map((row) => workbook.value(SHEET, row, 1))).toEqual([999, 0, 200_000, 499.5]);
  });

  it('cross-sheet references follow added, renamed and removed sheets', () => {
    const workbook = new Workbook([
      { id: 'a', name: 'Sheet1', cells: [[0, 0, "='Sheet 2'!A1*2"], [0, 1, '=sheet 2!A1']] },
    ]);
    expect(workbook.displayValue('a', 0, 0)).toBe('#REF!');
    workbook.addSheet({ id: 'b', name: 'Sheet 2', cells: [[0, 0, 21]] });
    expect(workbook.value('a', 0, 0)).toBe(42);
    workbook.setCell('b', 0, 0, 5);
    expect(workbook.value('a', 0, 0)).toBe(10);
    workbook.renameSheet('b', 'Other');
    expect(workbook.displayValue('a', 0, 0)).toBe('#REF!');
    workbook.renameSheet('b', 'SHEET 2');
    expect(workbook.value('a', 0, 0)).toBe(10);
    workbook.removeSheet('b');
    expect(workbook.displayValue('a', 0, 0)).toBe('#REF!');
  });
});

describe('formula parser (property-based)', () => {
  const sheetName = fc.constantFrom(null, 'Sheet1', 'Sheet 2', "Bob's", 'Q1.data', 'B2', 'TRUE');
  const row = fc.integer({ min: 0, max: MAX_ROWS - 1 });
  const column = fc.integer({ min: 0, max: MAX_COLUMNS - 1 });
  const cell = fc.record({ kind: fc.constant('cell' as const), sheet: sheetName, row, column, rowAbsolute: fc.boolean(), columnAbsolute: fc.boolean() });
  const span = (max: number) => fc.tuple(fc.integer({ min: 0, max: max - 1 }), fc.integer({ min: 0, max: max - 1 })).map(([a, b]) => [Math.min(a, b), Math.max(a, b)] as const);
  const range = fc.oneof(
    fc.record({ sheet: sheetName, rows: span(MAX_ROWS), columns: span(MAX_COLUMNS), anchors: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }) }).map(
      ({ sheet, rows, columns, anchors }): Ast => ({
        kind: 'range', sheet, shape: 'cells',
        startRow: rows[0], endRow: rows[1], startColumn: columns[0], endColumn: columns[1],
        startRowAbsolute: anchors[0]!, endRowAbsolute: anchors[1]!, startColumnAbsolute: anchors[2]!, endColumnAbsolute: anchors[3]!,
      }),
    ),
    fc.record({ sheet: sheetName, columns: span(MAX_COLUMNS), anchors: fc.array(fc.boolean(), { minLength: 2, maxLength: 2 }) }).map(
      ({ sheet, columns, anchors }): Ast => ({
        kind: 'range', sheet, shape: 'columns',
        startRow: 0, endRow: MAX_ROWS - 1, startColumn: columns[0], endColumn: columns[1],
        startRowAbsolute: false, endRowAbsolute: false, startColumnAbsolute: anchors[0]!, endColumnAbsolute: anchors[1]!,
      }),
    ),
    fc.record({ sheet: sheetName, rows: span(MAX_ROWS), anchors: fc.array(fc.boolean(), { minLength: 2, maxLength: 2 }) }).map(
      ({ sheet, rows, anchors }): Ast => ({
        kind: 'range', sheet, shape: 'rows',
        startRow: rows[0], endRow: rows[1], startColumn: 0, endColumn: MAX_COLUMNS - 1,
        startRowAbsolute: anchors[0]!, endRowAbsolute: anchors[1]!, startColumnAbsolute: false, endColumnAbsolute: false,
      }),
    ),
  );
  const leaf: fc.Arbitrary<Ast> = fc.oneof(
    fc.double({ min: 0, max: 1e300, noNaN: true }).map((value): Ast => ({ kind: 'number', value })),
    fc.string({ maxLength: 8 }).map((value): Ast => ({ kind: 'string', value })),
    fc.boolean().map((value): Ast => ({ kind: 'boolean', value })),
    fc.constantFrom(...ERROR_CODES).map((code): Ast => ({ kind: 'error', code })),
    cell,
    range,
    fc.constantFrom('price', 'x_1', 'net.total').map((name): Ast => ({ kind: 'name', name })),
    // an array constant: rows of equal length, negative numbers among the elements
    fc
      .record({
        width: fc.integer({ min: 1, max: 3 }),
        elements: fc.array(
          fc.oneof(
            fc.double({ min: -1e300, max: 1e300, noNaN: true }).filter((value) => !Object.is(value, -0)).map((value): ArrayElement => ({ kind: 'number', value })),
            fc.string({ maxLength: 4 }).map((value): ArrayElement => ({ kind: 'string', value })),
            fc.boolean().map((value): ArrayElement => ({ kind: 'boolean', value })),
            fc.constantFrom(...ERROR_CODES).map((code): ArrayElement => ({ kind: 'error', code })),
          ),
          { minLength: 1, maxLength: 9 },
        ),
      })
      .map(({ width, elements }): Ast => {
        const rows: ArrayElement[][] = [];
        for (let i = 0; i + width <= elements.length; i += width) rows.push(elements.slice(i, i + width));
        return { kind: 'array', rows: rows.length > 0 ? rows : [elements.slice(0, 1)] };
      }),
  );
  const plainReference = fc.oneof(cell, range).map((reference): Ast => ({ ...(reference as Extract<Ast, { kind: 'cell' | 'range' }>), sheet: null }));
  const cube = fc
    .record({ first: sheetName.filter((name) => name !== null), last: sheetName.filter((name) => name !== null), reference: plainReference })
    .map(({ first, last, reference }): Ast => ({ kind: 'cube', first: first!, last: last!, reference: reference as Extract<Ast, { kind: 'cell' | 'range' }> }));
  const ast = fc.letrec<{ node: Ast; reference: Ast }>((tie) => ({
    // what the intersection operator joins: references, and what gives one (a call, a union, a 3-D reference)
    reference: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      cell,
      range,
      cube,
      fc.record({ kind: fc.constant('binary' as const), operator: fc.constant(' ' as const), left: tie('reference'), right: tie('reference') }),
      fc.record({ kind: fc.constant('union' as const), areas: fc.array(tie('node'), { minLength: 2, maxLength: 3 }) }),
    ),
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaf,
      tie('reference'),
      fc.record({ kind: fc.constant('unary' as const), operator: fc.constantFrom('-' as const, '+' as const), operand: tie('node') }),
      fc.record({ kind: fc.constant('percent' as const), operand: tie('node') }),
      fc.record({
        kind: fc.constant('binary' as const),
        operator: fc.constantFrom('+', '-', '*', '/', '^', '&', '=', '<>', '<', '>', '<=', '>=' as const),
        left: tie('node'),
        right: tie('node'),
      }),
      fc.record({
        kind: fc.constant('call' as const),
        name: fc.constantFrom('SUM', 'IF', 'LOG10', 'STDEV.S', 'NOW'),
        // an empty argument (`ROUND(x,)`); a lone one would read as no argument at all, as in Excel
        args: fc.array(fc.oneof(tie('node'), fc.constant<Ast>({ kind: 'missing' })), { maxLength: 3 }).filter((args) => !(args.length === 1 && args[0]!.kind === 'missing')),
      }),
    ),
  })).node;

  it('formatting a tree and parsing it back gives the same tree', () => {
    fc.assert(
      fc.property(ast, (tree) => {
        const text = formatFormula(tree);
        const parsed = parseFormula(text);
        expect(parsed).toEqual({ ok: true, ast: tree });
      }),
      { numRuns: 2000 },
    );
  });

  const formulaText = fc.oneof(
    fc.string({ maxLength: 60 }).map((text) => `=${text}`),
    fc.array(fc.constantFrom('A1', '$B$2', ':', 'Sheet1!', "'a b'!", 'SUM(', 'IF(', ')', ',', '+', '-', '*', '/', '^', '&', '%', '=', '<>', '"', '1', '2.5e3', 'TRUE', '#REF!', ' ', '(', 'A:A', '3:4', 'XFE1', 'A0'), { maxLength: 30 }).map((parts) => `=${parts.join('')}`),
  );

  it('never throws: any text parses to a tree or a failure with a reason', () => {
    fc.assert(
      fc.property(fc.oneof(formulaText, fc.string({ maxLength: 200 })), (text) => {
        const parsed = parseFormula(text);
        if (!parsed.ok) expect(parsed.reason.length).toBeGreaterThan(0);
      }),
      { numRuns: 5000 },
    );
  });

  it('any formula text evaluates to a value or an error value, never an exception', () => {
    fc.assert(
      fc.property(fc.array(formulaText, { minLength: 1, maxLength: 6 }), (formulas) => {
        const workbook = sheetOf([formulas, [1, 'two', true]]);
        formulas.forEach((_, column) => {
          const value = workbook.value(SHEET, 0, column);
          const kind = value instanceof FormulaError ? 'error' : typeof value;
          expect(['number', 'string', 'boolean', 'error']).toContain(kind);
          if (typeof value === 'number') expect(Number.isFinite(value)).toBe(true);
        });
      }),
      { numRuns: 1000 },
    );
  });
});

describe('moving references when rows or columns change', () => {
  const deleteRows = (index: number, count: number, sheet = 'Sheet1'): StructureEdit => ({ kind: 'delete', axis: 'rows', sheet, index, count });

  it.each([
    ['=A5*2', deleteRows(1, 2), '=A3*2'],
    ['=A2*2', deleteRows(1, 2), '=#REF!*2'],
    ['=A1*2', deleteRows(1, 2), '=A1*2'],
    ['=SUM(A1:A10)', deleteRows(3, 4), '=SUM(A1:A6)'],
    ['=SUM(A4:A7)', deleteRows(3, 4), '=SUM(#REF!)'],
    ['=SUM(A5:A10)', deleteRows(3, 4), '=SUM(A4:A6)'],
    ['=SUM(A:A) + A9', deleteRows(0, 1), '=SUM(A:A)+A8'],
    ['=Other!A9 + A9', deleteRows(0, 1, 'Other'), '=Other!A8+A9'],
    ['=  A1 +  1', deleteRows(5, 1), '=  A1 +  1'],
    ['=SUM(A1:A3)', { kind: 'insert', axis: 'rows', sheet: 'Sheet1', index: 1, count: 2 }, '=SUM(A1:A5)'],
    ['=$C$1+D1', { kind: 'insert', axis: 'columns', sheet: 'sheet1', index: 2, count: 1 }, '=$D$1+E1'],
    ['=B1+C1', { kind: 'delete', axis: 'columns', sheet: 'Sheet1', index: 1, count: 1 }, '=#REF!+B1'],
    ['=1+', deleteRows(0, 1), '=1+'],
    ['=SUM((A5,B9))', deleteRows(1, 2), '=SUM((A3,B7))'],
    ['=A5:B9 B1:B6', deleteRows(1, 2), '=A3:B7 B1:B4'],
  ] as const)('%s after %j reads %s', (formula, edit, expected) => {
    expect(shiftFormula(formula, 'Sheet1', edit)).toBe(expected);
  });

  it('a cell reference moved by any insert or delete lands where a model of the grid says (property)', () => {
    /** the reference model: where one row or column index goes, or undefined when deleted or pushed off the grid */
    const expectedPlace = (at: number, edit: StructureEdit, limit: number): number | undefined => {
      if (at < edit.index) return at;
      if (edit.kind === 'insert') return at + edit.count < limit ? at + edit.count : undefined;
      return at < edit.index + edit.count ? undefined : at - edit.count;
    };
    const edit = fc.record({
      kind: fc.constantFrom('insert' as const, 'delete' as const),
      axis: fc.constantFrom('rows' as const, 'columns' as const),
      sheet: fc.constantFrom('Sheet1', 'Other'),
      index: fc.integer({ min: 0, max: 200 }),
      count: fc.integer({ min: 1, max: 50 }),
    });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 0, max: 300 }), fc.boolean(), fc.boolean(), edit, (row, column, rowAbsolute, columnAbsolute, structure) => {
        const reference: Ast = { kind: 'cell', sheet: null, row, column, rowAbsolute, columnAbsolute };
        const shifted = parseFormula(shiftFormula(formatFormula({ kind: 'binary', operator: '*', left: reference, right: { kind: 'number', value: 2 } }), 'Sheet1', structure));
        expect(shifted.ok).toBe(true);
        const left = shifted.ok && shifted.ast.kind === 'binary' ? shifted.ast.left : undefined;
        const rows = structure.axis === 'rows';
        const place = expectedPlace(rows ? row : column, structure, rows ? MAX_ROWS : MAX_COLUMNS);
        // an edit of another sheet leaves it; anchors ($) do not stop a reference from moving with its cell
        const expected = structure.sheet !== 'Sheet1' ? reference : place === undefined ? { kind: 'error', code: '#REF!' } : { ...reference, ...(rows ? { row: place } : { column: place }) };
        expect(left).toEqual(expected);
      }),
    );
  });
});

describe('calculation following a spreadsheet document', () => {
  it('recomputes after document changes, local or remote, and after sheets change', () => {
    const doc = docFromState(initialContent('spreadsheet'));
    const sheet = doc.getArray<Y.Map<unknown>>('sheets').get(0);
    const sheetId = sheet.get('id') as string;
    const model = SheetModel.of(sheet);
    model.setCell(0, 0, { v: 2 });
    model.setCell(0, 1, { f: '=A1*2', v: 'stale' });
    const calculation = new SpreadsheetCalculation(doc);
    expect(calculation.workbook.value(sheetId, 0, 1)).toBe(4);

    // a change arriving as an update from elsewhere
    const remote = new Y.Doc();
    Y.applyUpdate(remote, Y.encodeStateAsUpdate(doc));
    SheetModel.of(remote.getArray<Y.Map<unknown>>('sheets').get(0)).setCell(0, 0, { v: 21 });
    Y.applyUpdate(doc, Y.encodeStateAsUpdate(remote, Y.encodeStateVector(doc)));
    expect(calculation.flush()).toEqual(expect.arrayContaining([{ sheetId, row: 0, column: 1 }]));
    expect(calculation.workbook.value(sheetId, 0, 1)).toBe(42);

    doc.transact(() => {
      appendSheet(doc, 'Two', 'second');
      model.setCell(0, 2, { f: '=Two!A1+A1' });
    });
    expect(calculation.flush()).toBe('all');
    expect(calculation.workbook.value(sheetId, 0, 2)).toBe(21);
    calculation.destroy();
    model.setCell(0, 0, { v: 1 });
    expect(calculation.flush()).toEqual([]);
  });
});
