import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fontFamilyOf, fontSizeOf, hexColor, indentOf, lineHeightOf, pointsOf } from '../../src/model/rich-text/formatting.js';

/**
 * The CSS readers of the formatting attributes (src/model/rich-text/formatting.ts): what an import, a paste or
 * a copy inside the editor hands them (the browser rewrites inline styles: `#c00000` comes back as
 * `rgb(192, 0, 0)`, a quoted family unquoted) reads as the stored value; anything else reads as nothing, never
 * as a value that could break out of a style attribute.
 */
describe('formatting values read from CSS', () => {
  it('a colour reads the same in any of its spellings', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }), (r, g, b) => {
        const hex = `#${[r, g, b].map((channel) => channel.toString(16).padStart(2, '0')).join('')}`;
        expect(hexColor(hex.toUpperCase())).toBe(hex);
        expect(hexColor(`rgb(${r}, ${g}, ${b})`)).toBe(hex);
        expect(hexColor(`rgba(${r},${g},${b},1)`)).toBe(hex);
      }),
    );
    expect(hexColor('#abc')).toBe('#aabbcc');
    expect(hexColor('rgb(256, 0, 0)')).toBeUndefined();
    expect(hexColor('rgba(0, 0, 0, 0.5)')).toBeUndefined();
  });

  it('a size reads as whole or half points, the same from pt, px and in', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 800 }), (halfPoints) => {
        const points = halfPoints / 2;
        expect(fontSizeOf(`${points}pt`)).toBe(`${points}pt`);
        expect(fontSizeOf(`${(points * 4) / 3}px`)).toBe(`${points}pt`);
        expect(fontSizeOf(`${points / 72}in`)).toBe(`${points}pt`);
      }),
    );
    expect(fontSizeOf('0pt')).toBeUndefined();
    expect(fontSizeOf('1000pt')).toBeUndefined();
    expect(pointsOf('12')).toBeUndefined();
  });

  it('any string reads as a safe value or nothing', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (text) => {
        const family = fontFamilyOf(text);
        if (family !== undefined) expect(family).toMatch(/^[\p{L}\p{N} _.-]{1,64}$/u);
        const color = hexColor(text);
        if (color !== undefined) expect(color).toMatch(/^#[0-9a-f]{6}$/);
        const size = fontSizeOf(text);
        if (size !== undefined) expect(size).toMatch(/^\d+(\.5)?pt$/);
        const line = lineHeightOf(text);
        if (line !== undefined) expect(Number(line)).toBeGreaterThanOrEqual(0.5);
        const indent = indentOf(pointsOf(text));
        if (indent !== undefined) expect(indent).toBeGreaterThanOrEqual(1);
      }),
      { numRuns: 500 },
    );
  });

  it('a family list reads as its first family, as the browser and Word write it', () => {
    expect(fontFamilyOf('Georgia, serif')).toBe('Georgia');
    expect(fontFamilyOf('"Times New Roman", serif')).toBe('Times New Roman');
    expect(fontFamilyOf("'Microsoft YaHei'")).toBe('Microsoft YaHei');
    expect(fontFamilyOf('sans-serif')).toBeUndefined();
    expect(fontFamilyOf('"x" onload="alert(1)"')).toBeUndefined();
    expect(lineHeightOf('150%')).toBe('1.5');
    expect(indentOf(pointsOf('0.5in'))).toBe(1);
    expect(indentOf(pointsOf('96px'))).toBe(2);
  });
});
