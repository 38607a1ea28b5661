import JSZip from 'jszip';
import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { toDocx } from '../../src/domain/export/converters/docx.js';
import { toHtml } from '../../src/domain/export/converters/html.js';
import { toMarkdown } from '../../src/domain/export/converters/markdown.js';
import { docx } from '../../src/domain/import/formats/docx.js';
import { htmlToBlocks } from '../../src/domain/import/formats/rich-text-html.js';
import type { ProseMirrorNode } from '../../src/model/rich-text/schema.js';

/**
 * Footnotes (src/model/rich-text/nodes/footnote.ts) through every format: HTML (numbered references linked to a
 * section of notes with back links, and read back), Markdown as GFM footnotes, docx as Word's footnotes
 * (`w:footnoteReference` and word/footnotes.xml) and back, mammoth's list of notes included.
 */

const progress = { step: () => undefined };

const footnote = (note: string): ProseMirrorNode => ({ type: 'footnote', attrs: { note } });
const blocks: ProseMirrorNode[] = [
  { type: 'heading', attrs: { level: 1 }, content: [{ type: 'text', text: 'Report' }, footnote('Draft of <May> & "June".')] },
  { type: 'paragraph', content: [{ type: 'text', text: 'Sales rose' }, footnote('Source: ledger *2025*.'), { type: 'text', text: ' and costs fell.' }] },
  {
    type: 'table',
    content: [{ type: 'tableRow', content: [{ type: 'tableCell', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'cell' }, footnote('Line one\nline two')] }] }] }],
  },
];
const source = { kind: 'richText' as const, title: 'Footnotes', blocks, images: {} };
const NOTES = ['Draft of <May> & "June".', 'Source: ledger *2025*.', 'Line one\nline two'];

/** Every footnote of read-back blocks, in document order: its note. */
function notesOf(nodes: readonly ProseMirrorNode[] = []): string[] {
  return nodes.flatMap((node) => (node.type === 'footnote' ? [String(node.attrs?.note ?? '')] : notesOf(node.content)));
}

/** The text of read-back blocks with each footnote as `[note]`, so where a reference stands is checked too. */
function textOf(nodes: readonly ProseMirrorNode[] = []): string {
  return nodes.map((node) => (node.type === 'footnote' ? '[fn]' : (node.text ?? textOf(node.content)))).join('');
}

describe('footnotes through html, markdown and docx', () => {
  it('html numbers the references in document order, links them to the notes after the text, and reads back the same footnotes', () => {
    const { html } = toHtml(source, progress, '');
    const body = /<body>([\s\S]*)<\/body>/.exec(html)![1]!;
    expect(body).toContain('<a href="#footnote-1" id="footnote-ref-1">1</a>');
    expect(body).toContain('<a href="#footnote-3" id="footnote-ref-3">3</a>');
    expect(body).toMatch(/<section class="footnotes"><ol><li id="footnote-1"><p>Draft of &lt;May&gt; &amp; &quot;June&quot;\. <a href="#footnote-ref-1"[^>]*>↑<\/a><\/p><\/li>/);
    expect(body.indexOf('footnote-ref-2')).toBeLessThan(body.indexOf('<section class="footnotes">'));

    const read = htmlToBlocks(body);
    expect(notesOf(read)).toEqual(NOTES);
    expect(textOf(read)).toBe('Report[fn]Sales rose[fn] and costs fell.cell[fn]');
  });

  it('markdown writes GFM footnotes that a GFM reader links', () => {
    const markdown = new TextDecoder().decode(toMarkdown(source, progress));
    expect(markdown).toContain('# Report[^1]\n\nSales rose[^2] and costs fell.');
    expect(markdown).toContain('| cell[^3] |');
    expect(markdown.trimEnd().endsWith('[^1]: Draft of \\<May\\> \\& "June".\n[^2]: Source: ledger \\*2025\\*.\n[^3]: Line one\n    line two')).toBe(true);
    // markdown-it reads the escaped note back as its text (footnote syntax itself needs a plugin it does not carry)
    expect(new MarkdownIt().renderInline('Draft of \\<May\\> \\& "June".')).toBe('Draft of &lt;May&gt; &amp; &quot;June&quot;.');
  });

  it('a document without footnotes gets no notes section or definitions', () => {
    const plain = { ...source, blocks: [{ type: 'paragraph', content: [{ type: 'text', text: 'No notes.' }] }] };
    expect(toHtml(plain, progress, '').html).not.toContain('class="footnotes"');
    expect(new TextDecoder().decode(toMarkdown(plain, progress))).toBe('No notes.\n');
  });

  it('docx writes Word footnotes (references in the text, notes in footnotes.xml) and reads them back as the same footnotes', async () => {
    const bytes = await toDocx(source, progress);
    const zip = await JSZip.loadAsync(bytes);
    const documentXml = await zip.file('word/document.xml')!.async('string');
    expect(documentXml.match(/<w:footnoteReference w:id="\d+"\/>/g)).toEqual(['<w:footnoteReference w:id="1"/>', '<w:footnoteReference w:id="2"/>', '<w:footnoteReference w:id="3"/>']);
    const footnotesXml = await zip.file('word/footnotes.xml')!.async('string');
    expect(footnotesXml).toMatch(/<w:footnote w:id="2">[\s\S]*Source: ledger \*2025\*\.[\s\S]*<\/w:footnote>/);
    expect(footnotesXml).toContain('Draft of &lt;May&gt; &amp; &quot;June&quot;.');
    expect(await zip.file('[Content_Types].xml')!.async('string')).toContain('/word/footnotes.xml');

    const read = await docx.read(Buffer.from(bytes), () => undefined);
    if (read.shape !== 'richText') throw new Error('not rich text');
    expect(notesOf(read.blocks)).toEqual(NOTES);
    expect(textOf(read.blocks)).toBe('Report[fn]Sales rose[fn] and costs fell.cell[fn]');
    // the notes are not also read as a list after the text
    expect(read.blocks.some((block) => block.type === 'orderedList')).toBe(false);
  });

  it("mammoth's endnotes are footnotes too, and a link to another list item stays a link", () => {
    const read = htmlToBlocks(
      '<p>End<sup><a href="#endnote-1" id="endnote-ref-1">[1]</a></sup> and <a href="#item">a link</a>.</p><ol><li id="endnote-1"><p> Closing words. <a href="#endnote-ref-1">↑</a></p></li></ol><ol><li id="item">Kept</li></ol>',
    );
    expect(notesOf(read)).toEqual(['Closing words.']);
    expect(textOf(read)).toBe('End[fn] and a link.Kept');
  });
});
