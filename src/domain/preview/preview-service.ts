import { ApiError, Errors } from '../../errors.js';
import type { RequestAuth } from '../../auth/request-auth.js';
import type { ImportConfig } from '../../config.js';
import type { AccessService } from '../../integrator/access-service.js';
import type { CallbackClient } from '../../integrator/callback-client.js';
import type { FileMetadata } from '../../integrator/types.js';
import type { OutboundPolicy } from '../../net/outbound-policy.js';
import type { TaskContext, TaskEngine, TaskOutcome } from '../../tasks/task-engine.js';
import { attachmentPath } from '../attachments/attachment-service.js';
import { sniffImage } from '../attachments/sniff.js';
import type { ExportService } from '../export/export-service.js';
import type { ImageAssets } from '../export/source.js';
import { fetchFileUrl } from '../import/file-url.js';
import { targetsOf } from '../import/import-formats.js';
import type { ImportService } from '../import/import-service.js';

export const PREVIEW_KIND = 'preview';
/** Building one preview (download, reading, rendering) takes at most this long, then fails with 120002. */
export const PREVIEW_MAX_RUN_MS = 10 * 60_000;

/** Extensions shown as they are (the bytes must also be one of these images: attachments' sniffing decides). */
const IMAGE_EXTENSIONS: ReadonlySet<string> = new Set(['png', 'jpg', 'jpeg', 'gif', 'webp']);

const IMAGE_BLOB = 'image';
const PAGES_BLOB = 'pages';

interface PreviewInput {
  fileId: string;
  name: string;
  ext: string;
  downloadUrl: string;
}

/** What a finished preview task records (its `result`); the bytes are its blobs. */
type PreviewResult = { shows: 'image'; title: string; mimeType: string } | { shows: 'pages'; title: string; pageCount: number };

/** A file's preview as the viewer page shows it. */
export type Preview =
  | { state: 'building'; progress: number }
  | { state: 'failed'; code: number; message: string }
  | { state: 'ready'; title: string; shows: 'image'; mimeType: string; data: Buffer }
  /** each page a self-contained HTML document of the export converter (a sheet, a slide, or the whole document) */
  | { state: 'ready'; title: string; shows: 'pages'; pages: string[] };

export interface PreviewDependencies {
  access: AccessService;
  callbacks: CallbackClient;
  outbound: OutboundPolicy;
  tasks: TaskEngine;
  imports: ImportService;
  exports: ExportService;
  /** download limit and deadline: the same as an import's fileUrl (SVC_IMPORT_LIMIT, SVC_IMPORT_FETCH_TIMEOUT_MS) */
  config: Pick<ImportConfig, 'limitBytes' | 'fetchTimeoutMs'>;
}

/**
 * Preview of non-collaborative files (docs/IMPORT-EXPORT.md "Preview"): `create` asks the integrator's
 * `/files/{fileId}` for the file (with the caller's token when there is one, so their read permission applies;
 * as the application otherwise) and starts a `preview` task that downloads it through the outbound policy and
 * builds the cache with the importers and the export HTML converter; `preview` answers that cache to the viewer.
 * The cache is the task's blobs: it lives as long as the task (SVC_TASK_RETENTION_HOURS), a new `create`
 * rebuilds it from the integrator's current file.
 */
export class PreviewService {
  constructor(private readonly deps: PreviewDependencies) {
    deps.tasks.register({ kind: PREVIEW_KIND, maxRunMs: PREVIEW_MAX_RUN_MS, run: (context) => this.run(context) });
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

  /** The newest preview of the file; 123003 when none was created (or it was purged). */
  async preview(auth: RequestAuth, fileId: string): Promise<Preview> {
    if (auth.token !== undefined) await this.deps.access.authorize(auth, fileId, 'readable');
    const appId = auth.app.id;
    const task = await this.deps.tasks.latest(appId, PREVIEW_KIND, fileId);
    if (!task) throw new ApiError(Errors.previewNotCreated, `no preview of file ${fileId} was created: call cloud-files/${fileId}/create first`);
    if (task.state === 'queued' || task.state === 'running') return { state: 'building', progress: task.progress };
    if (task.state === 'failed') return { state: 'failed', code: task.error?.code ?? Errors.taskFailed.code, message: task.error?.message ?? 'the preview could not be made' };
    const result = task.result as PreviewResult;
    const blob = await this.deps.tasks.blob(appId, task.id, result.shows === 'image' ? IMAGE_BLOB : PAGES_BLOB);
    if (!blob) throw new ApiError(Errors.previewNotCreated, `the preview of file ${fileId} is gone: call cloud-files/${fileId}/create again`);
    if (result.shows === 'image') return { state: 'ready', title: result.title, shows: 'image', mimeType: result.mimeType, data: blob };
    return { state: 'ready', title: result.title, shows: 'pages', pages: JSON.parse(blob.toString('utf8')) as string[] };
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
    const readable = IMAGE_EXTENSIONS.has(input.ext) || targetsOf(input.ext).length > 0;
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
      return { result, blobs: { [IMAGE_BLOB]: bytes } };
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
    const pages = pagesOf(rendered.html, content.kind === 'spreadsheet' ? '<section>' : content.kind === 'presentation' ? '<div class="slide">' : undefined);
    const result: PreviewResult = { shows: 'pages', title, pageCount: pages.length };
    return { result, blobs: { [PAGES_BLOB]: Buffer.from(JSON.stringify(pages), 'utf8') } };
  }
}

function unsupported(ext: string): ApiError {
  return new ApiError(
    Errors.previewFormatUnsupported,
    `files of type ${JSON.stringify(ext)} cannot be previewed (docx, md, txt, html, xlsx, xlsm, csv, pptx, png, jpg, gif, webp; doc, wps, xls, ppt with LibreOffice)`,
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
