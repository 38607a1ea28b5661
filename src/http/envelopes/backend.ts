import { Type, type TSchema } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, Errors } from '../../errors.js';
import { toApiError } from '../error-mapping.js';

/** Backend API envelope (spec 2.6): `{status, message, data}`, status 0 on success. */
export interface BackendEnvelope<T> {
  status: 0;
  message: string;
  data: T;
}

export function ok<T>(data: T): BackendEnvelope<T> {
  return { status: 0, message: 'success', data };
}

/** Response schema of a successful backend call carrying `data`. */
export function BackendOk<T extends TSchema>(data: T) {
  return Type.Object({
    status: Type.Literal(0),
    message: Type.String(),
    data,
  });
}

export const BackendError = Type.Object(
  {
    status: Type.Integer({ description: 'non-zero error code, see docs/ERRORS.md' }),
    message: Type.String(),
    data: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
    requestId: Type.String(),
  },
  { $id: 'BackendError', description: 'Backend API error envelope' },
);

export function sendBackendError(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const apiError = toApiError(error, request);
  if (apiError.spec.http >= 500) request.log.error({ err: error }, 'request failed');
  else request.log.info({ status: apiError.spec.code, reason: apiError.message }, 'request rejected');
  if (apiError.headers) reply.headers(apiError.headers);
  return reply.status(apiError.spec.http).send({
    status: apiError.spec.code,
    message: apiError.message,
    data: apiError.details ?? null,
    requestId: request.id,
  });
}

/** Gives an encapsulated route group the backend envelope for its errors and unknown paths. */
export function useBackendEnvelope(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => sendBackendError(error, request, reply));
  app.setNotFoundHandler((request, reply) =>
    sendBackendError(new ApiError(Errors.routeNotFound, `no route ${request.method} ${request.url.split('?')[0]}`), request, reply),
  );
}
