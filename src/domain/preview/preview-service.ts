import { ApiError, Errors } from '../../errors.js';
import type { RequestAuth } from '../../auth/request-auth.js';
import type { AccessService } from '../../integrator/access-service.js';
import type { CallbackClient } from '../../integrator/callback-client.js';
import type { FileMetadata } from '../../integrator/types.js';
import type { OutboundPolicy } from '../../net/outbound-policy.js';
import type { TaskContext, TaskEngine, TaskOutcome } from '../../tasks/task-engine.js';
import { attachmentPath } from '../attachments/attachment-service.js';
import { sniffImage } from '../attachments/sniff.js';
import { FONT_ORIGIN } from '../export/converters/html.js';
import type { ExportService } from '../export/export-service.js';
import type { ImageAssets } from '../export/source.js';
import type { AppService } from '../apps/app-service.js';
import { ConversionFailed, ConversionTimedOut } from '../conversion/conversion-errors.js';
import { WorkerPool } from '../conversion/worker-pool.js';
import { fetchFileUrl } from '../import/file-url.js';
import { targetsOf } from '../import/import-formats.js';
import type { ImportConfig, ImportService } from '../import/import-service.js';
import { PDF_CHECK_WORKER, type PdfCheckAnswer, type PdfCheckJob } from './pdf-check.js';
import { isViewSignature, VIEW_LINK_TTL_MS, viewSignature, type ViewGrant } from './view-link.js';

export const PREVIEW_KIND = 'preview';
/** Building one preview (download, reading, rendering) takes at most this long, then fails with 120002. */
export const PREVIEW_MAX_RUN_MS = 10 * 60_000;
/**
 * Where the viewer's pages find their fonts (the export pages' Noto Sans SC, served by the preview routes): the
 * export HTML names the renderer's private origin, which a browser cannot reach.
 */
export const PREVIEW_FONT_PATH = '/sdk/v2/api/preview-fonts/';

/** A pdf with more pages is refused (123004): the viewer lays out a placeholder per page. */
export const PDF_MAX_PAGES = 2000;

/** Extensions shown as they are (the bytes must also be one of these images: attachments' sniffing decides). */
const IMAGE_EXTENSIONS: ReadonlySet<string> = new Set(['png', 'jpg', 'jpeg', 'gif', 'webp']);

/** The cache's blobs: the file itself (an image or a pdf, as downloaded), or one blob per rendered page. */
const FILE_BLOB = 'file';
const pageBlob = (page: number) => `page-${page}`;

interface PreviewInput {
  fileId: string;
  name: string;
  ext: string;
  downloadUrl: string;
}

/** How rendered pages are laid out: a document's page is a sheet of paper; a sheet or a slide keeps its own width. */
export type PageLayout = 'document' | 'sheet' | 'slide';

/** What a finished preview task records (its `result`); the bytes are its blobs. */
type PreviewResult =
  | { shows: 'image'; title: string; mimeType: string }
  | { shows: 'pdf'; title: string; pageCount: number }
  | { shows: 'pages'; title: string; pageCount: number; layout: PageLayout };

/** A file's preview as the viewer page shows it: once ready, its parts are fetched by the browser through `link`. */
export type Preview =
  | { state: 'building'; progress: number }
  | { state: 'failed'; code: number; message: string }
  | ({ state: 'ready'; link: ViewLink } & PreviewResult);

/** A viewer's access to the parts of one built preview (docs/IMPORT-EXPORT.md "Preview"). */
export interface ViewLink extends ViewGrant {
  signature: string;
}

/** One part of a built preview: the file (image or pdf) or a rendered page (1-based). */
export type PreviewPart = { part: 'file' } | { part: 'page'; page: number };

/** A part's bytes as served: `html` is a rendered page (a whole HTML document of the export converter). */
export interface PartContent {
  data: Buffer;
  mimeType: string;
  html: boolean;
}

