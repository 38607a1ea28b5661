import crypto from 'node:crypto';
import { ApiError, Errors } from '../../errors.js';
import type { RequestAuth } from '../../auth/request-auth.js';
import type { AccessService } from '../../integrator/access-service.js';
import type { Db, Storage } from '../../storage/database.js';
import type { AppService } from '../apps/app-service.js';
import type { FileService } from '../files/file-service.js';
import { signAccessToken, verifyAccessToken, type UploadGrant } from './access-token.js';
import { acceptsImagesOnly, DEFAULT_BUCKET, type Bucket } from './buckets.js';
import { displayName } from './filename.js';
import { looksLikeSvg, sniffImage } from './sniff.js';

/** Most uploads one `POST /uploader/token` may prepare. */
export const MAX_TOKENS_PER_REQUEST = 20;
/** The multipart part that carries the file (the kits' `fileFieldKey`). */
export const FILE_FIELD = 'file';
/** What a stored non-image is served as: its declared type is never trusted. */
export const OPAQUE_TYPE = 'application/octet-stream';

/** The credential-free address an attachment is served at; documents store this, editors add credentials. */
export function attachmentPath(guid: string): string {
  return `/sdk/v2/attachments/${guid}`;
}

const ATTACHMENT_PATH = /^\/sdk\/v2\/attachments\/([A-Za-z0-9-]{1,64})$/;

/** The guid an attachment path (as content stores it) names; undefined for anything else (an external image). */
export function attachmentGuidOf(src: string): string | undefined {
  return ATTACHMENT_PATH.exec(src)?.[1];
}

/** One upload to prepare (an entry of the `POST /uploader/token` body). */
export interface UploadRequest {
  /** default `images` */
  bucket?: Bucket | undefined;
  filename: string;
  /** the collaborative file the attachment belongs to */
  fileGuid: string;
  /** declared size in bytes; the upload may not be larger; 0: unknown (up to the service limit) */
  fileSize: number;
}

/** A prepared upload, as the public client kits decode it. */
export interface UploadTicket {
  accessToken: string;
  directory: string;
  download: boolean;
  guid: string;
  images: boolean;
  fileFieldKey: string;
  key: string;
  serverUrl: string;
  url: string;
}

/** A stored attachment, as the public client kits decode the upload's answer. */
export interface StoredAttachment {
  GUID: string;
  filename: string;
  key: string;
  mimeType: string;
  images: boolean;
  url: string;
  audio: boolean;
  video: boolean;
  width: number | null;
  height: number | null;
  size: number;
}

/** What serving an attachment needs before its bytes. */
export interface AttachmentInfo {
  guid: string;
  fileId: string;
  filename: string;
  mimeType: string;
  size: number;
  /** sniffed as an image: shown inline, everything else is a download */
  image: boolean;
  createdAt: number;
}

export interface AttachmentOptions {
  /** largest upload, bytes (SVC_UPLOAD_LIMIT) */
  limitBytes: number;
}

function keyOf(bucket: Bucket, guid: string): string {
  return `${bucket}/${guid}`;
}

/**
 * Images and attachments of collaborative files (docs/ATTACHMENTS.md). An upload is two calls: a user with
 * `editable` on the file gets a short-lived access token naming exactly what may be uploaded, then the upload
 * presents that token (it is the credential, so a browser can post the file directly). The bytes go into the
 * database, with the type and pixel size read from them; reading one needs `readable` on its file.
 */
export class AttachmentService {
  constructor(
    private readonly storage: Storage,
    private readonly apps: AppService,
    private readonly files: FileService,
    private readonly access: AccessService,
    private readonly options: AttachmentOptions,
  ) {}

  get limitBytes(): number {
    return this.options.limitBytes;
  }

  /**
   * Prepares uploads: all of them or none. Every file named must exist and the caller must be allowed to edit
   * it; no declared size may pass the limit. `uploadUrl` is where the upload is to be posted.
   */
  async prepare(auth: RequestAuth, requests: readonly UploadRequest[], uploadUrl: string): Promise<UploadTicket[]> {
    if (requests.length === 0 || requests.length > MAX_TOKENS_PER_REQUEST) {
      throw new ApiError(Errors.invalidAttachmentParams, `send 1 to ${MAX_TOKENS_PER_REQUEST} uploads to prepare, got ${requests.length}`);
    }
    requests.forEach((request, index) => {
      if (request.fileSize > this.options.limitBytes) {
        throw new ApiError(
          Errors.attachmentTooLarge,
          `upload ${index}: fileSize ${request.fileSize} is over the upload limit of ${this.options.limitBytes} bytes`,
          { limit: this.options.limitBytes },
        );
      }
    });
    const fileIds = [...new Set(requests.map((request) => request.fileGuid))];
    const [user] = await Promise.all(fileIds.map((fileId) => this.access.authorize(auth, fileId, 'editable').then((access) => access.user)));
    await Promise.all(fileIds.map((fileId) => this.files.get(auth.app.id, fileId)));
    return Promise.all(
      requests.map(async (request) => {
        const guid = crypto.randomUUID();
        const bucket = request.bucket ?? DEFAULT_BUCKET;
        const grant = {
          fileId: request.fileGuid,
          userId: user!.id,
          guid,
          bucket,
          maxBytes: request.fileSize > 0 ? request.fileSize : this.options.limitBytes,
          filename: displayName(request.filename),
        };
        return {
          accessToken: await signAccessToken(auth.app, grant),
          directory: bucket,
          download: !acceptsImagesOnly(bucket),
          guid,
          images: acceptsImagesOnly(bucket),
          fileFieldKey: FILE_FIELD,
          key: keyOf(bucket, guid),
          serverUrl: uploadUrl,
          url: attachmentPath(guid),
        };
      }),
    );
  }

