import { domainToASCII } from 'node:url';
import { ApiError, Errors } from '../errors.js';

/** Most allowed host origins one application may list. */
export const MAX_FRAME_ORIGINS = 50;
/** Longest origin accepted as written (a DNS name is at most 253 characters). */
const MAX_ORIGIN_INPUT_LENGTH = 300;

/** `scheme://host[:port]` with an optional single trailing slash; anything else (path, query, `@`) fails it. */
const ORIGIN_SHAPE = /^(https?):\/\/([^/?#@\\:\s]+)(?::(\d{1,5}))?\/?$/i;
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const DEFAULT_PORTS: Record<string, number> = { http: 80, https: 443 };

/** Why an origin was refused, or its normal form. */
export type OriginCheck = { ok: true; origin: string } | { ok: false; why: string };

/**
 * One allowed host origin (the page that may frame the editor): `http(s)://host[:port]`, where host is a DNS
 * name (internationalized names become punycode), an IPv4 address or `localhost`, and may start with `*.` for
 * every subdomain of a name of two labels or more (`*.example.com`; it does not cover `example.com` itself).
 * No credentials, path, query or fragment; one trailing `/` is tolerated and dropped. The normal form is
 * lower case without the scheme's default port, which is also how browsers write an `Origin` header.
 */
export function checkFrameOrigin(raw: string): OriginCheck {
  if (raw.length === 0 || raw.length > MAX_ORIGIN_INPUT_LENGTH) return { ok: false, why: `must be 1-${MAX_ORIGIN_INPUT_LENGTH} characters` };
  const shape = ORIGIN_SHAPE.exec(raw);
  if (!shape) {
    if (!/^https?:\/\//i.test(raw)) return { ok: false, why: 'must start with http:// or https://' };
    if (/^https?:\/\/[^/?#]*@/i.test(raw)) return { ok: false, why: 'credentials are not allowed' };
    if (/^https?:\/\/[^/?#]*\/[^?#]/i.test(raw)) return { ok: false, why: 'a path is not allowed' };
    if (/[?#]/.test(raw)) return { ok: false, why: 'a query or fragment is not allowed' };
    return { ok: false, why: 'must be http(s)://host[:port]' };
  }
  const scheme = shape[1]!.toLowerCase();
  let host = shape[2]!;
  const wildcard = host.startsWith('*.');
  if (wildcard) host = host.slice(2);
  if (host.includes('*')) return { ok: false, why: '* is only allowed as the first label (*.example.com)' };
  const ascii = /^[\x21-\x7e]+$/.test(host) ? host.toLowerCase() : domainToASCII(host);
  if (!ascii || ascii.length > 253) return { ok: false, why: `host ${JSON.stringify(host)} is not a valid name` };
  const labels = ascii.split('.');
  if (IPV4.test(ascii)) {
    if (wildcard) return { ok: false, why: 'a wildcard does not apply to an IP address' };
  } else if (!labels.every((label) => LABEL.test(label)) || /^\d+$/.test(labels.at(-1)!)) {
    return { ok: false, why: `host ${JSON.stringify(host)} is not a valid name (letters, digits and - per label)` };
  } else if (wildcard && labels.length < 2) {
    return { ok: false, why: 'a wildcard needs a name of two labels or more (*.example.com)' };
  }
  let port = '';
  if (shape[3] !== undefined) {
    const number = Number(shape[3]);
    if (number < 1 || number > 65535) return { ok: false, why: 'port must be 1-65535' };
    if (number !== DEFAULT_PORTS[scheme]) port = `:${number}`;
  }
  return { ok: true, origin: `${scheme}://${wildcard ? '*.' : ''}${ascii}${port}` };
}

/**
 * An application's allowed host origins in normal form, duplicates dropped, order kept; throws 400 / 20003
 * naming the first entry refused. An empty list means any origin.
 */
export function normalizeFrameOrigins(list: readonly string[]): string[] {
  const bad = (why: string): never => {
    throw new ApiError(Errors.invalidAppUpdate, `frameOrigins: ${why}`);
  };
  if (list.length > MAX_FRAME_ORIGINS) bad(`at most ${MAX_FRAME_ORIGINS} origins (got ${list.length})`);
  const origins = new Set<string>();
  list.forEach((raw, index) => {
    if (typeof raw !== 'string') bad(`entry ${index} is not a string`);
    const checked = checkFrameOrigin(raw);
    if (!checked.ok) bad(`entry ${index} ${JSON.stringify(raw.slice(0, 100))} ${checked.why}; an origin is http(s)://host[:port], host may start with *.`);
    else origins.add(checked.origin);
  });
  return [...origins];
}

const NORMAL_FORM = /^(https?):\/\/(\*\.)?([^:/]+)(:\d+)?$/;

/**
 * Whether a browser's `Origin` header names one of the allowed origins `allowed` (normal forms, as stored):
 * equal to an entry, or a subdomain, at any depth, of a `*.name` entry with the same scheme and port. An empty
 * list allows nothing here (unlike frame-ancestors, where it means any page): cross-origin reading is opened
 * only origin by origin. `null` (sandboxed frames, file: pages) and anything that is not an origin never match.
 */
export function originAllowed(allowed: readonly string[], origin: string): boolean {
  if (allowed.length === 0 || origin.includes('*')) return false;
  const checked = checkFrameOrigin(origin);
  if (!checked.ok) return false;
  const [, scheme, , host, port = ''] = NORMAL_FORM.exec(checked.origin)!;
  return allowed.some((entry) => {
    if (entry === checked.origin) return true;
    const parts = NORMAL_FORM.exec(entry);
    if (!parts || parts[2] === undefined) return false;
    return parts[1] === scheme && (parts[4] ?? '') === port && host!.endsWith(`.${parts[3]}`);
  });
}
