import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatNumber, formatText, generalNumber, invalidFormatCode, isDateFormat } from '../../src/model/sheets/number-format.js';

describe('number formats (docs/SHEETS.md "Number formats")', () => {
  it.each([
    [1234.567, '#,##0.00', '1,234.57'],
    [1234.567, '0', '1235'],
    [0.256, '0%', '26%'],
    [0.256, '0.00%', '25.60%'],
    [-1234.5, '"¥"#,##0.00', '-¥1,234.50'],
    [-1234.5, '#,##0.00;[Red]-#,##0.00', '-1,234.50'],
    [-1234.5, '#,##0.00;(#,##0.00)', '(1,234.50)'],
    [0, '#,##0.00;-#,##0.00;"-"', '-'],
    [1234, '[$$-409]#,##0.00', '$1,234.00'],
    [1234567, '#,##0,"K"', '1,235K'],
    [12345.678, '0.00E+00', '1.23E+04'],
    [3, '0.0#', '3.0'],
    [5, '00000', '00005'],
    [45123, 'yyyy-mm-dd', '2023-07-16'],
    [45123.5, 'yyyy-mm-dd hh:mm', '2023-07-16 12:00'],
    [0.75, 'hh:mm:ss', '18:00:00'],
    [45123.75, 'm/d/yyyy h:mm AM/PM', '7/16/2023 6:00 PM'],
    [45123, 'mmm d, yyyy', 'Jul 16, 2023'],
    [45123, 'dddd', 'Sunday'],
    [45123, 'yyyy"年"m"月"d"日"', '2023年7月16日'],
    [1.5, '[h]:mm', '36:00'],
    [0.1 + 0.2, 'General', '0.3'],
    [123456789012, 'General', '1.23457E+11'],
    [1.23e-12, 'General', '1.23E-12'],
    // fractions (numfmt): a whole number keeps the fraction's place as spaces, so fractions line up in a column, as in Excel
    [42, '# ?/?', '42    '],
    [1.25, '# ?/?', '1 1/4'],
    [3.14159, '# ??/??', '3  1/7 '],
    [0.3333, '# ??/??', '  1/3 '],
    [0.5, '?/4', '2/4'],
    [-2.75, '# ?/?', '-2 3/4'],
    [1234.5, '#,##0.00_);(#,##0.00)', '1,234.50 '],
    [45123.5, '[$-F800]dddd, mmmm dd, yyyy', 'Sunday, July 16, 2023'],
    [0.123, 'mm:ss.0', '57:07.2'],
    [123.456, '##0.0E+0', '123.5E+0'],
    [45123, 'mmmmm', 'J'],
    [0.5, '[<1]0.00" small";0" big"', '0.50 small'],
  ])('%s under %s shows %s', (value, code, shown) => {
    expect(formatNumber(value, code)).toBe(shown);
  });

  it('the text section shows text; codes are checked before they are stored', () => {
    expect(formatText('abc', '0.00;-0.00;0;"<"@">"')).toBe('<abc>');
    expect(formatText('abc', '0.00')).toBe('abc');
    expect(isDateFormat('yyyy-mm-dd')).toBe(true);
    expect(isDateFormat('#,##0.00')).toBe(false);
    expect(invalidFormatCode('0.00')).toBeUndefined();
    expect(invalidFormatCode('General')).toBeUndefined();
    expect(invalidFormatCode('"unclosed')).toMatch(/cannot be read/);
    expect(invalidFormatCode('0;0;0;0;0')).toMatch(/cannot be read/);
    expect(invalidFormatCode('')).toMatch(/non-empty/);
    expect(invalidFormatCode(12)).toMatch(/non-empty string/);
    expect(invalidFormatCode('0'.repeat(256))).toMatch(/at most 255/);
    expect(invalidFormatCode('0\n0')).toMatch(/control characters/);
  });

  it('never throws, whatever the code and the number (a format only changes how a cell looks)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), fc.double(), (code, value) => {
        expect(typeof formatNumber(value, code)).toBe('string');
        expect(typeof formatText('x', code)).toBe('string');
        invalidFormatCode(code);
      }),
      { numRuns: 3000 },
    );
  });

  it('digit patterns keep the value: the shown text read back is the number rounded to its decimals', () => {
    fc.assert(
      fc.property(fc.double({ min: -1e12, max: 1e12, noNaN: true }), fc.integer({ min: 0, max: 6 }), fc.boolean(), (value, decimals, grouped) => {
        const code = `${grouped ? '#,##0' : '0'}${decimals > 0 ? `.${'0'.repeat(decimals)}` : ''}`;
        const shown = formatNumber(value, code);
        expect(shown).toMatch(grouped ? /^-?\d{1,3}(,\d{3})*(\.\d+)?$/ : /^-?\d+(\.\d+)?$/);
        // to the 15 significant digits a spreadsheet keeps (as Excel shows -100000000014.70805 under 0.00000)
        expect(Number(shown.replace(/,/g, ''))).toBeCloseTo(Number(Number(value.toPrecision(15)).toFixed(decimals)), Math.max(0, decimals - 1));
      }),
      { numRuns: 2000 },
    );
  });

  it('dates read back: yyyy-mm-dd hh:mm:ss of a serial is the same instant (1900-03-01 to 9999)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 61, max: 2_958_465 }), fc.integer({ min: 0, max: 86_399 }), (day, second) => {
        const serial = day + second / 86_400;
        const shown = formatNumber(serial, 'yyyy-mm-dd hh:mm:ss');
        const instant = Date.parse(`${shown.replace(' ', 'T')}Z`);
        expect(Math.round(instant / 1000)).toBe((day - 25_569) * 86_400 + second);
      }),
      { numRuns: 2000 },
    );
  });

  it('General shows integers as they are and at most ten significant digits otherwise', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (value) => {
        const shown = generalNumber(value);
        expect(Number(shown)).not.toBeNaN();
        if (Number.isInteger(value) && Math.abs(value) < 1e11) expect(shown).toBe(String(value));
      }),
      { numRuns: 2000 },
    );
  });
});
