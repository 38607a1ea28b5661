import { EDITOR_LANGUAGES, type EditorLanguage } from '../../model/editor-boot.js';

/**
 * The page's language: the iframe's `lang` when we have it, else the best of the browser's Accept-Language,
 * else the default (zh-CN, as the public SDK). Languages the SDK knows but we do not (ja, ar-SA, ru-RU) fall
 * back the same way.
 */
export function pageLanguage(lang: string | undefined, acceptLanguage: string | undefined): EditorLanguage {
  const exact = matchLanguage(lang);
  if (exact) return exact;
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.tag && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const entry of ranked) {
    const found = matchLanguage(entry.tag);
    if (found) return found;
  }
  return EDITOR_LANGUAGES[0];
}

function matchLanguage(tag: string | undefined): EditorLanguage | undefined {
  if (!tag) return undefined;
  const lower = tag.toLowerCase();
  if (lower === 'en' || lower.startsWith('en-')) return 'en';
  if (lower === 'zh' || lower === 'zh-cn' || lower === 'zh-hans' || lower.startsWith('zh-hans-') || lower === 'zh-sg') return 'zh-CN';
  return undefined;
}

/** What the server-rendered pages say, per language: the error page's title and a sentence per kind of failure, the loading line. */
export const PAGE_TEXT: Record<EditorLanguage, { title: string; code: string; loading: string; reasons: Record<ErrorReason, string> }> = {
  'zh-CN': {
    title: '无法打开此文件',
    loading: '正在加载…',
    code: '错误码',
    reasons: {
      notFound: '文件不存在或已被删除。',
      forbidden: '你没有查看此文件的权限。',
      noSeat: '你的账号在此应用中没有可用的席位，请联系管理员激活。',
      unauthenticated: '身份验证失败：签名或令牌无效、缺失或已过期。请刷新页面重试。',
      integrator: '暂时无法从接入方系统获取用户或文件信息，请稍后重试。',
      unsupported: '此类文件暂时无法在浏览器中打开。',
      unavailable: '服务暂时不可用，请稍后重试。',
      invalid: '打开文件的链接无效。',
    },
  },
  en: {
    title: 'This file cannot be opened',
    loading: 'Loading…',
    code: 'Error code',
    reasons: {
      notFound: 'The file does not exist or has been deleted.',
      forbidden: 'You do not have permission to view this file.',
      noSeat: 'Your account has no active seat in this application. Ask your administrator to activate it.',
      unauthenticated: 'Authentication failed: the signature or token is missing, invalid or expired. Reload the page to try again.',
      integrator: 'User or file information could not be obtained from the integrating system. Try again later.',
      unsupported: 'Files of this kind cannot be opened in the browser yet.',
      unavailable: 'The service is unavailable for the moment. Try again later.',
      invalid: 'The link that opened this file is not valid.',
    },
  },
};

export type ErrorReason = 'notFound' | 'forbidden' | 'noSeat' | 'unauthenticated' | 'integrator' | 'unsupported' | 'unavailable' | 'invalid';
