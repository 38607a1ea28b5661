import { Editor } from '@tiptap/core';
import * as Y from 'yjs';
import { boxTypeOf, SLIDE_HEIGHT, SLIDE_WIDTH, type BoxFrame } from '../../src/model/content.js';
import { richTextExtensions } from '../rich-text/extensions.js';
import type { ModelHost } from '../rich-text/model.js';
import { colorOf } from '../shared/collaboration.js';
import type { EditorContext } from '../shared/editor-context.js';
import { boxesOf, clampFrame, frameOf, idOf, MIN_BOX_SIZE, type Deck } from './deck.js';
import { t } from './messages.js';
import { fitSlide, imageView, positionBox } from './slide-view.js';

/** Resize handles by the edges they move: n(orth), e(ast), s(outh), w(est). */
const HANDLES = ['nw', 'n', 'ne', 'e', 'se', 's', 'sw', 'w'] as const;
type Gesture = (typeof HANDLES)[number] | 'move';

/** How a gesture changes a frame when the pointer moved by dx, dy points; the opposite edge stays put. */
export function applyGesture(start: BoxFrame, gesture: Gesture, dx: number, dy: number): BoxFrame {
  if (gesture === 'move') return { ...start, x: start.x + dx, y: start.y + dy };
  const frame = { ...start };
  if (gesture.includes('e')) frame.width = Math.max(MIN_BOX_SIZE, Math.min(SLIDE_WIDTH - start.x, start.width + dx));
  if (gesture.includes('s')) frame.height = Math.max(MIN_BOX_SIZE, Math.min(SLIDE_HEIGHT - start.y, start.height + dy));
  if (gesture.includes('w')) {
    frame.width = Math.max(MIN_BOX_SIZE, Math.min(start.x + start.width, start.width - dx));
    frame.x = start.x + start.width - frame.width;
  }
  if (gesture.includes('n')) {
    frame.height = Math.max(MIN_BOX_SIZE, Math.min(start.y + start.height, start.height - dy));
    frame.y = start.y + start.height - frame.height;
  }
  return frame;
}

/** One box on the stage: its element and, for a text box, the rich-text editor bound to its content. */
interface BoxView {
  box: Y.Map<unknown>;
  element: HTMLElement;
  editor?: Editor;
}

export interface StageHandlers {
  /** the selected box changed (undefined: none) */
  selected(boxId: string | undefined): void;
}

/**
 * The slide being edited: a 960×540-point surface scaled to fit its area. Text boxes are rich-text editors
 * bound to their box's XmlFragment (collaborators converge on them as on a document); boxes are selected by a
 * click, moved by dragging their frame, resized by their handles, deleted with Delete. A gesture changes the
 * model once, when it ends, so it is one step to undo and collaborators see where the box landed.
 */
export class Stage {
  readonly element: HTMLElement;
  private readonly surface: HTMLElement;
  private readonly empty: HTMLElement;
  private readonly views = new Map<Y.Map<unknown>, BoxView>();
  private scale = 1;
  private slideId: string | undefined;
  private selectedBoxId: string | undefined;
  private commented = new Set<string>();
  private editable: boolean;

  constructor(
    private readonly context: EditorContext,
    private readonly deck: Deck,
    private readonly host: ModelHost,
    private readonly handlers: StageHandlers,
  ) {
    this.editable = context.boot.permissions.editable;
    this.element = document.createElement('div');
    this.element.className = 'svc-stage';
    this.surface = document.createElement('div');
    this.surface.className = 'svc-slide svc-slide-editing';
    this.surface.style.width = `${SLIDE_WIDTH}px`;
    this.surface.style.height = `${SLIDE_HEIGHT}px`;
    this.surface.setAttribute('role', 'region');
    this.empty = document.createElement('p');
    this.empty.className = 'svc-stage-empty';
    this.empty.textContent = t('slides.none');
    this.element.append(this.surface, this.empty);
    this.surface.addEventListener('pointerdown', (event) => {
      if (event.target === this.surface) this.select(undefined);
    });
    new ResizeObserver(() => this.fit()).observe(this.element);
  }

