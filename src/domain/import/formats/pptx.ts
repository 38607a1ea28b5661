import path from 'node:path';
import { parse } from 'pptxtojson/dist/index.js';
import { sniffImage } from '../../attachments/sniff.js';
import { SLIDE_HEIGHT, SLIDE_WIDTH } from '../../../model/content.js';
import { cropProblem, isUncropped, THEME_NAMES, THEMES, type ImageCrop, type PlaceholderRole, type ShapeKind, type ShapeLook, type SlideTransition, type ThemeName } from '../../../model/slides.js';
import { ConversionError, type ExtractedImage, type FormatReader, type ReadBox, type ReadSlide } from '../conversion.js';
import { htmlToBlocks } from './rich-text-html.js';
import { nodeText } from '../../../model/rich-text/schema.js';
import { hexColor } from '../../../model/rich-text/formatting.js';

/** The part of pptxtojson's elements this reader uses. */
interface Positioned {
  type: string;
  left: number;
  top: number;
  width: number;
  height: number;
  /** text and shapes: their text as HTML */
  content?: string;
  /** groups: their members, positioned relative to the group */
  elements?: Positioned[];
  /** pictures: the media part's path in the package and its bytes as a data: URL */
  ref?: string;
  base64?: string;
  /** pictures: `a:srcRect`, what is cut away on each side in percent of the picture (absent: nothing) */
  rect?: { t?: number; b?: number; l?: number; r?: number };
  /** set by this reader: the slide's top-level group the element is in */
  group?: string;
  /** tables: rows of cells */
  data?: SlideTableCell[][];
  /** the shape's name in the file: PowerPoint names placeholders "Title 1", "Content Placeholder 2"… */
  name?: string;
  /** shapes: their preset geometry, fill, outline and line ends */
  shapType?: string;
  fill?: { type: string; value?: unknown };
  borderColor?: string;
  borderWidth?: number;
  tailEnd?: { type?: string };
  headEnd?: { type?: string };
}

/** Preset geometries the model draws, by its shape kinds (rounded corners read as a rectangle). */
const SHAPE_KIND_OF: Record<string, ShapeKind> = {
  rect: 'rectangle',
  roundRect: 'rectangle',
  ellipse: 'ellipse',
  line: 'line',
  straightConnector1: 'line',
};

/**
 * A colour pptxtojson writes (#rgb, #rrggbb, rgb(…), rgba(…)) as the model's #rrggbb (the rich text's reader,
 * hexColor), undefined for none. The model has no transparency: a fully transparent colour is none, a partly
 * transparent one is kept opaque.
 */
function modelColor(value: unknown): string | undefined {
  const translucent = typeof value === 'string' ? /^rgba\(([^,]+,[^,]+,[^,]+),\s*([\d.]+)\s*\)$/.exec(value) : null;
  if (!translucent) return hexColor(value);
  return Number(translucent[2]) === 0 ? undefined : hexColor(`rgb(${translucent[1]})`);
}

/** A drawn shape without text as the model's shape (rectangle, ellipse, line, arrow), undefined for other geometries. */
function shapeLook(element: Positioned): ShapeLook | undefined {
  const kind = SHAPE_KIND_OF[element.shapType ?? ''];
  if (!kind) return undefined;
  const arrow = kind === 'line' && [element.tailEnd?.type, element.headEnd?.type].some((end) => end !== undefined && end !== 'none');
  const fill = element.fill?.type === 'color' ? modelColor(element.fill.value) : undefined;
  const outline = modelColor(element.borderColor);
  return {
    kind: arrow ? 'arrow' : kind,
    ...(fill && kind !== 'line' ? { fill } : {}),
    outline: outline ?? '#000000',
    outlineWidth: outline ? Math.min(20, Math.max(0, Number(element.borderWidth) || 1)) : 0,
  };
}

/**
 * The model's transition for PowerPoint's (pptxtojson gives the element's name: fade, push, wipe, cover, split,
 * morph…): Cut is none; the three the model has are kept; those that slide the new slide in (cover, pull) read as push, those
 * that reveal it (split, strips, wheel…) as wipe, any other effect as fade, so a deck that had transitions keeps one.
 */
function transitionOfType(type: unknown): SlideTransition | undefined {
  // PowerPoint's Cut is an instant change: no transition
  if (typeof type !== 'string' || type === 'none' || type === 'cut' || type === '') return undefined;
  if (type === 'fade' || type === 'push' || type === 'wipe') return type;
  if (type === 'cover' || type === 'pull') return 'push';
  if (['split', 'strips', 'wheel', 'wedge', 'circle', 'diamond', 'plus', 'blinds', 'checker', 'comb', 'randomBar', 'zoom'].includes(type)) return 'wipe';
  return 'fade';
}

