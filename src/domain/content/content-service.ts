import { Hocuspocus, type Document, type Extension } from '@hocuspocus/server';
import type { IncomingMessage } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import * as Y from 'yjs';
import { ApiError, Errors } from '../../errors.js';
import { collaboratorEvent, fileContentEvent } from '../../events/builders.js';
import type { PendingEvent } from '../../events/types.js';
import type { Db, Storage } from '../../storage/database.js';
import type { FileService } from '../files/file-service.js';
import { applyStored, applyStoredWithoutUpdateEvents, ContentMissing, ContentStore, type Appended, type StoredContent } from '../../storage/content-store.js';
import { DecodedCache, DEFAULT_CONTENT_CACHE_BYTES } from './decoded-cache.js';
import { initialContent, isContentKind, SHEET_MODEL_VERSION, type ContentKind } from '../../model/content.js';
import { spreadsheetModelVersion, upgradeSpreadsheet } from '../../model/sheets/sheet-model.js';
import { calculationBytes } from '../../model/sheets/formulas/index.js';
import { SessionAccess, type AccessSource, type SessionPermissions } from './session-access.js';
import type { CollaborationContext, ContentActor } from './collaboration-context.js';
import { installCoalescedBroadcast } from './coalesced-broadcast.js';
import { refuseLockedUpdate } from './lock-enforcement.js';
import { dropTrialCopy } from './trial-copy.js';
import { refuseUnsuggestedUpdate } from './suggestion-enforcement.js';
import { BroadcastGuard, CollaboratorEvents, FILE_DELETED_CLOSE_CODE, Persistence, SessionGate, type LiveDocumentStore } from './collaboration-extensions.js';

/** Where content events go: the transactional outbox (src/events/outbox.ts). */
export interface EventSink {
  add(db: Db, events: PendingEvent | PendingEvent[]): Promise<unknown>;
}

/**
 * Carries live documents' changes to the editors on the other service processes (src/cluster: Redis). Without
 * one, or while it is not connected, live documents poll storage for what other processes appended.
 */
export interface CollaborationFanout {
  /** the Hocuspocus extension of one application's collaboration server */
  extension(appId: string): Extension;
  /** whether changes reach the other processes now */
  connected(): boolean;
  /** Gives the editors of the file on the other processes an update stored here to a copy of it that is not live here. */
  update(appId: string, fileId: string, update: Uint8Array): void;
  /** Gives the editors of the file on the other processes a stateless message (no live copy here to carry it). */
  broadcastStateless(appId: string, fileId: string, payload: string): void;
}

export interface ContentOptions {
  /** quiet time after the last change before the change is recorded (history entry, version, FileContent event) */
  coalesceMs: number;
  /** a continuous burst of edits is still recorded at least this often */
  coalesceMaxMs: number;
  /** how often a live document picks up updates written by other service processes */
  pollMs: number;
  /** how often an open session's permissions are asked again */
  permissionRecheckMs: number;
  /** a page's own requests for a recheck (`svc:recheck-access`) are served at most this often per connection */
  permissionRequestIntervalMs?: number;
  /** log entries of a file that trigger compaction into its snapshot */
  compactAfter: number;
  /** memory for decoded documents of files no editor has open, kept between reads (see DecodedCache) */
  cacheBytes?: number;
  /** history entries of a file that keep their content snapshot, newest first (default DEFAULT_HISTORY_SNAPSHOTS) */
  historySnapshots?: number;
  /** several processes: how live documents reach the others (else they poll storage) */
  fanout?: CollaborationFanout | undefined;
}

/**
 * History entries of a file that keep their full content snapshot (README "History retention"): the newest
 * ones, and always those a revision names. Older entries stay in the edit history without content.
 */
export const DEFAULT_HISTORY_SNAPSHOTS = 100;
/** Entries whose snapshot one recording drops at most (one, in the steady state; more after the bound is lowered). */
const PRUNED_PER_RECORD = 500;


/**
 * What a recording hook is given: the burst of edits being recorded as a new version, inside the recording
 * transaction.
 */
export interface RecordContext {
  /** the recording transaction: what the hook writes commits (or rolls back) with the version and history entry */
  db: Db;
  appId: string;
  fileId: string;
  kind: ContentKind;
  /**
   * The content being recorded: the document the history snapshot was encoded from (not decoded again).
   * Never change it. A live document keeps receiving editors' updates, so one that arrived since the
   * snapshot may show; read what you need before your first await.
   */
  doc: Y.Doc;
  /** the burst's last editor (token when the change came with one) */
  actor: ContentActor;
  /** the new version of the file */
  version: number;
  historyType: HistoryTypeValue;
}

/**
 * An extension point of the recording of a burst (Hocuspocus-style): runs in the transaction that bumps the
 * version and queues FileContent; the events it returns are queued in the outbox in that transaction, after
 * FileContent. A hook that throws rolls the whole record back. Registered with `ContentService.addRecordHook`.
 */
export interface RecordHook {
  /** for logs */
  name: string;
  /** file kinds the hook concerns: for other kinds it is not called and nothing is computed */
  kinds: readonly ContentKind[];
  onRecord(context: RecordContext): Promise<PendingEvent[]>;
}

export const DEFAULT_CONTENT_OPTIONS: ContentOptions = { coalesceMs: 2000, coalesceMaxMs: 10_000, pollMs: 1000, compactAfter: 500, permissionRecheckMs: 60_000 };

