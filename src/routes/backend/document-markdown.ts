import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Errors } from '../../errors.js';
import { BackendOk, ok } from '../../http/envelopes/backend.js';
import { callerOf, serviceOrigin } from '../../http/request-context.js';
import { contentActor } from './content-actor.js';
import { FileIdParams } from './files.js';

/** The longest Markdown one compose-custom call appends, in characters. */
const MAX_COMPOSE_CHARACTERS = 1_000_000;

/**
 * The kits' newer document calls (client-kits.md "Newer kit calls"; docs/CLIENT-KITS.md): a document as
 * Markdown, and Markdown appended to a document. In the kits' dialect they answer `{content}` and
 * `{status, tid}` (src/http/envelopes/kit.ts); in ours, the envelope.
 */
export const documentMarkdownRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { services } = app;

  app.get(
    '/files/content/:fileId/r2m',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['content'],
        summary: 'A document as Markdown',
        description:
          'Needs `readable`. The document or documentPro as Markdown (CommonMark with GFM tables, strike-through and task lists), ' +
          'written by the Markdown export (docs/IMPORT-EXPORT.md) except that images are links: the file\'s own images to their ' +
          'attachment URL on this service (`/sdk/v2/attachments/{guid}`, read with the same credentials). Other kinds: 70004.',
        params: FileIdParams,
        response: { 200: BackendOk(Type.Object({ content: Type.String() })) },
      },
    },
    async (request) => {
      const auth = callerOf(request);
      await contentActor(services, auth, request.params.fileId, 'readable');
      return ok({ content: await services.documentMarkdown.markdown(auth.app.id, request.params.fileId, serviceOrigin(request)) });
    },
  );

  app.post(
    '/files/edit/:fileId/compose-custom',
    {
      config: { auth: 'user', invalidRequest: Errors.invalidComposeParams },
      schema: {
        tags: ['content'],
        summary: 'Append Markdown to a document',
        description:
          'Needs `editable`. Appends `content` (Markdown, `typ` must be `md`) at the end of the document or documentPro as one change, ' +
          'read by the Markdown import: open editors see it at once, and it is recorded at once as a new version with its FileContent ' +
          'event and an edit history entry (historyType 1), whose id is `tid` (doc-sidebar-info lists it). Pictures embedded as ' +
          'data: URIs become image attachments of the file. Blank or over 1,000,000 characters: 125100; other kinds: 70004.',
        params: FileIdParams,
        body: Type.Object({
          typ: Type.Literal('md'),
          content: Type.String({ minLength: 1, maxLength: MAX_COMPOSE_CHARACTERS }),
        }),
        response: {
          200: BackendOk(Type.Object({ tid: Type.String({ description: 'the history entry of the change' }), version: Type.Integer() })),
        },
      },
    },
    async (request) => {
      const auth = callerOf(request);
      const actor = await contentActor(services, auth, request.params.fileId, 'editable');
      return ok(await services.documentMarkdown.appendMarkdown(auth.app.id, request.params.fileId, actor, request.body.content));
    },
  );
};
