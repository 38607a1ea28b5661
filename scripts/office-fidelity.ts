/**
 * Word, PowerPoint and Excel fidelity (issue 25 point 8, issue 26 point 2): real .docx and .pptx files written by
 * Word, PowerPoint and LibreOffice, and the workbooks written by Excel of the formula oracle's corpus
 * (scripts/formula-oracle.ts), each counted three times with the same yardstick per feature:
 * - **source**: what the file holds (counted from its XML);
 * - **import**: what the service's import keeps (the format reader and `buildOutput`, the code the import worker
 *   runs, then the stored content read back as the exporters read it);
 * - **export**: what a re-export of that content holds (the service's docx / pptx / xlsx writer, counted from its XML
 *   with the same counter as the source, and never more than the import kept: a writer's own theme or layout is
 *   not the file's).
 *
 * `npm run fidelity [-- --files] [-- --only NAME-PART]` prints the per-feature tables (docs/IMPORT-EXPORT.md
 * "Fidelity over real files") and, with `--files`, each file's counts (`--only .xlsx`: the workbooks only). The
 * corpora live outside the repository (test/fixtures/office-corpus/README.md, docs/FORMULAS.md "Agreement with
 * Excel"): their manifests SOURCES.tsv say where each file comes from, the files are not committed.
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
import { toXlsx } from '../src/domain/export/converters/xlsx.js';
import { sourceFromState, type ExportSource, type ImageAssets, type RichTextSource, type SlidesSource, type WorkbookCell, type WorkbookSource } from '../src/domain/export/source.js';
import { joinParts } from '../src/domain/import/conversion.js';
import { SpreadsheetEncoder } from '../src/domain/import/spreadsheet-encoder.js';
import { corpusDirectory as workbookCorpusDirectory, sheetParts } from './formula-oracle.js';
import { holdsFilesEnding, outsideDataDirectory } from './outside-data.js';
import type { ProseMirrorNode } from '../src/model/rich-text/node-json.js';
import { columnIndex } from '../src/model/sheets/a1.js';

export const DOCX_FEATURES = ['text', 'paragraphStyles', 'headings', 'listItems', 'nestedListItems', 'tables', 'mergedCells', 'images', 'links', 'headersFooters', 'footnotes', 'pageBreaks', 'fonts', 'colours', 'bold', 'italic', 'underline'] as const;
export const PPTX_FEATURES = ['text', 'slides', 'textBoxes', 'placeholders', 'layouts', 'themeColours', 'themeFonts', 'shapes', 'tables', 'images', 'notes'] as const;
export const XLSX_FEATURES = ['sheets', 'values', 'formulas', 'merges', 'numberFormats', 'boldCells', 'fills', 'borders', 'columnWidths', 'rowHeights', 'lineStyles', 'hiddenColumns', 'hiddenRows', 'frozenPanes', 'frozenColumns', 'conditionalFormats', 'validations', 'charts', 'comments', 'links', 'definedNames', 'protections'] as const;
export type DocxFeature = (typeof DOCX_FEATURES)[number];
export type PptxFeature = (typeof PPTX_FEATURES)[number];
export type XlsxFeature = (typeof XLSX_FEATURES)[number];
export type Counts<F extends string> = Record<F, number>;

/** What each feature counts, for the table's first column. */
export const FEATURE_UNITS: Record<DocxFeature | PptxFeature | XlsxFeature, string> = {
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
  sheets: 'worksheets (chart sheets left out)',
  values: 'cells with a value or a formula',
  formulas: 'formula cells (each cell of a shared formula; an array formula once)',
  merges: 'merged areas',
  numberFormats: 'cells with a value and a number format other than General (a date counts)',
  boldCells: 'bold cells with a value',
  fills: 'cells with a fill (a pattern or gradient), with a value or not',
  borders: 'cells with a border on a side, with a value or not',
  columnWidths: 'columns given a width (customWidth), up to the last column holding a cell',
  rowHeights: 'rows given a height (customHeight)',
  lineStyles: 'whole rows (customFormat) and columns (up to the last column holding a cell) styled bold, filled or bordered',
  hiddenColumns: 'hidden columns, up to the last column holding a cell',
  hiddenRows: 'hidden rows (by hand or by a filter)',
  frozenPanes: 'sheets with frozen rows (a frozen pane with rows)',
  frozenColumns: 'sheets with frozen columns (a frozen pane with columns)',
  conditionalFormats: 'conditional formatting rules',
  validations: 'data validation rules',
  charts: 'charts on worksheets',
  comments: 'cell comments (notes)',
  definedNames: 'defined names (print areas and filter ranges, `_xlnm.`, left out)',
  protections: 'protected sheets and protected ranges',
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
function isOn(properties: string, name: string, valueAttribute = 'w:val'): boolean {
  const tag = new RegExp(`<${name}(?=[\\s/>])[^>]*>`).exec(properties)?.[0];
  if (!tag) return false;
  const value = attribute(tag, valueAttribute);
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

// ----- xlsx

/** What a cell style (`<xf>` of cellXfs) shows, from styles.xml. */
interface CellLook {
  numberFormat: boolean;
  bold: boolean;
  fill: boolean;
  border: boolean;
  /** the font, fill, border and alignment the style names: two styles alike here look alike in the model */
  appearance: string;
}

/** The cell styles of a workbook by index (the `s` of a `<c>`); index 0 (or none) is the default. */
function cellLooks(styles: string): CellLook[] {
  const generalCodes = new Set(['0', ...[...styles.matchAll(/<numFmt\b[^>]*>/g)].flatMap((tag) => (/^general$/i.test(attribute(tag[0], 'formatCode') ?? '') ? [attribute(tag[0], 'numFmtId') ?? ''] : []))]);
  const listed = (list: string, item: string) => elements(elements(styles, list)[0] ?? '', item);
  const bold = listed('fonts', 'font').map((font) => isOn(font, 'b', 'val'));
  const filled = listed('fills', 'fill').map((fill) => /<gradientFill\b/.test(fill) || !['none', undefined].includes(attribute(/<patternFill\b[^>]*>/.exec(fill)?.[0] ?? '', 'patternType')));
  const bordered = listed('borders', 'border').map((border) => /<(left|right|top|bottom|start|end)\b[^>]*\bstyle="(?!none")[^"]+"/.test(border));
  return listed('cellXfs', 'xf').map((xf) => {
    const tag = /<xf\b[^>]*>/.exec(xf)![0];
    const index = (name: string) => Number(attribute(tag, name) ?? 0);
    const appearance = `${index('fontId')}/${index('fillId')}/${index('borderId')}/${/<alignment\b[^>]*>/.exec(xf)?.[0] ?? ''}`;
    return { numberFormat: !generalCodes.has(attribute(tag, 'numFmtId') ?? '0'), bold: bold[index('fontId')] === true, fill: filled[index('fillId')] === true, border: bordered[index('borderId')] === true, appearance };
  });
}

/** Whether a cell style shows what the model keeps of a whole row's or column's style (bold, a fill, a border). */
function lineLook(look: CellLook | undefined): boolean {
  return look !== undefined && (look.bold || look.fill || look.border);
}

/**
 * Columns of `<col>` entries with the attribute set (`style`: naming a style lineLook counts, `looks`), up to
 * `lastColumn` (1-based): a file often sets the width of, hides or styles every empty column to the sheet's end
 * (`max="16384"`), which would swamp the count.
 */
function columnsWith(xml: string, name: 'customWidth' | 'hidden' | 'style', lastColumn: number, looks: readonly CellLook[] = []): number {
  return [...xml.matchAll(/<col\b[^>]*>/g)]
    .filter((tag) => (name === 'style' ? lineLook(looks[Number(attribute(tag[0], 'style') ?? 0)]) : ['1', 'true'].includes(attribute(tag[0], name) ?? '')))
    .reduce((sum, tag) => sum + Math.max(0, Math.min(Number(attribute(tag[0], 'max') ?? 0), lastColumn) - Number(attribute(tag[0], 'min') ?? 0) + 1), 0);
}

/** The style index each column's `<col style>` gives it, by 1-based column (the last `<col>` naming a column wins). */
function columnStylesOf(xml: string): Map<number, number> {
  const styles = new Map<number, number>();
  for (const [tag] of xml.matchAll(/<col\b[^>]*>/g)) {
    const style = attribute(tag, 'style');
    if (style === undefined) continue;
    const last = Math.min(Number(attribute(tag, 'max') ?? 0), 16384);
    for (let column = Number(attribute(tag, 'min') ?? 0); column <= last; column++) styles.set(column, Number(style));
  }
  return styles;
}

/** The parts a worksheet's relationships name with a type (drawing, comments). */
async function relatedParts(zip: JSZip, sheetPart: string, type: string): Promise<string[]> {
  const rels = relationships(await part(zip, path.posix.join(path.posix.dirname(sheetPart), '_rels', `${path.posix.basename(sheetPart)}.rels`)));
  const found = [...rels.values()].filter((rel) => rel.type.endsWith(`/${type}`));
  return Promise.all(found.map((rel) => part(zip, rel.target.startsWith('/') ? rel.target.slice(1) : path.posix.join(path.posix.dirname(sheetPart), rel.target))));
}

/**
 * The features a workbook holds, counted from its XML (the same counter reads our own exports), and each sheet's
 * last column holding a cell. `lastColumns`: count columns up to these instead (a re-export's, up to the original's:
 * a width set on a column of styled empty cells the model does not keep still counts).
 */
export async function countXlsxFile(bytes: Uint8Array, lastColumns?: readonly number[]): Promise<{ counts: Counts<XlsxFeature>; lastColumns: number[] }> {
  const counts = zeroes(XLSX_FEATURES);
  const zip = await JSZip.loadAsync(bytes);
  const looks = cellLooks(await part(zip, 'xl/styles.xml'));
  const lastColumnsHeld: number[] = [];
  for (const { part: sheetPart } of await sheetParts(Buffer.from(bytes))) {
    const xml = withoutFallbacks(await part(zip, sheetPart));
    counts.sheets++;
    let lastColumn = 0;
    const columnStyles = columnStylesOf(xml);
    for (const [, rowAttributes, rowBody = ''] of xml.matchAll(/<row\b([^>]*?)(?:\/>|>([\s\S]*?)<\/row>)/g)) {
      const rowStyle = ['1', 'true'].includes(attribute(rowAttributes!, 'customFormat') ?? '') ? Number(attribute(rowAttributes!, 's') ?? 0) : undefined;
      for (const [, attributes, body = ''] of rowBody.matchAll(/<c(?=[\s>/])([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
        const column = columnIndex(/^[A-Z]+/.exec(attribute(attributes!, 'r') ?? '')?.[0] ?? '') ?? 0;
        lastColumn = Math.max(lastColumn, column + 1);
        const look = looks[Number(attribute(attributes!, 's') ?? 0)];
        const formula = /<f[\s>/]/.test(body);
        const valued = formula || /<v>[^<]/.test(body) || /<is>[\s\S]*<t(?:\s[^>]*)?>[^<]/.test(body);
        if (valued) counts.values++;
        if (formula) counts.formulas++;
        if (valued && look?.numberFormat) counts.numberFormats++;
        if (valued && look?.bold) counts.boldCells++;
        // an empty cell that only repeats its row's (else column's) look is that line's style, counted as a line
        // style (its number format, if any, shows nothing without a value)
        const lineStyle = rowStyle ?? columnStyles.get(column + 1);
        if (!valued && look && lineStyle !== undefined && looks[lineStyle]?.appearance === look.appearance) continue;
        if (look?.fill) counts.fills++;
        if (look?.border) counts.borders++;
      }
    }
    lastColumnsHeld.push(lastColumn);
    lastColumn = lastColumns?.[lastColumnsHeld.length - 1] ?? lastColumn;
    const rows = [...xml.matchAll(/<row\b[^>]*>/g)].map((tag) => tag[0]);
    counts.rowHeights += rows.filter((tag) => ['1', 'true'].includes(attribute(tag, 'customHeight') ?? '')).length;
    counts.hiddenRows += rows.filter((tag) => ['1', 'true'].includes(attribute(tag, 'hidden') ?? '')).length;
    counts.columnWidths += columnsWith(xml, 'customWidth', lastColumn);
    counts.hiddenColumns += columnsWith(xml, 'hidden', lastColumn);
    counts.lineStyles += rows.filter((tag) => ['1', 'true'].includes(attribute(tag, 'customFormat') ?? '') && lineLook(looks[Number(attribute(tag, 's') ?? 0)])).length;
    counts.lineStyles += columnsWith(xml, 'style', lastColumn, looks);
    const pane = /<pane\b[^>]*\bstate="frozen[^>]*>/.exec(xml)?.[0];
    if (pane && Number(attribute(pane, 'ySplit') ?? 0) > 0) counts.frozenPanes++;
    if (pane && Number(attribute(pane, 'xSplit') ?? 0) > 0) counts.frozenColumns++;
    counts.merges += (xml.match(/<mergeCell\b/g) ?? []).length;
    counts.conditionalFormats += (xml.match(/<cfRule\b/g) ?? []).length;
    counts.validations += (xml.match(/<(x14:)?dataValidation\b/g) ?? []).length;
    counts.links += (xml.match(/<hyperlink\b/g) ?? []).length;
    if (/<sheetProtection\b[^>]*\bsheet="(1|true)"/.test(xml)) counts.protections++;
    counts.protections += (xml.match(/<protectedRange\b/g) ?? []).length;
    for (const drawing of await relatedParts(zip, sheetPart, 'drawing')) counts.charts += (withoutFallbacks(drawing).match(/<c:chart\b/g) ?? []).length;
    for (const comments of await relatedParts(zip, sheetPart, 'comments')) counts.comments += (comments.match(/<comment\b/g) ?? []).length;
  }
  counts.definedNames = [...(await part(zip, 'xl/workbook.xml')).matchAll(/<definedName\b[^>]*>/g)].filter((tag) => !(attribute(tag[0], 'name') ?? '').startsWith('_xlnm.')).length;
  return { counts, lastColumns: lastColumnsHeld };
}

/**
 * The same features in the spreadsheet model as the exporters read it (a WorkbookSource, built from SheetModel).
 * The model has no place for comments on cells, hyperlinks or defined names, nor for frozen columns (a sheet's
 * frozen rows only): those count 0.
 */
export function countWorkbook(source: WorkbookSource): Counts<XlsxFeature> {
  const counts = zeroes(XLSX_FEATURES);
  const valued = (cell: WorkbookCell) => cell.value !== null || cell.formula !== undefined;
  counts.sheets = source.sheets.length;
  for (const sheet of source.sheets) {
    for (const cell of sheet.cells) {
      const style = cell.style;
      if (valued(cell)) counts.values++;
      if (cell.formula !== undefined) counts.formulas++;
      if (valued(cell) && (cell.date === true || (cell.format !== undefined && !/^general$/i.test(cell.format)))) counts.numberFormats++;
      if (valued(cell) && style?.b) counts.boldCells++;
      if (style?.bg) counts.fills++;
      if (style?.bt || style?.br || style?.bb || style?.bl) counts.borders++;
    }
    counts.merges += sheet.merges.length;
    counts.columnWidths += Object.keys(sheet.columnWidths).length;
    counts.rowHeights += Object.keys(sheet.rowHeights).length;
    // columns as the file's count takes them: up to the last holding a cell
    const lineLooks = [...Object.values(sheet.rowStyles ?? {}), ...Object.entries(sheet.columnStyles ?? {}).filter(([column]) => Number(column) < sheet.columnCount).map(([, style]) => style)];
    counts.lineStyles += lineLooks.filter((style) => style.b || style.bg || style.bt || style.br || style.bb || style.bl).length;
    counts.hiddenColumns += sheet.hidden?.columns.length ?? 0;
    counts.hiddenRows += new Set([...(sheet.hidden?.rows ?? []), ...(sheet.filter?.hiddenRows ?? [])]).size;
    if (sheet.frozenRows > 0) counts.frozenPanes++;
    counts.conditionalFormats += sheet.conditionalFormats?.length ?? 0;
    counts.validations += sheet.validations?.length ?? 0;
    counts.charts += sheet.charts?.length ?? 0;
    counts.protections += (sheet.protected ? 1 : 0) + (sheet.protectedRanges?.length ?? 0);
  }
  return counts;
}

// ----- one file, the corpus

export interface FileResult<F extends string> {
  file: string;
  format: 'docx' | 'pptx' | 'xlsx';
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

/** A workbook read as the import worker reads it (the streaming reader into the spreadsheet encoder) and stored: the content as exporters see it. */
async function importedWorkbook(format: 'xlsx' | 'xlsm', bytes: Buffer, name: string): Promise<WorkbookSource> {
  const encoder = new SpreadsheetEncoder();
  await (await formatReader(format))!.readWorkbook!(bytes, encoder, () => undefined);
  return sourceFromState(joinParts(encoder.finish()), 'spreadsheet', name) as WorkbookSource;
}

/** One file's three counts, the import's capped by what the file holds and the export's by what the import kept; a file that does not import keeps nothing, and says why. */
async function measured<F extends string>(file: string, format: FileResult<F>['format'], features: readonly F[], source: Counts<F>, keep: () => Promise<{ imported: Counts<F>; exported: Counts<F> }>): Promise<FileResult<F>> {
  try {
    const { imported, exported } = await keep();
    const kept = capped(imported, source);
    return { file, format, source, imported: kept, exported: capped(exported, kept) };
  } catch (error) {
    return { file, format, source, imported: zeroes(features), exported: zeroes(features), failure: error instanceof Error ? error.message : String(error) };
  }
}

/** Imports one file as the import worker does, exports the stored content again, and counts all three. */
export async function measureFile(file: string): Promise<FileResult<DocxFeature> | FileResult<PptxFeature> | FileResult<XlsxFeature>> {
  const bytes = fs.readFileSync(file);
  const extension = path.extname(file).slice(1).toLowerCase();
  const name = path.basename(file);
  if (extension === 'xlsx' || extension === 'xlsm') {
    const held = await countXlsxFile(bytes);
    return measured(name, 'xlsx', XLSX_FEATURES, held.counts, async () => {
      const stored = await importedWorkbook(extension, bytes, name);
      return { imported: countWorkbook(stored), exported: (await countXlsxFile(await toXlsx(stored, NO_PROGRESS), held.lastColumns)).counts };
    });
  }
  if (extension === 'pptx') {
    return measured(name, 'pptx', PPTX_FEATURES, await countPptxFile(bytes), async () => {
      const { content, stored } = await importedSource('pptx', bytes, name);
      return { imported: countSlides(stored as SlidesSource), exported: await countPptxFile(await toPptx({ ...(stored as SlidesSource), images: assetsOf(content) }, NO_PROGRESS)) };
    });
  }
  const source = await countDocxFile(bytes);
  return measured(name, 'docx', DOCX_FEATURES, source, async () => {
    const { content, stored } = await importedSource('docx', bytes, name);
    const blocks = (stored as RichTextSource).blocks;
    const setup = (stored as RichTextSource).pageSetup;
    const headersFooters = setup ? [setup.header, setup.footer].filter((line) => Object.values(line).some((text) => text.trim() !== '')).length : 0;
    const imported = { ...countRichText(blocks), headersFooters, links: countLinks(blocks), paragraphStyles: Math.max(0, source.paragraphStyles - (await unmappedStyles(bytes)).size) };
    return { imported, exported: await countDocxFile(await toDocx({ ...(stored as RichTextSource), images: assetsOf(content) }, NO_PROGRESS)) };
  });
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

/** The files of a corpus directory's `corpus/` whose names hold `only`: the office corpus' documents and decks, or (`names`) other files. */
export function corpusFiles(directory: string, only = '', names = /\.(docx|pptx)$/i): string[] {
  return fs
    .readdirSync(path.join(directory, 'corpus'))
    .filter((file) => names.test(file) && file.includes(only))
    .sort()
    .map((file) => path.join(directory, 'corpus', file));
}

function percent(kept: number, held: number): string {
  return held === 0 ? '–' : `${((100 * kept) / held).toFixed(0)} %`;
}

function markdownTable(title: string, rows: readonly FeatureRow[]): string {
  const lines = [`| ${title} | files | held | kept on import | kept on export |`, '|---|---:|---:|---:|---:|'];
  for (const row of rows) lines.push(`| ${row.feature}: ${FEATURE_UNITS[row.feature as DocxFeature | PptxFeature | XlsxFeature]} | ${row.files} | ${row.source} | ${row.imported} (${percent(row.imported, row.source)}) | ${row.exported} (${percent(row.exported, row.source)}) |`);
  return lines.join('\n');
}

async function main(args: string[]): Promise<void> {
  const directory = officeCorpusDirectory();
  const workbooks = workbookCorpusDirectory();
  if (!directory && !workbooks) {
    console.error('no corpus: put the files of test/fixtures/office-corpus/SOURCES.tsv in a corpus/ folder (see its README) or set SVC_OUTSIDE_DATA (scripts/outside-data.ts); the workbooks are the formula oracle\'s (../shared/formula-oracle, or FORMULA_ORACLE_DIR)');
    process.exit(2);
  }
  const only = args.includes('--only') ? (args[args.indexOf('--only') + 1] ?? '') : '';
  const files = [...(directory ? corpusFiles(directory, only) : []), ...(workbooks ? corpusFiles(workbooks, only, /\.xls[xm]$/i) : [])];
  const results: Array<FileResult<DocxFeature> | FileResult<PptxFeature> | FileResult<XlsxFeature>> = [];
  for (const file of files) results.push(await measureFile(file));
  const docx = results.filter((result): result is FileResult<DocxFeature> => result.format === 'docx');
  const pptx = results.filter((result): result is FileResult<PptxFeature> => result.format === 'pptx');
  const xlsx = results.filter((result): result is FileResult<XlsxFeature> => result.format === 'xlsx');
  console.log(`office fidelity: ${docx.length} docx, ${pptx.length} pptx from ${directory ?? '(no office corpus)'}; ${xlsx.length} xlsx from ${workbooks ?? '(no workbook corpus)'}`);
  for (const failed of results.filter((result) => result.failure)) console.log(`  not imported: ${failed.file}: ${failed.failure}`);
  if (docx.length > 0) console.log(`\n${markdownTable(`docx (${docx.length} documents)`, featureTable(DOCX_FEATURES, docx))}`);
  if (pptx.length > 0) console.log(`\n${markdownTable(`pptx (${pptx.length} decks)`, featureTable(PPTX_FEATURES, pptx))}`);
  if (xlsx.length > 0) console.log(`\n${markdownTable(`xlsx (${xlsx.length} workbooks)`, featureTable(XLSX_FEATURES, xlsx))}`);
  console.log('');
  if (args.includes('--files')) {
    for (const result of results) {
      const features = Object.keys(result.source) as Array<keyof typeof result.source>;
      const lost = features.filter((feature) => result.source[feature] > 0).map((feature) => `${String(feature)} ${result.source[feature]}/${result.imported[feature]}/${result.exported[feature]}`);
      console.log(`${result.file}: ${lost.join(', ')}`);
    }
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main(process.argv.slice(2));
