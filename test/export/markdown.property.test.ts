import fc from 'fast-check';
import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { toMarkdown } from '../../src/domain/export/converters/markdown.js';
import type { ProseMirrorNode } from '../../src/model/rich-text/schema.js';

const markdown = new MarkdownIt({ linkify: false });
const noProgress = { step: () => undefined };

/** The text a CommonMark reader sees in the exported Markdown: the content of its text and code tokens. */
function readBack(source: string): string[] {
  return markdown
    .parse(source, {})
    .filter((token) => token.type === 'inline')
    .map((token) => (token.children ?? []).map((child) => (child.type === 'text' || child.type === 'code_inline' ? child.content : child.type === 'softbreak' ? '\n' : '')).join(''));
}

function exported(blocks: ProseMirrorNode[]): string {
  return new TextDecoder().decode(toMarkdown({ kind: 'richText', title: 't', blocks, images: {} }, noProgress));
}

/** Text of a paragraph as a reader keeps it: Markdown drops white space at a paragraph's ends. */
const paragraphText = fc.string({ unit: fc.constantFrom('a', 'Z', '1', ' ', '#', '*', '_', '`', '[', ']', '(', ')', '<', '>', '!', '|', '~', '\\', '-', '+', '.', '=', '&', '中', '文') , minLength: 1, maxLength: 40 }).filter((text) => text.trim() === text && text.length > 0);

describe('Markdown export escaping (property)', () => {
  it('any paragraph text reads back unchanged: no character of it turns into Markdown syntax', () => {
    fc.assert(
      fc.property(fc.array(paragraphText, { minLength: 1, maxLength: 4 }), (texts) => {
        const source = exported(texts.map((text) => ({ type: 'paragraph', content: [{ type: 'text', text }] })));
        expect(readBack(source)).toEqual(texts);
      }),
      { numRuns: 500 },
    );
  });

  it('bold and italic runs keep their text', () => {
    fc.assert(
      fc.property(paragraphText, paragraphText, (plain, strong) => {
        const source = exported([{ type: 'paragraph', content: [{ type: 'text', text: `${plain} ` }, { type: 'text', text: strong, marks: [{ type: 'bold' }] }] }]);
        expect(readBack(source)).toEqual([`${plain} ${strong}`]);
      }),
      { numRuns: 300 },
    );
  });
});
