import { getDocument, GlobalWorkerOptions, type PDFDocumentProxy, type PDFPageProxy, type RenderTask } from 'unpdf/pdfjs';
import type { ViewerData } from '../../src/model/viewer-data.js';
import type { Presenter, ViewerElements } from './presenter.js';

/** pdf.js's 100 %: a pdf point is 1/72 inch, a CSS pixel 1/96. */
const CSS_PIXELS_PER_POINT = 96 / 72;
/** Pages this far (in stage heights) above or below the view are drawn ahead, farther ones dropped. */
const DRAW_AHEAD = '150% 0px';
/** The grey margin above a page scrolled to (the stage's gap between sheets). */
const PAGE_GAP = 24;

interface PageSlot {
  element: HTMLDivElement;
  /** the page's size at 100 %, CSS pixels (page 1's until the page itself was read) */
  width: number;
  height: number;
  canvas?: HTMLCanvasElement;
  task?: RenderTask;
  visible: boolean;
}

/**
 * A pdf as a column of pages, the way pdf viewers show one: every page has its place at its size, only those near
 * the view are drawn (on a canvas at the screen's resolution), those scrolled far away are dropped again, so a
 * long pdf costs the memory of a few pages. Previous / next scroll to a page; the counter follows the scrolling.
 */
export function pdfPresenter(data: Extract<ViewerData, { shows: 'pdf' }>, view: ViewerElements): Presenter {
  GlobalWorkerOptions.workerPort = new Worker(new URL('./pdf-worker.ts', import.meta.url), { type: 'module' });
  const slots: PageSlot[] = [];
  let factor = 1;
  let current = 0;
  let document: PDFDocumentProxy | undefined;

  const place = (slot: PageSlot) => {
    slot.element.style.width = `${Math.round(slot.width * factor)}px`;
    slot.element.style.height = `${Math.round(slot.height * factor)}px`;
  };
  const drop = (slot: PageSlot) => {
    slot.task?.cancel();
    slot.task = undefined;
    slot.canvas?.remove();
    slot.canvas = undefined;
    delete slot.element.dataset.rendered;
  };
  const draw = async (index: number) => {
    const slot = slots[index]!;
    if (!document || slot.canvas) return;
    const page: PDFPageProxy = await document.getPage(index + 1);
    const base = page.getViewport({ scale: CSS_PIXELS_PER_POINT });
    slot.width = base.width;
    slot.height = base.height;
    place(slot);
    if (!slot.visible || slot.canvas) return;
    const pixels = window.devicePixelRatio || 1;
    const viewport = page.getViewport({ scale: CSS_PIXELS_PER_POINT * factor * pixels });
    const canvas = window.document.createElement('canvas');
    canvas.width = Math.floor(viewport.width);
    canvas.height = Math.floor(viewport.height);
    slot.canvas = canvas;
    slot.element.append(canvas);
    const drawnAt = factor;
    slot.task = page.render({ canvas, viewport });
    try {
      await slot.task.promise;
      if (slot.canvas === canvas && drawnAt === factor) slot.element.dataset.rendered = 'true';
    } catch (error) {
      if ((error as Error).name !== 'RenderingCancelledException') throw error;
    }
  };

  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        const index = Number((entry.target as HTMLElement).dataset.page) - 1;
        const slot = slots[index];
        if (!slot) continue;
        slot.visible = entry.isIntersecting;
        if (entry.isIntersecting) void draw(index);
        else drop(slot);
      }
    },
    { root: view.stage, rootMargin: DRAW_AHEAD },
  );

  /** The page at the top third of the view is the one the reader is on. */
  const follow = () => {
    const mark = view.stage.getBoundingClientRect().top + view.stage.clientHeight / 3;
    let found = 0;
    for (let index = 0; index < slots.length; index++) {
      if (slots[index]!.element.getBoundingClientRect().top <= mark) found = index;
      else break;
    }
    if (found !== current) {
      current = found;
      view.refresh();
    }
  };
  view.stage.addEventListener('scroll', follow, { passive: true });

  const loading = getDocument({ url: data.src, disableAutoFetch: true, withCredentials: false });
  void loading.promise.then(
    async (opened) => {
      document = opened;
      const first = (await opened.getPage(1)).getViewport({ scale: CSS_PIXELS_PER_POINT });
      for (let index = 0; index < opened.numPages; index++) {
        const element = window.document.createElement('div');
        element.className = 'sheet pdf-page';
        element.dataset.page = String(index + 1);
        element.setAttribute('role', 'img');
        element.setAttribute('aria-label', `${view.pageLabel} ${index + 1}`);
        const slot: PageSlot = { element, width: first.width, height: first.height, visible: false };
        place(slot);
        slots.push(slot);
        view.sheets.append(element);
        observer.observe(element);
      }
      view.sheets.dataset.pages = String(opened.numPages);
      view.refresh();
      view.fitWidth(first.width);
    },
    (error: unknown) => {
      const message = window.document.createElement('p');
      message.className = 'message';
      message.setAttribute('role', 'alert');
      message.textContent = error instanceof Error ? error.message : String(error);
      view.sheets.append(message);
    },
  );

  /** Scrolls the page to the top of the view, keeping the margin above it in sight. */
  const scrollTo = (index: number) => {
    const slot = slots[index];
    if (!slot) return;
    view.stage.scrollTop += slot.element.getBoundingClientRect().top - view.stage.getBoundingClientRect().top - PAGE_GAP;
    current = index;
  };

  return {
    pageCount: data.pageCount,
    current: () => current,
    show: scrollTo,
    zoom: (next) => {
      const anchor = current;
      factor = next;
      for (const slot of slots) {
        drop(slot);
        place(slot);
      }
      scrollTo(anchor);
      for (const [index, slot] of slots.entries()) if (slot.visible) void draw(index);
    },
  };
}
