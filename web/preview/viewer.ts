import type { ViewerData } from '../../src/model/viewer-data.js';
import type { Presenter, ViewerElements } from './presenter.js';
import { showWatermark } from '../shared/watermark.js';

/**
 * The preview viewer (src/routes/preview-page/html.ts writes its page): the image, the rendered pages or the pdf
 * on a grey stage, each as a white sheet centred with margins, with zoom (25 %-400 %) and page navigation
 * (buttons, ←/→, PageUp/PageDown). Every part comes from its own link: nothing of the file is inside this page.
 */

export const MIN_ZOOM = 0.25;
export const MAX_ZOOM = 4;
const ZOOM_STEP = 0.25;
/** The stage's horizontal padding around a sheet (.sheets in the page's CSS). */
const STAGE_MARGIN = 24;
/** A4 at 96 CSS pixels per inch (the export's document page is 794 px wide). */
const A4_HEIGHT = 1123;
/** A rendered page is laid out this wide while it is measured: wider than any page, so nothing wraps. */
const MEASURING_WIDTH = 10_000;

function element<T extends HTMLElement>(id: string): T | null {
  return document.getElementById(id) as T | null;
}

function imagePresenter(data: Extract<ViewerData, { shows: 'image' }>, view: ViewerElements): Presenter {
  const image = document.createElement('img');
  image.className = 'sheet';
  image.alt = document.title;
  image.src = data.src;
  let factor = 1;
  const apply = () => {
    if (image.naturalWidth > 0) image.style.width = `${Math.round(image.naturalWidth * factor)}px`;
  };
  image.addEventListener('load', () => {
    apply();
    view.fitWidth(image.naturalWidth);
  });
  view.sheets.append(image);
  return { pageCount: 1, current: () => 0, show: () => {}, zoom: (next) => ((factor = next), apply()) };
}

/**
 * Rendered pages (a document, sheets, slides): one sandboxed frame per page, made when the page is first shown
 * (a workbook of many sheets loads only those looked at). The frames' documents are served with a sandbox
 * without scripts; allow-same-origin lets this script size the frame to its content and zoom it.
 */
function pagesPresenter(data: Extract<ViewerData, { shows: 'pages' }>, view: ViewerElements): Presenter {
  const frames = new Map<number, HTMLIFrameElement>();
  let page = 0;
  let factor = 1;
  /** Sizes the frame to its page at 100 % (measured unzoomed, in a frame wide enough not to wrap it), then zooms both. */
  const fit = (frame: HTMLIFrameElement) => {
    const root = frame.contentDocument?.documentElement;
    const body = frame.contentDocument?.body;
    if (!root || !body || frame.contentDocument?.readyState !== 'complete') return;
    // a sheet's grid gets the margin a document's page has; a document's page is at least a sheet of A4; a slide
    // is its own sheet
    if (data.layout === 'sheet') body.style.padding = '32px 40px';
    if (data.layout === 'document') body.style.minHeight = `${A4_HEIGHT}px`;
    body.style.display = 'inline-block';
    root.style.zoom = '1';
    frame.style.width = `${MEASURING_WIDTH}px`;
    const width = Math.ceil(body.getBoundingClientRect().width);
    frame.style.width = `${width}px`;
    const height = Math.ceil(Math.max(root.scrollHeight, body.getBoundingClientRect().height));
    root.style.zoom = String(factor);
    frame.style.width = `${Math.ceil(width * factor)}px`;
    frame.style.height = `${Math.ceil(height * factor)}px`;
    frame.dataset.fitted = String(factor);
  };
  const frameOf = (index: number): HTMLIFrameElement => {
    let frame = frames.get(index);
    if (!frame) {
      frame = document.createElement('iframe');
      frame.className = 'sheet';
      frame.setAttribute('sandbox', 'allow-same-origin');
      frame.title = `${view.pageLabel} ${index + 1}`;
      frame.dataset.page = String(index + 1);
      const made = frame;
      made.addEventListener('load', () => fit(made));
      frame.src = data.pages[index]!;
      frames.set(index, frame);
      view.sheets.append(frame);
    }
    return frame;
  };
  const show = (index: number) => {
    page = index;
    const shown = frameOf(index);
    for (const frame of frames.values()) frame.hidden = frame !== shown;
    fit(shown);
    view.stage.scrollTo({ top: 0 });
  };
  show(0);
  return {
    pageCount: data.pages.length,
    current: () => page,
    show,
    zoom: (next) => {
      factor = next;
      for (const frame of frames.values()) fit(frame);
    },
  };
}

async function start(): Promise<void> {
  const source = element('svc-preview');
  const stage = element('stage');
  const sheets = element('sheets');
  if (!source?.textContent || !stage || !sheets) return;
  const data = JSON.parse(source.textContent) as ViewerData;
  showWatermark(data.watermark);
  const counter = element<HTMLOutputElement>('counter');
  const zoomLevel = element<HTMLOutputElement>('zoom-level');
  const previous = element<HTMLButtonElement>('previous');
  const next = element<HTMLButtonElement>('next');
  const zoomIn = element<HTMLButtonElement>('zoom-in');
  const zoomOut = element<HTMLButtonElement>('zoom-out');
  let factor = 1;
  let presenter: Presenter | undefined;
  const refresh = () => {
    if (!presenter) return;
    const page = presenter.current();
    if (counter) counter.textContent = `${page + 1} / ${presenter.pageCount}`;
    if (zoomLevel) zoomLevel.textContent = `${Math.round(factor * 100)}%`;
    if (previous) previous.disabled = page <= 0;
    if (next) next.disabled = page >= presenter.pageCount - 1;
    if (zoomOut) zoomOut.disabled = factor <= MIN_ZOOM;
    if (zoomIn) zoomIn.disabled = factor >= MAX_ZOOM;
  };
  const setZoom = (value: number) => {
    factor = Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, Math.round(value * 100) / 100));
    presenter?.zoom(factor);
    refresh();
  };
  const fitWidth = (width: number) => {
    const room = stage.clientWidth - 2 * STAGE_MARGIN;
    if (width > room && room > 0) setZoom(Math.floor((room / width) * 100) / 100);
  };
  const view: ViewerElements = { stage, sheets, pageLabel: counter?.getAttribute('aria-label') ?? 'Page', refresh, fitWidth };
  if (data.shows === 'image') presenter = imagePresenter(data, view);
  else if (data.shows === 'pages') presenter = pagesPresenter(data, view);
  else presenter = (await import('./pdf.js')).pdfPresenter(data, view);
  const go = (page: number) => {
    if (!presenter) return;
    presenter.show(Math.max(0, Math.min(presenter.pageCount - 1, page)));
    refresh();
  };
  const zoom = (step: number) => setZoom(factor + step);
  previous?.addEventListener('click', () => go((presenter?.current() ?? 0) - 1));
  next?.addEventListener('click', () => go((presenter?.current() ?? 0) + 1));
  zoomIn?.addEventListener('click', () => zoom(ZOOM_STEP));
  zoomOut?.addEventListener('click', () => zoom(-ZOOM_STEP));
  document.addEventListener('keydown', (event) => {
    const step = event.key === 'ArrowLeft' || event.key === 'PageUp' ? -1 : event.key === 'ArrowRight' || event.key === 'PageDown' ? 1 : 0;
    if (step === 0 || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    go((presenter?.current() ?? 0) + step);
  });
  refresh();
  document.body.dataset.viewer = 'ready';
}

void start();
