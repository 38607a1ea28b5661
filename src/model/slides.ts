import * as Y from 'yjs';
import { colourOf } from './sheets/cell-style.js';

/**
 * The presentation model (docs/CONTENT-MODEL.md "presentation"): slides, boxes and frames (content.ts re-exports
 * these), slide layouts and their placeholders, themes, the look of text boxes, shapes and speaker notes. One
 * definition for the editor, the exporters and the importer; every reader takes what another client wrote as
 * untrusted and falls back to defaults.
 */

/** A new, empty slide: `id`, its ordered `boxes` and its speaker `notes`. */
export function newSlide(id: string = crypto.randomUUID()): Y.Map<unknown> {
  const slide = new Y.Map<unknown>();
  slide.set('id', id);
  slide.set('boxes', new Y.Array<Y.Map<unknown>>());
  slide.set('notes', new Y.Text());
  return slide;
}

/** The slide's size in points: a 16:9 stage; box positions and sizes are in the same points. */
export const SLIDE_WIDTH = 960;
export const SLIDE_HEIGHT = 540;

/**
 * What a box of a slide holds: rich text (`content`), an image (`src`, `alt`) or a shape (`shape`, below).
 * A box without `type` is a text box.
 */
export const BOX_TYPES = ['text', 'image', 'shape'] as const;
export type BoxType = (typeof BOX_TYPES)[number];

/** A box's position and size in points, from the slide's top left. */
export interface BoxFrame {
  x: number;
  y: number;
  width: number;
  height: number;
}

export function boxTypeOf(box: Y.Map<unknown>): BoxType {
  const type = box.get('type');
  return type === 'image' || type === 'shape' ? type : 'text';
}

function newBox(type: BoxType, frame: BoxFrame, id: string): Y.Map<unknown> {
  const box = new Y.Map<unknown>();
  box.set('id', id);
  box.set('type', type);
  box.set('x', frame.x);
  box.set('y', frame.y);
  box.set('width', frame.width);
  box.set('height', frame.height);
  return box;
}

/** A text box of a slide: position and size in points, rich text in `content` (same nodes as documents). */
export function newTextBox(frame: BoxFrame, id: string = crypto.randomUUID()): Y.Map<unknown> {
  const box = newBox('text', frame, id);
  box.set('content', new Y.XmlFragment());
  return box;
}

/**
 * An image box: `src` is the credential-free attachment path `/sdk/v2/attachments/{guid}` (docs/ATTACHMENTS.md),
 * `alt` its text alternative. Images have no plain text.
 */
export function newImageBox(frame: BoxFrame, image: { src: string; alt: string }, id: string = crypto.randomUUID()): Y.Map<unknown> {
  const box = newBox('image', frame, id);
  box.set('src', image.src);
  box.set('alt', image.alt);
  return box;
}

/**
 * How much of an image box's picture is cut away on each side, as fractions of the picture's width (left, right)
 * and height (top, bottom): each in 0..<1 and what is left at least MIN_CROP_REMAINDER of the picture, so a
 * crop never leaves nothing to show. The part left fills the box (stretched, as PowerPoint's `a:srcRect` with
 * `a:stretch` does); absent: the whole picture, fitted into the box.
 */
export interface ImageCrop {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export const CROP_SIDES = ['left', 'top', 'right', 'bottom'] as const;
/** The least part of the picture's width or height a crop leaves. */
export const MIN_CROP_REMAINDER = 0.01;

/** Why a crop is refused (undefined: it is valid): a side out of 0..<1 or not a number, or too little left. */
export function cropProblem(crop: unknown): string | undefined {
  if (typeof crop !== 'object' || crop === null) return 'a crop is an object {left, top, right, bottom}';
  const sides = crop as Record<string, unknown>;
  for (const side of CROP_SIDES) {
    const value = sides[side];
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value >= 1) return `crop.${side} must be a number from 0 up to (not including) 1`;
  }
  const { left, top, right, bottom } = sides as unknown as ImageCrop;
  if (1 - left - right < MIN_CROP_REMAINDER) return 'crop.left and crop.right together must leave some of the picture\'s width';
  if (1 - top - bottom < MIN_CROP_REMAINDER) return 'crop.top and crop.bottom together must leave some of the picture\'s height';
  return undefined;
}

