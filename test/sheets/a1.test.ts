import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  A1SyntaxError,
  MAX_COLUMNS,
  MAX_ROWS,
  columnIndex,
  columnLetters,
  formatA1,
  formatSheetName,
  parseA1,
  type A1Range,
} from '../../src/model/sheets/a1.js';

const WHOLE = { startRow: 0, endRow: MAX_ROWS - 1, startColumn: 0, endColumn: MAX_COLUMNS - 1 };

/** Sheet names as users type them: any printable text, incl. quotes, `!`, `:`, spaces and non-Latin. */
const sheetName = fc
  .string({ unit: fc.oneof(fc.constantFrom("'", '!', ':', ' ', '$', 'A', '1', '_', '.', 'é', '表'), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 })), minLength: 1, maxLength: 40 })
  .filter((name) => name.trim() === name && name !== '' && !/[\x00-\x1f\x7f]/.test(name));

const rowIndex = fc.oneof(fc.integer({ min: 0, max: MAX_ROWS - 1 }), fc.constantFrom(0, 1, MAX_ROWS - 2, MAX_ROWS - 1));
const columnIndexArb = fc.oneof(fc.integer({ min: 0, max: MAX_COLUMNS - 1 }), fc.constantFrom(0, 25, 26, 701, 702, MAX_COLUMNS - 1));
const span = <T>(arb: fc.Arbitrary<T>) => fc.tuple(arb, arb);

const range: fc.Arbitrary<A1Range> = fc
  .record({
    sheetName: fc.option(sheetName, { nil: null }),
    rows: fc.oneof(span(rowIndex), fc.constant<[number, number]>([0, MAX_ROWS - 1])),
    columns: fc.oneof(span(columnIndexArb), fc.constant<[number, number]>([0, MAX_COLUMNS - 1])),
  })
  .map(({ sheetName, rows, columns }) => ({
    sheetName,
    startRow: Math.min(...rows),
    endRow: Math.max(...rows),
    startColumn: Math.min(...columns),
    endColumn: Math.max(...columns),
  }))
  // the whole first sheet has no A1 text of its own besides "A:XFD", checked separately
  .filter((r) => r.sheetName !== null || r.startRow !== 0 || r.endRow !== MAX_ROWS - 1 || r.startColumn !== 0 || r.endColumn !== MAX_COLUMNS - 1);

describe('column letters', () => {
  it('map every addressable column to its letters and back, in spreadsheet order', () => {
    let previous = '';
    for (let i = 0; i < MAX_COLUMNS; i++) {
      const letters = columnLetters(i);
      expect(columnIndex(letters)).toBe(i);
      expect(columnIndex(letters.toLowerCase())).toBe(i);
      // shorter first, then alphabetical: A … Z, AA … ZZ, AAA … XFD
      expect(letters.length > previous.length || (letters.length === previous.length && letters > previous)).toBe(true);
      previous = letters;
    }
    expect([columnLetters(0), columnLetters(25), columnLetters(26), columnLetters(701), columnLetters(702)]).toEqual(['A', 'Z', 'AA', 'ZZ', 'AAA']);
    expect(previous).toBe('XFD');
    expect(columnIndex('XFE')).toBeUndefined();
    expect(columnIndex('ZZZ')).toBeUndefined();
    expect(columnIndex('AAAA')).toBeUndefined();
    expect(columnIndex('')).toBeUndefined();
  });
});

