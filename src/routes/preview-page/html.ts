import crypto from 'node:crypto';
import type { Preview } from '../../domain/preview/preview-service.js';
import type { EditorLanguage } from '../editor-page/boot.js';
import { escapeHtml } from '../editor-page/html.js';

const STRINGS = {
  'zh-CN': {
    building: '正在生成预览…',
    buildingHint: '页面会自动刷新。',
    failed: '无法预览此文件',
    code: '错误码',
    previous: '上一页',
    next: '下一页',
    zoomIn: '放大',
    zoomOut: '缩小',
    page: '页',
  },
  en: {
    building: 'Preparing the preview…',
    buildingHint: 'This page refreshes by itself.',
    failed: 'This file cannot be previewed',
    code: 'Code',
    previous: 'Previous page',
    next: 'Next page',
    zoomIn: 'Zoom in',
    zoomOut: 'Zoom out',
    page: 'Page',
  },
} satisfies Record<EditorLanguage, Record<string, string>>;

/** A rendered viewer page and the Content-Security-Policy that lets its one inline script run. */
export interface ViewerPage {
  html: string;
  scriptSources: string;
}

const BASE_CSS = `html,body{margin:0;height:100%;background:#f2f3f5;font-family:'Noto Sans SC','PingFang SC','Microsoft YaHei',Arial,sans-serif;color:#1f2329}
.bar{position:fixed;top:0;left:0;right:0;height:44px;display:flex;align-items:center;gap:8px;padding:0 12px;background:#fff;border-bottom:1px solid #dee0e3;z-index:1}
.bar .title{flex:1;overflow:hidden;white-space:nowrap;text-overflow:ellipsis;font-weight:600}
.bar button{min-width:32px;height:28px;border:1px solid #dee0e3;background:#fff;border-radius:4px;cursor:pointer}
.bar button:disabled{opacity:.4;cursor:default}
.stage{position:absolute;top:45px;left:0;right:0;bottom:0;overflow:auto;text-align:center}
.stage iframe{display:block;width:100%;height:100%;border:0;background:#fff}
.stage iframe[hidden]{display:none}
.stage img{margin:16px auto;display:block;background:#fff;box-shadow:0 1px 4px rgba(0,0,0,.15)}
.message{max-width:560px;margin:20vh auto;text-align:center;padding:0 16px}
.message .detail{color:#646a73;word-break:break-word}`;

function documentOf(lang: EditorLanguage, title: string, body: string, nonce: string | undefined, head = ''): string {
  const script = nonce ? `<script nonce="${nonce}">${VIEWER_SCRIPT}</script>` : '';
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">${head}<title>${escapeHtml(title)}</title><style>${BASE_CSS}</style></head><body>${body}${script}</body></html>`;
}

/**
 * Zoom (CSS zoom of the page inside the frame, or the image's width) and page navigation (one frame shown at a
 * time). The frames are sandboxed without scripts; allow-same-origin only lets this script set their zoom.
 */
const VIEWER_SCRIPT = `(() => {
  const frames = [...document.querySelectorAll('.stage iframe')];
  const image = document.querySelector('.stage img');
  const counter = document.getElementById('counter');
  const previous = document.getElementById('previous');
  const next = document.getElementById('next');
  let page = 0;
  let zoom = 1;
  const apply = () => {
    frames.forEach((frame, index) => {
      frame.hidden = index !== page;
      const root = frame.contentDocument && frame.contentDocument.documentElement;
      if (root) root.style.zoom = String(zoom);
    });
    if (image && image.naturalWidth > 0) image.style.width = Math.round(image.naturalWidth * zoom) + 'px';
    if (counter) counter.textContent = frames.length ? (page + 1) + ' / ' + frames.length : Math.round(zoom * 100) + '%';
    if (previous) previous.disabled = page === 0;
    if (next) next.disabled = page >= frames.length - 1;
  };
  frames.forEach((frame) => frame.addEventListener('load', apply));
  if (image) image.addEventListener('load', apply);
  const on = (id, action) => { const button = document.getElementById(id); if (button) button.addEventListener('click', () => { action(); apply(); }); };
  on('previous', () => { page = Math.max(0, page - 1); });
  on('next', () => { page = Math.min(frames.length - 1, page + 1); });
  on('zoom-in', () => { zoom = Math.min(4, Math.round((zoom + 0.25) * 100) / 100); });
  on('zoom-out', () => { zoom = Math.max(0.25, Math.round((zoom - 0.25) * 100) / 100); });
  document.addEventListener('keydown', (event) => {
    if (event.key === 'ArrowLeft' || event.key === 'PageUp') { page = Math.max(0, page - 1); apply(); }
    if (event.key === 'ArrowRight' || event.key === 'PageDown') { page = Math.min(frames.length - 1, page + 1); apply(); }
  });
  apply();
})();`;

function toolbar(lang: EditorLanguage, title: string, paged: boolean): string {
  const text = STRINGS[lang];
  const button = (id: string, label: string, glyph: string) => `<button type="button" id="${id}" title="${escapeHtml(label)}" aria-label="${escapeHtml(label)}">${glyph}</button>`;
  return `<div class="bar"><span class="title">${escapeHtml(title)}</span>${paged ? button('previous', text.previous, '‹') : ''}<span id="counter" aria-label="${escapeHtml(text.page)}"></span>${paged ? button('next', text.next, '›') : ''}${button('zoom-out', text.zoomOut, '−')}${button('zoom-in', text.zoomIn, '+')}</div>`;
}

/** The viewer of a preview in its state: building (refreshes itself), failed (its code), or the pages / image. */
export function renderPreviewPage(lang: EditorLanguage, preview: Preview): ViewerPage {
  const text = STRINGS[lang];
  if (preview.state === 'building') {
    const body = `<div class="message" role="status"><h1>${escapeHtml(text.building)}</h1><p class="detail">${preview.progress}%</p><p class="detail">${escapeHtml(text.buildingHint)}</p></div>`;
    return { html: documentOf(lang, text.building, body, undefined, '<meta http-equiv="refresh" content="2">'), scriptSources: "'none'" };
  }
  if (preview.state === 'failed') return renderPreviewError(lang, preview.code, preview.message);
  const nonce = crypto.randomBytes(16).toString('base64');
  const stage =
    preview.shows === 'image'
      ? `<img alt="${escapeHtml(preview.title)}" src="data:${escapeHtml(preview.mimeType)};base64,${preview.data.toString('base64')}">`
      : preview.pages.map((page, index) => `<iframe sandbox="allow-same-origin" title="${escapeHtml(`${text.page} ${index + 1}`)}"${index === 0 ? '' : ' hidden'} srcdoc="${escapeHtml(page)}"></iframe>`).join('');
  const body = `${toolbar(lang, preview.title, preview.shows === 'pages')}<div class="stage">${stage}</div>`;
  return { html: documentOf(lang, preview.title, body, nonce), scriptSources: `'nonce-${nonce}'` };
}

export function renderPreviewError(lang: EditorLanguage, code: number, message: string): ViewerPage {
  const text = STRINGS[lang];
  const body = `<div class="message" role="alert"><h1>${escapeHtml(text.failed)}</h1><p class="detail">${escapeHtml(text.code)}: <code>${code}</code></p><p class="detail">${escapeHtml(message)}</p></div>`;
  return { html: documentOf(lang, text.failed, body, undefined), scriptSources: "'none'" };
}
