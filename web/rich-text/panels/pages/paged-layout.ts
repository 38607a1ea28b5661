import { Plugin, PluginKey } from '@tiptap/pm/state';
import { Decoration, DecorationSet } from '@tiptap/pm/view';
import type { EditorMethod } from '../../../shared/bridge.js';
import { element } from '../../../shared/shell.js';
import { checkedPageSetup, PageSetupError, pageSetupOf, readPageSetup, segmentsOf, setPageNumbersShown, SLOTS, writePageSetup, type HeaderFooter, type PageSetup } from '../../../../src/model/rich-text/page-setup.js';
import { integerArgument, invalidArgument } from '../../../shared/panels/arguments.js';
import { toolButton } from '../../../shared/tool-button.js';
import type { PanelsContext } from '../panels-context.js';
import { t } from './messages.js';
import { GAP_CLASS, NOTES_SEPARATOR, pageBreaks, pageGeometry, type PageBreak, type PageGeometry } from './page-breaks.js';
import { PageSetupDialog } from './page-setup-dialog.js';
import { icon } from '../../icons.js';

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

/** Moves a note's item; the field being typed in it keeps the focus and the caret. */
function moveKeepingFocus(item: HTMLLIElement, list: Element, before: HTMLLIElement | null): void {
  const field = item.querySelector('textarea');
  const focused = field !== null && document.activeElement === field;
  const { selectionStart, selectionEnd } = field ?? { selectionStart: 0, selectionEnd: 0 };
  list.insertBefore(item, before);
  if (focused) {
    field.focus({ preventScroll: true });
    field.setSelectionRange(selectionStart, selectionEnd);
  }
}

/**
 * documentPro's paged view: the text laid out on sheets of the file's page setup (paper, orientation, margins), with
 * its header and footer on every sheet, a Page setup dialog to change them, and zoom. The
 * document stays one flow of blocks (the content model has no pages); page breaks are spacer widgets placed
 * before the blocks that would cross a page's bottom margin or its notes (page-breaks.ts), recomputed after every change
 * of the document, of the window's size, of the zoom, and when an image finishes loading. Each page's footnotes
 * stand at its bottom, above the footer: the notes' own fields (FootnotesArea), moved to the page of their reference.
 */
export class PagedLayout {
  private readonly sheets = element('div', 'svc-page-sheets');
  /** above the text: each page's notes at its bottom, one list per page (the footnotes area's items, moved here) */
  private readonly notes = element('div', 'svc-page-notes-layer');
  private readonly status = element('div', 'svc-page-status');
  private readonly position = element('span', 'svc-page-position');
  private readonly zoomButton: HTMLButtonElement;
  private zoomPercent = 100;
  private pages = 0;
  private frame = 0;
  private passes = 0;
  private setup: PageSetup;
  private geometry: PageGeometry;
  private readonly dialog: PageSetupDialog;

  constructor(private readonly context: PanelsContext) {
    const { editor, page, shell } = context;
    page.classList.add('svc-paged');
    page.prepend(this.sheets, this.notes);
    this.setup = readPageSetup(context.session.doc);
    this.geometry = this.applyGeometry();
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
    // every change of the document, not Tiptap's 'update': that one is skipped when the new document equals the old
    // (a restore of a revision with the same text replaces every block, which drops the gaps, yet changes nothing)
    editor.on('transaction', ({ transaction }) => {
      if (transaction.docChanged) this.schedule();
    });
    window.addEventListener('resize', () => this.schedule());
    // an image changes the height of its line when it loads
    page.addEventListener('load', () => this.schedule(), true);
    shell.main.addEventListener('scroll', () => this.showPosition(), { passive: true });
    this.setZoom(100);
    // every collaborator's change of the page setup, and a restored version's, redraws the sheets
    pageSetupOf(context.session.doc).observe(() => {
      this.setup = readPageSetup(context.session.doc);
      this.geometry = this.applyGeometry();
      this.pages = 0;
      this.schedule();
    });
    this.dialog = new PageSetupDialog(shell.root, () => this.setup, (setup) => writePageSetup(context.session.doc, setup));
    const open = toolButton(t('pageSetup.open'), '', () => this.openDialog());
    open.classList.add('svc-page-setup-open');
    open.append(icon('pageSetup'));
    const group = element('div', 'svc-tool-group');
    group.append(open);
    shell.toolbar.append(group);
  }

  /** Sizes the sheets and the text's margins to the page setup. */
  private applyGeometry(): PageGeometry {
    const geometry = pageGeometry(this.setup);
    const { page, editor } = this.context;
    page.style.setProperty('--svc-page-width', `${geometry.width}px`);
    page.style.setProperty('--svc-page-height', `${geometry.height}px`);
    editor.view.dom.style.padding = `${geometry.marginTop}px ${geometry.marginRight}px 0 ${geometry.marginLeft}px`;
    return geometry;
  }

