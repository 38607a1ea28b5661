/**
 * Word and PowerPoint fidelity (issue 25 point 8, issue 26 point 2): real .docx and .pptx files written by Word,
 * PowerPoint and LibreOffice, each counted three times with the same yardstick per feature:
 * - **source**: what the file holds (counted from its XML);
 * - **import**: what the service's import keeps (the format reader and `buildOutput`, the code the import worker
 *   runs, then the stored content read back as the exporters read it);
 * - **export**: what a re-export of that content holds (the service's docx / pptx writer, counted from its XML
 *   with the same counter as the source, and never more than the import kept: a writer's own theme or layout is
 *   not the file's).
 *
 * `npm run fidelity [-- --files] [-- --only NAME-PART]` prints the per-feature table (docs/IMPORT-EXPORT.md
 * "Fidelity over real files") and, with `--files`, each file's counts. The corpus lives outside the repository
 * (test/fixtures/office-corpus/README.md): its manifest SOURCES.tsv is committed, the files are not.
 * test/import/office-corpus.test.ts holds the export figures as floors, through the real HTTP server.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import JSZip from 'jszip';
import mammoth from 'mammoth';
import { attachmentPath } from '../src/domain/attachments/attachment-service.js';
import { sniffImage } from '../src/domain/attachments/sniff.js';
import { buildOutput } from '../src/domain/import/build-output.js';
import type { ReadContent } from '../src/domain/import/conversion.js';
import { STYLE_MAP } from '../src/domain/import/formats/docx.js';
import { formatReader } from '../src/domain/import/formats/index.js';
import { withoutPictures } from '../src/domain/import/import-service.js';
import { toDocx } from '../src/domain/export/converters/docx.js';
import { toPptx } from '../src/domain/export/converters/pptx.js';
import { sourceFromState, type ExportSource, type ImageAssets, type RichTextSource, type SlidesSource } from '../src/domain/export/source.js';
import { holdsFilesEnding, outsideDataDirectory } from './outside-data.js';
import type { ProseMirrorNode } from '../src/model/rich-text/node-json.js';

export const DOCX_FEATURES = ['text', 'paragraphStyles', 'headings', 'listItems', 'nestedListItems', 'tables', 'mergedCells', 'images', 'links', 'headersFooters', 'footnotes', 'pageBreaks', 'fonts', 'colours', 'bold', 'italic', 'underline'] as const;
export const PPTX_FEATURES = ['text', 'slides', 'textBoxes', 'placeholders', 'layouts', 'themeColours', 'themeFonts', 'shapes', 'tables', 'images', 'notes'] as const;
export type DocxFeature = (typeof DOCX_FEATURES)[number];
export type PptxFeature = (typeof PPTX_FEATURES)[number];
export type Counts<F extends string> = Record<F, number>;

/** What each feature counts, for the table's first column. */
export const FEATURE_UNITS: Record<DocxFeature | PptxFeature, string> = {
  text: 'characters of text',
  paragraphStyles: 'distinct paragraph styles other than Normal (docx) in use',
  headings: 'heading paragraphs (Title, Heading 1-9)',
  listItems: 'list paragraphs',
  nestedListItems: 'list paragraphs at level 2 or deeper',
  tables: 'tables',
  mergedCells: 'merged cells (horizontal or vertical)',
  images: 'pictures',
  links: 'hyperlinks',
  headersFooters: 'headers and footers with text',
  footnotes: 'footnotes and endnotes',
  pageBreaks: 'page breaks (break characters and "page break before")',
  fonts: 'characters with a font set on the run',
  colours: 'characters with a colour set on the run',
  bold: 'bold characters (run formatting)',
  italic: 'italic characters (run formatting)',
  underline: 'underlined characters (run formatting)',
  slides: 'slides',
  textBoxes: 'text boxes and shapes with text',
  placeholders: 'placeholders with text (title, body …)',
  layouts: 'distinct slide layouts in use',
  themeColours: 'theme colour schemes',
  themeFonts: 'theme font schemes',
  shapes: 'shapes without text (rectangles, lines, arrows …)',
  notes: 'slides with speaker notes',
};

