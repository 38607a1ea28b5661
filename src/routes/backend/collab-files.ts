import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { FILE_ID_PATTERN } from '../../domain/files/file-service.js';
import { isContentKind } from '../../model/content.js';
import { FILE_TYPES } from '../../model/file-types.js';
import { ApiError, Errors } from '../../errors.js';
import { BackendOk, ok } from '../../http/envelopes/backend.js';
import { callerOf } from '../../http/request-context.js';
import { contentActor } from './content-actor.js';
import { FileIdParams } from './files.js';
import { absentBodyAsEmptyObject } from '../../http/empty-body.js';

const Revision = Type.Object({
  id: Type.String(),
  label: Type.String(),
  title: Type.String(),
  docHistoryId: Type.String({ description: 'the history snapshot the revision names' }),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
  user: Type.Object({ id: Type.String(), name: Type.String() }),
});

const RevisionParams = Type.Composite([FileIdParams, Type.Object({ revisionId: Type.String({ minLength: 1, maxLength: 64 }) })]);
const HistoryParams = Type.Composite([FileIdParams, Type.Object({ docHistoryId: Type.String({ minLength: 1, maxLength: 64 }) })]);
const CompareParams = Type.Composite([HistoryParams, Type.Object({ otherHistoryId: Type.String({ minLength: 1, maxLength: 64 }) })]);

const ComparedRun = Type.Object({ text: Type.String(), change: Type.Optional(Type.Union([Type.Literal('insert'), Type.Literal('delete')])) });
const Comparison = Type.Object({
  blocks: Type.Array(
    Type.Object({
      status: Type.Union([Type.Literal('equal'), Type.Literal('inserted'), Type.Literal('deleted'), Type.Literal('changed')]),
      type: Type.String({ description: 'paragraph, heading, codeBlock, image, horizontalRule, …' }),
      level: Type.Optional(Type.Integer({ description: 'a heading\'s level' })),
      runs: Type.Array(ComparedRun),
    }),
  ),
  inserted: Type.Integer({ description: 'characters inserted' }),
  deleted: Type.Integer({ description: 'characters deleted' }),
});

/**
 * `/sdk/v2/collab-files/{fileId}/…` (spec 4.2 "Common", copy; contract notes 3): content of one file for
 * the integrator's backend. Every call is in a user's context; the integrator's permissions decide.
 */