export interface PreviewDependencies {
  apps: Pick<AppService, 'find'>;
  access: AccessService;
  callbacks: CallbackClient;
  outbound: OutboundPolicy;
  tasks: TaskEngine;
  imports: ImportService;
  exports: ExportService;
  /** download limit and deadline: the same as an import's fileUrl (SVC_IMPORT_LIMIT, SVC_IMPORT_FETCH_TIMEOUT_MS); the converters' heap */
  config: Pick<ImportConfig, 'limitBytes' | 'fetchTimeoutMs' | 'converterMemoryMb' | 'converterTimeoutMs'>;
}

/**
 * Preview of non-collaborative files (docs/IMPORT-EXPORT.md "Preview"): `create` asks the integrator's
 * `/files/{fileId}` for the file (with the caller's token when there is one, so their read permission applies;
 * as the application otherwise) and starts a `preview` task that downloads it through the outbound policy and
 * builds the cache: an image or a pdf as it is (a pdf once pdf.js opened it in a worker thread), any other format
 * read by the importers and rendered page by page by the export HTML converter. `preview` answers the viewer what
 * the cache shows and a signed link to its parts; `part` answers a part to such a link. The cache is the task's
 * blobs: it lives as long as the task (SVC_TASK_RETENTION_HOURS), a new `create` rebuilds it from the
 * integrator's current file.
 */
export class PreviewService {
  private readonly pdfChecks: WorkerPool<PdfCheckJob, PdfCheckAnswer>;

  constructor(private readonly deps: PreviewDependencies) {
    deps.tasks.register({ kind: PREVIEW_KIND, maxRunMs: PREVIEW_MAX_RUN_MS, run: (context) => this.run(context) });
    this.pdfChecks = new WorkerPool(PDF_CHECK_WORKER, { memoryMb: deps.config.converterMemoryMb, idleWorkers: 1 });
  }

  /** Ends the pdf check threads (server shutdown). */
  async stop(): Promise<void> {
    await this.pdfChecks.close();
  }

  async create(auth: RequestAuth, fileId: string): Promise<void> {
    const file = await this.metadata(auth, fileId);
    if (file.type !== 'file' || !file.downloadUrl || !file.ext) {
      throw new ApiError(
        Errors.previewNotAPreviewFile,
        file.type !== 'file'
          ? `file ${fileId} is a ${file.type}, not a preview file: open it in the editor`
          : `the integrator's /files/${fileId} answered no downloadUrl or ext for this preview file`,
      );
    }
    let downloadUrl: string;
    try {
      downloadUrl = this.deps.outbound.assertUrl(file.downloadUrl).toString();
    } catch (error) {
      throw new ApiError(Errors.importUrlForbidden, `the file's downloadUrl is refused: ${error instanceof Error ? error.message : String(error)}`);
    }
    const appId = auth.app.id;
    if (await this.deps.tasks.active(appId, PREVIEW_KIND, fileId)) return;
    const input: PreviewInput = { fileId, name: file.name, ext: file.ext.replace(/^\./, '').toLowerCase(), downloadUrl };
    await this.deps.tasks.submit({ appId, kind: PREVIEW_KIND, fileId, input: { ...input } });
  }

  /**
   * The newest preview of the file; 123003 when none was created (or it was purged). A ready one carries a link
   * valid VIEW_LINK_TTL_MS to its parts: the caller was authorized here, the browser's requests for the parts show
   * the link instead.
   */
  async preview(auth: RequestAuth, fileId: string, now = Date.now()): Promise<Preview> {
    if (auth.token !== undefined) await this.deps.access.authorize(auth, fileId, 'readable');
    const appId = auth.app.id;
    const task = await this.deps.tasks.latest(appId, PREVIEW_KIND, fileId);
    if (!task) throw new ApiError(Errors.previewNotCreated, `no preview of file ${fileId} was created: call cloud-files/${fileId}/create first`);
    if (task.state === 'queued' || task.state === 'running') return { state: 'building', progress: task.progress };
    if (task.state === 'failed') return { state: 'failed', code: task.error?.code ?? Errors.taskFailed.code, message: task.error?.message ?? 'the preview could not be made' };
    const grant: ViewGrant = { appId, fileId, taskId: task.id, expiresAt: now + VIEW_LINK_TTL_MS };
    return { state: 'ready', link: { ...grant, signature: viewSignature(auth.app.secret, grant) }, ...(task.result as PreviewResult) };
  }