function zeroes<F extends string>(features: readonly F[]): Counts<F> {
  return Object.fromEntries(features.map((feature) => [feature, 0])) as Counts<F>;
}

// ----- XML helpers (the counters read the few elements they need with patterns, as the formula oracle does)

function decodeXml(value: string): string {
  return value.replace(/&(lt|gt|quot|apos|amp|#(\d+)|#x([0-9a-f]+));/gi, (_, name: string, decimal?: string, hex?: string) => {
    if (decimal) return String.fromCodePoint(Number(decimal));
    if (hex) return String.fromCodePoint(parseInt(hex, 16));
    return ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' } as Record<string, string>)[name]!;
  });
}

/** Markup compatibility: keep the chosen branch of `mc:AlternateContent` only, so nothing is counted twice. */
function withoutFallbacks(xml: string): string {
  return xml.replace(/<mc:Fallback\b[\s\S]*?<\/mc:Fallback>/g, '');
}

function attribute(tag: string, name: string): string | undefined {
  const match = new RegExp(`\\s${name}="([^"]*)"`).exec(tag);
  return match ? decodeXml(match[1]!) : undefined;
}

/** Elements `<prefix:name …>…</prefix:name>` (or self-closed), outermost first; nested ones of the same name are inside their parent's match. */
function elements(xml: string, name: string): string[] {
  const found: string[] = [];
  const open = new RegExp(`<${name}(?=[\\s>/])[^>]*?(/?)>`, 'g');
  let match: RegExpExecArray | null;
  while ((match = open.exec(xml))) {
    if (match[1] === '/') {
      found.push(match[0]);
      continue;
    }
    // find the matching close, counting nested elements of the same name
    const scan = new RegExp(`<${name}(?=[\\s>/])[^>]*?(/?)>|</${name}>`, 'g');
    scan.lastIndex = open.lastIndex;
    let depth = 1;
    let inner: RegExpExecArray | null;
    while (depth > 0 && (inner = scan.exec(xml))) {
      if (inner[0].startsWith('</')) depth--;
      else if (inner[1] !== '/') depth++;
    }
    const end = depth === 0 ? scan.lastIndex : xml.length;
    found.push(xml.slice(match.index, end));
    open.lastIndex = end;
  }
  return found;
}

/** ST_OnOff: an element present without `val`, or with a true value. */
function isOn(properties: string, name: string): boolean {
  const tag = new RegExp(`<${name}(?=[\\s/>])[^>]*>`).exec(properties)?.[0];
  if (!tag) return false;
  const value = attribute(tag, 'w:val');
  return value === undefined || !['0', 'false', 'off'].includes(value);
}

function textOf(xml: string, tag: 'w:t' | 'a:t'): string {
  return [...xml.matchAll(new RegExp(`<${tag}(?:\\s[^>]*)?>([^<]*)</${tag}>`, 'g'))].map((match) => decodeXml(match[1]!)).join('');
}

async function part(zip: JSZip, name: string): Promise<string> {
  return (await zip.file(name)?.async('string')) ?? '';
}

function relationships(xml: string): Map<string, { type: string; target: string }> {
  return new Map(elements(xml, 'Relationship').map((tag) => [attribute(tag, 'Id') ?? '', { type: attribute(tag, 'Type') ?? '', target: attribute(tag, 'Target') ?? '' }]));
}

// ----- docx

interface WordStyle {
  name: string;
  basedOn?: string;
  numbered: boolean;
}

