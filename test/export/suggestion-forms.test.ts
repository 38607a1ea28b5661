import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { toDocx } from '../../src/domain/export/converters/docx.js';
import { toHtml } from '../../src/domain/export/converters/html.js';
import { toMarkdown } from '../../src/domain/export/converters/markdown.js';
import { docx } from '../../src/domain/import/formats/docx.js';
import { htmlToBlocks } from '../../src/domain/import/formats/rich-text-html.js';
import type { ProseMirrorNode } from '../../src/model/rich-text/schema.js';

/**
 * Suggestions (src/model/rich-text/marks/suggestion.ts) through every format that carries them: HTML both ways,
 * Markdown as inline `<ins>`/`<del>`, docx as Word revisions (`w:ins` / `w:del` with author and date) and back.
 */

const progress = { step: () => undefined };
const ALICE = { author: 'alice', authorName: 'Alice Chen', date: '2026-11-27T09:30:00.000Z' };

const paragraph: ProseMirrorNode = {
  type: 'paragraph',
  content: [
    { type: 'text', text: 'The plan is ' },
    { type: 'text', text: 'very ', marks: [{ type: 'insertion', attrs: { id: 's1', ...ALICE } }] },
    { type: 'text', text: 'good', marks: [{ type: 'bold' }] },
    { type: 'text', text: ' and cheap', marks: [{ type: 'deletion', attrs: { id: 's2', ...ALICE, author: 'bob', authorName: 'Bob "B" Li' } }] },
    { type: 'text', text: '.' },
  ],
};
const source = { kind: 'richText' as const, title: 'Suggestions', blocks: [paragraph], images: {} };

/** A read-back paragraph as runs of text with the suggestion they carry (if any) and its attributes. */
function runsOf(block: ProseMirrorNode | undefined) {
  return (block?.content ?? []).map((run) => {
    const mark = run.marks?.find((candidate) => candidate.type === 'insertion' || candidate.type === 'deletion');
    return mark ? { text: run.text, kind: mark.type, authorName: mark.attrs?.authorName, date: mark.attrs?.date } : { text: run.text };
  });
}

describe('suggestions through html, markdown and docx', () => {
  it('html keeps each suggestion with its id, author and time', () => {
    const { html } = toHtml(source, progress, '');
    const body = /<body>([\s\S]*)<\/body>/.exec(html)![1]!;
    expect(body).toContain('<ins data-suggestion-id="s1" data-author="alice" data-author-name="Alice Chen" data-date="2026-11-27T09:30:00.000Z"');
    const [block] = htmlToBlocks(body);
    expect(block?.content?.[1]?.marks).toEqual([{ type: 'insertion', attrs: { id: 's1', ...ALICE } }]);
    expect(block?.content?.[3]?.marks?.[0]?.attrs).toMatchObject({ id: 's2', author: 'bob', authorName: 'Bob "B" Li' });
  });

  it('a plain <del> stays a strike-through and a plain <ins> plain text', () => {
    const [block] = htmlToBlocks('<p><del>old</del> <ins>new</ins></p>');
    expect(block?.content?.map((run) => [run.text, (run.marks ?? []).map((mark) => mark.type)])).toEqual([
      ['old', ['strike']],
      [' new', []],
    ]);
  });

  it('markdown writes them as inline <ins> and <del>', () => {
    const markdown = new TextDecoder().decode(toMarkdown(source, progress));
    expect(markdown.trim()).toBe('The plan is <ins>very </ins>**good**<del> and cheap</del>.');
  });

  it('docx writes Word revisions and reads them back as suggestions', async () => {
    const bytes = await toDocx(source, progress);
    const xml = await (await JSZip.loadAsync(bytes)).file('word/document.xml')!.async('string');
    expect(xml).toMatch(/<w:ins w:id="1" w:author="Alice Chen" w:date="2026-11-27T09:30:00Z">/);
    expect(xml).toMatch(/<w:del w:id="2" w:author="Bob &quot;B&quot; Li" w:date="2026-11-27T09:30:00Z">[\s\S]*<w:delText xml:space="preserve"> and cheap<\/w:delText>/);

    const read = await docx.read(Buffer.from(bytes), () => undefined);
    if (read.shape !== 'richText') throw new Error('not rich text');
    expect(runsOf(read.blocks[0])).toEqual([
      { text: 'The plan is ' },
      { text: 'very ', kind: 'insertion', authorName: 'Alice Chen', date: '2026-11-27T09:30:00.000Z' },
      { text: 'good' },
      { text: ' and cheap', kind: 'deletion', authorName: 'Bob "B" Li', date: '2026-11-27T09:30:00.000Z' },
      { text: '.' },
    ]);
  });

  it('a docx without revisions reads as before, and document text holding the marker characters keeps none of them', async () => {
    const plain: ProseMirrorNode = { type: 'paragraph', content: [{ type: 'text', text: 'A\uE005 0\uE006 b\uE007' }] };
    const bytes = await toDocx({ ...source, blocks: [plain] }, progress);
    const read = await docx.read(Buffer.from(bytes), () => undefined);
    if (read.shape !== 'richText') throw new Error('not rich text');
    expect(runsOf(read.blocks[0])).toEqual([{ text: 'A 0 b' }]);
  });
});
