import { Type, type TSchema } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, Errors } from '../../errors.js';
import { toApiError } from '../error-mapping.js';

const INTERNAL_CODE = 10000;

/** Table API envelope (spec 2.6): `{code: 0, msg: "success", data}` on success. */
export interface TableEnvelope<T> {
  code: 0;
  msg: 'success';
  data: T;
}

export function tableOk<T>(data: T): TableEnvelope<T> {
  return { code: 0, msg: 'success', data };
}

/**
 * Sends a success envelope as text made by JSON.stringify, for answers that carry rows: Fastify's schema
 * serializer writes open-ended value maps (`Type.Record`) testing a regular expression per key, several times
 * slower than the native stringifier. The route's response schema still documents the shape.
 */
export function sendTableData(reply: FastifyReply, data: unknown): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(JSON.stringify(tableOk(data)));
}

/**
 * Sends rows whose value maps are JSON text already (`EncodedRow`) with the answer's other fields
 * (`offset` of a page, `start` and `total` of a window), assembling the envelope around them without
 * parsing them again.
 */
export function sendRowPage<T extends { rows: readonly { guid: string; valueMapJson: string }[] }>(reply: FastifyReply, page: T): FastifyReply {
  const { rows, ...fields } = page;
  const encoded = rows.map((row) => `{"guid":${JSON.stringify(row.guid)},"valueMap":${row.valueMapJson}}`).join(',');
  const rest = JSON.stringify(fields).slice(1, -1);
  const data = `{"rows":[${encoded}]${rest ? `,${rest}` : ''}}`;
  return reply.type('application/json; charset=utf-8').send(`{"code":0,"msg":"success","data":${data}}`);
}

/** Response schema of a successful table API call carrying `data`. */
export function TableOk<T extends TSchema>(data: T) {
  return Type.Object({ code: Type.Literal(0), msg: Type.Literal('success'), data });
}

export const TableError = Type.Object(
  {
    code: Type.Integer({ description: 'table API error code (spec 7.2), see docs/ERRORS.md' }),
    message: Type.String(),
  },
  { description: 'Table API error envelope; an invalid signature or token answers 401 `{"error":"Unauthorized"}` instead' },
);

/**
 * Renders a failure as the table API answers it: `{code, message}` with the entry's table code, or the bare
 * `{"error":"Unauthorized"}` of spec 5 rule 3. Code 10000 answers HTTP 500 and its message names the trace id
 * (the request id, also in the log line of the failure).
 */
export function sendTableError(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const apiError = toApiError(error, request);
  const spec = apiError.spec;
  // Spec 7.2: code 10000 is always HTTP 500 here, whatever the failure (our fault, a failing integrator).
  const internal = spec.tableCode === INTERNAL_CODE;
  const http = internal ? 500 : (spec.tableHttp ?? spec.http);
  let message = apiError.message;
  if (internal) {
    if (!message.includes(request.id)) message = `${message} (trace id ${request.id})`;
    request.log.error({ err: error, traceId: request.id }, 'request failed');
  } else {
    request.log.info({ code: spec.tableCode ?? spec.code, reason: message }, 'request rejected');
  }
  if (apiError.headers) reply.headers(apiError.headers);
  if (spec.tableCode === 'unauthorized') return reply.status(http).send({ error: 'Unauthorized' });
  return reply.status(http).send({ code: spec.tableCode ?? spec.code, message });
}

/** Gives an encapsulated route group the table envelope for its errors and unknown paths. */
export function useTableEnvelope(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => sendTableError(error, request, reply));
  app.setNotFoundHandler((request, reply) =>
    sendTableError(new ApiError(Errors.routeNotFound, `no route ${request.method} ${request.url.split('?')[0]}`), request, reply),
  );
}
