import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toEditableText, toInlineNodes, type InlineNode, type PickedMention } from '../../web/shared/panels/composer/inline-content.js';

/** People and files with names that share prefixes and hold spaces, as integrators name them. */
const PEOPLE: PickedMention[] = [
  { kind: 'user', id: 'u1', label: 'Bob' },
  { kind: 'user', id: 'u2', label: 'Bob Stone' },
  { kind: 'user', id: 'u3', label: '王伟' },
];
const FILES: PickedMention[] = [
  { kind: 'file', label: 'Q3 plan', file: { fileId: 'f1', fileType: 'document', label: 'Q3 plan', fullUrl: null } },
  { kind: 'file', label: 'Bob notes.pdf', file: { fileId: 'f2', fileType: 'file', label: 'Bob notes.pdf', fullUrl: 'https://files.example.com/f2' } },
];
const labelOf = (id: string) => PEOPLE.find((person) => person.kind === 'user' && person.id === id)?.label;

/** Text without `@` (a hand-typed `@Name` is text, not a mention) and without line breaks. */
const plain = fc.array(fc.constantFrom('a', 'B', ' ', '.', '猫', 'o', 'b'), { minLength: 1, maxLength: 8 }).map((chars) => chars.join(''));
const node: fc.Arbitrary<InlineNode> = fc.oneof(
  plain.map((text): InlineNode => ({ type: 'text', text })),
  fc.constant<InlineNode>({ type: 'hardBreak' }),
  fc.constantFrom(...PEOPLE).map((person): InlineNode => ({ type: 'mention', attrs: { id: person.kind === 'user' ? person.id : '' } })),
  fc.constantFrom(...FILES).map((file): InlineNode => ({ type: 'fileMention', attrs: file.kind === 'file' ? file.file : { fileId: '', fileType: '', label: '', fullUrl: null } })),
);

/** Adjacent text nodes as one, as toInlineNodes reads them. */
function merged(nodes: InlineNode[]): InlineNode[] {
  const out: InlineNode[] = [];
  for (const current of nodes) {
    const last = out.at(-1);
    if (current.type === 'text' && last?.type === 'text') out[out.length - 1] = { type: 'text', text: last.text + current.text };
    else out.push(current);
  }
  return out;
}

describe('comment content in the composer (web/shared/panels/composer/inline-content.ts)', () => {
  it('stored content put back in the box for editing is sent again unchanged: mentions of people and files stay', () => {
    fc.assert(
      fc.property(fc.array(node, { maxLength: 12 }), (nodes) => {
        // a mention followed by text that continues a longer name would read as that name: the composer always
        // writes a space after a picked name, so stored content has one there
        const spaced = nodes.flatMap((item, index) => (item.type !== 'text' && item.type !== 'hardBreak' && nodes[index + 1]?.type === 'text' ? [item, { type: 'text', text: ' ' } as InlineNode] : [item]));
        const { text, picked } = toEditableText(spaced, labelOf);
        expect(toInlineNodes(text, picked)).toEqual(merged(spaced));
      }),
    );
  });

  it('a picked name is read longest first; an @ never picked is text', () => {
    expect(toInlineNodes('@Bob Stone and @Bob, see @Q3 plan\n@Alice', [...PEOPLE, ...FILES])).toEqual([
      { type: 'mention', attrs: { id: 'u2' } },
      { type: 'text', text: ' and ' },
      { type: 'mention', attrs: { id: 'u1' } },
      { type: 'text', text: ', see ' },
      { type: 'fileMention', attrs: { fileId: 'f1', fileType: 'document', label: 'Q3 plan', fullUrl: null } },
      { type: 'hardBreak' },
      { type: 'text', text: '@Alice' },
    ]);
  });
});
