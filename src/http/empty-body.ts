import type { FastifyRequest } from 'fastify';

/**
 * onRequest hook for routes without a request body (DELETE): the public client kits send
 * `Content-Type: application/json` on them with nothing after it, which Fastify would refuse as an empty
 * JSON body. With no body at all, the content type describes nothing and is dropped.
 */
export async function ignoreContentTypeWithoutBody(request: FastifyRequest): Promise<void> {
  const { headers } = request;
  const noBody = headers['transfer-encoding'] === undefined && (headers['content-length'] === undefined || headers['content-length'] === '0');
  if (noBody) delete headers['content-type'];
}
