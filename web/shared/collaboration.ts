import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import * as Y from 'yjs';
import type { SaveStatus } from '../../sdk/protocol.js';
import type { EditorBoot, EditorPermissions } from './boot.js';
import { skipEncodingFirstSync } from './first-sync.js';
import { SHEET_MODEL_VERSION } from '../../src/model/content.js';

/** Close codes of the collaboration endpoint (src/domain/content/content-service.ts, src/routes/collaboration.ts). */
export const CloseCode = { malformed: 4400, sessionRefused: 4401, accessRevoked: 4403, fileDeleted: 4404, locked: 4423, outdatedEditor: 4426 } as const;

export type { SaveStatus } from '../../sdk/protocol.js';

/** A collaborator as the awareness protocol shares them (one entry per open editor). */
export interface Collaborator {
  clientId: number;
  id: string;
  name: string;
  avatar: string;
  color: string;
}

/** A stateless message of the service (`svc:access`, `svc:conversation`, …). */
export type ServiceMessage = { type: string } & Record<string, unknown>;

export interface CollaborationHandlers {
  saveStatus?(status: SaveStatus): void;
  /** the service changed what this user may do (stateless `svc:access`) */
  access?(permissions: Partial<EditorPermissions>): void;
  /** the session ended for good: `reason` is one of the close codes above */
  ended?(code: number): void;
  /** a stateless message of the service other than svc:access (e.g. `svc:conversation`) */
  message?(message: ServiceMessage): void;
  collaborators?(collaborators: Collaborator[]): void;
  connection?(status: 'connecting' | 'connected' | 'disconnected'): void;
  /** the service refused the session ticket (4401): the page renews it; the provider reconnects with the new one */
  ticketRefused?(): void;
}

/**
 * The awareness field that carries who a page's user is (id, name, avatar, color). Not `user`: the editors'
 * caret extensions write their own `user` field (a name and a color for the caret's label).
 */
const IDENTITY_FIELD = 'identity';

const COLORS = ['#e8590c', '#1c7ed6', '#2f9e44', '#ae3ec9', '#f08c00', '#0c8599', '#d6336c', '#5c940d'];

/** A stable color per user id, so a user's caret has the same color in every browser. */
export function colorOf(userId: string): string {
  let hash = 0;
  for (const ch of userId) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  return COLORS[hash % COLORS.length]!;
}

/**
 * The file's collaboration endpoint: no credential in its address (the first message carries the session ticket).
 * `gridModel` states the spreadsheet grid model this page's code reads and writes; the service closes a
 * spreadsheet session without the current one with 4426 (src/routes/collaboration.ts).
 */