/**
 * A picture's `a:srcRect` (pptxtojson gives each side in percent) as the model's crop; undefined when it cuts
 * nothing away or is not a crop the model keeps: a negative side (PowerPoint's way to shrink a picture inside its
 * frame) or one leaving nothing (the picture then fills its box whole).
 */
function pictureCrop(rect: Positioned['rect']): ImageCrop | undefined {
  if (!rect) return undefined;
  const side = (value: number | undefined) => (typeof value === 'number' && Number.isFinite(value) ? value / 100 : 0);
  const crop = { left: side(rect.l), top: side(rect.t), right: side(rect.r), bottom: side(rect.b) };
  return cropProblem(crop) === undefined && !isUncropped(crop) ? crop : undefined;
}

/** A placeholder's role from the name PowerPoint (and our exporter) gives it. */
function placeholderRoleByName(name: string | undefined): PlaceholderRole | undefined {
  if (!name) return undefined;
  if (/^(Title|Centered Title)\b/i.test(name)) return 'title';
  if (/^Subtitle\b/i.test(name)) return 'subtitle';
  if (/^(Content|Text) Placeholder\b/i.test(name)) return 'body';
  return undefined;
}

/** The model theme whose background the slide has (our own exports), if any. */
function themeOfBackground(fill: { type?: string; value?: unknown } | undefined): ThemeName | undefined {
  const color = fill?.type === 'color' ? modelColor(fill.value) : undefined;
  return color === undefined || color === THEMES.plain.background ? undefined : THEME_NAMES.find((name) => THEMES[name].background === color);
}

/**
 * A cell of a pptxtojson table: its text as HTML, its spans (a cell covered by another's span has hMerge / vMerge),
 * and `fontBold` when the table's style makes its text bold (PowerPoint's header row).
 */
export interface SlideTableCell {
  text?: string;
  fontBold?: boolean;
  colSpan?: number;
  rowSpan?: number;
  hMerge?: number;
  vMerge?: number;
}

/** pptxtojson spells every space of a run as &nbsp;: plain spaces, so text wraps as in PowerPoint. */
function plainSpaces(html: string): string {
  return html.replace(/&nbsp;|\u00a0/g, ' ');
}

function span(value: number | undefined): number {
  return Number.isInteger(value) && value! > 1 ? value! : 1;
}

/**
 * A slide table (`a:tbl`) as an HTML table for the rich-text parser: each cell with its formatted text (bold where
 * the table style makes it so) and its spans; cells covered by a span are left out, as HTML has them.
 */
export function slideTableHtml(rows: readonly SlideTableCell[][]): string {
  const body = rows
    .map((row) => {
      const cells = row
        .filter((cell) => !cell.hMerge && !cell.vMerge)
        .map((cell) => {
          const colspan = span(cell.colSpan);
          const rowspan = span(cell.rowSpan);
          const text = plainSpaces(cell.text ?? '');
          return `<td${colspan > 1 ? ` colspan="${colspan}"` : ''}${rowspan > 1 ? ` rowspan="${rowspan}"` : ''}>${cell.fontBold ? `<b>${text}</b>` : text}</td>`;
        });
      return `<tr>${cells.join('')}</tr>`;
    })
    .join('');
  return `<table>${body}</table>`;
}

/**
 * Text-bearing elements, tables and pictures of a slide in drawing order, groups flattened to slide coordinates
 * (pptxtojson places a group's members by its chOff/chExt transform, relative to the group). The members of a
 * top-level group share a new group id, those of groups inside it too: the model's groups are not nested.
 */
function drawnElements(elements: readonly Positioned[], dx = 0, dy = 0, group?: string): Positioned[] {
  return elements.flatMap((element) => {
    if (element.type === 'group' && element.elements) return drawnElements(element.elements, dx + element.left, dy + element.top, group ?? crypto.randomUUID());
    const hasText = (element.type === 'text' || element.type === 'shape') && typeof element.content === 'string' && element.content.trim() !== '';
    const isPicture = element.type === 'image' && typeof element.base64 === 'string';
    const isTable = element.type === 'table' && Array.isArray(element.data) && element.data.length > 0;
    const isShape = element.type === 'shape' && !hasText && shapeLook(element) !== undefined;
    // an empty placeholder stays, to be typed in
    const isPlaceholder = (element.type === 'text' || element.type === 'shape') && placeholderRoleByName(element.name) !== undefined;
    return hasText || isPicture || isTable || isShape || isPlaceholder ? [{ ...element, left: element.left + dx, top: element.top + dy, ...(group ? { group } : {}) }] : [];
  });
}

