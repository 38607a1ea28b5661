import {
  AlignmentType,
  Bookmark,
  BorderStyle,
  Document,
  ExternalHyperlink,
  HeadingLevel,
  ImageRun,
  LevelFormat,
  Packer,
  PageBreak,
  Paragraph,
  ShadingType,
  Table,
  TableCell,
  TableRow,
  TextRun,
  WidthType,
  type IRunOptions,
  type ParagraphChild,
} from 'docx';
import { sniffImage } from '../../attachments/sniff.js';
import { nodeText, type ProseMirrorNode } from '../../../model/rich-text/schema.js';
import type { ImageAssets, RichTextSource } from '../source.js';
import { safeHref, type Progress } from './shared.js';

/**
 * document / documentPro → .docx (the `docx` package writes the file): headings, paragraphs, marks, links,
 * bullet, numbered and task lists, tables with spans, code blocks, quotes, rules, images of the file's app
 * (others by their text alternative), documentPro bookmarks as Word bookmarks, callouts as shaded, framed paragraphs.
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
}

interface ListPlace {
  level: number;
  ordered: boolean;
  instance: number;
}

type RunOptions = { -readonly [K in keyof IRunOptions]: IRunOptions[K] };

/**
 * Each mark of the document's schema (src/model/rich-text/extensions.ts) and what it sets on a Word run. `link`
 * is written around the run (a hyperlink, in `inlines`); `textStyle` stores nothing of its own (it carries the
 * attributes of other extensions, none of which the model has) and is listed in DOCX_DROPPED.
 */
const MARK_RUNS: Record<string, (options: RunOptions) => void> = {
  bold: (options) => (options.bold = true),
  italic: (options) => (options.italics = true),
  underline: (options) => (options.underline = {}),
  strike: (options) => (options.strike = true),
  code: (options) => (options.font = 'Consolas'),
  highlight: (options) => (options.highlight = 'yellow'),
  subscript: (options) => (options.subScript = true),
  superscript: (options) => (options.superScript = true),
  link: () => undefined,
};

function runOptions(node: ProseMirrorNode): IRunOptions {
  const options: RunOptions = { text: node.text ?? '' };
  for (const mark of node.marks ?? []) MARK_RUNS[mark.type]?.(options);
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

/** Each inline node of the schema and the Word run it writes. */
const INLINE_WRITERS: Record<string, (context: Context, node: ProseMirrorNode) => ParagraphChild | undefined> = {
  text: (_context, node) => {
    const link = node.marks?.find((mark) => mark.type === 'link');
    const href = link ? safeHref(link.attrs?.href) : undefined;
    const run = new TextRun({ ...runOptions(node), ...(href ? { style: 'Hyperlink' } : {}) });
    return href ? new ExternalHyperlink({ link: href, children: [run] }) : run;
  },
  hardBreak: () => new TextRun({ text: '', break: 1 }),
  image: (context, node) => imageRun(context, node.attrs),
  mention: (_context, node) => mentionRun(node),
  fileMention: (_context, node) => mentionRun(node),
  dateMention: (_context, node) => mentionRun(node),
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

function textblock(context: Context, node: ProseMirrorNode, list: ListPlace | undefined, prefix?: string): Paragraph {
  const children = inlines(context, node.content);
  if (prefix) children.unshift(new TextRun({ text: prefix }));
  if (node.type === 'heading') {
    const level = Math.min(Math.max(Number(node.attrs?.level ?? 1) || 1, 1), 6);
    return new Paragraph({ heading: HEADINGS[level - 1], children, ...listNumbering(list) });
  }
  if (node.type === 'codeBlock') {
    const lines = (node.content ?? []).map((child) => child.text ?? '').join('').split('\n');
    return new Paragraph({
      shading: { fill: 'F3F4F6' },
      children: lines.map((line, index) => new TextRun({ text: line, font: 'Consolas', ...(index > 0 ? { break: 1 } : {}) })),
    });
  }
  return new Paragraph({ children, ...listNumbering(list) });
}

function table(context: Context, node: ProseMirrorNode): Table {
  const rows = (node.content ?? []).filter((row) => row.type === 'tableRow');
  return new Table({
    width: { size: 100, type: WidthType.PERCENTAGE },
    rows: rows.map(
      (row) =>
        new TableRow({
          tableHeader: (row.content ?? []).every((cell) => cell.type === 'tableHeader'),
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
  // carries other extensions' attributes (colour, font); the model stores none of them
  marks: ['textStyle'],
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

export async function toDocx(source: RichTextSource, progress: Progress): Promise<Uint8Array> {
  const context: Context = { images: source.images, nextList: 1, pendingBookmark: undefined, progress };
  const children = blocks(context, source.blocks, undefined);
  const document = new Document({
    title: source.title,
    creator: 'Svc',
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
    sections: [{ children: children.length > 0 ? children : [new Paragraph({})] }],
  });
  return new Uint8Array(await Packer.toBuffer(document));
}