describe('parseA1 examples', () => {
  const cases: Array<[string, A1Range]> = [
    ['Sheet1!A1:C3', { sheetName: 'Sheet1', startRow: 0, endRow: 2, startColumn: 0, endColumn: 2 }],
    ['A1', { sheetName: null, startRow: 0, endRow: 0, startColumn: 0, endColumn: 0 }],
    ['b7', { sheetName: null, startRow: 6, endRow: 6, startColumn: 1, endColumn: 1 }],
    ['$B$7', { sheetName: null, startRow: 6, endRow: 6, startColumn: 1, endColumn: 1 }],
    ['C3:A1', { sheetName: null, startRow: 0, endRow: 2, startColumn: 0, endColumn: 2 }],
    ['A3:C1', { sheetName: null, startRow: 0, endRow: 2, startColumn: 0, endColumn: 2 }],
    ['A:C', { sheetName: null, ...WHOLE, startColumn: 0, endColumn: 2 }],
    ['$C:$A', { sheetName: null, ...WHOLE, startColumn: 0, endColumn: 2 }],
    ['2:5', { sheetName: null, ...WHOLE, startRow: 1, endRow: 4 }],
    ['A2:C', { sheetName: null, ...WHOLE, startRow: 1, startColumn: 0, endColumn: 2 }],
    ['Sheet1', { sheetName: 'Sheet1', ...WHOLE }],
    ['My sheet', { sheetName: 'My sheet', ...WHOLE }],
    ['My sheet!B2', { sheetName: 'My sheet', startRow: 1, endRow: 1, startColumn: 1, endColumn: 1 }],
    ["'Q1!Plan''s'!B2", { sheetName: "Q1!Plan's", startRow: 1, endRow: 1, startColumn: 1, endColumn: 1 }],
    ["'Q1!Plan''s'", { sheetName: "Q1!Plan's", ...WHOLE }],
    ["'A1'", { sheetName: 'A1', ...WHOLE }],
    ["'a:b'!A:A", { sheetName: 'a:b', ...WHOLE, startColumn: 0, endColumn: 0 }],
    ['  Sheet1!A1  ', { sheetName: 'Sheet1', startRow: 0, endRow: 0, startColumn: 0, endColumn: 0 }],
    ['XFD1048576', { sheetName: null, startRow: MAX_ROWS - 1, endRow: MAX_ROWS - 1, startColumn: MAX_COLUMNS - 1, endColumn: MAX_COLUMNS - 1 }],
    ['表1!A1', { sheetName: '表1', startRow: 0, endRow: 0, startColumn: 0, endColumn: 0 }],
  ];
  it.each(cases)('%s', (text, expected) => {
    expect(parseA1(text)).toEqual(expected);
  });

  const bad: Array<[string, RegExp]> = [
    ['', /empty/],
    ['   ', /empty/],
    ['Sheet1!', /nothing after/],
    ['!A1', /empty sheet name/],
    ["''!A1", /empty sheet name/],
    ["'Sheet1", /unterminated/],
    ["'Sheet1'A1", /expected "!"/],
    ['Sheet1!A1:B2:C3', /not a cell or range/],
    ['Sheet1!A', /not a cell or range/],
    ['Sheet1!7', /not a cell or range/],
    ['Sheet1!A:3', /not a cell or range/],
    ['Sheet1!3:A', /not a cell or range/],
    ['Sheet1!ZZZZ1', /not a cell or range/],
    ['A0', /start at 1/],
    ['Sheet1!A1:C0', /start at 1/],
    ['A1048577', /past the last row/],
    ['XFE1', /past the last column/],
    ['Sheet1!A:XFE', /past the last column/],
    ['Q1!Plan', /not a cell or range/],
    ["It's!A1", /single-quoted/],
    ['a:b!A1', /single-quoted/],
    ['a:b c', /neither a reference nor a sheet name/],
    ["It's", /neither a reference nor a sheet name/],
    ['Sheet1!A\u00001', /control characters/],
    ['A'.repeat(1025), /longer than 1024/],
  ];
  it.each(bad)('rejects %j', (text, reason) => {
    expect(() => parseA1(text)).toThrowError(A1SyntaxError);
    expect(() => parseA1(text)).toThrowError(reason);
  });
});