  /**
   * A part of a built preview, through a viewer's link: 403 / 123005 for a link no viewer page made (or made with
   * a secret since rotated), 410 / 123006 past its expiry, 404 / 123003 once the cache is gone.
   */
  async part(grant: ViewGrant, signature: string, wanted: PreviewPart, now = Date.now()): Promise<PartContent> {
    const app = await this.deps.apps.find(grant.appId);
    if (!app || !Number.isSafeInteger(grant.expiresAt) || !isViewSignature(app.secret, grant, signature)) {
      throw new ApiError(Errors.previewLinkInvalid, 'this preview link was not made by a viewer page of this file, or it was altered: open the viewer page again');
    }
    if (grant.expiresAt <= now) throw new ApiError(Errors.previewLinkExpired, `preview links last ${VIEW_LINK_TTL_MS / 60_000} minutes: reload the viewer page`);
    const task = await this.deps.tasks.find(grant.appId, grant.taskId);
    const gone = () => new ApiError(Errors.previewNotCreated, `this preview of file ${grant.fileId} is gone: call cloud-files/${grant.fileId}/create again`);
    if (!task || task.kind !== PREVIEW_KIND || task.fileId !== grant.fileId || task.state !== 'succeeded') throw gone();
    const result = task.result as PreviewResult;
    if (wanted.part === 'file') {
      if (result.shows === 'pages') throw gone();
      const data = await this.deps.tasks.blob(grant.appId, task.id, FILE_BLOB);
      if (!data) throw gone();
      return { data, mimeType: result.shows === 'pdf' ? 'application/pdf' : result.mimeType, html: false };
    }
    if (result.shows !== 'pages' || wanted.page < 1 || wanted.page > result.pageCount) throw gone();
    const data = await this.deps.tasks.blob(grant.appId, task.id, pageBlob(wanted.page));
    if (!data) throw gone();
    return { data, mimeType: 'text/html; charset=utf-8', html: true };
  }

  /** With a token: as the user sees the file (read permission required); without: as the application. */
  private async metadata(auth: RequestAuth, fileId: string): Promise<FileMetadata> {
    if (auth.token !== undefined) return (await this.deps.access.authorize(auth, fileId, 'readable')).file;
    return this.deps.callbacks.file({ app: auth.app, credential: { kind: 'system', fileId }, requestId: auth.requestId }, fileId);
  }

