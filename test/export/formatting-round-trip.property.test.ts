import fc from 'fast-check';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { toDocx } from '../../src/domain/export/converters/docx.js';
import { toHtml } from '../../src/domain/export/converters/html.js';
import { toMarkdown } from '../../src/domain/export/converters/markdown.js';
import { docx } from '../../src/domain/import/formats/docx.js';
import { htmlToBlocks } from '../../src/domain/import/formats/rich-text-html.js';
import { FONT_CHOICES, FONT_SIZES_PT, HIGHLIGHT_COLORS, LINE_HEIGHTS, TEXT_COLORS, fontSizeOf, hexColor, lineHeightOf } from '../../src/model/rich-text/formatting.js';
import type { ProseMirrorNode } from '../../src/model/rich-text/schema.js';

/**
 * The formatting attributes (docs/CONTENT-MODEL.md "Formatting") through each format that carries them:
 * HTML (the export's page, read back by the import), docx (export, then import through mammoth) and Markdown
 * (which keeps the text only).
 */

const progress = { step: () => undefined };

interface Formatting {
  fontFamily: string | undefined;
  fontSize: string | undefined;
  color: string | undefined;
  highlight: string | undefined;
  textAlign: 'center' | 'right' | 'justify' | undefined;
  lineHeight: string | undefined;
  indent: number | undefined;
  heading: boolean;
}

const optional = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined });
const formatting: fc.Arbitrary<Formatting> = fc.record({
  fontFamily: optional(fc.constantFrom(...FONT_CHOICES.map((choice) => choice.family))),
  fontSize: optional(fc.constantFrom(...FONT_SIZES_PT.map((size) => `${size}pt`))),
  color: optional(fc.constantFrom(...TEXT_COLORS)),
  highlight: optional(fc.constantFrom(...HIGHLIGHT_COLORS)),
  textAlign: optional(fc.constantFrom('center' as const, 'right' as const, 'justify' as const)),
  lineHeight: optional(fc.constantFrom(...LINE_HEIGHTS)),
  indent: optional(fc.integer({ min: 1, max: 8 })),
  heading: fc.boolean(),
});

function blockOf(format: Formatting): ProseMirrorNode {
  const style = Object.fromEntries(Object.entries({ fontFamily: format.fontFamily, fontSize: format.fontSize, color: format.color }).filter(([, value]) => value !== undefined));
  const marks: NonNullable<ProseMirrorNode['marks']> = [];
  if (Object.keys(style).length > 0) marks.push({ type: 'textStyle', attrs: style });
  if (format.highlight) marks.push({ type: 'highlight', attrs: { color: format.highlight } });
  const attrs = Object.fromEntries(Object.entries({ textAlign: format.textAlign, lineHeight: format.lineHeight, indent: format.indent }).filter(([, value]) => value !== undefined));
  return {
    type: format.heading ? 'heading' : 'paragraph',
    attrs: { ...(format.heading ? { level: 2 } : {}), ...attrs },
    content: [{ type: 'text', text: 'Plain ' }, { type: 'text', text: 'formatted', ...(marks.length > 0 ? { marks } : {}) }],
  };
}

/** What a read-back block says of the formatting, in the stored spelling. */
function formattingOf(block: ProseMirrorNode | undefined) {
  const formatted = block?.content?.find((run) => run.text === 'formatted');
  const style = formatted?.marks?.find((mark) => mark.type === 'textStyle')?.attrs ?? {};
  const highlight = formatted?.marks?.find((mark) => mark.type === 'highlight');
  const attrs = block?.attrs ?? {};
  return {
    fontFamily: (style.fontFamily as string | null | undefined) ?? undefined,
    fontSize: fontSizeOf(style.fontSize as string | undefined),
    color: hexColor(style.color as string | undefined),
    highlight: highlight ? ((highlight.attrs?.color as string | null | undefined) ?? '#ffff00') : undefined,
    textAlign: (attrs.textAlign as string | null | undefined) ?? undefined,
    lineHeight: lineHeightOf(attrs.lineHeight === undefined || attrs.lineHeight === null ? undefined : String(attrs.lineHeight)),
    indent: attrs.indent === undefined || attrs.indent === null ? undefined : Number(attrs.indent),
    heading: block?.type === 'heading',
  };
}