export const collabFileRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { services } = app;

  app.post(
    '/:fileId/copy',
    {
      config: { auth: 'user', invalidRequest: Errors.invalidFileParams },
      schema: {
        tags: ['content'],
        summary: 'Copy a collaborative file',
        description:
          'Needs `copyable` on the source. Creates `fileId` (body) as a new file of the same type with a full, independent copy of ' +
          'the current content (live edits included) and its own copies of the images the content shows (docs/ATTACHMENTS.md); later ' +
          'edits of either file do not reach the other, and deleting the original leaves the copy whole. An existing fileId is ' +
          'refused with 70012 and nothing changes. Not idempotent.',
        params: FileIdParams,
        body: Type.Object({ fileId: Type.String({ pattern: FILE_ID_PATTERN, description: 'id of the new copy' }) }),
        response: {
          200: BackendOk(
            Type.Object({
              fileId: Type.String(),
              type: Type.String({ enum: [...FILE_TYPES] }),
              createdAt: Type.String({ format: 'date-time' }),
              updatedAt: Type.String({ format: 'date-time' }),
            }),
          ),
        },
      },
    },
    async (request) => {
      const auth = callerOf(request);
      const actor = await contentActor(services, auth, request.params.fileId, 'copyable');
      return ok(await services.collabFiles.copy(auth.app, request.params.fileId, request.body.fileId, actor));
    },
  );

  // The collaboration endpoint itself is a WebSocket upgrade (routes/collaboration.ts); this route documents
  // it in the OpenAPI description and tells a plain HTTP client what to do instead of a bare 404.
  app.get(
    '/:fileId/collaboration',
    {
      config: { auth: 'none' },
      schema: {
        tags: ['content'],
        summary: 'Real-time collaboration (WebSocket only)',
        description:
          'Open as a WebSocket with query `signature` and `token` and speak the Hocuspocus v3 protocol (Yjs sync), document name = ' +
          'fileId. Needs `readable`; without `editable` the session is read-only. Refusals are HTTP answers before the upgrade: ' +
          '401 signature/token, 403 permission, 404 file, 400 / 70004 table file. A plain HTTP request answers 426 / 42600. ' +
          'See README "Collaboration and content".',
        params: FileIdParams,
      },
    },
    async () => {
      throw new ApiError(Errors.upgradeRequired, 'the collaboration endpoint speaks WebSocket only: open it with a Hocuspocus (v3) provider', undefined, { Upgrade: 'websocket', Connection: 'Upgrade' });
    },
  );

  app.get(
    '/:fileId/plain-text',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['content'],
        summary: 'Plain text of a file',
        description:
          'Needs `readable`. Documents in reading order (table rows tab-separated); spreadsheets as tab-separated rows per sheet, ' +
          'sheets separated by a blank line; presentations slide by slide. Rules: docs/CONTENT-MODEL.md "Plain text". A table file answers 70004.',
        params: FileIdParams,
        response: { 200: BackendOk(Type.Object({ content: Type.String() })) },
      },
    },
    async (request) => {
      const auth = callerOf(request);
      await contentActor(services, auth, request.params.fileId, 'readable');
      return ok({ content: await services.collabFiles.plainText(auth.app.id, request.params.fileId) });
    },
  );

  app.post(
    '/:fileId/plain-text/wc',
    {
      config: { auth: 'user' },
      // an omitted body means "no keywords"
      preValidation: absentBodyAsEmptyObject,
      schema: {
        tags: ['content'],
        summary: 'Word count and keyword counts',
        description:
          'Needs `readable`. Counts words of the plain text: each CJK character is one word, other scripts count runs of letters and ' +
          'digits; `keywords` are counted case-insensitively, non-overlapping (docs/CONTENT-MODEL.md "Word count"). The body may be omitted.',
        params: FileIdParams,
        body: Type.Object({ keywords: Type.Optional(Type.Array(Type.String({ maxLength: 256 }), { maxItems: 200 })) }),
        response: {
          200: BackendOk(Type.Object({ wordCount: Type.Integer(), keywords: Type.Record(Type.String(), Type.Integer()) })),
        },
      },
    },
    async (request) => {
      const auth = callerOf(request);
      await contentActor(services, auth, request.params.fileId, 'readable');
      return ok(await services.collabFiles.wordCount(auth.app.id, request.params.fileId, request.body.keywords ?? []));
    },
  );

  app.get(
    '/:fileId/revisions',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['revisions'],
        summary: 'Named revisions, newest first',
        description: 'Needs `readable`.',
        params: FileIdParams,
        response: { 200: BackendOk(Type.Array(Revision)) },
      },
    },
    async (request) => {
      const auth = callerOf(request);
      await contentActor(services, auth, request.params.fileId, 'readable');
      return ok(await services.revisions.list(auth.app.id, request.params.fileId));
    },
  );

  app.post(
    '/:fileId/revisions',
    {
      config: { auth: 'user', invalidRequest: Errors.invalidRevisionParams },
      schema: {
        tags: ['revisions'],
        summary: 'Create a named revision',
        description:
          'Needs `editable`. Names the current content (pending edits are recorded first), or the history entry `docHistoryId` ' +
          '(from doc-sidebar-info; 60011 when it is not this file\'s). Emits a Revision event with action `create`.',
        params: FileIdParams,
        body: Type.Object({
          title: Type.String({ minLength: 1, maxLength: 200 }),
          label: Type.Optional(Type.String({ maxLength: 100 })),
          docHistoryId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
        }),
        response: { 200: BackendOk(Revision) },
      },
    },
    async (request) => {
      const auth = callerOf(request);
      const actor = await contentActor(services, auth, request.params.fileId, 'editable');
      return ok(await services.revisions.create(auth.app.id, request.params.fileId, actor, request.body));
    },
  );

  app.post(
    '/:fileId/revisions/:revisionId/restore',
    {
      config: { auth: 'user', invalidRequest: Errors.invalidRevisionParams },
      schema: {
        tags: ['revisions'],
        summary: 'Restore a named revision',
        description:
          'Needs `editable`. Makes the revision\'s content (a documentPro file\'s with its page setup) the current content as a new change: connected editors see it at once, ' +
          'the version grows (FileContent event), a `restore` history entry (historyType 2) is written, and a Revision event with ' +
          'action `update` names the restored revision. 60010 when the revision is not this file\'s.',
        params: RevisionParams,
        response: {
          200: BackendOk(Type.Object({ revision: Revision, version: Type.Integer(), docHistoryId: Type.String({ description: 'the restore history entry' }) })),
        },
      },
    },
    async (request) => {
      const auth = callerOf(request);
      const actor = await contentActor(services, auth, request.params.fileId, 'editable');
      return ok(await services.revisions.restore(auth.app.id, request.params.fileId, request.params.revisionId, actor));
    },
  );

  app.get(
    '/:fileId/doc-sidebar-info',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['revisions'],
        summary: 'Edit history, newest first, paged',
        description:
          'Needs `readable`. `pageSize` entries (default 20, 1-100) after skipping `count` (the number the client already shows); ' +
          '`historyType` filters: 1 edits, 2 restores, 3 snapshots taken for a revision, 4 comment activity (commented, replied, ' +
          'edited, deleted, closed or reopened a thread; docs/CONVERSATIONS.md), 5 behavior history the integrator wrote (`action: content`; ' +
          'docs/BEHAVIOR-HISTORY.md). `users` maps the page\'s user ids to names.',
        params: FileIdParams,
        querystring: Type.Object({
          pageSize: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
          count: Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 }),
          historyType: Type.Optional(Type.Integer({ enum: [1, 2, 3, 4, 5] })),
        }),
        response: {
          200: BackendOk(
            Type.Object({
              histories: Type.Array(
                Type.Object({
                  id: Type.String(),
                  content: Type.String(),
                  createdAt: Type.String({ format: 'date-time' }),
                  updatedAt: Type.String({ format: 'date-time' }),
                  historyType: Type.Integer(),
                  name: Type.String(),
                  userId: Type.String(),
                }),
              ),
              isLastPage: Type.Boolean(),
              limit: Type.Integer(),
              users: Type.Record(Type.String(), Type.String()),
            }),
          ),
        },
      },
    },
    async (request) => {
      const auth = callerOf(request);
      await contentActor(services, auth, request.params.fileId, 'readable');
      const { pageSize, count, historyType } = request.query;
      return ok(await services.revisions.histories(auth.app.id, request.params.fileId, { limit: pageSize, offset: count, historyType }));
    },
  );

  app.get(
    '/:fileId/history/:docHistoryId/content',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['revisions'],
        summary: 'Content of one history entry (Yjs state)',
        description:
          'Needs `readable`. The file\'s content as the history entry `docHistoryId` recorded it (an `id` of doc-sidebar-info with ' +
          'historyType 1-3, or a revision\'s `docHistoryId`): the full Yjs state, `Y.applyUpdate(new Y.Doc(), body)` rebuilds it ' +
          '(docs/CONTENT-MODEL.md), for an editor to show an old version read-only. `application/octet-stream`; errors keep the ' +
          'JSON envelope: 60011 when the id is not a history entry of this file (comment activity has no content), 70004 for a table file.',
        params: HistoryParams,
        response: {
          200: {
            description: 'the encoded Yjs state (Y.encodeStateAsUpdate) of the snapshot',
            content: { 'application/octet-stream': { schema: Type.Unsafe<Buffer>({ type: 'string', format: 'binary' }) } },
          },
        },
      },
    },
    async (request, reply) => {
      const auth = callerOf(request);
      const { fileId, docHistoryId } = request.params;
      await contentActor(services, auth, fileId, 'readable');
      const state = await services.revisions.historyContent(auth.app.id, fileId, docHistoryId);
      // what a user may read is decided anew on every request: nothing keeps a copy
      return reply
        .header('content-type', 'application/octet-stream')
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .send(Buffer.from(state.buffer, state.byteOffset, state.byteLength));
    },
  );

  app.get(
    '/:fileId/history/:docHistoryId/compare/:otherHistoryId',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['revisions'],
        summary: 'Compare two versions of a document (service extension)',
        description:
          'Not in the spec: an extension of this service (docs/CONTENT-MODEL.md "Comparing versions"). Needs `readable`. What changed ' +
          'from the history entry `docHistoryId` to `otherHistoryId` (ids as for `history/{docHistoryId}/content`: doc-sidebar-info ' +
          "ids of historyType 1-3, or a revision's `docHistoryId`) of a document or documentPro file: its text blocks in document " +
          'order, each `equal`, `inserted`, `deleted` or `changed`, with runs marking the words inserted and deleted. 60011 when ' +
          'an id is not a history entry of this file, 60013 when its content is no longer kept, 70004 for other file kinds.',
        params: CompareParams,
        response: { 200: BackendOk(Comparison) },
      },
    },
    async (request) => {
      const auth = callerOf(request);
      const { fileId, docHistoryId, otherHistoryId } = request.params;
      await contentActor(services, auth, fileId, 'readable');
      return ok(await services.revisions.compare(auth.app.id, fileId, docHistoryId, otherHistoryId));
    },
  );

  app.get(
    '/:fileId/mention-at-list',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['content'],
        summary: 'Users mentioned in the file',
        description:
          'Needs `readable`. Every `mention` node of the body (documents, presentation text boxes) in reading order, then mentions in ' +
          'live comments and in discussion messages, oldest first (docs/CONVERSATIONS.md). `source` tells where each stands.',
        params: FileIdParams,
        response: {
          200: BackendOk(
            Type.Object({
              mentionAtList: Type.Array(
                Type.Object({
                  userId: Type.String(),
                  atGuid: Type.String(),
                  source: Type.String({ enum: ['body', 'comment', 'discussion'] }),
                  commentGuid: Type.Optional(Type.String()),
                  discussionId: Type.Optional(Type.String()),
                }),
              ),
            }),
          ),
        },
      },
    },
    async (request) => {
      const auth = callerOf(request);
      const { fileId } = request.params;
      await contentActor(services, auth, fileId, 'readable');
      const file = await services.files.get(auth.app.id, fileId);
      const [body, comments, discussions] = await Promise.all([
        isContentKind(file.type) ? services.collabFiles.mentions(auth.app.id, fileId) : [],
        services.comments.mentions(auth.app.id, fileId),
        services.discussions.mentions(auth.app.id, fileId),
      ]);
      return ok({
        mentionAtList: [
          ...body.map((mention) => ({ ...mention, source: 'body' })),
          ...comments.map((mention) => ({ ...mention, source: 'comment' })),
          ...discussions.map((mention) => ({ ...mention, source: 'discussion' })),
        ],
      });
    },
  );
};