describe('formatA1', () => {
  it('writes the shortest form', () => {
    expect(formatA1({ sheetName: 'Sheet1', startRow: 0, endRow: 2, startColumn: 0, endColumn: 2 })).toBe('Sheet1!A1:C3');
    expect(formatA1({ sheetName: null, startRow: 4, endRow: 4, startColumn: 27, endColumn: 27 })).toBe('AB5');
    expect(formatA1({ sheetName: 'Sheet1', ...WHOLE })).toBe('Sheet1');
    expect(formatA1({ sheetName: null, ...WHOLE })).toBe('A:XFD');
    expect(formatA1({ sheetName: null, ...WHOLE, startColumn: 0, endColumn: 2 })).toBe('A:C');
    expect(formatA1({ sheetName: null, ...WHOLE, startRow: 1, endRow: 4 })).toBe('2:5');
    expect(formatA1({ sheetName: "Q1!Plan's", startRow: 1, endRow: 1, startColumn: 1, endColumn: 1 })).toBe("'Q1!Plan''s'!B2");
  });

  it('quotes exactly the sheet names that would not read back alone', () => {
    expect(formatSheetName('Sheet1')).toBe('Sheet1');
    expect(formatSheetName('Sheet_1.v2')).toBe('Sheet_1.v2');
    for (const name of ['A1', 'xfd1048576', 'My sheet', "It's", 'a!b', 'a:b', '1abc', 'Résumé', '表1', 'A:C']) {
      expect(formatSheetName(name), name).toBe(`'${name.replace(/'/g, "''")}'`);
    }
  });

  it('parse(format(range)) is the range, for every range', () => {
    fc.assert(
      fc.property(range, (r) => {
        expect(parseA1(formatA1(r))).toEqual(r);
      }),
      { numRuns: 3000 },
    );
    expect(parseA1(formatA1({ sheetName: null, ...WHOLE }))).toEqual({ sheetName: null, ...WHOLE });
  });

  it('a formatted name reads back both alone and before "!"', () => {
    fc.assert(
      fc.property(sheetName, (name) => {
        expect(parseA1(formatSheetName(name))).toEqual({ sheetName: name, ...WHOLE });
        expect(parseA1(`${formatSheetName(name)}!C4`).sheetName).toBe(name);
      }),
      { numRuns: 3000 },
    );
  });

  it('format(parse(text)) is a fixed point: formatting a parsed range again changes nothing', () => {
    fc.assert(
      fc.property(range, fc.boolean(), fc.boolean(), (r, lower, anchors) => {
        const canonical = formatA1(r);
        const prefix = r.sheetName === null ? '' : `${formatSheetName(r.sheetName)}!`;
        // spelling variants of the same reference (not of a sheet name alone): lower case, $ anchors
        let text = canonical;
        if (canonical.startsWith(prefix) && canonical !== formatSheetName(r.sheetName ?? '')) {
          let reference = canonical.slice(prefix.length);
          if (lower) reference = reference.toLowerCase();
          if (anchors) reference = reference.replace(/([A-Za-z]+)/g, '$$$1');
          text = prefix + reference;
        }
        expect(formatA1(parseA1(text))).toBe(canonical);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('parseA1 on arbitrary text', () => {
  it('either parses to a range inside the grid or throws A1SyntaxError, never anything else', () => {
    const alphabet = fc.constantFrom('A', 'b', 'Z', 'x', 'F', 'D', '0', '1', '9', ':', '!', "'", '$', ' ', 'é', '\u0000');
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: alphabet, maxLength: 16 })), (text) => {
        let parsed: A1Range;
        try {
          parsed = parseA1(text);
        } catch (error) {
          expect(error).toBeInstanceOf(A1SyntaxError);
          return;
        }
        expect(parsed.startRow).toBeGreaterThanOrEqual(0);
        expect(parsed.startRow).toBeLessThanOrEqual(parsed.endRow);
        expect(parsed.endRow).toBeLessThan(MAX_ROWS);
        expect(parsed.startColumn).toBeGreaterThanOrEqual(0);
        expect(parsed.startColumn).toBeLessThanOrEqual(parsed.endColumn);
        expect(parsed.endColumn).toBeLessThan(MAX_COLUMNS);
        if (parsed.sheetName !== null) expect(parsed.sheetName).not.toBe('');
        // and what it parsed to reads back the same
        expect(parseA1(formatA1(parsed))).toEqual(parsed);
      }),
      { numRuns: 5000 },
    );
  });

  it('rejects every row past the grid and every column past XFD', () => {
    fc.assert(
      fc.property(fc.integer({ min: MAX_ROWS + 1, max: 10 ** 12 }), columnIndexArb, (row, column) => {
        expect(() => parseA1(`Sheet1!${columnLetters(column)}${row}`)).toThrowError(/past the last row/);
      }),
    );
    fc.assert(
      fc.property(fc.integer({ min: MAX_COLUMNS, max: 26 ** 3 + 26 ** 2 + 25 }), rowIndex, (column, row) => {
        expect(() => parseA1(`Sheet1!${columnLetters(column)}${row + 1}`)).toThrowError(/past the last column/);
      }),
    );
  });
});
