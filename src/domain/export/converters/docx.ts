import {
  AlignmentType,
  Bookmark,
  BorderStyle,
  DeletedTextRun,
  Document,
  ExternalHyperlink,
  Footer,
  FootnoteReferenceRun,
  Header,
  HeadingLevel,
  ImageRun,
  InsertedTextRun,
  InternalHyperlink,
  LevelFormat,
  LineRuleType,
  Packer,
  PageBreak,
  PageNumber,
  PageOrientation,
  Paragraph,
  ShadingType,
  SimpleField,
  Tab,
  TabStopType,
  Table,
  TableCell,
  TableRow,
  TextRun,
  WidthType,
  type IRunOptions,
  type ParagraphChild,
} from 'docx';
import { sniffImage } from '../../attachments/sniff.js';
import { fontFamilyOf, fontSizeOf, hexColor, INDENT_STEP_PT, lineHeightOf, MAX_INDENT, WORD_HIGHLIGHTS } from '../../../model/rich-text/formatting.js';
import { footnoteNote } from '../../../model/rich-text/nodes/footnote.js';
import { DEFAULT_PAGE_SETUP, PAPER_SIZES, segmentsOf, SLOTS, type HeaderFooter, type PageSetup } from '../../../model/rich-text/page-setup.js';
import { nodeText, type ProseMirrorNode } from '../../../model/rich-text/schema.js';
import type { ImageAssets, RichTextSource } from '../source.js';
import { safeHref, type Progress } from './shared.js';

/**
 * document / documentPro → .docx (the `docx` package writes the file): headings, paragraphs, marks, links,
 * bullet, numbered and task lists, tables with spans, code blocks, quotes, rules, images of the file's app
 * (others by their text alternative), documentPro bookmarks as Word bookmarks, callouts as shaded, framed paragraphs,
 * footnotes as Word's (`w:footnoteReference` and the footnotes part).
 */

const HEADINGS = [HeadingLevel.HEADING_1, HeadingLevel.HEADING_2, HeadingLevel.HEADING_3, HeadingLevel.HEADING_4, HeadingLevel.HEADING_5, HeadingLevel.HEADING_6] as const;
const ORDERED = 'ordered-list';
/** Text width of an A4 page with Word's default margins, in pixels at 96 dpi: wider images are scaled down. */
const MAX_IMAGE_WIDTH = 600;
const CJK_FONT = 'Microsoft YaHei';

type Block = Paragraph | Table;

interface Context {
  images: ImageAssets;
  /** next ordered-list instance: each list numbers from its own start */
  nextList: number;
  /** a documentPro bookmark waiting for the first text block inside it */
  pendingBookmark: string | undefined;
  progress: Progress;
  /** Word's revision ids (`w:id`), one per written `w:ins` / `w:del`, counted from 1 */
  nextRevision: number;
  /** the footnotes part (footnotes.xml): each footnote met so far by its id, counted from 1 in document order */
  footnotes: Record<string, { children: Paragraph[] }>;
}

interface ListPlace {
  level: number;
  ordered: boolean;
  instance: number;
}

type RunOptions = { -readonly [K in keyof IRunOptions]: IRunOptions[K] };

/**
 * Each mark of the document's schema (src/model/rich-text/extensions.ts) and what it sets on a Word run. `link`
 * is written around the run (a hyperlink, in `inlines`). `textStyle` carries the font, size and colour
 * (src/model/rich-text/marks/text-style.ts); a highlight in one of Word's colours is a Word highlight, another
 * colour run shading.
 */
