import { defineFieldType, describe, FieldRuleError, type ColumnProps } from './field-type.js';

export const MAX_LINKS_PER_CELL = 1000;

interface LinkProps extends ColumnProps {
  tableGuid: string;
}

export const link = defineFieldType({
  name: 'Link',
  primary: false,
  valueDoc: `an array of at most ${MAX_LINKS_PER_CELL} row guids of the linked table (\`props.tableGuid\`, a table of the same base); repeats are kept once; \`[]\` clears the cell`,
  parseProps(raw, context): LinkProps {
    const tableGuid = raw.tableGuid;
    if (typeof tableGuid !== 'string' || tableGuid.length === 0) {
      throw new FieldRuleError(`props.tableGuid must name the linked table, got ${describe(tableGuid)}`);
    }
    if (!context.tablesInBase.has(tableGuid)) {
      throw new FieldRuleError(`props.tableGuid ${JSON.stringify(tableGuid)} is not a table of this base`);
    }
    return { tableGuid };
  },
  write(value, props, context) {
    if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) {
      throw new FieldRuleError(`must be an array of row guids, got ${describe(value)}`);
    }
    const guids = [...new Set(value as string[])];
    if (guids.length > MAX_LINKS_PER_CELL) throw new FieldRuleError(`may link at most ${MAX_LINKS_PER_CELL} rows`);
    if (guids.length === 0) return undefined;
    context.requireRows(props.tableGuid, guids);
    return guids;
  },
});
