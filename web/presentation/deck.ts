import * as Y from 'yjs';
import { newImageBox, newSlide, newTextBox, slideMaps, slidesOf, SLIDE_HEIGHT, SLIDE_WIDTH, type BoxFrame } from '../../src/model/content.js';

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

/** A slide's boxes, only those that are maps (a malformed entry is skipped, never fatal). */
export function boxesOf(slide: unknown): Array<Y.Map<unknown>> {
  const boxes = slide instanceof Y.Map ? slide.get('boxes') : undefined;
  return boxes instanceof Y.Array ? boxes.toArray().filter((box): box is Y.Map<unknown> => box instanceof Y.Map) : [];
}

function boxArrayOf(slide: Y.Map<unknown>): Y.Array<unknown> | undefined {
  const boxes = slide.get('boxes');
  return boxes instanceof Y.Array ? boxes : undefined;
}

/** Where a new slide's title box goes. */
const TITLE_FRAME: BoxFrame = { x: 60, y: 40, width: 840, height: 100 };
/** Where a text box added to a slide goes (then moved by the user). */
const NEW_TEXT_FRAME: BoxFrame = { x: 180, y: 200, width: 600, height: 120 };

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

  /** A new slide after the slide `afterId` (none: at the end) with an empty title box; answers its id. */
  addSlide(afterId: string | undefined): string {
    const id = newId();
    const after = afterId === undefined ? -1 : this.arrayIndexOf(afterId);
    this.change(() => {
      const slide = newSlide(id);
      this.slides.insert(after < 0 ? this.slides.length : after + 1, [slide]);
      boxArrayOf(slide)!.push([newTextBox(TITLE_FRAME, newId())]);
    });
    return id;
  }

  /** A copy of the slide right after it, every box with a new id; answers the copy's id. */
  duplicateSlide(slideId: string): string | undefined {
    const index = this.arrayIndexOf(slideId);
    if (index < 0) return undefined;
    const original = this.slides.get(index);
    const id = newId();
    this.change(() => {
      const copy = newSlide(id);
      this.slides.insert(index + 1, [copy]);
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

  /** An empty text box on the slide; answers its id. */
  addTextBox(slideId: string): string | undefined {
    return this.addBox(slideId, newTextBox(NEW_TEXT_FRAME, newId()));
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

  deleteBox(slideId: string, boxId: string): void {
    const slide = this.slide(slideId);
    const boxes = slide ? boxArrayOf(slide) : undefined;
    const index = boxes?.toArray().findIndex((box) => idOf(box) === boxId) ?? -1;
    if (boxes && index >= 0) this.change(() => boxes.delete(index, 1));
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
