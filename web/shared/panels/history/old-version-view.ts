import * as Y from 'yjs';
import { element, type Shell } from '../../shell.js';
import { t } from './messages.js';
import type { Comparison } from '../../../../src/model/rich-text/compare.js';
import { drawComparison } from './comparison.js';

/**
 * Draws a recorded document read-only into `page`; answers how to take it down. Each kind's renderer lives in
 * its own module (rich-text-versions.ts, web/spreadsheet/old-version.ts, …), so a kind's page never loads
 * another kind's editor code through this one (the spreadsheet page does not load Tiptap).
 */
export type VersionRenderer = (doc: Y.Doc, page: HTMLElement) => { destroy(): void };

/**
 * An old version of the file shown read-only in place of the live editor: its recorded Yjs state applied to a
 * fresh Y.Doc, drawn by the editor kind's renderer from the same model code as the live content
 * (docs/CONTENT-MODEL.md).
 */
export class OldVersionView {
  private readonly root = element('div', 'svc-old-version');
  private readonly banner = element('div', 'svc-old-version-banner');
  private readonly page = element('div', '');
  private drawn: { destroy(): void } | undefined;
  private doc: Y.Doc | undefined;

  constructor(
    private readonly shell: Shell,
    pageClass: string,
    private readonly render: VersionRenderer,
  ) {
    this.page.className = `${pageClass} svc-old-version-page`;
    this.root.append(this.banner, this.page);
    this.root.hidden = true;
    shell.main.append(this.root);
  }

  get shown(): boolean {
    return !this.root.hidden;
  }

  /** Shows `state` with a banner naming `time`; `actions` are the banner's buttons (restore, close). */
  show(state: Uint8Array, time: string, actions: HTMLElement[]): void {
    this.hide();
    const doc = new Y.Doc();
    Y.applyUpdate(doc, state);
    this.doc = doc;
    this.banner.replaceChildren(element('span', 'svc-old-version-title', t('history.viewing', { time })), ...actions);
    this.drawn = this.render(doc, this.page);
    this.reveal();
  }

  /** Shows what changed from the version of `from` to that of `to` (rich text), read-only, in place of the editor. */
  showComparison(comparison: Comparison, from: string, to: string, actions: HTMLElement[]): void {
    this.hide();
    const summary = comparison.inserted + comparison.deleted === 0 ? t('history.noDifference') : t('history.compareSummary', { inserted: comparison.inserted, deleted: comparison.deleted });
    const title = element('span', 'svc-old-version-title', t('history.comparing', { from, to }));
    title.append(' ', element('span', 'svc-old-version-summary', summary));
    this.banner.replaceChildren(title, ...actions);
    drawComparison(comparison, this.page);
    this.reveal();
  }

  private reveal(): void {
    this.root.hidden = false;
    this.shell.main.classList.add('svc-viewing-old-version');
    this.setToolbarUsable(false);
    this.shell.main.scrollTop = 0;
  }

  hide(): void {
    this.drawn?.destroy();
    this.doc?.destroy();
    this.drawn = undefined;
    this.doc = undefined;
    this.page.replaceChildren();
    this.root.hidden = true;
    this.shell.main.classList.remove('svc-viewing-old-version');
    this.setToolbarUsable(true);
  }

  /**
   * An old version is read-only: the toolbar's commands would act on the live document hidden behind it, so
   * the whole row is inert (no clicks, no focus) and greyed out until the user goes back.
   */
  private setToolbarUsable(usable: boolean): void {
    this.shell.toolbar.inert = !usable;
    this.shell.toolbar.setAttribute('aria-disabled', String(!usable));
  }
}