const MARK_RUNS: Record<string, (options: RunOptions, attrs: Record<string, unknown>) => void> = {
  bold: (options) => (options.bold = true),
  italic: (options) => (options.italics = true),
  underline: (options) => (options.underline = {}),
  strike: (options) => (options.strike = true),
  code: (options) => (options.font = 'Consolas'),
  highlight: (options, attrs) => {
    const color = hexColor(attrs.color);
    const word = WORD_HIGHLIGHTS[color ?? '#ffff00'];
    if (word) options.highlight = word;
    else if (color) options.shading = { type: ShadingType.CLEAR, fill: color.slice(1), color: 'auto' };
  },
  subscript: (options) => (options.subScript = true),
  superscript: (options) => (options.superScript = true),
  textStyle: (options, attrs) => {
    const family = fontFamilyOf(attrs.fontFamily);
    if (family) options.font = family;
    const size = fontSizeOf(attrs.fontSize);
    // Word counts half points
    if (size) options.size = Math.round(parseFloat(size) * 2);
    const color = hexColor(attrs.color);
    if (color) options.color = color.slice(1);
  },
  link: () => undefined,
  // written around the run (a Word revision, in `suggestedRun`)
  insertion: () => undefined,
  deletion: () => undefined,
};

/**
 * The bookmark a link within the document names (`#name`, as the docx import keeps Word's links to bookmarks, a
 * table of contents' entries for one): written as Word's internal hyperlink (`w:hyperlink w:anchor`). Word's
 * bookmark names are a letter or underscore and then letters, digits and underscores, at most 40 characters.
 */
function bookmarkAnchor(href: unknown): string | undefined {
  const match = typeof href === 'string' ? /^#([A-Za-z_][A-Za-z0-9_]{0,39})$/.exec(href) : null;
  return match ? match[1] : undefined;
}

function runOptions(node: ProseMirrorNode): IRunOptions {
  const options: RunOptions = { text: node.text ?? '' };
  for (const mark of node.marks ?? []) MARK_RUNS[mark.type]?.(options, mark.attrs ?? {});
  return options;
}

function imageRun(context: Context, attrs: Record<string, unknown> | undefined): ParagraphChild | undefined {
  const src = typeof attrs?.src === 'string' ? attrs.src : '';
  const asset = context.images[src];
  const sniffed = asset ? sniffImage(asset.data) : undefined;
  if (!asset || !sniffed || sniffed.mimeType === 'image/webp') {
    const alt = typeof attrs?.alt === 'string' && attrs.alt.length > 0 ? attrs.alt : 'image';
    return new TextRun({ text: `[${alt}]`, italics: true });
  }
  const declaredWidth = typeof attrs?.width === 'number' ? attrs.width : sniffed.width;
  const width = Math.min(declaredWidth, MAX_IMAGE_WIDTH);
  const height = Math.round((sniffed.height * width) / sniffed.width);
  const type = sniffed.mimeType === 'image/png' ? 'png' : sniffed.mimeType === 'image/gif' ? 'gif' : 'jpg';
  return new ImageRun({ type, data: asset.data, transformation: { width, height }, altText: { name: String(attrs?.alt ?? 'image'), description: String(attrs?.alt ?? ''), title: String(attrs?.title ?? '') } });
}

/** Mentions read as their plain text (their renderText); a user mention in the link colour, as the editor shows it. */
function mentionRun(node: ProseMirrorNode): ParagraphChild | undefined {
  const label = nodeText(node);
  return label ? new TextRun({ text: label, ...(node.type === 'mention' ? { color: '1F6FEB' } : {}) }) : undefined;
}

/**
 * A text run that is a suggestion (src/model/rich-text/marks/suggestion.ts) as Word's revision: `w:ins` or
 * `w:del` with the author's name (their user id when no name was kept) and the time. Zero-width anchors the
 * suggesting mode puts at block edges are left out; a run of nothing else writes nothing.
 */
