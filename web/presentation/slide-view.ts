import { DOMSerializer, type Schema } from '@tiptap/pm/model';
import * as Y from 'yjs';
import { boxTypeOf, SLIDE_HEIGHT, SLIDE_WIDTH } from '../../src/model/content.js';
import { richTextToPlain } from '../../src/model/rich-text/schema.js';
import { ARROW_HEAD, cropOf, cropPlacement, placeholderRoleOf, shapeDrawing, shapeOf, textStyleOf, THEMES, themeNameOf } from '../../src/model/slides.js';
import { boxesOf, frameOf } from './deck.js';

/** ProseMirror's JSON for a node, as built from the Yjs tree. */
interface NodeJson {
  type: string;
  attrs?: Record<string, unknown>;
  content?: NodeJson[];
  text?: string;
  marks?: Array<{ type: string; attrs?: Record<string, unknown> }>;
}

/**
 * The Yjs tree of a text box in ProseMirror's JSON form: the reverse of what y-prosemirror writes (an element
 * per node named after its type, text runs whose formatting attributes are the marks). y-prosemirror names a
 * mark that may repeat `type--hash`; the part before `--` is the mark.
 */
function toJson(node: Y.XmlElement | Y.XmlText | Y.XmlHook): NodeJson[] {
  if (node instanceof Y.XmlText) {
    return (node.toDelta() as Array<{ insert: unknown; attributes?: Record<string, Record<string, unknown>> }>).flatMap((op) =>
      typeof op.insert === 'string' && op.insert.length > 0
        ? [{ type: 'text', text: op.insert, marks: Object.entries(op.attributes ?? {}).map(([name, attrs]) => ({ type: name.split('--')[0]!, attrs })) }]
        : [],
    );
  }
  if (!(node instanceof Y.XmlElement)) return [];
  return [{ type: node.nodeName, attrs: node.getAttributes(), content: node.toArray().flatMap(toJson) }];
}

/** How a page shows stored content: the schema of its rich text, and the address to show a stored image `src` from. */
export interface SlideRendering {
  schema: Schema;
  displaySrc(src: string): string;
}

/**
 * The rich text of a box as static DOM, through the editor's own schema and serializer, so it looks as it does
 * while edited; text is set as text nodes, never parsed as HTML. Content the schema refuses (a newer client's
 * node) falls back to its plain text.
 */
export function richTextView(fragment: Y.XmlFragment, rendering: SlideRendering): HTMLElement {
  const element = document.createElement('div');
  element.className = 'svc-rich-text svc-box-text';
  try {
    const doc = rendering.schema.nodeFromJSON({ type: 'doc', content: fragment.toArray().flatMap(toJson) });
    element.append(DOMSerializer.fromSchema(rendering.schema).serializeFragment(doc.content));
    // the serializer writes the stored path; the reader's page shows it with its own credentials
    for (const image of element.querySelectorAll('img')) image.src = rendering.displaySrc(image.getAttribute('src') ?? '');
  } catch {
    for (const line of richTextToPlain(fragment).split('\n')) {
      const paragraph = document.createElement('p');
      paragraph.textContent = line;
      element.append(paragraph);
    }
  }
  return element;
}

/** An image box's `<img>`, shown with this user's credentials (docs/ATTACHMENTS.md "URLs in documents"). */
export function imageView(box: Y.Map<unknown>, displaySrc: (src: string) => string): HTMLImageElement {
  const image = document.createElement('img');
  image.className = 'svc-box-image';
  image.draggable = false;
  const alt = box.get('alt');
  image.alt = typeof alt === 'string' ? alt : '';
  const src = box.get('src');
  const url = typeof src === 'string' ? displaySrc(src) : '';
  if (url) image.src = url;
  showCrop(image, box);
  return image;
}

/**
 * Draws an image box's crop (src/model/slides.ts cropPlacement): the whole picture placed past the box on its
 * cropped sides and clipped to the box; without a crop, the whole picture fitted into the box.
 */
export function showCrop(image: HTMLImageElement, box: Y.Map<unknown>): void {
  const crop = cropOf(box);
  image.classList.toggle('is-cropped', crop !== undefined);
  const placement = crop ? cropPlacement(crop) : undefined;
  image.style.left = placement ? `${placement.left}%` : '';
  image.style.top = placement ? `${placement.top}%` : '';
  image.style.width = placement ? `${placement.width}%` : '';
  image.style.height = placement ? `${placement.height}%` : '';
  image.style.clipPath = placement?.clipPath ?? '';
}

/**
 * A box positioned on its slide, in points, and styled: a text box's stored height is its least height (it grows
 * with its text, so nothing spills below the frame), its font, size, colour and alignment are custom properties
 * its text reads (absent ones fall back to the slide theme's).
 */
export function positionBox(element: HTMLElement, box: Y.Map<unknown>): void {
  const frame = frameOf(box);
  const text = boxTypeOf(box) === 'text';
  element.style.left = `${frame.x}px`;
  element.style.top = `${frame.y}px`;
  element.style.width = `${frame.width}px`;
  element.style.height = text ? '' : `${frame.height}px`;
  element.style.minHeight = text ? `${frame.height}px` : '';
  if (!text) return;
  const style = textStyleOf(box);
  const role = placeholderRoleOf(box);
  if (role) element.dataset.placeholder = role;
  else delete element.dataset.placeholder;
  const properties: Record<string, string | undefined> = {
    '--svc-box-font': style.fontFamily,
    '--svc-box-size': style.fontSize === undefined ? undefined : `${style.fontSize}px`,
    '--svc-box-color': style.color,
    '--svc-box-align': style.align,
  };
  for (const [name, value] of Object.entries(properties)) {
    if (value === undefined) element.style.removeProperty(name);
    else element.style.setProperty(name, value);
  }
}

