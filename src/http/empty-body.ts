import type { FastifyRequest } from 'fastify';

/**
 * onRequest hook for every route: the public client kits send `Content-Type: application/json` with no body
 * (on DELETE, and on POSTs whose body is optional), which Fastify would refuse as an empty JSON body. With
 * no body at all the content type describes nothing and is dropped; a route that needs a body still gets
 * its own clear validation error.
 */
export async function ignoreContentTypeWithoutBody(request: FastifyRequest): Promise<void> {
  const { headers } = request;
  const noBody = headers['transfer-encoding'] === undefined && (headers['content-length'] === undefined || headers['content-length'] === '0');
  if (noBody) delete headers['content-type'];
}

/**
 * preValidation hook of a route whose body is optional (its fields may come in the query instead): no body at
 * all is validated as an empty object.
 */
export async function absentBodyAsEmptyObject(request: FastifyRequest): Promise<void> {
  if (request.body === undefined || request.body === null) request.body = {};
}
