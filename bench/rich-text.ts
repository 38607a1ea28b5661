/**
 * Rich-text conversion benchmark (issue 20): `npm run bench -- rich-text [pages=200] [runs=5]`.
 *
 * In process, without the service or its worker threads: a document of `pages` pages (each a heading, four
 * paragraphs with marks and a link, a bullet list and a three-row table) goes through the converters a worker
 * runs: import of the same document as Markdown and as the HTML markdown-it makes of it (the format readers), export to HTML (the page
 * pdf and jpeg are printed from; also of a deck of slides whose text boxes render one by one), Markdown and docx. Prints the median of `runs` for each (after one warm-up
 * run), so two trees can be compared back to back on the same machine load.
 */
import { toDocx } from '../src/domain/export/converters/docx.js';
import { THEMES } from '../src/model/slides.js';
import { toHtml } from '../src/domain/export/converters/html.js';
import { toMarkdown } from '../src/domain/export/converters/markdown.js';
import type { RichTextSource, SlidesSource } from '../src/domain/export/source.js';
import { html } from '../src/domain/import/formats/html.js';
import { md } from '../src/domain/import/formats/md.js';
import MarkdownIt from 'markdown-it';
import { percentile } from './_service.js';

type Json = RichTextSource['blocks'][number];

const text = (value: string, marks?: Json['marks']): Json => (marks ? { type: 'text', text: value, marks } : { type: 'text', text: value });
const paragraph = (...content: Json[]): Json => ({ type: 'paragraph', content });
const cell = (type: string, value: string): Json => ({ type, attrs: { colspan: 1, rowspan: 1 }, content: [paragraph(text(value))] });

function page(index: number): Json[] {
  const body = () =>
    paragraph(
      text(`Section ${index} reports that revenue grew `),
      text('strongly', [{ type: 'bold' }]),
      text(' in the north while costs stayed '),
      text('flat', [{ type: 'italic' }]),
      text('; see '),
      text('the appendix', [{ type: 'link', attrs: { href: 'https://example.com/appendix' } }]),
      text(' for the method. 本季度收入增长明显，成本保持稳定。'),
    );
  return [
    { type: 'heading', attrs: { level: 2 }, content: [text(`Chapter ${index}`)] },
    body(),
    body(),
    { type: 'bulletList', content: ['north', 'south', 'east'].map((region) => ({ type: 'listItem', content: [paragraph(text(`${region} region`))] })) },
    body(),
    {
      type: 'table',
      content: [
        { type: 'tableRow', content: [cell('tableHeader', 'Region'), cell('tableHeader', 'Sales')] },
        { type: 'tableRow', content: [cell('tableCell', 'North'), cell('tableCell', String(index * 7))] },
        { type: 'tableRow', content: [cell('tableCell', 'South'), cell('tableCell', String(index * 5))] },
      ],
    },
    body(),
  ];
}

async function median(runs: number, work: () => Promise<unknown> | unknown): Promise<number> {
  await work();
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  return percentile(times.sort((a, b) => a - b), 50);
}

export default async function richTextBench(args: string[]): Promise<void> {
  const pages = Number(args[0] ?? 200);
  const runs = Number(args[1] ?? 5);
  const source: RichTextSource = { kind: 'richText', title: 'Bench', blocks: Array.from({ length: pages }, (_, index) => page(index + 1)).flat(), images: {} };
  const progress = { step: () => undefined };
  const exportedMarkdown = Buffer.from(toMarkdown(source, progress));
  // the import's HTML comes from the Markdown (written the same way by every version compared), not from toHtml
  const exportedHtml = Buffer.from(new MarkdownIt().render(exportedMarkdown.toString('utf8')));
  const report = () => undefined;
  // a deck of `pages / 4` slides of six text boxes, each box rendered on its own (the pdf/jpeg of a presentation)
  const deck: SlidesSource = {
    kind: 'slides',
    title: 'Bench',
    width: 960,
    height: 540,
    images: {},
    slides: Array.from({ length: Math.max(1, Math.round(pages / 4)) }, (_, slide) => ({
      theme: THEMES.plain,
      notes: '',
      boxes: page(slide + 1)
        .slice(0, 6)
        .map((block, index) => ({ type: 'text' as const, frame: { x: 40, y: 20 + index * 85, width: 880, height: 80 }, blocks: [block], style: {} })),
    })),
  };
  const figures: Array<[string, number]> = [
    ['import html', await median(runs, () => html.read(exportedHtml, report))],
    ['import md', await median(runs, () => md.read(exportedMarkdown, report))],
    ['export html (pdf/jpeg page)', await median(runs, () => toHtml(source, progress, ''))],
    [`export html, ${deck.slides.length} slides × 6 boxes`, await median(runs, () => toHtml(deck, progress, ''))],
    ['export md', await median(runs, () => toMarkdown(source, progress))],
    ['export docx', await median(runs, () => toDocx(source, progress))],
  ];
  console.log(`rich text, ${pages} pages (${source.blocks.length} top-level blocks; html ${(exportedHtml.length / 1024).toFixed(0)} KiB, md ${(exportedMarkdown.length / 1024).toFixed(0)} KiB), median of ${runs}:`);
  for (const [name, time] of figures) console.log(`  ${name.padEnd(30)} ${time.toFixed(0).padStart(6)} ms`);
}
