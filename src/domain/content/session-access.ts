import type { Connection } from '@hocuspocus/server';
import type { FastifyBaseLogger } from 'fastify';

/** The permission booleans an open collaboration session holds, as the integrator last answered them. */
export interface SessionPermissions {
  readable: boolean;
  editable: boolean;
  commentable: boolean;
  /** may set, change and remove spreadsheet locks (docs/SHEETS.md "Locks") */
  manageable: boolean;
}

/**
 * Whether a session may send updates: a user who may edit, or one who may comment in a file whose text takes
 * suggestions (`suggestible`): such a user may only suggest, which the service checks on each of their updates
 * (suggestion-enforcement.ts, docs/BROWSER.md "Suggestions").
 */
export function mayWrite(permissions: SessionPermissions, suggestible: boolean): boolean {
  return permissions.editable || (suggestible && permissions.commentable);
}

/** What a session holds when the integrator refuses the user or no longer knows the file. */
export const NO_PERMISSIONS: SessionPermissions = Object.freeze({ readable: false, editable: false, commentable: false, manageable: false });

/** The session booleans of an integrator answer; a permission it leaves out is false. */
export function sessionPermissions(permissions: Partial<Record<keyof SessionPermissions, boolean | undefined>>): SessionPermissions {
  return { readable: permissions.readable === true, editable: permissions.editable === true, commentable: permissions.commentable === true, manageable: permissions.manageable === true };
}

/** Stateless message the service sends a connection whose permissions changed. */
export const ACCESS_MESSAGE_TYPE = 'svc:access';
/** Stateless message a page sends to have its permissions asked again at once. */
export const RECHECK_REQUEST_TYPE = 'svc:recheck-access';

/** `{"type": "svc:access", "permissions": {"readable": …, "editable": …, "commentable": …}}` */
export function accessMessage(permissions: SessionPermissions): string {
  const { readable, editable, commentable } = permissions;
  return JSON.stringify({ type: ACCESS_MESSAGE_TYPE, permissions: { readable, editable, commentable } });
}

/** WebSocket close code sent when the integrator no longer lets the user read the file. */
export const ACCESS_REVOKED_CLOSE_CODE = 4403;

/** Longest stateless payload read from a client; anything longer is ignored unread. */
const MAX_CLIENT_PAYLOAD_CHARS = 1024;
/** A session logs the client messages it ignores at most this often (a flood must not flood the log). */
const IGNORED_LOG_INTERVAL_MS = 60_000;

/** What a session was admitted with and how to ask again (routes/collaboration.ts builds it). */
export interface AccessSource {
  appId: string;
  fileId: string;
  userId: string;
  permissions: SessionPermissions;
  /** the file's text takes suggestions: a commenter's session stays writable for them (`mayWrite`) */
  suggestible: boolean;
  /** `fresh`: past the short-lived answer cache (a page asked, it wants the integrator's answer now) */
  recheck?: ((options: { fresh: boolean }) => Promise<SessionPermissions>) | undefined;
}

export interface SessionAccessOptions {
  /** how often an open session's permissions are asked again */
  recheckMs: number;
  /** a page's own recheck requests are served at most this often per connection */
  requestIntervalMs: number;
}

interface Session {
  connection: Connection;
  source: AccessSource;
  /** what the connection was last given (and told, when it changed) */
  permissions: SessionPermissions;
  checkedAt: number;
  /** rechecks started; only the answer of the latest one is applied */
  started: number;
  inFlight: number;
  /** when a recheck the page asked for last started */
  requestedAt: number;
  queued: NodeJS.Timeout | undefined;
  ignored: number;
  ignoredLoggedAt: number;
}

function samePermissions(a: SessionPermissions, b: SessionPermissions): boolean {
  return a.readable === b.readable && a.editable === b.editable && a.commentable === b.commentable && a.manageable === b.manageable;
}

/**
 * Keeps the permissions of open collaboration sessions in step with the integrator (README "Collaboration").
 * Each session is asked again every `recheckMs`, and at once (at most every `requestIntervalMs`) when its page
 * sends `{"type": "svc:recheck-access"}`. When the answer differs from what the connection had, it is told
 * `{"type": "svc:access", permissions}` and then: `editable` decides whether its updates are applied; without
 * `readable` it is closed with 4403 (after the message). When the integrator cannot answer, nothing changes.
 */
export class SessionAccess {
  private readonly sessions = new Map<string, Session>();

  constructor(
    private readonly options: SessionAccessOptions,
    /** keeps background work in view of the content engine's close */
    private readonly track: (work: Promise<unknown>) => void,
    private readonly log: () => FastifyBaseLogger | undefined,
  ) {}

  open(connection: Connection, source: AccessSource): void {
    const now = Date.now();
    this.sessions.set(connection.socketId, {
      connection,
      source,
      permissions: source.permissions,
      checkedAt: now,
      started: 0,
      inFlight: 0,
      requestedAt: 0,
      queued: undefined,
      ignored: 0,
      ignoredLoggedAt: 0,
    });
  }

  closed(socketId: string): void {
    const session = this.sessions.get(socketId);
    if (session?.queued) clearTimeout(session.queued);
    this.sessions.delete(socketId);
  }

  /** Forgets every session (the engine is closing). */
  clear(): void {
    for (const socketId of [...this.sessions.keys()]) this.closed(socketId);
  }

  /** Asks again about the sessions last checked `recheckMs` ago (called by the engine's poll). */
  recheckDue(): void {
    const due = Date.now() - this.options.recheckMs;
    for (const session of this.sessions.values()) {
      if (session.inFlight === 0 && session.checkedAt <= due) this.recheck(session, false);
    }
  }