/** Whether a crop cuts nothing away (the whole picture). */
export function isUncropped(crop: ImageCrop): boolean {
  return CROP_SIDES.every((side) => crop[side] === 0);
}

/** The image box's crop as stored; undefined for none, for one cutting nothing and for a malformed one (a reader shows the whole picture). */
export function cropOf(box: Y.Map<unknown>): ImageCrop | undefined {
  const crop = box.get('crop');
  if (cropProblem(crop) !== undefined) return undefined;
  const { left, top, right, bottom } = crop as ImageCrop;
  const valid = { left, top, right, bottom };
  return isUncropped(valid) ? undefined : valid;
}

/** Sets the box's crop; undefined or a crop cutting nothing removes it. Throws on an invalid crop (callers check cropProblem). */
export function setCrop(box: Y.Map<unknown>, crop: ImageCrop | undefined): void {
  const problem = crop === undefined ? undefined : cropProblem(crop);
  if (problem !== undefined) throw new RangeError(problem);
  if (crop === undefined || isUncropped(crop)) {
    if (box.has('crop')) box.delete('crop');
    return;
  }
  box.set('crop', { left: crop.left, top: crop.top, right: crop.right, bottom: crop.bottom });
}

/**
 * Where the whole picture lies for a box showing `crop` of it, in percent of the box (it reaches past the box on
 * the cropped sides), and the CSS clip-path that shows only the box's part: what every renderer (editor,
 * thumbnails, presenter, pdf and jpg export) draws, so a cropped picture looks the same everywhere.
 */
export function cropPlacement(crop: ImageCrop): { left: number; top: number; width: number; height: number; clipPath: string } {
  const shownWidth = 1 - crop.left - crop.right;
  const shownHeight = 1 - crop.top - crop.bottom;
  const percent = (value: number) => `${Number((value * 100).toFixed(4))}%`;
  return {
    left: (-crop.left / shownWidth) * 100,
    top: (-crop.top / shownHeight) * 100,
    width: 100 / shownWidth,
    height: 100 / shownHeight,
    clipPath: `inset(${percent(crop.top)} ${percent(crop.right)} ${percent(crop.bottom)} ${percent(crop.left)})`,
  };
}

/** The whole picture's rectangle on the slide for a box at `frame` showing `crop` of it (the crop mode draws it). */
export function uncroppedFrame(frame: BoxFrame, crop: ImageCrop): BoxFrame {
  const width = frame.width / (1 - crop.left - crop.right);
  const height = frame.height / (1 - crop.top - crop.bottom);
  return { x: frame.x - crop.left * width, y: frame.y - crop.top * height, width, height };
}

/** The box frame and crop that show the part `shown` of the picture lying at `picture` (both on the slide). */
export function croppedTo(picture: BoxFrame, shown: BoxFrame): { frame: BoxFrame; crop: ImageCrop } {
  return {
    frame: shown,
    crop: {
      left: (shown.x - picture.x) / picture.width,
      top: (shown.y - picture.y) / picture.height,
      right: (picture.x + picture.width - shown.x - shown.width) / picture.width,
      bottom: (picture.y + picture.height - shown.y - shown.height) / picture.height,
    },
  };
}

/** The smallest frame holding all of `frames` (a group's bounds: pptx export writes them as the group's transform). */
export function boundsOf(frames: readonly BoxFrame[]): BoxFrame {
  if (frames.length === 0) return { x: 0, y: 0, width: 0, height: 0 };
  const x = Math.min(...frames.map((frame) => frame.x));
  const y = Math.min(...frames.map((frame) => frame.y));
  const right = Math.max(...frames.map((frame) => frame.x + frame.width));
  const bottom = Math.max(...frames.map((frame) => frame.y + frame.height));
  return { x, y, width: right - x, height: bottom - y };
}

/** The layouts a new slide can start from, each a set of placeholder boxes. */
export const SLIDE_LAYOUTS = ['title', 'titleContent', 'twoColumns', 'section', 'blank'] as const;
export type SlideLayout = (typeof SLIDE_LAYOUTS)[number];

/** What a placeholder box is for: its prompt while empty, its font (title: the theme's heading font). */
export const PLACEHOLDER_ROLES = ['title', 'subtitle', 'body'] as const;
export type PlaceholderRole = (typeof PLACEHOLDER_ROLES)[number];

export interface Placeholder {
  role: PlaceholderRole;
  frame: BoxFrame;
  /** points */
  fontSize: number;
  align: TextAlign;
}

