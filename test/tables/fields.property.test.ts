import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseIsoDate, toStoredDate } from '../../src/model/tables/fields/date.js';
import { decimalPlaces, finiteNumber } from '../../src/model/tables/fields/decimal.js';
import { FieldRuleError } from '../../src/model/tables/fields/field-type.js';
import { FIELD_TYPES } from '../../src/model/tables/fields/registry.js';
import { ApiError } from '../../src/errors.js';
import { pageSizeOf } from '../../src/routes/table-api/rows.js';

const MIN_MS = -62_167_219_200_000; // 0000-01-01
const MAX_MS = 253_402_300_799_999; // 9999-12-31T23:59:59.999Z
const noLinks = { requireRows: () => undefined };
const noTables = { tablesInBase: new Set<string>() };

describe('Date cells', () => {
  it('reads back every epoch millisecond as the same instant, in ISO 8601 UTC', () => {
    fc.assert(
      fc.property(fc.integer({ min: MIN_MS, max: MAX_MS }), (ms) => {
        const stored = toStoredDate(ms);
        expect(stored).toBe(new Date(ms).toISOString());
        expect(Date.parse(stored)).toBe(ms);
        expect(toStoredDate(stored)).toBe(stored);
      }),
    );
  });

  it('parses every valid calendar date and time, with any offset, to the right instant', () => {
    const date = fc.date({ min: new Date('0001-01-02T00:00:00Z'), max: new Date('9999-12-30T23:59:59Z'), noInvalidDate: true });
    fc.assert(
      fc.property(date, fc.integer({ min: -23 * 60 - 59, max: 23 * 60 + 59 }), (instant, offsetMinutes) => {
        const local = new Date(instant.getTime() + offsetMinutes * 60_000);
        const sign = offsetMinutes < 0 ? '-' : '+';
        const abs = Math.abs(offsetMinutes);
        const zone = `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
        const text = `${local.toISOString().slice(0, 23)}${zone}`;
        expect(parseIsoDate(text)).toBe(instant.getTime());
      }),
    );
  });

  it('refuses impossible dates and anything that is not ISO 8601, never rolling over', () => {
    for (const text of ['2024-02-30', '2023-02-29', '2024-13-01', '2024-00-10', '2024-04-31', '2024-05-01T24:00', '2024-05-01T10:60', '2024-05-01T10:00+25:00', '01/05/2024', 'May 1 2024', '', '2024-5-1']) {
      expect(parseIsoDate(text), text).toBeUndefined();
    }
    expect(parseIsoDate('2024-02-29')).toBe(Date.UTC(2024, 1, 29));
    expect(parseIsoDate('2024-05-01T08:30')).toBe(Date.UTC(2024, 4, 1, 8, 30));
    fc.assert(
      fc.property(fc.string(), (text) => {
        const parsed = parseIsoDate(text);
        if (parsed !== undefined) expect(Number.isFinite(parsed)).toBe(true);
      }),
    );
  });

  it('refuses non-integer, out-of-range and non-date values with a rule error', () => {
    for (const value of [1.5, MAX_MS + 1, MIN_MS - 1, 8.64e15, Number.NaN, Infinity, true, null, [], {}, 'soon']) {
      expect(() => toStoredDate(value), String(value)).toThrow(FieldRuleError);
    }
  });
});

describe('Number cells', () => {
  it('rounds to the precision, half away from zero, and stays finite', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e12, max: 1e12 }), fc.integer({ min: 0, max: 10 }), (value, places) => {
        const rounded = finiteNumber(value, places);
        expect(Number.isFinite(rounded)).toBe(true);
        expect(Math.abs(rounded - value)).toBeLessThanOrEqual(0.5 * 10 ** -places + 1e-9 * Math.max(1, Math.abs(value)));
        expect(finiteNumber(rounded, places)).toBe(rounded);
        expect(decimalPlaces(rounded)).toBeLessThanOrEqual(places);
      }),
    );
    expect(finiteNumber(1.005, 2)).toBe(1.01);
    // Tiny values print with an exponent; they round like any other.
    expect(finiteNumber(1e-7, 2)).toBe(0);
    expect(finiteNumber(-1e-7, 0)).toBe(0);
    expect(finiteNumber(5e-7, 6)).toBe(0.000001);
    expect(finiteNumber(1.5e-7, 7)).toBe(2e-7);
    expect(finiteNumber(1e-7, 10)).toBe(1e-7);
    expect(finiteNumber(-1.005, 2)).toBe(-1.01);
    expect(finiteNumber(-0.004, 2)).toBe(0);
    expect(finiteNumber(1e300, 2)).toBe(1e300);
  });

  it('keeps a value that has no more decimals than the precision as it is', () => {
    const decimal = fc.tuple(fc.integer({ min: -(2 ** 53), max: 2 ** 53 }), fc.integer({ min: 0, max: 10 })).map(([n, k]) => n / 10 ** k);
    fc.assert(
      fc.property(fc.oneof(decimal, fc.double({ noNaN: true, noDefaultInfinity: true })), fc.integer({ min: 0, max: 10 }), (value, places) => {
        fc.pre(decimalPlaces(value) <= places);
        expect(finiteNumber(value, places)).toBe(value === 0 ? 0 : value);
      }),
    );
    // 17 significant digits: shifting them by the precision as an integer would lose the last one.
    expect(finiteNumber(999999999999.9999, 5)).toBe(999999999999.9999);
    expect(finiteNumber(7883158579617.585, 4)).toBe(7883158579617.585);
    expect([1.25, 1e-7, 1.5e-7, 1e21, 0].map(decimalPlaces)).toEqual([2, 7, 8, 0, 0]);
  });

  it('refuses everything that is not a finite number', () => {
    for (const value of ['1', Number.NaN, Infinity, -Infinity, null, true, [1], { n: 1 }]) {
      expect(() => finiteNumber(value, undefined)).toThrow(FieldRuleError);
    }
  });
});

describe('pageSize', () => {
  it('is an integer from 1 to 100 or refused with 70000, whatever the query text', () => {
    fc.assert(
      fc.property(fc.option(fc.string(), { nil: undefined }), (raw) => {
        let size: number;
        try {
          size = pageSizeOf(raw);
        } catch (error) {
          expect(error).toBeInstanceOf(ApiError);
          expect((error as ApiError).spec.tableCode).toBe(70000);
          return;
        }
        expect(Number.isInteger(size)).toBe(true);
        expect(size).toBeGreaterThanOrEqual(1);
        expect(size).toBeLessThanOrEqual(100);
        if (raw !== undefined && raw !== '') expect(String(size)).toBe(raw.replace(/^0+(?=\d)/, ''));
      }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100 }), (n) => {
        expect(pageSizeOf(String(n))).toBe(n);
      }),
    );
  });
});

describe('every field type', () => {
  const propsFor: Record<string, Record<string, unknown>> = {
    SingleChoice: { options: [{ name: 'a' }, { name: 'b' }] },
    MultipleChoice: { options: [{ name: 'a' }, { name: 'b' }] },
    Cascade: { options: [{ name: 'a', children: [{ name: 'b' }] }] },
    Link: { tableGuid: 'tblSelf' },
  };

  it('either stores a JSON value or throws a rule error, for any input: never anything else', () => {
    for (const type of FIELD_TYPES.values()) {
      const props = type.parseProps(propsFor[type.name] ?? {}, { tablesInBase: new Set(['tblSelf']) });
      fc.assert(
        fc.property(fc.jsonValue(), (value) => {
          try {
            const stored = type.write(value, props, noLinks);
            if (stored !== undefined) expect(JSON.parse(JSON.stringify(stored))).toEqual(stored);
          } catch (error) {
            expect(error).toBeInstanceOf(FieldRuleError);
          }
        }),
        { numRuns: 200 },
      );
    }
  });

  it('validates props: either normalised props or a rule error, and parsing its own output changes nothing', () => {
    for (const type of FIELD_TYPES.values()) {
      fc.assert(
        fc.property(fc.dictionary(fc.constantFrom('count', 'icon', 'type', 'precision', 'options', 'tableGuid', 'format', 'x'), fc.jsonValue()), (raw) => {
          try {
            const props = type.parseProps(raw, noTables);
            expect(type.parseProps(props, noTables)).toEqual(props);
          } catch (error) {
            expect(error).toBeInstanceOf(FieldRuleError);
          }
        }),
        { numRuns: 200 },
      );
    }
  });
});
