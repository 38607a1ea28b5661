import { finiteNumber, parsePrecision } from './decimal.js';
import { defineFieldType } from './field-type.js';

/** A percentage is stored as a fraction (0.25 is 25 %); `precision` counts decimals of the percentage. */
export const percent = defineFieldType({
  name: 'Percent',
  primary: true,
  valueDoc: 'a finite JSON number, the fraction (0.25 means 25 %), rounded to `props.precision` decimals of the percentage when set',
  parseProps: parsePrecision,
  write: (value, props) => finiteNumber(value, props.precision === undefined ? undefined : props.precision + 2),
});
