import fc from 'fast-check';
import * as Y from 'yjs';
import { describe, expect, it } from 'vitest';
import { incomingUpdate } from '../../src/domain/content/collaboration-extensions.js';
import { InvalidFragment, paragraphsFromText, parseFragment, richTextToPlain, toYNodes } from '../../src/model/rich-text/schema.js';
import { countKeywords, countWords } from '../../src/domain/content/word-count.js';

const latinWord = fc.stringMatching(/^[A-Za-z0-9]{1,12}$/);
const cjkChar = fc.constantFrom(...'中文字符測試日本語ひらがなカタカナ한국어'.split(''));
const separator = fc.constantFrom(' ', '  ', '\n', '\t', ', ', '. ', ' - ', '! ');

describe('word count', () => {
  it('counts words separated by spaces and punctuation', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(latinWord, separator), { maxLength: 40 }), (parts) => {
        const text = parts.map(([word, sep]) => word + sep).join('');
        expect(countWords(text)).toBe(parts.length);
      }),
    );
  });

  it('counts every CJK character as one word, whatever surrounds it', () => {
    fc.assert(
      fc.property(fc.array(cjkChar, { maxLength: 60 }), fc.array(latinWord, { maxLength: 10 }), (chars, words) => {
        const text = `${chars.join('')}。${words.join(' ')}`;
        expect(countWords(text)).toBe(chars.length + words.length);
      }),
    );
  });

  it('is additive over concatenation with a separator and never negative', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 80 }), fc.string({ unit: 'grapheme', maxLength: 80 }), (a, b) => {
        expect(countWords(`${a} ${b}`)).toBe(countWords(a) + countWords(b));
        expect(countWords(a)).toBeGreaterThanOrEqual(0);
      }),
    );
  });

  it('counts keywords case-insensitively without overlaps', () => {
    expect(countKeywords('aaaa', ['aa'])).toEqual({ aa: 2 });
    fc.assert(
      fc.property(latinWord, fc.integer({ min: 0, max: 20 }), (keyword, times) => {
        const text = Array.from({ length: times }, () => keyword.toUpperCase()).join(' ');
        expect(countKeywords(text, [keyword])[keyword]).toBe(times);
      }),
    );
  });
});

describe('rich text', () => {
  it('gives back the text it was built from (one paragraph per line)', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 30 }).map((line) => line.replace(/[\r\n]/g, '')), { minLength: 1, maxLength: 20 }), (lines) => {
        const doc = new Y.Doc();
        const root = doc.getXmlFragment('default');
        root.insert(0, toYNodes(paragraphsFromText(lines.join('\n'))));
        expect(richTextToPlain(root)).toBe(lines.join('\n'));
      }),
    );
  });

  it('reads a form feed as a page break and writes a page break as a form feed line', () => {
    const line = fc.string({ maxLength: 20 }).map((text) => text.replace(/[\r\n\f]/g, ''));
    const page = fc.array(line, { minLength: 1, maxLength: 5 }).map((lines) => lines.join('\n')).filter((text) => text.length > 0);
    fc.assert(
      fc.property(fc.array(page, { minLength: 1, maxLength: 6 }), (pages) => {
        const text = pages.join('\n\f\n');
        const blocks = paragraphsFromText(text);
        expect(blocks.filter((block) => block.type === 'pageBreak')).toHaveLength(pages.length - 1);
        const doc = new Y.Doc();
        const root = doc.getXmlFragment('default');
        root.insert(0, toYNodes(blocks));
        expect(richTextToPlain(root)).toBe(text);
      }),
    );
    // a form feed inside a line (old printouts) breaks the page there, with no empty paragraph around it
    expect(paragraphsFromText('end\fstart').map((block) => block.type)).toEqual(['paragraph', 'pageBreak', 'paragraph']);
    expect(paragraphsFromText('\fstart').map((block) => block.type)).toEqual(['pageBreak', 'paragraph']);
  });

  it('accepts only known nodes and marks in fragments, and never throws anything but InvalidFragment', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 5 }), (value) => {
        try {
          const nodes = parseFragment(value);
          const doc = new Y.Doc();
          doc.getXmlFragment('default').insert(0, toYNodes(nodes));
        } catch (error) {
          expect(error).toBeInstanceOf(InvalidFragment);
        }
      }),
    );
    expect(() => parseFragment({ type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'x', marks: [{ type: 'blink' }] }] }] })).toThrow(/marks\[0\]/);
    expect(() => parseFragment([{ type: 'text', text: 'bare' }])).toThrow(/inside a paragraph/);
  });
});

describe('collaboration message framing', () => {
  it('finds the update of sync messages and rejects truncated ones without crashing', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        try {
          const update = incomingUpdate(bytes);
          if (update) expect(update.length).toBeLessThanOrEqual(bytes.length);
        } catch (error) {
          expect((error as Error).message).toBe('malformed collaboration message');
        }
      }),
    );
    const name = [3, ...Buffer.from('doc')];
    expect(incomingUpdate(Uint8Array.from([...name, 0, 2, 2, 7, 8]))).toEqual(Uint8Array.from([7, 8]));
    expect(incomingUpdate(Uint8Array.from([...name, 1, 0]))).toBeUndefined();
    expect(() => incomingUpdate(Uint8Array.from([...name, 0, 2, 5, 7]))).toThrow();
  });
});
