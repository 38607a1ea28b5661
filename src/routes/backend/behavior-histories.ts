import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Errors } from '../../errors.js';
import { BackendOk, ok } from '../../http/envelopes/backend.js';
import { callerOf } from '../../http/request-context.js';
import { FileIdParams } from './files.js';

const BehaviorHistory = Type.Object({
  id: Type.String(),
  fileId: Type.String(),
  userId: Type.String(),
  name: Type.String({ description: "the user's name, as the integrator answered it when the entry was written" }),
  action: Type.String(),
  content: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
});

const EntryParams = Type.Composite([FileIdParams, Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) })]);

const config = { auth: 'user' as const, invalidRequest: Errors.invalidBehaviorHistoryParams };

/**
 * `/sdk/v2/api/files/{fileId}/behavior-histories` (docs/BEHAVIOR-HISTORY.md): what happened to a file outside
 * the editor, written by the integrator's back end, shown in doc-sidebar-info (historyType 5) and the editors'
 * history panel. Every call is in a user's context and needs `readable` on the file, `manageable` to remove.
 */
export const behaviorHistoryRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { services } = app;

  app.post(
    '/files/:fileId/behavior-histories',
    {
      config,
      schema: {
        tags: ['files'],
        summary: 'Write a behavior history entry',
        description:
          'Needs `readable`. Records that `userId` did `action` (a short word: `shared`, `approved`, `archived`) to the file, with ' +
          'optional `content` (up to 1,000 characters) at `createdAt` (epoch ms, default now). The user\'s name is asked of the ' +
          'integrator (`POST /users/batch/get`; 125002 when it does not know the id). The entry shows in doc-sidebar-info as ' +
          'historyType 5 and in every editor\'s history panel. Not idempotent: each call writes one entry.',
        params: FileIdParams,
        body: Type.Object({
          userId: Type.String({ minLength: 1, maxLength: 64 }),
          action: Type.String({ minLength: 1, maxLength: 64, pattern: '\\S' }),
          content: Type.Optional(Type.String({ maxLength: 1000 })),
          createdAt: Type.Optional(Type.Integer({ minimum: 0, maximum: 8_640_000_000_000_000, description: 'epoch milliseconds' })),
        }),
        response: { 200: BackendOk(BehaviorHistory) },
      },
    },
    async (request) => {
      const auth = callerOf(request);
      await services.access.authorize(auth, request.params.fileId, 'readable');
      return ok(await services.behaviorHistories.add(auth, request.params.fileId, request.body));
    },
  );

  app.get(
    '/files/:fileId/behavior-histories',
    {
      config,
      schema: {
        tags: ['files'],
        summary: 'List behavior history entries, newest first, paged',
        description: 'Needs `readable`. `page` (1-based) of `pageSize` entries (default 20, 1-100), newest `createdAt` first; `total` counts all.',
        params: FileIdParams,
        querystring: Type.Object({
          page: Type.Integer({ minimum: 1, maximum: 100_000, default: 1 }),
          pageSize: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
        }),
        response: { 200: BackendOk(Type.Object({ histories: Type.Array(BehaviorHistory), isLastPage: Type.Boolean(), total: Type.Integer() })) },
      },
    },
    async (request) => {
      const auth = callerOf(request);
      await services.access.authorize(auth, request.params.fileId, 'readable');
      return ok(await services.behaviorHistories.list(auth.app.id, request.params.fileId, request.query));
    },
  );

  app.delete(
    '/files/:fileId/behavior-histories/:id',
    {
      config,
      schema: {
        tags: ['files'],
        summary: 'Remove a behavior history entry',
        description: 'Needs `manageable`. 125001 when the entry is not one of this file\'s (another file\'s, another application\'s, or already removed).',
        params: EntryParams,
        response: { 200: BackendOk(Type.Object({ deleted: Type.Boolean() })) },
      },
    },
    async (request) => {
      const auth = callerOf(request);
      await services.access.authorize(auth, request.params.fileId, 'manageable');
      return ok(await services.behaviorHistories.remove(auth.app.id, request.params.fileId, request.params.id));
    },
  );
};
