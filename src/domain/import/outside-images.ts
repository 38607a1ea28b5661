import * as Y from 'yjs';
import { attachmentPath, type AttachmentService } from '../attachments/attachment-service.js';
import type { ContentActor } from '../content/collaboration-context.js';
import type { ContentService, RecordHook } from '../content/content-service.js';
import { imageReferencesOf } from '../content/image-references.js';
import type { ContentKind } from '../../model/content.js';
import type { OutboundPolicy } from '../../net/outbound-policy.js';
import type { Storage } from '../../storage/database.js';
import type { ExtractedImage } from './conversion.js';
import { fetchFileUrl, IMAGE_URL_ERRORS } from './file-url.js';

/**
 * Images only from the service (docs/ATTACHMENTS.md "Outside images"): an image whose `src` is an outside
 * http(s) address, however it got into the content (an editor, the collaboration socket, an API write, an
 * import, a slide's image box), is fetched once through the outbound policy and stored as an image attachment
 * of its file; the content then names the attachment. Readers' browsers never load an outside address (the
 * editor page's Content-Security-Policy allows images from the service alone), so no editor of a file can
 * learn who reads it and when. `SVC_OUTSIDE_IMAGES=allow` leaves outside addresses as they are and lets
 * browsers load them.
 */

/** `store` (default): outside images become attachments; `allow`: they stay outside and browsers load them. */
export type OutsideImagesMode = 'store' | 'allow';

export interface OutsideImagesOptions {
  mode: OutsideImagesMode;
  /** largest image fetched, bytes (the upload limit) */
  limitBytes: number;
  /** deadline of one fetch, ms */
  timeoutMs: number;
}

/** Addresses that failed once and are not fetched again by this process (a bounded memory, oldest forgotten first). */
const FAILED_KEPT = 10_000;
/** Kinds whose content shows images by address (spreadsheets keep cell images as attachments already). */
const IMAGE_KINDS: readonly ContentKind[] = ['document', 'documentPro', 'presentation'];

/** Whether `src` is an outside address a browser would fetch (http or https). */
export function isOutsideAddress(src: string): boolean {
  return /^https?:\/\//i.test(src.trim());
}

/** The outside addresses the content shows images from, each once. */
export function outsideAddressesOf(doc: Y.Doc, kind: ContentKind): string[] {
  return [...new Set(imageReferencesOf(doc, kind).map((reference) => reference.src).filter(isOutsideAddress))];
}

/** Points every image of `doc` showing an address of `fetched` at its attachment instead; returns how many changed. */
function pointAtAttachments(doc: Y.Doc, kind: ContentKind, fetched: ReadonlyMap<string, string>): number {
  let changed = 0;
  doc.transact(() => {
    for (const reference of imageReferencesOf(doc, kind)) {
      const guid = fetched.get(reference.src);
      if (guid === undefined) continue;
      reference.set(attachmentPath(guid));
      changed++;
    }
  });
  return changed;
}

/** Where failures are told (the service's log). */
export interface OutsideImagesLog {
  warn(details: Record<string, unknown>, message: string): void;
}

export class OutsideImages {
  private readonly failed = new Set<string>();
  private readonly running = new Map<string, Promise<void>>();

  constructor(
    private readonly deps: { outbound: OutboundPolicy; content: ContentService; attachments: AttachmentService; storage: Storage; options: OutsideImagesOptions },
    private readonly log: () => OutsideImagesLog,
  ) {}

  get mode(): OutsideImagesMode {
    return this.deps.options.mode;
  }

  /**
   * Fetches the images of `addresses` (each once; an address that failed before is not asked again) as
   * pictures to store; a failure is logged and leaves its address out. Nothing when outside images are allowed.
   */
  async fetch(addresses: readonly string[], signal: AbortSignal): Promise<Map<string, ExtractedImage>> {
    const fetched = new Map<string, ExtractedImage>();
    if (this.mode === 'allow') return fetched;
    for (const address of addresses) {
      if (this.failed.has(address)) continue;
      try {
        const data = await fetchFileUrl(address, {
          outbound: this.deps.outbound,
          limitBytes: this.deps.options.limitBytes,
          timeoutMs: this.deps.options.timeoutMs,
          signal,
          onProgress: () => undefined,
          errors: { ...IMAGE_URL_ERRORS, field: 'image address' },
        });
        fetched.set(address, { guid: crypto.randomUUID(), data, filename: imageName(address) });
      } catch (error) {
        if (signal.aborted) throw error;
        this.remember(address);
        this.log().warn({ err: error, address: addressForLog(address) }, 'outside image not fetched; it stays outside (browsers do not load it)');
      }
    }
    return fetched;
  }

