import { Editor } from '@tiptap/core';
import * as Y from 'yjs';
import { boxTypeOf, SLIDE_HEIGHT, SLIDE_WIDTH, type BoxFrame } from '../../src/model/content.js';
import { richTextExtensions } from '../rich-text/extensions.js';
import type { ModelHost } from '../rich-text/model.js';
import { base64ToBytes, bytesToBase64 } from '../shared/base64.js';
import { colorOf } from '../shared/collaboration.js';
import type { EditorContext } from '../shared/editor-context.js';
import { alignedFrames, boxesOf, clampFrame, frameOf, idOf, MIN_BOX_SIZE, type BoxAlignment, type BoxOrder, type Deck } from './deck.js';
import { t } from './messages.js';
import { richTextToPlain } from '../../src/model/rich-text/schema.js';
import { LAYOUT_PLACEHOLDERS, placeholderRoleOf, SLIDE_LAYOUTS, type SlideLayout } from '../../src/model/slides.js';
import { applyTheme, fitSlide, imageView, positionBox, shapeView, showCrop } from './slide-view.js';
import { CropMode } from './crop.js';
import { followDrag, HANDLES, type Handle } from './pointer.js';

/** A small drawing of a layout's placeholders (the layout menu and the empty slide's layout choice). */
export function layoutIcon(layout: SlideLayout): HTMLElement {
  const icon = document.createElement('span');
  icon.className = 'svc-layout-icon';
  icon.setAttribute('aria-hidden', 'true');
  for (const placeholder of LAYOUT_PLACEHOLDERS[layout]) {
    const part = document.createElement('span');
    part.dataset.role = placeholder.role;
    const { x, y, width, height } = placeholder.frame;
    Object.assign(part.style, { left: `${(x / SLIDE_WIDTH) * 100}%`, top: `${(y / SLIDE_HEIGHT) * 100}%`, width: `${(width / SLIDE_WIDTH) * 100}%`, height: `${(height / SLIDE_HEIGHT) * 100}%` });
    icon.append(part);
  }
  return icon;
}

/**
 * The clipboard type of copied boxes: base64 of a Yjs update (Deck.copyBoxes). Chromium and Firefox keep a custom
 * type set in a copy event for pages of any origin in the same browser, so boxes paste into another deck too.
 */
const BOXES_TYPE = 'application/x-svc-slide-boxes';

/** What a copied box gives an application that does not know boxes: its text, an image's alternative text. */
function plainTextOf(box: Y.Map<unknown>): string {
  const content = box.get('content');
  if (content instanceof Y.XmlFragment) return richTextToPlain(content);
  const alt = box.get('alt');
  return typeof alt === 'string' ? alt : '';
}

/** Ctrl+] and Ctrl+[ (with Shift: all the way), as PowerPoint's Arrange: by the key's place, whatever the layout. */
function orderForKey(event: KeyboardEvent): BoxOrder | undefined {
  if (!(event.ctrlKey || event.metaKey) || event.altKey) return undefined;
  if (event.code === 'BracketRight') return event.shiftKey ? 'front' : 'forward';
  if (event.code === 'BracketLeft') return event.shiftKey ? 'back' : 'backward';
  return undefined;
}

/** How far (screen pixels) the pointer moves on a text box's text before a press becomes a drag of the box. */
const DRAG_THRESHOLD = 4;