function collaborationUrl(boot: EditorBoot): string {
  const scheme = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${window.location.host}${boot.apiBase}/collab-files/${encodeURIComponent(boot.fileId)}/collaboration?gridModel=${SHEET_MODEL_VERSION}`;
}

/**
 * The page's collaboration session: the file's Yjs document synced with the service over
 * `/sdk/v2/collab-files/{fileId}/collaboration` (the editor session ticket as the token of Hocuspocus'
 * authentication message, read again at every reconnection),
 * the save status derived from the provider's unacknowledged changes, and the service's stateless messages.
 */
export class CollaborationSession {
  readonly doc = new Y.Doc();
  readonly provider: HocuspocusProvider;
  private readonly socket: HocuspocusProviderWebsocket;
  private readonly listeners = new Set<(message: ServiceMessage) => void>();
  private saveStatus: SaveStatus = 'saved';
  private readonly accessListeners = new Set<(permissions: Partial<EditorPermissions>) => void>();
  private endedWith: number | undefined;
  private ticket: string;
  /** whether this page changed the document: before the first sync the provider counts its handshake as unsaved */
  private editedHere = false;

  constructor(
    private readonly boot: EditorBoot,
    private readonly handlers: CollaborationHandlers,
  ) {
    this.ticket = boot.session.ticket;
    this.socket = new HocuspocusProviderWebsocket({ url: collaborationUrl(boot) });
    this.provider = new HocuspocusProvider({
      websocketProvider: this.socket,
      name: boot.fileId,
      document: this.doc,
      // asked at each (re)connection: the ticket renewed meanwhile is the one sent
      token: () => this.ticket,
      onStatus: ({ status }) => handlers.connection?.(status),
      onUnsyncedChanges: () => this.updateSaveStatus(),
      onStateless: ({ payload }) => this.receive(payload),
      onClose: ({ event }) => this.closed(event.code),
      onAwarenessChange: () => this.reportCollaborators(),
    });
    // after each transaction rather than on `update`, which would have Yjs encode every transaction's changes
    // (the first sync's whole document among them) for this listener alone
    this.doc.on('afterTransaction', (transaction: Y.Transaction) => {
      if (transaction.local && (transaction.changed.size > 0 || transaction.deleteSet.clients.size > 0)) this.editedHere = true;
    });
    skipEncodingFirstSync(this.provider);
    this.setIdentity(boot.user);
    this.provider.attach();
  }

  /**
   * Who this page's user is, for every page of the file (the collaborator badges and the caret labels); set
   * again when the integrator reports the user's name or avatar changed (`svc:user-updated`).
   */
  setIdentity(user: EditorBoot['user']): void {
    this.boot.user = user;
    this.provider.setAwarenessField(IDENTITY_FIELD, { id: user.id, name: user.name, avatar: user.avatar, color: colorOf(user.id) });
    // the label other pages draw at this user's caret or selection (the rich-text caret extension writes the same)
    this.provider.setAwarenessField('user', { name: user.name, color: colorOf(user.id) });
  }

  get isSynced(): boolean {
    return this.provider.isSynced;
  }

  /** Resolves once the document is loaded from the service. */
  synced(): Promise<void> {
    if (this.provider.isSynced) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        this.provider.off('synced', done);
        resolve();
      };
      this.provider.on('synced', done);
    });
  }

  get status(): SaveStatus {
    return this.saveStatus;
  }

  collaborators(): Collaborator[] {
    const states = this.provider.awareness?.getStates() ?? new Map();
    const list: Collaborator[] = [];
    for (const [clientId, state] of states) {
      const user = (state as Record<string, Partial<Collaborator> | undefined>)[IDENTITY_FIELD];
      if (!user?.id) continue;
      list.push({ clientId, id: String(user.id), name: String(user.name ?? user.id), avatar: String(user.avatar ?? ''), color: String(user.color ?? colorOf(String(user.id))) });
    }
    return list;
  }

  /** Adds a listener to every stateless message of the service (panels follow svc:conversation); returns its removal. */
  onMessage(listener: (message: ServiceMessage) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Calls `listener` whenever the service says this user's permissions changed (`svc:access`), after the
   * session's own handler; an editor mounted later than the session subscribes here. Returns the unsubscribe.
   */
  onAccess(listener: (permissions: Partial<EditorPermissions>) => void): () => void {
    this.accessListeners.add(listener);
    return () => this.accessListeners.delete(listener);
  }

  /** The ticket for the next connections (after a renewal); the open connection stays as it is. */
  setTicket(ticket: string): void {
    this.ticket = ticket;
  }

  /** Asks the service to check this user's permissions again now (answered by `svc:access` if they changed). */
  recheckAccess(): void {
    this.provider.sendStateless(JSON.stringify({ type: 'svc:recheck-access' }));
  }

  destroy(): void {
    this.provider.destroy();
    this.socket.destroy();
  }

  private updateSaveStatus(): void {
    if (this.endedWith !== undefined) return;
    const next: SaveStatus = this.provider.hasUnsyncedChanges ? 'saving' : 'saved';
    if (next === this.saveStatus) return;
    this.saveStatus = next;
    this.handlers.saveStatus?.(next);
  }

  private receive(payload: string): void {
    let message: unknown;
    try {
      message = JSON.parse(payload);
    } catch {
      return;
    }
    if (typeof message !== 'object' || message === null || typeof (message as { type?: unknown }).type !== 'string') return;
    const typed = message as ServiceMessage;
    for (const listener of this.listeners) listener(typed);
    if (typed.type === 'svc:access') {
      const permissions = (typed.permissions ?? {}) as Partial<EditorPermissions>;
      this.handlers.access?.(permissions);
      for (const listener of this.accessListeners) listener(permissions);
    } else this.handlers.message?.(typed);
  }

  private closed(code: number): void {
    if (code === CloseCode.sessionRefused) this.handlers.ticketRefused?.();
    // a refused locked change (4423) stays in this page's document, which would send it again: the session ends and the page says to reload
    if (code !== CloseCode.accessRevoked && code !== CloseCode.fileDeleted && code !== CloseCode.malformed && code !== CloseCode.outdatedEditor && code !== CloseCode.locked) return;
    this.endedWith = code;
    // the service will refuse this session again: stop reconnecting, and say what is lost
    this.provider.disconnect();
    if (this.editedHere && this.provider.hasUnsyncedChanges) this.handlers.saveStatus?.('error');
    this.handlers.ended?.(code);
  }

  private reportCollaborators(): void {
    this.handlers.collaborators?.(this.collaborators());
  }
}