  /** What an upload's access token allows; 401 / 75003 when it is not a valid, unexpired token of ours. */
  async grantOf(accessToken: string): Promise<UploadGrant> {
    return (await verifyAccessToken(accessToken, (id) => this.apps.find(id))).grant;
  }

  /** The most bytes an upload under `grant` may have. */
  maxBytesOf(grant: UploadGrant): number {
    return Math.min(grant.maxBytes, this.options.limitBytes);
  }

  /**
   * Stores the uploaded bytes under the grant's guid, once: a second upload with the same token is refused.
   * The type comes from the bytes; an images-only bucket refuses anything but PNG, JPEG, GIF and WebP.
   */
  /**
   * Stores pictures found inside an imported file as image attachments of the new file, in the import's
   * transaction (the content already names their guids). Anything that is not a PNG, JPEG, GIF or WebP is skipped.
   * Returns the guids stored.
   */
  async storeImported(db: Db, input: { appId: string; fileId: string; userId: string; images: ReadonlyArray<{ guid: string; data: Uint8Array; filename: string }> }): Promise<string[]> {
    const stored: string[] = [];
    for (const picture of input.images) {
      const data = Buffer.from(picture.data);
      const image = sniffImage(data);
      if (!image || data.length > this.options.limitBytes) continue;
      await db
        .insertInto('attachments')
        .values({
          app_id: input.appId,
          guid: picture.guid,
          file_id: input.fileId,
          user_id: input.userId,
          bucket: 'images',
          filename: picture.filename,
          mime_type: image.mimeType,
          size: data.length,
          width: image.width,
          height: image.height,
          data,
          created_at: Date.now(),
        })
        .execute();
      stored.push(picture.guid);
    }
    return stored;
  }

  /**
   * Copies the application's attachments `guids` to `fileId` under new guids, in `db` (the transaction that
   * creates that file): a file owns its images, so a copy keeps showing them after the original is deleted and
   * to readers who may not read the original. Guids that are not attachments of the application are skipped.
   * Returns old guid → new guid for those copied.
   */
  async copyTo(db: Db, appId: string, fileId: string, guids: readonly string[]): Promise<Map<string, string>> {
    const renamed = new Map<string, string>();
    for (const guid of new Set(guids)) {
      const row = await db.selectFrom('attachments').selectAll().where('app_id', '=', appId).where('guid', '=', guid).executeTakeFirst();
      if (!row) continue;
      const copy = { ...row, guid: crypto.randomUUID(), file_id: fileId, created_at: Date.now() };
      await db.insertInto('attachments').values(copy).execute();
      renamed.set(guid, copy.guid);
    }
    return renamed;
  }

  /**
   * Attaches a file to cells of a spreadsheet (the Java kit's `files/{fileId}/attach`, docs/ATTACHMENTS.md
   * "Attached to cells"): stored in the `attachments` bucket, as an upload would be, with its `cellRange`
   * (checked by the caller), for the user the caller is.
   */
  async attachToCells(auth: RequestAuth, upload: { fileId: string; cellRange: string; filename: string; data: Buffer }): Promise<StoredAttachment> {
    return this.storeAs(auth, (await this.access.currentUser(auth)).id, { ...upload, bucket: 'attachments' });
  }

  /**
   * Stores an image shown in a spreadsheet cell (`upload-cell-image`, docs/ATTACHMENTS.md "Images in cells") in the
   * `images` bucket for `userId` (the caller, already authorised): PNG, JPEG, GIF or WebP only (415 / 75002).
   */
  async storeCellImage(auth: RequestAuth, userId: string, upload: { fileId: string; data: Buffer }): Promise<StoredAttachment> {
    return this.storeAs(auth, userId, { ...upload, filename: 'cell-image', cellRange: null, bucket: 'images' });
  }