/** Colours and fonts of the slide's theme as the custom properties its surface and boxes read. */
export function applyTheme(surface: HTMLElement, slide: Y.Map<unknown> | undefined): void {
  const name = themeNameOf(slide);
  const theme = THEMES[name];
  surface.dataset.theme = name;
  surface.style.setProperty('--svc-slide-background', theme.background);
  surface.style.setProperty('--svc-slide-text', theme.text);
  surface.style.setProperty('--svc-slide-accent', theme.accent);
  surface.style.setProperty('--svc-slide-heading-font', `${theme.headingFont}, "Microsoft YaHei", sans-serif`);
  surface.style.setProperty('--svc-slide-body-font', `${theme.bodyFont}, "Microsoft YaHei", sans-serif`);
}

const SVG = 'http://www.w3.org/2000/svg';

/** A shape box's drawing: an SVG filling the box, a line or arrow from its top left to its bottom right corner. */
export function shapeView(box: Y.Map<unknown>): SVGSVGElement {
  const look = shapeOf(box);
  const { width, height } = frameOf(box);
  const svg = document.createElementNS(SVG, 'svg');
  svg.classList.add('svc-box-shape');
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  svg.setAttribute('preserveAspectRatio', 'none');
  svg.setAttribute('aria-hidden', 'true');
  svg.dataset.shape = look.kind;
  const drawing = shapeDrawing(look, width, height);
  const drawn = document.createElementNS(SVG, drawing.element);
  for (const [name, value] of Object.entries(drawing.attributes)) drawn.setAttribute(name, value);
  drawn.setAttribute('vector-effect', 'non-scaling-stroke');
  if (drawing.arrowHead) {
    // ids are per document: each arrow has its own marker (the same slide is drawn in the list and on the stage)
    const id = `svc-arrow-${Math.random().toString(36).slice(2)}`;
    const marker = document.createElementNS(SVG, 'marker');
    marker.id = id;
    for (const [name, value] of Object.entries(ARROW_HEAD.attributes)) marker.setAttribute(name, value);
    const head = document.createElementNS(SVG, 'path');
    head.setAttribute('d', ARROW_HEAD.path);
    head.setAttribute('fill', look.outline);
    marker.append(head);
    const defs = document.createElementNS(SVG, 'defs');
    defs.append(marker);
    svg.append(defs);
    drawn.setAttribute('marker-end', `url(#${id})`);
  }
  svg.append(drawn);
  return svg;
}

/** A slide drawn once, read-only, at its size in points (960×540): thumbnails and the presenting mode scale it. */
export function slideView(slide: Y.Map<unknown>, rendering: SlideRendering): HTMLElement {
  const surface = document.createElement('div');
  surface.className = 'svc-slide';
  surface.style.width = `${SLIDE_WIDTH}px`;
  surface.style.height = `${SLIDE_HEIGHT}px`;
  applyTheme(surface, slide);
  for (const box of boxesOf(slide)) {
    const element = document.createElement('div');
    element.className = 'svc-box';
    const type = boxTypeOf(box);
    element.dataset.type = type;
    positionBox(element, box);
    const content = box.get('content');
    if (type === 'image') element.append(imageView(box, rendering.displaySrc));
    else if (type === 'shape') element.append(shapeView(box));
    else if (content instanceof Y.XmlFragment) element.append(richTextView(content, rendering));
    surface.append(element);
  }
  return surface;
}

/** Scales a slide surface to fit `width`×`height` pixels, centred; answers the scale. */
export function fitSlide(surface: HTMLElement, width: number, height: number): number {
  const scale = Math.max(0.01, Math.min(width / SLIDE_WIDTH, height / SLIDE_HEIGHT));
  surface.style.transform = `scale(${scale})`;
  surface.style.transformOrigin = '0 0';
  surface.style.left = `${Math.max(0, (width - SLIDE_WIDTH * scale) / 2)}px`;
  surface.style.top = `${Math.max(0, (height - SLIDE_HEIGHT * scale) / 2)}px`;
  return scale;
}

/** Width of a slide in lists of whole presentations (old versions), pixels. */
const PREVIEW_WIDTH = 480;

/** A slide drawn at a fixed preview size, for showing a whole presentation at once. */
export function slidePreview(slide: Y.Map<unknown>, rendering: SlideRendering): HTMLElement {
  const frame = document.createElement('div');
  frame.className = 'svc-slide-preview';
  const height = (PREVIEW_WIDTH * SLIDE_HEIGHT) / SLIDE_WIDTH;
  frame.style.width = `${PREVIEW_WIDTH}px`;
  frame.style.height = `${height}px`;
  const surface = slideView(slide, rendering);
  fitSlide(surface, PREVIEW_WIDTH, height);
  frame.append(surface);
  return frame;
}
