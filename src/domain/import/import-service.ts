import * as Y from 'yjs';
import { ApiError, Errors } from '../../errors.js';
import type { RequestAuth } from '../../auth/request-auth.js';
import type { AccessService } from '../../integrator/access-service.js';
import type { OutboundPolicy } from '../../net/outbound-policy.js';
import type { Storage } from '../../storage/database.js';
import type { TaskContext, TaskEngine, TaskHandler, TaskOutcome } from '../../tasks/task-engine.js';
import type { AppService } from '../apps/app-service.js';
import { attachmentGuidOf, type AttachmentService } from '../attachments/attachment-service.js';
import type { ContentService } from '../content/content-service.js';
import { imageReferencesOf } from '../content/image-references.js';
import { docFromState, type ContentKind } from '../../model/content.js';
import type { FileService } from '../files/file-service.js';
import { FILE_TYPES, isFileType, type FileType } from '../../model/file-types.js';
import type { TableService } from '../tables/table-service.js';
import { ConversionFailed, ConversionTimedOut } from '../conversion/conversion-errors.js';
import { convertWithLibreOffice } from '../conversion/libreoffice.js';
import type { Scratch } from '../conversion/scratch.js';
import { WorkerPool } from '../conversion/worker-pool.js';
import { CONVERTER_WORKER, joinParts, type ConversionOutput, type ConverterAnswer, type ConverterJob, type ExtractedImage } from './conversion.js';
import { fetchFileUrl } from './file-url.js';
import type { OutsideImages } from './outside-images.js';
import { extensionOf, LEGACY_FORMATS, targetsOf } from './import-formats.js';
import { DEFAULT_ZIP_LIMITS } from './zip-guard.js';

export const IMPORT_KIND = 'import';
/** An import runs at most this long (fetch, conversion, storing), then fails with 120002. */
export const IMPORT_MAX_RUN_MS = 10 * 60_000;

/** Import's options, read from SVC_IMPORT_* and SVC_CONVERTER_* by src/config.ts. */
export interface ImportConfig {
  /** Largest file accepted for import (upload or fileUrl), bytes; above it 413 / 121003. */
  limitBytes: number;
  /** Heap of one converter thread, MiB; a file needing more is refused with 121011. */
  converterMemoryMb: number;
  /** Deadline of one conversion, ms. */
  converterTimeoutMs: number;
  /** Deadline of fetching a fileUrl, ms (121009 past it). */
  fetchTimeoutMs: number;
}

export interface ImportRequest {
  fileId: string;
  type: string;
  /** the uploaded file and its name, or */
  upload?: { fileName: string; data: Buffer } | undefined;
  /** a URL to fetch it from, with the name that tells its format */
  fileUrl?: string | undefined;
  fileName?: string | undefined;
  importFontType?: string | undefined;
}

/** The task's input (JSON). */
interface ImportInput {
  fileId: string;
  type: FileType;
  format: string;
  fileName: string;
  fileUrl: string | null;
  userId: string;
}

export interface ImportDependencies {
  storage: Storage;
  apps: AppService;
  files: FileService;
  content: ContentService;
  tables: TableService;
  attachments: AttachmentService;
  access: AccessService;
  outbound: OutboundPolicy;
  /** outside images of imported content become attachments of the new file */
  outsideImages: OutsideImages;
  tasks: TaskEngine;
  config: ImportConfig;
  /** LibreOffice, when found at start (legacy doc, wps, xls, ppt) */
  soffice: string | undefined;
  /** where LibreOffice may write, one folder per conversion */
  scratch: Scratch;
}

const UPLOAD_BLOB = 'upload';
/**
 * A converter thread that holds more than this after an import is ended rather than kept for the next one:
 * a 100,000 × 10 workbook leaves about 100 MiB (heap and buffers), a small file under 20 MiB.
 */
const KEEP_CONVERTER_MB = 64;

function invalid(message: string): ApiError {
  return new ApiError(Errors.importInvalidParams, message);
}

