import { optionName, parseOptions } from './choices.js';
import { defineFieldType } from './field-type.js';

export const singleChoice = defineFieldType({
  name: 'SingleChoice',
  primary: true,
  valueDoc: 'the name of one of the options in `props.options`',
  parseProps: parseOptions,
  write: (value, props) => optionName(value, props),
});
