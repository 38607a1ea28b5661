import { defineFieldType, describe, enumProp, FieldRuleError, type ColumnProps } from './field-type.js';

export const CHECKBOX_ICONS = ['check', 'star', 'close'] as const;

interface CheckBoxProps extends ColumnProps {
  type: (typeof CHECKBOX_ICONS)[number];
}

export const checkBox = defineFieldType({
  name: 'CheckBox',
  primary: false,
  valueDoc: '`true` or `false`; an unchecked box is an empty cell, so `false` reads as absent',
  parseProps: (raw): CheckBoxProps => ({ type: enumProp(raw, 'type', CHECKBOX_ICONS, 'check') }),
  write(value) {
    if (typeof value !== 'boolean') throw new FieldRuleError(`must be true or false, got ${describe(value)}`);
    return value ? true : undefined;
  },
});
