import { finiteNumber, parsePrecision } from './decimal.js';
import { defineFieldType } from './field-type.js';

export const number = defineFieldType({
  name: 'Number',
  primary: true,
  valueDoc: 'a finite JSON number (strings are refused), rounded to `props.precision` decimals when set',
  parseProps: parsePrecision,
  write: (value, props) => finiteNumber(value, props.precision),
});