  private async run(context: TaskContext): Promise<TaskOutcome> {
    const input = context.input as unknown as PreviewInput;
    const title = input.name || input.fileId;
    const report = (from: number, to: number) => (fraction: number) => void context.progress(from + (to - from) * Math.min(1, fraction)).catch(() => {});
    const readable = input.ext === 'pdf' || IMAGE_EXTENSIONS.has(input.ext) || targetsOf(input.ext).length > 0;
    if (!readable) throw unsupported(input.ext);
    const bytes = await fetchFileUrl(input.downloadUrl, {
      outbound: this.deps.outbound,
      limitBytes: this.deps.config.limitBytes,
      timeoutMs: this.deps.config.fetchTimeoutMs,
      signal: context.signal,
      onProgress: report(0, 20),
    });
    await context.progress(20);
    if (IMAGE_EXTENSIONS.has(input.ext)) {
      const image = sniffImage(bytes);
      if (!image) throw new ApiError(Errors.previewFormatUnsupported, `the file is named .${input.ext} but is no PNG, JPEG, GIF or WebP image`);
      const result: PreviewResult = { shows: 'image', title, mimeType: image.mimeType };
      return { result, blobs: { [FILE_BLOB]: bytes } };
    }
    if (input.ext === 'pdf') {
      const pageCount = await this.checkPdf(bytes, context.signal, report(20, 95));
      const result: PreviewResult = { shows: 'pdf', title, pageCount };
      return { result, blobs: { [FILE_BLOB]: bytes } };
    }
    const content = await this.deps.imports.readContent(bytes, input.ext, context.signal, report(20, 60));
    const images: ImageAssets = {};
    for (const picture of content.images) {
      const sniffed = sniffImage(picture.data);
      if (sniffed) images[attachmentPath(picture.guid)] = { data: picture.data, mimeType: sniffed.mimeType };
    }
    const rendered = await this.deps.exports.html(content.state, content.kind, title, images, {
      signal: context.signal,
      deadlineMs: PREVIEW_MAX_RUN_MS,
      progress: report(60, 95),
    });
    const layout: PageLayout = content.kind === 'spreadsheet' ? 'sheet' : content.kind === 'presentation' ? 'slide' : 'document';
    const viewed = rendered.html.replaceAll(`${FONT_ORIGIN}/fonts/`, PREVIEW_FONT_PATH).replace(`font-src ${FONT_ORIGIN}`, "font-src 'self'");
    const pages = pagesOf(viewed, layout === 'sheet' ? '<section>' : layout === 'slide' ? '<div class="slide"' : undefined);
    const result: PreviewResult = { shows: 'pages', title, pageCount: pages.length, layout };
    return { result, blobs: Object.fromEntries(pages.map((page, index) => [pageBlob(index + 1), Buffer.from(page, 'utf8')])) };
  }

  /** The pdf's page count, opened by pdf.js in a worker thread: 121005 damaged, 121006 password, 123004 too many pages. */
  private async checkPdf(bytes: Buffer, signal: AbortSignal, onProgress: (fraction: number) => void): Promise<number> {
    const job: PdfCheckJob = { bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), maxPages: PDF_MAX_PAGES };
    const answer = await this.pdfChecks.run(job, { signal, deadlineMs: this.deps.config.converterTimeoutMs, onProgress }).catch((error: unknown) => {
      if (error instanceof ConversionTimedOut) throw new ApiError(Errors.taskTimedOut, error.message);
      if (error instanceof ConversionFailed) {
        throw error.why === 'out-of-memory' ? new ApiError(Errors.importContentTooComplex, error.message) : new ApiError(Errors.importCorrupt, `the pdf could not be read (${error.message.slice(0, 200)})`);
      }
      throw error;
    });
    if ('pageCount' in answer) return answer.pageCount;
    const refusal = { corrupt: Errors.importCorrupt, password: Errors.importPasswordProtected, tooManyPages: Errors.previewTooManyPages }[answer.refused];
    throw new ApiError(refusal, answer.message);
  }
}

function unsupported(ext: string): ApiError {
  return new ApiError(
    Errors.previewFormatUnsupported,
    `files of type ${JSON.stringify(ext)} cannot be previewed (pdf, docx, md, txt, html, xlsx, xlsm, csv, pptx, png, jpg, gif, webp; doc, wps, xls, ppt with LibreOffice)`,
  );
}

/**
 * The export page cut into the viewer's pages: every page keeps the page's head (its styles and its
 * Content-Security-Policy) and gets one top-level element of the body that starts with `pageStart` (a sheet's
 * section, a slide); a document is one page.
 */
export function pagesOf(html: string, pageStart: string | undefined): string[] {
  const bodyStart = html.indexOf('<body>') + '<body>'.length;
  const bodyEnd = html.lastIndexOf('</body>');
  const head = html.slice(0, bodyStart);
  const tail = html.slice(bodyEnd);
  const body = html.slice(bodyStart, bodyEnd);
  if (!pageStart) return [html];
  const parts = body.split(pageStart).slice(1);
  if (parts.length === 0) return [html];
  return parts.map((part) => `${head}${pageStart}${part}${tail}`);
}