/**
 * The pictures of a presentation, each image once however many slides show it (by its bytes: writers such as
 * pptxgenjs store a copy per slide): only PNG, JPEG, GIF and
 * WebP (recognised from their bytes, as uploads are) become attachments; other formats (EMF, WMF, TIFF, SVG)
 * have no box, since browsers could not show them and an SVG can carry script.
 */
class Pictures {
  readonly images: ExtractedImage[] = [];
  private readonly byDataUrl = new Map<string, ExtractedImage | undefined>();

  /** The attachment a picture element shows, undefined when its image is not kept. */
  of(element: Positioned): ExtractedImage | undefined {
    const dataUrl = element.base64!;
    if (this.byDataUrl.has(dataUrl)) return this.byDataUrl.get(dataUrl);
    const match = /^data:[^;,]*;base64,(.*)$/s.exec(dataUrl);
    const data = match ? Buffer.from(match[1]!, 'base64') : undefined;
    const sniffed = data ? sniffImage(data) : undefined;
    let image: ExtractedImage | undefined;
    if (data && sniffed) {
      const name = path.posix.basename(element.ref ?? '').replace(/\.[^.]*$/, '') || `image-${this.images.length + 1}`;
      image = { guid: crypto.randomUUID(), data, filename: `${name}.${sniffed.mimeType.split('/')[1]}` };
      this.images.push(image);
    }
    this.byDataUrl.set(dataUrl, image);
    return image;
  }
}

/**
 * PowerPoint (pptx) through pptxtojson: each slide's text boxes (text elements and shapes with text), tables
 * (a text box holding the table, cells with their text and spans) and pictures with their position and size, scaled from the file's slide size to the model's 960 × 540 stage, in
 * drawing order. Text keeps its formatting; pictures become image attachments of the new file, their file name
 * the box's text alternative (pptxtojson does not read a picture's description), their crop (`a:srcRect`) the
 * box's crop. Rotation and flips of pictures are not kept. Groups (`p:grpSp`) become boxes sharing a group id.
 */
export const pptx: FormatReader = {
  zip: true,
  async read(bytes, report) {
    let parsed: Awaited<ReturnType<typeof parse>>;
    try {
      parsed = await parse(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer, { imageMode: 'base64', videoMode: 'none', audioMode: 'none' });
    } catch (error) {
      throw new ConversionError('importCorrupt', `the file is not a readable pptx presentation (${error instanceof Error ? error.message.slice(0, 200) : 'unreadable'})`);
    }
    report(0.5);
    const scaleX = SLIDE_WIDTH / (parsed.size.width || SLIDE_WIDTH);
    const scaleY = SLIDE_HEIGHT / (parsed.size.height || SLIDE_HEIGHT);
    const pictures = new Pictures();
    const slides: ReadSlide[] = parsed.slides.map((slide, index) => {
      report(0.5 + (0.5 * index) / Math.max(1, parsed.slides.length));
      const theme = themeOfBackground(slide.fill as { type?: string; value?: unknown } | undefined);
      const transition = transitionOfType((slide as { transition?: { type?: unknown } | null }).transition?.type);
      // pptxtojson gives the notes as HTML paragraphs: one line each
      const notes = typeof slide.note === 'string' ? htmlToBlocks(slide.note.replace(/&nbsp;|\u00a0/g, ' ')).map(nodeText).join('\n').trim() : '';
      return {
        ...(theme ? { theme } : {}),
        ...(transition ? { transition } : {}),
        ...(notes ? { notes } : {}),
        boxes: drawnElements(slide.elements as unknown as Positioned[]).flatMap((element): ReadBox[] => {
          const frame = {
            x: Math.round(element.left * scaleX),
            y: Math.round(element.top * scaleY),
            width: Math.round(element.width * scaleX),
            height: Math.round(element.height * scaleY),
          };
          const grouped = element.group ? { group: element.group } : {};
          if (element.type === 'image') {
            const image = pictures.of(element);
            const crop = pictureCrop(element.rect);
            return image ? [{ ...frame, ...grouped, type: 'image', guid: image.guid, alt: image.filename, ...(crop ? { crop } : {}) }] : [];
          }
          if (element.type === 'table') return [{ ...frame, ...grouped, type: 'text', blocks: htmlToBlocks(slideTableHtml(element.data!)) }];
          const hasText = typeof element.content === 'string' && element.content.trim() !== '';
          const look = element.type === 'shape' && !hasText ? shapeLook(element) : undefined;
          if (look) return [{ ...frame, ...grouped, type: 'shape', look }];
          const placeholder = placeholderRoleByName(element.name);
          return [{ ...frame, ...grouped, type: 'text', blocks: htmlToBlocks(plainSpaces(element.content ?? '')), ...(placeholder ? { placeholder } : {}) }];
        }),
      };
    });
    report(1);
    return { shape: 'slides', slides, images: pictures.images };
  },
};