  /** Stores a file the service received itself (not through an upload token) as an upload by `userId` would be. */
  private storeAs(
    auth: RequestAuth,
    userId: string,
    upload: { fileId: string; cellRange: string | null; filename: string; data: Buffer; bucket: Bucket },
  ): Promise<StoredAttachment> {
    const grant: UploadGrant = {
      appId: auth.app.id,
      fileId: upload.fileId,
      userId,
      guid: crypto.randomUUID(),
      bucket: upload.bucket,
      maxBytes: this.options.limitBytes,
      filename: displayName(upload.filename),
    };
    return this.store(grant, upload.data, upload.cellRange);
  }

  async store(grant: UploadGrant, data: Buffer, cellRange: string | null = null): Promise<StoredAttachment> {
    const maxBytes = this.maxBytesOf(grant);
    if (data.length > maxBytes) throw tooLarge(maxBytes);
    if (data.length === 0) throw new ApiError(Errors.invalidAttachmentParams, 'the file is empty');
    const image = sniffImage(data);
    if (!image && acceptsImagesOnly(grant.bucket)) {
      throw new ApiError(
        Errors.attachmentTypeNotAllowed,
        looksLikeSvg(data)
          ? `SVG is not accepted in bucket ${grant.bucket}: an SVG can carry script; upload it as PNG, JPEG, GIF or WebP`
          : `bucket ${grant.bucket} accepts PNG, JPEG, GIF and WebP images only, recognised from their content; this file is none of them`,
        { accepted: ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] },
      );
    }
    const row = {
      app_id: grant.appId,
      guid: grant.guid,
      file_id: grant.fileId,
      user_id: grant.userId,
      bucket: grant.bucket,
      filename: grant.filename,
      mime_type: image?.mimeType ?? OPAQUE_TYPE,
      size: data.length,
      width: image?.width ?? null,
      height: image?.height ?? null,
      data,
      created_at: Date.now(),
      cell_range: cellRange,
    };
    try {
      await this.storage.db.insertInto('attachments').values(row).execute();
    } catch (error) {
      if (this.storage.isUniqueViolation(error)) {
        throw new ApiError(Errors.attachmentTokenInvalid, `attachment access token already used: attachment ${grant.guid} was stored with it; ask for a new token`);
      }
      if (this.storage.isForeignKeyViolation(error)) throw new ApiError(Errors.fileNotFound, `file ${grant.fileId} not found (deleted since the token was issued)`);
      throw error;
    }
    return {
      GUID: row.guid,
      filename: row.filename,
      key: keyOf(grant.bucket, row.guid),
      mimeType: row.mime_type,
      images: image !== undefined,
      url: attachmentPath(row.guid),
      audio: false,
      video: false,
      width: row.width,
      height: row.height,
      size: row.size,
    };
  }

  /** An attachment of the caller's app that the caller may read (`readable` on its file); 404 / 75004 when there is none. */
  async open(auth: RequestAuth, guid: string): Promise<AttachmentInfo> {
    const row = await this.storage.db
      .selectFrom('attachments')
      .select(['guid', 'file_id', 'filename', 'mime_type', 'size', 'width', 'created_at'])
      .where('app_id', '=', auth.app.id)
      .where('guid', '=', guid)
      .executeTakeFirst();
    if (!row) throw notFound(guid);
    await this.access.authorize(auth, row.file_id, 'readable');
    return {
      guid: row.guid,
      fileId: row.file_id,
      filename: row.filename,
      mimeType: row.mime_type,
      size: row.size,
      image: row.width !== null,
      createdAt: row.created_at,
    };
  }

  /** An attachment's bytes and type without a permission check (an export of its file, already authorised); undefined when absent. */
  async stored(appId: string, guid: string): Promise<{ data: Buffer; mimeType: string } | undefined> {
    const row = await this.storage.db.selectFrom('attachments').select(['data', 'mime_type']).where('app_id', '=', appId).where('guid', '=', guid).executeTakeFirst();
    return row ? { data: Buffer.from(row.data), mimeType: row.mime_type } : undefined;
  }

  /** The bytes of an attachment `open` allowed. */
  async content(appId: string, guid: string): Promise<Buffer> {
    const row = await this.storage.db.selectFrom('attachments').select('data').where('app_id', '=', appId).where('guid', '=', guid).executeTakeFirst();
    if (!row) throw notFound(guid);
    return Buffer.from(row.data);
  }
}

export function tooLarge(maxBytes: number): ApiError {
  return new ApiError(Errors.attachmentTooLarge, `the file is larger than the ${maxBytes} bytes this upload allows`, { limit: maxBytes });
}

function notFound(guid: string): ApiError {
  return new ApiError(Errors.attachmentNotFound, `attachment ${guid} not found`);
}
