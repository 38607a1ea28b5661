import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ContentInput } from '../../domain/conversations/content.js';
import { MAX_DATE_MENTION_CONTENT, MAX_REMIND_USERS } from '../../domain/conversations/date-mention-service.js';
import { Errors } from '../../errors.js';
import { BackendOk, ok } from '../../http/envelopes/backend.js';
import { callerOf } from '../../http/request-context.js';
import { FileIdParams } from './files.js';

/**
 * The conversation around a file (docs/CONVERSATIONS.md), under `/sdk/v2/collab-files/{fileId}/…`: comments
 * in threads on a selection, the file's discussion, date mentions, and the backend's comment-count and
 * comment-list. Browser editors and integrators' back ends call the same routes, in a user's context.
 */

const Id = Type.String({ minLength: 1, maxLength: 64 });
const CommentParams = Type.Composite([FileIdParams, Type.Object({ commentGuid: Id })]);
const ThreadParams = Type.Composite([FileIdParams, Type.Object({ selectionGuid: Id })]);
const DateMentionParams = Type.Composite([FileIdParams, Type.Object({ id: Id })]);

const ContentNode = Type.Object({
  type: Type.String({ enum: ['text', 'mention', 'fileMention', 'hardBreak'] }),
  text: Type.Optional(Type.String()),
  attrs: Type.Optional(
    Type.Union([
      Type.Object({ id: Type.String(), guid: Type.String(), label: Type.String() }, { description: 'mention: the user, the mention\'s own id, the name when written' }),
      Type.Object(
        { fileId: Type.String(), fileType: Type.String(), label: Type.String(), fullUrl: Type.Union([Type.String(), Type.Null()]) },
        { description: 'fileMention: the file as the mention suggestions listed it' },
      ),
    ]),
  ),
});

const Comment = Type.Object({
  guid: Type.String(),
  selectionGuid: Type.String({ description: 'the thread' }),
  replyTo: Type.Union([Type.String(), Type.Null()], { description: 'the comment a reply answers; null for the first comment' }),
  userId: Type.String({ description: 'author' }),
  content: Type.String({ description: 'text form: mentions as @Name' }),
  nodes: Type.Array(ContentNode),
  userIds: Type.Array(Type.String(), { description: 'mentioned users, once each' }),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});

const Users = Type.Record(Type.String(), Type.Object({ id: Type.String(), name: Type.String(), avatar: Type.String() }), {
  description: 'authors and mentioned users, named by the integrator',
});

const Thread = Type.Object({
  selectionGuid: Type.String(),
  kind: Type.String({ enum: ['document', 'spreadsheet', 'presentation', 'table'] }),
  selection: Type.Object(
    { detached: Type.Boolean({ description: 'what was commented no longer exists' }) },
    { additionalProperties: true, description: 'where the selection is now (docs/CONVERSATIONS.md "Selections")' },
  ),
  selectionTitle: Type.Union([Type.String(), Type.Null()]),
  selectionContent: Type.Union([Type.String(), Type.Null()]),
  status: Type.String({ enum: ['open', 'closed'] }),
  closedBy: Type.Union([Type.String(), Type.Null()]),
  closedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  createdBy: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  comments: Type.Array(Comment, { description: 'live comments, oldest first' }),
});

const ThreadDetail = Type.Composite([Thread, Type.Object({ users: Users })]);

const DiscussionMessage = Type.Object({
  id: Type.String(),
  userId: Type.String(),
  content: Type.String(),
  nodes: Type.Array(ContentNode),
  userIds: Type.Array(Type.String()),
  unixus: Type.Integer({ description: 'send time, microseconds since the epoch' }),
  createdAt: Type.String({ format: 'date-time' }),
});

const RemindAt = Type.Union([Type.Integer({ minimum: 0 }), Type.String({ maxLength: 64 })], { description: 'epoch milliseconds or ISO 8601' });
const RemindUserIds = Type.Array(Id, { maxItems: MAX_REMIND_USERS, description: 'users to remind (known to the integrator)' });
const DateMentionContent = Type.String({ minLength: 1, maxLength: MAX_DATE_MENTION_CONTENT, description: 'the date as written in the file' });
const PositionId = Type.String({ minLength: 1, maxLength: 128, description: 'where the date stands in the file (the editor\'s node id); assigned when absent' });

const DateMention = Type.Object({
  id: Type.String(),
  content: Type.String(),
  remindAt: Type.Integer({ description: 'epoch milliseconds' }),
  remindAtIso: Type.String({ format: 'date-time' }),
  remindUserIds: Type.Array(Type.String()),
  positionId: Type.String(),
  authorId: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});

