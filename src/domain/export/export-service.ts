import crypto from 'node:crypto';
import { ApiError, Errors } from '../../errors.js';
import type { Db, Storage } from '../../storage/database.js';
import type { AttachmentService } from '../attachments/attachment-service.js';
import type { ContentService } from '../content/content-service.js';
import { isContentKind, type ContentKind } from '../../model/content.js';
import type { FileService } from '../files/file-service.js';
import type { FileType } from '../../model/file-types.js';
import type { TableService } from '../tables/table-service.js';
import { ConversionFailed, ConversionTimedOut } from '../conversion/conversion-errors.js';
import { convertWithLibreOffice } from '../conversion/libreoffice.js';
import type { Scratch } from '../conversion/scratch.js';
import type { WorkerPool } from '../conversion/worker-pool.js';
import type { ConversionRequest, ConversionResult, FileTarget, ResultOf } from './convert.js';
import { EXPORTS_BY_KIND, MIME_TYPES, type ExportType } from './formats.js';
import type { RenderedHtml } from './converters/html.js';
import { ImageTooTall, RenderTimeout, type ChromiumRenderer, type Rendering } from './render/chromium.js';
import { imageSourcesOf, type ExportSource, type ImageAssets, type WorkbookSource } from './source.js';
import type { StoredTable } from './table-source.js';

/**
 * Exports of collaborative files (docs/IMPORT-EXPORT.md "Export"): which formats a file kind offers, making
 * the file (Yjs state → source in a worker thread → file format in a worker thread, pdf/jpg through headless
 * Chromium, wps through LibreOffice), and keeping it behind a signed, expiring download link.
 *
 * Nothing here runs inside a database transaction: content is read first, converted, then stored.
 */

export interface ExportSettings {
  /** how long a download link works; the file is removed after it */
  linkTtlMs: number;
  /** LibreOffice's soffice, or undefined (wps refused) */
  soffice: string | undefined;
  /** where LibreOffice may write, one folder per conversion */
  scratch: Scratch;
}

export interface ExportDeps {
  storage: Storage;
  files: FileService;
  content: ContentService;
  tables: TableService;
  attachments: AttachmentService;
  /** the worker threads of convert-worker.ts */
  runner: WorkerPool<ConversionRequest, ConversionResult>;
  renderer: ChromiumRenderer;
}

/** What one export run produced. */
export interface ExportedFile {
  fileName: string;
  mimeType: string;
  bytes: Uint8Array;
  /** pdf and jpg: requests the rendered page made that the renderer refused (nothing outside is ever fetched) */
  refusedRequests?: number;
}

/** Where an export's file is kept: the task's result (JSON). */
export interface KeptExport extends Record<string, unknown> {
  downloadId: string;
  fileName: string;
  size: number;
  expiresAt: number;
  /** pdf and jpg: requests of the rendered page refused by the renderer */
  refusedRequests?: number;
}

export interface ExportRun {
  signal: AbortSignal;
  /** time left for the whole run, ms */
  deadlineMs: number;
  /** real progress 0-99 */
  progress(percent: number): void;
}

/** A download of a kept export. */
export interface Download {
  fileName: string;
  mimeType: string;
  data: Buffer;
}

