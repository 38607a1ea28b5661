import { getAttributesFromExtensions, resolveExtensions, splitExtensions } from '@tiptap/core';
import { escapeHTML, renderJSONContentToString, serializeChildrenToHTMLString } from '@tiptap/static-renderer/json/html-string';
import type { Mark, Node } from '@tiptap/pm/model';
import { domOutputSpecToHTMLString, mapMarkExtensionToReactNode, mapNodeExtensionToReactNode } from '@tiptap/static-renderer/pm/html-string';
import { documentExtensions } from '../../../model/rich-text/extensions.js';
import { schemaNodeOf, type ProseMirrorNode } from '../../../model/rich-text/schema.js';
import { columnLetters } from '../../../model/sheets/a1.js';
import { styleCss } from '../../../model/sheets/cell-style.js';
import type { ExportSource, ImageAssets, RichTextSource, SlidesSource, WorkbookCell, WorkbookSource } from '../source.js';
import { escapeHtml } from '../../../html-escape.js';
import { shownCellText, type Progress } from './shared.js';

/**
 * Any source → one self-contained HTML page that headless Chromium prints to PDF or photographs to JPEG
 * (render/chromium.ts). Text is escaped, links limited to http(s)/mailto, images are data: URIs of the
 * file's own attachments; fonts come from FONT_ORIGIN, which the renderer serves from the font package
 * (nothing else is fetched: the page's Content-Security-Policy allows only that origin).
 */

/** The origin the renderer answers font requests on; it is never resolved on the network. */
export const FONT_ORIGIN = 'https://svc-export.invalid';
/** CJK-capable font stack: Noto Sans SC (served by the renderer) first, so Chinese never renders as boxes. */
const FONT_STACK = `'Noto Sans SC', 'Noto Sans', Arial, sans-serif`;

/** How the page is printed: rich text and sheets on A4, slides on pages of the slide's own size (CSS pixels). */
export interface PageSetup {
  format?: 'A4';
  landscape?: boolean;
  width?: number;
  height?: number;
  /** page margins in CSS pixels (0 for slides) */
  margin: number;
  /** width of the JPEG in CSS pixels */
  imageWidth: number;
}

export interface RenderedHtml {
  html: string;
  page: PageSetup;
}

interface Context {
  images: ImageAssets;
  progress: Progress;
}

function page(title: string, css: string, body: string, fontCss: string): string {
  const policy = `default-src 'none'; style-src 'unsafe-inline'; font-src ${FONT_ORIGIN}; img-src data:`;
  return `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${policy}"><title>${escapeHtml(title)}</title><style>${fontCss}
html{-webkit-print-color-adjust:exact;print-color-adjust:exact}
body{margin:0;font-family:${FONT_STACK};color:#1f2329;background:#fff}
${css}</style></head><body>${body}</body></html>`;
}

function imageTag(context: Context, attrs: Record<string, unknown> | undefined): string {
  const src = typeof attrs?.src === 'string' ? attrs.src : '';
  const alt = typeof attrs?.alt === 'string' ? attrs.alt : '';
  const asset = context.images[src];
  if (!asset) return `<span class="missing-image">[${escapeHtml(alt || 'image')}]</span>`;
  const width = typeof attrs?.width === 'number' ? ` style="width:${Math.round(attrs.width)}px"` : '';
  return `<img alt="${escapeHtml(alt)}"${width} src="data:${escapeHtml(asset.mimeType)};base64,${Buffer.from(asset.data).toString('base64')}">`;
}

type RenderOptions = Parameters<typeof renderJSONContentToString<Mark, Node>>[0];
type NodeMapping = RenderOptions['nodeMapping'];
type MarkMapping = RenderOptions['markMapping'];

/**
 * How each node and mark of the document's extensions writes itself as HTML (its renderHTML), worked out once
 * per process. Tiptap's renderToHTMLString does this on every call (resolving the extensions, collecting their
 * attributes) and then looks each node's attributes up among those of every extension: that made the pdf's HTML
 * 4-6× slower than the hand-written writer it replaced (docs/PERFORMANCE.md). Here each extension is handed only
 * its own attributes, which renders the same attributes (Tiptap keeps those whose type is the node's name).
 */