  get currentSlideId(): string | undefined {
    return this.slideId;
  }

  get selectedBox(): string | undefined {
    return this.selectedBoxId;
  }

  /** Shows the slide `slideId` (undefined: none) and draws its boxes. */
  show(slideId: string | undefined): void {
    if (slideId !== this.slideId) {
      for (const view of this.views.values()) this.remove(view);
      this.slideId = slideId;
      this.select(undefined);
    }
    this.refresh();
  }

  /** Brings the boxes in line with the model: new ones drawn, gone ones removed, frames and order updated. */
  refresh(): void {
    const slide = this.slideId === undefined ? undefined : this.deck.slide(this.slideId);
    const index = slide ? this.deck.list().indexOf(slide) : -1;
    this.surface.setAttribute('aria-label', t('stage.label', { number: index + 1, count: this.deck.length }));
    this.surface.hidden = !slide;
    this.empty.hidden = !!slide;
    const boxes = boxesOf(slide);
    const live = new Set(boxes);
    for (const [box, view] of this.views) if (!live.has(box)) this.remove(view);
    boxes.forEach((box, index) => {
      let view = this.views.get(box);
      if (!view) {
        view = this.create(box);
        this.views.set(box, view);
      }
      positionBox(view.element, box);
      view.element.classList.toggle('is-selected', idOf(box) === this.selectedBoxId);
      view.element.classList.toggle('svc-box-commented', this.commented.has(idOf(box)));
      // back to front: the later box is drawn over the earlier one; moving an element that is in place would
      // take the focus from the text being typed in it
      if (this.surface.children[index] !== view.element) this.surface.insertBefore(view.element, this.surface.children[index] ?? null);
    });
    if (this.selectedBoxId !== undefined && !boxes.some((box) => idOf(box) === this.selectedBoxId)) this.select(undefined);
  }

  setEditable(editable: boolean): void {
    this.editable = editable;
    for (const view of this.views.values()) view.editor?.setEditable(editable);
    this.surface.classList.toggle('is-read-only', !editable);
  }

  /** The focused text box's editor, if the user is typing in one. */
  focusedEditor(): Editor | undefined {
    for (const view of this.views.values()) if (view.editor?.isFocused) return view.editor;
    return undefined;
  }

  /** The editor of a text box of this slide (for the SDK and tests that read what a box shows). */
  editorOf(boxId: string): Editor | undefined {
    for (const view of this.views.values()) if (idOf(view.box) === boxId) return view.editor;
    return undefined;
  }

  select(boxId: string | undefined): void {
    if (boxId === this.selectedBoxId) return;
    this.selectedBoxId = boxId;
    for (const view of this.views.values()) view.element.classList.toggle('is-selected', idOf(view.box) === boxId);
    this.handlers.selected(boxId);
  }

  /** Marks the boxes that have open comment threads. */
  markCommented(boxIds: Set<string>): void {
    this.commented = boxIds;
    for (const view of this.views.values()) view.element.classList.toggle('svc-box-commented', boxIds.has(idOf(view.box)));
  }

  /** Marks the boxes collaborators have selected with their colour. */
  showRemoteSelections(selections: Map<string, string>): void {
    for (const view of this.views.values()) {
      const color = selections.get(idOf(view.box));
      view.element.classList.toggle('is-remote-selected', color !== undefined);
      view.element.style.setProperty('--svc-remote-color', color ?? 'transparent');
    }
  }

  destroy(): void {
    for (const view of this.views.values()) this.remove(view);
  }

  private fit(): void {
    const { clientWidth, clientHeight } = this.element;
    if (clientWidth === 0 || clientHeight === 0) return;
    this.scale = fitSlide(this.surface, clientWidth - 32, clientHeight - 32);
    this.surface.style.left = `${parseFloat(this.surface.style.left) + 16}px`;
    this.surface.style.top = `${parseFloat(this.surface.style.top) + 16}px`;
  }

