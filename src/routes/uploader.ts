import multipart, { type Multipart } from '@fastify/multipart';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { ACCESS_TOKEN_TTL_SECONDS, type UploadGrant } from '../domain/attachments/access-token.js';
import { FILE_FIELD, MAX_TOKENS_PER_REQUEST, tooLarge, type AttachmentService } from '../domain/attachments/attachment-service.js';
import { BUCKETS, DEFAULT_BUCKET, type Bucket } from '../domain/attachments/buckets.js';
import { FILE_ID_PATTERN } from '../domain/files/file-service.js';
import { ApiError, Errors, isApiError } from '../errors.js';
import { BackendOk, ok, useBackendEnvelope } from '../http/envelopes/backend.js';
import { callerOf, serviceOrigin } from '../http/request-context.js';

export const UPLOADER_PREFIX = '/uploader';
const ACCESS_TOKEN_FIELD = 'accessToken';

const UploadTicket = Type.Object({
  accessToken: Type.String({ description: `credential of this one upload; expires ${ACCESS_TOKEN_TTL_SECONDS / 60} minutes after issue` }),
  directory: Type.String({ description: 'the bucket' }),
  download: Type.Boolean({ description: 'true where non-images are served as downloads (bucket attachments)' }),
  guid: Type.String({ description: 'the attachment guid the upload will have' }),
  images: Type.Boolean({ description: 'true when the bucket accepts images only' }),
  fileFieldKey: Type.String({ description: 'multipart part that must carry the file: "file"' }),
  key: Type.String({ description: '{bucket}/{guid}' }),
  serverUrl: Type.String({ description: 'absolute URL to POST the multipart upload to' }),
  url: Type.String({ description: 'credential-free path the attachment will be served at: store this in documents' }),
});

export const StoredAttachment = Type.Object({
  GUID: Type.String(),
  filename: Type.String({ description: 'sanitized display name given at token time' }),
  key: Type.String(),
  mimeType: Type.String({ description: 'sniffed from the content: image/png, image/jpeg, image/gif, image/webp or application/octet-stream' }),
  images: Type.Boolean({ description: 'the content is one of the recognised image types' }),
  url: Type.String({ description: 'credential-free path: GET it with signature and token' }),
  audio: Type.Boolean(),
  video: Type.Boolean(),
  width: Type.Union([Type.Integer(), Type.Null()], { description: 'pixels, images only' }),
  height: Type.Union([Type.Integer(), Type.Null()]),
  size: Type.Integer({ description: 'bytes' }),
});

/**
 * The multipart form, for the OpenAPI document. The handler streams the parts itself (the body is never
 * buffered into an object), so this schema has no `type`: it documents the fields and validates nothing.
 */
const MultipartUpload = Type.Unsafe<unknown>({
  description: 'multipart/form-data; the parts are read by the handler, in any order',
  properties: {
    [ACCESS_TOKEN_FIELD]: { type: 'string', description: 'the accessToken from POST /uploader/token' },
    download: { type: 'array', items: { type: 'string' }, description: 'may repeat; ignored' },
    file: { type: 'string', format: 'binary', description: 'the file (exactly one part)' },
  },
  required: [ACCESS_TOKEN_FIELD, 'file'],
});

/**
 * The public client kits' attachment pair (client-kits.md) at the service root, with the backend envelope:
 * `POST /uploader/token` (user call, `editable` on the file) hands out single-use access tokens, and
 * `POST /uploader/upload` takes the multipart upload those tokens allow. Authentication and the rate limit
 * come from the enclosing scope (server.ts), shared with /sdk/v2.
 */
export const uploaderApi: FastifyPluginAsyncTypebox = async (app) => {
  const { attachments } = app.services;
  useBackendEnvelope(app);

  app.post(
    '/token',
    {
      config: { auth: 'user', invalidRequest: Errors.invalidAttachmentParams },
      schema: {
        tags: ['attachments'],
        summary: 'Prepare image or attachment uploads',
        description:
          `A JSON array of 1-${MAX_TOKENS_PER_REQUEST} uploads to prepare, all or none. Needs \`editable\` on each \`fileGuid\` (the ` +
          'collaborative file the attachment belongs to; 404 / 70013 when the service does not know it). `bucket` `images` (default) ' +
          'accepts PNG, JPEG, GIF and WebP only; `attachments` any file. A `fileSize` over SVC_UPLOAD_LIMIT is refused with ' +
          '413 / 75001; the upload may not be larger than the `fileSize` declared (0: up to the limit). `encrypt` is accepted and ignored. ' +
          `Each access token allows one upload within ${ACCESS_TOKEN_TTL_SECONDS / 60} minutes. See docs/ATTACHMENTS.md.`,
        body: Type.Array(
          Type.Object({
            bucket: Type.Optional(Type.Unsafe<Bucket>({ type: 'string', enum: [...BUCKETS], default: DEFAULT_BUCKET })),
            filename: Type.String({ minLength: 1, maxLength: 1024, description: 'display name; paths and control characters are removed' }),
            fileGuid: Type.String({ pattern: FILE_ID_PATTERN, description: 'the collaborative file (fileId) the attachment belongs to' }),
            fileSize: Type.Integer({ minimum: 0, description: 'bytes; 0 when unknown' }),
            encrypt: Type.Optional(Type.Union([Type.Boolean(), Type.String({ maxLength: 64 })], { description: 'accepted and ignored' })),
          }),
          { minItems: 1, maxItems: MAX_TOKENS_PER_REQUEST },
        ),
        response: { 200: BackendOk(Type.Array(UploadTicket)) },
      },
    },
    async (request) => ok(await attachments.prepare(callerOf(request), request.body, uploadUrl(request))),
  );

  // Multipart is parsed here only, and only multipart: every other body is an unsupported media type (41500),
  // as a multipart body is everywhere else.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    await scope.register(multipart, { throwFileSizeLimit: false });
    scope.post(
      '/upload',
      {
        // the editors' image upload posts here from the page: its access token is the credential
        config: { auth: 'none', browser: true, invalidRequest: Errors.invalidAttachmentParams },
        schema: {
          tags: ['attachments'],
          summary: 'Upload an image or attachment (multipart)',
          description:
            'Body `multipart/form-data`: field `accessToken` (from POST /uploader/token: it is the credential, no signature is needed), ' +
            '`download` (may repeat; ignored), and exactly one file part `file`. The type is read from the content, never from the ' +
            'part\'s declared type. Refusals: 401 / 75003 token missing, invalid, expired or already used; 413 / 75001 larger than the ' +
            'token or SVC_UPLOAD_LIMIT allows; 415 / 75002 not an accepted image in bucket images (SVG is refused); 400 / 75000 no file ' +
            'part, two of them, empty file, malformed multipart; 415 / 41500 not multipart. Nothing is stored on any refusal.',
          consumes: ['multipart/form-data'],
          body: MultipartUpload,
          response: { 200: BackendOk(StoredAttachment) },
        },
      },
      async (request) => {
        if (!request.isMultipart()) {
          throw new ApiError(Errors.unsupportedMediaType, `send multipart/form-data, not ${request.headers['content-type'] ?? 'no Content-Type'}`);
        }
        const { grant, data } = await readUpload(request, attachments);
        return ok(await attachments.store(grant, data));
      },
    );
  });
};