function suggestedRun(context: Context, node: ProseMirrorNode, options: IRunOptions): ParagraphChild | null | undefined {
  const mark = node.marks?.find((candidate) => candidate.type === 'insertion' || candidate.type === 'deletion');
  if (!mark) return undefined;
  const text = (node.text ?? '').replace(/\u200B/g, '');
  if (!text) return null;
  const attrs = mark.attrs ?? {};
  const author = typeof attrs.authorName === 'string' && attrs.authorName ? attrs.authorName : typeof attrs.author === 'string' && attrs.author ? attrs.author : 'Unknown';
  const date = typeof attrs.date === 'string' && !Number.isNaN(Date.parse(attrs.date)) ? new Date(attrs.date).toISOString().replace(/\.\d{3}Z$/, 'Z') : new Date(0).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const revision = { ...options, text, id: context.nextRevision++, author, date };
  return mark.type === 'insertion' ? new InsertedTextRun(revision) : new DeletedTextRun(revision);
}

/** Each inline node of the schema and the Word run it writes. */
const INLINE_WRITERS: Record<string, (context: Context, node: ProseMirrorNode) => ParagraphChild | undefined> = {
  text: (context, node) => {
    const suggested = suggestedRun(context, node, runOptions(node));
    if (suggested !== undefined) return suggested ?? undefined;
    const link = node.marks?.find((mark) => mark.type === 'link');
    const href = link ? safeHref(link.attrs?.href) : undefined;
    const anchor = link && !href ? bookmarkAnchor(link.attrs?.href) : undefined;
    const run = new TextRun({ ...runOptions(node), ...(href || anchor ? { style: 'Hyperlink' } : {}) });
    if (href) return new ExternalHyperlink({ link: href, children: [run] });
    return anchor ? new InternalHyperlink({ anchor, children: [run] }) : run;
  },
  hardBreak: () => new TextRun({ text: '', break: 1 }),
  image: (context, node) => imageRun(context, node.attrs),
  mention: (_context, node) => mentionRun(node),
  fileMention: (_context, node) => mentionRun(node),
  dateMention: (_context, node) => mentionRun(node),
  footnote: (context, node) => {
    const id = Object.keys(context.footnotes).length + 1;
    context.footnotes[id] = { children: footnoteNote(node.attrs).split('\n').map((line) => new Paragraph({ children: [new TextRun(line)] })) };
    return new FootnoteReferenceRun(id);
  },
};

function inlines(context: Context, nodes: readonly ProseMirrorNode[] = []): ParagraphChild[] {
  const children: ParagraphChild[] = [];
  for (const node of nodes) {
    // an inline node of another model version: its text
    const write = INLINE_WRITERS[node.type];
    const child = write ? write(context, node) : mentionRun(node);
    if (child) children.push(child);
  }
  const bookmark = context.pendingBookmark;
  if (bookmark === undefined) return children;
  context.pendingBookmark = undefined;
  return [new Bookmark({ id: bookmark, children })];
}

function listNumbering(list: ListPlace | undefined): Partial<{ bullet: { level: number }; numbering: { reference: string; level: number; instance: number } }> {
  if (!list) return {};
  return list.ordered ? { numbering: { reference: ORDERED, level: list.level, instance: list.instance } } : { bullet: { level: list.level } };
}

const ALIGNMENTS: Readonly<Record<string, (typeof AlignmentType)[keyof typeof AlignmentType]>> = {
  center: AlignmentType.CENTER,
  right: AlignmentType.RIGHT,
  justify: AlignmentType.JUSTIFIED,
};

/**
 * Paragraph formatting (src/model/rich-text/paragraph-format.ts) as Word paragraph properties: `w:jc`, line
 * spacing in 240ths of a line (`w:spacing w:line`, rule auto), left indent in twips (`w:ind w:left`, not on a list
 * item, whose indent is its level's).
 */
function paragraphFormat(node: ProseMirrorNode, list: ListPlace | undefined) {
  const attrs = node.attrs ?? {};
  const alignment = typeof attrs.textAlign === 'string' ? ALIGNMENTS[attrs.textAlign] : undefined;
  const lineHeight = lineHeightOf(attrs.lineHeight);
  const indent = list ? 0 : Math.min(MAX_INDENT, Math.max(0, Math.round(Number(attrs.indent) || 0)));
  return {
    ...(alignment ? { alignment } : {}),
    ...(lineHeight ? { spacing: { line: Math.round(Number(lineHeight) * 240), lineRule: LineRuleType.AUTO } } : {}),
    ...(indent > 0 ? { indent: { left: indent * INDENT_STEP_PT * 20 } } : {}),
  };
}

