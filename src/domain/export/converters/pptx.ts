import JSZip from 'jszip';
import pptxgenModule from 'pptxgenjs';
import { sniffImage } from '../../attachments/sniff.js';
import { nodeText, type ProseMirrorNode } from '../../../model/rich-text/schema.js';
import type { SlidesSource } from '../source.js';
import { safeHref, type Progress } from './shared.js';

/**
 * presentation → .pptx (pptxgenjs writes the file): one slide per slide of the same 16:9 size, each text box
 * at its position and size with its paragraphs (headings larger, list items bulleted or numbered, marks and
 * links), image boxes with the image when it is an attachment of the file's app (else its text alternative).
 */

// pptxgenjs ships CommonJS-style typings for an ES module: under NodeNext the default import is typed as the
// module object while at run time it is the class itself.
const PptxGenJS = ((pptxgenModule as { default?: unknown }).default ?? pptxgenModule) as typeof pptxgenModule.default;
type TextPropsOptions = pptxgenModule.default.TextPropsOptions;

const POINTS_PER_INCH = 72;
const BODY_SIZE = 18;
const HEADING_SIZES = [36, 30, 26, 22, 20, 18];
const FONT = 'Microsoft YaHei';

type TextRun = pptxgenModule.default.TextProps;

function inches(points: number): number {
  return Math.round((points / POINTS_PER_INCH) * 1000) / 1000;
}

function runs(nodes: readonly ProseMirrorNode[] = [], base: TextPropsOptions): TextRun[] {
  const out: TextRun[] = [];
  for (const node of nodes) {
    if (node.type === 'text') {
      const options: TextPropsOptions = { ...base };
      for (const mark of node.marks ?? []) {
        if (mark.type === 'bold') options.bold = true;
        else if (mark.type === 'italic') options.italic = true;
        else if (mark.type === 'underline') options.underline = { style: 'sng' };
        else if (mark.type === 'strike') options.strike = 'sngStrike';
        else if (mark.type === 'subscript') options.subscript = true;
        else if (mark.type === 'superscript') options.superscript = true;
        else if (mark.type === 'code') options.fontFace = 'Consolas';
        else if (mark.type === 'link') {
          const url = safeHref(mark.attrs?.href);
          if (url) options.hyperlink = { url };
        }
      }
      out.push({ text: node.text ?? '', options });
    } else if (node.type === 'hardBreak') {
      out.push({ text: '', options: { ...base, breakLine: true } });
    } else if (node.type !== 'image') {
      out.push({ text: nodeText(node), options: { ...base } });
    }
  }
  return out;
}

/** The paragraphs of a text box as pptxgenjs runs; each paragraph's last run breaks the line but the box's last. */
function boxParagraphs(nodes: readonly ProseMirrorNode[]): TextRun[] {
  const out = paragraphs(nodes);
  // no break after the box's last paragraph (it would add an empty line)
  const last = out[out.length - 1];
  if (last) out[out.length - 1] = { text: last.text ?? '', options: { ...last.options, breakLine: false } };
  return out;
}

function paragraphs(nodes: readonly ProseMirrorNode[], list?: { ordered: boolean; level: number }): TextRun[] {
  const out: TextRun[] = [];
  const paragraph = (node: ProseMirrorNode, options: TextPropsOptions) => {
    const line = runs(node.content, options);
    if (line.length === 0) line.push({ text: '', options });
    // the first run carries the paragraph's bullet, the last one ends it
    line[0] = { text: line[0]!.text ?? '', options: { ...line[0]!.options, ...(list ? { bullet: list.ordered ? { type: 'number' } : true, indentLevel: list.level } : {}) } };
    line[line.length - 1] = { text: line[line.length - 1]!.text ?? '', options: { ...line[line.length - 1]!.options, breakLine: true } };
    out.push(...line);
  };
  for (const node of nodes) {
    if (node.type === 'paragraph') paragraph(node, { fontSize: BODY_SIZE });
    else if (node.type === 'heading') {
      const level = Math.min(Math.max(Number(node.attrs?.level ?? 1) || 1, 1), 6);
      paragraph(node, { fontSize: HEADING_SIZES[level - 1]!, bold: true });
    } else if (node.type === 'codeBlock') paragraph(node, { fontSize: BODY_SIZE, fontFace: 'Consolas' });
    else if (node.type === 'bulletList' || node.type === 'orderedList' || node.type === 'taskList') {
      const level = list ? list.level + 1 : 0;
      for (const item of node.content ?? []) out.push(...paragraphs(item.content ?? [], { ordered: node.type === 'orderedList', level }));
    } else if (node.type === 'table') {
      for (const row of node.content ?? []) {
        const cells = (row.content ?? []).map((cell) => (cell.content ?? []).map((block) => nodeText(block)).join(' '));
        out.push({ text: cells.join('\t'), options: { fontSize: BODY_SIZE, breakLine: true } });
      }
    } else if (node.content) out.push(...paragraphs(node.content, list));
  }
  return out;
}

