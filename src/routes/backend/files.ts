import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { FILE_ID_PATTERN } from '../../domain/files/file-service.js';
import { FILE_TYPES, type FileType } from '../../model/file-types.js';
import { Errors } from '../../errors.js';
import { BackendOk, ok } from '../../http/envelopes/backend.js';
import { callerOf } from '../../http/request-context.js';

export const FileIdParams = Type.Object({
  fileId: Type.String({ pattern: FILE_ID_PATTERN, description: 'the integrator file id (1-64 characters)' }),
});

const CollabFile = Type.Object({
  fileId: Type.String(),
  type: Type.String({ enum: [...FILE_TYPES] }),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});

/** The collaborative file registry (spec 4.2 "Collaborative file"). */
export const fileRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/files',
    {
      config: { auth: 'user', invalidRequest: Errors.invalidFileParams },
      schema: {
        tags: ['files'],
        summary: 'Create a collaborative file',
        description:
          'Not idempotent: a second create of the same fileId fails with 70012 and changes nothing. ' +
          'The token must resolve to a user through the integrator (`/users/current/info`); that user is recorded as the creator. ' +
          '`type` must be among the application\'s availableFileTypes (70003 otherwise).',
        querystring: Type.Object({ lang: Type.Optional(Type.String()) }),
        body: Type.Object({
          type: Type.String({ enum: [...FILE_TYPES] }),
          fileId: Type.String({ pattern: FILE_ID_PATTERN }),
          contentKey: Type.Optional(Type.String({ maxLength: 256 })),
        }),
        response: { 200: BackendOk(CollabFile) },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      const user = await app.services.access.currentUser(caller);
      const { type, fileId, contentKey } = request.body;
      return ok(await app.services.files.create(caller.app, { type: type as FileType, fileId, contentKey, createdBy: user.id }));
    },
  );

  app.delete(
    '/files/:fileId',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['files'],
        summary: 'Delete a collaborative file',
        description:
          'Needs the `manageable` permission from the integrator (`/files/{fileId}`), 403 / 40300 otherwise. ' +
          'Final-state idempotent: deleting a file that is already gone succeeds; `data.deleted` tells which. Its open ' +
          'editors, on every process, are closed at once with a notice (4404), as for a reported `file.deleted`.',
        params: FileIdParams,
        response: { 200: BackendOk(Type.Object({ deleted: Type.Boolean() })) },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      await app.services.access.authorize(caller, request.params.fileId, 'manageable');
      const removed = await app.services.files.delete(caller.app.id, request.params.fileId);
      if (removed.deleted) await app.services.cluster.changes.publish({ kind: 'file', appId: caller.app.id, fileId: request.params.fileId, change: { type: 'deleted' } });
      return ok(removed);
    },
  );
};
