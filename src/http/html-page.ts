import type { FastifyReply } from 'fastify';

/**
 * Headers of an HTML page that carries credentials in its address (the editor page, the preview viewer): never
 * cached, no referrer leaves it, its type never sniffed, and the given Content-Security-Policy directives.
 */
export function htmlPageHeaders(reply: FastifyReply, policy: readonly string[]): FastifyReply {
  return reply
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', policy.join('; '));
}
