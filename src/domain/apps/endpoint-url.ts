import { ApiError, Errors } from '../../errors.js';

export const MAX_ENDPOINT_URL_LENGTH = 2048;

/**
 * An integrator's callback base address: an absolute http(s) URL without credentials, query or fragment.
 * Returned without a trailing slash so callers can append `/events`, `/files/…`.
 */
export function normalizeEndpointUrl(raw: string): string {
  const reject = (why: string): never => {
    throw new ApiError(Errors.invalidEndpointUrl, `invalid endpoint URL: ${why}`);
  };
  if (raw.length === 0 || raw.length > MAX_ENDPOINT_URL_LENGTH) reject(`length must be 1-${MAX_ENDPOINT_URL_LENGTH}`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return reject('not an absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') reject('only http and https are allowed');
  if (url.username || url.password) reject('credentials in the URL are not allowed');
  if (url.search || url.hash) reject('query and fragment are not allowed');
  return url.toString().replace(/\/+$/, '');
}
