import * as Y from 'yjs';
import { richTextToPlain } from '../../src/model/rich-text/schema.js';
import type { Collaborator } from '../shared/collaboration.js';
import { boxesOf, idOf, type Deck } from './deck.js';
import { t } from './messages.js';
import { fitSlide, slideView, type SlideRendering } from './slide-view.js';

const THUMBNAIL_WIDTH = 160;
const THUMBNAIL_HEIGHT = 90;

/** The first line of text on the slide, its name in the list. */
export function slideTitle(slide: Y.Map<unknown>): string {
  for (const box of boxesOf(slide)) {
    const content = box.get('content');
    if (!(content instanceof Y.XmlFragment)) continue;
    const line = richTextToPlain(content)
      .split('\n')
      .find((text) => text.trim().length > 0);
    if (line) return line.trim();
  }
  return '';
}

export interface SlideListHandlers {
  open(slideId: string): void;
  /** a slide dropped at `index` (its index after the move) */
  move(slideId: string, index: number): void;
}

/** The elements of one slide's item, kept while the slide exists so a click is never lost to a redraw. */
interface SlideItem {
  item: HTMLElement;
  button: HTMLButtonElement;
  number: HTMLElement;
  title: HTMLElement;
  thumbnail: HTMLElement;
  presence: HTMLElement;
  comments: HTMLElement;
}

/**
 * The slides in order as thumbnails with their number and first line of text, the open one marked; a slide is
 * opened by a click and reordered by dragging it. Items are updated in place, and thumbnails drawn again only
 * for slides that changed.
 */
export class SlideList {
  readonly element: HTMLElement;
  private readonly list: HTMLOListElement;
  private readonly items = new Map<Y.Map<unknown>, SlideItem>();
  private readonly dirty = new Set<Y.Map<unknown>>();
  private currentId: string | undefined;
  private presence = new Map<string, Collaborator[]>();
  private commentCounts = new Map<string, number>();
  private scheduled = false;
  private dragged: string | undefined;

  constructor(
    private readonly deck: Deck,
    private readonly rendering: SlideRendering,
    private readonly handlers: SlideListHandlers,
    private editable: boolean,
  ) {
    this.element = document.createElement('nav');
    this.element.className = 'svc-slide-list';
    this.element.setAttribute('aria-label', t('slides.label'));
    this.list = document.createElement('ol');
    this.element.append(this.list);
  }

  /** Redraws soon: the list, and the thumbnails of `changed` slides (all when omitted). */
  invalidate(changed?: Iterable<Y.Map<unknown>>): void {
    for (const slide of changed ?? this.deck.list()) this.dirty.add(slide);
    if (this.scheduled) return;
    this.scheduled = true;
    requestAnimationFrame(() => {
      this.scheduled = false;
      this.render();
    });
  }

  setCurrent(slideId: string | undefined): void {
    this.currentId = slideId;
    for (const { item, button } of this.items.values()) {
      const current = item.dataset.slideId === slideId;
      item.classList.toggle('is-current', current);
      button.setAttribute('aria-current', String(current));
    }
  }

  setEditable(editable: boolean): void {
    this.editable = editable;
    for (const { item } of this.items.values()) item.draggable = editable;
  }

  /** Collaborators by the slide they have open, shown as coloured marks on its item. */
  showPresence(presence: Map<string, Collaborator[]>): void {
    const key = (map: Map<string, Collaborator[]>) => JSON.stringify([...map].map(([id, people]) => [id, people.map((person) => person.clientId)]));
    if (key(presence) === key(this.presence)) return;
    this.presence = presence;
    this.invalidate([]);
  }

  /** Open comment threads by slide, shown as a count on the slide's item. */
  showComments(counts: Map<string, number>): void {
    this.commentCounts = counts;
    this.invalidate([]);
  }

