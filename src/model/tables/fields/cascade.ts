import { defineFieldType, describe, FieldRuleError, type ColumnProps } from './field-type.js';

export const MAX_CASCADE_DEPTH = 10;
export const MAX_CASCADE_OPTIONS = 5000;

export interface CascadeOption {
  name: string;
  children?: CascadeOption[];
}

interface CascadeProps extends ColumnProps {
  options: CascadeOption[];
}

/** `props.options`: a tree `[{name, children?}]`; sibling names unique, at most 10 levels and 5000 options. */
function parseTree(raw: unknown, where: string, depth: number, budget: { left: number }): CascadeOption[] {
  if (!Array.isArray(raw)) throw new FieldRuleError(`${where} must be an array, got ${describe(raw)}`);
  if (depth > MAX_CASCADE_DEPTH) throw new FieldRuleError(`${where}: options may nest at most ${MAX_CASCADE_DEPTH} levels`);
  const seen = new Set<string>();
  return raw.map((option: unknown, index): CascadeOption => {
    const here = `${where}[${index}]`;
    if (--budget.left < 0) throw new FieldRuleError(`props.options may hold at most ${MAX_CASCADE_OPTIONS} options in all`);
    if (typeof option !== 'object' || option === null || Array.isArray(option)) {
      throw new FieldRuleError(`${here} must be an object {name, children?}, got ${describe(option)}`);
    }
    const { name, children } = option as Record<string, unknown>;
    if (typeof name !== 'string' || name.length < 1 || name.length > 200) {
      throw new FieldRuleError(`${here}.name must be a string of 1-200 characters`);
    }
    if (seen.has(name)) throw new FieldRuleError(`${here}.name ${JSON.stringify(name)} is a duplicate among its siblings`);
    seen.add(name);
    if (children === undefined || (Array.isArray(children) && children.length === 0)) return { name };
    return { name, children: parseTree(children, `${here}.children`, depth + 1, budget) };
  });
}

export const cascade = defineFieldType({
  name: 'Cascade',
  primary: false,
  valueDoc: 'a path of option names from the top of `props.options` down (`["Europe", "France", "Paris"]`), stopping at any level; `[]` clears the cell',
  parseProps: (raw): CascadeProps => ({ options: parseTree(raw.options ?? [], 'props.options', 1, { left: MAX_CASCADE_OPTIONS }) }),
  write(value, props) {
    if (!Array.isArray(value)) throw new FieldRuleError(`must be a path of option names (an array), got ${describe(value)}`);
    let level: CascadeOption[] | undefined = props.options;
    const path: string[] = [];
    for (const step of value) {
      const option: CascadeOption | undefined = level?.find((candidate) => candidate.name === step);
      if (!option) {
        const at = path.length === 0 ? 'at the top level' : `under ${JSON.stringify(path.join(' / '))}`;
        throw new FieldRuleError(`${describe(step)} is not an option ${at}`);
      }
      path.push(option.name);
      level = option.children;
    }
    return path.length === 0 ? undefined : path;
  },
});
