import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { KeptExport } from '../../domain/export/export-service.js';
import { EXPORT_MAX_RUN_MS, EXPORT_TASK, type ExportTaskInput } from '../../domain/export/export-task.js';
import { EXPORT_TYPES, isExportType } from '../../domain/export/formats.js';
import { ApiError, Errors, type ErrorSpec } from '../../errors.js';
import { contentDisposition } from '../../http/content-disposition.js';
import { BackendOk, ok } from '../../http/envelopes/backend.js';
import { callerOf, serviceOrigin } from '../../http/request-context.js';
import type { Services } from '../../services.js';
import type { TaskView } from '../../tasks/task-engine.js';
import { FileIdParams } from './files.js';
import { absentBodyAsEmptyObject } from '../../http/empty-body.js';

/** How often the synchronous table export looks at its task. */
const TABLE_EXPORT_POLL_MS = 200;

const TaskIdField = Type.String({ minLength: 1, maxLength: 64, description: 'the taskId the export call answered' });

/** The catalogue entry of a code recorded on a failed task (its HTTP status and envelope status). */
function specOf(code: number): ErrorSpec {
  return Object.values(Errors).find((spec: ErrorSpec) => spec.code === code) ?? Errors.taskFailed;
}

/**
 * The answer for an export task: progress while it runs; progress 100 and the signed download link once it
 * succeeded; its error (code and message, HTTP status from the catalogue) once it failed.
 */
async function progressOf(services: Services, request: FastifyRequest, task: TaskView): Promise<{ progress: number; downloadUrl: string; refusedRequests?: number }> {
  if (task.state === 'failed') {
    const error = task.error ?? { code: Errors.taskFailed.code, message: 'the export failed' };
    throw new ApiError(specOf(error.code), error.message, { taskId: task.id, progress: task.progress });
  }
  if (task.state !== 'succeeded') return { progress: task.progress, downloadUrl: '' };
  const kept = task.result as KeptExport;
  const app = await services.apps.get(task.appId);
  const downloadUrl = `${serviceOrigin(request)}${services.exports.downloadPath(app.secret, kept)}`;
  return { progress: 100, downloadUrl, ...(kept.refusedRequests === undefined ? {} : { refusedRequests: kept.refusedRequests }) };
}

/** Checks and submits an export of the caller's file: `exportable` on it, a type its kind offers. */
async function submitExport(services: Services, request: FastifyRequest, fileId: string, type: string): Promise<TaskView> {
  const auth = callerOf(request);
  await services.files.get(auth.app.id, fileId);
  const access = await services.access.authorize(auth, fileId, 'exportable');
  if (!isExportType(type)) {
    throw new ApiError(Errors.exportTypeUnsupported, `type ${JSON.stringify(type)} is not an export format; formats: ${EXPORT_TYPES.join(', ')}`);
  }
  await services.exports.check(auth.app.id, fileId, type);
  // asked now, with the user's token: the task runs later, without it (only pdf and jpg draw it)
  const watermark = type === 'pdf' || type === 'jpg' ? await services.access.watermark(auth, access.user.id) : [];
  const input: ExportTaskInput = { type, title: access.file.name || fileId, watermark };
  return services.tasks.submit({ appId: auth.app.id, kind: EXPORT_TASK, fileId, input });
}

/**
 * Export (spec 4.2 "Export", contract notes 3; docs/IMPORT-EXPORT.md "Export"): `files/v1/export/{fileId}` starts an
 * export task, `files/v1/export/progress` polls it, `files/export/table-sheets/{fileId}` is the public kits'
 * synchronous table export. Registered under /sdk/v2/api.
 */
