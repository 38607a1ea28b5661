import { describe, FieldRuleError, type ColumnProps } from './field-type.js';

export const MAX_OPTIONS = 1000;
export const MAX_OPTION_NAME = 200;

export interface ChoiceOption {
  name: string;
  color?: string;
}

export interface ChoiceProps extends ColumnProps {
  options: ChoiceOption[];
}

/** `props.options`: `[{name, color?}]`, names 1-200 characters and unique in the column. */
export function parseOptions(raw: ColumnProps): ChoiceProps {
  const options = raw.options ?? [];
  if (!Array.isArray(options)) throw new FieldRuleError(`props.options must be an array, got ${describe(options)}`);
  if (options.length > MAX_OPTIONS) throw new FieldRuleError(`props.options may hold at most ${MAX_OPTIONS} options`);
  const seen = new Set<string>();
  return {
    options: options.map((option: unknown, index): ChoiceOption => {
      const where = `props.options[${index}]`;
      if (typeof option !== 'object' || option === null || Array.isArray(option)) {
        throw new FieldRuleError(`${where} must be an object {name, color?}, got ${describe(option)}`);
      }
      const { name, color } = option as Record<string, unknown>;
      if (typeof name !== 'string' || name.length < 1 || name.length > MAX_OPTION_NAME) {
        throw new FieldRuleError(`${where}.name must be a string of 1-${MAX_OPTION_NAME} characters`);
      }
      if (seen.has(name)) throw new FieldRuleError(`${where}.name ${JSON.stringify(name)} is a duplicate: option names must be unique`);
      seen.add(name);
      if (color !== undefined && (typeof color !== 'string' || color.length > 64)) {
        throw new FieldRuleError(`${where}.color must be a string of at most 64 characters`);
      }
      return color === undefined ? { name } : { name, color };
    }),
  };
}

/** The option name itself, when it is one of the column's options. */
export function optionName(value: unknown, props: ChoiceProps): string {
  if (typeof value !== 'string') throw new FieldRuleError(`must be an option name (a string), got ${describe(value)}`);
  if (!props.options.some((option) => option.name === value)) {
    throw new FieldRuleError(`unknown option ${JSON.stringify(value)}; the column's options are defined in its props`);
  }
  return value;
}