/** History entry kinds (content_history.history_type, doc-sidebar-info `historyType`). */
export const HistoryType = { edit: 1, restore: 2, revision: 3 } as const;
export type HistoryTypeValue = (typeof HistoryType)[keyof typeof HistoryType];

/** Files checked for unrecorded changes that one process remembers (then it starts over). */
const RECOVERY_CHECKS_KEPT = 100_000;
/** Extra wait beyond the coalescing window before stored-but-unrecorded updates count as abandoned. */
const RECOVERY_MARGIN_MS = 5000;

/** WebSocket close code sent to every editor when the process stops: reconnect (to another process). */
export const SERVICE_RESTART_CLOSE_CODE = 1012;
/** Wait before storing an editor's update again after a storage failure; it doubles up to STORE_RETRY_MAX_MS. */
const STORE_RETRY_FIRST_MS = 50;
const STORE_RETRY_MAX_MS = 5000;
/** Default of ContentOptions.permissionRequestIntervalMs. */
const PERMISSION_REQUEST_INTERVAL_MS = 2000;

/** Transaction origins of updates that are already stored: they must not be stored again. */
const FROM_STORAGE = Symbol('content loaded from storage');

interface LiveState {
  appId: string;
  fileId: string;
  kind: ContentKind;
  /** highest log seq applied to the live document */
  seenSeq: number;
  catchingUp: Promise<void> | undefined;
}

interface PendingRecord {
  appId: string;
  fileId: string;
  actors: Map<string, ContentActor>;
  lastActor: ContentActor;
  historyType: HistoryTypeValue;
  firstAt: number;
  timer: NodeJS.Timeout;
}

export interface RecordedChange {
  historyId: string;
  version: number;
}

function key(appId: string, fileId: string): string {
  return `${appId}\n${fileId}`;
}

/**
 * The content engine: one Yjs document per collaborative file, shared by real-time editors (Hocuspocus,
 * one instance per application so fileIds of different apps never meet) and the backend API.
 *
 * Durability: every update is appended to the file's log before it is acknowledged (editors: before the
 * Hocuspocus SyncStatus answer; API: before `change` resolves). Live documents get what editors on other
 * service processes change through the fan-out (Redis) when there is one, else by polling storage, so editors
 * connected to either see everything. Only the process that received a change stores and records it. Changes are recorded (version,
 * history entry, FileContent event) once per burst, `coalesceMs` after the last update.
 */
export class ContentService {
  readonly store: ContentStore;
  private readonly servers = new Map<string, Hocuspocus>();
  private readonly live = new WeakMap<Y.Doc, LiveState>();
  private readonly pending = new Map<string, PendingRecord>();
  /** recordings of pending changes under way, by file: a flush asked meanwhile waits for the file's */
  private readonly recordings = new Map<string, Promise<RecordedChange | undefined>>();
  private readonly inFlight = new Set<Promise<unknown>>();
  /** files whose log is being merged into the snapshot (compactWhenLong starts one at a time) */
  private readonly compacting = new Set<string>();
  private readonly recoveryChecked = new Set<string>();
  /** recovery checks waiting for a coalescing window to pass */
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly recordHooks: RecordHook[] = [];
  private readonly decoded: DecodedCache;
  /** open sessions whose permissions are checked again (every permissionRecheckMs, or when their page asks) */
  private readonly access: SessionAccess;
  private poller: NodeJS.Timeout | undefined;
  /** whether the fan-out was connected at the last poll: the first poll after it connects still catches up */
  private fanoutWasConnected = false;
  private closed = false;

  constructor(
    private readonly storage: Storage,
    private readonly files: FileService,
    private readonly outbox: EventSink,
    private readonly options: ContentOptions = DEFAULT_CONTENT_OPTIONS,
    private log?: FastifyBaseLogger,
  ) {
    this.store = new ContentStore(storage);
    // one frame per document per round of input to each editor, not one per update (coalesced-broadcast.ts)
    installCoalescedBroadcast();
    this.decoded = new DecodedCache(options.cacheBytes ?? DEFAULT_CONTENT_CACHE_BYTES);
    this.access = new SessionAccess(
      { recheckMs: options.permissionRecheckMs, requestIntervalMs: options.permissionRequestIntervalMs ?? PERMISSION_REQUEST_INTERVAL_MS },
      (work) => void this.track(work),
      () => this.log,
    );
  }

  /** Adds a hook run whenever a burst of edits is recorded as a new version (see RecordHook). */
  addRecordHook(hook: RecordHook): void {
    this.recordHooks.push(hook);
  }

  /** Logs through the server's logger once there is one. */
  setLogger(log: FastifyBaseLogger): void {
    this.log = log;
  }

  // -------------------------------------------------------------------------------------------------
  // Reading and changing

  /**
   * Whether a collaboration session of the file carries content (a content kind) or presence only (a table
   * base); a clear error when the file is missing.
   */
  async sessionKind(appId: string, fileId: string): Promise<ContentKind | 'presence'> {
    const file = await this.files.get(appId, fileId);
    return file.type === 'table' ? 'presence' : this.kindOf(appId, fileId);
  }

