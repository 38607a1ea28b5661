import { getAttributesFromExtensions, resolveExtensions, splitExtensions } from '@tiptap/core';
import { escapeHTML, renderJSONContentToString, serializeChildrenToHTMLString } from '@tiptap/static-renderer/json/html-string';
import type { Mark, Node } from '@tiptap/pm/model';
import { domOutputSpecToHTMLString, mapMarkExtensionToReactNode, mapNodeExtensionToReactNode } from '@tiptap/static-renderer/pm/html-string';
import { documentExtensions } from '../../../model/rich-text/extensions.js';
import { FOOTNOTE_HTML, footnoteNote } from '../../../model/rich-text/nodes/footnote.js';
import { DEFAULT_PAGE_SETUP, pageDimensions, PAPER_SIZES, segmentsOf, SLOTS, type HeaderFooter, type PageMargins, type PaperSize } from '../../../model/rich-text/page-setup.js';
import { schemaNodeOf, type ProseMirrorNode } from '../../../model/rich-text/schema.js';
import { columnLetters } from '../../../model/sheets/a1.js';
import { styleCss, type CellStyle } from '../../../model/sheets/cell-style.js';
import type { ConditionalLook } from '../../../model/sheets/conditional-formats.js';
import type { ExportSource, ImageAssets, RichTextSource, SlidesSource, WorkbookCell, WorkbookChart, WorkbookSource } from '../source.js';
import { escapeHtml } from '../../../html-escape.js';
import { ARROW_HEAD, cropPlacement, shapeDrawing, type ShapeLook } from '../../../model/slides.js';
import { shownCellText, type Progress } from './shared.js';
import { WATERMARK_STYLE, watermarkCopies, watermarkLineOffsets } from '../../../model/watermark.js';

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

/** How the page is printed: rich text on its page setup's paper, sheets on A4, slides on pages of the slide's own size (CSS pixels). */
export interface PageSetup {
  format?: PaperSize;
  landscape?: boolean;
  width?: number;
  height?: number;
  /** page margins in CSS pixels (0 for slides) */
  margin: number;
  /** width of the JPEG in CSS pixels */
  imageWidth: number;
  /** rich text: the lines printed in the top and bottom margins of every page, and those margins (documentPro's page setup, millimetres) */
  header?: HeaderFooter;
  footer?: HeaderFooter;
  margins?: PageMargins;
}

/** Chromium's print templates fill these classes with the page's number, the page count and the date. */
const TEMPLATE_FIELDS = { page: 'pageNumber', pages: 'totalPages', date: 'date' } as const;

/**
 * A header or footer line as a Chromium print template (its headerTemplate / footerTemplate): the three slots
 * between the page's side margins, fields as the spans Chromium fills in. Templates are drawn in the top and
 * bottom margins and take no style from the page, so the font is set here; `edge` is the distance from the paper's edge.
 */
export function printTemplate(line: HeaderFooter | undefined, margins: { left: number; right: number }, edge: 'top' | 'bottom'): string {
  if (!line || SLOTS.every((slot) => line[slot] === '')) return '<span></span>';
  const slot = (name: (typeof SLOTS)[number]) =>
    `<span style="flex:1;text-align:${name}">${segmentsOf(line[name])
      .map((segment) => ('field' in segment ? `<span class="${TEMPLATE_FIELDS[segment.field]}"></span>` : escapeHtml(segment.text)))
      .join('')}</span>`;
  return `<div style="box-sizing:border-box;width:100%;display:flex;gap:8px;padding:0 ${margins.right}mm 0 ${margins.left}mm;margin-${edge}:8mm;font-family:${FONT_STACK};font-size:9px;color:#51565d;white-space:pre">${SLOTS.map(slot).join('')}</div>`;
}

/** Millimetres to CSS pixels (96 per inch). */
export const mmToPx = (mm: number) => (mm * 96) / 25.4;

/** Tallest JPEG we make, in CSS pixels: a longer document is refused for jpg (export it as pdf). */
export const MAX_IMAGE_HEIGHT = 32_000;

