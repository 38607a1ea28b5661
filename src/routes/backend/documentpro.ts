import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Errors } from '../../errors.js';
import { BackendOk, ok } from '../../http/envelopes/backend.js';
import { callerOf } from '../../http/request-context.js';
import { contentActor } from './content-actor.js';
import { FileIdParams } from './files.js';

const BookmarkName = Type.String({ minLength: 1, maxLength: 256 });

/** Named bookmarks of documentPro files (spec 4.2 "Bookmarks", contract notes 3). */
export const documentProRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { services } = app;

  app.get(
    '/files/:fileId/documentpro/bookmark_content',
    {
      config: { auth: 'user', invalidRequest: Errors.invalidContentParams },
      schema: {
        tags: ['content'],
        summary: 'Text under named bookmarks',
        description:
          'Needs `readable`. `bookmarks` repeated (`?bookmarks=a&bookmarks=b`); without it, every bookmark in document order. ' +
          'An unknown name answers 404 / 70014 listing the missing names in `data.missing`. Other file types answer 70004.',
        params: FileIdParams,
        querystring: Type.Object({ bookmarks: Type.Optional(Type.Array(BookmarkName, { maxItems: 200 })) }),
        response: { 200: BackendOk(Type.Array(Type.Object({ bookmark: Type.String(), content: Type.String() }))) },
      },
    },
    async (request) => {
      const auth = callerOf(request);
      await contentActor(services, auth, request.params.fileId, 'readable');
      return ok(await services.collabFiles.bookmarks(auth.app.id, request.params.fileId, request.query.bookmarks ?? []));
    },
  );

  app.put(
    '/files/:fileId/documentpro/bookmark_content',
    {
      config: { auth: 'user', invalidRequest: Errors.invalidContentParams },
      schema: {
        tags: ['content'],
        summary: 'Replace the content under named bookmarks',
        description:
          'Needs `editable`. Each replacement sets what the bookmark wraps: `type: text` takes a string (one paragraph per line), ' +
          '`type: document` a ProseMirror JSON fragment (a `doc` node, a block node or an array of them, or that JSON as a string; ' +
          'nodes of docs/CONTENT-MODEL.md). All replacements apply as one change, or none: an unknown bookmark (404 / 70014) or an ' +
          'invalid value (400 / 70002) changes nothing. Connected editors see the change at once.',
        params: FileIdParams,
        body: Type.Object({
          replacements: Type.Array(
            Type.Object({
              bookmark: BookmarkName,
              type: Type.String({ enum: ['text', 'document'] }),
              value: Type.Unknown({ description: 'text, or a ProseMirror JSON fragment' }),
            }),
            { minItems: 1, maxItems: 200 },
          ),
        }),
        response: { 200: BackendOk(Type.Null()) },
      },
    },
    async (request) => {
      const auth = callerOf(request);
      const actor = await contentActor(services, auth, request.params.fileId, 'editable');
      const replacements = request.body.replacements.map((entry) => ({ bookmark: entry.bookmark, type: entry.type as 'text' | 'document', value: entry.value }));
      await services.collabFiles.replaceBookmarks(auth.app.id, request.params.fileId, actor, replacements);
      return ok(null);
    },
  );
};
