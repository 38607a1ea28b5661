import { idOf, type Deck } from './deck.js';
import { t } from './messages.js';
import { notesText, transitionOf, type SlideTransition } from '../../src/model/slides.js';
import { fitSlide, slideView, type SlideRendering } from './slide-view.js';

/** Elapsed time as the presenter view's timer shows it: m:ss, h:mm:ss past an hour. */
export function elapsed(milliseconds: number): string {
  const seconds = Math.max(0, Math.floor(milliseconds / 1000));
  const [hours, minutes, rest] = [Math.floor(seconds / 3600), Math.floor((seconds % 3600) / 60), seconds % 60];
  const two = (value: number) => String(value).padStart(2, '0');
  return hours > 0 ? `${hours}:${two(minutes)}:${two(rest)}` : `${minutes}:${two(rest)}`;
}

/** How long a slide's transition takes (PowerPoint's "medium" speed is 0.5-0.8 s). */
const TRANSITION_MS = 600;

const NEXT_KEYS = new Set(['ArrowRight', 'ArrowDown', 'PageDown', ' ', 'Enter']);
const PREVIOUS_KEYS = new Set(['ArrowLeft', 'ArrowUp', 'PageUp', 'Backspace']);

/**
 * The presenting mode: one slide at a time over the whole page, full screen when the browser allows it (a
 * request from the SDK carries no user gesture, so it may only cover the frame). Arrow keys, Page Up/Down,
 * space and a click move between slides, Home and End jump, Escape (or leaving full screen) ends it. The slide
 * shown is drawn again when collaborators change it.
 */
export class Presenter {
  private overlay: HTMLElement | undefined;
  private index = 0;
  /** the presenter view: the slide, the next one, the notes and a timer (for the speaker's own screen) */
  private speakerView = false;
  private startedAt = 0;
  private timer: ReturnType<typeof setInterval> | undefined;
  private readonly onKey = (event: KeyboardEvent) => this.key(event);
  private readonly onResize = () => this.draw();
  private readonly onFullscreen = () => {
    if (!document.fullscreenElement && this.overlay) this.end();
  };

  constructor(
    private readonly deck: Deck,
    private readonly rendering: SlideRendering,
    private readonly ended: (slideId: string | undefined) => void,
  ) {}

  get active(): boolean {
    return this.overlay !== undefined;
  }

  get slideIndex(): number {
    return this.index;
  }

  /**
   * Starts presenting at slide `index` (already presenting: goes there); `speakerView`: the presenter view
   * (current and next slide, notes, a timer from the start), else the slide alone.
   */
  start(index: number, speakerView = false): void {
    this.index = Math.max(0, Math.min(index, this.deck.length - 1));
    if (!this.overlay) {
      this.speakerView = speakerView;
      this.startedAt = Date.now();
      if (speakerView) this.timer = setInterval(() => this.tick(), 1000);
      const overlay = document.createElement('div');
      overlay.className = speakerView ? 'svc-presenter svc-presenter-view' : 'svc-presenter';
      overlay.tabIndex = -1;
      overlay.setAttribute('role', 'dialog');
      overlay.setAttribute('aria-label', t('present.label'));
      // in the presenter view a click may be on the notes (to scroll them): only the slide moves on
      overlay.addEventListener('click', (event) => {
        if (!speakerView || (event.target as HTMLElement).closest('.svc-presenter-current')) this.go(this.index + 1);
      });
      document.body.append(overlay);
      this.overlay = overlay;
      document.addEventListener('keydown', this.onKey, true);
      window.addEventListener('resize', this.onResize);
      document.addEventListener('fullscreenchange', this.onFullscreen);
      overlay.focus();
      overlay.requestFullscreen?.().catch(() => {
        // refused without a user gesture: the overlay still fills the frame
      });
    }
    this.draw();
  }

  end(): void {
    const overlay = this.overlay;
    if (!overlay) return;
    this.overlay = undefined;
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
    document.removeEventListener('keydown', this.onKey, true);
    window.removeEventListener('resize', this.onResize);
    document.removeEventListener('fullscreenchange', this.onFullscreen);
    if (document.fullscreenElement === overlay) document.exitFullscreen().catch(() => undefined);
    overlay.remove();
    const slide = this.deck.list()[this.index];
    this.ended(slide ? idOf(slide) : undefined);
  }