/**
 * pptxgenjs writes an `a:pPr` before every run of a paragraph, where the format allows one, first in the `a:p`
 * (ECMA-376 Part 1, 21.1.2.2.6 CT_TextParagraph): PowerPoint offers to repair such a file and readers drop the
 * paragraph's bullet and size. The first one holds the paragraph's properties (it comes from its first run, which
 * carries the bullet); the others go.
 */
export function oneParagraphPropertiesEach(slideXml: string): string {
  return slideXml.replace(/<a:p>[\s\S]*?<\/a:p>/g, (paragraph) => {
    let seen = false;
    return paragraph.replace(/<a:pPr\b[^>]*?(?:\/>|>[\s\S]*?<\/a:pPr>)/g, (properties) => {
      if (seen) return '';
      seen = true;
      return properties;
    });
  });
}

/**
 * `[Content_Types].xml` without the overrides of parts the package lacks: pptxgenjs names a slide master per slide
 * (`slideMaster2.xml`…) but writes only the first, and a content type for a missing part breaks the package
 * (ECMA-376 Part 2, 10.1.2.3).
 */
export function withoutMissingOverrides(contentTypes: string, parts: ReadonlySet<string>): string {
  return contentTypes.replace(/<Override\b[^>]*?PartName="\/([^"]+)"[^>]*?\/>/g, (override, part: string) => (parts.has(part) ? override : ''));
}

/**
 * The file pptxgenjs wrote, each slide's paragraphs with one `a:pPr` (oneParagraphPropertiesEach) and content types
 * only for the parts it holds (withoutMissingOverrides).
 */
async function repaired(written: Buffer): Promise<Uint8Array> {
  const zip = await JSZip.loadAsync(written);
  for (const name of Object.keys(zip.files).filter((part) => /^ppt\/slides\/slide\d+\.xml$/.test(part))) {
    zip.file(name, oneParagraphPropertiesEach(await zip.file(name)!.async('string')));
  }
  const contentTypes = zip.file('[Content_Types].xml');
  if (contentTypes) zip.file('[Content_Types].xml', withoutMissingOverrides(await contentTypes.async('string'), new Set(Object.keys(zip.files))));
  return zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
}

export async function toPptx(source: SlidesSource, progress: Progress): Promise<Uint8Array> {
  const pptx = new PptxGenJS();
  pptx.defineLayout({ name: 'SVC', width: inches(source.width), height: inches(source.height) });
  pptx.layout = 'SVC';
  pptx.title = source.title;
  pptx.author = 'Svc';
  pptx.theme = { headFontFace: FONT, bodyFontFace: FONT };
  for (const slideSource of source.slides) {
    const slide = pptx.addSlide();
    for (const box of slideSource.boxes) {
      const frame = { x: inches(box.frame.x), y: inches(box.frame.y), w: inches(box.frame.width), h: inches(box.frame.height) };
      if (box.type === 'image') {
        const asset = source.images[box.src];
        const sniffed = asset ? sniffImage(asset.data) : undefined;
        if (asset && sniffed) {
          slide.addImage({ ...frame, data: `${sniffed.mimeType};base64,${Buffer.from(asset.data).toString('base64')}`, altText: box.alt, sizing: { type: 'contain', w: frame.w, h: frame.h } });
        } else {
          slide.addText(box.alt || 'image', { ...frame, fontSize: BODY_SIZE, italic: true, color: '888888', align: 'center', valign: 'middle' });
        }
      } else {
        const text = boxParagraphs(box.blocks);
        if (text.length > 0) slide.addText(text, { ...frame, valign: 'top', fontFace: FONT, margin: 4 });
      }
      progress.step();
    }
    progress.step();
  }
  if (source.slides.length === 0) pptx.addSlide();
  return repaired((await pptx.write({ outputType: 'nodebuffer' })) as Buffer);
}