/** Where uploads are posted, as the caller reached this service. */
function uploadUrl(request: FastifyRequest): string {
  return `${serviceOrigin(request)}${UPLOADER_PREFIX}/upload`;
}

function invalid(message: string): ApiError {
  return new ApiError(Errors.invalidAttachmentParams, message);
}

/** A failure of the multipart parser (truncated body, bad boundary, too many parts) is the client's: 400 / 75000. */
function parsing<T>(step: Promise<T>): Promise<T> {
  return multipartStep(step, invalid, `send ${ACCESS_TOKEN_FIELD}, optional download fields and one part ${FILE_FIELD}`);
}

/**
 * A step of reading a multipart body: a failure of the parser (truncated body, bad boundary, too many parts) is
 * the client's, refused with `invalid` (what to send instead in `expected`); the service's own refusals pass.
 */
export function multipartStep<T>(step: Promise<T>, invalid: (message: string) => ApiError, expected: string): Promise<T> {
  return step.catch((error: unknown) => {
    if (isApiError(error)) throw error;
    const code = (error as { code?: unknown }).code;
    if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT' || code === 'FST_FILES_LIMIT') throw invalid(`too many multipart parts: ${expected}`);
    throw invalid(`malformed multipart body: ${error instanceof Error ? error.message : String(error)}`);
  });
}

/** Reads a file part, refusing it (413 / 75001) as soon as it passes `maxBytes`. */
export async function readCapped(stream: AsyncIterable<Buffer>, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += chunk.length;
    if (size > maxBytes) throw tooLarge(maxBytes);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

/**
 * Streams the multipart body: the access token is checked as soon as its field arrives (before the file, as the
 * kits send it), and the file is read only up to what the token, or else the service limit, allows.
 */
async function readUpload(request: FastifyRequest, attachments: AttachmentService): Promise<{ grant: UploadGrant; data: Buffer }> {
  const limitBytes = attachments.limitBytes;
  // The parser stops one byte past the limit, so an oversized part never streams in whole; readCapped names it.
  const parts = request.parts({ limits: { fileSize: limitBytes + 1, files: 2, fields: 50, fieldSize: 16 * 1024, parts: 60 } })[Symbol.asyncIterator]();
  let grant: UploadGrant | undefined;
  let sawToken = false;
  let data: Buffer | undefined;
  for (let next = await parsing(parts.next()); !next.done; next = await parsing(parts.next())) {
    const part: Multipart = next.value;
    if (part.type === 'field') {
      if (part.fieldname !== ACCESS_TOKEN_FIELD) continue; // `download` and unknown fields are ignored
      if (sawToken) throw invalid(`send one ${ACCESS_TOKEN_FIELD} field`);
      sawToken = true;
      if (typeof part.value !== 'string') throw invalid(`${ACCESS_TOKEN_FIELD} must be text`);
      grant = await attachments.grantOf(part.value);
      if (data && data.length > attachments.maxBytesOf(grant)) throw tooLarge(attachments.maxBytesOf(grant));
      continue;
    }
    if (part.fieldname !== FILE_FIELD) throw invalid(`unexpected file part ${JSON.stringify(part.fieldname)}: send the file as part "${FILE_FIELD}"`);
    if (data) throw invalid(`send one file part "${FILE_FIELD}", not several`);
    data = await parsing(readCapped(part.file, grant ? attachments.maxBytesOf(grant) : limitBytes));
  }
  if (!grant) throw new ApiError(Errors.attachmentTokenInvalid, `attachment access token missing: send the multipart field ${ACCESS_TOKEN_FIELD}`);
  if (!data) throw invalid(`no file: send the file as multipart part "${FILE_FIELD}"`);
  return { grant, data };
}