function textblock(context: Context, node: ProseMirrorNode, list: ListPlace | undefined, prefix?: string): Paragraph {
  const children = inlines(context, node.content);
  if (prefix) children.unshift(new TextRun({ text: prefix }));
  if (node.type === 'heading') {
    const level = Math.min(Math.max(Number(node.attrs?.level ?? 1) || 1, 1), 6);
    return new Paragraph({ heading: HEADINGS[level - 1], children, ...listNumbering(list), ...paragraphFormat(node, list) });
  }
  if (node.type === 'codeBlock') {
    const lines = (node.content ?? []).map((child) => child.text ?? '').join('').split('\n');
    return new Paragraph({
      shading: { fill: 'F3F4F6' },
      children: lines.map((line, index) => new TextRun({ text: line, font: 'Consolas', ...(index > 0 ? { break: 1 } : {}) })),
    });
  }
  return new Paragraph({ children, ...listNumbering(list), ...paragraphFormat(node, list) });
}

function table(context: Context, node: ProseMirrorNode): Table {
  const rows = (node.content ?? []).filter((row) => row.type === 'tableRow');
  return new Table({
    width: { size: 100, type: WidthType.PERCENTAGE },
    rows: rows.map(
      (row) =>
        new TableRow({
          // only a header row says so: `tableHeader: false` writes <w:tblHeader w:val="false"/>, which mammoth (the
          // docx import) and other readers take for a header row, as they do any w:tblHeader element
          ...((row.content ?? []).every((cell) => cell.type === 'tableHeader') ? { tableHeader: true } : {}),
          children: (row.content ?? []).map((cell) => {
            const content = blocks(context, cell.content ?? [], undefined);
            return new TableCell({
              columnSpan: Math.max(1, Number(cell.attrs?.colspan ?? 1) || 1),
              rowSpan: Math.max(1, Number(cell.attrs?.rowspan ?? 1) || 1),
              ...(cell.type === 'tableHeader' ? { shading: { fill: 'F3F4F6' } } : {}),
              // a cell must hold at least one paragraph
              children: content.length > 0 ? content : [new Paragraph({})],
            });
          }),
        }),
    ),
  });
}

/** How a run of paragraphs is set off: a quote by a grey rule on its left, a callout by a blue frame and a tint. */
type Frame = 'quote' | 'callout' | undefined;

function framed(context: Context, node: ProseMirrorNode, frame: Exclude<Frame, undefined>): Paragraph {
  const children = inlines(context, node.content);
  if (frame === 'quote') return new Paragraph({ children, indent: { left: 720 }, border: { left: { style: BorderStyle.SINGLE, size: 12, color: 'C0C4CC', space: 8 } } });
  const side = { style: BorderStyle.SINGLE, size: 6, color: 'BFDBFE', space: 4 };
  return new Paragraph({ children, shading: { type: ShadingType.CLEAR, fill: 'EFF6FF', color: 'auto' }, border: { top: side, bottom: side, right: side, left: { ...side, size: 18, color: '3B82F6' } } });
}

type BlockWriter = (context: Context, node: ProseMirrorNode, list: ListPlace | undefined, frame: Frame) => Block[];

function textblockWriter(context: Context, node: ProseMirrorNode, list: ListPlace | undefined, frame: Frame): Block[] {
  return [frame ? framed(context, node, frame) : textblock(context, node, list)];
}

