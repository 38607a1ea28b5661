import { defineFieldType, describe, enumProp, FieldRuleError, integerProp, type ColumnProps } from './field-type.js';

export const RATE_ICONS = ['star', 'flame', 'heart', 'honor', 'stone'] as const;
export const MAX_RATE_COUNT = 10;

interface RateProps extends ColumnProps {
  count: number;
  icon: (typeof RATE_ICONS)[number];
}

export const rate = defineFieldType({
  name: 'Rate',
  primary: false,
  valueDoc: 'an integer from 0 to `props.count`',
  parseProps: (raw): RateProps => ({
    count: integerProp(raw, 'count', 1, MAX_RATE_COUNT, 5) ?? 5,
    icon: enumProp(raw, 'icon', RATE_ICONS, 'star'),
  }),
  write(value, props) {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > props.count) {
      throw new FieldRuleError(`must be an integer from 0 to ${props.count}, got ${describe(value)}`);
    }
    return Object.is(value, -0) ? 0 : value;
  },
});
