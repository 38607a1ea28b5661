import * as Y from 'yjs';
import { newImageBox, newSlide, newTextBox, slideMaps, slidesOf, SLIDE_HEIGHT, SLIDE_WIDTH, type BoxFrame } from '../../src/model/content.js';
import {
  isLineShape,
  newLayoutSlide,
  placeholderBoxes,
  newShapeBox,
  notesOf,
  setCrop,
  setTextStyle,
  themeNameOf,
  type BoxTextStyle,
  type ImageCrop,
  type ShapeKind,
  type SlideLayout,
  type SlideTransition,
  type ThemeName,
} from '../../src/model/slides.js';

/** Arrange: where a box goes in its slide's drawing order. */
export type BoxOrder = 'front' | 'forward' | 'backward' | 'back';

/** Align and Distribute of the selected boxes (one box: on the slide). */
export const BOX_ALIGNMENTS = ['left', 'center', 'right', 'top', 'middle', 'bottom', 'distributeHorizontally', 'distributeVertically'] as const;
export type BoxAlignment = (typeof BOX_ALIGNMENTS)[number];

/**
 * Where Align or Distribute puts boxes, as PowerPoint does: several boxes align to the edge or centre of the
 * area they cover together, one box to the slide's; Distribute (three boxes or more) keeps the first and last
 * (by their left or top edge) where they are and puts equal gaps between neighbours — or, when the boxes are too
 * wide to stand apart, spaces their centres evenly. Only positions change; sizes stay.
 */
export function alignedFrames(frames: readonly BoxFrame[], how: BoxAlignment): BoxFrame[] {
  if (frames.length === 0) return [];
  const area =
    frames.length === 1
      ? { x: 0, y: 0, width: SLIDE_WIDTH, height: SLIDE_HEIGHT }
      : (() => {
          const left = Math.min(...frames.map((frame) => frame.x));
          const top = Math.min(...frames.map((frame) => frame.y));
          return { x: left, y: top, width: Math.max(...frames.map((frame) => frame.x + frame.width)) - left, height: Math.max(...frames.map((frame) => frame.y + frame.height)) - top };
        })();
  if (how === 'distributeHorizontally' || how === 'distributeVertically') {
    if (frames.length < 3) return frames.map((frame) => ({ ...frame }));
    const [start, size] = how === 'distributeHorizontally' ? (['x', 'width'] as const) : (['y', 'height'] as const);
    const order = frames.map((frame, index) => ({ frame, index })).sort((a, b) => a.frame[start] - b.frame[start]);
    const first = order[0]!.frame;
    const last = order[order.length - 1]!.frame;
    const gap = (last[start] + last[size] - first[start] - frames.reduce((sum, frame) => sum + frame[size], 0)) / (frames.length - 1);
    const placed = frames.map((frame) => ({ ...frame }));
    if (gap < 0) {
      // too wide to stand apart: their centres evenly spaced instead, so they overlap alike and keep their order
      const [from, to] = [first[start] + first[size] / 2, last[start] + last[size] / 2];
      order.forEach(({ frame, index }, at) => (placed[index]![start] = Math.round(from + ((to - from) * at) / (order.length - 1) - frame[size] / 2)));
      return placed;
    }
    let at = first[start];
    for (const { frame, index } of order) {
      placed[index]![start] = Math.round(at);
      at += frame[size] + gap;
    }
    placed[order[order.length - 1]!.index]![start] = last[start];
    return placed;
  }
  return frames.map((frame) => {
    switch (how) {
      case 'left':
        return { ...frame, x: area.x };
      case 'center':
        return { ...frame, x: Math.round(area.x + (area.width - frame.width) / 2) };
      case 'right':
        return { ...frame, x: area.x + area.width - frame.width };
      case 'top':
        return { ...frame, y: area.y };
      case 'middle':
        return { ...frame, y: Math.round(area.y + (area.height - frame.height) / 2) };
      default:
        return { ...frame, y: area.y + area.height - frame.height };
    }
  });
}

