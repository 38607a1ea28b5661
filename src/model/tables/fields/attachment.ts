import { defineFieldType, FieldRuleError, noProps } from './field-type.js';

/**
 * Attachment cells are filled by the editors (file uploads), never through the table API (spec 2.5), which
 * also cannot create such a column; cells read back as stored.
 */
export const attachment = defineFieldType({
  name: 'Attachment',
  primary: false,
  creatable: false,
  readOnly: true,
  valueDoc: 'read-only through the API: cells cannot be written, and the API cannot create this type',
  parseProps: noProps,
  write() {
    throw new FieldRuleError('is an Attachment column: attachment cells cannot be written through the table API');
  },
});