const MARGIN = 60;
const CONTENT_WIDTH = SLIDE_WIDTH - 2 * MARGIN;
const COLUMN_GAP = 40;
const COLUMN_WIDTH = (CONTENT_WIDTH - COLUMN_GAP) / 2;
const HEADING: Placeholder = { role: 'title', frame: { x: MARGIN, y: 30, width: CONTENT_WIDTH, height: 80 }, fontSize: 36, align: 'left' };
const BODY_TOP = 130;
const BODY_HEIGHT = SLIDE_HEIGHT - BODY_TOP - 40;

/** Each layout's placeholders, back to front. */
export const LAYOUT_PLACEHOLDERS: Record<SlideLayout, readonly Placeholder[]> = {
  title: [
    { role: 'title', frame: { x: MARGIN, y: 150, width: CONTENT_WIDTH, height: 120 }, fontSize: 48, align: 'center' },
    { role: 'subtitle', frame: { x: MARGIN + 100, y: 290, width: CONTENT_WIDTH - 200, height: 70 }, fontSize: 24, align: 'center' },
  ],
  titleContent: [HEADING, { role: 'body', frame: { x: MARGIN, y: BODY_TOP, width: CONTENT_WIDTH, height: BODY_HEIGHT }, fontSize: 24, align: 'left' }],
  twoColumns: [
    HEADING,
    { role: 'body', frame: { x: MARGIN, y: BODY_TOP, width: COLUMN_WIDTH, height: BODY_HEIGHT }, fontSize: 22, align: 'left' },
    { role: 'body', frame: { x: MARGIN + COLUMN_WIDTH + COLUMN_GAP, y: BODY_TOP, width: COLUMN_WIDTH, height: BODY_HEIGHT }, fontSize: 22, align: 'left' },
  ],
  section: [
    { role: 'title', frame: { x: MARGIN, y: 200, width: CONTENT_WIDTH, height: 100 }, fontSize: 44, align: 'left' },
    { role: 'subtitle', frame: { x: MARGIN, y: 310, width: CONTENT_WIDTH, height: 60 }, fontSize: 22, align: 'left' },
  ],
  blank: [],
};

export function isSlideLayout(value: unknown): value is SlideLayout {
  return typeof value === 'string' && (SLIDE_LAYOUTS as readonly string[]).includes(value);
}

export function placeholderRoleOf(box: Y.Map<unknown>): PlaceholderRole | undefined {
  const role = box.get('placeholder');
  return typeof role === 'string' && (PLACEHOLDER_ROLES as readonly string[]).includes(role) ? (role as PlaceholderRole) : undefined;
}

/** A theme: the slide's background, text and accent colours and its two fonts. */
export interface SlideTheme {
  background: string;
  text: string;
  accent: string;
  headingFont: string;
  bodyFont: string;
}

export const THEME_NAMES = ['plain', 'ocean', 'forest', 'sunset', 'night'] as const;
export type ThemeName = (typeof THEME_NAMES)[number];

// fonts every office machine has (the CJK fallbacks after them show Chinese text in each)
const SANS = 'Arial';
const SERIF = 'Georgia';
export const THEMES: Record<ThemeName, SlideTheme> = {
  plain: { background: '#ffffff', text: '#1f2937', accent: '#2563eb', headingFont: SANS, bodyFont: SANS },
  ocean: { background: '#eaf4fb', text: '#0b3954', accent: '#087e8b', headingFont: SANS, bodyFont: SANS },
  forest: { background: '#f1f6ee', text: '#23381d', accent: '#4a7c3a', headingFont: SERIF, bodyFont: SANS },
  sunset: { background: '#fff4e8', text: '#4a2511', accent: '#d9480f', headingFont: SERIF, bodyFont: SERIF },
  night: { background: '#1e2533', text: '#f1f5f9', accent: '#fbbf24', headingFont: SANS, bodyFont: SANS },
};

export function isThemeName(value: unknown): value is ThemeName {
  return typeof value === 'string' && (THEME_NAMES as readonly string[]).includes(value);
}

/** The slide's theme name; 'plain' for a slide without one (made before themes) or with an unknown one. */
export function themeNameOf(slide: Y.Map<unknown> | undefined): ThemeName {
  const name = slide?.get('theme');
  return isThemeName(name) ? name : 'plain';
}