function listWriter(context: Context, node: ProseMirrorNode, list: ListPlace | undefined): Block[] {
  const out: Block[] = [];
  const ordered = node.type === 'orderedList';
  const place: ListPlace = { level: list ? Math.min(list.level + 1, 8) : 0, ordered, instance: ordered ? context.nextList++ : 0 };
  for (const item of node.content ?? []) {
    const [first, ...rest] = item.content ?? [];
    if (node.type === 'taskList') {
      const mark = item.attrs?.checked === true || item.attrs?.checked === 'true' ? '☑ ' : '☐ ';
      if (first) out.push(textblock(context, first, undefined, mark));
    } else if (first && (first.type === 'paragraph' || first.type === 'heading')) {
      out.push(textblock(context, first, place));
    } else if (first) {
      out.push(...blocks(context, [first], place));
    }
    out.push(...blocks(context, rest, place));
  }
  return out;
}

/**
 * Each block node of the schema and the Word paragraphs or table it writes. List items, task items, table rows
 * and cells are written by their list's or table's writer (WRITTEN_BY_PARENT).
 */
const BLOCK_WRITERS: Record<string, BlockWriter> = {
  paragraph: textblockWriter,
  heading: textblockWriter,
  codeBlock: textblockWriter,
  blockquote: (context, node, list) => blocks(context, node.content ?? [], list, 'quote'),
  callout: (context, node, list) => blocks(context, node.content ?? [], list, 'callout'),
  bulletList: listWriter,
  orderedList: listWriter,
  taskList: listWriter,
  table: (context, node) => [table(context, node)],
  image: (context, node) => {
    const image = imageRun(context, node.attrs);
    return [new Paragraph({ alignment: AlignmentType.CENTER, children: image ? [image] : [] })];
  },
  // as Word writes Ctrl+Enter: a paragraph holding the break (the docx reader turns it back into one pageBreak)
  pageBreak: () => [new Paragraph({ children: [new PageBreak()] })],
  horizontalRule: () => [new Paragraph({ border: { bottom: { style: BorderStyle.SINGLE, size: 6, color: 'C0C4CC', space: 1 } }, children: [] })],
  bookmark: (context, node, list, frame) => {
    if (typeof node.attrs?.name === 'string') context.pendingBookmark = node.attrs.name;
    const written = blocks(context, node.content ?? [], list, frame);
    context.pendingBookmark = undefined;
    return written;
  },
};

const WRITTEN_BY_PARENT = ['doc', 'listItem', 'taskItem', 'tableRow', 'tableCell', 'tableHeader'] as const;

/** What has no Word form of its own, and why. */
export const DOCX_DROPPED: { nodes: readonly string[]; marks: readonly string[] } = {
  nodes: [],
  // a proposed change of formatting: Word's property revisions (`w:rPrChange`) are not written yet; the text stays
  marks: ['modification'],
};

/** The nodes and marks the docx writer has a form for: a test holds this against the document's schema. */
export const DOCX_FORMS = {
  nodes: [...Object.keys(BLOCK_WRITERS), ...Object.keys(INLINE_WRITERS), ...WRITTEN_BY_PARENT],
  marks: Object.keys(MARK_RUNS),
};

function blocks(context: Context, nodes: readonly ProseMirrorNode[], list: ListPlace | undefined, frame: Frame = undefined): Block[] {
  const out: Block[] = [];
  for (const node of nodes) {
    context.progress.step();
    const write = BLOCK_WRITERS[node.type];
    if (write) out.push(...write(context, node, list, frame));
    // an unknown container: its content, so no text is lost
    else if (node.content) out.push(...blocks(context, node.content, list, frame));
  }
  return out;
}

/** Word's field for each page setup field; DATE as Word shows it by default. */
const WORD_FIELDS = { page: () => PageNumber.CURRENT, pages: () => PageNumber.TOTAL_PAGES, date: () => new SimpleField('DATE') } as const;
/** Millimetres to Word's twips (1440 per inch), rounded (the package's own conversion truncates). */
const twips = (mm: number) => Math.round((mm * 1440) / 25.4);
/** Header and footer: distance from the paper's edge, as Word's default (0.5 in). */
const HEADER_DISTANCE_MM = 12.7;