/**
 * The watermark of the user the file is exported for (src/model/watermark.ts), and what it is printed on: on
 * every page of a pdf (a fixed layer, which Chromium repeats on each printed page) or over the whole of a jpg.
 */
export interface ExportWatermark {
  lines: string[];
  medium: 'pdf' | 'jpg';
}

export interface RenderedHtml {
  html: string;
  page: PageSetup;
}

interface Context {
  images: ImageAssets;
  progress: Progress;
  /** HTML drawn over the page (the watermark), or '' */
  overlay: string;
}

function page(title: string, css: string, body: string, fontCss: string, overlay: string): string {
  const policy = `default-src 'none'; style-src 'unsafe-inline'; font-src ${FONT_ORIGIN}; img-src data:`;
  return `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${policy}"><title>${escapeHtml(title)}</title><style>${fontCss}
html{-webkit-print-color-adjust:exact;print-color-adjust:exact}
body{margin:0;font-family:${FONT_STACK};color:#1f2329;background:#fff}
${css}</style></head><body>${overlay}${body}</body></html>`;
}

/**
 * The watermark as HTML over the page: copies of the lines at the places watermarkCopies gives for the page's
 * area, each rotated by CSS (text rotated inside an SVG is printed on the first pdf page only, and a pattern or
 * background image is no text at all: both were measured). Real text, so the pdf carries it as text.
 */