  /** The file's kind, or a clear error when the file is missing or keeps no content here (table). */
  async kindOf(appId: string, fileId: string): Promise<ContentKind> {
    const file = await this.files.get(appId, fileId);
    if (!isContentKind(file.type)) {
      throw new ApiError(Errors.fileTypeUnsupported, `file ${fileId} is a ${file.type}: its data lives in the table API, not in collaborative content`);
    }
    return file.type;
  }

  /**
   * The file's current content: the live document when editors have it open (brought up to date with
   * other processes), else the recently decoded document (brought up to date with storage) or one built
   * from storage. The caller must neither change nor destroy it: it is shared.
   */
  async read(appId: string, fileId: string): Promise<Y.Doc> {
    return this.current(appId, fileId, await this.kindOf(appId, fileId));
  }

  /**
   * The content as stored, from the decoded copy kept for reads (caught up with storage, or built from it),
   * never waiting for a live document to load nor computing its formulas again: for a read that may be a
   * moment behind the editors' last keystrokes, such as the spreadsheet's first screen (docs/BROWSER.md
   * "First screen"). Shared: read it, never change or destroy it.
   */
  async readStored(appId: string, fileId: string): Promise<Y.Doc> {
    return (await this.loadDetached(appId, fileId, await this.kindOf(appId, fileId))).doc;
  }

  private async current(appId: string, fileId: string, kind: ContentKind): Promise<Y.Doc> {
    return (await this.currentAt(appId, fileId, kind)).doc;
  }

  /** The current content and the highest update seq it is known to hold (it may hold later ones too). */
  private async currentAt(appId: string, fileId: string, kind: ContentKind): Promise<{ doc: Y.Doc; seq: number }> {
    const live = await this.liveDocument(appId, fileId);
    if (live) {
      await this.catchUp(live);
      const state = this.live.get(live);
      if (state) return { doc: live, seq: state.seenSeq };
    }
    return this.loadDetached(appId, fileId, kind);
  }

  /**
   * Applies `mutate` as one Yjs transaction and stores it durably before resolving; it counts as a content
   * change (version, coalesced FileContent event, history). `mutate` runs first on a scratch copy, so if it
   * throws nothing is applied anywhere, unless `checkedFirst` says of the document that `mutate` checks
   * everything that can make it fail before its first write: then it runs on the document itself (see
   * changeInPlace), since the copy costs as much as loading the document (an encode and a decode of all of it).
   */
  async change<T>(
    appId: string,
    fileId: string,
    actor: ContentActor,
    mutate: (doc: Y.Doc) => T,
    historyType: HistoryTypeValue = HistoryType.edit,
    checkedFirst?: (doc: Y.Doc) => boolean,
  ): Promise<T> {
    const kind = await this.kindOf(appId, fileId);
    const live = await this.liveDocument(appId, fileId);
    if (live) await this.catchUp(live);
    const base = live ?? (await this.loadDetached(appId, fileId, kind)).doc;
    if (checkedFirst?.(base)) return this.changeInPlace(appId, fileId, actor, base, live, mutate, historyType);

    const scratch = new Y.Doc();
    Y.applyUpdate(scratch, Y.encodeStateAsUpdate(base));
    const updates: Uint8Array[] = [];
    scratch.on('update', (update: Uint8Array) => updates.push(update));
    let result: T;
    try {
      result = scratch.transact(() => mutate(scratch), actor);
    } finally {
      scratch.destroy();
    }
    if (updates.length > 0) {
      const update = Y.mergeUpdates(updates);
      const appended = await this.store.append(appId, fileId, update, actor.userId);
      if (live) {
        Y.applyUpdate(live, update, FROM_STORAGE);
        const state = this.live.get(live);
        if (state) markSeen(state, appended.seq);
      } else {
        this.keepDecodedCurrent(appId, fileId, update, appended.seq);
        this.options.fanout?.update(appId, fileId, update);
      }
      this.changed(appId, fileId, actor, historyType, appended);
    }
    return result;
  }

  /**
   * `change` on the document itself (the live one, or the decoded one kept for reads): `mutate` has checked
   * everything before its first write, so a throw leaves nothing written and nothing is stored. Should it throw
   * after writing all the same, what it wrote is not stored and the decoded document is dropped (the next read
   * rebuilds it from storage); a live document has sent it to its editors already, so it is stored as theirs
   * would be. A live document's change reaches its editors as it is made and is stored as their updates are
   * (retried until stored); a decoded document's is dropped with it when storing fails.
   */
  private async changeInPlace<T>(
    appId: string,
    fileId: string,
    actor: ContentActor,
    base: Y.Doc,
    live: Document | undefined,
    mutate: (doc: Y.Doc) => T,
    historyType: HistoryTypeValue,
  ): Promise<T> {
    const updates: Uint8Array[] = [];
    const collect = (update: Uint8Array) => updates.push(update);
    base.on('update', collect);
    let result: T;
    let failure: { error: unknown } | undefined;
    try {
      result = base.transact(() => mutate(base), actor);
    } catch (error) {
      failure = { error };
    } finally {
      base.off('update', collect);
    }
    const state = live && this.live.get(live);
    if (updates.length > 0) {
      const update = Y.mergeUpdates(updates);
      if (state) {
        if (failure) this.log?.error({ err: failure.error, appId, fileId }, 'a checked change failed after writing to the live document; what it wrote is stored');
        const appended = await this.appendApplied(state, update, actor);
        markSeen(state, appended.seq);
        this.changed(appId, fileId, actor, historyType, appended);
      } else if (failure) {
        this.decoded.delete(key(appId, fileId));
      } else {
        let appended: Appended;
        try {
          appended = await this.store.append(appId, fileId, update, actor.userId);
        } catch (error) {
          this.decoded.delete(key(appId, fileId));
          throw error;
        }
        this.keepDecodedCurrent(appId, fileId, update, appended.seq, base);
        this.options.fanout?.update(appId, fileId, update);
        this.changed(appId, fileId, actor, historyType, appended);
      }
    }
    if (failure) throw failure.error;
    return result!;
  }

