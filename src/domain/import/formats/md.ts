import MarkdownIt from 'markdown-it';
import type { FormatReader } from '../conversion.js';
import { htmlToBlocks } from './rich-text-html.js';
import { decodeText } from './text-decoding.js';

// Raw HTML inside Markdown is not rendered: a Markdown file imports as what its Markdown says.
const markdown = new MarkdownIt({ html: false, linkify: true });

/** Markdown (CommonMark with tables and strikethrough): headings, emphasis, lists, links, code, tables. */
export const md: FormatReader = {
  zip: false,
  async read(bytes, report) {
    const html = markdown.render(decodeText(bytes));
    report(0.5);
    const images: Parameters<typeof htmlToBlocks>[1] = [];
    const blocks = htmlToBlocks(html, images);
    report(1);
    return { shape: 'richText', blocks, images };
  },
};
