import * as Y from 'yjs';
import { ApiError, Errors } from '../../errors.js';
import type { Storage } from '../../storage/database.js';
import type { App } from '../../apps/app.js';
import { attachmentGuidOf, attachmentPath, type AttachmentService } from '../attachments/attachment-service.js';
import type { CollabFile, FileService } from '../files/file-service.js';
import { mentionsOfContent } from './mentions.js';
import type { ContentActor } from './collaboration-context.js';
import type { ContentService } from './content-service.js';
import { imageReferencesOf } from './image-references.js';
import { docFromState, richTextOf, type ContentKind } from '../../model/content.js';
import { plainTextOf } from './plain-text.js';
import { bookmarksIn, InvalidFragment, paragraphsFromText, parseFragment, richTextToPlain, toYNodes, type ProseMirrorNode } from '../../model/rich-text/schema.js';
import { countKeywords, countWords } from './word-count.js';

export interface BookmarkReplacement {
  bookmark: string;
  type: 'text' | 'document';
  /** text: the new text (one paragraph per line); document: ProseMirror JSON (object, array or its JSON text) */
  value: unknown;
}

/**
 * The backend API's operations on a collaborative file's content (spec 4.2 "Common", "Bookmarks", copy).
 * Callers have checked the integrator's permission; these take plain ids and the acting user.
 */
export class CollabFileService {
  constructor(
    private readonly storage: Storage,
    private readonly files: FileService,
    private readonly content: ContentService,
    private readonly attachments: AttachmentService,
  ) {}

  /** Reads the file's current content with `use` (a shared document: read it, never change it). */
  private async withContent<T>(appId: string, fileId: string, use: (doc: Y.Doc, kind: ContentKind) => T): Promise<T> {
    const kind = await this.content.kindOf(appId, fileId);
    return use(await this.content.read(appId, fileId), kind);
  }

  /**
   * Creates `targetId` as a full, independent copy of `sourceId`'s content (same type), with its own copies of
   * the images the content shows (docs/ATTACHMENTS.md). A target that exists is refused (70012) and nothing
   * changes; the file, its content and its images commit together, so a failure or a crash leaves no copy behind.
   */
  async copy(app: App, sourceId: string, targetId: string, actor: ContentActor): Promise<CollabFile> {
    const kind = await this.content.kindOf(app.id, sourceId);
    if (targetId === sourceId) throw new ApiError(Errors.fileExists, `file ${targetId} already exists`);
    const source = await this.content.read(app.id, sourceId);
    const state = Y.encodeStateAsUpdate(source);
    const guids = imageReferencesOf(source, kind).flatMap((reference) => attachmentGuidOf(reference.src) ?? []);
    return this.storage.db.transaction().execute(async (trx) => {
      const created = await this.files.create(app, { fileId: targetId, type: kind, createdBy: actor.userId }, trx);
      const renamed = await this.attachments.copyTo(trx, app.id, targetId, guids);
      await this.content.initialize(trx, app.id, targetId, kind, renamed.size === 0 ? state : withImagesRenamed(state, kind, renamed));
      return created;
    });
  }

  plainText(appId: string, fileId: string): Promise<string> {
    return this.withContent(appId, fileId, (doc, kind) => plainTextOf(doc, kind));
  }

  async wordCount(appId: string, fileId: string, keywords: readonly string[]): Promise<{ wordCount: number; keywords: Record<string, number> }> {
    const text = await this.plainText(appId, fileId);
    return { wordCount: countWords(text), keywords: countKeywords(text, keywords) };
  }

  /** Users mentioned in the file (documents, and presentation text boxes), in reading order. */
  mentions(appId: string, fileId: string): Promise<Array<{ userId: string; atGuid: string }>> {
    return this.withContent(appId, fileId, (doc, kind) => mentionsOfContent(doc, kind).map(({ userId, atGuid }) => ({ userId, atGuid })));
  }

