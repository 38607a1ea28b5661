import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseLocaleNumber, parseTypedDate } from '../../web/table/typed-input.js';

const LOCALES = ['en-US', 'de-DE', 'fr-FR', 'zh-CN', 'de-CH', 'en-IN'];

describe('numbers typed in the user\'s locale (table editor)', () => {
  it('reads back every number as the locale writes it, grouped or not', () => {
    fc.assert(
      fc.property(fc.constantFrom(...LOCALES), fc.integer({ min: -1e12, max: 1e12 }), fc.integer({ min: 0, max: 99 }), fc.boolean(), (locale, whole, cents, grouped) => {
        const value = whole + (Math.sign(whole) || 1) * cents / 100;
        const written = new Intl.NumberFormat(locale, { maximumFractionDigits: 2, useGrouping: grouped }).format(value);
        expect(parseLocaleNumber(written, locale)).toBeCloseTo(value, 6);
      }),
    );
  });

  it('reads the plain form 1234.5 in every locale, except where dots group thousands', () => {
    expect(LOCALES.map((locale) => parseLocaleNumber('1234.5', locale))).toEqual(LOCALES.map(() => 1234.5));
    expect(parseLocaleNumber('1.234', 'de-DE')).toBe(1234);
    expect(parseLocaleNumber('1.234', 'en-US')).toBe(1.234);
  });

  it('refuses separators that group nothing and text that is no number', () => {
    for (const text of ['1,5', '12,34', '1,2345', 'lots', '1..2', '', '-', '1e', '١٢']) expect(parseLocaleNumber(text, 'en-US'), text).toBeUndefined();
    expect(parseLocaleNumber('1,5', 'de-DE')).toBe(1.5);
  });
});

describe('dates typed as people write them (table editor)', () => {
  it('reads year-month-day with any of - / . 年月日, and a time after it', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1000, max: 9999 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 28 }), fc.constantFrom('-', '/', '.'), (year, month, day, separator) => {
        const iso = `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
        expect(parseTypedDate(`${year}${separator}${month}${separator}${day}`)).toBe(iso);
        expect(parseTypedDate(`${year}年${month}月${day}日`)).toBe(iso);
        expect(parseTypedDate(`${iso} 9:30`)).toBe(`${iso}T09:30`);
      }),
    );
    for (const text of ['next week', '14/03/2026', '2026-3', '']) expect(parseTypedDate(text), text).toBeUndefined();
  });
});
