import {
  IncomingMessage,
  type afterUnloadDocumentPayload,
  type beforeUnloadDocumentPayload,
  MessageType,
  type beforeHandleMessagePayload,
  type connectedPayload,
  type Document,
  type Extension,
  type onConnectPayload,
  type onDisconnectPayload,
  type onLoadDocumentPayload,
  type onStatelessPayload,
} from '@hocuspocus/server';
import type { FastifyBaseLogger } from 'fastify';
import type { CollaborationContext, ContentActor } from './collaboration-context.js';
import { ContentMissing } from '../../storage/content-store.js';
import { LockRefused } from './lock-enforcement.js';
import { mayWrite, type SessionAccess, type SessionPermissions } from './session-access.js';
import { SuggestingOnlyRefused } from './suggestion-enforcement.js';

/**
 * The content engine's part in one application's Hocuspocus server, one named extension per concern (as Hocuspocus'
 * own extensions are written), registered in this order: a hook of a later extension runs only when the earlier
 * ones' passed.
 *
 * 1. BroadcastGuard: a client may not speak to the others in the service's voice.
 * 2. SessionGate: a connection is for the file it was admitted to; its permissions stay checked (SessionAccess).
 * 3. Persistence: a document loads from the content store, editors' updates are stored before they are
 *    acknowledged, a closed document's changes are recorded.
 * 4. CollaboratorEvents: Collaborator enter/leave events to the integrator.
 */

/** WebSocket close code sent to a client whose message does not decode (4000-4999: application codes). */
export const MALFORMED_MESSAGE_CLOSE_CODE = 4400;
/** WebSocket close code sent to the editors of a file that was deleted while they had it open. */
export const FILE_DELETED_CLOSE_CODE = 4404;
/**
 * WebSocket close code sent to an editor whose update a spreadsheet lock refused (after a stateless `svc:locked`
 * naming the range). Its document holds the refused change, which it would send again: it opens the file afresh.
 */
export const LOCKED_CLOSE_CODE = 4423;
/** Stateless message telling an editor which lock refused its update: `{type, reason, sheetName, range}`. */
export const LOCKED_MESSAGE_TYPE = 'svc:locked';

/** The service's logger, once the server has set it (ContentService.setLogger). */
export type LoggerOf = () => FastifyBaseLogger | undefined;

/** y-protocols' sync message types that carry an update (step 2 and update; step 1 carries a state vector). */
const SYNC_STEP_2 = 1;
const SYNC_UPDATE = 2;

/** A raw Hocuspocus message, its document name read: the message type follows. */
function messageAfterName(message: Uint8Array): IncomingMessage {
  const incoming = new IncomingMessage(message);
  incoming.readVarString();
  return incoming;
}

/**
 * The Yjs update carried by a raw Hocuspocus message (sync step 2 or update), or undefined for every other
 * message; a message that does not decode throws. Hocuspocus' IncomingMessage reads it as its own MessageReceiver
 * does: varString document name, varUint message type (Sync / SyncReply), varUint sync type, varUint8Array update.
 */
export function incomingUpdate(message: Uint8Array): Uint8Array | undefined {
  try {
    const incoming = messageAfterName(message);
    const type = incoming.readVarUint();
    if (type !== MessageType.Sync && type !== MessageType.SyncReply) return undefined;
    const syncType = incoming.readVarUint();
    if (syncType !== SYNC_STEP_2 && syncType !== SYNC_UPDATE) return undefined;
    return incoming.readVarUint8Array();
  } catch {
    throw new Error('malformed collaboration message');
  }
}

/**
 * The document name and token of a raw Hocuspocus authentication message (the first message a provider sends:
 * varString document name, varUint Auth, varUint token sub-type, varString token), or undefined for any other
 * message or one that does not decode. The editor page's token there is its editor session ticket.
 */
export function authenticationOf(message: Uint8Array): { documentName: string; token: string } | undefined {
  try {
    const incoming = new IncomingMessage(message);
    const documentName = incoming.readVarString();
    if (incoming.readVarUint() !== MessageType.Auth) return undefined;
    incoming.readVarUint();
    return { documentName, token: incoming.readVarString() };
  } catch {
    return undefined;
  }
}

/**
 * Whether a raw message asks the server to pass a stateless message on to every connection of the document
 * (Hocuspocus BroadcastStateless). Providers never send it; only the service speaks to all editors. A message
 * too short to tell is not one (Hocuspocus itself refuses it).
 */
export function isClientBroadcast(message: Uint8Array): boolean {
  try {
    return messageAfterName(message).readVarUint() === MessageType.BroadcastStateless;
  } catch {
    return false;
  }
}

/** Refuses a client's BroadcastStateless: the service's notices (svc:access, svc:conversation) come only from it. */
export class BroadcastGuard implements Extension {
  readonly extensionName = 'svc-broadcast-guard';

  constructor(private readonly logger: LoggerOf) {}

  async beforeHandleMessage({ connection, update, document, context }: beforeHandleMessagePayload): Promise<void> {
    if (!isClientBroadcast(update)) return;
    // a provider never sends this message type, so its sender is hostile or broken
    const { appId } = context as CollaborationContext;
    this.logger()?.warn({ appId, fileId: document.name }, 'client broadcast of a stateless message refused; connection closed');
    connection.webSocket.close(MALFORMED_MESSAGE_CLOSE_CODE, 'broadcast not allowed');
    throw new Error('client broadcast refused');
  }
}

/** Holds each connection to what it was admitted for, and keeps its permissions checked while it lasts. */
export class SessionGate implements Extension {
  readonly extensionName = 'svc-session-gate';