const source = (block: ProseMirrorNode) => ({ kind: 'richText' as const, title: 'Formatting', blocks: [block], images: {} });

describe('formatting attributes through html, docx and markdown', () => {
  it('html keeps every attribute', () => {
    fc.assert(
      fc.property(formatting, (format) => {
        const { html } = toHtml(source(blockOf(format)), progress, '');
        const [block] = htmlToBlocks(/<body>([\s\S]*)<\/body>/.exec(html)![1]!);
        expect(formattingOf(block)).toEqual(format);
      }),
      { numRuns: 150 },
    );
  });

  it('docx keeps font, size, colour, highlight, alignment and indent; line spacing is written but not read back', async () => {
    await fc.assert(
      fc.asyncProperty(formatting, async (format) => {
        const bytes = await toDocx(source(blockOf(format)), progress);
        const read = await docx.read(Buffer.from(bytes), () => undefined);
        if (read.shape !== 'richText') throw new Error('not rich text');
        // an indented heading is a heading whose indent mammoth reads from its paragraph properties too
        expect(formattingOf(read.blocks[0])).toEqual({ ...format, lineHeight: undefined });
        const xml = await documentXml(bytes);
        if (format.color) expect(xml).toContain(`<w:color w:val="${format.color.slice(1)}"/>`);
        if (format.lineHeight) expect(xml).toContain(`w:line="${Math.round(Number(format.lineHeight) * 240)}"`);
      }),
      { numRuns: 15 },
    );
  });

  it('markdown keeps the text of formatted runs, unformatted', () => {
    fc.assert(
      fc.property(formatting, (format) => {
        const markdown = new TextDecoder().decode(toMarkdown(source(blockOf(format)), progress));
        expect(markdown.trim()).toBe(`${format.heading ? '## ' : ''}Plain formatted`);
      }),
      { numRuns: 50 },
    );
  });
});

describe('stored formatting values another client wrote', () => {
  it('reach the html and docx only in their own form, whatever was stored', async () => {
    const styleBreakers = ['12pt; background: url(https://example.com/x)', 'red', 7, { value: 1 }, ['#ff0000'], true];
    for (const stored of styleBreakers) {
      const block: ProseMirrorNode = {
        type: 'paragraph',
        attrs: { lineHeight: stored },
        content: [
          {
            type: 'text',
            text: 'formatted',
            marks: [
              { type: 'textStyle', attrs: { fontFamily: stored, fontSize: stored, color: stored } },
              { type: 'highlight', attrs: { color: stored } },
            ],
          },
        ],
      };
      const { html } = toHtml(source(block), progress, '');
      const body = /<body>([\s\S]*)<\/body>/.exec(html)![1]!;
      // 'red' is a family name as good as any: only the size, colours and spacing are dropped
      expect(body).not.toMatch(/url\(|font-size|line-height|data-color|(^|[^-])color:/);
      const xml = await documentXml(await toDocx(source(block), progress));
      expect(xml).not.toMatch(/url\(|w:sz |w:color |w:line=/);
    }
  });

  it('a line spacing stored as a number is written as that multiple', () => {
    const block: ProseMirrorNode = { type: 'paragraph', attrs: { lineHeight: 1.5 }, content: [{ type: 'text', text: 'spaced' }] };
    expect(toHtml(source(block), progress, '').html).toContain('line-height: 1.5');
  });
});

async function documentXml(bytes: Uint8Array): Promise<string> {
  return (await JSZip.loadAsync(bytes)).file('word/document.xml')!.async('string');
}