export const conversationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { services } = app;
  const config = { auth: 'user' as const, invalidRequest: Errors.invalidConversationParams };
  const tags = ['comments'];

  app.post(
    '/:fileId/comments',
    {
      config,
      schema: {
        tags,
        summary: 'Comment on a selection (opens a thread)',
        description:
          'Needs `commentable`. `selection` depends on the file type (docs/CONVERSATIONS.md "Selections"); one that names nothing in ' +
          'the file answers 74001. Mentioned users must be known to the integrator (74003). Emits Comment (create) and, when users ' +
          'are mentioned, MentionAt (type comment).',
        params: FileIdParams,
        body: Type.Object({ selection: Type.Union([...services.selections.schemas]), content: ContentInput }),
        response: { 200: BackendOk(Comment) },
      },
    },
    async (request) => ok(await services.comments.create(callerOf(request), request.params.fileId, request.body)),
  );

  app.post(
    '/:fileId/comments/:commentGuid/replies',
    {
      config,
      schema: {
        tags,
        summary: 'Reply to a comment',
        description:
          'Needs `commentable`. The reply joins the comment\'s thread with `replyTo` = commentGuid. A deleted comment takes no reply ' +
          '(74004), nor does a closed thread (74005: reopen it first). Emits Comment (create; spreadsheet replies carry replyTo and replyComment).',
        params: CommentParams,
        body: Type.Object({ content: ContentInput }),
        response: { 200: BackendOk(Comment) },
      },
    },
    async (request) => ok(await services.comments.reply(callerOf(request), request.params.fileId, request.params.commentGuid, request.body)),
  );

  app.patch(
    '/:fileId/comments/:commentGuid',
    {
      config,
      schema: {
        tags,
        summary: 'Edit a comment',
        description:
          'Needs `commentable`; someone else\'s comment also needs `manageable`. Emits Comment (update) and MentionAt only for users the ' +
          'comment did not mention before.',
        params: CommentParams,
        body: Type.Object({ content: ContentInput }),
        response: { 200: BackendOk(Comment) },
      },
    },
    async (request) => ok(await services.comments.edit(callerOf(request), request.params.fileId, request.params.commentGuid, request.body)),
  );

  app.delete(
    '/:fileId/comments/:commentGuid',
    {
      config,
      schema: {
        tags,
        summary: 'Delete a comment',
        description:
          'Needs `commentable`; someone else\'s comment also needs `manageable`. Deleting a thread\'s first comment deletes the thread. ' +
          'Emits one Comment (delete) per deleted comment. A deleted comment is not found (74002).',
        params: CommentParams,
        response: { 200: BackendOk(Type.Object({ deleted: Type.Array(Type.String()) })) },
      },
    },
    async (request) => ok(await services.comments.delete(callerOf(request), request.params.fileId, request.params.commentGuid)),
  );

  app.get(
    '/:fileId/comment-threads/:selectionGuid',
    {
      config,
      schema: {
        tags,
        summary: 'One comment thread',
        description: 'Needs `readable`. The thread with its live comments and its selection as it is now.',
        params: ThreadParams,
        response: { 200: BackendOk(ThreadDetail) },
      },
    },
    async (request) => ok(await services.comments.getThread(callerOf(request), request.params.fileId, request.params.selectionGuid)),
  );

  const threadChanges = {
    close: {
      summary: 'Close (resolve) a thread',
      description: 'Needs `commentable`. Emits Comment (closeComments) naming the thread\'s comments; closing a closed thread changes nothing.',
    },
    reopen: {
      summary: 'Reopen a closed thread',
      description: 'Needs `commentable`. Sends no event (spec 6 names none); reopening an open thread changes nothing.',
    },
  } as const;
  for (const change of ['close', 'reopen'] as const) {
    app.post(
      `/:fileId/comment-threads/:selectionGuid/${change}`,
      {
        config,
        schema: { tags, ...threadChanges[change], params: ThreadParams, response: { 200: BackendOk(ThreadDetail) } },
      },
      async (request) => ok(await services.comments[change](callerOf(request), request.params.fileId, request.params.selectionGuid)),
    );
  }

  app.get(
    '/:fileId/comment-count',
    {
      config,
      schema: {
        tags,
        summary: 'Number of open comments',
        description: 'Needs `readable`. Live comments (replies included) of open threads; closed threads count only with `includeClosed=true`.',
        params: FileIdParams,
        querystring: Type.Object({ includeClosed: Type.Boolean({ default: false }) }),
        response: { 200: BackendOk(Type.Object({ count: Type.Integer() })) },
      },
    },
    async (request) => ok({ count: await services.comments.count(callerOf(request), request.params.fileId, request.query.includeClosed) }),
  );

  app.get(
    '/:fileId/comment-list',
    {
      config,
      schema: {
        tags,
        summary: 'Comment threads, newest first, paged',
        description:
          'Needs `readable`. Threads newest first (`page` from 1, `pageSize` 1-100, default 20; `status` open, closed or all), each with ' +
          'its selection resolved now and its live comments oldest first; `users` names every author and mentioned user.',
        params: FileIdParams,
        querystring: Type.Object({
          page: Type.Integer({ minimum: 1, maximum: 100_000, default: 1 }),
          pageSize: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
          status: Type.Union([Type.Literal('open'), Type.Literal('closed'), Type.Literal('all')], { default: 'all' }),
        }),
        response: {
          200: BackendOk(
            Type.Object({
              threads: Type.Array(Thread),
              total: Type.Integer(),
              page: Type.Integer(),
              pageSize: Type.Integer(),
              isLastPage: Type.Boolean(),
              users: Users,
            }),
          ),
        },
      },
    },
    async (request) => {
      const { page, pageSize, status } = request.query;
      return ok(await services.comments.list(callerOf(request), request.params.fileId, { page, pageSize, status }));
    },
  );

  app.post(
    '/:fileId/discussions',
    {
      config,
      schema: {
        tags: ['discussions'],
        summary: 'Send a discussion message',
        description: 'Needs `commentable`. Emits Discussion (create, `unixus` in microseconds) and, when users are mentioned, MentionAt (type discussion).',
        params: FileIdParams,
        body: Type.Object({ content: ContentInput }),
        response: { 200: BackendOk(DiscussionMessage) },
      },
    },
    async (request) => ok(await services.discussions.send(callerOf(request), request.params.fileId, request.body)),
  );

  app.get(
    '/:fileId/discussions',
    {
      config,
      schema: {
        tags: ['discussions'],
        summary: 'Discussion messages, newest first',
        description: 'Needs `readable`. `pageSize` messages (1-100, default 50) older than `before` (a message\'s unixus) when given.',
        params: FileIdParams,
        querystring: Type.Object({
          pageSize: Type.Integer({ minimum: 1, maximum: 100, default: 50 }),
          before: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })),
        }),
        response: { 200: BackendOk(Type.Object({ messages: Type.Array(DiscussionMessage), isLastPage: Type.Boolean(), users: Users })) },
      },
    },
    async (request) => ok(await services.discussions.list(callerOf(request), request.params.fileId, request.query)),
  );

  app.post(
    '/:fileId/date-mentions',
    {
      config,
      schema: {
        tags: ['date mentions'],
        summary: 'Add a date mention',
        description: 'Needs `commentable`. Emits DateMention (create). The integrator sends the reminders (the service does not).',
        params: FileIdParams,
        body: Type.Object({
          content: DateMentionContent,
          remindAt: RemindAt,
          remindUserIds: Type.Optional(RemindUserIds),
          positionId: Type.Optional(PositionId),
        }),
        response: { 200: BackendOk(DateMention) },
      },
    },
    async (request) => ok(await services.dateMentions.create(callerOf(request), request.params.fileId, request.body)),
  );

  app.patch(
    '/:fileId/date-mentions/:id',
    {
      config,
      schema: {
        tags: ['date mentions'],
        summary: 'Change a date mention',
        description: 'Needs `commentable`; someone else\'s also needs `manageable`. Any of the fields; emits DateMention (update) with every field.',
        params: DateMentionParams,
        body: Type.Object({
          content: Type.Optional(DateMentionContent),
          remindAt: Type.Optional(RemindAt),
          remindUserIds: Type.Optional(RemindUserIds),
          positionId: Type.Optional(PositionId),
        }),
        response: { 200: BackendOk(DateMention) },
      },
    },
    async (request) => ok(await services.dateMentions.update(callerOf(request), request.params.fileId, request.params.id, request.body)),
  );

  app.delete(
    '/:fileId/date-mentions/:id',
    {
      config,
      schema: {
        tags: ['date mentions'],
        summary: 'Remove a date mention',
        description: 'Needs `commentable`; someone else\'s also needs `manageable`. Emits DateMention (remove).',
        params: DateMentionParams,
        response: { 200: BackendOk(Type.Object({ id: Type.String() })) },
      },
    },
    async (request) => ok(await services.dateMentions.remove(callerOf(request), request.params.fileId, request.params.id)),
  );

  app.get(
    '/:fileId/date-mentions',
    {
      config,
      schema: {
        tags: ['date mentions'],
        summary: 'Date mentions of a file',
        description: 'Needs `readable`. Live date mentions, soonest reminder first.',
        params: FileIdParams,
        response: { 200: BackendOk(Type.Array(DateMention)) },
      },
    },
    async (request) => ok(await services.dateMentions.list(callerOf(request), request.params.fileId)),
  );
};