  constructor(
    private readonly appId: string,
    private readonly access: SessionAccess,
  ) {}

  async onConnect({ documentName, context, connectionConfig }: onConnectPayload): Promise<void> {
    const admitted = context as CollaborationContext;
    // the WebSocket was admitted for one file: a provider may not switch to another over it
    if (documentName !== admitted.fileId || admitted.appId !== this.appId) throw new Error(`connection admitted for ${admitted.fileId}, not ${documentName}`);
    connectionConfig.readOnly = admitted.presenceOnly === true || !mayWrite(admitted.permissions, admitted.suggestible === true);
  }

  async connected({ context, connection }: connectedPayload): Promise<void> {
    const admitted = context as CollaborationContext;
    this.access.open(connection, { appId: admitted.appId, fileId: admitted.fileId, userId: admitted.actor.userId, permissions: admitted.permissions, suggestible: admitted.suggestible === true, recheck: admitted.recheck });
  }

  async onStateless({ connection, payload }: onStatelessPayload): Promise<void> {
    this.access.fromClient(connection, payload);
  }

  async onDisconnect({ socketId }: onDisconnectPayload): Promise<void> {
    this.access.closed(socketId);
  }
}

/** What Persistence asks of the content engine, which keeps the live documents' state. */
export interface LiveDocumentStore {
  /** Fills a document an editor opens from storage and starts following it. */
  load(document: Document): Promise<void>;
  /**
   * Stores an editor's update before it is acknowledged; throws when Yjs refuses it (ContentMissing: the file is
   * gone), a spreadsheet lock does (LockRefused; `manageable`: the user may change locks), or the user may only
   * suggest and the update does more (SuggestingOnlyRefused; `editable` false).
   */
  persist(document: Document, update: Uint8Array, actor: ContentActor, permissions: SessionPermissions): Promise<void>;
  /**
   * The last editor closed the document: record what is pending and compact its log. `document` (no longer live,
   * destroyed by Hocuspocus but still readable) holds everything its editors wrote, decoded: reads may keep it.
   */
  unloaded(fileId: string, document: Document | undefined): void;
}

/** Loads documents from the content store and stores what editors send, before Hocuspocus acknowledges it. */
export class Persistence implements Extension {
  readonly extensionName = 'svc-persistence';
  /** documents being unloaded, by name: afterUnloadDocument is only given the name */
  private readonly unloading = new Map<string, Document>();

  constructor(
    private readonly documents: LiveDocumentStore,
    private readonly logger: LoggerOf,
  ) {}

  async onLoadDocument({ document, context }: onLoadDocumentPayload): Promise<void> {
    if ((context as CollaborationContext).presenceOnly) return;
    await this.documents.load(document);
  }

  async beforeHandleMessage({ connection, update, document, context }: beforeHandleMessagePayload): Promise<void> {
    if (connection.readOnly) return;
    const { appId, actor, permissions } = context as CollaborationContext;
    try {
      const incoming = incomingUpdate(update);
      if (incoming) await this.documents.persist(document, incoming, actor, permissions);
    } catch (error) {
      if (error instanceof LockRefused) {
        // the editor says so in its page's language, then opens the file afresh without the refused change
        this.logger()?.info({ appId, fileId: document.name, range: error.refusal.range }, 'collaboration update refused by a lock; connection closed');
        connection.sendStateless(JSON.stringify({ type: LOCKED_MESSAGE_TYPE, ...error.refusal }));
        connection.webSocket.close(LOCKED_CLOSE_CODE, 'locked');
        throw error;
      }
      if (error instanceof SuggestingOnlyRefused) {
        // the editor of a user who may only suggest sends nothing else: an out-of-step or hostile client
        this.logger()?.warn({ appId, fileId: document.name, reason: error.reason }, 'update beyond suggestions from a user who may only suggest; connection closed');
        connection.webSocket.close(MALFORMED_MESSAGE_CLOSE_CODE, 'suggestions only');
        throw error;
      }
      if (error instanceof ContentMissing) {
        // the file was deleted under its editors: end every session of it
        this.logger()?.info({ appId, fileId: document.name }, 'file deleted while open; sessions closed');
        for (const open of document.getConnections()) open.webSocket.close(FILE_DELETED_CLOSE_CODE, 'file deleted');
        throw error;
      }
      // a client that sends what Yjs cannot read is out of step or hostile: end its session
      this.logger()?.warn({ err: error, appId, fileId: document.name }, 'malformed collaboration message; connection closed');
      connection.webSocket.close(MALFORMED_MESSAGE_CLOSE_CODE, 'malformed update');
      throw error;
    }
  }

  async beforeUnloadDocument({ documentName, document }: beforeUnloadDocumentPayload): Promise<void> {
    this.unloading.set(documentName, document);
  }

  async afterUnloadDocument({ documentName }: afterUnloadDocumentPayload): Promise<void> {
    const document = this.unloading.get(documentName);
    this.unloading.delete(documentName);
    this.documents.unloaded(documentName, document);
  }
}

/** Tells the integrator who entered and left a file's editing (Collaborator events, spec 6). */
export class CollaboratorEvents implements Extension {
  readonly extensionName = 'svc-collaborator-events';

  constructor(private readonly emit: (context: CollaborationContext, action: 'enter' | 'leave', clientId: string) => Promise<void>) {}

  async connected({ context, connection }: connectedPayload): Promise<void> {
    await this.emit(context as CollaborationContext, 'enter', connection.socketId);
  }

  async onDisconnect({ context, socketId }: onDisconnectPayload): Promise<void> {
    await this.emit(context as CollaborationContext, 'leave', socketId);
  }
}
