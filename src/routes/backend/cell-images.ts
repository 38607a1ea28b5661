import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { attachmentPath } from '../../domain/attachments/attachment-service.js';
import { fetchFileUrl, IMAGE_URL_ERRORS } from '../../domain/import/file-url.js';
import { MAX_CELL_POSITIONS } from '../../domain/sheets/cell-positions.js';
import { ApiError, Errors } from '../../errors.js';
import { BackendOk, ok } from '../../http/envelopes/backend.js';
import { callerOf } from '../../http/request-context.js';
import { FileIdParams } from './files.js';

const BASE64 = /^[A-Za-z0-9+/\-_]*={0,2}$/;

/** The bytes of `base64` (standard or URL-safe alphabet, padding optional, an optional `data:image/…;base64,` prefix). */
function decodeBase64(text: string, limitBytes: number): Buffer {
  const payload = text.replace(/^data:[^,]{0,100};base64,/, '').replace(/\s+/g, '');
  if (!BASE64.test(payload) || payload.length % 4 === 1) {
    throw new ApiError(Errors.invalidCellImageParams, 'base64 is not base64 (standard or URL-safe alphabet, optionally after data:image/…;base64,)');
  }
  // a quick bound before decoding: 4 characters carry 3 bytes
  if (Math.floor((payload.length * 3) / 4) - 2 > limitBytes) {
    throw new ApiError(Errors.attachmentTooLarge, `the image is larger than the upload limit of ${limitBytes} bytes`, { limit: limitBytes });
  }
  return Buffer.from(payload, payload.includes('-') || payload.includes('_') ? 'base64url' : 'base64');
}

const SheetNameParams = Type.Composite([
  FileIdParams,
  Type.Object({ sheetName: Type.String({ minLength: 1, maxLength: 400, description: 'the sheet name as is (URL-encoded, not quoted)' }) }),
]);

/**
 * Images in spreadsheet cells, the kits' `upload-cell-image` and `cells-image` (client-kits.md "Newer kit calls";
 * docs/SHEETS.md "Images in cells"): the image is stored as an image attachment of the file, the cell keeps its guid.
 */
export const cellImageRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { services } = app;
  const limitBytes = services.attachments.limitBytes;
  const routeConfig = { auth: 'user' as const, invalidRequest: Errors.invalidCellImageParams };

  app.post(
    '/files/:fileId/sheets/upload-cell-image',
    {
      config: routeConfig,
      // base64 carries 3 bytes in 4 characters: a body may be a third larger than the image it holds
      bodyLimit: Math.max(services.config.bodyLimitBytes, Math.ceil(limitBytes / 3) * 4 + 64 * 1024),
      schema: {
        tags: ['sheets'],
        summary: 'Show an image in a cell',
        description:
          'Needs `editable` on a spreadsheet (72010 for other kinds). Send exactly one of `base64` (the image bytes; a ' +
          '`data:image/…;base64,` prefix is allowed) and `srcUrl` (fetched through the outbound URL policy like an ' +
          'import\'s fileUrl: 126201 refused, 126202 unreachable, 126203 too slow). PNG, JPEG, GIF or WebP, read from the ' +
          'bytes (415 / 75002 otherwise), up to SVC_UPLOAD_LIMIT (413 / 75001). Stored as an image attachment of the file; ' +
          'the cell keeps its value, format and style and shows the image (an image it showed is replaced). Bad `cell` ' +
          '(not one A1 cell): 126200; unknown sheet: 72002. A refused call stores nothing. Answers `data: {url}`; 204 in ' +
          'the kit dialect.',
        params: FileIdParams,
        body: Type.Object({
          sheetName: Type.String({ minLength: 1, maxLength: 400 }),
          cell: Type.String({ minLength: 1, maxLength: 64, description: 'one cell in A1, e.g. `B2`' }),
          base64: Type.Optional(Type.String({ minLength: 1, description: 'the image, base64' })),
          srcUrl: Type.Optional(Type.String({ minLength: 1, maxLength: 4096, description: 'an http(s) URL of the image' })),
        }),
        response: { 200: BackendOk(Type.Object({ url: Type.String({ description: 'where the image is served: GET /sdk/v2/attachments/{guid}' }) })) },
      },
    },
    async (request) => {
      const auth = callerOf(request);
      const { fileId } = request.params;
      const { sheetName, cell, base64, srcUrl } = request.body;
      if ((base64 === undefined) === (srcUrl === undefined)) throw new ApiError(Errors.invalidCellImageParams, 'send exactly one of base64 and srcUrl');
      let url = '';
      await services.sheets.putCellImage(auth, fileId, sheetName, cell, async (userId) => {
        const data =
          base64 !== undefined
            ? decodeBase64(base64, limitBytes)
            : await fetchFileUrl(srcUrl!, {
                outbound: services.outbound,
                limitBytes,
                timeoutMs: services.config.imports.fetchTimeoutMs,
                // the deadline is the fetch's own (timeoutMs); nothing else cancels it
                signal: new AbortController().signal,
                onProgress: () => undefined,
                errors: IMAGE_URL_ERRORS,
              });
        const stored = await services.attachments.storeCellImage(auth, userId, { fileId, data });
        url = stored.url;
        return stored.GUID;
      });
      return ok({ url });
    },
  );

  app.get(
    '/files/:fileId/sheets/:sheetName/cells-image',
    {
      config: routeConfig,
      schema: {
        tags: ['sheets'],
        summary: 'The images shown in cells',
        description:
          `Needs \`readable\`. \`cellsPosition\`: a JSON array of 1-${MAX_CELL_POSITIONS} cells, each \`{row, col}\` zero-based ` +
          'or an A1 string (`"B2"`); anything else 126200. Answers one entry per cell, in order: the address the image is ' +
          'served at (`GET /sdk/v2/attachments/{guid}`, with the caller\'s credentials), or null for a cell without one. ' +
          'Unknown sheet: 72002.',
        params: SheetNameParams,
        querystring: Type.Object({ cellsPosition: Type.String({ minLength: 1, maxLength: 65_536, description: 'JSON array of cells' }) }),
        response: { 200: BackendOk(Type.Object({ images: Type.Array(Type.Union([Type.String(), Type.Null()])) })) },
      },
    },
    async (request) => {
      const { fileId, sheetName } = request.params;
      const guids = await services.sheets.cellImages(callerOf(request), fileId, sheetName, request.query.cellsPosition);
      return ok({ images: guids.map((guid) => (guid === null ? null : attachmentPath(guid))) });
    },
  );
};
