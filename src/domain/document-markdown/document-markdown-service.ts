import { ApiError, Errors } from '../../errors.js';
import { docFromState, richTextOf, type ContentKind } from '../../model/content.js';
import { toProseMirrorNodes, toYNodes, type ProseMirrorNode } from '../../model/rich-text/schema.js';
import type { Storage } from '../../storage/database.js';
import { attachmentGuidOf, type AttachmentService } from '../attachments/attachment-service.js';
import { toMarkdown } from '../export/converters/markdown.js';
import type { ImportService } from '../import/import-service.js';
import type { ContentActor } from '../content/collaboration-context.js';
import type { ContentService } from '../content/content-service.js';

/** The conversion runs in the request: nobody watches its progress. */
const UNWATCHED = { step() {} };

/**
 * `nodes` with every image's `src` replaced by `resolve(src)`, or the image left out where it answers undefined.
 * (Images are the only nodes whose meaning depends on where the content is read.)
 */
function mapImages(nodes: readonly ProseMirrorNode[], resolve: (src: string) => string | undefined): ProseMirrorNode[] {
  return nodes.flatMap((node): ProseMirrorNode[] => {
    if (node.type === 'image') {
      const src = resolve(typeof node.attrs?.src === 'string' ? node.attrs.src : '');
      return src === undefined ? [] : [{ ...node, attrs: { ...node.attrs, src } }];
    }
    return node.content ? [{ ...node, content: mapImages(node.content, resolve) }] : [node];
  });
}

function requireRichText(kind: ContentKind, fileId: string): void {
  if (kind !== 'document' && kind !== 'documentPro') {
    throw new ApiError(Errors.fileTypeUnsupported, `file ${fileId} is a ${kind}: only documents and documentPro files read and take Markdown`);
  }
}

/**
 * Documents as Markdown and Markdown into documents, for the kits' `r2m` and `compose-custom` calls
 * (docs/CLIENT-KITS.md "Newer calls"). Both go through the one Markdown exporter and the import's one entry point
 * for reading a format (ImportService.readContent, the Markdown reader in a converter thread), so a change to
 * either carries over here.
 */
export class DocumentMarkdownService {
  constructor(
    private readonly storage: Storage,
    private readonly content: ContentService,
    private readonly attachments: AttachmentService,
    private readonly imports: ImportService,
  ) {}

  /**
   * The document (or documentPro) as Markdown: what the Markdown export writes, except that images are links
   * (the file's own images to their attachment URL on `serviceOrigin`) instead of embedded data.
   */
  async markdown(appId: string, fileId: string, serviceOrigin: string): Promise<string> {
    const kind = await this.content.kindOf(appId, fileId);
    requireRichText(kind, fileId);
    const blocks = mapImages(toProseMirrorNodes(richTextOf(await this.content.read(appId, fileId))), (src) => new URL(src, serviceOrigin).href);
    return new TextDecoder().decode(toMarkdown({ kind: 'richText', title: '', blocks, images: {} }, UNWATCHED));
  }

  /**
   * Appends `markdown` at the end of the document as one change, recorded at once: a new version, its
   * FileContent event and an edit history entry, whose id answers (`tid`). Pictures embedded as data: URIs
   * become image attachments of the file (PNG, JPEG, GIF, WebP within the upload limit; others are left out).
   */
  async appendMarkdown(appId: string, fileId: string, actor: ContentActor, markdown: string): Promise<{ tid: string; version: number }> {
    requireRichText(await this.content.kindOf(appId, fileId), fileId);
    if (markdown.trim() === '') throw new ApiError(Errors.invalidComposeParams, 'content holds no Markdown to append (it is blank)');
    // the import's reader, in its converter thread: a large Markdown text does not hold up other requests
    const read = await this.imports.readContent(Buffer.from(markdown, 'utf8'), 'md', new AbortController().signal, () => undefined);
    const { images } = read;
    const parsed = docFromState(read.state);
    let nodes: ProseMirrorNode[];
    try {
      nodes = toProseMirrorNodes(richTextOf(parsed));
    } finally {
      parsed.destroy();
    }
    const stored = new Set(
      images.length === 0
        ? []
        : await this.storage.db.transaction().execute((trx) => this.attachments.storeImported(trx, { appId, fileId, userId: actor.userId, images })),
    );
    const extracted = new Set(images.map((image) => image.guid));
    const blocks = mapImages(nodes, (src) => {
      const guid = attachmentGuidOf(src);
      return guid !== undefined && extracted.has(guid) && !stored.has(guid) ? undefined : src;
    });
    await this.content.change(appId, fileId, actor, (doc) => {
      const body = richTextOf(doc);
      body.insert(body.length, toYNodes(blocks));
    });
    const recorded = await this.content.flush(appId, fileId);
    if (recorded) return { tid: recorded.historyId, version: recorded.version };
    // recorded by another process's recovery meanwhile: the newest entry holds this change
    const latest = await this.storage.db
      .selectFrom('content_history')
      .select(['id', 'version'])
      .where('app_id', '=', appId)
      .where('file_id', '=', fileId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    return { tid: latest.id, version: Number(latest.version) };
  }
}
