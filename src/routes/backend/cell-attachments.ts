import multipart, { type Multipart } from '@fastify/multipart';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { FILE_FIELD } from '../../domain/attachments/attachment-service.js';
import { ApiError, Errors } from '../../errors.js';
import { BackendOk, ok } from '../../http/envelopes/backend.js';
import { callerOf } from '../../http/request-context.js';
import { multipartStep, readCapped, StoredAttachment } from '../uploader.js';
import { FileIdParams } from './files.js';

const RANGE_FIELD = 'range';
const EXPECTED = `send the field ${RANGE_FIELD} and one part ${FILE_FIELD}`;

function invalid(message: string): ApiError {
  return new ApiError(Errors.invalidAttachmentParams, message);
}

/** The form: the `range` field and the one `file` part (its name is the attachment's), read up to `maxBytes`. */
async function readForm(request: FastifyRequest, maxBytes: number): Promise<{ range: string; filename: string; data: Buffer }> {
  if (!request.isMultipart()) throw invalid(`send a multipart form: ${EXPECTED}`);
  const parts = request.parts({ limits: { fileSize: maxBytes + 1, files: 1, fields: 10, fieldSize: 4096, parts: 12 } })[Symbol.asyncIterator]();
  let range: string | undefined;
  let file: { filename: string; data: Buffer } | undefined;
  for (let next = await multipartStep(parts.next(), invalid, EXPECTED); !next.done; next = await multipartStep(parts.next(), invalid, EXPECTED)) {
    const part: Multipart = next.value;
    if (part.type === 'field') {
      if (part.fieldname === RANGE_FIELD && typeof part.value === 'string') range = part.value;
      continue;
    }
    if (part.fieldname !== FILE_FIELD) throw invalid(`unexpected file part ${JSON.stringify(part.fieldname)}: ${EXPECTED}`);
    file = { filename: part.filename, data: await multipartStep(readCapped(part.file, maxBytes), invalid, EXPECTED) };
  }
  if (range === undefined || range.trim() === '') throw invalid(`no range: ${EXPECTED} (e.g. range=Sheet1!B2)`);
  if (!file) throw invalid(`no file: ${EXPECTED}`);
  return { range, ...file };
}

/**
 * `POST /sdk/v2/api/files/{fileId}/attach` (the Java kit, client-kits.md "Newer kit calls"; docs/ATTACHMENTS.md
 * "Attached to cells"): a file attached to a range of a spreadsheet's cells.
 */
export const cellAttachmentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { services } = app;
  await app.register(multipart, { throwFileSizeLimit: false });

  app.post(
    '/files/:fileId/attach',
    {
      config: { auth: 'user', invalidRequest: Errors.invalidAttachmentParams },
      schema: {
        tags: ['attachments'],
        summary: 'Attach a file to cells of a spreadsheet (multipart)',
        description:
          'Needs `editable` on a spreadsheet (72010 for other kinds). Multipart: field `range` (A1, e.g. `Sheet1!B2` or `Sheet1!B2:C3`; ' +
          '72001 malformed, 72002 no such sheet) and part `file` (any type, up to SVC_UPLOAD_LIMIT: 413 / 75001). Stored like an upload ' +
          'to the `attachments` bucket with its range, served by `GET /sdk/v2/attachments/{guid}`. Answers a list of one attachment.',
        params: FileIdParams,
        consumes: ['multipart/form-data'],
        response: { 200: BackendOk(Type.Array(Type.Composite([StoredAttachment, Type.Object({ cellRange: Type.String({ description: 'the range, with its sheet' }) })]))) },
      },
    },
    async (request) => {
      const auth = callerOf(request);
      const { fileId } = request.params;
      const form = await readForm(request, services.attachments.limitBytes);
      const cellRange = await services.sheets.cellRange(auth, fileId, form.range);
      const attached = await services.attachments.attachToCells(auth, { fileId, cellRange, filename: form.filename, data: form.data });
      return ok([{ ...attached, cellRange }]);
    },
  );
};
