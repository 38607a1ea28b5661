import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { MAX_KEYWORD_LENGTH } from '../../domain/suggestions/mention-suggestions.js';
import { Errors } from '../../errors.js';
import { BackendOk, ok } from '../../http/envelopes/backend.js';
import { callerOf } from '../../http/request-context.js';
import { FileIdParams } from './files.js';

const SuggestedUser = Type.Object({ id: Type.String(), name: Type.String(), avatar: Type.String(), email: Type.String() });

/** A file list entry (spec 2.3), as the integrator's search callbacks answered it (checked). */
const FileListEntry = Type.Object({
  id: Type.String(),
  name: Type.String(),
  type: Type.String({ description: 'document, spreadsheet, …, or `file` for a third-party file' }),
  permissions: Type.Object({ readable: Type.Boolean(), editable: Type.Boolean(), commentable: Type.Boolean() }),
  creatorId: Type.Optional(Type.String()),
  createdAt: Type.Optional(Type.String({ format: 'date-time' })),
  updatedAt: Type.Optional(Type.String({ format: 'date-time' })),
  views: Type.Optional(Type.Integer()),
  fullUrl: Type.Optional(Type.String({ description: 'only and always on type `file`: its address in the integrator\'s system (open it with the host\'s openLink)' })),
});

const SuggestionFailure = Type.Object({
  source: Type.String({ enum: ['users', 'files'], description: 'the list left empty' }),
  status: Type.Integer({ description: 'the error code its callback failed with (docs/ERRORS.md, 10001-10015)' }),
  message: Type.String(),
});

/**
 * `/sdk/v2/collab-files/{fileId}/mention-suggestions`: what an editor's `@` dropdown offers (users to mention,
 * files to link), from the integrator's search callbacks (docs/CONVERSATIONS.md "Mention suggestions").
 */
export const mentionSuggestionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/:fileId/mention-suggestions',
    {
      config: { auth: 'user', invalidRequest: Errors.invalidConversationParams },
      schema: {
        tags: ['conversations'],
        summary: 'Users and files to offer in the @ dropdown',
        description:
          'Needs `readable`. Without `keyword` (or a blank one): the integrator\'s `GET /search/users/recent` and ' +
          '`GET /search/files/recent`, asked in parallel; if one fails the other list is still answered and `failures` names the ' +
          'failed source with its error code; if both fail the answer is the users\' error with `data.failures`. With a keyword ' +
          `(trimmed, 1-${MAX_KEYWORD_LENGTH} characters, else 74000): the integrator's \`POST /search\`, users from recentUsers, ` +
          'collaborators and teamMembers (each once, in that order), files from files; its failure fails the request. Nothing is cached.',
        params: FileIdParams,
        querystring: Type.Object({ keyword: Type.Optional(Type.String({ maxLength: 1000 })) }),
        response: {
          200: BackendOk(Type.Object({ users: Type.Array(SuggestedUser), files: Type.Array(FileListEntry), failures: Type.Array(SuggestionFailure) })),
        },
      },
    },
    async (request) => ok(await app.services.mentionSuggestions.suggest(callerOf(request), request.params.fileId, request.query.keyword)),
  );
};