function wordStyles(xml: string): Map<string, WordStyle> {
  const styles = new Map<string, WordStyle>();
  for (const style of elements(xml, 'w:style')) {
    const id = attribute(style.slice(0, style.indexOf('>') + 1), 'w:styleId');
    if (!id) continue;
    const name = attribute(/<w:name\b[^>]*>/.exec(style)?.[0] ?? '', 'w:val') ?? id;
    const basedOn = attribute(/<w:basedOn\b[^>]*>/.exec(style)?.[0] ?? '', 'w:val');
    styles.set(id, { name, ...(basedOn ? { basedOn } : {}), numbered: /<w:numId\b[^>]*w:val="[1-9]/.test(style) });
  }
  return styles;
}

function isHeadingStyle(styles: Map<string, WordStyle>, id: string | undefined): boolean {
  for (let step = 0, at = id; at && step < 10; step++, at = styles.get(at)?.basedOn) {
    const name = (styles.get(at)?.name ?? at).toLowerCase();
    if (/^(heading ?[1-9]|title)$/.test(name)) return true;
  }
  return false;
}

/** The features a Word document holds, counted from its XML (the same counter reads our own exports). */
export async function countDocxFile(bytes: Uint8Array): Promise<Counts<DocxFeature>> {
  const counts = zeroes(DOCX_FEATURES);
  const zip = await JSZip.loadAsync(bytes);
  const document = withoutFallbacks(await part(zip, 'word/document.xml'));
  const styles = wordStyles(await part(zip, 'word/styles.xml'));
  const usedStyles = new Set<string>();
  const listLevels = new Map<string, number>();
  for (const paragraph of elements(document, 'w:p')) {
    const properties = /<w:pPr\b[\s\S]*?<\/w:pPr>/.exec(paragraph)?.[0] ?? '';
    const styleId = attribute(/<w:pStyle\b[^>]*>/.exec(properties)?.[0] ?? '', 'w:val');
    const text = textOf(paragraph, 'w:t');
    if (styleId && text.trim() && !/^normal$/i.test(styles.get(styleId)?.name ?? styleId)) usedStyles.add(styles.get(styleId)?.name ?? styleId);
    if (isHeadingStyle(styles, styleId) && text.trim()) counts.headings++;
    const numId = attribute(/<w:numId\b[^>]*>/.exec(properties)?.[0] ?? '', 'w:val');
    const numbered = numId !== undefined ? numId !== '0' : styleId !== undefined && styles.get(styleId)?.numbered === true;
    if (numbered && text.trim()) {
      counts.listItems++;
      const level = Number(attribute(/<w:ilvl\b[^>]*>/.exec(properties)?.[0] ?? '', 'w:val') ?? 0);
      if (level >= 1) counts.nestedListItems++;
      listLevels.set(numId ?? styleId ?? '', Math.max(listLevels.get(numId ?? '') ?? 0, level));
    }
    if (isOn(properties, 'w:pageBreakBefore')) counts.pageBreaks++;
  }
  counts.paragraphStyles = usedStyles.size;
  for (const run of elements(document, 'w:r')) {
    const length = [...textOf(run, 'w:t')].length;
    if (length === 0) continue;
    counts.text += length;
    const properties = /<w:rPr\b[\s\S]*?<\/w:rPr>/.exec(run)?.[0] ?? '';
    if (isOn(properties, 'w:b')) counts.bold += length;
    if (isOn(properties, 'w:i')) counts.italic += length;
    const underline = /<w:u\b[^>]*>/.exec(properties)?.[0];
    if (underline && attribute(underline, 'w:val') !== 'none') counts.underline += length;
    if (/<w:rFonts\b[^>]*w:(ascii|hAnsi|eastAsia|cs)="/.test(properties)) counts.fonts += length;
    const colour = attribute(/<w:color\b[^>]*>/.exec(properties)?.[0] ?? '', 'w:val');
    if (colour && colour !== 'auto') counts.colours += length;
  }
  counts.pageBreaks += (document.match(/<w:br\b[^>]*w:type="page"/g) ?? []).length;
  counts.tables = (document.match(/<w:tbl>/g) ?? []).length;
  counts.mergedCells = (document.match(/<w:gridSpan\b[^>]*w:val="([2-9]|\d\d+)"/g) ?? []).length + (document.match(/<w:vMerge\b[^>]*w:val="restart"/g) ?? []).length;
  counts.images = (document.match(/<a:blip\b[^>]*r:embed="/g) ?? []).length + (document.match(/<v:imagedata\b[^>]*r:id="/g) ?? []).length;
  counts.links = (document.match(/<w:hyperlink\b/g) ?? []).length + (document.match(/HYPERLINK\s/g) ?? []).length;
  counts.footnotes = (document.match(/<w:(footnote|endnote)Reference\b/g) ?? []).length;
  const rels = relationships(await part(zip, 'word/_rels/document.xml.rels'));
  const referenced = new Set([...document.matchAll(/<w:(header|footer)Reference\b[^>]*r:id="([^"]*)"/g)].map((match) => match[2]!));
  for (const id of referenced) {
    const target = rels.get(id)?.target;
    if (target && textOf(await part(zip, path.posix.join('word', target)), 'w:t').trim()) counts.headersFooters++;
  }
  return counts;
}

/** Paragraph styles the docx import (mammoth with the reader's style map) does not map to anything: they become plain paragraphs. */
async function unmappedStyles(bytes: Uint8Array): Promise<Set<string>> {
  const converted = await mammoth.convertToHtml({ buffer: Buffer.from(bytes) }, { styleMap: STYLE_MAP });
  return new Set(converted.messages.map((message) => /^Unrecognised paragraph style: '([^']*)'/.exec(message.message)?.[1]).filter((name): name is string => name !== undefined));
}

/** The same features in the content model (a document's ProseMirror JSON). */
export function countRichText(blocks: readonly ProseMirrorNode[], counts: Counts<DocxFeature> = zeroes(DOCX_FEATURES), listDepth = 0): Counts<DocxFeature> {
  for (const node of blocks) {
    const list = node.type === 'bulletList' || node.type === 'orderedList' || node.type === 'taskList';
    if (node.type === 'heading' && (node.content ?? []).length > 0) counts.headings++;
    if ((node.type === 'listItem' || node.type === 'taskItem') && (node.content ?? []).length > 0) {
      counts.listItems++;
      if (listDepth >= 2) counts.nestedListItems++;
    }
    if (node.type === 'table') counts.tables++;
    if ((node.type === 'tableCell' || node.type === 'tableHeader') && (Number(node.attrs?.colspan ?? 1) > 1 || Number(node.attrs?.rowspan ?? 1) > 1)) counts.mergedCells++;
    if (node.type === 'image') counts.images++;
    if (node.type === 'pageBreak') counts.pageBreaks++;
    if (node.type === 'footnote') counts.footnotes++;
    if (/^(header|footer|pageHeader|pageFooter)$/.test(node.type)) counts.headersFooters++;
    if (node.type === 'text') {
      const length = [...(node.text ?? '')].length;
      counts.text += length;
      const marks = node.marks ?? [];
      const has = (name: string) => marks.some((mark) => mark.type === name);
      // the run's font and colour are textStyle's (a highlight's colour is the run's shading, not w:color)
      const attr = (name: string) => marks.some((mark) => mark.type === 'textStyle' && typeof mark.attrs?.[name] === 'string' && mark.attrs[name] !== '');
      if (has('bold')) counts.bold += length;
      if (has('italic')) counts.italic += length;
      if (has('underline')) counts.underline += length;
      if (attr('fontFamily')) counts.fonts += length;
      if (attr('color')) counts.colours += length;
    }
    if (node.content) countRichText(node.content, counts, listDepth + (list ? 1 : 0));
  }
  return counts;
}

/** Links as the model holds them: runs of text with one link mark, each counted once. */
export function countLinks(blocks: readonly ProseMirrorNode[]): number {
  let count = 0;
  for (const node of blocks) {
    let previous: unknown;
    for (const child of node.content ?? []) {
      const href = child.marks?.find((mark) => mark.type === 'link')?.attrs?.href;
      if (href !== undefined && href !== previous) count++;
      previous = href;
    }
    count += countLinks((node.content ?? []).filter((child) => child.type !== 'text'));
  }
  return count;
}

// ----- pptx

/** The features a PowerPoint deck holds, counted from its XML (the same counter reads our own exports). */
export async function countPptxFile(bytes: Uint8Array): Promise<Counts<PptxFeature>> {
  const counts = zeroes(PPTX_FEATURES);
  const zip = await JSZip.loadAsync(bytes);
  const presentationRels = relationships(await part(zip, 'ppt/_rels/presentation.xml.rels'));
  const slideIds = [...(await part(zip, 'ppt/presentation.xml')).matchAll(/<p:sldId\b[^>]*r:id="([^"]*)"/g)].map((match) => match[1]!);
  const layouts = new Set<string>();
  for (const id of slideIds) {
    const target = presentationRels.get(id)?.target;
    if (!target) continue;
    const slidePath = path.posix.join('ppt', target);
    const xml = withoutFallbacks(await part(zip, slidePath));
    if (!xml) continue;
    counts.slides++;
    const rels = relationships(await part(zip, path.posix.join(path.posix.dirname(slidePath), '_rels', `${path.posix.basename(slidePath)}.rels`)));
    for (const { type, target: related } of rels.values()) {
      if (type.endsWith('/slideLayout')) layouts.add(path.posix.basename(related));
      if (type.endsWith('/notesSlide')) {
        const notes = await part(zip, path.posix.join(path.posix.dirname(slidePath), related));
        const body = elements(notes, 'p:sp').filter((shape) => /<p:ph\b[^>]*type="body"/.test(shape));
        if (body.some((shape) => textOf(shape, 'a:t').trim())) counts.notes++;
      }
    }
    for (const shape of elements(xml, 'p:sp')) {
      const text = textOf(shape, 'a:t');
      counts.text += [...text].length;
      if (text.trim()) {
        counts.textBoxes++;
        if (/<p:ph\b/.test(shape)) counts.placeholders++;
      } else if (/<a:(prstGeom|custGeom)\b/.test(shape) && !/<p:ph\b/.test(shape)) counts.shapes++;
    }
    counts.shapes += elements(xml, 'p:cxnSp').length;
    for (const frame of elements(xml, 'p:graphicFrame')) {
      if (/<a:tbl>/.test(frame)) {
        counts.tables++;
        counts.text += [...textOf(frame, 'a:t')].length;
      }
    }
    counts.images += elements(xml, 'p:pic').filter((picture) => /<a:blip\b[^>]*r:embed="/.test(picture)).length;
  }
  counts.layouts = layouts.size;
  const theme = Object.keys(zip.files).find((name) => /^ppt\/theme\/theme\d+\.xml$/.test(name));
  const themeXml = theme ? await part(zip, theme) : '';
  counts.themeColours = /<a:clrScheme\b/.test(themeXml) ? 1 : 0;
  counts.themeFonts = /<a:fontScheme\b/.test(themeXml) ? 1 : 0;
  return counts;
}

/** The same features in the slide model as the exporters read it. */
export function countSlides(source: SlidesSource): Counts<PptxFeature> {
  const counts = zeroes(PPTX_FEATURES);
  counts.slides = source.slides.length;
  for (const slide of source.slides) {
    if (slide.notes.trim()) counts.notes++;
    for (const box of slide.boxes) {
      if (box.type === 'image') {
        counts.images++;
        continue;
      }
      if (box.type === 'shape') {
        counts.shapes++;
        continue;
      }
      const inner = countRichText(box.blocks);
      counts.text += inner.text;
      counts.tables += inner.tables;
      if (inner.tables === 0 && inner.text > 0) {
        counts.textBoxes++;
        if (box.placeholder) counts.placeholders++;
      }
    }
  }
  return counts;
}

// ----- one file, the corpus

export interface FileResult<F extends string> {
  file: string;
  format: 'docx' | 'pptx';
  source: Counts<F>;
  imported: Counts<F>;
  exported: Counts<F>;
  failure?: string;
}

/** Attachments of an import as the exporter is handed them (by the path the content names them with). */
function assetsOf(content: ReadContent): ImageAssets {
  const images = content.shape === 'workbook' ? [] : content.images;
  return Object.fromEntries(images.flatMap((image) => {
    const sniffed = sniffImage(image.data);
    return sniffed ? [[attachmentPath(image.guid), { data: image.data, mimeType: sniffed.mimeType }]] : [];
  }));
}

const NO_PROGRESS = { step: () => undefined };

function capped<F extends string>(counts: Counts<F>, limit: Counts<F>): Counts<F> {
  return Object.fromEntries(Object.entries(counts).map(([feature, value]) => [feature, Math.min(value as number, limit[feature as F])])) as Counts<F>;
}

/** The content as the import stores it: without the pictures it does not store (only PNG, JPEG, GIF and WebP). */
function storedState(content: ReadContent, state: Uint8Array, kind: 'documentPro' | 'presentation'): Uint8Array {
  const images = content.shape === 'workbook' ? [] : content.images;
  return withoutPictures(state, kind, images, images.filter((image) => sniffImage(image.data) !== undefined).map((image) => image.guid));
}

/** A file read as the import worker reads it and stored as the import stores it: the content as exporters see it. */
async function importedSource(format: 'docx' | 'pptx', bytes: Buffer, name: string): Promise<{ content: ReadContent; stored: ExportSource }> {
  // documentPro: the kind that keeps a Word file's page setup, header and footer
  const kind = format === 'docx' ? 'documentPro' : 'presentation';
  const content = await (await formatReader(format))!.read(bytes, () => undefined);
  const output = buildOutput(content, kind);
  if (output.target !== 'content') throw new Error(`a ${format} import gave no content`);
  return { content, stored: sourceFromState(storedState(content, output.state, kind), kind, name) };
}

/** Imports one file as the import worker does, exports the stored content again, and counts all three. */
export async function measureFile(file: string): Promise<FileResult<DocxFeature> | FileResult<PptxFeature>> {
  const bytes = fs.readFileSync(file);
  const format = file.toLowerCase().endsWith('.pptx') ? 'pptx' : 'docx';
  const name = path.basename(file);
  if (format === 'docx') {
    const source = await countDocxFile(bytes);
    try {
      const { content, stored } = await importedSource(format, bytes, name);
      const blocks = (stored as RichTextSource).blocks;
      const setup = (stored as RichTextSource).pageSetup;
      const headersFooters = setup ? [setup.header, setup.footer].filter((line) => Object.values(line).some((text) => text.trim() !== '')).length : 0;
      const imported = { ...countRichText(blocks), headersFooters, links: countLinks(blocks), paragraphStyles: Math.max(0, source.paragraphStyles - (await unmappedStyles(bytes)).size) };
      const exported = await countDocxFile(await toDocx({ ...(stored as RichTextSource), images: assetsOf(content) }, NO_PROGRESS));
      return { file: name, format, source, imported: capped(imported, source), exported: capped(exported, capped(imported, source)) };
    } catch (error) {
      return { file: name, format, source, imported: zeroes(DOCX_FEATURES), exported: zeroes(DOCX_FEATURES), failure: error instanceof Error ? error.message : String(error) };
    }
  }
  const source = await countPptxFile(bytes);
  try {
    const { content, stored } = await importedSource(format, bytes, name);
    const imported = countSlides(stored as SlidesSource);
    const exported = await countPptxFile(await toPptx({ ...(stored as SlidesSource), images: assetsOf(content) }, NO_PROGRESS));
    return { file: name, format, source, imported: capped(imported, source), exported: capped(exported, capped(imported, source)) };
  } catch (error) {
    return { file: name, format, source, imported: zeroes(PPTX_FEATURES), exported: zeroes(PPTX_FEATURES), failure: error instanceof Error ? error.message : String(error) };
  }
}

export interface FeatureRow {
  feature: string;
  /** files holding the feature */
  files: number;
  source: number;
  imported: number;
  exported: number;
}

/** Per feature: the files holding it, and the totals held, kept by the import and kept by a re-export. */
export function featureTable<F extends string>(features: readonly F[], results: ReadonlyArray<FileResult<F>>): FeatureRow[] {
  return features.map((feature) => ({
    feature,
    files: results.filter((result) => result.source[feature] > 0).length,
    source: results.reduce((sum, result) => sum + result.source[feature], 0),
    imported: results.reduce((sum, result) => sum + result.imported[feature], 0),
    exported: results.reduce((sum, result) => sum + result.exported[feature], 0),
  }));
}

/** The kept share of a row (1 when the corpus holds none). */
export function share(kept: number, held: number): number {
  return held === 0 ? 1 : kept / held;
}

/** The corpus directory (scripts/outside-data.ts: the files are not committed), holding `corpus/` with the files. */
export function officeCorpusDirectory(): string | undefined {
  return outsideDataDirectory('office-corpus', (directory) => fs.existsSync(path.join(directory, 'corpus')) && holdsFilesEnding(path.join(directory, 'corpus'), '.docx', '.pptx'));
}

export function corpusFiles(directory: string, only = ''): string[] {
  return fs
    .readdirSync(path.join(directory, 'corpus'))
    .filter((file) => /\.(docx|pptx)$/i.test(file) && file.includes(only))
    .sort()
    .map((file) => path.join(directory, 'corpus', file));
}

function percent(kept: number, held: number): string {
  return held === 0 ? '–' : `${((100 * kept) / held).toFixed(0)} %`;
}

function markdownTable(title: string, rows: readonly FeatureRow[]): string {
  const lines = [`| ${title} | files | held | kept on import | kept on export |`, '|---|---:|---:|---:|---:|'];
  for (const row of rows) lines.push(`| ${row.feature}: ${FEATURE_UNITS[row.feature as DocxFeature | PptxFeature]} | ${row.files} | ${row.source} | ${row.imported} (${percent(row.imported, row.source)}) | ${row.exported} (${percent(row.exported, row.source)}) |`);
  return lines.join('\n');
}

async function main(args: string[]): Promise<void> {
  const directory = officeCorpusDirectory();
  if (!directory) {
    console.error('no corpus: put the files of test/fixtures/office-corpus/SOURCES.tsv in a corpus/ folder (see its README) or set SVC_OUTSIDE_DATA (scripts/outside-data.ts)');
    process.exit(2);
  }
  const only = args.includes('--only') ? (args[args.indexOf('--only') + 1] ?? '') : '';
  const results: Array<FileResult<DocxFeature> | FileResult<PptxFeature>> = [];
  for (const file of corpusFiles(directory, only)) results.push(await measureFile(file));
  const docx = results.filter((result): result is FileResult<DocxFeature> => result.format === 'docx');
  const pptx = results.filter((result): result is FileResult<PptxFeature> => result.format === 'pptx');
  console.log(`office fidelity: ${docx.length} docx, ${pptx.length} pptx from ${directory}`);
  for (const failed of results.filter((result) => result.failure)) console.log(`  not imported: ${failed.file}: ${failed.failure}`);
  console.log(`\n${markdownTable(`docx (${docx.length} documents)`, featureTable(DOCX_FEATURES, docx))}\n`);
  console.log(`${markdownTable(`pptx (${pptx.length} decks)`, featureTable(PPTX_FEATURES, pptx))}\n`);
  if (args.includes('--files')) {
    for (const result of results) {
      const features = Object.keys(result.source) as Array<keyof typeof result.source>;
      const lost = features.filter((feature) => result.source[feature] > 0).map((feature) => `${String(feature)} ${result.source[feature]}/${result.imported[feature]}/${result.exported[feature]}`);
      console.log(`${result.file}: ${lost.join(', ')}`);
    }
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main(process.argv.slice(2));