/**
 * A header or footer line as Word's one paragraph: left text, a tab to a centre stop, the centre text, a tab to a
 * right stop at the text's right edge, the right text (Word's Header and Footer styles are built so). Fields are
 * Word's PAGE, NUMPAGES and DATE; undefined for an empty line (no part is written).
 */
function headerFooterParagraph(line: HeaderFooter, textWidthMm: number): Paragraph | undefined {
  if (SLOTS.every((slot) => line[slot] === '')) return undefined;
  const children: ParagraphChild[] = [];
  SLOTS.forEach((slot, index) => {
    if (index > 0) children.push(new TextRun({ children: [new Tab()] }));
    for (const segment of segmentsOf(line[slot])) {
      if (!('field' in segment)) children.push(new TextRun(segment.text));
      else if (segment.field === 'date') children.push(WORD_FIELDS.date());
      else children.push(new TextRun({ children: [WORD_FIELDS[segment.field]()] }));
    }
  });
  const width = twips(textWidthMm);
  return new Paragraph({ tabStops: [{ type: TabStopType.CENTER, position: Math.round(width / 2) }, { type: TabStopType.RIGHT, position: width }], children });
}

/** The page setup as Word's section: `w:pgSz` (with `w:orient`), `w:pgMar`, and header and footer parts. */
function sectionOf(setup: PageSetup) {
  const paper = PAPER_SIZES[setup.size];
  const { margins } = setup;
  const textWidth = (setup.orientation === 'landscape' ? paper.height : paper.width) - margins.left - margins.right;
  const header = headerFooterParagraph(setup.header, textWidth);
  const footer = headerFooterParagraph(setup.footer, textWidth);
  return {
    properties: {
      page: {
        // given portrait: the package swaps width and height for landscape
        size: { width: twips(paper.width), height: twips(paper.height), orientation: setup.orientation === 'landscape' ? PageOrientation.LANDSCAPE : PageOrientation.PORTRAIT },
        margin: { top: twips(margins.top), bottom: twips(margins.bottom), left: twips(margins.left), right: twips(margins.right), header: twips(Math.min(HEADER_DISTANCE_MM, margins.top)), footer: twips(Math.min(HEADER_DISTANCE_MM, margins.bottom)) },
      },
    },
    ...(header ? { headers: { default: new Header({ children: [header] }) } } : {}),
    ...(footer ? { footers: { default: new Footer({ children: [footer] }) } } : {}),
  };
}

export async function toDocx(source: RichTextSource, progress: Progress): Promise<Uint8Array> {
  const context: Context = { images: source.images, nextList: 1, pendingBookmark: undefined, progress, nextRevision: 1, footnotes: {} };
  const children = blocks(context, source.blocks, undefined);
  const document = new Document({
    title: source.title,
    creator: 'Svc',
    footnotes: context.footnotes,
    styles: { default: { document: { run: { font: { ascii: 'Calibri', hAnsi: 'Calibri', eastAsia: CJK_FONT } } } } },
    numbering: {
      config: [
        {
          reference: ORDERED,
          levels: Array.from({ length: 9 }, (_, level) => ({
            level,
            format: [LevelFormat.DECIMAL, LevelFormat.LOWER_LETTER, LevelFormat.LOWER_ROMAN][level % 3]!,
            text: `%${level + 1}.`,
            alignment: AlignmentType.START,
            style: { paragraph: { indent: { left: 720 * (level + 1), hanging: 360 } } },
          })),
        },
      ],
    },
    sections: [
      {
        // paper, margins, header and footer as the pdf prints them (a document: A4 with "n / total" in the footer)
        ...sectionOf(source.pageSetup ?? DEFAULT_PAGE_SETUP),
        children: children.length > 0 ? children : [new Paragraph({})],
      },
    ],
  });
  return new Uint8Array(await Packer.toBuffer(document));
}
