import { ApiError, Errors } from '../../errors.js';

/** Longest `smParams` the page takes; the SDK sends what the integrator gave it, so a longer one is refused. */
export const MAX_START_PARAMS = 4096;
/** Longest `loadingOptions` (JSON of a logo URL and a line of text). */
const MAX_LOADING_OPTIONS = 4096;
/** Longest loading line shown. */
const MAX_LOADING_TIP = 200;
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

/** The loading screen the page shows until its editor is ready (the SDK's `showLoading`, `loadingOptions`). */
export interface LoadingScreen {
  /** an image URL (http, https or a data: image), or null for none */
  logo: string | null;
  /** the line under the spinner, or null for the page's own */
  tip: string | null;
}

/**
 * `smParams` as the page keeps it: opaque to the service, but what an SDK sends (a string, or an object or array
 * as JSON). Refused with 40000 when it cannot be one: over 4096 characters, control characters, or text that
 * starts as JSON (`{`, `[`) and is not.
 */
export function startParams(value: string | undefined): string | null {
  if (value === undefined || value === '') return null;
  if (value.length > MAX_START_PARAMS) throw new ApiError(Errors.invalidRequest, `smParams is longer than ${MAX_START_PARAMS} characters`);
  if (CONTROL_CHARACTERS.test(value)) throw new ApiError(Errors.invalidRequest, 'smParams contains control characters');
  if (/^\s*[[{]/.test(value)) {
    try {
      JSON.parse(value);
    } catch {
      throw new ApiError(Errors.invalidRequest, 'smParams starts as JSON but is not valid JSON');
    }
  }
  return value;
}

/**
 * The loading screen of `loadingEffect=true` with `loadingOptions` (JSON `{logo?: string | false, tip?: string}`),
 * or null without `loadingEffect`. Options that are not such an object are refused with 40000.
 */
export function loadingScreen(effect: string | undefined, options: string | undefined): LoadingScreen | null {
  if (effect !== 'true') return null;
  if (options === undefined || options === '') return { logo: null, tip: null };
  const refuse = (why: string) => new ApiError(Errors.invalidRequest, `loadingOptions ${why}`);
  if (options.length > MAX_LOADING_OPTIONS) throw refuse(`is longer than ${MAX_LOADING_OPTIONS} characters`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(options);
  } catch {
    throw refuse('is not JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw refuse('is not a JSON object');
  const { logo, tip } = parsed as { logo?: unknown; tip?: unknown };
  if (logo !== undefined && logo !== false && (typeof logo !== 'string' || !/^(https?:\/\/|data:image\/)/i.test(logo))) {
    throw refuse('.logo must be an http(s) or data:image URL, or false');
  }
  if (tip !== undefined && (typeof tip !== 'string' || tip.length > MAX_LOADING_TIP)) throw refuse(`.tip must be text of at most ${MAX_LOADING_TIP} characters`);
  return { logo: typeof logo === 'string' ? logo : null, tip: typeof tip === 'string' ? tip : null };
}
