import { idOf, type Deck } from './deck.js';
import { t } from './messages.js';
import { fitSlide, slideView, type SlideRendering } from './slide-view.js';

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

  /** Starts presenting at slide `index` (already presenting: goes there). */
  start(index: number): void {
    this.index = Math.max(0, Math.min(index, this.deck.length - 1));
    if (!this.overlay) {
      const overlay = document.createElement('div');
      overlay.className = 'svc-presenter';
      overlay.tabIndex = -1;
      overlay.setAttribute('role', 'dialog');
      overlay.setAttribute('aria-label', t('present.label'));
      overlay.addEventListener('click', () => this.go(this.index + 1));
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
    const surface = slideView(this.deck.list()[this.index]!, this.rendering);
    fitSlide(surface, overlay.clientWidth, overlay.clientHeight);
    const counter = document.createElement('div');
    counter.className = 'svc-presenter-counter';
    counter.setAttribute('aria-live', 'polite');
    counter.textContent = t('present.counter', { number: this.index + 1, count: this.deck.length });
    overlay.replaceChildren(surface, counter);
  }

  private go(index: number): void {
    const next = Math.max(0, Math.min(index, this.deck.length - 1));
    if (next === this.index) return;
    this.index = next;
    this.draw();
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
