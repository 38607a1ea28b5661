import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { legacyFormulaRead } from '../../src/model/sheets/formulas/legacy.js';
import { parseFormula } from '../../src/model/sheets/formulas/parser.js';

/**
 * legacyFormulaRead answers a formula's text with Excel's `@` and whether the engine reads it from one parse (the
 * xlsx import no longer parses every formula a second time): the answer must be the parser's own, a text the file
 * held unchanged when it needs no `@`, and a text that needs no further `@`.
 */

const reference = fc.constantFrom('A1', 'B7', '$C$3', 'Data!D4', 'A1:A9', 'B2:C5', 'A:A', '1:3', 'Sheet2!$A$1:$B$4');
const literal = fc.constantFrom('1', '2.5', '"x"', 'TRUE', '{1,2;3,4}', '#N/A');
const functionName = fc.constantFrom('SUM', 'ABS', 'IF', 'IFERROR', 'SUMPRODUCT', 'INDEX', 'SEQUENCE', 'FILTER', 'CHOOSE', 'LEN', 'XLOOKUP', 'MMULT');
const operator = fc.constantFrom('+', '-', '*', '/', '&', '^', '=', '<>', ' ', ',');

const { expression } = fc.letrec<{ expression: string }>((tie) => ({
  expression: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    reference,
    literal,
    fc.tuple(tie('expression'), operator, tie('expression')).map(([left, op, right]) => `${left}${op}${right}`),
    fc.tuple(functionName, fc.array(tie('expression'), { minLength: 1, maxLength: 3 })).map(([name, args]) => `${name}(${args.join(',')})`),
    tie('expression').map((inner) => `-${inner}`),
    tie('expression').map((inner) => `${inner}%`),
    tie('expression').map((inner) => `(${inner})`),
  ),
}));
// what a file may hold, readable or not
const formula = fc.oneof(expression.map((text) => `=${text}`), fc.string({ unit: fc.constantFrom(...'=A1:B$(),+*"#@'.split('')), maxLength: 16 }));

describe('legacy formulas read once', () => {
  it('answers the text with its @ and whether the parser reads it, with no @ left to add', () => {
    fc.assert(
      fc.property(formula, (text) => {
        const read = legacyFormulaRead(text);
        expect(read.readable).toBe(parseFormula(read.text).ok);
        // a text the parser cannot read is kept as the file has it
        if (!parseFormula(text).ok) expect(read.text).toBe(text);
        if (read.readable) expect(legacyFormulaRead(read.text).text).toBe(read.text);
      }),
      { numRuns: 2000 },
    );
  });
});