  /**
   * An import's content before it is stored: its outside images fetched and named as attachments-to-be (they are
   * stored with the file's other pictures). Returns the new state and the pictures to store.
   */
  async importedContent(state: Uint8Array, kind: ContentKind, signal: AbortSignal): Promise<{ state: Uint8Array; images: ExtractedImage[] }> {
    if (this.mode === 'allow' || !IMAGE_KINDS.includes(kind)) return { state, images: [] };
    const doc = new Y.Doc();
    try {
      Y.applyUpdate(doc, state);
      const fetched = await this.fetch(outsideAddressesOf(doc, kind), signal);
      if (fetched.size === 0) return { state, images: [] };
      pointAtAttachments(doc, kind, new Map([...fetched].map(([address, image]) => [address, image.guid])));
      return { state: Y.encodeStateAsUpdate(doc), images: [...fetched.values()] };
    } finally {
      doc.destroy();
    }
  }

  /**
   * The record hook that catches outside images written to stored content (socket, API): after each recorded
   * burst that shows some, they are fetched and stored in the background, one run per file at a time.
   */
  recordHook(): RecordHook {
    return {
      name: 'outside-images',
      kinds: IMAGE_KINDS,
      onRecord: async ({ appId, fileId, kind, doc, actor }) => {
        if (this.mode === 'store' && outsideAddressesOf(doc, kind).some((address) => !this.failed.has(address))) this.adoptLater(appId, fileId, kind, actor);
        return [];
      },
    };
  }

  /** Resolves when every background run started so far has ended (tests; shutdown). */
  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running.values()]);
  }

  private adoptLater(appId: string, fileId: string, kind: ContentKind, actor: ContentActor): void {
    const key = `${appId}\n${fileId}`;
    const previous = this.running.get(key) ?? Promise.resolve();
    const run = previous
      .then(() => this.adopt(appId, fileId, kind, actor))
      .catch((error: unknown) => this.log().warn({ err: error, appId, fileId }, 'outside images of a file not stored'))
      .finally(() => {
        if (this.running.get(key) === run) this.running.delete(key);
      });
    this.running.set(key, run);
  }

  /** Fetches the file's outside images, stores them as its attachments, and points the content at them. */
  private async adopt(appId: string, fileId: string, kind: ContentKind, actor: ContentActor): Promise<void> {
    const addresses = outsideAddressesOf(await this.deps.content.read(appId, fileId), kind);
    const fetched = await this.fetch(addresses, AbortSignal.timeout(this.deps.options.timeoutMs * Math.max(1, addresses.length)));
    if (fetched.size === 0) return;
    const stored = new Set(await this.deps.attachments.storeImported(this.deps.storage.db, { appId, fileId, userId: actor.userId, images: [...fetched.values()] }));
    const named = new Map<string, string>();
    for (const [address, image] of fetched) {
      if (stored.has(image.guid)) named.set(address, image.guid);
      else this.remember(address);
    }
    if (named.size === 0) return;
    await this.deps.content.change(appId, fileId, actor, (doc) => pointAtAttachments(doc, kind, named));
  }

  private remember(address: string): void {
    if (this.failed.size >= FAILED_KEPT) this.failed.delete(this.failed.values().next().value!);
    this.failed.add(address);
  }
}

/** A display name for an image fetched from `address`: the last path segment, else "image". */
function imageName(address: string): string {
  try {
    const last = new URL(address).pathname.split('/').filter(Boolean).pop();
    return last ? decodeURIComponent(last).slice(0, 200) : 'image';
  } catch {
    return 'image';
  }
}

/** The address without its query (which may carry someone's credentials) for a log line. */
function addressForLog(address: string): string {
  const query = address.indexOf('?');
  return query < 0 ? address : `${address.slice(0, query)}?…`;
}
