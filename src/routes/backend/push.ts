import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { MAX_PUSH_MESSAGE_BYTES, PUSH_RECEIPT_WAIT_MS } from '../../domain/push/push-service.js';
import { MAX_FILE_NAME_CHARS, MAX_REPORTED_EVENTS, REPORTED_EVENT_TYPES } from '../../domain/push/reported-events.js';
import { Errors } from '../../errors.js';
import { BackendOk, ok } from '../../http/envelopes/backend.js';
import { callerOf } from '../../http/request-context.js';
import { FileIdParams } from './files.js';

const UserIdParams = Type.Object({ userId: Type.String({ minLength: 1, maxLength: 128, description: 'the integrator user id' }) });

const Message = Type.Unknown({ description: `any JSON value, at most ${MAX_PUSH_MESSAGE_BYTES / 1024} KiB as JSON (124002); a string \`message.text\` also shows in the editor as a notice` });

const ReportedEvent = Type.Object(
  {
    type: Type.String({ description: REPORTED_EVENT_TYPES.join(' | ') }),
    fileId: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'needed by the file.* types' })),
    userId: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: 'user.updated: who changed; file.permissionChanged: narrows the recheck to this user' })),
    data: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: `file.renamed: {name} (1-${MAX_FILE_NAME_CHARS} characters)` })),
  },
);

/**
 * Push to open editors and reported events (docs/PUSH-AND-EVENTS.md): the integrator talks to the people in the
 * editors and tells the service what changed on its side. Signature and user token like every backend call;
 * the token's user is the sender and needs no permission on the file (the integrator's back end decides).
 */
export const pushRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const invalidPush = { auth: 'user', invalidRequest: Errors.pushInvalidParams } as const;

  app.post(
    '/files/:fileId/push',
    {
      config: invalidPush,
      schema: {
        tags: ['push'],
        summary: "Push a message to a file's open editors",
        description:
          'Every editor that has the file open, on every process, gets the message at once; the host page receives it as the ' +
          'JS SDK event `pushMessage` (`{pushId, fileId, message, sentAt}`). `userIds` narrows it to those users. Nothing is ' +
          'kept: an editor opened later does not get it. An unknown file, or another application\'s, is 404 / 70013.',
        params: FileIdParams,
        body: Type.Object({ message: Message, userIds: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 128 }), { minItems: 1, maxItems: 100 })) }),
        response: { 200: BackendOk(Type.Object({ pushId: Type.String() })) },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      await app.services.access.currentUser(caller);
      return ok(await app.services.push.toFile(caller.app.id, request.params.fileId, request.body.message, request.body.userIds));
    },
  );

  app.post(
    '/users/:userId/push',
    {
      config: invalidPush,
      schema: {
        tags: ['push'],
        summary: "Push a message to every editor a user has open",
        description:
          'Every editor the user has open in this application, whatever the file, gets the same `pushMessage`. `delivered` ' +
          `counts the editors that took it: this process's plus those the other processes report within ${PUSH_RECEIPT_WAIT_MS} ms. ` +
          'None is 404 / 124003 (nothing is kept for later).',
        params: UserIdParams,
        body: Type.Object({ message: Message }),
        response: { 200: BackendOk(Type.Object({ pushId: Type.String(), delivered: Type.Integer({ minimum: 1 }) })) },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      await app.services.access.currentUser(caller);
      return ok(await app.services.push.toUser(caller.app.id, request.params.userId, request.body.message));
    },
  );

  app.post(
    '/events/report',
    {
      config: { auth: 'user', invalidRequest: Errors.reportInvalidParams },
      schema: {
        tags: ['push'],
        summary: 'Report what changed on the integrator side',
        description:
          `Up to ${MAX_REPORTED_EVENTS} events, all checked before any is applied (all or nothing). \`file.renamed\` {name}: open ` +
          'editors show the new title (`titleChange`); `file.permissionChanged`: open editors of the file ask `/files/{fileId}` again ' +
          'now (like license/apps/{appId}/permission-changes); `user.updated`: cached answers about the user are dropped and open ' +
          "editors refresh their name and avatar; `file.deleted`: the file is deleted as by DELETE files/{fileId} and its open " +
          'editors close with a notice.',
        body: Type.Object({ events: Type.Array(ReportedEvent) }),
        response: { 200: BackendOk(Type.Object({ applied: Type.Integer() })) },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      await app.services.access.currentUser(caller);
      const { access } = app.services;
      return ok(
        await app.services.reportedEvents.report(caller.app.id, request.body.events, async (userId) => {
          access.forgetUser(caller.app.id, userId);
          const user = (await access.usersById(caller, [userId])).get(userId);
          return user ? { id: user.id, name: user.name, avatar: user.avatar ?? '' } : null;
        }),
      );
    },
  );
};