/** The root of the scratch document that carries copied boxes on the clipboard. */
const CLIPBOARD_ROOT = 'boxes';

/** The smallest box, in points: a box can always be grabbed again. */
export const MIN_BOX_SIZE = 20;

/**
 * A fresh id for a slide or a box. crypto.randomUUID exists only in secure contexts; an editor served over
 * plain http (an intranet) still gets 122 random bits.
 */
export function newId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A frame kept on the slide and at least MIN_BOX_SIZE big. */
export function clampFrame(frame: BoxFrame): BoxFrame {
  const width = Math.round(Math.min(SLIDE_WIDTH, Math.max(MIN_BOX_SIZE, frame.width)));
  const height = Math.round(Math.min(SLIDE_HEIGHT, Math.max(MIN_BOX_SIZE, frame.height)));
  const x = Math.round(Math.min(SLIDE_WIDTH - width, Math.max(0, frame.x)));
  const y = Math.round(Math.min(SLIDE_HEIGHT - height, Math.max(0, frame.y)));
  return { x, y, width, height };
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

/** A box's frame as stored, with defaults for what a malformed box lacks (content from another client is not trusted). */
export function frameOf(box: Y.Map<unknown>): BoxFrame {
  return { x: numberOr(box.get('x'), 0), y: numberOr(box.get('y'), 0), width: numberOr(box.get('width'), 200), height: numberOr(box.get('height'), 100) };
}

/** A slide's or box's id; '' for anything malformed (the document may hold what another client wrote). */
export function idOf(item: unknown): string {
  const id = item instanceof Y.Map ? item.get('id') : undefined;
  return typeof id === 'string' ? id : '';
}

/** The group a box is in (PowerPoint's Group), undefined when it stands alone. */
export function groupOf(box: Y.Map<unknown> | undefined): string | undefined {
  const group = box?.get('group');
  return typeof group === 'string' && group !== '' ? group : undefined;
}

/** A slide's boxes, only those that are maps (a malformed entry is skipped, never fatal). */
export function boxesOf(slide: unknown): Array<Y.Map<unknown>> {
  const boxes = slide instanceof Y.Map ? slide.get('boxes') : undefined;
  return boxes instanceof Y.Array ? boxes.toArray().filter((box): box is Y.Map<unknown> => box instanceof Y.Map) : [];
}

function boxArrayOf(slide: Y.Map<unknown>): Y.Array<unknown> | undefined {
  const boxes = slide.get('boxes');
  return boxes instanceof Y.Array ? boxes : undefined;
}

/** Where a text box added to a slide goes when that place is free (then moved by the user). */
const NEW_TEXT_FRAME: BoxFrame = { x: 180, y: 200, width: 600, height: 120 };
/** Where a shape added to a slide goes when that place is free. */
const NEW_SHAPE_FRAME: BoxFrame = { x: 380, y: 170, width: 200, height: 200 };
const NEW_LINE_FRAME: BoxFrame = { x: 330, y: 240, width: 300, height: 60 };

function overlap(a: BoxFrame, b: BoxFrame): number {
  const width = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const height = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return width > 0 && height > 0 ? width * height : 0;
}

/**
 * Where a new box of `size` goes on a slide holding `taken`: the preferred frame when it is free, else the first
 * free place scanning the slide from the top left in 20-point steps, else the place that covers the least of
 * the other boxes (a full slide): a new box never lands on top of the one the user was looking at.
 */
export function freeFrame(preferred: BoxFrame, taken: readonly BoxFrame[]): BoxFrame {
  const covered = (frame: BoxFrame) => taken.reduce((sum, other) => sum + overlap(frame, other), 0);
  if (covered(preferred) === 0) return preferred;
  let best = preferred;
  let least = covered(preferred);
  const STEP = 20;
  for (let y = 20; y + preferred.height <= SLIDE_HEIGHT - 20; y += STEP) {
    for (let x = 20; x + preferred.width <= SLIDE_WIDTH - 20; x += STEP) {
      const frame = { ...preferred, x, y };
      const area = covered(frame);
      if (area === 0) return frame;
      if (area < least) [best, least] = [frame, area];
    }
  }
  return best;
}

/**
 * The presentation's slides (docs/CONTENT-MODEL.md "presentation") and every structural change the editor
 * makes to them. Each change is one transaction whose origin is this deck, so the deck's undo manager undoes
 * this user's slide and box changes only; text typed in a box has its own undo in that box's editor.
 */
export class Deck {
  readonly slides: Y.Array<Y.Map<unknown>>;
  readonly undoManager: Y.UndoManager;

  constructor(readonly doc: Y.Doc) {
    this.slides = slidesOf(doc);
    // every deck change is one whole user action (a drag writes once, when it ends), so each is its own undo
    // step: Yjs's default of merging changes less than 500 ms apart made Undo after a quick Delete also take
    // back the move before it
    this.undoManager = new Y.UndoManager(this.slides, { trackedOrigins: new Set([this]), captureTimeout: 0 });
  }

  /** How many slides the editor shows (entries that are not slides are not counted). */
  get length(): number {
    return this.list().length;
  }

  /** The slides in order; an entry that is not a map (written by a broken client) is left out. */
  list(): Array<Y.Map<unknown>> {
    return slideMaps(this.doc);
  }

  /** The slide's position in `list()`, -1 when there is none with that id. */
  indexOf(slideId: string): number {
    return this.list().findIndex((slide) => idOf(slide) === slideId);
  }

  slide(slideId: string): Y.Map<unknown> | undefined {
    return this.list().find((slide) => idOf(slide) === slideId);
  }

  box(slideId: string, boxId: string): Y.Map<unknown> | undefined {
    return boxesOf(this.slide(slideId)).find((box) => idOf(box) === boxId);
  }

  /**
   * A new slide after the slide `afterId` (none: at the end) with the placeholders of `layout`, in the theme of
   * the slide before it; answers its id.
   */
  addSlide(afterId: string | undefined, layout: SlideLayout = 'titleContent'): string {
    const after = afterId === undefined ? -1 : this.arrayIndexOf(afterId);
    const theme = themeNameOf(afterId === undefined ? this.list().at(-1) : this.slide(afterId));
    const id = newId();
    this.change(() => {
      const slide = newLayoutSlide(id, layout, theme, newId);
      this.slides.insert(after < 0 ? this.slides.length : after + 1, [slide]);
    });
    return id;
  }

  /** Gives an empty slide (a new presentation's first one) the placeholders of `layout`; a slide with boxes keeps them. */
  applyLayout(slideId: string, layout: SlideLayout): void {
    const slide = this.slide(slideId);
    const boxes = slide ? boxArrayOf(slide) : undefined;
    if (!slide || !boxes || boxes.length > 0) return;
    this.change(() => {
      slide.set('layout', layout);
      boxes.push(placeholderBoxes(layout, newId));
    });
  }

  /** Sets how the slide comes in when presenting ('none' removes the transition). */
  setTransition(slideId: string, transition: SlideTransition): void {
    const slide = this.slide(slideId);
    if (!slide) return;
    this.change(() => {
      if (transition === 'none') slide.delete('transition');
      else slide.set('transition', transition);
    });
  }

  /** Applies the theme to every slide of the deck (slides added later take the theme of the slide before them). */
  setTheme(theme: ThemeName): void {
    this.change(() => {
      for (const slide of this.list()) if (slide.get('theme') !== theme) slide.set('theme', theme);
    });
  }

  /** Sets one key of a text box's style (undefined: back to the theme's). */
  setTextStyle<K extends keyof BoxTextStyle>(box: Y.Map<unknown>, key: K, value: BoxTextStyle[K]): void {
    this.change(() => setTextStyle(box, key, value));
  }

  /** Sets a shape's fill or outline colour. */
  setShapeColor(box: Y.Map<unknown>, key: 'fill' | 'outline', color: string): void {
    this.change(() => box.set(key, color));
  }

  /** The slide's speaker notes, made on first use for a slide from before notes existed. */
  notes(slideId: string): Y.Text | undefined {
    const slide = this.slide(slideId);
    if (!slide) return undefined;
    const existing = notesOf(slide);
    if (existing) return existing;
    const notes = new Y.Text();
    this.change(() => slide.set('notes', notes));
    return notes;
  }

  /** A copy of the slide right after it, every box with a new id; answers the copy's id. */
  duplicateSlide(slideId: string): string | undefined {
    const index = this.arrayIndexOf(slideId);
    if (index < 0) return undefined;
    const original = this.slides.get(index);
    const id = newId();
    this.change(() => {
      const copy = newSlide(id);
      for (const key of ['layout', 'theme', 'transition'] as const) if (typeof original.get(key) === 'string') copy.set(key, original.get(key));
      this.slides.insert(index + 1, [copy]);
      notesOf(copy)!.insert(0, notesOf(original)?.toString() ?? '');
      boxArrayOf(copy)!.push(
        boxesOf(original).map((box) => {
          const clone = box.clone();
          clone.set('id', newId());
          return clone;
        }),
      );
    });
    return id;
  }

  deleteSlide(slideId: string): void {
    const index = this.arrayIndexOf(slideId);
    if (index >= 0) this.change(() => this.slides.delete(index, 1));
  }

  /**
   * Moves a slide to position `to` of `list()` (its position after the move): next to the slide now there.
   * Yjs arrays have no move: the slide is replaced by a copy with the same id (comments stay on it); text a
   * collaborator types into it during that instant is lost.
   */
  moveSlide(slideId: string, to: number): void {
    const slides = this.list();
    const position = this.indexOf(slideId);
    const target = slides[Math.max(0, Math.min(to, slides.length - 1))];
    if (position < 0 || !target || target === slides[position]) return;
    const down = slides.indexOf(target) > position;
    this.change(() => {
      const from = this.slides.toArray().indexOf(slides[position]!);
      const copy = slides[position]!.clone();
      this.slides.delete(from, 1);
      // after the delete: next to the target, after it when moving down, before it when moving up
      const at = this.slides.toArray().indexOf(target) + (down ? 1 : 0);
      this.slides.insert(at, [copy]);
    });
  }

  /** An empty text box on the slide, where it covers no other box if there is room; answers its id. */
  addTextBox(slideId: string): string | undefined {
    return this.addBox(slideId, newTextBox(this.freeFrameOn(slideId, NEW_TEXT_FRAME), newId()));
  }

  /** A shape in the theme's accent colour (a line or arrow: its outline), placed as a new text box is; answers its id. */
  addShape(slideId: string, kind: ShapeKind, accent: string): string | undefined {
    const line = isLineShape(kind);
    const frame = this.freeFrameOn(slideId, line ? NEW_LINE_FRAME : NEW_SHAPE_FRAME);
    return this.addBox(slideId, newShapeBox(frame, { kind, ...(line ? {} : { fill: accent }), outline: line ? accent : '#1f2937', outlineWidth: line ? 3 : 1 }, newId()));
  }

  private freeFrameOn(slideId: string, preferred: BoxFrame): BoxFrame {
    return freeFrame(preferred, boxesOf(this.slide(slideId)).map(frameOf));
  }

  /** An image box, its frame the image's own size fitted into the slide and centred; answers its id. */
  addImageBox(slideId: string, image: { src: string; alt: string; width: number; height: number }): string | undefined {
    const scale = Math.min(1, (SLIDE_WIDTH * 0.8) / image.width, (SLIDE_HEIGHT * 0.8) / image.height);
    const width = Math.max(MIN_BOX_SIZE, image.width * scale);
    const height = Math.max(MIN_BOX_SIZE, image.height * scale);
    const frame = clampFrame({ x: (SLIDE_WIDTH - width) / 2, y: (SLIDE_HEIGHT - height) / 2, width, height });
    return this.addBox(slideId, newImageBox(frame, { src: image.src, alt: image.alt }, newId()));
  }

  setFrame(box: Y.Map<unknown>, frame: BoxFrame): void {
    const next = clampFrame(frame);
    this.change(() => {
      for (const key of ['x', 'y', 'width', 'height'] as const) if (box.get(key) !== next[key]) box.set(key, next[key]);
    });
  }

  /** Crops an image box: its frame becomes the part of the picture shown, with the crop that shows it (one change). */
  cropImage(box: Y.Map<unknown>, frame: BoxFrame, crop: ImageCrop): void {
    const next = clampFrame(frame);
    this.change(() => {
      for (const key of ['x', 'y', 'width', 'height'] as const) if (box.get(key) !== next[key]) box.set(key, next[key]);
      setCrop(box, crop);
    });
  }

  /** Moves boxes of a slide to new positions in one change (a group drag, Align): one undo step. */
  placeBoxes(slideId: string, positions: ReadonlyMap<string, { x: number; y: number }>): void {
    const boxes = boxesOf(this.slide(slideId)).filter((box) => positions.has(idOf(box)));
    if (boxes.length === 0) return;
    this.change(() => {
      for (const box of boxes) {
        const next = clampFrame({ ...frameOf(box), ...positions.get(idOf(box))! });
        for (const key of ['x', 'y'] as const) if (box.get(key) !== next[key]) box.set(key, next[key]);
      }
    });
  }

  /**
   * Groups boxes of a slide (PowerPoint's Group): they share a `group` id, so a click on one selects them all and
   * they move, align and delete together. A box is in one group at most: grouping boxes of other groups merges them.
   */
  groupBoxes(slideId: string, boxIds: readonly string[]): void {
    const boxes = boxesOf(this.slide(slideId)).filter((box) => boxIds.includes(idOf(box)));
    if (boxes.length < 2) return;
    const group = newId();
    this.change(() => boxes.forEach((box) => box.set('group', group)));
  }

  /** Takes the boxes' groups apart: every box of a group any of them is in stands alone again. */
  ungroupBoxes(slideId: string, boxIds: readonly string[]): void {
    const boxes = boxesOf(this.slide(slideId));
    const groups = new Set(boxes.filter((box) => boxIds.includes(idOf(box))).map(groupOf).filter((group) => group !== undefined));
    const members = boxes.filter((box) => groups.has(groupOf(box) ?? ''));
    if (members.length > 0) this.change(() => members.forEach((box) => box.delete('group')));
  }

  /** The other boxes of the slide in the box's group (none when it stands alone). */
  groupMates(slideId: string, boxId: string): string[] {
    const boxes = boxesOf(this.slide(slideId));
    const group = groupOf(boxes.find((box) => idOf(box) === boxId));
    return group === undefined ? [] : boxes.filter((box) => groupOf(box) === group && idOf(box) !== boxId).map(idOf);
  }

  /** Deletes boxes of a slide in one change (Delete on a selection of several: one undo step brings them back). */
  deleteBoxes(slideId: string, boxIds: readonly string[]): void {
    const slide = this.slide(slideId);
    const boxes = slide ? boxArrayOf(slide) : undefined;
    if (!boxes) return;
    const indexes = boxes
      .toArray()
      .flatMap((box, index) => (boxIds.includes(idOf(box)) ? [index] : []))
      .reverse();
    if (indexes.length > 0) this.change(() => indexes.forEach((index) => boxes.delete(index, 1)));
  }

  /**
   * Moves a box in the slide's drawing order (later boxes are drawn over earlier ones), as PowerPoint's Arrange:
   * to the top or bottom of the pile, or one step up or down. Like moveSlide, the box is replaced by a copy with
   * the same id (comments stay on it); text a collaborator types into it during that instant is lost.
   */
  arrangeBox(slideId: string, boxId: string, to: BoxOrder): void {
    const slide = this.slide(slideId);
    const boxes = slide ? boxArrayOf(slide) : undefined;
    const entries = boxes?.toArray() ?? [];
    const from = entries.findIndex((box) => idOf(box) === boxId);
    if (!boxes || from < 0) return;
    const last = entries.length - 1;
    const at = to === 'front' ? last : to === 'back' ? 0 : to === 'forward' ? Math.min(last, from + 1) : Math.max(0, from - 1);
    if (at === from) return;
    const copy = (entries[from] as Y.Map<unknown>).clone();
    this.change(() => {
      boxes.delete(from, 1);
      boxes.insert(at, [copy]);
    });
  }

  /** Where a box is in its slide's drawing order: whether Arrange can bring it forward or send it backward. */
  orderOf(slideId: string, boxId: string): { index: number; count: number } {
    const boxes = boxesOf(this.slide(slideId));
    return { index: boxes.findIndex((box) => idOf(box) === boxId), count: boxes.length };
  }

  /**
   * The boxes as clipboard data: a Yjs update of a scratch document holding copies of them, so a paste (in this
   * deck or another) gets every box with its text, formatting and look, whatever the box kind holds.
   */
  copyBoxes(slideId: string, boxIds: readonly string[]): Uint8Array | undefined {
    const chosen = boxesOf(this.slide(slideId)).filter((box) => boxIds.includes(idOf(box)));
    if (chosen.length === 0) return undefined;
    const scratch = new Y.Doc();
    scratch.getArray<Y.Map<unknown>>(CLIPBOARD_ROOT).push(chosen.map((box) => box.clone()));
    return Y.encodeStateAsUpdate(scratch);
  }

  /**
   * Puts boxes copied by copyBoxes on a slide, each with a new id; a box that would land exactly on one already
   * there (a paste onto the slide it was copied from) is moved down and right by 20 points, as office editors do.
   * Answers the new boxes' ids; none when the data is not boxes.
   */
  pasteBoxes(slideId: string, data: Uint8Array): string[] {
    const slide = this.slide(slideId);
    const boxes = slide ? boxArrayOf(slide) : undefined;
    if (!boxes) return [];
    const scratch = new Y.Doc();
    try {
      Y.applyUpdate(scratch, data);
    } catch {
      return [];
    }
    const taken = boxesOf(slide).map(frameOf);
    // boxes copied together as a group stay a group of their own, not one with the boxes they were copied from
    const groups = new Map<string, string>();
    const pasted = scratch
      .getArray<unknown>(CLIPBOARD_ROOT)
      .toArray()
      .filter((box): box is Y.Map<unknown> => box instanceof Y.Map)
      .map((box) => {
        const copy = box.clone();
        copy.set('id', newId());
        const group = groupOf(box);
        if (group !== undefined) {
          if (!groups.has(group)) groups.set(group, newId());
          copy.set('group', groups.get(group)!);
        }
        // read from the scratch document's box: a copy not yet in a document answers nothing to get()
        const original = frameOf(box);
        let frame = original;
        // bounded: at the slide's bottom right corner a step no longer moves the box
        for (let step = 0; step < 20 && taken.some((other) => other.x === frame.x && other.y === frame.y); step++) frame = clampFrame({ ...frame, x: frame.x + 20, y: frame.y + 20 });
        if (frame !== original) for (const key of ['x', 'y'] as const) copy.set(key, frame[key]);
        taken.push(frame);
        return copy;
      });
    if (pasted.length > 0) this.change(() => boxes.push(pasted));
    return pasted.map(idOf);
  }

  private addBox(slideId: string, box: Y.Map<unknown>): string | undefined {
    const slide = this.slide(slideId);
    const boxes = slide ? boxArrayOf(slide) : undefined;
    if (!boxes) return undefined;
    this.change(() => boxes.push([box]));
    return idOf(box);
  }

  /** Where the slide is in the Yjs array itself (which may hold entries `list()` leaves out). */
  private arrayIndexOf(slideId: string): number {
    return this.slides.toArray().findIndex((slide) => slide instanceof Y.Map && idOf(slide) === slideId);
  }

  private change(apply: () => void): void {
    this.doc.transact(apply, this);
  }
}
