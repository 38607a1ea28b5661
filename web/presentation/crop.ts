import type * as Y from 'yjs';
import { SLIDE_HEIGHT, SLIDE_WIDTH, type BoxFrame } from '../../src/model/content.js';
import { cropOf, croppedTo, uncroppedFrame, type ImageCrop } from '../../src/model/slides.js';
import { frameOf, MIN_BOX_SIZE } from './deck.js';
import { t } from './messages.js';
import { followDrag, HANDLES, type Handle } from './pointer.js';


const HANDLE_LABELS: Record<Handle, Parameters<typeof t>[0]> = {
  nw: 'crop.topLeft',
  n: 'crop.top',
  ne: 'crop.topRight',
  e: 'crop.right',
  se: 'crop.bottomRight',
  s: 'crop.bottom',
  sw: 'crop.bottomLeft',
  w: 'crop.left',
};

/**
 * The part of the picture shown after a crop handle moved by dx, dy points: the handle's edges move, each kept
 * inside the picture and the slide, the part at least MIN_BOX_SIZE points each way (as any box).
 */
export function movedCropEdge(shown: BoxFrame, picture: BoxFrame, handle: Handle, dx: number, dy: number): BoxFrame {
  let left = shown.x;
  let top = shown.y;
  let right = shown.x + shown.width;
  let bottom = shown.y + shown.height;
  const [minX, minY] = [Math.max(picture.x, 0), Math.max(picture.y, 0)];
  const [maxX, maxY] = [Math.min(picture.x + picture.width, SLIDE_WIDTH), Math.min(picture.y + picture.height, SLIDE_HEIGHT)];
  if (handle.includes('w')) left = Math.min(Math.max(left + dx, minX), right - MIN_BOX_SIZE);
  if (handle.includes('e')) right = Math.max(Math.min(right + dx, maxX), left + MIN_BOX_SIZE);
  if (handle.includes('n')) top = Math.min(Math.max(top + dy, minY), bottom - MIN_BOX_SIZE);
  if (handle.includes('s')) bottom = Math.max(Math.min(bottom + dy, maxY), top + MIN_BOX_SIZE);
  return { x: left, y: top, width: right - left, height: bottom - top };
}

/**
 * Where an image box's whole picture lies on the slide: past the box on its cropped sides, or, not cropped yet,
 * fitted into the box as it is drawn (object-fit: contain) by the picture's own proportions.
 */
function pictureFrame(box: Y.Map<unknown>, naturalWidth: number, naturalHeight: number): BoxFrame {
  const frame = frameOf(box);
  const crop = cropOf(box);
  if (crop) return uncroppedFrame(frame, crop);
  if (naturalWidth <= 0 || naturalHeight <= 0) return frame;
  const scale = Math.min(frame.width / naturalWidth, frame.height / naturalHeight);
  const [width, height] = [naturalWidth * scale, naturalHeight * scale];
  return { x: frame.x + (frame.width - width) / 2, y: frame.y + (frame.height - height) / 2, width, height };
}

export interface CropTarget {
  /** the slide surface the crop is drawn on, in points */
  surface: HTMLElement;
  /** screen pixels per point (a drag's distance in points is its pixels over this) */
  scale(): number;
  /** applies the crop: the box's new frame and crop, one change */
  apply(frame: BoxFrame, crop: ImageCrop): void;
  /** the crop mode ended (applied or cancelled) */
  ended(): void;
}

/**
 * The crop mode of an image box (PowerPoint's Crop): the whole picture drawn faintly where it lies, the part
 * shown outlined with eight handles. A handle is dragged, or focused (Tab) and moved with the arrow keys (Shift:
 * by 10 points); Enter applies, Escape cancels, as does clicking outside. Applying makes the box the part shown
 * and stores the crop (src/model/slides.ts croppedTo), so the picture stays where it was on the slide.
 */
export class CropMode {
  private readonly layer: HTMLElement;
  private readonly outline: HTMLElement;
  private readonly picture: BoxFrame;
  private shown: BoxFrame;
  private done = false;

