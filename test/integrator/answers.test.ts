import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MalformedAnswer,
  isIsoUtc,
  parseFileListEntry,
  parseFileMetadata,
  parseSearchResults,
  parseUser,
  parseUsers,
} from '../../src/integrator/answers.js';

/** Runs a parser on anything and tells how it ended: parsed, or refused with a MalformedAnswer. */
function outcome(parse: (value: unknown) => unknown, value: unknown): 'parsed' | number {
  try {
    parse(value);
    return 'parsed';
  } catch (error) {
    if (error instanceof MalformedAnswer) return error.spec.code;
    throw error;
  }
}

const validDate = fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true });

describe('callback answer parsers', () => {
  it('refuse arbitrary input only with their own codes, never with a crash', () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        expect([10014, 'parsed']).toContain(outcome(parseUser, value));
        expect([10014, 'parsed']).toContain(outcome(parseUsers, value));
        expect([10012, 10013, 'parsed']).toContain(outcome(parseFileMetadata, value));
        expect([10012, 10013, 'parsed']).toContain(outcome(parseFileListEntry, value));
        expect([10012, 10013, 10014, 'parsed']).toContain(outcome(parseSearchResults, value));
      }),
    );
  });

  it('keep every well-formed user, string or integer id', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ minLength: 1, maxLength: 64 }), fc.integer({ min: 0 })), fc.string(), fc.option(fc.emailAddress(), { nil: undefined }), (id, name, email) => {
        const user = parseUser({ id, name, email, extra: [1, 2] });
        expect(user).toEqual({ id: String(id), name, ...(email !== undefined ? { email } : {}) });
      }),
    );
  });

  it('keep the permission booleans as sent, and refuse any that is not a boolean', () => {
    const permissions = fc.dictionary(fc.constantFrom('readable', 'editable', 'commentable', 'copyable', 'exportable', 'manageable', 'custom'), fc.boolean());
    fc.assert(
      fc.property(permissions, fc.constantFrom('document', 'documentPro', 'spreadsheet', 'presentation', 'table', 'file'), (flags, type) => {
        expect(parseFileMetadata({ id: 'f', name: 'F', type, permissions: flags }).permissions).toEqual(flags);
      }),
    );
    fc.assert(
      fc.property(permissions, fc.oneof(fc.string(), fc.integer(), fc.constant(null)), (flags, notBoolean) => {
        expect(outcome(parseFileMetadata, { id: 'f', name: 'F', type: 'document', permissions: { ...flags, readable: notBoolean } })).toBe(10012);
      }),
    );
  });

  it('accept ISO 8601 timestamps in UTC only', () => {
    fc.assert(fc.property(validDate, (date) => isIsoUtc(date.toISOString()) && isIsoUtc(date.toISOString().replace(/\.\d+Z$/, 'Z'))));
    fc.assert(
      fc.property(validDate, fc.integer({ min: 1, max: 14 }), fc.constantFrom('+', '-'), (date, hours, sign) => {
        const local = date.toISOString().replace('Z', `${sign}${String(hours).padStart(2, '0')}:00`);
        return !isIsoUtc(local);
      }),
    );
    for (const bad of ['2026-13-01T00:00:00Z', '2026-01-01 00:00:00Z', '2026-01-01', '1767225600000', '']) expect(isIsoUtc(bad), bad).toBe(false);
  });

  it('require fullUrl exactly on file entries of type file', () => {
    fc.assert(
      fc.property(fc.constantFrom('document', 'spreadsheet', 'table', 'file'), fc.boolean(), (type, withUrl) => {
        const entry = { id: 'x', name: 'X', type, permissions: {}, ...(withUrl ? { fullUrl: 'https://intranet.example/x' } : {}) };
        expect(outcome(parseFileListEntry, entry)).toBe(withUrl === (type === 'file') ? 'parsed' : 10012);
      }),
    );
  });
});
