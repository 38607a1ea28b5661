import { describe, expect, it } from 'vitest';
import { DOCX_DROPPED, DOCX_FORMS } from '../../src/domain/export/converters/docx.js';
import { richTextSchema } from '../../src/model/rich-text/schema.js';

/**
 * The docx writer reads the document's own node list (issue 20): adding a node or mark to
 * src/model/rich-text/extensions.ts without giving it a Word form, or saying why it has none, fails here.
 */
describe('docx forms of the rich-text schema', () => {
  const nodes = Object.keys(richTextSchema.nodes);
  const marks = Object.keys(richTextSchema.marks);

  it('every node and mark of the schema has a Word form or is listed as deliberately dropped', () => {
    expect(nodes.filter((name) => !DOCX_FORMS.nodes.includes(name) && !DOCX_DROPPED.nodes.includes(name))).toEqual([]);
    expect(marks.filter((name) => !DOCX_FORMS.marks.includes(name) && !DOCX_DROPPED.marks.includes(name))).toEqual([]);
  });

  it('names only what the schema has, and nothing both written and dropped', () => {
    expect([...DOCX_FORMS.nodes, ...DOCX_DROPPED.nodes].filter((name) => !nodes.includes(name))).toEqual([]);
    expect([...DOCX_FORMS.marks, ...DOCX_DROPPED.marks].filter((name) => !marks.includes(name))).toEqual([]);
    expect(DOCX_FORMS.nodes.filter((name) => DOCX_DROPPED.nodes.includes(name))).toEqual([]);
    expect(DOCX_FORMS.marks.filter((name) => DOCX_DROPPED.marks.includes(name))).toEqual([]);
  });
});
