import { ApiError, Errors } from '../../errors.js';
import { OutboundRefusedError, type OutboundPolicy } from '../../net/outbound-policy.js';

export const MAX_ENDPOINT_URL_LENGTH = 2048;

/**
 * An integrator's callback base address: an absolute http(s) URL without credentials, query or fragment, to
 * an address the outbound policy allows (never link-local or cloud metadata; src/net/outbound-policy.ts).
 * Returned without a trailing slash so callers can append `/events`, `/files/…`.
 */
export function normalizeEndpointUrl(raw: string, outbound: OutboundPolicy): string {
  const reject = (why: string): never => {
    throw new ApiError(Errors.invalidEndpointUrl, `invalid endpoint URL: ${why}`);
  };
  if (raw.length === 0 || raw.length > MAX_ENDPOINT_URL_LENGTH) reject(`length must be 1-${MAX_ENDPOINT_URL_LENGTH}`);
  let url: URL;
  try {
    url = outbound.assertUrl(raw);
  } catch (error) {
    if (error instanceof OutboundRefusedError) return reject(error.message);
    throw error;
  }
  if (url.username || url.password) reject('credentials in the URL are not allowed');
  if (url.search || url.hash) reject('query and fragment are not allowed');
  return url.toString().replace(/\/+$/, '');
}
