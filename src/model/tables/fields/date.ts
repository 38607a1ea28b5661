import { defineFieldType, describe, enumProp, FieldRuleError, type ColumnProps } from './field-type.js';

/** Dates from year 0000 to 9999: the range ISO 8601 writes without an expanded (signed, 6-digit) year. */
const MIN_EPOCH_MS = -62_167_219_200_000; // 0000-01-01T00:00:00.000Z
const MAX_EPOCH_MS = 253_402_300_799_999; // 9999-12-31T23:59:59.999Z

function inRange(ms: number): boolean {
  return ms >= MIN_EPOCH_MS && ms <= MAX_EPOCH_MS;
}

const ISO_DATE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * Reads an ISO 8601 date or date-time (`2024-05-01`, `2024-05-01T08:30`, `2024-05-01T08:30:00.250+02:00`).
 * A value without an offset is UTC. Impossible dates (February 30th, 25 o'clock) are refused rather than
 * rolled over. Returns epoch milliseconds, or undefined when the text is not such a date.
 */
export function parseIsoDate(text: string): number | undefined {
  const match = ISO_DATE.exec(text);
  if (!match) return undefined;
  const [, year, month, day, hour = '00', minute = '00', second = '00', fraction = '', zone = 'Z'] = match;
  const [y, mo, d, h, mi, s] = [year, month, day, hour, minute, second].map(Number) as [number, number, number, number, number, number];
  if (mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 59) return undefined;
  const daysInMonth = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  if (d > daysInMonth) return undefined;
  let offsetMinutes = 0;
  if (zone !== 'Z') {
    const digits = zone.replace(':', '');
    const offsetHours = Number(digits.slice(1, 3));
    const offsetMins = Number(digits.slice(3, 5));
    if (offsetHours > 23 || offsetMins > 59) return undefined;
    offsetMinutes = (digits.startsWith('-') ? -1 : 1) * (offsetHours * 60 + offsetMins);
  }
  const utc = new Date(0);
  utc.setUTCFullYear(y, mo - 1, d);
  utc.setUTCHours(h, mi, s, Math.floor(Number(`0.${fraction || '0'}`) * 1000));
  const ms = utc.getTime() - offsetMinutes * 60_000;
  return inRange(ms) ? ms : undefined;
}

/** A written date: epoch milliseconds (integer) or ISO 8601 text; stored and read as ISO 8601 UTC. */
export function toStoredDate(value: unknown): string {
  let ms: number | undefined;
  if (typeof value === 'number') ms = Number.isInteger(value) && inRange(value) ? value : undefined;
  else if (typeof value === 'string') ms = parseIsoDate(value);
  if (ms === undefined) {
    throw new FieldRuleError(`must be epoch milliseconds (an integer) or an ISO 8601 date, got ${describe(value)}`);
  }
  return new Date(ms).toISOString();
}

interface DateProps extends ColumnProps {
  /** display hint for editors; values always keep the full time */
  format: 'date' | 'datetime';
}

export const date = defineFieldType({
  name: 'Date',
  primary: true,
  valueDoc:
    'write epoch milliseconds (integer) or ISO 8601 text, years 0000-9999 (`2024-05-01`, `2024-05-01T08:30:00+02:00`; no offset means UTC); ' +
    'read as ISO 8601 UTC text with milliseconds (`2024-05-01T06:30:00.000Z`)',
  parseProps: (raw): DateProps => ({ format: enumProp(raw, 'format', ['date', 'datetime'] as const, 'date') }),
  write: (value) => toStoredDate(value),
});
