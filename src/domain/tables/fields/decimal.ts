import { describe, FieldRuleError, integerProp, type ColumnProps } from './field-type.js';

export const MAX_PRECISION = 10;

export interface DecimalProps extends ColumnProps {
  precision?: number;
}

/** `precision` (optional integer 0-10): decimal places kept when a value is written. */
export function parsePrecision(raw: ColumnProps): DecimalProps {
  const precision = integerProp(raw, 'precision', 0, MAX_PRECISION, undefined);
  return precision === undefined ? {} : { precision };
}

/**
 * `value` × 10^`shift` as its shortest decimal form says (1.005 → 100.5, not 100.49999999999999), also when
 * that form has an exponent (1e-7).
 */
function shiftDecimal(value: number, shift: number): number {
  const [mantissa, exponent = '0'] = String(value).split('e');
  return Number(`${mantissa}e${Number(exponent) + shift}`);
}

/** A finite JSON number, rounded half away from zero to `places` decimals when given. */
export function finiteNumber(value: unknown, places: number | undefined): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new FieldRuleError(`must be a finite number, got ${describe(value)}`);
  // JSON has no negative zero: store 0, as a reader would see it.
  if (places === undefined) return value === 0 ? 0 : value;
  const magnitude = Math.abs(value);
  const rounded = shiftDecimal(Math.round(shiftDecimal(magnitude, places)), -places);
  // Very large magnitudes have no decimals left to round; keep them as sent.
  const result = Number.isFinite(rounded) ? Math.sign(value) * rounded : value;
  return result === 0 ? 0 : result;
}