  /** A change stored: recorded after its burst, and the log compacted when it holds `compactAfter` updates. */
  private changed(appId: string, fileId: string, actor: ContentActor, historyType: HistoryTypeValue, appended: Appended): void {
    this.markChanged(appId, fileId, actor, historyType);
    this.compactWhenLong(appId, fileId, appended.logged);
  }

  /** Full encoded state of the file's current content. */
  async state(appId: string, fileId: string): Promise<Uint8Array> {
    return Y.encodeStateAsUpdate(await this.read(appId, fileId));
  }

  /** Whether `doc` (from `read`) is the live document of editors connected to this process. */
  isLive(doc: Y.Doc): boolean {
    return this.live.has(doc);
  }

  /** Gives a new file its first content: `state` (a copy) or the kind's initial content. */
  async initialize(db: Db, appId: string, fileId: string, kind: ContentKind, state?: Uint8Array): Promise<void> {
    await this.store.initialize(db, appId, fileId, state ?? initialContent(kind));
  }

  /**
   * The content of a file no editor has open on this process: the cached decoded document when storage
   * holds nothing newer (one indexed read of the file's update counter), brought up to date with the
   * updates stored since; else built from storage and cached.
   */
  private async loadDetached(appId: string, fileId: string, kind: ContentKind): Promise<{ doc: Y.Doc; seq: number }> {
    const id = key(appId, fileId);
    const cached = this.decoded.get(id);
    if (cached) {
      // the formula engine built as the document is read counts in the budget with it (measured at each use)
      this.decoded.derived(id, calculationBytes(cached.doc));
      const head = await this.store.head(appId, fileId);
      if (head && head.updateSeq <= cached.seq) return { doc: cached.doc, seq: cached.seq };
      // a compaction past the cached seq deleted the log entries it would need: rebuild
      if (head && head.snapshotSeq <= cached.seq) {
        const updates = await this.store.updatesAfter(appId, fileId, cached.seq);
        if (updates.length === 0 || updates[0]!.seq === cached.seq + 1) {
          applyStored(cached.doc, { snapshot: Y.encodeStateAsUpdate(new Y.Doc()), updates, snapshotSeq: cached.seq, seq: cached.seq }, FROM_STORAGE, this.badEntry(appId, fileId));
          const seq = updates.at(-1)?.seq ?? cached.seq;
          this.decoded.grew(id, seq, updates.reduce((sum, entry) => sum + entry.update.byteLength, 0));
          return { doc: cached.doc, seq };
        }
      }
      this.decoded.delete(id);
    }
    const { content } = await this.loadStored(appId, fileId, kind);
    const doc = new Y.Doc();
    applyStored(doc, content, FROM_STORAGE, this.badEntry(appId, fileId));
    await this.upgradeLoaded(appId, fileId, kind, doc);
    // the conversion's own seq is not taken as seen: an update another process stored meanwhile would be skipped
    const seq = content.seq;
    this.decoded.set(id, doc, seq);
    return { doc, seq };
  }

  /**
   * Converts a spreadsheet stored in an older grid model to the current one (upgradeSpreadsheet,
   * docs/CONTENT-MODEL.md "Grid model versions") right after it is loaded, in one transaction, and stores the
   * conversion as an update of its own: done once per file by whichever process loads it first (two at once
   * converge, one conversion's keys winning whole). It is stored without a user and not marked as a change
   * here. The caller keeps the seq it loaded as the one seen: reading the conversion back later applies nothing.
   */
  private async upgradeLoaded(appId: string, fileId: string, kind: ContentKind, doc: Y.Doc): Promise<void> {
    if (kind !== 'spreadsheet' || spreadsheetModelVersion(doc) >= SHEET_MODEL_VERSION) return;
    const updates: Uint8Array[] = [];
    const collect = (update: Uint8Array) => updates.push(update);
    doc.on('update', collect);
    try {
      upgradeSpreadsheet(doc, FROM_STORAGE);
    } finally {
      doc.off('update', collect);
    }
    if (updates.length > 0) await this.store.append(appId, fileId, Y.mergeUpdates(updates), null);
  }

  /**
   * A change made here to a file no editor has open reaches its cached document at once (`madeOn`: the document
   * the change was made on, which holds it already).
   */
  private keepDecodedCurrent(appId: string, fileId: string, update: Uint8Array, seq: number, madeOn?: Y.Doc): void {
    const id = key(appId, fileId);
    const cached = this.decoded.get(id);
    if (!cached) return;
    if (cached.doc !== madeOn) Y.applyUpdate(cached.doc, update, FROM_STORAGE);
    // another process's update in between is not in the document yet: the next read catches it up
    if (seq === cached.seq + 1) this.decoded.grew(id, seq, update.byteLength);
  }

