import { defineFieldType, describe, FieldRuleError, noProps, type FieldType } from './field-type.js';

/** The two text types differ only in name and the longest value they keep. */
export function textType(name: string, maxLength: number, valueDoc: string): FieldType {
  return defineFieldType({
    name,
    primary: true,
    valueDoc,
    parseProps: noProps,
    write(value) {
      if (typeof value !== 'string') throw new FieldRuleError(`must be a string, got ${describe(value)}`);
      if (value.length > maxLength) throw new FieldRuleError(`must be at most ${maxLength} characters, got ${value.length}`);
      return value;
    },
  });
}