let documentMappings: { nodes: NodeMapping; marks: MarkMapping } | undefined;

function mappings(): { nodes: NodeMapping; marks: MarkMapping } {
  if (documentMappings) return documentMappings;
  const extensions = resolveExtensions(documentExtensions());
  const attributes = getAttributesFromExtensions(extensions);
  const own = (name: string) => attributes.filter((attribute) => attribute.type === name);
  const { nodeExtensions, markExtensions } = splitExtensions(extensions);
  documentMappings = {
    nodes: {
      ...Object.fromEntries(nodeExtensions.map((extension) => mapNodeExtensionToReactNode(domOutputSpecToHTMLString, extension, own(extension.name)))),
      doc: ({ children }) => serializeChildrenToHTMLString(children),
      text: ({ node }) => escapeHTML(node.text ?? ''),
    },
    marks: Object.fromEntries(markExtensions.map((extension) => mapMarkExtensionToReactNode(domOutputSpecToHTMLString, extension, own(extension.name)))),
  };
  return documentMappings;
}

/**
 * Blocks as HTML through Tiptap's static renderer: each node and mark writes itself as its extension's
 * renderHTML says (src/model/rich-text/), text and attributes escaped by the renderer. Only pictures are
 * written here: a stored attachment path becomes a data: URI of the file's own image (the page fetches nothing).
 */
function blocks(context: Context, nodes: readonly ProseMirrorNode[]): string {
  context.progress.step(nodes.length);
  const { nodes: nodeMapping, marks: markMapping } = mappings();
  const render = renderJSONContentToString<Mark, Node>({ nodeMapping: { ...nodeMapping, image: ({ node }) => imageTag(context, node.attrs) }, markMapping });
  return render({ content: schemaNodeOf(nodes) });
}

const RICH_TEXT_CSS = `
@page{size:A4;margin:20mm 18mm}
body{font-size:11pt;line-height:1.6}
p{margin:0 0 6pt}h1,h2,h3,h4,h5,h6{margin:12pt 0 6pt;line-height:1.3;break-after:avoid}
h1{font-size:22pt}h2{font-size:18pt}h3{font-size:15pt}h4{font-size:13pt}h5,h6{font-size:11pt}
pre{background:#f3f4f6;padding:8pt;white-space:pre-wrap;font-family:Consolas,monospace;font-size:9.5pt}
code{font-family:Consolas,monospace;background:#f3f4f6}
blockquote{margin:0 0 6pt;padding-left:10pt;border-left:3pt solid #c0c4cc;color:#51565d}
ul[data-type=taskList]{list-style:none;padding-left:4pt}li[data-type=taskItem]{display:flex;gap:4pt}li[data-type=taskItem]>label{flex:none}
table{border-collapse:collapse;width:100%;margin:0 0 8pt}
td,th{border:1px solid #c0c4cc;padding:3pt 5pt;vertical-align:top}
th{background:#f3f4f6;text-align:left}td p,th p{margin:0}
img{max-width:100%}
.mention{color:#1f6feb}.missing-image{color:#888;font-style:italic}
hr{border:0;border-top:1px solid #c0c4cc}a{color:#1f6feb}
.page-break{break-after:page;height:0}
.callout{margin:0 0 6pt;padding:6pt 10pt;border:1px solid #bfdbfe;border-left:3pt solid #3b82f6;background:#eff6ff;border-radius:3pt}.callout p:last-child{margin-bottom:0}
@media screen{body{width:794px;padding:48px 60px;box-sizing:border-box}.page-break{height:auto;margin:18pt 0;border-top:1px dashed #c0c4cc}}`;

function richTextHtml(source: RichTextSource, context: Context, fontCss: string): RenderedHtml {
  return { html: page(source.title, RICH_TEXT_CSS, blocks(context, source.blocks), fontCss), page: { format: 'A4', margin: 0, imageWidth: 794 } };
}

function cellHtml(cell: WorkbookCell | undefined): string {
  // the style's CSS is built from checked values only (#rrggbb colours, three alignments): nothing to escape
  const css = styleCss(cell?.style);
  const style = css === '' ? '' : ` style="${css}"`;
  if (!cell || cell.value === null) return `<td${style}></td>`;
  const kind = cell.error ? ' class="e"' : typeof cell.value === 'number' ? ' class="n"' : typeof cell.value === 'boolean' ? ' class="b"' : '';
  return `<td${kind}${style}>${escapeHtml(shownCellText(cell))}</td>`;
}

