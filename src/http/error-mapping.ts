import type { FastifyError, FastifyRequest } from 'fastify';
import { ApiError, Errors, isApiError, type ErrorSpec } from '../errors.js';
import { isDatabaseUnavailable } from '../storage/database.js';

/** What a 503 for a database that does not answer asks the client to wait before trying again. */
const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * Turns anything thrown while serving a request into an ApiError: our own errors pass through; Fastify's
 * (validation, body parsing, size, media type) get their catalogue entry; everything else is internal.
 * Both envelopes render the result, so an error is classified once, in one place.
 */
export function toApiError(error: unknown, request: FastifyRequest): ApiError {
  if (isApiError(error)) return error;
  const fastifyError = error as Partial<FastifyError> & { validation?: unknown };
  const invalidRequest: ErrorSpec = request.routeOptions.config?.invalidRequest ?? Errors.invalidRequest;

  if (fastifyError.validation) return new ApiError(invalidRequest, `invalid request: ${fastifyError.message}`);
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError(Errors.bodyTooLarge, 'request body too large');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError(Errors.unsupportedMediaType, `unsupported Content-Type: ${request.headers['content-type'] ?? 'none'}`);
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError(invalidRequest, 'invalid request: the JSON body is empty');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new ApiError(invalidRequest, `invalid request: body is not valid JSON`);
  }
  if (error instanceof SyntaxError || fastifyError.statusCode === 400) {
    return new ApiError(invalidRequest, `invalid request: ${fastifyError.message ?? 'malformed request'}`);
  }
  if (fastifyError.statusCode === 413) return new ApiError(Errors.bodyTooLarge, 'request body too large');
  if (fastifyError.statusCode === 415) return new ApiError(Errors.unsupportedMediaType, fastifyError.message ?? 'unsupported media type');
  if (isDatabaseUnavailable(error)) {
    return new ApiError(Errors.databaseUnavailable, 'the database does not answer right now; try again shortly', undefined, {
      'retry-after': String(DATABASE_RETRY_AFTER_SECONDS),
    });
  }
  return new ApiError(Errors.internal, `internal error (request id ${request.id})`);
}
