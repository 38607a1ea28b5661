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

/** A number's shortest decimal form split at its exponent: 1.25 → ['1.25', 0], 1.5e-7 → ['1.5', -7]. */
function decimalForm(value: number): [mantissa: string, exponent: number] {
  const [mantissa = '', exponent = '0'] = String(value).split('e');
  return [mantissa, Number(exponent)];
}

/** Decimal places of a number's shortest form: 1.25 → 2, 1e-7 → 7, 1.5e-7 → 8, 1e21 → 0. */
export function decimalPlaces(value: number): number {
  const [mantissa, exponent] = decimalForm(value);
  return Math.max(0, (mantissa.split('.')[1] ?? '').length - exponent);
}

/** `value` × 10^`shift` as its shortest decimal form says (1.005 → 100.5, not 100.49999999999999). */
function shiftDecimal(value: number, shift: number): number {
  const [mantissa, exponent] = decimalForm(value);
  return Number(`${mantissa}e${exponent + shift}`);
}

/** A finite JSON number, rounded half away from zero to `places` decimals when given. */
export function finiteNumber(value: unknown, places: number | undefined): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new FieldRuleError(`must be a finite number, got ${describe(value)}`);
  // JSON has no negative zero: store 0, as a reader would see it.
  if (places === undefined) return value === 0 ? 0 : value;
  const magnitude = Math.abs(value);
  // A value with no more decimals than kept is kept as it is: shifting its 17 significant digits as an
  // integer could lose the last one. Most written values are such; the arithmetic test (true only for
  // the double nearest to a decimal of at most `places` decimals) spares nearly all of them the strings.
  const factor = 10 ** places;
  if (Math.round(magnitude * factor) / factor === magnitude || decimalPlaces(magnitude) <= places) return value === 0 ? 0 : value;
  const result = Math.sign(value) * shiftDecimal(Math.round(shiftDecimal(magnitude, places)), -places);
  return result === 0 ? 0 : result;
}
