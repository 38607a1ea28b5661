import fc from 'fast-check';
import { Transform } from '@tiptap/pm/transform';
import type { Node as SchemaNode } from '@tiptap/pm/model';
import { describe, expect, it } from 'vitest';
import { footnotesIn } from '../../src/model/rich-text/nodes/footnote.js';
import { richTextSchema } from '../../src/model/rich-text/schema.js';

/**
 * Footnote numbers (src/model/rich-text/nodes/footnote.ts `footnotesIn`) are derived from where the references
 * stand: under random insertions of footnotes and deletions of ranges (across paragraphs, taking references with
 * them), the numbers are always 1…n in document order, checked against a reference model that follows each note's
 * place through ProseMirror's own position mapping.
 */

type Edit = { kind: 'insert'; at: number } | { kind: 'delete'; from: number; to: number } | { kind: 'type'; at: number; text: string };

const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('delete' as const), from: fc.nat(), to: fc.nat() }),
  fc.record({ kind: fc.constant('type' as const), at: fc.nat(), text: fc.string({ minLength: 1, maxLength: 4 }) }),
);

/** Positions where inline content may go (inside a textblock), in order. */
function inlinePositions(doc: SchemaNode): number[] {
  const positions: number[] = [];
  doc.descendants((node, pos) => {
    if (node.isTextblock) for (let at = pos + 1; at <= pos + node.nodeSize - 1; at += 1) positions.push(at);
    return !node.isTextblock;
  });
  return positions;
}

function startingDocument(): SchemaNode {
  const paragraph = (text: string) => richTextSchema.nodes.paragraph!.create(null, richTextSchema.text(text));
  return richTextSchema.nodes.doc!.create(null, [paragraph('First paragraph'), richTextSchema.nodes.heading!.create({ level: 2 }, richTextSchema.text('A heading')), paragraph('Last one')]);
}

describe('footnote numbering', () => {
  it('numbers the notes 1…n in document order under random insertions and deletions', () => {
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 40 }), (edits) => {
        let doc = startingDocument();
        // the reference model: each note's name and where its reference stands
        let placed: Array<{ note: string; pos: number }> = [];
        let made = 0;
        for (const step of edits) {
          const transform = new Transform(doc);
          const positions = inlinePositions(doc);
          if (positions.length === 0) break;
          if (step.kind === 'insert') {
            const at = positions[step.at % positions.length]!;
            made += 1;
            transform.insert(at, richTextSchema.nodes.footnote!.create({ note: `note ${made}` }));
          } else if (step.kind === 'type') {
            transform.insert(positions[step.at % positions.length]!, richTextSchema.text(step.text));
          } else {
            const [from, to] = [positions[step.from % positions.length]!, positions[step.to % positions.length]!].sort((a, b) => a - b);
            transform.delete(from!, to!);
          }
          const inserted = step.kind === 'insert' ? [{ note: `note ${made}`, pos: positions[step.at % positions.length]! }] : [];
          placed = placed.flatMap(({ note, pos }) => {
            const mapped = transform.mapping.mapResult(pos, 1);
            return mapped.deletedAfter ? [] : [{ note, pos: mapped.pos }];
          });
          placed.push(...inserted);
          doc = transform.doc;
          const expected = [...placed].sort((a, b) => a.pos - b.pos).map(({ note, pos }, index) => ({ pos, number: index + 1, note }));
          expect(footnotesIn(doc)).toEqual(expected);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('reads notes inside tables and lists, and a malformed note as empty', () => {
    const doc = richTextSchema.nodeFromJSON({
      type: 'doc',
      content: [
        { type: 'bulletList', content: [{ type: 'listItem', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'item' }, { type: 'footnote', attrs: { note: 'in a list' } }] }] }] },
        { type: 'table', content: [{ type: 'tableRow', content: [{ type: 'tableCell', content: [{ type: 'paragraph', content: [{ type: 'footnote', attrs: { note: 7 } }] }] }] }] },
      ],
    });
    expect(footnotesIn(doc).map(({ number, note }) => [number, note])).toEqual([
      [1, 'in a list'],
      [2, ''],
    ]);
  });
});
