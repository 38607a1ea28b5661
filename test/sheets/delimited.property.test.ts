import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatDelimited, parseDelimited, type Delimiter } from '../../src/model/sheets/delimited.js';

/** Cell text with what quoting has to handle: delimiters, quotes, line breaks, edge white space, CJK. */
const cellText = fc.array(fc.constantFrom('a', 'Z', '7', ' ', '\t', ',', '"', '\n', '中', '=', '-'), { maxLength: 8 }).map((chars) => chars.join(''));
/** A grid as the editors copy it: rectangular, at least one row and one column. */
const grid = fc.integer({ min: 1, max: 5 }).chain((width) => fc.array(fc.array(cellText, { minLength: width, maxLength: width }), { minLength: 1, maxLength: 6 }));

describe('CSV and TSV (src/model/sheets/delimited.ts)', () => {
  for (const delimiter of [',', '\t'] as Delimiter[]) {
    it(`reads back what it writes (${JSON.stringify(delimiter)}), with either line end`, () => {
      fc.assert(
        fc.property(grid, fc.constantFrom('\r\n', '\n') as fc.Arbitrary<'\r\n' | '\n'>, (rows, newline) => {
          // a last row of one empty cell writes as a final line break, which reading drops (as spreadsheet programs do)
          const last = rows.at(-1)!;
          fc.pre(!(last.length === 1 && last[0] === ''));
          expect(parseDelimited(formatDelimited(rows, delimiter, newline), delimiter)).toEqual(rows);
        }),
      );
    });
  }

  it('quotes by one rule: delimiter, quote, line break or white space at either edge', () => {
    expect(formatDelimited([['a, "q"', '21', ' x', 'y\t', 'plain', '']], ',', '\r\n')).toBe('"a, ""q""",21," x","y\t",plain,');
    expect(formatDelimited([['a\tb', 'c', ' d']], '\t', '\n')).toBe('"a\tb"\tc\t" d"');
    expect(formatDelimited([['=1+1']], ',', '\r\n')).toBe('=1+1');
  });

  it('reads what spreadsheet programs put on the clipboard: CRLF, LF or CR, one final line break dropped', () => {
    expect(parseDelimited('a\tb\r\nc\td\r\n', '\t')).toEqual([['a', 'b'], ['c', 'd']]);
    expect(parseDelimited('a\tb\nc\td', '\t')).toEqual([['a', 'b'], ['c', 'd']]);
    expect(parseDelimited('a\rb\r', '\t')).toEqual([['a'], ['b']]);
    expect(parseDelimited('"two\r\nlines"\tx\n', '\t')).toEqual([['two\nlines', 'x']]);
    expect(parseDelimited('', '\t')).toEqual([]);
    expect(parseDelimited('\n', '\t')).toEqual([['']]);
  });
});