  /**
   * The document the last editor closed becomes the decoded document kept for reads (its formulas computed): the
   * next read without editors finds it current instead of decoding the file from storage again. It holds the log
   * up to the seq it had seen; a read catches up what other processes stored since.
   */
  private keepUnloaded(appId: string, fileId: string, document: Document): void {
    const state = this.live.get(document);
    if (!state) return;
    this.live.delete(document);
    dropTrialCopy(document);
    this.decoded.set(key(appId, fileId), document, state.seenSeq);
  }

  private async loadStored(appId: string, fileId: string, kind: ContentKind): Promise<{ content: StoredContent }> {
    let content = await this.store.load(appId, fileId);
    if (!content) {
      await this.store.initialize(this.storage.db, appId, fileId, initialContent(kind));
      content = await this.store.load(appId, fileId);
      if (!content) throw new ApiError(Errors.fileNotFound, `file ${fileId} not found`);
    }
    this.recoverUnrecorded(appId, fileId);
    return { content };
  }

  /**
   * Records what a process that stopped abruptly stored and acknowledged but never recorded (version, history
   * entry, FileContent event): the updates after the file's `recorded_seq`. They are left alone while the
   * process that stored them might still record them (the coalescing window and a margin after the last one),
   * and looked at again when that time has passed, so a crash within the window loses nothing. Recording
   * advances `recorded_seq` conditionally (see record), so an edit is recorded exactly once however many
   * processes recover it, and by whom.
   */
  private recoverUnrecorded(appId: string, fileId: string): void {
    const id = key(appId, fileId);
    if (this.recoveryChecked.has(id) || this.closed) return;
    if (this.recoveryChecked.size >= RECOVERY_CHECKS_KEPT) this.recoveryChecked.clear();
    this.recoveryChecked.add(id);
    const work = (async () => {
      const head = await this.store.recordingHead(appId, fileId);
      if (!head || head.updateSeq <= head.recordedSeq || this.pending.has(id)) return;
      const last = await this.store.lastUpdateAfter(appId, fileId, head.recordedSeq);
      // compacted away: the snapshot's time stands for the updates it took in
      const lastAt = last?.createdAt ?? head.updatedAt;
      const abandonedAt = lastAt + this.options.coalesceMaxMs + this.options.coalesceMs + RECOVERY_MARGIN_MS;
      if (Date.now() < abandonedAt) {
        this.recoveryChecked.delete(id);
        this.later(abandonedAt - Date.now(), () => this.recoverUnrecorded(appId, fileId));
        return;
      }
      if (this.pending.has(id)) return;
      this.log?.info({ appId, fileId }, 'recording content changes left unrecorded by a stopped process');
      this.markChanged(appId, fileId, { userId: last?.userId ?? '' }, HistoryType.edit);
    })().catch((error: unknown) => {
      this.recoveryChecked.delete(id);
      this.log?.error({ err: error, appId, fileId }, 'checking for unrecorded changes failed');
    });
    this.track(work);
  }

  /**
   * At start: every file with stored changes not yet recorded (left by a process that stopped abruptly) is
   * recovered, whether or not anyone opens it again.
   */
  async recoverAbandoned(): Promise<void> {
    for (const file of await this.store.unrecordedFiles()) this.recoverUnrecorded(file.appId, file.fileId);
  }

