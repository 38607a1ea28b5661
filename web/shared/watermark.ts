import { WATERMARK_STYLE, watermarkCopies, watermarkLineOffsets } from '../../src/model/watermark.js';

/**
 * The user's watermark over the whole page (src/model/watermark.ts says what and where; docs/SDK.md "Watermark"):
 * a fixed layer above everything, that lets every click and key through, drawn inside a shadow root so
 * that the page's own CSS cannot reach it. It puts itself back when it is taken out: a MutationObserver watches
 * the layer being removed, hidden or restyled (and its drawing being changed) and draws it again at once. A person
 * with the browser's developer tools can still hide pixels on their own screen (stop the script, cover the
 * layer); what they cannot do is export or print the file without it (pdf and jpg exports carry it).
 */

const HOST_STYLE = 'position:fixed;inset:0;pointer-events:none;z-index:2147483647;display:block;visibility:visible;opacity:1;overflow:hidden;margin:0;padding:0;border:0;transform:none;filter:none;clip-path:none';

function layerCss(): string {
  const { angle, fontSize, lineHeight, color, opacity } = WATERMARK_STYLE;
  return (
    `:host{all:initial}` +
    `.layer{position:absolute;inset:0;overflow:hidden;font-family:'Noto Sans SC','PingFang SC','Microsoft YaHei',Arial,sans-serif;font-size:${fontSize}px;line-height:${lineHeight}px;color:${color};opacity:${opacity};user-select:none}` +
    `.copy{position:absolute;width:0;height:0;transform:rotate(${angle}deg)}` +
    `.copy span{position:absolute;left:0;white-space:nowrap;transform:translateX(-50%)}`
  );
}

/** The copies for the window's current size, in `layer`. */
function drawCopies(layer: HTMLElement, lines: readonly string[]): void {
  const { lineHeight } = WATERMARK_STYLE;
  const offsets = watermarkLineOffsets(lines.length);
  const copies = watermarkCopies(window.innerWidth, window.innerHeight).map(({ x, y }) => {
    const copy = document.createElement('div');
    copy.className = 'copy';
    copy.style.left = `${x}px`;
    copy.style.top = `${y}px`;
    for (const [index, line] of lines.entries()) {
      const span = document.createElement('span');
      span.style.top = `${offsets[index]! - lineHeight / 2}px`;
      span.textContent = line;
      copy.append(span);
    }
    return copy;
  });
  layer.replaceChildren(...copies);
}

/** Draws `lines` over the page and keeps them there; nothing when there are none. Answers the layer's host element. */
export function showWatermark(lines: readonly string[]): HTMLElement | undefined {
  if (lines.length === 0) return undefined;
  const host = document.createElement('div');
  host.setAttribute('aria-hidden', 'true');
  host.dataset.svcWatermark = '';
  const root = host.attachShadow({ mode: 'open' });
  const draw = () => {
    const style = document.createElement('style');
    style.textContent = layerCss();
    const layer = document.createElement('div');
    layer.className = 'layer';
    drawCopies(layer, lines);
    root.replaceChildren(style, layer);
  };
  const restore = () => {
    if (host.getAttribute('style') !== HOST_STYLE) host.setAttribute('style', HOST_STYLE);
    for (const name of host.getAttributeNames()) if (!['style', 'aria-hidden', 'data-svc-watermark'].includes(name)) host.removeAttribute(name);
    if (host.parentNode !== document.documentElement || host.nextSibling !== null) document.documentElement.append(host);
  };
  restore();
  draw();
  let drawing = false;
  const redraw = () => {
    drawing = true;
    draw();
    // the observer's records of this very redraw come before the flag goes down
    queueMicrotask(() => (drawing = false));
  };
  // on <html>, after <body>: what the editors do inside <body> cannot cover it or take it along
  new MutationObserver(() => restore()).observe(document.documentElement, { childList: true, attributes: false });
  new MutationObserver(() => restore()).observe(host, { attributes: true });
  new MutationObserver(() => {
    if (!drawing) redraw();
  }).observe(root, { childList: true, subtree: true, attributes: true, characterData: true });
  window.addEventListener('resize', redraw);
  return host;
}