  /** Draws the current slide again (the model changed). */
  draw(): void {
    const overlay = this.overlay;
    if (!overlay) return;
    if (this.deck.length === 0) {
      this.end();
      return;
    }
    this.index = Math.min(this.index, this.deck.length - 1);
    const slides = this.deck.list();
    const counter = document.createElement('div');
    counter.className = 'svc-presenter-counter';
    counter.setAttribute('aria-live', 'polite');
    counter.textContent = t('present.counter', { number: this.index + 1, count: this.deck.length });
    if (!this.speakerView) {
      const surface = slideView(slides[this.index]!, this.rendering);
      fitSlide(surface, overlay.clientWidth, overlay.clientHeight);
      overlay.replaceChildren(surface, counter);
      return;
    }
    const width = overlay.clientWidth;
    const height = overlay.clientHeight;
    const pane = (className: string, label: string, slide: (typeof slides)[number] | undefined, paneWidth: number, paneHeight: number) => {
      const element = document.createElement('section');
      element.className = className;
      element.setAttribute('aria-label', label);
      const heading = document.createElement('h2');
      heading.textContent = label;
      const frame = document.createElement('div');
      frame.className = 'svc-presenter-frame';
      Object.assign(frame.style, { width: `${paneWidth}px`, height: `${paneHeight}px` });
      if (slide) {
        const surface = slideView(slide, this.rendering);
        fitSlide(surface, paneWidth, paneHeight);
        frame.append(surface);
      } else {
        frame.classList.add('svc-presenter-frame-end');
        frame.textContent = t('present.end');
      }
      element.append(heading, frame);
      return element;
    };
    const currentWidth = Math.max(200, Math.round(width * 0.6) - 48);
    const nextWidth = Math.max(120, Math.round(width * 0.4) - 48);
    const current = pane('svc-presenter-current', t('present.current'), slides[this.index], currentWidth, Math.round((currentWidth * 9) / 16));
    const next = pane('svc-presenter-next', t('present.next'), slides[this.index + 1], nextWidth, Math.round((nextWidth * 9) / 16));
    const notes = document.createElement('section');
    notes.className = 'svc-presenter-notes';
    notes.setAttribute('aria-label', t('notes.label'));
    const notesHeading = document.createElement('h2');
    notesHeading.textContent = t('notes.label');
    const notesBody = document.createElement('div');
    notesBody.className = 'svc-presenter-notes-text';
    notesBody.textContent = notesText(slides[this.index]!) || t('present.noNotes');
    notes.append(notesHeading, notesBody);
    notes.style.maxHeight = `${Math.max(120, height - Math.round((nextWidth * 9) / 16) - 160)}px`;
    const timer = document.createElement('div');
    timer.className = 'svc-presenter-timer';
    timer.setAttribute('role', 'timer');
    timer.setAttribute('aria-label', t('present.timer'));
    timer.textContent = elapsed(Date.now() - this.startedAt);
    const side = document.createElement('div');
    side.className = 'svc-presenter-side';
    side.append(next, notes);
    const bar = document.createElement('div');
    bar.className = 'svc-presenter-bar';
    bar.append(timer, counter);
    overlay.replaceChildren(current, side, bar);
  }

  private tick(): void {
    const timer = this.overlay?.querySelector('.svc-presenter-timer');
    if (timer) timer.textContent = elapsed(Date.now() - this.startedAt);
  }

  private go(index: number): void {
    const next = Math.max(0, Math.min(index, this.deck.length - 1));
    if (next === this.index) return;
    const forward = next > this.index;
    this.index = next;
    this.draw();
    // as PowerPoint: a slide's transition plays when the show advances to it
    if (forward) this.playTransition(transitionOf(this.deck.list()[next]));
  }

  /** Brings the slide just drawn in with its transition (none for people who asked for reduced motion). */
  private playTransition(transition: SlideTransition): void {
    const surface = this.overlay?.querySelector<HTMLElement>(this.speakerView ? '.svc-presenter-current .svc-slide' : ':scope > .svc-slide');
    if (!surface || transition === 'none') return;
    surface.dataset.transition = transition;
    if (window.matchMedia('(prefers-reduced-motion: reduce)').matches) return;
    // `translate` and `clip-path` compose with the scale fitSlide sets in `transform`
    const keyframes: Record<Exclude<SlideTransition, 'none'>, Keyframe[]> = {
      fade: [{ opacity: 0 }, { opacity: 1 }],
      push: [{ translate: '100% 0' }, { translate: '0 0' }],
      wipe: [{ clipPath: 'inset(0 100% 0 0)' }, { clipPath: 'inset(0 0 0 0)' }],
    };
    surface.animate(keyframes[transition], { duration: TRANSITION_MS, easing: 'ease-out' });
  }

  private key(event: KeyboardEvent): void {
    let handled = true;
    if (NEXT_KEYS.has(event.key)) this.go(this.index + 1);
    else if (PREVIOUS_KEYS.has(event.key)) this.go(this.index - 1);
    else if (event.key === 'Home') this.go(0);
    else if (event.key === 'End') this.go(this.deck.length - 1);
    else if (event.key === 'Escape') this.end();
    else handled = false;
    if (handled) {
      event.preventDefault();
      event.stopPropagation();
    }
  }
}