  /** Runs `work` after `ms` unless the service stops first. */
  private later(ms: number, work: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (!this.closed) work();
    }, ms);
    timer.unref();
    this.timers.add(timer);
  }

  private badEntry(appId: string, fileId: string) {
    return (seq: number, error: unknown) =>
      this.log?.error({ appId, fileId, seq, err: error }, 'stored content update does not decode; skipped');
  }

  // -------------------------------------------------------------------------------------------------
  // Live documents (Hocuspocus)

  /** Hands an accepted WebSocket to the application's collaboration server. */
  handleConnection(socket: WebSocket, request: IncomingMessage, context: CollaborationContext): void {
    this.serverFor(context.appId).handleConnection(socket, request, context);
  }

  /** Live document of the file if editors have it open (waits for one that is loading). */
  private async liveDocument(appId: string, fileId: string): Promise<Document | undefined> {
    const server = this.servers.get(appId);
    if (!server) return undefined;
    const loading = server.loadingDocuments.get(fileId);
    if (loading) return loading.catch(() => undefined);
    return server.documents.get(fileId);
  }

  /**
   * Sends a stateless message (Hocuspocus `sendStateless`) to the editors that have the file open, on this
   * process and (with a fan-out) on the others; the provider hands it to its `onStateless` callback. Nothing
   * happens when none has it open; a failure is logged, never thrown.
   */
  tellEditors(appId: string, fileId: string, message: string): void {
    try {
      const live = this.servers.get(appId)?.documents.get(fileId);
      // a live copy's broadcast reaches the other processes through the fan-out extension
      if (live) live.broadcastStateless(message);
      else this.options.fanout?.broadcastStateless(appId, fileId, message);
    } catch (error) {
      // the change it announces is committed: a socket that cannot take the message must not fail the request
      this.log?.warn({ err: error, appId, fileId }, 'telling open editors failed');
    }
  }

  /**
   * The integrator said permissions changed: the open sessions concerned (on this process) ask again now and
   * are told, downgraded or closed as their answers say (SessionAccess).
   */
  permissionsChanged(change: { appId: string; fileIds: readonly string[]; userIds: readonly string[] }): void {
    this.access.recheckNow(
      (session) =>
        session.appId === change.appId &&
        (change.fileIds.length === 0 || change.fileIds.includes(session.fileId)) &&
        (change.userIds.length === 0 || change.userIds.includes(session.userId)),
    );
  }

  /** Sends a stateless message to the open sessions on this process that `concerned` picks; returns how many took it. */
  tellSessions(concerned: (source: AccessSource) => boolean, message: (source: AccessSource) => string): number {
    return this.access.tell(concerned, message);
  }

  /** The file is gone: its open sessions on this process are told `message` and closed with FILE_DELETED_CLOSE_CODE. */
  endSessionsOfDeletedFile(appId: string, fileId: string, message: string): number {
    return this.access.end((source) => source.appId === appId && source.fileId === fileId, message, FILE_DELETED_CLOSE_CODE, 'file deleted');
  }

  /** Number of open collaboration connections on this process (all apps). */
  connectionCount(): number {
    let count = 0;
    for (const server of this.servers.values()) count += server.getConnectionsCount();
    return count;
  }

  private serverFor(appId: string): Hocuspocus {
    let server = this.servers.get(appId);
    if (!server) {
      server = new Hocuspocus({ name: `svc-${appId}`, quiet: true, extensions: this.extensions(appId) });
      this.servers.set(appId, server);
      this.startPolling();
    }
    return server;
  }

  /** One application's extensions, in the order their hooks run (collaboration-extensions.ts). */
  private extensions(appId: string): Extension[] {
    const logger = () => this.log;
    const documents: LiveDocumentStore = {
      load: async (document) => {
        // while editors have it open, reads use the live document; the decoded copy stays (within the cache's
        // budget) for `readStored`: the spreadsheet's first screen reads it, formulas computed, while this loads
        const kind = await this.kindOf(appId, document.name);
        const { content } = await this.loadStored(appId, document.name, kind);
        applyStoredWithoutUpdateEvents(document, content, FROM_STORAGE, this.badEntry(appId, document.name));
        await this.upgradeLoaded(appId, document.name, kind, document);
        this.live.set(document, { appId, fileId: document.name, kind, seenSeq: content.seq, catchingUp: undefined });
      },
      // tracked: a shutdown waits until an update being stored is stored
      persist: (document, update, actor, permissions) => this.track(this.persistIncoming(document, update, actor, permissions)),
      unloaded: (fileId, document) => {
        if (document) this.keepUnloaded(appId, fileId, document);
        void this.track(this.flush(appId, fileId).then(() => this.compact(appId, fileId, 1)));
      },
    };
    const fanout = this.options.fanout?.extension(appId);
    return [
      ...(fanout ? [fanout] : []),
      new BroadcastGuard(logger),
      new SessionGate(appId, this.access),
      new Persistence(documents, logger),
      new CollaboratorEvents((context, action, clientId) => this.track(this.emitCollaborator(context, action, clientId))),
    ];
  }

  /**
   * Applies a client's update to the live document and appends it to the log before Hocuspocus applies
   * (a no-op then) and acknowledges it. An update that Yjs refuses throws: the connection is closed and
   * nothing is stored. Updates that change nothing (a reconnecting client's sync) are not stored.
   *
   * An update that waits for one it builds on (Yjs keeps it pending) changes nothing yet but must be stored:
   * it is acknowledged. Yjs merges a second waiting update into the same pending object, so "did the
   * pending object change" cannot tell; whenever anything is pending, before or after, the update is stored
   * (storing a known update again is harmless: Yjs applies each item once).
   *
   * A spreadsheet update that a lock refuses to this user throws LockRefused first (lock-enforcement.ts), an update
   * of a user who may only suggest that does more SuggestingOnlyRefused (suggestion-enforcement.ts): nothing of it
   * is applied or stored.
   */
  private async persistIncoming(document: Document, update: Uint8Array, actor: ContentActor, permissions: SessionPermissions): Promise<void> {
    const state = this.live.get(document);
    if (!state) return;
    if (state.kind === 'spreadsheet') refuseLockedUpdate(document, update, { userId: actor.userId, manageable: permissions.manageable });
    else if (!permissions.editable) refuseUnsuggestedUpdate(document, update, actor.userId);
    let changed = hasPending(document);
    const detect = () => {
      changed = true;
    };
    document.on('update', detect);
    try {
      Y.applyUpdate(document, update, FROM_STORAGE);
    } finally {
      document.off('update', detect);
    }
    if (!changed && !hasPending(document)) return;
    const appended = await this.appendApplied(state, update, actor);
    // the live document has it already: the catch-up poll need not read it back from storage
    markSeen(state, appended.seq);
    this.changed(state.appId, state.fileId, actor, HistoryType.edit, appended);
  }

  /**
   * Appends an update that the live document already holds (and has sent to every editor): a storage
   * failure cannot take it back there, and the editor that sent it would not send it again after a
   * reconnect (the server's state already has it), so it is retried until stored (the acknowledgement
   * waits) and given up only when the service stops. A deleted file (ContentMissing) is not retried.
   */
  private async appendApplied(state: LiveState, update: Uint8Array, actor: ContentActor): Promise<Appended> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.store.append(state.appId, state.fileId, update, actor.userId);
      } catch (error) {
        if (error instanceof ContentMissing || this.closed) throw error;
        this.log?.error({ err: error, appId: state.appId, fileId: state.fileId, attempt }, 'storing an editor update failed; retrying');
        await new Promise((resolve) => setTimeout(resolve, Math.min(STORE_RETRY_MAX_MS, STORE_RETRY_FIRST_MS * 2 ** attempt)));
      }
    }
  }

  private startPolling(): void {
    if (this.poller || this.closed) return;
    this.poller = setInterval(() => {
      this.access.recheckDue();
      const connected = this.options.fanout?.connected() ?? false;
      const carried = connected && this.fanoutWasConnected;
      this.fanoutWasConnected = connected;
      if (carried) return;
      for (const server of this.servers.values()) {
        for (const document of server.documents.values()) {
          if (!document.isLoading) this.track(this.catchUp(document).catch((error) => this.log?.error({ err: error }, 'content catch-up failed')));
        }
      }
    }, this.options.pollMs);
    this.poller.unref();
  }

  /** Applies to a live document what other processes appended since it last looked. */
  private catchUp(document: Y.Doc): Promise<void> {
    const state = this.live.get(document);
    if (!state) return Promise.resolve();
    if (state.catchingUp) return state.catchingUp;
    const run = (async () => {
      const head = await this.store.head(state.appId, state.fileId);
      if (!head || head.updateSeq <= state.seenSeq) return;
      if (head.snapshotSeq > state.seenSeq) {
        const content = await this.store.load(state.appId, state.fileId);
        if (!content) return;
        applyStored(document, content, FROM_STORAGE, this.badEntry(state.appId, state.fileId));
        state.seenSeq = Math.max(state.seenSeq, content.seq);
        return;
      }
      const updates = await this.store.updatesAfter(state.appId, state.fileId, state.seenSeq);
      const caughtUp = { snapshot: Y.encodeStateAsUpdate(new Y.Doc()), updates, snapshotSeq: state.seenSeq, seq: state.seenSeq };
      applyStored(document, caughtUp, FROM_STORAGE, this.badEntry(state.appId, state.fileId));
      state.seenSeq = Math.max(state.seenSeq, updates.at(-1)?.seq ?? state.seenSeq);
    })().finally(() => {
      state.catchingUp = undefined;
    });
    state.catchingUp = run;
    return run;
  }

  private async emitCollaborator(context: CollaborationContext, action: 'enter' | 'leave', clientId: string): Promise<void> {
    try {
      await this.outbox.add(this.storage.db, collaboratorEvent({ appId: context.appId, fileId: context.fileId, userId: context.actor.userId, action, clientId }));
    } catch (error) {
      this.log?.error({ err: error, fileId: context.fileId }, 'collaborator event not stored');
    }
  }

  // -------------------------------------------------------------------------------------------------
  // Recording changes: version, history, FileContent event, once per burst

  private markChanged(appId: string, fileId: string, actor: ContentActor, historyType: HistoryTypeValue): void {
    const id = key(appId, fileId);
    const now = Date.now();
    const existing = this.pending.get(id);
    if (existing) {
      clearTimeout(existing.timer);
      existing.actors.set(actor.userId, actor);
      existing.lastActor = actor;
      if (historyType !== HistoryType.edit) existing.historyType = historyType;
    }
    const record: PendingRecord = existing ?? { appId, fileId, actors: new Map([[actor.userId, actor]]), lastActor: actor, historyType, firstAt: now, timer: undefined as unknown as NodeJS.Timeout };
    const wait = Math.max(0, Math.min(this.options.coalesceMs, record.firstAt + this.options.coalesceMaxMs - now));
    record.timer = setTimeout(() => this.track(this.flush(appId, fileId)), wait);
    this.pending.set(id, record);
  }

  /**
   * Records the pending change of a file now (if any): bumps its version, stores a history snapshot with
   * who changed it and queues one FileContent event, in one transaction. When the change's timer has started
   * recording it already, waits for that recording: once this resolves, every change made before the call is
   * recorded.
   */
  async flush(appId: string, fileId: string): Promise<RecordedChange | undefined> {
    const id = key(appId, fileId);
    const record = this.pending.get(id);
    if (!record) return this.recordings.get(id);
    this.pending.delete(id);
    clearTimeout(record.timer);
    const recording = this.recordPending(record);
    this.recordings.set(id, recording);
    try {
      return await recording;
    } finally {
      if (this.recordings.get(id) === recording) this.recordings.delete(id);
    }
  }

  private async recordPending({ appId, fileId, historyType, lastActor, actors }: PendingRecord): Promise<RecordedChange | undefined> {
    try {
      return await this.record(appId, fileId, historyType, lastActor, [...actors.keys()], true);
    } catch (error) {
      if (error instanceof ApiError && error.spec === Errors.fileNotFound) return undefined;
      this.log?.error({ err: error, appId, fileId }, 'content change not recorded');
      return undefined;
    }
  }

  /**
   * Stores a history entry of the current content; with `bump`, as a new version announced by FileContent,
   * and the record hooks of the file's kind run in the same transaction. A bump also advances the file's
   * `recorded_seq` to the updates the entry holds, only forward: when another process (a recovery) recorded
   * them already, nothing is stored and the answer is undefined, so no edit is recorded twice.
   */
  async record(appId: string, fileId: string, historyType: HistoryTypeValue, actor: ContentActor, userIds: string[], bump: false): Promise<RecordedChange>;
  async record(appId: string, fileId: string, historyType: HistoryTypeValue, actor: ContentActor, userIds: string[], bump: true): Promise<RecordedChange | undefined>;
  async record(appId: string, fileId: string, historyType: HistoryTypeValue, actor: ContentActor, userIds: string[], bump: boolean): Promise<RecordedChange | undefined> {
    const kind = await this.kindOf(appId, fileId);
    const { doc, seq } = await this.currentAt(appId, fileId, kind);
    const state = Y.encodeStateAsUpdate(doc);
    const hooks = bump ? this.recordHooks.filter((hook) => hook.kinds.includes(kind)) : [];
    const historyId = crypto.randomUUID();
    const recorded = this.storage.db.transaction().execute(async (trx): Promise<RecordedChange | undefined> => {
      if (bump && !(await this.store.advanceRecorded(trx, appId, fileId, seq))) return undefined;
      const version = bump ? await this.files.bumpVersion(trx, appId, fileId) : await this.files.versionOf(trx, appId, fileId);
      await this.store.addHistory(trx, {
        id: historyId,
        app_id: appId,
        file_id: fileId,
        version,
        history_type: historyType,
        snapshot: state,
        user_id: actor.userId,
        user_name: actor.name ?? null,
        user_ids: JSON.stringify(userIds),
        created_at: Date.now(),
      });
      await this.store.pruneHistory(trx, appId, fileId, this.options.historySnapshots ?? DEFAULT_HISTORY_SNAPSHOTS, PRUNED_PER_RECORD);
      if (bump) await this.outbox.add(trx, fileContentEvent({ appId, fileId, userId: actor.userId, version }));
      for (const hook of hooks) await this.runRecordHook(hook, { db: trx, appId, fileId, kind, doc, actor, version, historyType });
      return { historyId, version };
    });
    return recorded;
  }

  private async runRecordHook(hook: RecordHook, context: RecordContext): Promise<void> {
    let events: PendingEvent[];
    try {
      events = await hook.onRecord(context);
    } catch (error) {
      this.log?.warn({ err: error, appId: context.appId, fileId: context.fileId, hook: hook.name }, 'record hook failed; the record rolls back');
      throw error;
    }
    if (events.length > 0) await this.outbox.add(context.db, events);
  }

  /** Merges the file's log into its snapshot when it holds `minUpdates` entries or more. */
  async compact(appId: string, fileId: string, minUpdates = this.options.compactAfter): Promise<boolean> {
    try {
      return await this.store.compact(appId, fileId, minUpdates, this.badEntry(appId, fileId));
    } catch (error) {
      this.log?.error({ err: error, appId, fileId }, 'content compaction failed');
      return false;
    }
  }

  /**
   * A log of `compactAfter` updates or more is merged into the snapshot, in the background, one compaction of a
   * file at a time. Counted from the log, not from the seq (every n-th): a compaction that starts late takes in
   * updates appended meanwhile, and the log it leaves must still reach the length that compacts it again.
   */
  private compactWhenLong(appId: string, fileId: string, logged: number): void {
    const file = key(appId, fileId);
    if (logged < this.options.compactAfter || this.compacting.has(file)) return;
    this.compacting.add(file);
    void this.track(this.compact(appId, fileId)).finally(() => this.compacting.delete(file));
  }

  /** Keeps background work in view so that `close` can wait for it; returns it for callers that await it. */
  private track<T>(work: Promise<T>): Promise<T> {
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work)).catch(() => undefined);
    return work;
  }

  /**
   * Stops: closes every collaboration connection, records pending changes, waits for background work and
   * compacts what editors had open. Called when the server closes.
   */
  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    if (this.poller) clearInterval(this.poller);
    this.poller = undefined;
    this.access.clear();
    const open: Array<[string, string]> = [];
    for (const [appId, server] of this.servers) {
      for (const name of server.documents.keys()) open.push([appId, name]);
      server.closeConnections();
    }
    // let the disconnect hooks of the closed connections start (they store Collaborator leave events)
    await new Promise((resolve) => setImmediate(resolve));
    // background work (a catch-up, a recovery check) may still mark changes: drain until nothing is left
    while (this.pending.size > 0 || this.inFlight.size > 0) {
      await Promise.all([...this.pending.values()].map((record) => this.flush(record.appId, record.fileId)));
      await Promise.allSettled([...this.inFlight]);
    }
    await Promise.all(open.map(([appId, fileId]) => this.compact(appId, fileId, 1)));
    this.servers.clear();
  }
}

/** Whether the document holds updates (structs or deletions) that wait for ones they build on. */
function hasPending(doc: Y.Doc): boolean {
  return doc.store.pendingStructs !== null || doc.store.pendingDs !== null;
}

/**
 * Notes that log entry `seq` is applied to the live document. Only the next entry moves the mark: one
 * appended out of turn (another process's entry in between) leaves it to the catch-up poll, which reads the
 * entries after the mark (applying one twice is harmless).
 */
function markSeen(state: LiveState, seq: number): void {
  if (seq === state.seenSeq + 1) state.seenSeq = seq;
}
