import { Errors, type ApiError, type ErrorSpec } from '../../errors.js';
import type { EditorBoot, EditorLanguage } from '../../model/editor-boot.js';
import { PAGE_TEXT, type ErrorReason } from './languages.js';
import type { PageAssets } from './assets.js';
import type { LoadingScreen } from './page-options.js';
import { escapeHtml } from '../../html-escape.js';

/**
 * JSON for a `<script type="application/json">` element: `<`, `>` and `&` escaped so that no value (a user
 * name, a file name, smParams) can close the element or open a comment; U+2028/2029 escaped for old parsers.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function head(lang: EditorLanguage, title: string, assets: PageAssets | undefined): string {
  return [
    '<!doctype html>',
    `<html lang="${lang}">`,
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    ...(assets?.styles ?? []).map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`),
    ...(assets?.preloads ?? []).map((href) => `<link rel="modulepreload" href="${escapeHtml(href)}">`),
    ...(assets ? [`<script type="module" src="${escapeHtml(assets.entry)}"></script>`] : []),
    '</head>',
  ].join('\n');
}

/** The loading screen, in the HTML so that it shows before any script has loaded; web/main.ts removes it. */
function loadingHtml(lang: EditorLanguage, loading: LoadingScreen): string {
  const logo = loading.logo ? `<img src="${escapeHtml(loading.logo)}" alt="">` : '';
  const tip = loading.tip ?? PAGE_TEXT[lang].loading;
  return `<div id="svc-loading" class="svc-loading" role="status">${logo}<div class="svc-loading-spinner"></div><p>${escapeHtml(tip)}</p></div>\n`;
}

/** The editor application's page: the boot data, the scripts of the editor of the file's kind, the loading screen if asked for. */
export function renderEditorPage(boot: EditorBoot, assets: PageAssets, loading: LoadingScreen | null): string {
  return `${head(boot.lang, boot.title, assets)}
<body>
${loading ? loadingHtml(boot.lang, loading) : ''}<div id="app" class="svc-app"></div>
<script type="application/json" id="svc-boot">${jsonForScript(boot)}</script>
</body>
</html>
`;
}

export interface ErrorPageInput {
  lang: EditorLanguage;
  error: ApiError;
  channel: string | null;
  messageExpires: number;
}

/**
 * The page shown instead of an editor: readable on its own (no script needed), in the page's language, with
 * the code. The same entry script reads `svc-error` and reports the failure to the SDK, whose `connect()`
 * then rejects with that code.
 */
export function renderErrorPage(input: ErrorPageInput, assets: PageAssets | undefined): string {
  const text = PAGE_TEXT[input.lang];
  const reason = text.reasons[errorReason(input.error.spec)];
  const report = { code: input.error.spec.code, message: input.error.message, channel: input.channel, messageExpires: input.messageExpires };
  return `${head(input.lang, text.title, assets)}
<body>
<main class="svc-error-page" role="alert">
<h1>${escapeHtml(text.title)}</h1>
<p>${escapeHtml(reason)}</p>
<p class="svc-error-code">${escapeHtml(text.code)}: <code>${input.error.spec.code}</code></p>
</main>
<script type="application/json" id="svc-error">${jsonForScript(report)}</script>
</body>
</html>
`;
}

function errorReason(spec: ErrorSpec): ErrorReason {
  if (spec === Errors.fileNotFound || spec === Errors.integratorFileNotFound) return 'notFound';
  if (spec === Errors.permissionDenied || spec === Errors.appExpired) return 'forbidden';
  if (spec === Errors.seatRequired) return 'noSeat';
  if (spec === Errors.fileTypeUnsupported) return 'unsupported';
  if (spec === Errors.unavailable || spec === Errors.internal) return 'unavailable';
  if (spec.http === 401) return 'unauthenticated';
  if (spec.code >= 10001 && spec.code <= 10015) return 'integrator';
  return 'invalid';
}