  /** Text under the named bookmarks (all bookmarks in document order when `names` is empty). */
  bookmarks(appId: string, fileId: string, names: readonly string[]): Promise<Array<{ bookmark: string; content: string }>> {
    return this.withContent(appId, fileId, (doc, kind) => {
      requireDocumentPro(kind, fileId);
      const found = bookmarksIn(richTextOf(doc));
      const wanted = names.length > 0 ? [...new Set(names)] : [...found.keys()];
      requireBookmarks(found, wanted);
      return wanted.map((name) => ({ bookmark: name, content: richTextToPlain(found.get(name)!) }));
    });
  }

  /**
   * Replaces the content under each named bookmark, all in one change: every replacement is validated and
   * every bookmark must exist before anything is written (otherwise nothing changes).
   */
  async replaceBookmarks(appId: string, fileId: string, actor: ContentActor, replacements: readonly BookmarkReplacement[]): Promise<void> {
    requireDocumentPro(await this.content.kindOf(appId, fileId), fileId);
    const seen = new Set<string>();
    const parsed = replacements.map((replacement, index): { bookmark: string; nodes: ProseMirrorNode[] } => {
      if (seen.has(replacement.bookmark)) {
        throw new ApiError(Errors.invalidContentParams, `replacements[${index}]: bookmark ${replacement.bookmark} is replaced twice`);
      }
      seen.add(replacement.bookmark);
      return { bookmark: replacement.bookmark, nodes: replacementNodes(replacement, index) };
    });
    await this.content.change(appId, fileId, actor, (doc) => {
      const found = bookmarksIn(richTextOf(doc));
      requireBookmarks(found, parsed.map((entry) => entry.bookmark));
      for (const { bookmark, nodes } of parsed) {
        const element = found.get(bookmark)!;
        if (element.length > 0) element.delete(0, element.length);
        element.insert(0, toYNodes(nodes));
      }
    });
  }
}

function requireDocumentPro(kind: ContentKind, fileId: string): void {
  if (kind !== 'documentPro') throw new ApiError(Errors.fileTypeUnsupported, `file ${fileId} is a ${kind}: bookmarks exist in documentPro files only`);
}

function requireBookmarks(found: Map<string, Y.XmlElement>, names: readonly string[]): void {
  const missing = names.filter((name) => !found.has(name));
  if (missing.length > 0) {
    throw new ApiError(Errors.bookmarkNotFound, `bookmark${missing.length > 1 ? 's' : ''} not found: ${missing.join(', ')}`, { missing });
  }
}

function replacementNodes(replacement: BookmarkReplacement, index: number): ProseMirrorNode[] {
  if (replacement.type === 'text') {
    if (typeof replacement.value !== 'string') throw new ApiError(Errors.invalidContentParams, `replacements[${index}].value must be a string for type text`);
    return paragraphsFromText(replacement.value);
  }
  let value = replacement.value;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value) as unknown;
    } catch {
      throw new ApiError(Errors.invalidContentParams, `replacements[${index}].value is not ProseMirror JSON`);
    }
  }
  try {
    return parseFragment(value);
  } catch (error) {
    if (error instanceof InvalidFragment) throw new ApiError(Errors.invalidContentParams, `replacements[${index}].value: ${error.message}`);
    throw error;
  }
}

/** `state` with every image path that names a renamed attachment pointing at its new guid. */
function withImagesRenamed(state: Uint8Array, kind: ContentKind, renamed: ReadonlyMap<string, string>): Uint8Array {
  const doc = docFromState(state);
  try {
    doc.transact(() => {
      for (const reference of imageReferencesOf(doc, kind)) {
        const copied = renamed.get(attachmentGuidOf(reference.src) ?? '');
        if (copied) reference.set(attachmentPath(copied));
      }
    });
    return Y.encodeStateAsUpdate(doc);
  } finally {
    doc.destroy();
  }
}