/**
 * How a slide comes in when presenting (its `transition`; absent: none). The four a simple deck uses, each with
 * a PowerPoint counterpart (`p:fade`, `p:push`, `p:wipe`) so pptx export and import keep them.
 */
export const SLIDE_TRANSITIONS = ['none', 'fade', 'push', 'wipe'] as const;
export type SlideTransition = (typeof SLIDE_TRANSITIONS)[number];

export function isSlideTransition(value: unknown): value is SlideTransition {
  return typeof value === 'string' && (SLIDE_TRANSITIONS as readonly string[]).includes(value);
}

/** The slide's transition; 'none' for a slide without one or with one this version does not know. */
export function transitionOf(slide: Y.Map<unknown> | undefined): SlideTransition {
  const transition = slide?.get('transition');
  return isSlideTransition(transition) ? transition : 'none';
}

/** Fonts offered for text boxes: common to Windows, macOS and Linux office machines, and two CJK-capable ones. */
export const FONT_FAMILIES = ['Arial', 'Georgia', 'Times New Roman', 'Verdana', 'Courier New', 'Microsoft YaHei', 'SimSun'] as const;
/** Font sizes offered, in points. */
export const FONT_SIZES = [12, 14, 16, 18, 20, 24, 28, 32, 36, 44, 54, 66] as const;
const MIN_FONT_SIZE = 6;
const MAX_FONT_SIZE = 200;

export const TEXT_ALIGNS = ['left', 'center', 'right'] as const;
export type TextAlign = (typeof TEXT_ALIGNS)[number];

/** How a text box's text looks, the whole box at once; absent: the theme's font and colour, 24 points, left. */
export interface BoxTextStyle {
  fontFamily?: string;
  fontSize?: number;
  color?: string;
  align?: TextAlign;
}

function isFontFamily(value: unknown): value is string {
  return typeof value === 'string' && (FONT_FAMILIES as readonly string[]).includes(value);
}

function isFontSize(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= MIN_FONT_SIZE && value <= MAX_FONT_SIZE;
}

/** The box's text style as stored; a malformed value reads as absent. */
export function textStyleOf(box: Y.Map<unknown>): BoxTextStyle {
  const style: BoxTextStyle = {};
  const fontFamily = box.get('fontFamily');
  const fontSize = box.get('fontSize');
  const color = colourOf(box.get('color'));
  const align = box.get('align');
  if (isFontFamily(fontFamily)) style.fontFamily = fontFamily;
  if (isFontSize(fontSize)) style.fontSize = fontSize;
  if (color) style.color = color;
  if (typeof align === 'string' && (TEXT_ALIGNS as readonly string[]).includes(align)) style.align = align as TextAlign;
  return style;
}

/** Sets one text style key of a box; undefined or an invalid value removes it. */
export function setTextStyle<K extends keyof BoxTextStyle>(box: Y.Map<unknown>, key: K, value: BoxTextStyle[K]): void {
  const valid = key === 'fontFamily' ? isFontFamily(value) : key === 'fontSize' ? isFontSize(value) : key === 'color' ? colourOf(value) !== undefined : (TEXT_ALIGNS as readonly unknown[]).includes(value);
  if (valid) box.set(key, value);
  else if (box.has(key)) box.delete(key);
}

/** The default size of body text, points. */
export const BODY_FONT_SIZE = 24;

/** The shapes a shape box draws: a rectangle and an ellipse fill their frame, a line and an arrow run corner to corner. */
export const SHAPE_KINDS = ['rectangle', 'ellipse', 'line', 'arrow'] as const;
export type ShapeKind = (typeof SHAPE_KINDS)[number];

export interface ShapeLook {
  kind: ShapeKind;
  /** absent: no fill (lines and arrows never have one) */
  fill?: string;
  outline: string;
  /** points */
  outlineWidth: number;
}

export function isShapeKind(value: unknown): value is ShapeKind {
  return typeof value === 'string' && (SHAPE_KINDS as readonly string[]).includes(value);
}

/** Whether the shape is drawn from corner to corner (it has no inside to fill). */
export function isLineShape(kind: ShapeKind): boolean {
  return kind === 'line' || kind === 'arrow';
}