function watermarkLayer(watermark: ExportWatermark, setup: PageSetup): string {
  const { angle, fontSize, lineHeight, color, opacity } = WATERMARK_STYLE;
  const paper = setup.format && pageDimensions({ size: setup.format, orientation: setup.landscape ? 'landscape' : 'portrait' });
  const pageWidth = paper ? Math.round(mmToPx(paper.width)) : (setup.width ?? setup.imageWidth);
  const pageHeight = paper ? Math.round(mmToPx(paper.height)) : (setup.height ?? MAX_IMAGE_HEIGHT);
  const width = watermark.medium === 'pdf' ? pageWidth : setup.imageWidth;
  const height = watermark.medium === 'pdf' ? pageHeight : MAX_IMAGE_HEIGHT;
  const offsets = watermarkLineOffsets(watermark.lines.length);
  const lines = watermark.lines.map((line, index) => `<span style="top:${offsets[index]! - lineHeight / 2}px">${escapeHtml(line)}</span>`).join('');
  const copies = watermarkCopies(width, height)
    .map(({ x, y }) => `<div class="svc-wm-copy" style="left:${x}px;top:${y}px">${lines}</div>`)
    .join('');
  // pdf: fixed, so every printed page has it; jpg: over the body, as tall as the whole image
  const position = watermark.medium === 'pdf' ? 'position:fixed;inset:0' : 'position:absolute;left:0;top:0;right:0;bottom:0';
  const css =
    `.svc-wm{${position};overflow:hidden;pointer-events:none;z-index:2147483647;font-family:${FONT_STACK};font-size:${fontSize}px;line-height:${lineHeight}px;color:${color};opacity:${opacity}}` +
    `.svc-wm-copy{position:absolute;width:0;height:0;transform:rotate(${angle}deg)}` +
    `.svc-wm-copy span{position:absolute;left:0;white-space:nowrap;transform:translateX(-50%)}` +
    (watermark.medium === 'jpg' ? 'body{position:relative}' : '');
  return `<style>${css}</style><div class="svc-wm" aria-hidden="true">${copies}</div>`;
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
function blocks(context: Context, nodes: readonly ProseMirrorNode[], notes: string[] = []): string {
  context.progress.step(nodes.length);
  const { nodes: nodeMapping, marks: markMapping } = mappings();
  const render = renderJSONContentToString<Mark, Node>({
    nodeMapping: { ...nodeMapping, image: ({ node }) => imageTag(context, node.attrs), footnote: ({ node }) => footnoteReference(notes, footnoteNote(node.attrs)) },
    markMapping,
  });
  return render({ content: schemaNodeOf(nodes) });
}

/**
 * A footnote's reference, numbered in document order (the renderer meets them in that order), linked to its note.
 * The ids are mammoth's (`footnote-ref-n` → `footnote-n`), so the html import reads an exported page's notes back
 * as it reads a Word file's (rich-text-html.ts); the reference keeps its note in `data-note` as the editor writes it.
 */
function footnoteReference(notes: string[], note: string): string {
  const number = notes.push(note);
  return `<sup class="${FOOTNOTE_HTML.class}" ${FOOTNOTE_HTML.attribute}="" data-note="${escapeHtml(note)}"><a href="#footnote-${number}" id="footnote-ref-${number}">${number}</a></sup>`;
}

/** The notes after the text, each with a link back to its reference (the pdf moves each to the bottom of its page: render/footnote-pages.ts). */
function footnotesSection(notes: readonly string[]): string {
  if (notes.length === 0) return '';
  const items = notes.map((note, index) => `<li id="footnote-${index + 1}"><p>${escapeHtml(note)} <a href="#footnote-ref-${index + 1}" aria-label="↑ ${index + 1}">↑</a></p></li>`);
  return `<section class="footnotes"><ol>${items.join('')}</ol></section>`;
}

const RICH_TEXT_CSS = `
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
.footnote-ref{line-height:0}.footnote-ref a{text-decoration:none}
.footnotes{margin-top:18pt;padding-top:6pt;border-top:1px solid #c0c4cc;font-size:9pt}.footnotes ol{margin:0;padding-left:18pt}.footnotes p{margin:0 0 3pt}
.callout{margin:0 0 6pt;padding:6pt 10pt;border:1px solid #bfdbfe;border-left:3pt solid #3b82f6;background:#eff6ff;border-radius:3pt}.callout p:last-child{margin-bottom:0}
@media screen{body{box-sizing:border-box}.page-break{height:auto;margin:18pt 0;border-top:1px dashed #c0c4cc}}`;

/** The paper and margins of the page setup as CSS: printed pages take them, the jpg is one page wide with the side margins. */
function richTextCss(source: RichTextSource): string {
  const { size, orientation, margins } = source.pageSetup ?? DEFAULT_PAGE_SETUP;
  const width = Math.round(mmToPx(pageDimensions({ size, orientation }).width));
  return `@page{size:${size} ${orientation};margin:${margins.top}mm ${margins.right}mm ${margins.bottom}mm ${margins.left}mm}
@media screen{body{width:${width}px;padding:48px ${margins.right}mm 48px ${margins.left}mm}}${RICH_TEXT_CSS}`;
}

function richTextHtml(source: RichTextSource, context: Context, fontCss: string): string {
  const notes: string[] = [];
  const body = blocks(context, source.blocks, notes);
  return page(source.title, richTextCss(source), body + footnotesSection(notes), fontCss, context.overlay);
}

/** A conditional look as CSS after the cell's own style (so its fill and colour win), a data bar as a gradient over the fill. */
function lookCss(look: ConditionalLook | undefined): string {
  if (!look) return '';
  const declarations: string[] = [];
  const bar = look.bar && `linear-gradient(to right,${look.bar.color} ${Math.max(2, Math.round(look.bar.fraction * 100))}%,transparent 0)`;
  if (bar || look.fill) declarations.push(`background:${[bar, look.fill].filter(Boolean).join(',')}`);
  if (look.color) declarations.push(`color:${look.color}`);
  if (look.bold) declarations.push('font-weight:bold');
  if (look.italic) declarations.push('font-style:italic');
  return declarations.join(';');
}

/** A cell as a table cell; `lineStyle`: its row's, else its column's style, which an absent cell shows. */
function cellHtml(cell: WorkbookCell | undefined, lineStyle: CellStyle | undefined): string {
  // the CSS is built from checked values only (#rrggbb colours, three alignments, numbers): nothing to escape
  const css = [styleCss(cell ? cell.style : lineStyle), lookCss(cell?.look)].filter(Boolean).join(';');
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
td.n,td.b{text-align:right}td.b{text-align:center}td.e{color:#c0392b}
.charts{display:flex;flex-wrap:wrap;gap:12pt;margin-top:12pt}
figure{margin:0;max-width:100%;break-inside:avoid;border:1px solid #d0d4da}figure svg{display:block;max-width:100%;height:auto}`;

function workbookHtml(source: WorkbookSource, context: Context, fontCss: string): string {
  const sections = source.sheets.map((sheet) => {
    const rows: WorkbookCell[][] = Array.from({ length: sheet.rowCount }, () => []);
    for (const cell of sheet.cells) rows[cell.row]![cell.column] = cell;
    const header = `<tr><th></th>${Array.from({ length: sheet.columnCount }, (_, column) => `<th>${columnLetters(column)}</th>`).join('')}</tr>`;
    const body = rows
      .map((row, index) => {
        context.progress.step(row.reduce((count) => count + 1, 0));
        // a row's own height (a minimum, as a table row taller content still grows: nothing is cut in print)
        const height = sheet.rowHeights[index];
        return `<tr${height === undefined ? '' : ` style="height:${height}px"`}><th>${index + 1}</th>${Array.from({ length: sheet.columnCount }, (_, column) => cellHtml(row[column], sheet.rowStyles?.[index] ?? sheet.columnStyles?.[column])).join('')}</tr>`;
      })
      .join('');
    // charts after the sheet's cells, at their size (narrowed to the page): the table's columns are not the editor's
    // widths, so a chart could not sit over the same cells as in the editor (docs/SHEETS.md "Charts")
    const charts = sheet.charts?.length ? `<div class="charts">${sheet.charts.map(chartFigure).join('')}</div>` : '';
    return `<section><h2>${escapeHtml(sheet.name)}</h2><table><thead>${header}</thead><tbody>${body}</tbody></table>${charts}</section>`;
  });
  return page(source.title, WORKBOOK_CSS, sections.join(''), fontCss, context.overlay);
}

/** A chart as drawn (the SVG of chart-svg.ts) in a frame of its size. */
function chartFigure(chart: WorkbookChart): string {
  return `<figure style="width:${chart.chart.anchor.width}px">${chart.svg ?? ''}</figure>`;
}

/** A page showing one chart alone at its size, which the renderer photographs as the chart's picture (the xlsx export). */
export function chartPictureHtml(chart: WorkbookChart, fontCss: string): RenderedHtml {
  const { width, height } = chart.chart.anchor;
  return { html: page(chart.chart.title, 'svg{display:block}', chart.svg ?? '', fontCss, ''), page: { width, height, margin: 0, imageWidth: width } };
}

/** A font family from the model's list as a CSS value, falling back on the page's fonts (which the renderer serves, CJK too). */
function cssFont(family: string): string {
  return `'${family.replace(/[^A-Za-z0-9 ]/g, '')}',${FONT_STACK}`;
}

/** A shape as inline SVG (src/model/slides.ts shapeDrawing: the same drawing as the editor's). */
function shapeSvg(look: ShapeLook, width: number, height: number, id: string): string {
  const drawing = shapeDrawing(look, width, height);
  const attributes = (values: Record<string, string>) => Object.entries(values).map(([name, value]) => `${name}="${escapeHtml(value)}"`).join(' ');
  const marker = drawing.arrowHead ? `<defs><marker id="${id}" ${attributes(ARROW_HEAD.attributes)}><path d="${ARROW_HEAD.path}" fill="${escapeHtml(look.outline)}"/></marker></defs>` : '';
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" style="overflow:visible">${marker}<${drawing.element} ${attributes(drawing.attributes)}${drawing.arrowHead ? ` marker-end="url(#${id})"` : ''}/></svg>`;
}

function slidesHtml(source: SlidesSource, context: Context, fontCss: string): string {
  const css = `
@page{size:${source.width}px ${source.height}px;margin:0}
.slide{position:relative;width:${source.width}px;height:${source.height}px;overflow:hidden;break-after:page;background:#fff}
.slide:last-child{break-after:auto}
@media screen{.slide{border-bottom:8px solid #e5e7eb}.slide:last-child{border-bottom:0}}
.box{position:absolute;overflow:hidden;font-size:18pt;line-height:1.3}
.box p{margin:0}.box h1{font-size:36pt;margin:0}.box h2{font-size:30pt;margin:0}.box h3{font-size:26pt;margin:0}
.box ul,.box ol{margin:0;padding-left:1.2em}
.box img{width:100%;height:100%;object-fit:contain}
.box .cropped{position:absolute}.box .cropped img{display:block;object-fit:fill}
.mention{color:#1f6feb}.missing-image{color:#888;font-style:italic}`;
  let shapes = 0;
  const slides = source.slides.map((slide) => {
    const boxes = slide.boxes.map((box) => {
      context.progress.step();
      const frame = `left:${box.frame.x}px;top:${box.frame.y}px;width:${box.frame.width}px;`;
      if (box.type === 'shape') return `<div class="box" style="${frame}height:${box.frame.height}px;overflow:visible">${shapeSvg(box.look, box.frame.width, box.frame.height, `arrow-${++shapes}`)}</div>`;
      if (box.type === 'image') {
        // a cropped picture as the editor draws it (src/model/slides.ts cropPlacement): placed past the box, clipped to it
        const placement = box.crop ? cropPlacement(box.crop) : undefined;
        const cropped = placement ? `<div class="cropped" style="left:${placement.left}%;top:${placement.top}%;width:${placement.width}%;height:${placement.height}%;clip-path:${placement.clipPath}">` : '';
        return `<div class="box" style="${frame}height:${box.frame.height}px">${cropped}${imageTag(context, { src: box.src, alt: box.alt })}${placement ? '</div>' : ''}</div>`;
      }
      // a text box grows with its text, as in the editor; its font, size, colour and alignment are the box's or the theme's
      const font = box.style.fontFamily ?? (box.placeholder === 'title' ? slide.theme.headingFont : slide.theme.bodyFont);
      const look = `min-height:${box.frame.height}px;overflow:visible;font-family:${cssFont(font)};color:${box.style.color ?? slide.theme.text};${box.style.fontSize ? `font-size:${box.style.fontSize}px;` : ''}text-align:${box.style.align ?? 'left'}${box.placeholder === 'title' ? ';font-weight:600' : ''}`;
      return `<div class="box" style="${frame}${look}">${blocks({ ...context, progress: { step: () => undefined } }, box.blocks)}</div>`;
    });
    context.progress.step();
    return `<div class="slide" style="background:${slide.theme.background}">${boxes.join('')}</div>`;
  });
  return page(source.title, css, slides.join(''), fontCss, context.overlay);
}

/** How each kind of source is printed (the watermark's area depends on it). */
function pageSetupOf(source: ExportSource): PageSetup {
  switch (source.kind) {
    case 'richText': {
      const { size, orientation, header, footer, margins } = source.pageSetup ?? DEFAULT_PAGE_SETUP;
      return { format: size, landscape: orientation === 'landscape', margin: 0, imageWidth: Math.round(mmToPx(pageDimensions({ size, orientation }).width)), header, footer, margins };
    }
    case 'workbook':
      return { format: 'A4', landscape: true, margin: 0, imageWidth: Math.round(mmToPx(PAPER_SIZES.A4.height)) };
    case 'slides':
      return { width: source.width, height: source.height, margin: 0, imageWidth: source.width };
  }
}

/**
 * The page a source prints as; `fontCss` is the @font-face rules the renderer serves (fontFaceCss); `watermark`:
 * the exporting user's watermark, drawn over every page (none when absent or without lines).
 */
export function toHtml(source: ExportSource, progress: Progress, fontCss: string, watermark?: ExportWatermark): RenderedHtml {
  const setup = pageSetupOf(source);
  const overlay = watermark && watermark.lines.length > 0 ? watermarkLayer(watermark, setup) : '';
  const context: Context = { images: 'images' in source ? source.images : {}, progress, overlay };
  switch (source.kind) {
    case 'richText':
      return { html: richTextHtml(source, context, fontCss), page: setup };
    case 'workbook':
      return { html: workbookHtml(source, context, fontCss), page: setup };
    case 'slides':
      return { html: slidesHtml(source, context, fontCss), page: setup };
  }
}
