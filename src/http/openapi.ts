import { Type, type TSchema } from '@sinclair/typebox';
import type { FastifySchema } from 'fastify';
import type { AuthRequirement } from './request-context.js';
import { BackendError } from './envelopes/backend.js';
import { TableError } from './envelopes/table.js';

/** `{"error":"Unauthorized"}`: the table API's answer to a bad signature or a missing token (spec 5 rule 3). */
const TableUnauthorized = Type.Object(
  { error: Type.Literal('Unauthorized') },
  { description: 'A missing, invalid or expired signature, or a missing or unknown user token' },
);

/** Which envelope a route's errors come in, from its path. */
export interface ErrorEnvelopes {
  /** prefix of the table data API, whose errors are `{code, message}` */
  tablePrefix: string;
  /** prefixes whose errors are the backend envelope `{status, message, data, requestId}` */
  backendPrefixes: readonly string[];
}

/**
 * Adds the error answers a route can give to its OpenAPI description (only the document: validation and
 * serialisation keep the route's own schema). The codes are those of docs/ERRORS.md; the statuses are
 * ranges because any route can meet most of them (bad input, permissions, limits, a failing integrator).
 * Responses the route declares itself are kept as they are.
 */
export function withErrorAnswers(schema: FastifySchema, url: string, auth: AuthRequirement, envelopes: ErrorEnvelopes): FastifySchema {
  // A page (the editor page) answers its errors as a page too, which its own description tells.
  if (schema.produces?.includes('text/html')) return schema;
  const declared = (schema.response ?? {}) as Record<string, TSchema>;
  let errors: Record<string, TSchema>;
  if (url.startsWith(envelopes.tablePrefix)) {
    errors = {
      ...(auth === 'none' ? {} : { '401': TableUnauthorized }),
      '4xx': describe(TableError, 'Refused: `code` says why (table codes of docs/ERRORS.md), e.g. 70001 invalid parameter, 70006 unknown table, 42900 over the app budget'),
      '5xx': describe(TableError, 'Failed on our side or the integrator’s: code 10000 (its message names the trace id), or 10001-10015 for a failing callback'),
    };
  } else if (envelopes.backendPrefixes.some((prefix) => url.startsWith(prefix))) {
    errors = {
      '4xx': describe(BackendError, 'Refused: `status` is the error code (docs/ERRORS.md), e.g. 401 signature or token, 403 permission, 404 unknown, 409 conflict, 413 too large, 415 content type, 429 over the app budget (with Retry-After)'),
      '5xx': describe(BackendError, 'Failed: 500 unexpected (the request id names the log line), 502/504 the integrator’s callbacks failed (10001-10015), 503 unavailable'),
    };
  } else {
    return schema;
  }
  return { ...schema, response: { ...errors, ...declared } };
}

/** The schema with a response description of its own (OpenAPI needs one per response). */
function describe(schema: TSchema, description: string): TSchema {
  // Without its $id: the document inlines it, rather than referring to a schema it does not list.
  const { $id: _id, ...inline } = schema;
  return { ...inline, description } as TSchema;
}