  private render(): void {
    const slides = this.deck.list();
    const live = new Set(slides);
    for (const [slide, parts] of this.items) {
      if (live.has(slide)) continue;
      parts.item.remove();
      this.items.delete(slide);
    }
    slides.forEach((slide, index) => {
      let parts = this.items.get(slide);
      if (!parts) {
        parts = this.create(slide);
        this.items.set(slide, parts);
      } else if (this.dirty.has(slide)) {
        const thumbnail = this.thumbnail(slide);
        parts.thumbnail.replaceWith(thumbnail);
        parts.thumbnail = thumbnail;
      }
      this.update(slide, parts, index);
      if (this.list.children[index] !== parts.item) this.list.insertBefore(parts.item, this.list.children[index] ?? null);
    });
    this.dirty.clear();
    this.setCurrent(this.currentId);
  }

  private create(slide: Y.Map<unknown>): SlideItem {
    const id = idOf(slide);
    const item = document.createElement('li');
    item.className = 'svc-slide-item';
    item.dataset.slideId = id;
    const button = document.createElement('button');
    button.type = 'button';
    button.addEventListener('click', () => this.handlers.open(id));
    const number = document.createElement('span');
    number.className = 'svc-slide-number';
    const title = document.createElement('span');
    title.className = 'svc-slide-title';
    const thumbnail = this.thumbnail(slide);
    button.append(number, thumbnail, title);
    const presence = document.createElement('span');
    presence.className = 'svc-slide-presence';
    const comments = document.createElement('span');
    comments.className = 'svc-slide-comments';
    comments.setAttribute('role', 'img');
    button.append(comments);
    item.append(button, presence);
    this.draggable(item, id);
    return { item, button, number, title, thumbnail, presence, comments };
  }

  private update(slide: Y.Map<unknown>, parts: SlideItem, index: number): void {
    const title = slideTitle(slide) || t('slides.untitled', { number: index + 1 });
    parts.number.textContent = String(index + 1);
    parts.title.textContent = title;
    parts.button.title = title;
    const marks = (this.presence.get(idOf(slide)) ?? []).map((person) => {
      const mark = document.createElement('span');
      mark.style.background = person.color;
      mark.title = person.name;
      return mark;
    });
    parts.presence.replaceChildren(...marks);
    const comments = this.commentCounts.get(idOf(slide)) ?? 0;
    parts.comments.hidden = comments === 0;
    parts.comments.textContent = String(comments);
    parts.comments.setAttribute('aria-label', t('comments.count', { count: comments }));
  }

  private thumbnail(slide: Y.Map<unknown>): HTMLElement {
    const thumbnail = document.createElement('span');
    thumbnail.className = 'svc-slide-thumbnail';
    thumbnail.setAttribute('aria-hidden', 'true');
    const surface = slideView(slide, this.rendering);
    fitSlide(surface, THUMBNAIL_WIDTH, THUMBNAIL_HEIGHT);
    thumbnail.append(surface);
    return thumbnail;
  }

  private draggable(item: HTMLElement, id: string): void {
    item.draggable = this.editable;
    item.addEventListener('dragstart', (event) => {
      if (!this.editable) return;
      this.dragged = id;
      event.dataTransfer?.setData('text/plain', id);
      if (event.dataTransfer) event.dataTransfer.effectAllowed = 'move';
    });
    item.addEventListener('dragover', (event) => {
      if (this.dragged === undefined) return;
      event.preventDefault();
      item.classList.toggle('is-drop-after', event.offsetY > item.clientHeight / 2);
      item.classList.toggle('is-drop-before', event.offsetY <= item.clientHeight / 2);
    });
    item.addEventListener('dragleave', () => item.classList.remove('is-drop-before', 'is-drop-after'));
    item.addEventListener('drop', (event) => {
      event.preventDefault();
      const dragged = this.dragged;
      this.dragged = undefined;
      item.classList.remove('is-drop-before', 'is-drop-after');
      if (dragged === undefined || dragged === id) return;
      const from = this.deck.indexOf(dragged);
      let to = this.deck.indexOf(id) + (event.offsetY > item.clientHeight / 2 ? 1 : 0);
      if (from < to) to -= 1;
      this.handlers.move(dragged, to);
    });
    item.addEventListener('dragend', () => {
      this.dragged = undefined;
    });
  }
}
