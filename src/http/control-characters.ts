import type { FastifyRequest } from 'fastify';
import { ApiError, Errors } from '../errors.js';

/**
 * C0 controls, DEL and C1 controls: nothing a path segment or query value of this API means. NUL in particular
 * is refused by PostgreSQL in text (a 500 if it got that far) and silently kept by SQLite.
 */
// eslint-disable-next-line no-control-regex
const CONTROL_IN_URL = /[\u0000-\u001f\u007f-\u009f]/;
/** In JSON strings and keys: C0 controls except tab, line feed and carriage return, which text legitimately holds. */
// eslint-disable-next-line no-control-regex
const CONTROL_IN_TEXT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/;

function refuse(where: string): never {
  throw new ApiError(Errors.controlCharacterRefused, `${where} holds a control character (such as NUL), which this API does not accept`);
}

/** Each piece of the URL decoded as the router and the query parser will see it; undecodable pieces are left to them. */
function decoded(piece: string): string {
  try {
    return decodeURIComponent(piece.replace(/\+/g, ' '));
  } catch {
    return piece;
  }
}

/**
 * onRequest hook for every route: a control character anywhere in the path or the query (raw or
 * percent-encoded) is 400 / 127003, before authentication, so it never reaches a lookup or the database.
 */
export async function refuseControlCharactersInUrl(request: FastifyRequest): Promise<void> {
  const url = request.raw.url ?? '';
  const queryStart = url.indexOf('?');
  const path = queryStart < 0 ? url : url.slice(0, queryStart);
  if (CONTROL_IN_URL.test(path) || path.split('/').some((segment) => CONTROL_IN_URL.test(decoded(segment)))) refuse('the path');
  if (queryStart >= 0) {
    // each parameter by its name, so the message says which one (`query.smParams`)
    for (const parameter of url.slice(queryStart + 1).split('&')) {
      const equals = parameter.indexOf('=');
      const rawName = equals < 0 ? parameter : parameter.slice(0, equals);
      const rawValue = equals < 0 ? '' : parameter.slice(equals + 1);
      if (CONTROL_IN_URL.test(rawName) || CONTROL_IN_URL.test(decoded(rawName))) refuse('a query parameter name');
      if (CONTROL_IN_URL.test(rawValue) || CONTROL_IN_URL.test(decoded(rawValue))) refuse(`query.${decoded(rawName)}`);
    }
  }
}

/** A value met while walking a JSON body, with how it was reached (kept as links, so deep bodies cost no more). */
interface Visit {
  value: unknown;
  key: string | number | undefined;
  parent: Visit | undefined;
}

function pathOf(visit: Visit): string {
  const keys: string[] = [];
  for (let at: Visit | undefined = visit; at?.key !== undefined; at = at.parent) keys.push(typeof at.key === 'number' ? `[${at.key}]` : `.${at.key}`);
  return `body${keys.reverse().join('')}`;
}

/**
 * The first JSON path (`body.rows[2].valueMap`) whose string or key holds a control character, if any. Walked
 * with a stack of its own: a body nested thousands deep is no reason for a stack overflow.
 */
function controlCharacterAt(body: unknown): string | undefined {
  const pending: Visit[] = [{ value: body, key: undefined, parent: undefined }];
  for (let visit = pending.pop(); visit; visit = pending.pop()) {
    const { value } = visit;
    if (typeof value === 'string') {
      if (CONTROL_IN_TEXT.test(value)) return pathOf(visit);
    } else if (Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index--) pending.push({ value: value[index], key: index, parent: visit });
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, member] of Object.entries(value)) {
        if (CONTROL_IN_TEXT.test(key)) return `a key of ${pathOf(visit)}`;
        pending.push({ value: member, key, parent: visit });
      }
    }
  }
  return undefined;
}

/**
 * preValidation hook for every route: a JSON body whose strings or keys hold a control character other than
 * tab, line feed and carriage return is 400 / 127003, whichever route it is sent to. Uploads (bytes) are not JSON
 * and are not looked at.
 */
export async function refuseControlCharactersInBody(request: FastifyRequest): Promise<void> {
  if (typeof request.body !== 'object' || request.body === null || Buffer.isBuffer(request.body)) return;
  const found = controlCharacterAt(request.body);
  if (found) refuse(found);
}