  private openDialog(): void {
    if (!this.context.editor.isEditable) return;
    this.dialog.open();
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
      // the file's page setup: every collaborator's view and the pdf and docx exports follow it
      addPageNum: () => this.setPageNumbers(true),
      removeAllPageNums: () => this.setPageNumbers(false),
      getPageCount: () => this.pages,
      getPageSetup: () => readPageSetup(this.context.session.doc),
      setPageSetup: (changes) => {
        if (!this.context.editor.isEditable) throw invalidArgument('setPageSetup: the document is read-only for this user');
        try {
          writePageSetup(this.context.session.doc, checkedPageSetup(readPageSetup(this.context.session.doc), changes));
        } catch (error) {
          throw error instanceof PageSetupError ? invalidArgument(error.message) : error;
        }
        return readPageSetup(this.context.session.doc);
      },
    };
  }

  private setPageNumbers(shown: boolean): void {
    if (!this.context.editor.isEditable) throw invalidArgument(`${shown ? 'addPageNum' : 'removeAllPageNums'}: the document is read-only for this user`);
    setPageNumbersShown(this.context.session.doc, shown);
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
    const zoom = this.zoomPercent / 100;
    const footnotes = this.context.footnotes.placedNotes();
    const noteHeights = (): Map<number, number> => new Map(footnotes.map(({ pos, item }) => [pos, item.getBoundingClientRect().height / zoom]));
    const heights = noteHeights();
    const { breaks, pages, notePages } = pageBreaks(editor.view, zoom, this.geometry, heights);
    const current = key.getState(editor.state)?.find() ?? [];
    const same = current.length === breaks.length && current.every((decoration, index) => decoration.from === breaks[index]!.pos && decoration.spec.height === breaks[index]!.height);
    if (!same) {
      const decorations = breaks.map((pageBreak: PageBreak) =>
        Decoration.widget(pageBreak.pos, () => gapWidget(pageBreak.height), { side: -1, key: `page-gap-${pageBreak.height}`, height: pageBreak.height, ignoreSelection: true }),
      );
      editor.view.dispatch(editor.state.tr.setMeta(key, DecorationSet.create(editor.state.doc, decorations)).setMeta('addToHistory', false));
    }
    this.showPages(pages);
    this.placeNotes(footnotes, notePages, pages);
    // a note moved to a page is as wide as its text there: measured again if that changed its height
    const resized = [...noteHeights()].some(([pos, height]) => Math.abs(height - (heights.get(pos) ?? 0)) > 0.5);
    if ((!same || resized) && ++this.passes < MAX_PASSES) this.requestPass();
  }

  /**
   * Puts each note's item in the list at the bottom of its reference's page, in document order. Items stay where
   * they are when their page does not change: a note being typed keeps its focus and caret (moved, it gets them back).
   */
  private placeNotes(footnotes: ReadonlyArray<{ pos: number; item: HTMLLIElement }>, notePages: ReadonlyMap<number, number>, pages: number): void {
    const { pitch, height, marginLeft, marginRight, marginBottom } = this.geometry;
    while (this.notes.children.length < pages) {
      const box = element('div', 'svc-page-notes');
      const list = element('ol', 'svc-page-note-list');
      list.style.paddingTop = `${NOTES_SEPARATOR - 1}px`;
      box.append(list);
      this.notes.append(box);
    }
    const boxes = Array.from(this.notes.children) as HTMLElement[];
    boxes.forEach((box, index) => {
      Object.assign(box.style, { top: `${index * pitch}px`, height: `${height - marginBottom}px`, left: `${marginLeft}px`, right: `${marginRight}px` });
      box.dataset.page = String(index + 1);
    });
    let next: HTMLLIElement | null = null;
    let nextList: Element | undefined;
    for (const { pos, item } of [...footnotes].reverse()) {
      const list = boxes[notePages.get(pos) ?? pages - 1]!.firstElementChild!;
      const before = nextList === list ? next : null;
      if (item.parentElement !== list || item.nextElementSibling !== before) moveKeepingFocus(item, list, before);
      next = item;
      nextList = list;
    }
    for (const box of boxes.slice(pages)) box.remove();
  }

  private showPages(count: number): void {
    if (count !== this.pages) {
      this.pages = count;
      const { pitch, gap } = this.geometry;
      this.sheets.replaceChildren(
        ...Array.from({ length: count }, (_, index) => {
          const sheet = element('div', 'svc-page-sheet');
          sheet.style.top = `${index * pitch}px`;
          sheet.dataset.page = String(index + 1);
          sheet.append(this.line('header', this.setup.header, index + 1, count), this.line('footer', this.setup.footer, index + 1, count));
          return sheet;
        }),
      );
      this.context.editor.view.dom.style.minHeight = `${count * pitch - gap}px`;
    }
    this.showPosition();
  }

  /** A header or footer on sheet `page` of `count`, its fields filled in; it sits in the margin, between the side margins. */
  private line(kind: 'header' | 'footer', line: HeaderFooter, page: number, count: number): HTMLElement {
    const node = element('div', `svc-page-${kind}`);
    const { marginLeft, marginRight, marginTop, marginBottom } = this.geometry;
    node.style.left = `${marginLeft}px`;
    node.style.right = `${marginRight}px`;
    // half way into the margin, as Word's 0.5 in header distance is for its 1 in margins
    if (kind === 'header') node.style.top = `${Math.round(marginTop / 2) - 8}px`;
    else node.style.bottom = `${Math.round(marginBottom / 2) - 8}px`;
    for (const slot of SLOTS) {
      const part = element('span', `svc-page-slot svc-page-slot-${slot}`);
      for (const segment of segmentsOf(line[slot])) {
        if (!('field' in segment)) part.append(segment.text);
        else if (segment.field === 'page') {
          const number = element('span', 'svc-page-number', String(page));
          number.setAttribute('aria-label', t('pages.pageNumber', { page }));
          part.append(number);
        } else part.append(segment.field === 'pages' ? String(count) : new Date().toLocaleDateString(document.documentElement.lang || undefined));
      }
      node.append(part);
    }
    return node;
  }

  private showPosition(): void {
    const main = this.context.shell.main.getBoundingClientRect();
    const top = this.context.page.getBoundingClientRect().top;
    const reading = (main.top + main.height / 3 - top) / (this.zoomPercent / 100);
    const page = Math.min(this.pages, Math.max(1, Math.floor(reading / this.geometry.pitch) + 1));
    this.position.textContent = t('pages.position', { page, count: this.pages });
  }
}
