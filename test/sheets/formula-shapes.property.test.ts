import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_COLUMNS, MAX_ROWS, columnLetters } from '../../src/model/sheets/a1.js';
import { formulaInA1, formulaRelative, translatedByTokens } from '../../src/model/sheets/formulas/relative.js';
import { formulaProblemAt } from '../../src/model/sheets/formulas/cell-source.js';
import { parseFormula } from '../../src/model/sheets/formulas/parser.js';

/**
 * formulaRelative and formulaInA1 tokenise a formula once per shape (its text with the digits taken out) and move
 * the coordinates of every other text of that shape by arithmetic. Whatever text of a shape came first, the answer
 * for the next must be the tokenizer's own (translatedByTokens): the same coordinates moved, the same text kept.
 */

const row = fc.oneof(fc.nat(20), fc.integer({ min: MAX_ROWS - 3, max: MAX_ROWS - 1 }));
const column = fc.oneof(fc.nat(30), fc.integer({ min: MAX_COLUMNS - 3, max: MAX_COLUMNS - 1 }));
// row numbers as a file may write them: off the grid (0, past the last row), with leading zeros
const rowText = fc.oneof(
  row.map((r) => String(r + 1)),
  fc.constantFrom('0', '007', String(MAX_ROWS + 1), '99999999999'),
);
const letters = fc.oneof(
  column.map((c) => columnLetters(c)),
  column.map((c) => columnLetters(c).toLowerCase()),
  fc.constantFrom('XFE', 'Vlook', 'ab'),
);
const anchor = fc.constantFrom('', '$');
const sheet = fc.constantFrom('', 'Data!', 'Sheet2!', "'Q1 2027'!", "'It''s B7'!", 'Sheet1:Sheet3!', "'Jan 1:Mar 3'!");
const cell = fc.tuple(sheet, anchor, letters, anchor, rowText).map(([prefix, a, c, b, r]) => `${prefix}${a}${c}${b}${r}`);
const range = fc.tuple(sheet, anchor, letters, anchor, rowText, anchor, letters, anchor, rowText).map(([prefix, a, c1, b, r1, d, c2, e, r2]) => `${prefix}${a}${c1}${b}${r1}:${d}${c2}${e}${r2}`);
const wholeColumns = fc.tuple(sheet, anchor, letters, anchor, letters).map(([prefix, a, c1, b, c2]) => `${prefix}${a}${c1}:${b}${c2}`);
const wholeRows = fc.tuple(sheet, anchor, rowText, anchor, rowText).map(([prefix, a, r1, b, r2]) => `${prefix}${a}${r1}:${b}${r2}`);
// text that looks like references but is not one: in strings, numbers, names holding digits, errors, spills
const lookalike = fc.constantFrom('"B7"', '"A1:C3 and $D$4"', '1.5', '1E5', '2.5e-3', '.25', 'A1.5', 'LOG10(4)', 'ATAN2(1, 2)', 'Table1[Amount 2]', '#DIV/0!', '#N/A', 'B7#', 'Data!#REF!', 'TRUE', '{1,2;3,4}');
const operand = fc.oneof(cell, cell, range, wholeColumns, wholeRows, lookalike);
const operator = fc.constantFrom('+', '-', '*', '/', '&', ' ', ', ', '<>', '^');
const formula = fc
  .tuple(fc.array(fc.tuple(operand, operator), { minLength: 1, maxLength: 4 }), fc.constantFrom('=', '=SUM(', '=IF(', ''))
  .map(([parts, opening]) => `${opening}${parts.map(([each, between]) => `${each}${between}`).join('').slice(0, -1)}${opening.endsWith('(') ? ')' : ''}`);
// anything made of the characters formulas are written with, most of it not a formula
const scribble = fc.string({ unit: fc.constantFrom(...'=AbXFDE$0179:!\'"#().,_ +*[]{};'.split('')), maxLength: 24 });

/** The same text with each run of digits written anew: another text of its shape. */
function sameShape(text: string, digits: readonly string[]): string {
  let next = 0;
  return text.replace(/[0-9]+/g, () => digits[next++ % digits.length]!);
}
const digitRuns = fc.array(fc.oneof(fc.nat(30).map(String), fc.constantFrom('0', '01', String(MAX_ROWS), String(MAX_ROWS + 1), '123456')), { minLength: 1, maxLength: 6 });

function agreesWithTokenizer(text: string, r: number, c: number): void {
  expect(formulaRelative(text, r, c)).toBe(translatedByTokens(text, -r, -c, false));
  expect(formulaInA1(text, r, c)).toBe(translatedByTokens(text, r, c, false));
}

describe('formulas moved by their shape', () => {
  it('give what the tokenizer gives, for every text of a shape already seen', () => {
    fc.assert(
      fc.property(fc.oneof(formula, scribble), digitRuns, row, column, (first, digits, r, c) => {
        agreesWithTokenizer(first, r, c);
        agreesWithTokenizer(sameShape(first, digits), r, c);
      }),
      { numRuns: 4000 },
    );
  });

  it("judge whether a formula parses, through its stored form, as the parser judges its text (a write's check)", () => {
    const parserSays = (text: string) => {
      const parsed = parseFormula(text);
      return parsed.ok ? undefined : parsed.reason;
    };
    fc.assert(
      fc.property(fc.oneof(formula, scribble), row, column, row, column, (text, r, c, otherRow, otherColumn) => {
        const first = text.startsWith('=') ? text : `=${text}`;
        const stored = formulaRelative(first, r, c);
        expect(formulaProblemAt(first, stored, r, c), first).toBe(parserSays(first));
        // the same formula copied to another cell (mostly the same stored form): judged from what the first cell found
        const copy = formulaInA1(stored, otherRow, otherColumn);
        expect(formulaProblemAt(copy, formulaRelative(copy, otherRow, otherColumn), otherRow, otherColumn), `${copy} (a copy of ${first})`).toBe(parserSays(copy));
      }),
      { numRuns: 4000 },
    );
  });

  it('read each row of a filled column from its own digits', () => {
    expect(formulaRelative('=B7*2', 6, 2)).toBe('=XFD1*2');
    expect(formulaRelative('=B8*2', 7, 2)).toBe('=XFD1*2');
    expect(formulaInA1('=XFD1*2', 1000, 2)).toBe('=B1001*2');
    // same shape, but the row is off the grid: no reference, kept whole as written (moving its column could make it
    // another token: `0f0` a column left is the number `0e0`)
    expect(formulaRelative('=B0*2', 7, 2)).toBe('=B0*2');
    expect(formulaRelative(`=B${MAX_ROWS + 1}*2`, 7, 2)).toBe(`=B${MAX_ROWS + 1}*2`);
    expect(formulaRelative('=0f0', 7, 2)).toBe('=0f0');
    // a reference glued to a number is no formula: kept whole, or `0K1` in G1343 would be stored as the number `0E1047235`
    expect(formulaRelative('=0K1', 1342, 6)).toBe('=0K1');
    expect(formulaInA1(formulaRelative('=.5e1+1K1', 1342, 6), 1342, 6)).toBe('=.5e1+1K1');
    // digits in strings and sheet names are text, whatever they are
    expect(formulaRelative(`="B7"&'Q1 2027'!C7`, 6, 2)).toBe(`="B7"&'Q1 2027'!A1`);
    expect(formulaRelative(`="B9"&'Q1 2028'!C8`, 7, 2)).toBe(`="B9"&'Q1 2028'!A1`);
  });
});
