import { Plugin, PluginKey } from '@tiptap/pm/state';
import { Decoration, DecorationSet } from '@tiptap/pm/view';
import type { EditorMethod } from '../../../shared/bridge.js';
import { element } from '../../../shared/shell.js';
import { integerArgument, invalidArgument } from '../../../shared/panels/arguments.js';
import type { PanelsContext } from '../panels-context.js';
import { t } from './messages.js';
import { GAP_CLASS, PAGE, PAGE_PITCH, pageBreaks, type PageBreak } from './page-breaks.js';

const key = new PluginKey<DecorationSet>('svcPageBreaks');
const ZOOM_STEPS = [50, 67, 75, 80, 90, 100, 110, 125, 150, 175, 200];
/** A change of layout can move blocks that were measured before it: measure again, this many times at most. */
const MAX_PASSES = 3;

function gapWidget(height: number): HTMLElement {
  const gap = element('div', GAP_CLASS);
  gap.style.height = `${height}px`;
  gap.contentEditable = 'false';
  gap.setAttribute('aria-hidden', 'true');
  return gap;
}

/**
 * documentPro's paged view: the text laid out on A4 sheets with their margins, page numbers, and zoom. The
 * document stays one flow of blocks (the content model has no pages); page breaks are spacer widgets placed
 * before the blocks that would cross a page's bottom margin (page-breaks.ts), recomputed after every change
 * of the document, of the window's size, of the zoom, and when an image finishes loading.
 */
export class PagedLayout {
  private readonly sheets = element('div', 'svc-page-sheets');
  private readonly status = element('div', 'svc-page-status');
  private readonly position = element('span', 'svc-page-position');
  private readonly zoomButton: HTMLButtonElement;
  private zoomPercent = 100;
  private pages = 0;
  private frame = 0;
  private passes = 0;

  constructor(private readonly context: PanelsContext) {
    const { editor, page, shell } = context;
    page.classList.add('svc-paged');
    page.style.setProperty('--svc-page-width', `${PAGE.width}px`);
    page.prepend(this.sheets);
    editor.registerPlugin(
      new Plugin<DecorationSet>({
        key,
        state: {
          init: () => DecorationSet.empty,
          apply: (tr, decorations) => tr.getMeta(key) ?? decorations.map(tr.mapping, tr.doc),
        },
        props: { decorations: (state) => key.getState(state) },
      }),
    );
    const zoomOut = this.zoomControl('−', t('pages.zoomOut'), -1);
    const zoomIn = this.zoomControl('+', t('pages.zoomIn'), 1);
    this.zoomButton = element('button', 'svc-page-zoom', '100%');
    this.zoomButton.type = 'button';
    this.zoomButton.addEventListener('click', () => this.setZoom(100));
    this.status.append(this.position, zoomOut, this.zoomButton, zoomIn);
    shell.main.append(this.status);
    editor.on('update', () => this.schedule());
    window.addEventListener('resize', () => this.schedule());
    // an image changes the height of its line when it loads
    page.addEventListener('load', () => this.schedule(), true);
    shell.main.addEventListener('scroll', () => this.showPosition(), { passive: true });
    this.setZoom(100);
  }

  methods(): Record<string, EditorMethod> {
    return {
      goToTop: () => this.context.shell.main.scrollTo({ top: 0 }),
      goToPage: (page) => {
        const number = integerArgument(page, 'page');
        if (number < 1 || number > this.pages) throw invalidArgument(`page must be between 1 and ${this.pages}`);
        this.sheets.children[number - 1]?.scrollIntoView({ block: 'start' });
      },
      zoom: (percent) => {
        if (percent !== undefined) {
          const value = integerArgument(percent, 'zoom');
          if (value < ZOOM_STEPS[0]! || value > ZOOM_STEPS[ZOOM_STEPS.length - 1]!) throw invalidArgument(`zoom must be between ${ZOOM_STEPS[0]} and ${ZOOM_STEPS[ZOOM_STEPS.length - 1]} (percent)`);
          this.setZoom(value);
        }
        return this.zoomPercent;
      },
      addPageNum: () => this.context.page.classList.remove('svc-page-numbers-off'),
      removeAllPageNums: () => this.context.page.classList.add('svc-page-numbers-off'),
      getPageCount: () => this.pages,
    };
  }

  private zoomControl(text: string, label: string, direction: 1 | -1): HTMLButtonElement {
    const button = element('button', 'svc-page-zoom-step', text);
    button.type = 'button';
    button.title = label;
    button.setAttribute('aria-label', label);
    button.addEventListener('click', () => {
      const next = direction > 0 ? ZOOM_STEPS.find((step) => step > this.zoomPercent) : [...ZOOM_STEPS].reverse().find((step) => step < this.zoomPercent);
      if (next !== undefined) this.setZoom(next);
    });
    return button;
  }

  private setZoom(percent: number): void {
    this.zoomPercent = percent;
    this.context.page.style.zoom = String(percent / 100);
    this.zoomButton.textContent = `${percent}%`;
    this.zoomButton.title = t('pages.zoomReset', { percent });
    this.schedule();
  }

  private schedule(): void {
    this.passes = 0;
    this.requestPass();
  }

  private requestPass(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.layout();
    });
  }

  private layout(): void {
    const { editor } = this.context;
    if (editor.isDestroyed) return;
    const { breaks, pages } = pageBreaks(editor.view, this.zoomPercent / 100);
    const current = key.getState(editor.state)?.find() ?? [];
    const same = current.length === breaks.length && current.every((decoration, index) => decoration.from === breaks[index]!.pos && decoration.spec.height === breaks[index]!.height);
    if (!same) {
      const decorations = breaks.map((pageBreak: PageBreak) =>
        Decoration.widget(pageBreak.pos, () => gapWidget(pageBreak.height), { side: -1, key: `page-gap-${pageBreak.height}`, height: pageBreak.height, ignoreSelection: true }),
      );
      editor.view.dispatch(editor.state.tr.setMeta(key, DecorationSet.create(editor.state.doc, decorations)).setMeta('addToHistory', false));
      if (++this.passes < MAX_PASSES) this.requestPass();
    }
    this.showPages(pages);
  }

  private showPages(count: number): void {
    if (count !== this.pages) {
      this.pages = count;
      this.sheets.replaceChildren(
        ...Array.from({ length: count }, (_, index) => {
          const sheet = element('div', 'svc-page-sheet');
          sheet.style.top = `${index * PAGE_PITCH}px`;
          sheet.dataset.page = String(index + 1);
          const number = element('span', 'svc-page-number', String(index + 1));
          number.setAttribute('aria-label', t('pages.pageNumber', { page: index + 1 }));
          sheet.append(number);
          return sheet;
        }),
      );
      this.context.editor.view.dom.style.minHeight = `${count * PAGE_PITCH - PAGE.gap}px`;
    }
    this.showPosition();
  }

  private showPosition(): void {
    const main = this.context.shell.main.getBoundingClientRect();
    const top = this.context.page.getBoundingClientRect().top;
    const reading = (main.top + main.height / 3 - top) / (this.zoomPercent / 100);
    const page = Math.min(this.pages, Math.max(1, Math.floor(reading / PAGE_PITCH) + 1));
    this.position.textContent = t('pages.position', { page, count: this.pages });
  }
}