  constructor(
    private readonly target: CropTarget,
    box: Y.Map<unknown>,
    image: HTMLImageElement,
  ) {
    this.picture = pictureFrame(box, image.naturalWidth, image.naturalHeight);
    const frame = frameOf(box);
    // not cropped yet: the part shown starts as the picture as drawn (a letterboxed picture loses its bands)
    this.shown = cropOf(box) ? frame : movedCropEdge(movedCropEdge(this.picture, this.picture, 'nw', 0, 0), this.picture, 'se', 0, 0);
    this.layer = document.createElement('div');
    this.layer.className = 'svc-crop';
    this.layer.setAttribute('role', 'group');
    this.layer.setAttribute('aria-label', t('crop.label'));
    const whole = document.createElement('img');
    whole.className = 'svc-crop-picture';
    whole.src = image.src;
    whole.alt = '';
    whole.draggable = false;
    place(whole, this.picture);
    this.outline = document.createElement('div');
    this.outline.className = 'svc-crop-shown';
    // the part shown at full strength, through a window as large as the outline (the handles stay outside it)
    const window = document.createElement('div');
    window.className = 'svc-crop-window';
    const shownPicture = whole.cloneNode() as HTMLImageElement;
    shownPicture.className = 'svc-crop-shown-picture';
    window.append(shownPicture);
    this.outline.append(window);
    for (const handle of HANDLES) {
      const grip = document.createElement('button');
      grip.type = 'button';
      grip.className = 'svc-crop-handle';
      grip.dataset.handle = handle;
      grip.setAttribute('aria-label', t(HANDLE_LABELS[handle]));
      grip.title = t('crop.hint');
      grip.addEventListener('pointerdown', (event) => this.drag(event, handle));
      grip.addEventListener('keydown', (event) => this.nudge(event, handle));
      this.outline.append(grip);
    }
    this.layer.append(whole, this.outline);
    this.layer.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') {
        event.preventDefault();
        this.finish(true);
      } else if (event.key === 'Escape') {
        event.preventDefault();
        event.stopPropagation();
        this.finish(false);
      }
    });
    // a press outside the picture ends the mode, as PowerPoint's does, keeping the crop
    this.layer.addEventListener('pointerdown', (event) => {
      if (event.target === this.layer) this.finish(true);
    });
    this.layer.addEventListener('focusout', (event) => {
      if (!this.layer.contains(event.relatedTarget as Node | null) && event.relatedTarget !== null) this.finish(false);
    });
    target.surface.append(this.layer);
    this.draw();
    this.outline.querySelector<HTMLButtonElement>('[data-handle="w"]')!.focus({ preventScroll: true });
  }

  /** Ends the mode: `apply` the crop (Enter) or leave the box as it was (Escape). */
  finish(apply: boolean): void {
    if (this.done) return;
    this.done = true;
    this.layer.remove();
    if (apply) {
      const rounded = { x: Math.round(this.shown.x), y: Math.round(this.shown.y), width: Math.round(this.shown.width), height: Math.round(this.shown.height) };
      const { frame, crop } = croppedTo(this.picture, rounded);
      // rounding to whole points may step past the picture by a fraction: a side is never below 0
      this.target.apply(frame, { left: Math.max(0, crop.left), top: Math.max(0, crop.top), right: Math.max(0, crop.right), bottom: Math.max(0, crop.bottom) });
    }
    this.target.ended();
  }

  private draw(): void {
    place(this.outline, this.shown);
    const picture = this.outline.querySelector<HTMLImageElement>('.svc-crop-shown-picture')!;
    place(picture, { x: this.picture.x - this.shown.x, y: this.picture.y - this.shown.y, width: this.picture.width, height: this.picture.height });
  }

  private drag(event: PointerEvent, handle: Handle): void {
    if (event.button !== 0) return;
    event.preventDefault();
    event.stopPropagation();
    const grip = event.currentTarget as HTMLElement;
    grip.focus({ preventScroll: true });
    const start = this.shown;
    followDrag(
      grip,
      event.pointerId,
      (moved) => {
        const scale = this.target.scale();
        this.shown = movedCropEdge(start, this.picture, handle, (moved.clientX - event.clientX) / scale, (moved.clientY - event.clientY) / scale);
        this.draw();
      },
      () => undefined,
    );
  }

  private nudge(event: KeyboardEvent, handle: Handle): void {
    const step = event.shiftKey ? 10 : 1;
    const moves: Record<string, [number, number]> = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    event.stopPropagation();
    this.shown = movedCropEdge(this.shown, this.picture, handle, move[0], move[1]);
    this.draw();
  }
}

function place(element: HTMLElement, frame: BoxFrame): void {
  Object.assign(element.style, { left: `${frame.x}px`, top: `${frame.y}px`, width: `${frame.width}px`, height: `${frame.height}px` });
}