  /** Asks again at once, past the answer cache, about the sessions `concerned` picks (the integrator said permissions changed). */
  recheckNow(concerned: (source: AccessSource) => boolean): void {
    for (const session of this.sessions.values()) if (concerned(session.source)) this.recheck(session, true);
  }

  /**
   * Sends `message` (a stateless message, written for the session's source) to each open session `concerned`
   * picks, on this process; returns how many took it. A socket that cannot take it is logged and not counted.
   */
  tell(concerned: (source: AccessSource) => boolean, message: (source: AccessSource) => string): number {
    let told = 0;
    for (const session of this.sessions.values()) {
      if (!concerned(session.source)) continue;
      try {
        session.connection.sendStateless(message(session.source));
        told++;
      } catch (error) {
        this.log()?.warn({ err: error, fileId: session.source.fileId }, 'a stateless message to an editor failed');
      }
    }
    return told;
  }

  /** Tells the sessions `concerned` picks `message`, then closes them with `code` (the file they edit is gone). */
  end(concerned: (source: AccessSource) => boolean, message: string, code: number, reason: string): number {
    const ending = [...this.sessions.values()].filter((session) => concerned(session.source));
    this.tell((source) => ending.some((session) => session.source === source), () => message);
    for (const session of ending) {
      session.connection.webSocket.close(code, reason);
      this.closed(session.connection.socketId);
    }
    return ending.length;
  }

  /**
   * A stateless message from a client. The only one understood is `{"type": "svc:recheck-access"}`; anything
   * else (not JSON, another type, too long) is ignored and logged. Never throws: Hocuspocus does not wait for
   * this hook, so a throw would be an unhandled rejection.
   */
  fromClient(connection: Connection, payload: unknown): void {
    try {
      const session = this.sessions.get(connection.socketId);
      if (!session) return;
      const why = this.unreadable(payload);
      if (why) this.ignore(session, why);
      else this.requestRecheck(session);
    } catch (error) {
      this.log()?.warn({ err: error }, 'client stateless message not handled');
    }
  }

  private unreadable(payload: unknown): string | undefined {
    if (typeof payload !== 'string') return 'not text';
    if (payload.length > MAX_CLIENT_PAYLOAD_CHARS) return `longer than ${MAX_CLIENT_PAYLOAD_CHARS} characters`;
    let message: unknown;
    try {
      message = JSON.parse(payload);
    } catch {
      return 'not JSON';
    }
    const type = typeof message === 'object' && message !== null && !Array.isArray(message) ? (message as { type?: unknown }).type : undefined;
    if (type !== RECHECK_REQUEST_TYPE) return `unknown type ${JSON.stringify(type)?.slice(0, 60) ?? 'undefined'}`;
    return undefined;
  }

  private ignore(session: Session, why: string): void {
    session.ignored++;
    const now = Date.now();
    if (now - session.ignoredLoggedAt < IGNORED_LOG_INTERVAL_MS) return;
    this.log()?.warn({ fileId: session.source.fileId, userId: session.source.userId, why, ignored: session.ignored }, 'client stateless message ignored');
    session.ignoredLoggedAt = now;
    session.ignored = 0;
  }

  /** At most one page-asked recheck per interval; one asked sooner waits for the interval's end (later ones join it). */
  private requestRecheck(session: Session): void {
    if (session.queued) return;
    const wait = session.requestedAt + this.options.requestIntervalMs - Date.now();
    if (wait > 0) {
      session.queued = setTimeout(() => {
        session.queued = undefined;
        if (this.sessions.get(session.connection.socketId) === session) this.requestRecheck(session);
      }, wait);
      session.queued.unref();
      return;
    }
    session.requestedAt = Date.now();
    this.recheck(session, true);
  }

  private recheck(session: Session, fresh: boolean): void {
    const ask = session.source.recheck;
    if (!ask) return;
    const attempt = ++session.started;
    session.inFlight++;
    const work = ask({ fresh })
      .then((permissions) => {
        // a later recheck supersedes this one; a closed session has nothing left to change
        if (attempt === session.started && this.sessions.get(session.connection.socketId) === session) this.apply(session, permissions);
      })
      .catch((error: unknown) => this.log()?.warn({ err: error, fileId: session.source.fileId }, 'permission recheck failed; session unchanged'))
      .finally(() => {
        // a failed check also waits a full interval: an integrator that is down is not asked every poll
        session.checkedAt = Date.now();
        session.inFlight--;
      });
    this.track(work);
  }

  private apply(session: Session, permissions: SessionPermissions): void {
    if (samePermissions(session.permissions, permissions)) return;
    const { connection, source } = session;
    session.permissions = permissions;
    this.log()?.info({ fileId: source.fileId, userId: source.userId, permissions }, 'session permissions changed');
    try {
      connection.sendStateless(accessMessage(permissions));
    } catch (error) {
      this.log()?.warn({ err: error, fileId: source.fileId }, 'telling the editor its permissions failed');
    }
    if (!permissions.readable) {
      connection.webSocket.close(ACCESS_REVOKED_CLOSE_CODE, 'permission revoked');
      this.closed(connection.socketId);
      return;
    }
    connection.readOnly = !mayWrite(permissions, source.suggestible);
    // the connection's hooks (the update checks of content-service.ts) read the permissions as they are now
    (connection.context as { permissions: SessionPermissions }).permissions = permissions;
  }
}
