import { defineFieldType, FieldRuleError, noProps } from './field-type.js';

/**
 * Numbers rows 1, 2, 3… in creation order (the row's sequence number in its table). Set by the service when
 * a row is created; never reused after a delete; read-only.
 */
export const autoNumber = defineFieldType({
  name: 'AutoNumber',
  primary: true,
  readOnly: true,
  valueDoc: 'an integer the service assigns when the row is created (1, 2, 3… in creation order, never reused); read-only',
  parseProps: noProps,
  write() {
    throw new FieldRuleError('is an AutoNumber column: its values are assigned by the service and cannot be written');
  },
});