const WORKBOOK_CSS = `
@page{size:A4 landscape;margin:12mm}
body{font-size:9pt}
h2{font-size:12pt;margin:0 0 6pt}
section{break-after:page}section:last-child{break-after:auto}
table{border-collapse:collapse}
td,th{border:1px solid #d0d4da;padding:2px 4px;white-space:pre-wrap;vertical-align:bottom;min-width:48px}
th{background:#f3f4f6;color:#51565d;font-weight:normal}
thead{display:table-header-group}
td.n,td.b{text-align:right}td.b{text-align:center}td.e{color:#c0392b}`;

function workbookHtml(source: WorkbookSource, context: Context, fontCss: string): RenderedHtml {
  const sections = source.sheets.map((sheet) => {
    const rows: WorkbookCell[][] = Array.from({ length: sheet.rowCount }, () => []);
    for (const cell of sheet.cells) rows[cell.row]![cell.column] = cell;
    const header = `<tr><th></th>${Array.from({ length: sheet.columnCount }, (_, column) => `<th>${columnLetters(column)}</th>`).join('')}</tr>`;
    const body = rows
      .map((row, index) => {
        context.progress.step(row.reduce((count) => count + 1, 0));
        return `<tr><th>${index + 1}</th>${Array.from({ length: sheet.columnCount }, (_, column) => cellHtml(row[column])).join('')}</tr>`;
      })
      .join('');
    return `<section><h2>${escapeHtml(sheet.name)}</h2><table><thead>${header}</thead><tbody>${body}</tbody></table></section>`;
  });
  return { html: page(source.title, WORKBOOK_CSS, sections.join(''), fontCss), page: { format: 'A4', landscape: true, margin: 0, imageWidth: 1123 } };
}

function slidesHtml(source: SlidesSource, context: Context, fontCss: string): RenderedHtml {
  const css = `
@page{size:${source.width}px ${source.height}px;margin:0}
.slide{position:relative;width:${source.width}px;height:${source.height}px;overflow:hidden;break-after:page;background:#fff}
.slide:last-child{break-after:auto}
@media screen{.slide{border-bottom:8px solid #e5e7eb}.slide:last-child{border-bottom:0}}
.box{position:absolute;overflow:hidden;font-size:18pt;line-height:1.3}
.box p{margin:0}.box h1{font-size:36pt;margin:0}.box h2{font-size:30pt;margin:0}.box h3{font-size:26pt;margin:0}
.box ul,.box ol{margin:0;padding-left:1.2em}
.box img{width:100%;height:100%;object-fit:contain}
.mention{color:#1f6feb}.missing-image{color:#888;font-style:italic}`;
  const slides = source.slides.map((slide) => {
    const boxes = slide.boxes.map((box) => {
      context.progress.step();
      const style = `left:${box.frame.x}px;top:${box.frame.y}px;width:${box.frame.width}px;height:${box.frame.height}px`;
      const content = box.type === 'image' ? imageTag(context, { src: box.src, alt: box.alt }) : blocks({ ...context, progress: { step: () => undefined } }, box.blocks);
      return `<div class="box" style="${style}">${content}</div>`;
    });
    context.progress.step();
    return `<div class="slide">${boxes.join('')}</div>`;
  });
  return { html: page(source.title, css, slides.join(''), fontCss), page: { width: source.width, height: source.height, margin: 0, imageWidth: source.width } };
}

/** The page a source prints as; `fontCss` is the @font-face rules the renderer serves (fontFaceCss). */
export function toHtml(source: ExportSource, progress: Progress, fontCss: string): RenderedHtml {
  const context: Context = { images: 'images' in source ? source.images : {}, progress };
  switch (source.kind) {
    case 'richText':
      return richTextHtml(source, context, fontCss);
    case 'workbook':
      return workbookHtml(source, context, fontCss);
    case 'slides':
      return slidesHtml(source, context, fontCss);
  }
}
