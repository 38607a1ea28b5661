import fc from 'fast-check';
import { Schema } from '@tiptap/pm/model';
import { describe, expect, it } from 'vitest';
import { findMatches, type FindOptions } from '../../web/rich-text/find-matches.js';

/** Paragraphs of text with an inline object (an image stands for images, mentions and dates). */
const schema = new Schema({
  nodes: {
    doc: { content: 'paragraph+' },
    paragraph: { content: 'inline*', group: 'block' },
    text: { group: 'inline' },
    image: { inline: true, group: 'inline' },
  },
});

const OBJECT = '\u0000';
const WORD = /[\p{L}\p{N}_]/u;

/** A paragraph's content: text with `OBJECT` where an image is. */
const paragraphText = fc.array(fc.constantFrom('a', 'A', 'b', ' ', '_', '猫', '.', OBJECT), { maxLength: 24 }).map((chars) => chars.join(''));
const query = fc.array(fc.constantFrom('a', 'A', 'b', ' ', '猫'), { minLength: 1, maxLength: 3 }).map((chars) => chars.join(''));
const options = fc.record({ matchCase: fc.boolean(), wholeWord: fc.boolean() });

function paragraph(text: string) {
  const children = text.split(OBJECT).flatMap((part, index) => [...(index > 0 ? [schema.node('image')] : []), ...(part ? [schema.text(part)] : [])]);
  return schema.node('paragraph', null, children);
}

/** The obvious search: scan each paragraph left to right, a match never overlapping the one before. */
function naive(paragraphs: string[], wanted: string, { matchCase, wholeWord }: FindOptions): Array<{ from: number; to: number }> {
  const fold = (text: string) => (matchCase ? text : text.toLowerCase());
  const found: Array<{ from: number; to: number }> = [];
  let start = 1;
  for (const text of paragraphs) {
    for (let index = 0; index + wanted.length <= text.length; ) {
      const before = text[index - 1] ?? '';
      const after = text[index + wanted.length] ?? '';
      const bounded = !wholeWord || (!WORD.test(before) && !WORD.test(after));
      if (fold(text.slice(index, index + wanted.length)) === fold(wanted) && bounded) {
        found.push({ from: start + index, to: start + index + wanted.length });
        index += wanted.length;
      } else index += 1;
    }
    start += text.length + 2;
  }
  return found;
}

describe('find in rich text (web/rich-text/find-matches.ts)', () => {
  it('finds what a left-to-right scan of each paragraph finds, with match case and whole word, never inside an image', () => {
    fc.assert(
      fc.property(fc.array(paragraphText, { minLength: 1, maxLength: 4 }), query, options, (paragraphs, wanted, chosen) => {
        const doc = schema.node('doc', null, paragraphs.map(paragraph));
        const matches = findMatches(doc, wanted, chosen);
        expect(matches).toEqual(naive(paragraphs, wanted, chosen));
        for (const match of matches) {
          const text = doc.textBetween(match.from, match.to);
          expect(chosen.matchCase ? text : text.toLowerCase()).toBe(chosen.matchCase ? wanted : wanted.toLowerCase());
        }
      }),
      { numRuns: 500 },
    );
  });

  it('finds nothing for an empty query and treats regular-expression characters as text', () => {
    const doc = schema.node('doc', null, [paragraph('a.b a*b (x)')]);
    expect(findMatches(doc, '', { matchCase: false, wholeWord: false })).toEqual([]);
    expect(findMatches(doc, '.', { matchCase: false, wholeWord: false })).toEqual([{ from: 2, to: 3 }]);
    expect(findMatches(doc, 'a*b', { matchCase: false, wholeWord: true })).toEqual([{ from: 5, to: 8 }]);
    expect(findMatches(doc, '(x)', { matchCase: true, wholeWord: false })).toEqual([{ from: 9, to: 12 }]);
  });
});
