import { describe, expect, it } from 'vitest';
import { richTextSchema } from '../../src/model/rich-text/schema.js';

/** Node and mark names of the rich-text schema, as an exporter declares them. */
export interface SchemaNames {
  nodes: readonly string[];
  marks: readonly string[];
}

/**
 * An exporter reads the document's own node list (issue 20): adding a node or mark to
 * src/model/rich-text/extensions.ts without giving it the exporter's form, or listing why it has none, fails
 * here. `written` are the names with a form, `listed` those deliberately without one.
 */
export function describeSchemaForms(format: string, written: SchemaNames, listed: SchemaNames): void {
  describe(`${format} forms of the rich-text schema`, () => {
    const schema: SchemaNames = { nodes: Object.keys(richTextSchema.nodes), marks: Object.keys(richTextSchema.marks) };

    it(`every node and mark of the schema has a ${format} form or is listed as having none`, () => {
      for (const kind of ['nodes', 'marks'] as const) {
        expect(schema[kind].filter((name) => !written[kind].includes(name) && !listed[kind].includes(name))).toEqual([]);
      }
    });

    it('names only what the schema has, and nothing both written and listed', () => {
      for (const kind of ['nodes', 'marks'] as const) {
        expect([...written[kind], ...listed[kind]].filter((name) => !schema[kind].includes(name))).toEqual([]);
        expect(written[kind].filter((name) => listed[kind].includes(name))).toEqual([]);
      }
    });
  });
}
