import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { colourOf, invalidStylePatch, parseCellStyle, patchStyle, sameStyle, styleCss, type StylePatch } from '../../src/model/sheets/cell-style.js';
import { toCell, withFormat, withStyle } from '../../src/model/sheets/cells.js';

const hex = fc.stringMatching(/^#[0-9a-fA-F]{6}$/);
const alignment = fc.constantFrom('left' as const, 'center' as const, 'right' as const);
const patch: fc.Arbitrary<StylePatch> = fc.record(
  { b: fc.boolean(), i: fc.boolean(), c: fc.option(hex, { nil: null }), bg: fc.option(hex, { nil: null }), a: fc.option(alignment, { nil: null }) },
  { requiredKeys: [] },
);

describe('cell styles (docs/SHEETS.md "Cell styles")', () => {
  it('keeps only known keys with valid values: colours #rrggbb (lower case), three alignments, true flags', () => {
    expect(parseCellStyle({ b: true, i: false, c: '#C92A2A', bg: 'red', a: 'justify', font: 'Arial' })).toEqual({ b: true, c: '#c92a2a' });
    expect(parseCellStyle({ c: '#fff', bg: '#12345678', a: 'center' })).toEqual({ a: 'center' });
    expect(parseCellStyle({ b: 'true', i: 1 })).toBeUndefined();
    expect(parseCellStyle(['b'])).toBeUndefined();
    expect(parseCellStyle(null)).toBeUndefined();
    expect(invalidStylePatch({ c: 'rgb(1,2,3)' })).toMatch(/#rrggbb/);
    expect(invalidStylePatch({ a: 'justify' as never })).toMatch(/left, center or right/);
    expect(invalidStylePatch({ c: null, bg: '#ABCDEF', a: null, b: false })).toBeUndefined();
    // fonts, wrapping and borders: names without CSS punctuation, sizes 1-409 points (to half a point), six border lines
    expect(parseCellStyle({ ff: ' Noto Sans SC ', fs: 10.3, w: true, bt: { s: 'thin', c: '#1C7ED6' }, br: { s: 'wavy' }, bb: { s: 'double', c: 'blue' } })).toEqual({
      ff: 'Noto Sans SC',
      fs: 10.5,
      w: true,
      bt: { s: 'thin', c: '#1c7ed6' },
      bb: { s: 'double' },
    });
    expect(parseCellStyle({ ff: 'Arial"; color: red', fs: 0, w: 'yes' })).toBeUndefined();
    expect(invalidStylePatch({ ff: 'x;y' })).toMatch(/font name/);
    expect(invalidStylePatch({ fs: 500 })).toMatch(/font size/);
    expect(invalidStylePatch({ bl: { s: 'wavy' as never } })).toMatch(/border/);
    expect(styleCss({ ff: 'Georgia', fs: 14, w: true, bb: { s: 'thin' } })).toBe('font-family:"Georgia";font-size:14pt;white-space:pre-wrap;overflow-wrap:anywhere;border-bottom:1px solid #000000');
  });

  it('any value parses to a style whose every field is valid, and parsing it again changes nothing', () => {
    fc.assert(
      fc.property(fc.oneof(fc.anything(), fc.record({ b: fc.anything(), i: fc.anything(), c: fc.oneof(hex, fc.string()), bg: fc.oneof(hex, fc.string()), a: fc.oneof(alignment, fc.string()), x: fc.anything() }, { requiredKeys: [] })), (value) => {
        const style = parseCellStyle(value);
        if (style === undefined) return;
        expect(Object.keys(style).every((key) => ['b', 'i', 'c', 'bg', 'a'].includes(key))).toBe(true);
        if (style.c !== undefined) expect(style.c).toMatch(/^#[0-9a-f]{6}$/);
        if (style.bg !== undefined) expect(style.bg).toMatch(/^#[0-9a-f]{6}$/);
        expect(parseCellStyle(style)).toEqual(style);
        // the CSS of a parsed style holds nothing but its own declarations
        expect(styleCss(style)).toMatch(/^(?:[a-z-]+:[#a-z0-9]+;?)*$/);
      }),
    );
  });

  it('a patch sets what it gives and leaves the rest; the cell keeps its style through writes, clears and format changes', () => {
    fc.assert(
      fc.property(patch, patch, fc.oneof(fc.constant(null), fc.integer(), fc.string()), (first, second, input) => {
        const styled = patchStyle(patchStyle(undefined, first), second);
        for (const key of ['b', 'i', 'c', 'bg', 'a'] as const) {
          const given = second[key] !== undefined ? second[key] : first[key];
          const expected = given === false || given === null || given === undefined ? undefined : key === 'c' || key === 'bg' ? colourOf(given) : given;
          expect(styled?.[key]).toEqual(expected);
        }
        const cell = withStyle({ v: 1 }, { ...first, ...second });
        expect(sameStyle(cell?.s, styled)).toBe(true);
        const written = toCell(input, cell);
        expect(sameStyle(written?.s, styled)).toBe(true);
        expect(sameStyle(withFormat(written, '0.00')?.s, styled)).toBe(true);
        // a cell with nothing left (no value, no format, no style) is not stored
        if (styled === undefined && (input === null || input === '')) expect(written).toBeNull();
      }),
    );
  });
});
