import { optionName, parseOptions } from './choices.js';
import { defineFieldType, describe, FieldRuleError } from './field-type.js';

export const multipleChoice = defineFieldType({
  name: 'MultipleChoice',
  primary: false,
  valueDoc: 'an array of option names from `props.options`; repeats are kept once, in first-seen order; `[]` clears the cell',
  parseProps: parseOptions,
  write(value, props) {
    if (!Array.isArray(value)) throw new FieldRuleError(`must be an array of option names, got ${describe(value)}`);
    const names = [...new Set(value.map((item: unknown) => optionName(item, props)))];
    return names.length === 0 ? undefined : names;
  },
});