/**
 * Import (docs/IMPORT-EXPORT.md): a request is checked at once (type, format, size, fileId free, fileUrl allowed)
 * and becomes an `import` task; the task fetches the file if needed, converts it in a worker thread and creates the
 * collaborative file with its content in one transaction with the task's success: no half-created file.
 */
export class ImportService {
  private readonly converters: WorkerPool<ConverterJob, ConverterAnswer>;

  constructor(private readonly deps: ImportDependencies) {
    this.converters = new WorkerPool(CONVERTER_WORKER, { memoryMb: deps.config.converterMemoryMb, keepHeapMb: KEEP_CONVERTER_MB });
    deps.tasks.register(this.handler());
  }

  /** Ends the idle converter threads (at shutdown, after the task engine stopped). */
  async stop(): Promise<void> {
    await this.converters.close();
  }

  get limitBytes(): number {
    return this.deps.config.limitBytes;
  }

  async submit(auth: RequestAuth, request: ImportRequest): Promise<{ taskId: string }> {
    const type = request.type;
    if (!isFileType(type)) throw invalid(`type must be one of ${FILE_TYPES.join(', ')}, got ${JSON.stringify(type)}`);
    if (!auth.app.availableFileTypes.includes(type)) {
      throw new ApiError(Errors.fileTypeNotAvailable, `file type ${type} is not available to this application (available: ${auth.app.availableFileTypes.join(', ') || 'none'})`);
    }
    if (request.upload && request.fileUrl) throw invalid('send either the file (part "file") or fileUrl, not both');
    if (!request.upload && !request.fileUrl) throw invalid('send the file as multipart part "file", or fileUrl and fileName');
    const fileName = request.upload?.fileName || request.fileName;
    if (!fileName) throw invalid('fileName is required with fileUrl: its extension tells the format');
    const format = extensionOf(fileName);
    const targets = targetsOf(format);
    if (targets.length === 0) {
      throw new ApiError(Errors.importFormatUnsupported, `files of type ${JSON.stringify(format || fileName)} cannot be imported (docx, md, txt, html, xlsx, xlsm, csv, pptx; doc, wps, xls, ppt with LibreOffice)`);
    }
    if (!targets.includes(type)) throw new ApiError(Errors.importFormatUnsupported, `a ${format} file cannot become a ${type}: it can become ${targets.join(' or ')}`);
    if (LEGACY_FORMATS[format] && !this.deps.soffice) {
      throw new ApiError(Errors.importComponentMissing, `importing ${format} files needs LibreOffice (soffice on the PATH), which this service does not have`, { component: 'libreoffice' });
    }
    if (request.upload) {
      if (request.upload.data.length > this.limitBytes) throw tooLarge(this.limitBytes);
      if (request.upload.data.length === 0) throw new ApiError(Errors.importCorrupt, 'the file is empty');
    }
    let fileUrl: string | null = null;
    if (request.fileUrl) {
      try {
        fileUrl = this.deps.outbound.assertUrl(request.fileUrl).toString();
      } catch (error) {
        throw new ApiError(Errors.importUrlForbidden, `fileUrl is refused: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    // the file must be one the integrator knows and lets this user edit: an import into any other id made a file
    // nobody could open; the integrator's own answer (404 unknown file, 403, its error) is the refusal
    const { user } = await this.deps.access.authorize(auth, request.fileId, 'editable');
    const appId = auth.app.id;
    if (await this.deps.files.find(appId, request.fileId)) throw new ApiError(Errors.fileExists, `file ${request.fileId} already exists`);
    if (await this.deps.tasks.active(appId, IMPORT_KIND, request.fileId)) {
      throw new ApiError(Errors.fileExists, `file ${request.fileId} is being imported already`);
    }
    const input: ImportInput = { fileId: request.fileId, type, format, fileName, fileUrl, userId: user.id };
    const task = await this.deps.tasks.submit({
      appId,
      kind: IMPORT_KIND,
      fileId: request.fileId,
      input: { ...input },
      ...(request.upload ? { blobs: { [UPLOAD_BLOB]: request.upload.data } } : {}),
    });
    return { taskId: task.id };
  }

  /** `{progress, fileId}`; a failed import answers its error (code and message) instead. */
  async progress(appId: string, taskId: string): Promise<{ progress: number; fileId?: string }> {
    const task = await this.deps.tasks.get(appId, taskId, IMPORT_KIND);
    if (task.state === 'failed' && task.error) {
      const spec = Object.values(Errors).find((entry) => entry.code === task.error!.code) ?? Errors.taskFailed;
      throw new ApiError(spec, task.error.message, { taskId, progress: task.progress });
    }
    return task.state === 'succeeded' ? { progress: 100, fileId: task.fileId } : { progress: task.progress };
  }

  private handler(): TaskHandler {
    return { kind: IMPORT_KIND, maxRunMs: IMPORT_MAX_RUN_MS, run: (context) => this.run(context) };
  }

  private async run(context: TaskContext): Promise<TaskOutcome> {
    const input = context.input as unknown as ImportInput;
    const { appId } = context.task;
    const report = (from: number, to: number) => (fraction: number) => void context.progress(from + (to - from) * Math.min(1, fraction)).catch(() => {});
    const bytes = input.fileUrl
      ? await fetchFileUrl(input.fileUrl, { outbound: this.deps.outbound, limitBytes: this.limitBytes, timeoutMs: this.deps.config.fetchTimeoutMs, signal: context.signal, onProgress: report(0, 20) })
      : await context.blob(UPLOAD_BLOB);
    if (!bytes) throw new ApiError(Errors.taskFailed, 'the uploaded file is gone');
    await context.progress(20);
    const converted = await this.convert(bytes, input.format, input.type, context.signal, report(20, 90));
    const output = converted.target === 'content' ? await this.withOutsideImages(converted, input.type as ContentKind, context.signal) : converted;
    await context.progress(90);
    const app = await this.deps.apps.find(appId);
    if (!app) throw new ApiError(Errors.appNotFound, 'the application no longer exists');
    return {
      result: { fileId: input.fileId, type: input.type },
      commit: async (trx) => {
        await this.deps.files.create(app, { fileId: input.fileId, type: input.type, createdBy: input.userId }, trx);
        if (output.target === 'table') {
          await this.deps.tables.importTables(trx, appId, input.fileId, output.tables);
          return;
        }
        const stored = await this.deps.attachments.storeImported(trx, { appId, fileId: input.fileId, userId: input.userId, images: output.images });
        const kind = input.type as ContentKind;
        await this.deps.content.initialize(trx, appId, input.fileId, kind, withoutPictures(output.state, kind, output.images, stored));
      },
    };
  }

  /** The converted content with its outside images fetched, to be stored with the file's own pictures. */
  private async withOutsideImages(output: ConversionOutput & { target: 'content' }, kind: ContentKind, signal: AbortSignal): Promise<ConversionOutput> {
    const outside = await this.deps.outsideImages.importedContent(output.state, kind, signal);
    return { target: 'content', state: outside.state, images: [...output.images, ...outside.images] };
  }

  /**
   * Reads a file of an importable format (legacy ones through LibreOffice when present) into the content its
   * shape becomes (document, spreadsheet, presentation), without storing anything: what preview shows.
   */
  async readContent(bytes: Buffer, format: string, signal: AbortSignal, onProgress: (fraction: number) => void): Promise<{ kind: ContentKind; state: Uint8Array; images: ExtractedImage[] }> {
    const kind = targetsOf(format).find((type): type is ContentKind => type === 'document' || type === 'spreadsheet' || type === 'presentation');
    if (!kind) throw new ApiError(Errors.importFormatUnsupported, `files of type ${JSON.stringify(format)} cannot be read`);
    if (LEGACY_FORMATS[format] && !this.deps.soffice) {
      throw new ApiError(Errors.importComponentMissing, `reading ${format} files needs LibreOffice (soffice on the PATH), which this service does not have`, { component: 'libreoffice' });
    }
    const output = await this.convert(bytes, format, kind, signal, onProgress);
    if (output.target !== 'content') throw new Error(`a ${kind} conversion answered ${output.target}`);
    return { kind, state: output.state, images: output.images };
  }

  /** Legacy formats through LibreOffice first, then the format's converter in a worker thread; progress 0-1. */
  private async convert(source: Buffer, format: string, target: FileType, signal: AbortSignal, onProgress: (fraction: number) => void): Promise<ConversionOutput> {
    let bytes = source;
    let readFormat = format;
    const modern = LEGACY_FORMATS[format];
    const limits = { signal, deadlineMs: this.deps.config.converterTimeoutMs, scratch: this.deps.scratch };
    if (modern) {
      if (!this.deps.soffice) throw new ApiError(Errors.importComponentMissing, `importing ${format} files needs LibreOffice (soffice on the PATH)`, { component: 'libreoffice' });
      try {
        bytes = await convertWithLibreOffice(this.deps.soffice, bytes, format, modern, limits);
      } catch (error) {
        throw libreOfficeError(error);
      }
      readFormat = modern;
      onProgress(0.15);
    }
    // the worker takes the file's bytes over instead of copying them, unless they share their memory with others
    const owned = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
    const job: ConverterJob = { format: readFormat, target, bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), zipLimits: DEFAULT_ZIP_LIMITS };
    const answer = await this.converters
      .run(job, { ...limits, onProgress: (fraction: number) => onProgress(modern ? 0.15 + 0.85 * fraction : fraction), transfer: owned ? [bytes.buffer as ArrayBuffer] : [] })
      .catch((error: unknown) => {
        throw converterError(error);
      });
    if ('refused' in answer) throw new ApiError(Errors[answer.refused], answer.message);
    const output = answer.output;
    // joined here, after the pool has ended a thread that grew large (worker-pool.ts): not both at once
    return output.target === 'content' ? { target: 'content', images: output.images, state: joinParts(output.stateParts) } : output;
  }
}

function tooLarge(limit: number): ApiError {
  return new ApiError(Errors.importTooLarge, `the file is larger than the import limit of ${limit} bytes (SVC_IMPORT_LIMIT)`, { limitBytes: limit });
}

/** LibreOffice's failure as the import's error (an abort passes through to the engine). */
function libreOfficeError(error: unknown): unknown {
  if (error instanceof ConversionTimedOut) return new ApiError(Errors.taskTimedOut, error.message);
  if (error instanceof ConversionFailed) {
    return error.why === 'not-started'
      ? new ApiError(Errors.importComponentMissing, error.message, { component: 'libreoffice' })
      : new ApiError(Errors.importCorrupt, error.message);
  }
  return error;
}

/** The converter thread's failure as the import's error (an abort passes through to the engine). */
function converterError(error: unknown): unknown {
  if (error instanceof ConversionTimedOut) return new ApiError(Errors.taskTimedOut, error.message);
  if (error instanceof ConversionFailed) {
    return error.why === 'out-of-memory'
      ? new ApiError(Errors.importContentTooComplex, error.message)
      : new ApiError(Errors.importConverterFailed, `the converter failed on this file (${error.message.slice(0, 300)})`);
  }
  return error;
}

/**
 * The imported content without the pictures that were not stored (not a PNG, JPEG, GIF or WebP image, or over
 * the upload limit): their image nodes and boxes would name attachments that do not exist. The state as it is
 * when every picture was stored.
 */
export function withoutPictures(state: Uint8Array, kind: ContentKind, images: ReadonlyArray<{ guid: string }>, stored: readonly string[]): Uint8Array {
  const kept = new Set(stored);
  const missing = new Set(images.map((image) => image.guid).filter((guid) => !kept.has(guid)));
  if (missing.size === 0) return state;
  const doc = docFromState(state);
  try {
    const dangling = imageReferencesOf(doc, kind).filter((reference) => missing.has(attachmentGuidOf(reference.src) ?? ''));
    doc.transact(() => dangling.forEach((reference) => reference.remove()));
    return Y.encodeStateAsUpdate(doc);
  } finally {
    doc.destroy();
  }
}