  private create(box: Y.Map<unknown>): BoxView {
    const element = document.createElement('div');
    const type = boxTypeOf(box);
    element.className = 'svc-box';
    element.dataset.type = type;
    element.dataset.boxId = idOf(box);
    element.tabIndex = 0;
    element.setAttribute('role', 'group');
    element.setAttribute('aria-label', t(type === 'image' ? 'box.image' : 'box.text'));
    const frame = document.createElement('div');
    frame.className = 'svc-box-frame';
    element.append(frame);
    const view: BoxView = { box, element };
    const content = box.get('content');
    if (type === 'image') {
      const image = imageView(box, this.host.displayImageSrc);
      image.classList.add('svc-box-body');
      element.append(image);
      image.addEventListener('pointerdown', (event) => this.startGesture(event, view, 'move'));
    } else if (content instanceof Y.XmlFragment) {
      const body = document.createElement('div');
      body.className = 'svc-box-body';
      element.append(body);
      view.editor = this.createEditor(body, content);
    }
    for (const handle of HANDLES) {
      const grip = document.createElement('div');
      grip.className = 'svc-box-handle';
      grip.dataset.handle = handle;
      grip.title = t('box.resize');
      grip.addEventListener('pointerdown', (event) => this.startGesture(event, view, handle));
      element.append(grip);
    }
    frame.addEventListener('pointerdown', (event) => this.startGesture(event, view, 'move'));
    element.addEventListener('pointerdown', () => this.select(idOf(box)));
    element.addEventListener('focusin', () => this.select(idOf(box)));
    element.addEventListener('keydown', (event) => this.boxKey(event, view));
    return view;
  }

  private createEditor(element: HTMLElement, fragment: Y.XmlFragment): Editor {
    const { boot, session } = this.context;
    return new Editor({
      element,
      editable: this.editable,
      extensions: richTextExtensions({
        doc: session.doc,
        fragment,
        provider: session.provider,
        user: { name: boot.user.name, color: colorOf(boot.user.id) },
        host: this.host,
      }),
      editorProps: { attributes: { class: 'svc-rich-text svc-box-text', 'aria-label': t('box.text'), 'data-placeholder': t('box.placeholder') } },
    });
  }

  /** Delete removes a selected box, arrows nudge it (Shift: by 10 points); keys typed in its text stay there. */
  private boxKey(event: KeyboardEvent, view: BoxView): void {
    if (event.target !== view.element || !this.editable || this.slideId === undefined) return;
    if (event.key === 'Delete' || event.key === 'Backspace') {
      event.preventDefault();
      this.deck.deleteBox(this.slideId, idOf(view.box));
      return;
    }
    const step = event.shiftKey ? 10 : 1;
    const moves: Record<string, [number, number]> = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    this.deck.setFrame(view.box, applyGesture(frameOf(view.box), 'move', move[0], move[1]));
  }

  private startGesture(event: PointerEvent, view: BoxView, gesture: Gesture): void {
    if (!this.editable || event.button !== 0) return;
    event.preventDefault();
    event.stopPropagation();
    this.select(idOf(view.box));
    view.element.focus({ preventScroll: true });
    const target = event.currentTarget as HTMLElement;
    target.setPointerCapture(event.pointerId);
    const start = frameOf(view.box);
    let frame = start;
    const move = (moved: PointerEvent) => {
      frame = clampFrame(applyGesture(start, gesture, (moved.clientX - event.clientX) / this.scale, (moved.clientY - event.clientY) / this.scale));
      Object.assign(view.element.style, { left: `${frame.x}px`, top: `${frame.y}px`, width: `${frame.width}px`, height: `${frame.height}px` });
    };
    const end = () => {
      target.removeEventListener('pointermove', move);
      target.removeEventListener('pointerup', end);
      target.removeEventListener('pointercancel', end);
      if (frame !== start) this.deck.setFrame(view.box, frame);
    };
    target.addEventListener('pointermove', move);
    target.addEventListener('pointerup', end);
    target.addEventListener('pointercancel', end);
  }

  private remove(view: BoxView): void {
    view.editor?.destroy();
    view.element.remove();
    this.views.delete(view.box);
  }
}
