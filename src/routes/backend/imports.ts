import multipart, { type Multipart } from '@fastify/multipart';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { FILE_ID_PATTERN } from '../../domain/files/file-service.js';
import type { ImportRequest, ImportService } from '../../domain/import/import-service.js';
import { ApiError, Errors } from '../../errors.js';
import { BackendOk, ok } from '../../http/envelopes/backend.js';
import { callerOf } from '../../http/request-context.js';
import { absentBodyAsEmptyObject } from '../../http/empty-body.js';

const FILE_PART = 'file';
const TEXT_FIELDS = ['fileId', 'type', 'fileUrl', 'fileName', 'importFontType'] as const;
type TextField = (typeof TEXT_FIELDS)[number];
const FILE_ID = new RegExp(FILE_ID_PATTERN);

/** The request for the OpenAPI document; multipart and JSON bodies are read and checked by the handler. */
const ImportBody = Type.Unsafe<unknown>({
  description: 'multipart/form-data (fields and part `file`) or application/json (fields with `fileUrl` + `fileName`)',
  properties: {
    fileId: { type: 'string', description: 'id of the collaborative file to create (1-64 characters); must not exist' },
    type: { type: 'string', description: 'document, documentPro, spreadsheet, presentation or table' },
    file: { type: 'string', format: 'binary', description: 'the file (multipart only)' },
    fileUrl: { type: 'string', description: 'http(s) URL to fetch the file from, instead of `file`' },
    fileName: { type: 'string', description: 'name with extension (the format); required with fileUrl' },
    importFontType: { type: 'string', description: 'accepted; fonts follow the content model' },
  },
});

const TaskId = Type.Object({ taskId: Type.String({ description: 'from the import answer' }) });
const Progress = Type.Object({
  progress: Type.Integer({ minimum: 0, maximum: 100 }),
  fileId: Type.Optional(Type.String({ description: 'present once progress is 100: the imported file' })),
});

function invalid(message: string): ApiError {
  return new ApiError(Errors.importInvalidParams, message);
}

function textField(value: unknown, name: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw invalid(`${name} must be a string`);
  return value;
}

/** Fields given as JSON (or a urlencoded-free query): checked here, one message per problem. */
function fromObject(body: unknown): ImportRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid('send a JSON object or a multipart form');
  const fields = body as Record<string, unknown>;
  return requestOf(Object.fromEntries(TEXT_FIELDS.map((name) => [name, textField(fields[name], name)])) as Partial<Record<TextField, string>>);
}

function requestOf(fields: Partial<Record<TextField, string>>, upload?: ImportRequest['upload']): ImportRequest {
  const { fileId, type } = fields;
  if (!fileId || !FILE_ID.test(fileId)) throw invalid('fileId is required: 1-64 characters, no spaces, control characters, /, \\, ?, # or %');
  if (!type) throw invalid('type is required');
  return { fileId, type, upload, fileUrl: fields.fileUrl || undefined, fileName: fields.fileName || undefined, importFontType: fields.importFontType };
}

/** A failure of the multipart parser (truncated body, bad boundary, too many parts) is the client's. */
function parsing<T>(step: Promise<T>): Promise<T> {
  return step.catch((error: unknown) => {
    if (error instanceof ApiError) throw error;
    throw invalid(`malformed multipart body: ${error instanceof Error ? error.message : String(error)}`);
  });
}

/** Streams the form: text fields, and the one file part read up to the import limit (413 / 121003 past it). */
async function fromMultipart(request: FastifyRequest, imports: ImportService): Promise<ImportRequest> {
  const limit = imports.limitBytes;
  const parts = request.parts({ limits: { fileSize: limit + 1, files: 1, fields: 20, fieldSize: 16 * 1024, parts: 24 } })[Symbol.asyncIterator]();
  const fields: Partial<Record<TextField, string>> = {};
  let upload: ImportRequest['upload'];
  for (let next = await parsing(parts.next()); !next.done; next = await parsing(parts.next())) {
    const part: Multipart = next.value;
    if (part.type === 'field') {
      if ((TEXT_FIELDS as readonly string[]).includes(part.fieldname)) fields[part.fieldname as TextField] = textField(part.value, part.fieldname);
      continue;
    }
    if (part.fieldname !== FILE_PART) throw invalid(`unexpected file part ${JSON.stringify(part.fieldname)}: send the file as part "${FILE_PART}"`);
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of part.file) {
      size += (chunk as Buffer).length;
      if (size > limit) throw new ApiError(Errors.importTooLarge, `the file is larger than the import limit of ${limit} bytes (SVC_IMPORT_LIMIT)`, { limitBytes: limit });
      chunks.push(chunk as Buffer);
    }
    upload = { fileName: part.filename, data: Buffer.concat(chunks, size) };
  }
  if (upload && fields.fileName) upload.fileName = fields.fileName;
  return requestOf(fields, upload);
}

/**
 * Import (spec 4.2, contract notes 3, client-kits.md; docs/IMPORT-EXPORT.md): `files/v2/import` and the legacy
 * `files/v1/import` take the same fields, as a multipart form with the file or as JSON with fileUrl + fileName,
 * and answer `{taskId}`; both progress calls answer `{progress, fileId}` (done at 100), or the task's error.
 */
export const importRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const imports = app.services.imports;
  await app.register(multipart, { throwFileSizeLimit: false });

  const description =
    'Needs a user token (the user becomes the file\'s creator). Checked at once: type (121001, 70003), format from the file name ' +
    '(121002; doc, wps, xls, ppt without LibreOffice: 121007), size (413 / 121003), fileUrl address (121010), fileId free (409 / 70012). ' +
    'The import then runs as a task: poll files/v2/import/progress. See docs/IMPORT-EXPORT.md.';
  for (const path of ['/files/v2/import', '/files/v1/import']) {
    app.post(
      path,
      {
        config: { auth: 'user', invalidRequest: Errors.importInvalidParams },
        schema: {
          tags: ['import'],
          summary: path.includes('v1') ? 'Import a file (legacy path)' : 'Import a file as a new collaborative file',
          description,
          consumes: ['multipart/form-data', 'application/json'],
          body: ImportBody,
          response: { 200: BackendOk(TaskId) },
        },
      },
      async (request) => {
        const importRequest = request.isMultipart() ? await fromMultipart(request, imports) : fromObject(request.body);
        return ok(await imports.submit(callerOf(request), importRequest));
      },
    );
  }

  for (const path of ['/files/v2/import/progress', '/files/v1/import/progress']) {
    app.post(
      path,
      {
        config: { auth: 'app', invalidRequest: Errors.importInvalidParams },
        // the legacy call sends no body at all, only ?taskId=
        preValidation: absentBodyAsEmptyObject,
        schema: {
          tags: ['import'],
          summary: 'Progress of an import task',
          description:
            'taskId in the JSON body or the query. `{progress}` while it runs; `{progress: 100, fileId}` with status 0 when done; a failed ' +
            'import answers its error code and message (e.g. 121005 corrupt file). 404 / 120001 for an unknown task or one of another application.',
          querystring: Type.Object({ taskId: Type.Optional(Type.String({ maxLength: 64 })) }),
          body: Type.Object({ taskId: Type.Optional(Type.String({ maxLength: 64 })) }, { additionalProperties: true }),
          response: { 200: BackendOk(Progress) },
        },
      },
      async (request) => {
        const taskId = request.body.taskId ?? request.query.taskId;
        if (!taskId) throw invalid('taskId is required (body or query)');
        return ok(await imports.progress(callerOf(request).app.id, taskId));
      },
    );
  }
};