/** A shape box's look as stored, defaults for what is missing or malformed. */
export function shapeOf(box: Y.Map<unknown>): ShapeLook {
  const kind = box.get('shape');
  const fill = colourOf(box.get('fill'));
  const outline = colourOf(box.get('outline'));
  const width = box.get('outlineWidth');
  const shape = isShapeKind(kind) ? kind : 'rectangle';
  return {
    kind: shape,
    ...(fill && !isLineShape(shape) ? { fill } : {}),
    outline: outline ?? '#1f2937',
    outlineWidth: typeof width === 'number' && Number.isFinite(width) ? Math.min(20, Math.max(0, width)) : 2,
  };
}

/** A shape box: `shape` its kind, `fill` and `outline` colours (#rrggbb), `outlineWidth` in points. */
export function newShapeBox(frame: BoxFrame, look: ShapeLook, id: string = crypto.randomUUID()): Y.Map<unknown> {
  const box = newBox('shape', frame, id);
  box.set('shape', look.kind);
  if (look.fill !== undefined && !isLineShape(look.kind)) box.set('fill', look.fill);
  box.set('outline', look.outline);
  box.set('outlineWidth', look.outlineWidth);
  return box;
}

/** The speaker notes of a slide (plain text), created on first use; undefined for a slide that is not a map. */
export function notesOf(slide: Y.Map<unknown>): Y.Text | undefined {
  const notes = slide.get('notes');
  return notes instanceof Y.Text ? notes : undefined;
}

/** The notes as plain text ('' when there are none). */
export function notesText(slide: Y.Map<unknown>): string {
  return notesOf(slide)?.toString() ?? '';
}

/** The placeholder boxes of `layout`, each named by `newId`. */
export function placeholderBoxes(layout: SlideLayout, newId: () => string): Array<Y.Map<unknown>> {
  return LAYOUT_PLACEHOLDERS[layout].map((placeholder) => {
    const box = newTextBox(placeholder.frame, newId());
    box.set('placeholder', placeholder.role);
    box.set('fontSize', placeholder.fontSize);
    box.set('align', placeholder.align);
    return box;
  });
}

/** A new slide `id` with the placeholders of `layout` in `theme`; `newId` names each box. */
export function newLayoutSlide(id: string, layout: SlideLayout, theme: ThemeName, newId: () => string): Y.Map<unknown> {
  const slide = newSlide(id);
  slide.set('layout', layout);
  slide.set('theme', theme);
  // a map not yet in a document reads nothing back: the boxes go in as a new array
  const boxes = new Y.Array<Y.Map<unknown>>();
  boxes.push(placeholderBoxes(layout, newId));
  slide.set('boxes', boxes);
  return slide;
}

/** How a shape is drawn in an SVG of its frame's size: one element, its attributes, an arrow head at the end or not. */
export interface ShapeDrawing {
  element: 'rect' | 'ellipse' | 'line';
  attributes: Record<string, string>;
  arrowHead: boolean;
}

/** The SVG drawing of a shape in a `width`×`height` box (the editor, the page exports print and the thumbnails draw it alike). */
export function shapeDrawing(look: ShapeLook, width: number, height: number): ShapeDrawing {
  const inset = look.outlineWidth / 2;
  const paint = { fill: look.fill ?? 'none', stroke: look.outlineWidth > 0 ? look.outline : 'none', 'stroke-width': String(look.outlineWidth) };
  const numbers = (values: Record<string, number>) => Object.fromEntries(Object.entries(values).map(([name, value]) => [name, String(Math.max(0, value))]));
  if (look.kind === 'ellipse') return { element: 'ellipse', attributes: { ...numbers({ cx: width / 2, cy: height / 2, rx: width / 2 - inset, ry: height / 2 - inset }), ...paint }, arrowHead: false };
  if (isLineShape(look.kind)) return { element: 'line', attributes: { ...numbers({ x1: inset, y1: inset, x2: width - inset, y2: height - inset }), ...paint }, arrowHead: look.kind === 'arrow' };
  return { element: 'rect', attributes: { ...numbers({ x: inset, y: inset, width: width - 2 * inset, height: height - 2 * inset }), ...paint }, arrowHead: false };
}

/** The arrow head's marker: a triangle in the outline colour, as SVG `<marker>` attributes and its path. */
export const ARROW_HEAD = { attributes: { viewBox: '0 0 10 10', refX: '9', refY: '5', markerWidth: '5', markerHeight: '5', orient: 'auto' }, path: 'M0,0 L10,5 L0,10 z' } as const;