const SWEEP_EVERY_MS = 5 * 60_000;
/** Characters not allowed in a download's file name (path separators, control characters, Windows' reserved ones). */
const UNSAFE_NAME = /[\u0000-\u001f\u007f/\\:*?"<>|]+/g;

/** The download's file name: the file's name from the integrator (or its id), made safe, with the format's extension. */
export function exportFileName(title: string, type: ExportType): string {
  const base = title.replace(UNSAFE_NAME, '_').replace(/^[.\s]+|[.\s]+$/g, '').slice(0, 120) || 'export';
  return base.toLowerCase().endsWith(`.${type}`) ? base : `${base}.${type}`;
}

function signature(secret: string, downloadId: string, expiresAt: number): string {
  return crypto.createHmac('sha256', secret).update(`svc-export-download\n${downloadId}\n${expiresAt}`).digest('base64url');
}

export class ExportService {
  private sweeper: NodeJS.Timeout | undefined;

  constructor(
    private readonly deps: ExportDeps,
    private readonly settings: ExportSettings,
  ) {}

  /**
   * The request-time checks of an export: the file exists in the app, its kind offers `type`, and the
   * component `type` needs is installed. Answers the file's kind.
   */
  async check(appId: string, fileId: string, type: ExportType): Promise<FileType> {
    const file = await this.deps.files.get(appId, fileId);
    const offered = EXPORTS_BY_KIND[file.type];
    if (!offered.includes(type)) {
      throw new ApiError(Errors.exportTypeUnsupported, `a ${file.type} file cannot be exported as ${type}; it exports as ${offered.join(', ')}`, { available: [...offered] });
    }
    if (type === 'wps' && !this.settings.soffice) {
      throw new ApiError(Errors.exportComponentMissing, 'exporting as wps needs LibreOffice (soffice on the PATH of the service), which is not installed', { component: 'libreoffice' });
    }
    return file.type;
  }

  /**
   * Makes the export file: the slow part, run by the export task. `watermark`: the lines of the exporting user's
   * watermark (src/model/watermark.ts), printed over every page of a pdf and over a jpg; other formats are the
   * document itself and carry none (docs/IMPORT-EXPORT.md "Watermark").
   */
  async produce(appId: string, fileId: string, type: ExportType, title: string, run: ExportRun, watermark: readonly string[] = []): Promise<ExportedFile> {
    const started = Date.now();
    const left = () => Math.max(1, run.deadlineMs - (Date.now() - started));
    const kind = await this.check(appId, fileId, type);
    const convert = this.converter(run, left);

    let source: ExportSource;
    if (isContentKind(kind)) {
      const state = await this.deps.content.state(appId, fileId);
      source = (await convert({ op: 'source', state, kind, title }, 0, 10)).source;
    } else {
      const tables: StoredTable[] = [];
      for await (const table of this.deps.tables.baseContent(appId, fileId)) tables.push(table);
      source = (await convert({ op: 'tables', tables, title }, 0, 10)).source;
    }
    run.progress(15);
    if (source.kind !== 'workbook') source.images = await this.images(appId, source);
    run.progress(20);

    const fileName = exportFileName(title, type);
    const mimeType = MIME_TYPES[type];
    if (type === 'pdf' || type === 'jpg') {
      const html = await convert({ op: 'html', source, watermark: { lines: [...watermark], medium: type } } as const, 20, 50);
      run.progress(55);
      const { bytes, refusedRequests } = await this.render(type, html.rendered, left(), run.signal);
      return { fileName, mimeType, bytes, refusedRequests };
    }
    // xlsx carries a chart as its picture: each drawn SVG photographed by the renderer (docs/SHEETS.md "Charts")
    if (type === 'xlsx' && source.kind === 'workbook') await this.pictureCharts(source, left, run.signal);
    const target: FileTarget = type === 'wps' ? 'docx' : type;
    const written = await convert({ op: 'file', target, source } as const, 20, type === 'wps' ? 60 : 95);
    if (type !== 'wps') return { fileName, mimeType, bytes: written.bytes };
    // WPS Writer's .wps is the Word 97 binary format: LibreOffice writes it from the docx
    try {
      const bytes = await convertWithLibreOffice(this.settings.soffice!, written.bytes, 'docx', 'doc:MS Word 97', { signal: run.signal, deadlineMs: left(), scratch: this.settings.scratch });
      return { fileName, mimeType, bytes };
    } catch (error) {
      throw failure(error);
    }
  }

  /**
   * A content state (not a stored file: preview reads third-party files into one) as the self-contained HTML
   * page pdf and jpg exports print; `images` by the `src` the content names them with.
   */
  async html(state: Uint8Array, kind: ContentKind, title: string, images: ImageAssets, run: ExportRun): Promise<RenderedHtml> {
    const started = Date.now();
    const left = () => Math.max(1, run.deadlineMs - (Date.now() - started));
    const convert = this.converter(run, left);
    const { source } = await convert({ op: 'source', state, kind, title }, 0, 20);
    if (source.kind !== 'workbook') source.images = images;
    return (await convert({ op: 'html', source } as const, 20, 100)).rendered;
  }

  /** Gives every chart of a workbook its picture: its SVG on a page of its size, photographed as a JPEG. */
  private async pictureCharts(source: WorkbookSource, left: () => number, signal: AbortSignal): Promise<void> {
    const charts = source.sheets.flatMap((sheet) => sheet.charts ?? []);
    if (charts.length === 0) return;
    const [{ chartPictureHtml }, { fontFaceCss }] = await Promise.all([import('./converters/html.js'), import('./render/fonts.js')]);
    const fontCss = fontFaceCss();
    for (const chart of charts) if (chart.svg) chart.picture = (await this.render('jpg', chartPictureHtml(chart, fontCss), left(), signal)).bytes;
  }

  /** Runs conversion requests in the worker pool within the run's time left, progress mapped to from-to. */
  private converter(run: ExportRun, left: () => number) {
    return <R extends ConversionRequest>(request: R, from: number, to: number): Promise<ResultOf<R>> =>
      this.deps.runner
        .run(request, { signal: run.signal, deadlineMs: left(), onProgress: (fraction) => run.progress(from + (to - from) * fraction) })
        // the worker answers a request with the result of its op (convert.ts runConversion)
        .then((result) => result as ResultOf<R>)
        .catch((error: unknown) => {
          throw failure(error);
        });
  }

  private async render(type: 'pdf' | 'jpg', rendered: RenderedHtml, deadlineMs: number, signal: AbortSignal): Promise<Rendering> {
    const abort = () => void this.deps.renderer.kill();
    signal.addEventListener('abort', abort, { once: true });
    try {
      return await (type === 'pdf' ? this.deps.renderer.pdf(rendered, deadlineMs) : this.deps.renderer.jpg(rendered, deadlineMs));
    } catch (error) {
      throw failure(error);
    } finally {
      signal.removeEventListener('abort', abort);
    }
  }

  /** The bytes of the images the source shows that are attachments of the same application; others are left out. */
  private async images(appId: string, source: ExportSource): Promise<ImageAssets> {
    const assets: ImageAssets = {};
    for (const src of imageSourcesOf(source)) {
      const guid = /^\/sdk\/v2\/attachments\/([\w-]{1,100})$/.exec(src)?.[1];
      if (!guid) continue;
      const stored = await this.deps.attachments.stored(appId, guid);
      if (stored) assets[src] = { data: new Uint8Array(stored.data), mimeType: stored.mimeType };
    }
    return assets;
  }

  /** Where a produced file will be kept: a new download id and the link's expiry. */
  plan(file: ExportedFile, now = Date.now()): KeptExport {
    const refused = file.refusedRequests === undefined ? {} : { refusedRequests: file.refusedRequests };
    return { downloadId: crypto.randomBytes(18).toString('base64url'), fileName: file.fileName, size: file.bytes.length, expiresAt: now + this.settings.linkTtlMs, ...refused };
  }

  /** Keeps a produced file behind its download link (inside the transaction that marks the task succeeded). */
  async keep(db: Db, owner: { appId: string; fileId: string; taskId: string }, file: ExportedFile, kept: KeptExport): Promise<void> {
    // the file may have been deleted while it was exported: then the export fails as the file's absence
    const exists = await db.selectFrom('files').select('file_id').where('app_id', '=', owner.appId).where('file_id', '=', owner.fileId).executeTakeFirst();
    if (!exists) throw new ApiError(Errors.fileNotFound, `file ${owner.fileId} was deleted while it was exported`);
    await db
      .insertInto('export_files')
      .values({
        id: kept.downloadId,
        app_id: owner.appId,
        file_id: owner.fileId,
        task_id: owner.taskId,
        file_name: file.fileName,
        mime_type: file.mimeType,
        size: file.bytes.length,
        data: Buffer.from(file.bytes),
        expires_at: kept.expiresAt,
        created_at: Date.now(),
      })
      .execute();
  }

  /** The signed path of a kept export's download (relative to the service's base URL). */
  downloadPath(appSecret: string, kept: Pick<KeptExport, 'downloadId' | 'expiresAt'>): string {
    const query = new URLSearchParams({ expires: String(kept.expiresAt), sig: signature(appSecret, kept.downloadId, kept.expiresAt) });
    return `/sdk/v2/exports/${kept.downloadId}?${query}`;
  }

  /**
   * A kept export, if the link's signature is the service's and it has not expired: 403 / 122006 for a link
   * that is not one of ours (or altered), 410 / 122007 once it expired (the file is gone by then).
   */
  async download(downloadId: string, expires: string, sig: string, now = Date.now()): Promise<Download> {
    const row = await this.deps.storage.db
      .selectFrom('export_files')
      .innerJoin('apps', 'apps.id', 'export_files.app_id')
      .select(['export_files.file_name', 'export_files.mime_type', 'export_files.data', 'export_files.expires_at', 'apps.secret'])
      .where('export_files.id', '=', downloadId)
      .executeTakeFirst();
    const expiresAt = Number(expires);
    const expected = row && Number(row.expires_at) === expiresAt ? signature(row.secret, downloadId, expiresAt) : undefined;
    const valid = expected !== undefined && expected.length === sig.length && crypto.timingSafeEqual(Buffer.from(expected), Buffer.from(sig));
    if (!valid || !row) {
      // an expired link whose file was already removed cannot be told from a forged one; a signed expiry in the past can
      if (Number.isFinite(expiresAt) && expiresAt > 0 && expiresAt <= now && !row) throw expired();
      throw new ApiError(Errors.exportLinkInvalid, 'this download link is not valid: it was altered or never issued');
    }
    if (expiresAt <= now) throw expired();
    return { fileName: row.file_name, mimeType: row.mime_type, data: Buffer.from(row.data) };
  }

  /** Removes the files whose links expired; answers how many. */
  async sweep(now = Date.now()): Promise<number> {
    const result = await this.deps.storage.db.deleteFrom('export_files').where('expires_at', '<=', now).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Starts removing expired files every few minutes (and once now). */
  start(onError: (error: unknown) => void): void {
    const sweep = () => void this.sweep().catch(onError);
    sweep();
    this.sweeper = setInterval(sweep, SWEEP_EVERY_MS);
    this.sweeper.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.sweeper);
    this.sweeper = undefined;
    await Promise.all([this.deps.renderer.kill(), this.deps.runner.close()]);
  }
}

function expired(): ApiError {
  return new ApiError(Errors.exportLinkExpired, 'this download link has expired and its file was removed: export the file again');
}

/** A renderer's or converter's failure as the task's error (timeouts and aborts pass through to the engine). */
function failure(error: unknown): unknown {
  if (error instanceof ApiError) return error;
  if (error instanceof ImageTooTall) return new ApiError(Errors.exportTooLarge, `${error.message}: export it as pdf`);
  if (error instanceof ConversionTimedOut || error instanceof RenderTimeout) return new ApiError(Errors.taskTimedOut, `the export ran out of time: ${error.message}`);
  if (error instanceof ConversionFailed) return new ApiError(Errors.exportConverterFailed, `the export could not be made: ${error.message}`);
  if (error instanceof Error && error.name === 'AbortError') return error;
  return new ApiError(Errors.exportConverterFailed, `the export could not be made: ${error instanceof Error ? error.message : String(error)}`);
}
