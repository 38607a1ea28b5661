import type { EditorMethod } from '../bridge.js';
import { element, type Shell } from '../shell.js';
import { t } from './messages.js';

/** A side panel: its content, and the label of its rail button and heading. */
export interface Panel {
  id: string;
  label: string;
  element: HTMLElement;
  /** called each time the panel is shown (it refreshes what it shows) */
  shown?(): void;
  /** its SDK editor methods (browser-sdk.md "Editor methods"), by dotted path */
  methods?(): Record<string, EditorMethod>;
}

/**
 * The shell's side area as a set of panels, one shown at a time, opened from a rail of buttons beside it.
 * The rail stays visible in read-only mode (where the toolbar hides), so readers reach comments and history.
 */
export class PanelHost {
  private readonly panels = new Map<string, { panel: Panel; button: HTMLButtonElement }>();
  private readonly rail: HTMLElement;
  private readonly heading: HTMLElement;
  private readonly content: HTMLElement;
  private current: string | undefined;

  constructor(private readonly shell: Shell) {
    this.rail = element('nav', 'svc-panel-rail');
    this.rail.setAttribute('aria-label', t('panel.panels'));
    const header = element('div', 'svc-panel-header');
    this.heading = element('h2', 'svc-panel-heading');
    const close = element('button', 'svc-panel-close', '×');
    close.type = 'button';
    close.title = t('panel.close');
    close.setAttribute('aria-label', t('panel.close'));
    close.addEventListener('click', () => this.hide());
    header.append(this.heading, close);
    this.content = element('div', 'svc-panel-content');
    shell.side.append(header, this.content);
    shell.side.after(this.rail);
  }

  add(panel: Panel): void {
    const button = element('button', 'svc-panel-button', panel.label);
    button.type = 'button';
    button.dataset.panel = panel.id;
    button.setAttribute('aria-pressed', 'false');
    button.addEventListener('click', () => this.toggle(panel.id));
    panel.element.classList.add('svc-panel', `svc-panel-${panel.id}`);
    this.rail.append(button);
    this.panels.set(panel.id, { panel, button });
  }

  show(id: string): void {
    const entry = this.panels.get(id);
    if (!entry) return;
    if (this.current !== id) {
      this.markCurrent(false);
      this.current = id;
      this.markCurrent(true);
      this.heading.textContent = entry.panel.label;
      this.content.replaceChildren(entry.panel.element);
      this.shell.side.hidden = false;
    }
    entry.panel.shown?.();
  }

  /** Hides the panel `id` if it is the one shown (any panel without an id). */
  hide(id?: string): void {
    if (this.current === undefined || (id !== undefined && id !== this.current)) return;
    this.markCurrent(false);
    this.current = undefined;
    this.content.replaceChildren();
    this.shell.side.hidden = true;
  }

  toggle(id: string): void {
    if (this.current === id) this.hide();
    else this.show(id);
  }

  isShown(id: string): boolean {
    return this.current === id;
  }

  private markCurrent(on: boolean): void {
    const entry = this.current === undefined ? undefined : this.panels.get(this.current);
    entry?.button.setAttribute('aria-pressed', String(on));
  }
}