type Gesture = Handle | 'move';

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
  /** a shape box's drawing, drawn again when the shape changes */
  shape?: SVGSVGElement;
  /** an image box's picture, cropped again when its crop changes */
  image?: HTMLImageElement;
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
  /** on an empty slide: its layout to choose (a new presentation opens on one) */
  private readonly layouts: HTMLElement;
  private readonly views = new Map<Y.Map<unknown>, BoxView>();
  private scale = 1;
  private slideId: string | undefined;
  private selectedBoxId: string | undefined;
  /** boxes Shift+clicked into the selection besides selectedBoxId (Align, a group drag, nudge, Delete, copy) */
  private readonly alsoSelected = new Set<string>();
  private commented = new Set<string>();
  private editable: boolean;
  /** the crop mode of an image box, while it is on */
  private cropping: CropMode | undefined;

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
    this.layouts = this.layoutPicker();
    this.element.append(this.surface, this.empty, this.layouts);
    this.surface.addEventListener('pointerdown', (event) => {
      if (event.target === this.surface) this.select(undefined);
    });
    new ResizeObserver(() => this.fit()).observe(this.element);
    document.addEventListener('copy', (event) => this.copyBox(event, false));
    document.addEventListener('cut', (event) => this.copyBox(event, true));
    document.addEventListener('paste', (event) => this.pasteBoxes(event));
  }

  get currentSlideId(): string | undefined {
    return this.slideId;
  }

  get selectedBox(): string | undefined {
    return this.selectedBoxId;
  }

  /** Every selected box of the open slide: the one selected first, then those Shift+clicked in. */
  get selectedBoxes(): string[] {
    return this.selectedBoxId === undefined ? [] : [this.selectedBoxId, ...this.alsoSelected];
  }

  private isSelected(boxId: string): boolean {
    return boxId === this.selectedBoxId || this.alsoSelected.has(boxId);
  }

  /** Shift+click: adds the box (with its group) to the selection, or takes it out when it is in. */
  private toggleSelected(boxId: string): void {
    if (this.selectedBoxId === undefined) return this.select(boxId);
    const boxIds = [boxId, ...this.groupMates(boxId)];
    if (!this.isSelected(boxId)) {
      for (const id of boxIds) if (id !== this.selectedBoxId) this.alsoSelected.add(id);
      return this.markSelection();
    }
    for (const id of boxIds) this.alsoSelected.delete(id);
    if (boxIds.includes(this.selectedBoxId)) {
      const [next] = this.alsoSelected;
      if (next === undefined) return this.select(undefined);
      this.alsoSelected.delete(next);
      this.selectedBoxId = next;
      this.handlers.selected(next);
    }
    this.markSelection();
  }

  private groupMates(boxId: string): string[] {
    return this.slideId === undefined ? [] : this.deck.groupMates(this.slideId, boxId);
  }

  /** Groups the selected boxes (Ctrl+G), or takes their groups apart (Ctrl+Shift+G); they stay selected. */
  group(together: boolean): void {
    if (!this.editable || this.slideId === undefined || this.selectedBoxId === undefined) return;
    if (together) this.deck.groupBoxes(this.slideId, this.selectedBoxes);
    else this.deck.ungroupBoxes(this.slideId, this.selectedBoxes);
  }

  private markSelection(): void {
    for (const view of this.views.values()) view.element.classList.toggle('is-selected', this.isSelected(idOf(view.box)));
  }

  /** Aligns or distributes the selected boxes (one box: on the slide), as they are drawn (a text box grown by its text). */
  align(how: BoxAlignment): void {
    if (!this.editable || this.slideId === undefined) return;
    const chosen = [...this.views.values()].filter((view) => this.isSelected(idOf(view.box)));
    const frames = chosen.map((view) => this.drawnFrame(view));
    const placed = alignedFrames(frames, how);
    this.deck.placeBoxes(this.slideId, new Map(chosen.map((view, index) => [idOf(view.box), placed[index]!])));
  }

  /** A box's frame as the user sees it: a text box is as high as its text when that is more than its stored height. */
  private drawnFrame(view: BoxView): BoxFrame {
    const stored = frameOf(view.box);
    return { ...stored, height: Math.max(stored.height, Math.round(view.element.offsetHeight)) };
  }

  /** Whether the selected box is an image the user can crop. */
  get canCrop(): boolean {
    const view = this.selectedView();
    return this.editable && view?.image !== undefined && this.alsoSelected.size === 0;
  }

  private selectedView(): BoxView | undefined {
    return [...this.views.values()].find((view) => idOf(view.box) === this.selectedBoxId);
  }

  /** Turns on the crop mode of the selected image box (crop.ts); Enter applies it, Escape cancels. */
  startCrop(): void {
    const view = this.selectedView();
    if (!this.canCrop || !view?.image || this.cropping) return;
    const boxId = idOf(view.box);
    view.element.classList.add('is-cropping');
    this.cropping = new CropMode(
      {
        surface: this.surface,
        scale: () => this.scale,
        apply: (frame, crop) => this.deck.cropImage(view.box, frame, crop),
        ended: () => {
          this.cropping = undefined;
          view.element.classList.remove('is-cropping');
          if (view.element.isConnected) this.focusBox(boxId);
        },
      },
      view.box,
      view.image,
    );
  }

  /** Shows the slide `slideId` (undefined: none) and draws its boxes. */
  show(slideId: string | undefined): void {
    if (slideId !== this.slideId) {
      this.cropping?.finish(false);
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
    applyTheme(this.surface, slide);
    const boxes = boxesOf(slide);
    this.layouts.hidden = !slide || !this.editable || boxes.length > 0;
    const live = new Set(boxes);
    for (const [box, view] of this.views) if (!live.has(box)) this.remove(view);
    boxes.forEach((box, index) => {
      let view = this.views.get(box);
      if (!view) {
        view = this.create(box);
        this.views.set(box, view);
      }
      positionBox(view.element, box);
      if (view.image) showCrop(view.image, box);
      if (view.shape) {
        const drawn = shapeView(box);
        view.shape.replaceWith(drawn);
        view.shape = drawn;
      }
      view.element.classList.toggle('is-selected', this.isSelected(idOf(box)));
      view.element.classList.toggle('svc-box-commented', this.commented.has(idOf(box)));
      // back to front: the later box is drawn over the earlier one; moving an element that is in place would
      // take the focus from the text being typed in it
      if (this.surface.children[index] !== view.element) this.surface.insertBefore(view.element, this.surface.children[index] ?? null);
    });
    for (const boxId of this.alsoSelected) if (!boxes.some((box) => idOf(box) === boxId)) this.alsoSelected.delete(boxId);
    if (this.selectedBoxId !== undefined && !boxes.some((box) => idOf(box) === this.selectedBoxId)) this.select(this.alsoSelected.values().next().value);
  }

  setEditable(editable: boolean): void {
    this.editable = editable;
    if (!editable) this.layouts.hidden = true;
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

  /** Selects the box alone, with the boxes of its group (undefined: none). */
  select(boxId: string | undefined): void {
    const mates = boxId === undefined ? [] : this.groupMates(boxId);
    if (boxId === this.selectedBoxId && this.alsoSelected.size === mates.length && mates.every((id) => this.alsoSelected.has(id))) return;
    this.alsoSelected.clear();
    for (const id of mates) this.alsoSelected.add(id);
    const changed = boxId !== this.selectedBoxId;
    this.selectedBoxId = boxId;
    this.markSelection();
    if (changed) this.handlers.selected(boxId);
  }

  /** Selects a box and puts the keyboard focus on it (arrows then nudge it, Delete removes it). */
  focusBox(boxId: string): void {
    this.select(boxId);
    for (const view of this.views.values()) if (idOf(view.box) === boxId) view.element.focus({ preventScroll: true });
  }

  /** Moves the selected box in the drawing order (Arrange), keeping it selected with the keyboard on it. */
  arrange(to: BoxOrder): void {
    const boxId = this.selectedBoxId;
    if (!this.editable || this.slideId === undefined || boxId === undefined) return;
    this.deck.arrangeBox(this.slideId, boxId, to);
    // the box was replaced by its copy: its frame is a new element
    this.focusBox(boxId);
  }

  /** Ctrl+C / Ctrl+X on a box that has the keyboard (selected, not being typed in): the box to the clipboard. */
  private copyBox(event: ClipboardEvent, cut: boolean): void {
    const view = [...this.views.values()].find((candidate) => candidate.element === document.activeElement);
    if (!view || this.slideId === undefined || !event.clipboardData) return;
    const chosen = this.isSelected(idOf(view.box)) ? [...this.views.values()].filter((each) => this.isSelected(idOf(each.box))) : [view];
    const boxIds = chosen.map((each) => idOf(each.box));
    const data = this.deck.copyBoxes(this.slideId, boxIds);
    if (!data) return;
    event.preventDefault();
    event.clipboardData.setData(BOXES_TYPE, bytesToBase64(data));
    event.clipboardData.setData('text/plain', chosen.map((each) => plainTextOf(each.box)).filter((text) => text !== '').join('\n'));
    if (cut && this.editable) this.deck.deleteBoxes(this.slideId, boxIds);
  }

  /** Ctrl+V of copied boxes onto the open slide, unless the user is typing somewhere (text keeps its own paste). */
  private pasteBoxes(event: ClipboardEvent): void {
    if (!this.editable || this.slideId === undefined || this.surface.hidden) return;
    const active = document.activeElement;
    const typing = active instanceof HTMLElement && (active.isContentEditable || active instanceof HTMLInputElement || active instanceof HTMLTextAreaElement || active instanceof HTMLSelectElement);
    const data = event.clipboardData?.getData(BOXES_TYPE);
    if (typing || !data) return;
    const bytes = base64ToBytes(data);
    if (!bytes) return;
    event.preventDefault();
    const pasted = this.deck.pasteBoxes(this.slideId, bytes);
    const [first, ...others] = pasted;
    if (first === undefined) return;
    this.focusBox(first);
    // what was pasted together stays selected together, to be moved or aligned at once
    for (const boxId of others) this.alsoSelected.add(boxId);
    this.markSelection();
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

  /** The layouts an empty slide can take, as buttons with a small drawing of each. */
  private layoutPicker(): HTMLElement {
    const picker = document.createElement('div');
    picker.className = 'svc-layout-picker';
    picker.setAttribute('role', 'group');
    picker.setAttribute('aria-label', t('layout.choose'));
    const heading = document.createElement('p');
    heading.textContent = t('layout.choose');
    picker.append(heading);
    for (const layout of SLIDE_LAYOUTS) {
      const choice = document.createElement('button');
      choice.type = 'button';
      choice.className = 'svc-layout-choice';
      choice.append(layoutIcon(layout), t(`layout.${layout}`));
      choice.addEventListener('click', () => this.applyLayout(layout));
      picker.append(choice);
    }
    picker.hidden = true;
    return picker;
  }

  private applyLayout(layout: SlideLayout): void {
    if (this.slideId === undefined) return;
    this.deck.applyLayout(this.slideId, layout);
    const first = boxesOf(this.deck.slide(this.slideId))[0];
    if (first) this.editorOf(idOf(first))?.commands.focus();
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
    element.setAttribute('aria-label', t(type === 'image' ? 'box.image' : type === 'shape' ? 'box.shape' : 'box.text'));
    const frame = document.createElement('div');
    frame.className = 'svc-box-frame';
    element.append(frame);
    const view: BoxView = { box, element };
    const content = box.get('content');
    if (type === 'image') {
      const image = imageView(box, this.host.displayImageSrc);
      image.classList.add('svc-box-body');
      element.append(image);
      view.image = image;
      image.addEventListener('pointerdown', (event) => this.startGesture(event, view, 'move'));
    } else if (type === 'shape') {
      view.shape = shapeView(box);
      const body = document.createElement('div');
      body.className = 'svc-box-body svc-box-shape-body';
      element.append(body, view.shape);
      body.addEventListener('pointerdown', (event) => this.startGesture(event, view, 'move'));
    } else if (content instanceof Y.XmlFragment) {
      const body = document.createElement('div');
      body.className = 'svc-box-body';
      element.append(body);
      const editor = this.createEditor(body, content, placeholderRoleOf(box));
      view.editor = editor;
      body.addEventListener('pointerdown', (event) => this.pressText(event, view, editor));
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
    element.addEventListener('pointerdown', (event) => {
      if (!event.shiftKey && !this.isSelected(idOf(box))) this.select(idOf(box));
    });
    // the focus coming to a box of the selection (a click on it, Tab) keeps the selection
    element.addEventListener('focusin', () => {
      if (!this.isSelected(idOf(box))) this.select(idOf(box));
    });
    element.addEventListener('keydown', (event) => this.boxKey(event, view));
    return view;
  }

  /**
   * A press on the text of a box the user is not typing in: dragged, it moves the box (as PowerPoint does);
   * released where it was, it puts the caret there. In a box being typed in, the press selects text as usual.
   */
  private pressText(event: PointerEvent, view: BoxView, editor: Editor): void {
    if (!this.editable || event.button !== 0 || editor.isFocused) return;
    event.preventDefault();
    if (event.shiftKey) {
      event.stopPropagation();
      this.toggleSelected(idOf(view.box));
      view.element.focus({ preventScroll: true });
      return;
    }
    // a box of a selection of several stays in it: dragged, they all move
    if (!this.isSelected(idOf(view.box)) || this.alsoSelected.size === 0) this.select(idOf(view.box));
    const target = event.currentTarget as HTMLElement;
    target.setPointerCapture(event.pointerId);
    const start = { x: event.clientX, y: event.clientY };
    const move = (moved: PointerEvent) => {
      if (Math.hypot(moved.clientX - start.x, moved.clientY - start.y) < DRAG_THRESHOLD) return;
      stop();
      this.startGesture(event, view, 'move', moved);
    };
    const up = (released: PointerEvent) => {
      stop();
      const position = editor.view.posAtCoords({ left: released.clientX, top: released.clientY });
      editor.chain().focus(position?.pos ?? 'end').run();
    };
    const stop = () => {
      target.removeEventListener('pointermove', move);
      target.removeEventListener('pointerup', up);
      target.removeEventListener('pointercancel', stop);
    };
    target.addEventListener('pointermove', move);
    target.addEventListener('pointerup', up);
    target.addEventListener('pointercancel', stop);
  }

  private createEditor(element: HTMLElement, fragment: Y.XmlFragment, role: string | undefined): Editor {
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
      editorProps: { attributes: { class: 'svc-rich-text svc-box-text', 'aria-label': t('box.text'), 'data-placeholder': t(role === 'title' ? 'box.placeholderTitle' : role === 'subtitle' ? 'box.placeholderSubtitle' : role === 'body' ? 'box.placeholderBody' : 'box.placeholder') } },
    });
  }

  /** Delete removes a selected box, arrows nudge it (Shift: by 10 points); keys typed in its text stay there. */
  private boxKey(event: KeyboardEvent, view: BoxView): void {
    if (event.target !== view.element || !this.editable || this.slideId === undefined) return;
    // keys on a box of the selection act on all of it
    const chosen = this.isSelected(idOf(view.box)) ? this.selectedBoxes : [idOf(view.box)];
    if (event.key === 'Delete' || event.key === 'Backspace') {
      event.preventDefault();
      this.deck.deleteBoxes(this.slideId, chosen);
      return;
    }
    if ((event.ctrlKey || event.metaKey) && !event.altKey && event.code === 'KeyG') {
      event.preventDefault();
      this.group(!event.shiftKey);
      return;
    }
    const order = orderForKey(event);
    if (order) {
      event.preventDefault();
      this.arrange(order);
      return;
    }
    const step = event.shiftKey ? 10 : 1;
    const moves: Record<string, [number, number]> = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    const boxes = boxesOf(this.deck.slide(this.slideId)).filter((box) => chosen.includes(idOf(box)));
    this.deck.placeBoxes(this.slideId, new Map(boxes.map((box) => [idOf(box), applyGesture(frameOf(box), 'move', move[0], move[1])])));
  }

  /** A move or resize from the press `event` (`already`: the pointer has moved there since, for a drag started late). */
  private startGesture(event: PointerEvent, view: BoxView, gesture: Gesture, already?: PointerEvent): void {
    if (!this.editable || event.button !== 0) return;
    event.preventDefault();
    event.stopPropagation();
    const boxId = idOf(view.box);
    if (event.shiftKey && gesture === 'move') {
      this.toggleSelected(boxId);
      view.element.focus({ preventScroll: true });
      return;
    }
    if (gesture === 'move' && this.alsoSelected.size > 0 && this.isSelected(boxId)) return this.startGroupMove(event, view, already);
    this.select(boxId);
    // a box of a group brings its group along
    if (gesture === 'move' && this.alsoSelected.size > 0) return this.startGroupMove(event, view, already);
    view.element.focus({ preventScroll: true });
    const target = (already?.currentTarget ?? event.currentTarget) as HTMLElement;
    // a text box is as high as its text when that is more than its stored height: resizing starts from what is seen
    const stored = frameOf(view.box);
    const start = { ...stored, height: Math.max(stored.height, Math.round(view.element.offsetHeight)) };
    let frame = start;
    const move = (moved: PointerEvent) => {
      frame = clampFrame(applyGesture(start, gesture, (moved.clientX - event.clientX) / this.scale, (moved.clientY - event.clientY) / this.scale));
      const text = boxTypeOf(view.box) === 'text';
      Object.assign(view.element.style, { left: `${frame.x}px`, top: `${frame.y}px`, width: `${frame.width}px`, [text ? 'minHeight' : 'height']: `${frame.height}px` });
    };
    followDrag(target, event.pointerId, move, () => {
      if (frame !== start) this.deck.setFrame(view.box, gesture === 'move' ? { ...frame, height: stored.height } : frame);
    });
    if (already) move(already);
  }

  /** A drag of one box of a selection of several moves them all, written once when it ends (one undo step). */
  private startGroupMove(event: PointerEvent, view: BoxView, already?: PointerEvent): void {
    view.element.focus({ preventScroll: true });
    const target = (already?.currentTarget ?? event.currentTarget) as HTMLElement;
    const moving = [...this.views.values()].filter((each) => this.isSelected(idOf(each.box))).map((each) => ({ view: each, start: this.drawnFrame(each) }));
    let placed = new Map<string, BoxFrame>();
    const move = (moved: PointerEvent) => {
      const [dx, dy] = [(moved.clientX - event.clientX) / this.scale, (moved.clientY - event.clientY) / this.scale];
      placed = new Map(
        moving.map(({ view: each, start }) => {
          const frame = clampFrame(applyGesture(start, 'move', dx, dy));
          Object.assign(each.element.style, { left: `${frame.x}px`, top: `${frame.y}px` });
          return [idOf(each.box), frame];
        }),
      );
    };
    followDrag(target, event.pointerId, move, () => {
      if (placed.size > 0 && this.slideId !== undefined) this.deck.placeBoxes(this.slideId, placed);
    });
    if (already) move(already);
  }

  private remove(view: BoxView): void {
    view.editor?.destroy();
    view.element.remove();
    this.views.delete(view.box);
  }
}
