import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { OPAQUE_TYPE } from '../../domain/attachments/attachment-service.js';
import { IMAGE_TYPES } from '../../domain/attachments/sniff.js';
import { contentDisposition } from '../../http/content-disposition.js';
import { callerOf } from '../../http/request-context.js';

/** Every Content-Type an attachment is served with. */
const SERVED_TYPES = [...IMAGE_TYPES, OPAQUE_TYPE];
const Bytes = Type.Unsafe<Buffer>({ type: 'string', format: 'binary' });
const NoBytes = Type.Unsafe<undefined>({ type: 'string', maxLength: 0 });

/** How long a browser may reuse an attachment before asking again (and being checked again). */
export const ATTACHMENT_MAX_AGE_SECONDS = 300;

/** Headers that keep served bytes inert: never sniffed into HTML, never run as a document, never framed. */
const INERT = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; sandbox",
  'cross-origin-resource-policy': 'cross-origin',
} as const;

/**
 * `GET /sdk/v2/attachments/{guid}`: the bytes of an uploaded image or attachment (docs/ATTACHMENTS.md), for
 * editors and integrators alike. Signature and token by header or by query (an `<img>` cannot send headers);
 * `readable` on the attachment's file decides. Errors use the backend envelope of the enclosing group.
 */
export const attachmentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { attachments } = app.services;

  app.get(
    '/:guid',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['attachments'],
        summary: 'Read an image or attachment',
        description:
          'Answers the bytes (not an envelope) with the type sniffed at upload, `X-Content-Type-Options: nosniff`, a sandboxing ' +
          'Content-Security-Policy, `Cache-Control: private`, an ETag (content never changes; If-None-Match answers 304) and ' +
          'Content-Disposition inline for images, attachment otherwise. Needs `readable` on the attachment\'s file. Credentials ' +
          'may be sent as `?signature=&token=` for `<img src>`. Unknown guid, or another application\'s: 404 / 75004.',
        params: Type.Object({ guid: Type.String({ minLength: 1, maxLength: 64, description: 'the attachment guid' }) }),
        querystring: Type.Object({
          signature: Type.Optional(Type.String({ description: 'X-Svc-Signature, for clients that cannot send headers' })),
          token: Type.Optional(Type.String({ description: 'X-Svc-Token, likewise' })),
        }),
        response: {
          200: {
            description: 'the attachment bytes, with the type sniffed at upload',
            content: Object.fromEntries(SERVED_TYPES.map((type) => [type, { schema: Bytes }])),
          },
          304: { description: 'not modified: the ETag sent in If-None-Match is current', content: { 'application/octet-stream': { schema: NoBytes } } },
        },
      },
    },
    async (request, reply) => {
      const auth = callerOf(request);
      const attachment = await attachments.open(auth, request.params.guid);
      const etag = `"${attachment.guid}"`;
      reply.headers({
        ...INERT,
        'cache-control': `private, max-age=${ATTACHMENT_MAX_AGE_SECONDS}`,
        etag,
        'last-modified': new Date(attachment.createdAt).toUTCString(),
      });
      if (matches(request.headers['if-none-match'], etag)) return reply.status(304).send();
      const data = await attachments.content(auth.app.id, attachment.guid);
      return reply
        .type(attachment.mimeType)
        .header('content-disposition', contentDisposition(attachment.image ? 'inline' : 'attachment', attachment.filename))
        .send(data);
    },
  );
};

/** Whether an If-None-Match header names `etag` (or is `*`); weak comparison, as RFC 9110 asks for GET. */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((candidate) => {
    const tag = candidate.trim().replace(/^W\//, '');
    return tag === '*' || tag === etag;
  });
}