export const exportRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { services } = app;

  app.post(
    '/files/v1/export/:fileId',
    {
      config: { auth: 'user', invalidRequest: Errors.exportInvalidParams },
      schema: {
        tags: ['import-export'],
        summary: 'Start an export',
        description:
          'Needs `exportable`. Starts an export task of the file as `type`: document and documentPro → docx, md, pdf, jpg, wps (wps ' +
          'needs LibreOffice); spreadsheet → xlsx, csv, pdf; presentation → pptx, pdf, jpg; table → xlsx. Answers `{taskId}` at ' +
          'once; poll `files/v1/export/progress`. A type the file kind does not offer: 400 / 122002; wps without LibreOffice: ' +
          '501 / 122003. See docs/IMPORT-EXPORT.md.',
        params: FileIdParams,
        body: Type.Object({ type: Type.String({ minLength: 1, maxLength: 16, description: `one of ${EXPORT_TYPES.join(', ')}` }) }),
        response: { 200: BackendOk(Type.Object({ taskId: Type.String() })) },
      },
    },
    async (request) => {
      const task = await submitExport(services, request, request.params.fileId, request.body.type);
      return ok({ taskId: task.id });
    },
  );

  app.post(
    '/files/v1/export/progress',
    {
      config: { auth: 'user', invalidRequest: Errors.exportInvalidParams },
      // the kits send no body at all, with the taskId in the query
      preValidation: absentBodyAsEmptyObject,
      schema: {
        tags: ['import-export'],
        summary: 'Progress of an export',
        description:
          'The task named by `taskId` (body or query). Running: `{progress: 0-99, downloadUrl: ""}`. Done: `{progress: 100, ' +
          'downloadUrl}`, a signed link served by this service that works without other headers until it expires ' +
          '(SVC_EXPORT_LINK_TTL_MINUTES, default 60); the file is removed then. Failed: the task\'s error code and message ' +
          '(122xxx, or 120002 ran past 10 minutes). Unknown task, or another application\'s: 404 / 120001. Poll every 1-3 s ' +
          'with backoff. A finished pdf or jpg export also says `refusedRequests`: the requests its rendered page made that the ' +
          'renderer refused (it fetches nothing outside the process; docs/IMPORT-EXPORT.md).',
        querystring: Type.Object({ taskId: Type.Optional(TaskIdField) }),
        body: Type.Object({ taskId: Type.Optional(TaskIdField) }),
        response: {
          200: BackendOk(
            Type.Object({
              progress: Type.Integer({ minimum: 0, maximum: 100 }),
              downloadUrl: Type.String(),
              refusedRequests: Type.Optional(Type.Integer({ minimum: 0, description: 'pdf and jpg, once done: requests of the rendered page refused' })),
            }),
          ),
        },
      },
    },
    async (request) => {
      const taskId = request.body.taskId ?? request.query.taskId;
      if (!taskId) throw new ApiError(Errors.exportInvalidParams, 'taskId is required (in the body or the query)');
      const task = await services.tasks.get(callerOf(request).app.id, taskId, EXPORT_TASK);
      return ok(await progressOf(services, request, task));
    },
  );

  app.post(
    '/files/export/table-sheets/:fileId',
    {
      config: { auth: 'user', invalidRequest: Errors.exportInvalidParams },
      schema: {
        tags: ['import-export'],
        summary: 'Export a table file as xlsx (synchronous)',
        description:
          'The public kits\' table export: needs `exportable` on a `table` file; runs an xlsx export task and answers when it is ' +
          'done, with the signed link both beside the envelope\'s status (`downloadUrl`, as the kits read it) and in `data`. ' +
          'Other file kinds: 400 / 122002.',
        params: FileIdParams,
        response: {
          200: Type.Object({
            status: Type.Literal(0),
            message: Type.String(),
            downloadUrl: Type.String(),
            data: Type.Object({ taskId: Type.String(), downloadUrl: Type.String() }),
          }),
        },
      },
    },
    async (request) => {
      const started = await submitExport(services, request, request.params.fileId, 'xlsx');
      const appId = callerOf(request).app.id;
      const deadline = Date.now() + EXPORT_MAX_RUN_MS + 60_000;
      let task = started;
      while (task.state === 'queued' || task.state === 'running') {
        if (Date.now() > deadline || request.raw.destroyed) throw new ApiError(Errors.taskTimedOut, `the table export did not finish; poll files/v1/export/progress with taskId ${task.id}`, { taskId: task.id });
        await new Promise((resolve) => setTimeout(resolve, TABLE_EXPORT_POLL_MS));
        task = await services.tasks.get(appId, task.id, EXPORT_TASK);
      }
      const { downloadUrl } = await progressOf(services, request, task);
      return { status: 0 as const, message: 'success', downloadUrl, data: { taskId: task.id, downloadUrl } };
    },
  );
};

/** `GET /sdk/v2/exports/{downloadId}?expires&sig`: an export's file through its signed link, no other credentials. */
export const exportDownloadRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { exports } = app.services;

  app.get(
    '/:downloadId',
    {
      config: { auth: 'none' },
      schema: {
        tags: ['import-export'],
        summary: 'Download an export',
        description:
          'The exported file (not an envelope), `Content-Disposition: attachment` with its name. The link is what the export ' +
          'progress answered: signed by the service, valid until `expires` (epoch ms). Altered or unknown: 403 / 122006; ' +
          'expired: 410 / 122007.',
        params: Type.Object({ downloadId: Type.String({ minLength: 1, maxLength: 64 }) }),
        querystring: Type.Object({ expires: Type.String({ maxLength: 20 }), sig: Type.String({ maxLength: 100 }) }),
        response: { 200: { description: 'the exported file', content: { 'application/octet-stream': { schema: Type.Unsafe<Buffer>({ type: 'string', format: 'binary' }) } } } },
      },
    },
    async (request, reply) => {
      const file = await exports.download(request.params.downloadId, request.query.expires, request.query.sig);
      return reply
        .header('content-type', file.mimeType)
        .header('content-disposition', contentDisposition('attachment', file.fileName))
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .send(file.data);
    },
  );
};
