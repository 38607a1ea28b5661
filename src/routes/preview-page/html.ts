import type { Preview, PreviewPart } from '../../domain/preview/preview-service.js';
import type { EditorLanguage } from '../../model/editor-boot.js';
import { escapeHtml } from '../../html-escape.js';
import { jsonForScript } from '../editor-page/html.js';
import type { ViewerData } from '../../model/viewer-data.js';

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
    zoom: '缩放',
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
    zoom: 'Zoom',
  },
} satisfies Record<EditorLanguage, Record<string, string>>;

/** A rendered viewer page, and whether it runs the viewer script (served from the browser build). */
export interface ViewerPage {
  html: string;
  script: boolean;
}

const BASE_CSS = `html,body{margin:0;height:100%;background:#e9ebef;font-family:'Noto Sans SC','PingFang SC','Microsoft YaHei',Arial,sans-serif;color:#1f2329}
.bar{position:fixed;top:0;left:0;right:0;height:44px;display:flex;align-items:center;gap:8px;padding:0 12px;background:#fff;border-bottom:1px solid #dee0e3;z-index:1;box-sizing:border-box}
.bar .title{flex:1;overflow:hidden;white-space:nowrap;text-overflow:ellipsis;font-weight:600}
.bar button{min-width:32px;height:28px;border:1px solid #dee0e3;background:#fff;border-radius:4px;cursor:pointer;font-size:16px;line-height:1}
.bar button:disabled{opacity:.4;cursor:default}
.bar output{min-width:56px;text-align:center;font-variant-numeric:tabular-nums;color:#646a73}
.stage{position:absolute;top:44px;left:0;right:0;bottom:0;overflow:auto}
.sheets{display:flex;flex-direction:column;align-items:center;gap:24px;padding:32px 24px;min-width:min-content;box-sizing:border-box}
.sheet{display:block;flex:none;background:#fff;border:0;box-shadow:0 1px 3px rgba(31,35,41,.12),0 4px 16px rgba(31,35,41,.08)}
.sheet[hidden]{display:none}
.pdf-page{position:relative}
.pdf-page canvas{position:absolute;inset:0;width:100%;height:100%}
.message{max-width:560px;margin:20vh auto;text-align:center;padding:0 16px}
.message .detail{color:#646a73;word-break:break-word}`;

function documentOf(lang: EditorLanguage, title: string, body: string, head = ''): string {
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">${head}<title>${escapeHtml(title)}</title><style>${BASE_CSS}</style></head><body>${body}</body></html>`;
}

function toolbar(lang: EditorLanguage, title: string, paged: boolean): string {
  const text = STRINGS[lang];
  const button = (id: string, label: string, glyph: string) => `<button type="button" id="${id}" title="${escapeHtml(label)}" aria-label="${escapeHtml(label)}" disabled>${glyph}</button>`;
  const pages = paged ? `${button('previous', text.previous, '‹')}<output id="counter" aria-label="${escapeHtml(text.page)}"></output>${button('next', text.next, '›')}` : '';
  return `<div class="bar"><span class="title">${escapeHtml(title)}</span>${pages}${button('zoom-out', text.zoomOut, '−')}<output id="zoom-level" aria-label="${escapeHtml(text.zoom)}">100%</output>${button('zoom-in', text.zoomIn, '+')}</div>`;
}

/**
 * The viewer of a preview in its state: building (refreshes itself), failed (its code), or ready: the toolbar,
 * an empty stage and the viewer data (`partUrl` makes the links to the parts); the viewer script
 * (web/preview/viewer.ts, `entry`) lays out the pages, the image or the pdf on the stage.
 */
export function renderPreviewPage(lang: EditorLanguage, preview: Preview, entry: string, partUrl: (part: PreviewPart) => string, watermark: string[]): ViewerPage {
  const text = STRINGS[lang];
  if (preview.state === 'building') {
    const body = `<div class="message" role="status"><h1>${escapeHtml(text.building)}</h1><p class="detail">${preview.progress}%</p><p class="detail">${escapeHtml(text.buildingHint)}</p></div>`;
    return { html: documentOf(lang, text.building, body, '<meta http-equiv="refresh" content="2">'), script: false };
  }
  if (preview.state === 'failed') return renderPreviewError(lang, preview.code, preview.message);
  const data: ViewerData =
    preview.shows === 'image'
      ? { shows: 'image', src: partUrl({ part: 'file' }), watermark }
      : preview.shows === 'pdf'
        ? { shows: 'pdf', src: partUrl({ part: 'file' }), pageCount: preview.pageCount, watermark }
        : { shows: 'pages', layout: preview.layout, pages: Array.from({ length: preview.pageCount }, (_, index) => partUrl({ part: 'page', page: index + 1 })), watermark };
  const body =
    `${toolbar(lang, preview.title, preview.shows !== 'image')}<main class="stage" id="stage" aria-label="${escapeHtml(preview.title)}"><div class="sheets" id="sheets"></div></main>` +
    `<script type="application/json" id="svc-preview">${jsonForScript(data)}</script><script type="module" src="${escapeHtml(entry)}"></script>`;
  return { html: documentOf(lang, preview.title, body), script: true };
}

export function renderPreviewError(lang: EditorLanguage, code: number, message: string): ViewerPage {
  const text = STRINGS[lang];
  const body = `<div class="message" role="alert"><h1>${escapeHtml(text.failed)}</h1><p class="detail">${escapeHtml(text.code)}: <code>${code}</code></p><p class="detail">${escapeHtml(message)}</p></div>`;
  return { html: documentOf(lang, text.failed, body), script: false };
}
