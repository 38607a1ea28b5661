import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import type { RequestAuth } from '../auth/request-auth.js';
import { sessionAuth } from '../auth/session-tickets.js';
import { verifySignature } from '../auth/signature.js';
import type { CollaborationContext } from '../domain/content/collaboration-context.js';
import { authenticationOf } from '../domain/content/collaboration-extensions.js';
import { SERVICE_RESTART_CLOSE_CODE } from '../domain/content/content-service.js';
import { NO_PERMISSIONS, sessionPermissions } from '../domain/content/session-access.js';
import { FILE_ID_PATTERN } from '../domain/files/file-service.js';
import { ApiError, Errors, isApiError, type ErrorSpec } from '../errors.js';
import { SHEET_MODEL_VERSION, SUGGESTIBLE_KINDS } from '../model/content.js';

/** `/sdk/v2/collab-files/{fileId}/collaboration`: the WebSocket endpoint of one file (README "Collaboration"). */
const COLLABORATION_PATH = /^\/sdk\/v2\/collab-files\/([^/]+)\/collaboration$/;
const fileIdRule = new RegExp(FILE_ID_PATTERN);
/** Largest WebSocket message accepted from an editor; a paste of a large document fits well inside. */
const MAX_MESSAGE_BYTES = 32 * 1024 * 1024;

function credential(request: IncomingMessage, url: URL, header: string, queryName: string): string | undefined {
  const fromQuery = url.searchParams.get(queryName);
  if (fromQuery) return fromQuery;
  const fromHeader = request.headers[header];
  return typeof fromHeader === 'string' && fromHeader.length > 0 ? fromHeader : undefined;
}

/** The file id of the endpoint's path, decoded and checked; 400 otherwise. */
function fileIdOf(rawFileId: string): string {
  let fileId: string;
  try {
    fileId = decodeURIComponent(rawFileId);
  } catch {
    throw new ApiError(Errors.invalidRequest, 'fileId is not valid percent-encoding');
  }
  if (!fileIdRule.test(fileId)) throw new ApiError(Errors.invalidRequest, 'fileId must be 1-64 characters without white space, control characters, / \\ ? # %');
  return fileId;
}

/**
 * A server-side client's upgrade: the same signature and token as the backend API (query `signature`, `token`,
 * or the usual headers). Editor pages authenticate in their first message instead (admitOnFirstMessage).
 */
async function requestAuth(app: FastifyInstance, request: IncomingMessage, url: URL): Promise<RequestAuth> {
  const { services } = app;
  const verified = await verifySignature(credential(request, url, 'x-svc-signature', 'signature'), (id) => services.apps.find(id), {
    license: false,
    maxLifetimeSeconds: services.config.signatureMaxLifetimeSeconds,
  });
  const token = credential(request, url, 'x-svc-token', 'token');
  if (token === undefined) throw new ApiError(Errors.tokenMissing, 'user token missing: send ?token= (or X-Svc-Token)');
  return { app: verified.app, claims: verified.claims, token };
}

/**
 * Decides whether a caller may hold a collaboration session of the file: an existing file with content, and the
 * integrator's permissions: `readable` is required, without `editable` the session is read-only. The session keeps
 * being checked; when the integrator or the seat policy takes the file away, the user's editor session tickets of
 * the file are revoked too.
 */
async function admit(app: FastifyInstance, auth: RequestAuth, fileId: string): Promise<CollaborationContext> {
  const { services } = app;
  const appId = auth.app.id;
  const kind = await services.content.sessionKind(appId, fileId);
  const { user, file } = await services.access.authorize(auth, fileId, 'readable');
  return {
    appId,
    fileId,
    actor: { userId: user.id, token: auth.token, name: user.name },
    permissions: sessionPermissions(file.permissions),
    presenceOnly: kind === 'presence',
    suggestible: kind !== 'presence' && SUGGESTIBLE_KINDS.includes(kind),
    recheck: async ({ fresh }) => {
      try {
        // a seat disabled (or a policy tightened) while the editor is open closes the session too
        await services.seats.admit(await services.apps.get(appId), user.id);
        return sessionPermissions((await services.access.fileMetadata(auth, fileId, { fresh })).permissions);
      } catch (error) {
        // a refusal or a file the integrator no longer knows ends the session; its failures do not
        const ends: ErrorSpec[] = [Errors.permissionDenied, Errors.integratorFileNotFound, Errors.seatRequired];
        if (isApiError(error) && ends.includes(error.spec)) {
          await services.sessionTickets.revoke(appId, user.id, fileId);
          return NO_PERMISSIONS;
        }
        throw error;
      }
    },
  };
}

/** WebSocket close code for a connection whose first message carried no valid editor session ticket. */
export const SESSION_REFUSED_CLOSE_CODE = 4401;
/**
 * WebSocket close code for an editor page of a spreadsheet whose code predates the current grid model: its URL
 * does not carry `gridModel=SHEET_MODEL_VERSION` (docs/CONTENT-MODEL.md "Grid model versions"). Such a page would
 * read the upgraded sheets as empty and write cells nobody reads, so it is refused and asked to reload.
 */
export const OUTDATED_EDITOR_CLOSE_CODE = 4426;
/** How long an accepted socket may take to send its authentication message. */
const FIRST_MESSAGE_MS = 10_000;
/** Messages kept while the ticket is checked (a provider sends a handful); more closes the socket. */
const MAX_QUEUED_MESSAGES = 64;

function bytesOf(data: RawData): Uint8Array {
  if (Buffer.isBuffer(data)) return data;
  return Array.isArray(data) ? Buffer.concat(data) : new Uint8Array(data);
}

/**
 * An editor page's socket (docs/SDK.md "Sessions without tokens in URLs"): its URL carries no credential; the
 * first message is Hocuspocus' authentication message whose token is the page's editor session ticket. Messages
 * that arrive while the ticket is checked are kept and handed to Hocuspocus, in order, once it is admitted. A
 * socket without a valid ticket for this file is closed with 4401.
 */
function admitOnFirstMessage(app: FastifyInstance, websocket: WebSocket, request: IncomingMessage, fileId: string, caps: SocketCaps): void {
  const { services } = app;
  const queued: Array<[RawData, boolean]> = [];
  const refuse = (reason: string) => websocket.close(SESSION_REFUSED_CLOSE_CODE, reason);
  const timer = setTimeout(() => refuse('no authentication message'), FIRST_MESSAGE_MS);
  const onMessage = (data: RawData, isBinary: boolean) => {
    queued.push([data, isBinary]);
    if (queued.length > MAX_QUEUED_MESSAGES) return refuse('too many messages before authentication');
    if (queued.length > 1) return;
    clearTimeout(timer);
    const authentication = authenticationOf(bytesOf(data));
    if (!authentication || authentication.documentName !== fileId) return refuse('the first message must authenticate for this file');
    const gridModel = new URL(request.url ?? '/', 'http://localhost').searchParams.get('gridModel');
    sessionAuth(services.sessionTickets, (id) => services.apps.find(id), authentication.token, undefined)
      .then(async (auth) => {
        const context = await admit(app, auth, fileId);
        const outdated = gridModel !== String(SHEET_MODEL_VERSION) && (await services.content.sessionKind(context.appId, fileId)) === 'spreadsheet';
        return { context, outdated };
      })
      .then(
        ({ context, outdated }) => {
          websocket.off('message', onMessage);
          if (websocket.readyState !== WebSocket.OPEN) return;
          if (outdated) return websocket.close(OUTDATED_EDITOR_CLOSE_CODE, `this editor writes an older spreadsheet grid model: reload the page (gridModel ${SHEET_MODEL_VERSION})`);
          // counted as a socket with credentials on its upgrade is: a ticket must not open more than a token
          const taken = caps.take(context);
          if ('refusal' in taken) return websocket.close(SOCKET_LIMIT_CLOSE_CODE, taken.refusal);
          websocket.once('close', taken.release);
          services.content.handleConnection(websocket, request, context);
          for (const [message, binary] of queued) websocket.emit('message', message, binary);
        },
        (error: unknown) => {
          if (!isApiError(error)) app.log.error({ err: error }, 'collaboration authentication failed');
          refuse(isApiError(error) ? `${error.spec.code}` : 'internal error');
        },
      );
  };
  websocket.on('message', onMessage);
  websocket.once('close', () => clearTimeout(timer));
}

/** How long closing sockets get for the close handshake before they are cut. */
const CLOSE_HANDSHAKE_MS = 2000;

/**
 * Closes every session with 1012 "service restart" (RFC 6455 §7.4; a provider reconnects after any close,
 * and the code tells other clients this one is worth retrying at once, elsewhere) and waits for the close
 * handshakes, cutting sockets that do not answer in time.
 */
async function closeSockets(sockets: WebSocketServer): Promise<void> {
  const open = [...sockets.clients];
  const closed = open.map((socket) => new Promise<void>((resolve) => {
    socket.once('close', () => resolve());
    socket.close(SERVICE_RESTART_CLOSE_CODE, 'service restart');
  }));
  const cut = setTimeout(() => open.forEach((socket) => socket.terminate()), CLOSE_HANDSHAKE_MS);
  await Promise.all(closed);
  clearTimeout(cut);
}

/** Close code of a socket beyond the caps (4000 + the HTTP status it would be: too many requests). */
export const SOCKET_LIMIT_CLOSE_CODE = 4429;

/** Counts a socket admitted for `context` against the caps: why it is refused, or how to give its place back. */
interface SocketCaps {
  take(context: CollaborationContext): { refusal: string } | { release: () => void };
}

/**
 * Open collaboration sockets of this process, per user of an application and per file: one token opening a
 * thousand sockets on one file would otherwise hold a thousand sessions' memory and broadcasts.
 */
class SocketCounts {
  private readonly counts = new Map<string, number>();

  /** Why one more socket would exceed `limit` for each key, or undefined: then it is counted until `release`. */
  take(keys: Array<{ key: string; limit: number; what: string }>): { refusal: string } | { release: () => void } {
    const full = keys.find(({ key, limit }) => (this.counts.get(key) ?? 0) >= limit);
    if (full) return { refusal: `${Errors.collaborationSocketLimit.code}: more than ${full.limit} collaboration sockets ${full.what}` };
    for (const { key } of keys) this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        for (const { key } of keys) {
          const left = (this.counts.get(key) ?? 1) - 1;
          if (left === 0) this.counts.delete(key);
          else this.counts.set(key, left);
        }
      },
    };
  }
}

function refuse(socket: Duplex, error: ApiError): void {
  const body = JSON.stringify({ status: error.spec.code, message: error.message, data: error.details ?? null });
  const reason = STATUS_CODES[error.spec.http] ?? 'Error';
  socket.end(
    `HTTP/1.1 ${error.spec.http} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/**
 * The real-time collaboration endpoint on the service's own port: WebSocket upgrades of
 * `/sdk/v2/collab-files/{fileId}/collaboration` are admitted here and handed to the content engine's
 * Hocuspocus (Yjs sync protocol). Refusals are plain HTTP answers with the backend envelope.
 */
export const collaborationEndpoint: FastifyPluginAsync = fp(
  async (app) => {
    const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
    const counts = new SocketCounts();
    const limits = app.services.config.collaborationSockets;
    const caps: SocketCaps = {
      take: (context) =>
        counts.take([
          { key: `user:${context.appId}:${context.actor.userId}`, limit: limits.perUser, what: 'per user (SVC_COLLAB_SOCKETS_PER_USER)' },
          { key: `file:${context.appId}:${context.fileId}`, limit: limits.perFile, what: 'per file (SVC_COLLAB_SOCKETS_PER_FILE)' },
        ]),
    };
    app.services.content.setLogger(app.log.child({ component: 'content' }));

    const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      const url = new URL(request.url ?? '/', 'http://localhost');
      const match = COLLABORATION_PATH.exec(url.pathname);
      if (!match) {
        refuse(socket, new ApiError(Errors.routeNotFound, `no WebSocket endpoint at ${url.pathname}`));
        return;
      }
      socket.on('error', () => socket.destroy());
      let fileId: string;
      try {
        fileId = fileIdOf(match[1]!);
      } catch (error) {
        refuse(socket, error as ApiError);
        return;
      }
      // credentials on the upgrade: a server-side client; none: an editor page, which authenticates in its first message
      const fromServer = ['signature', 'token'].some((name) => url.searchParams.has(name) || typeof request.headers[`x-svc-${name}`] === 'string');
      if (!fromServer) {
        sockets.handleUpgrade(request, socket, head, (websocket) => admitOnFirstMessage(app, websocket, request, fileId, caps));
        return;
      }
      requestAuth(app, request, url).then((auth) => admit(app, auth, fileId)).then(
        (context) => {
          const taken = caps.take(context);
          if ('release' in taken) socket.once('close', taken.release);
          sockets.handleUpgrade(request, socket, head, (websocket) => {
            // refused after the upgrade, so that the editor reads why in the close reason (a refused upgrade is opaque to a page)
            if ('refusal' in taken) websocket.close(SOCKET_LIMIT_CLOSE_CODE, taken.refusal);
            else app.services.content.handleConnection(websocket, request, context);
          });
        },
        (error: unknown) => {
          if (!isApiError(error)) app.log.error({ err: error }, 'collaboration upgrade failed');
          refuse(socket, isApiError(error) ? error : new ApiError(Errors.internal, 'internal error'));
        },
      );
    };
    app.server.on('upgrade', onUpgrade);

    // Shutdown (docs/OPERATIONS.md): before the HTTP server closes (it would wait for open WebSockets), editors
    // are told to reconnect, which the load balancer sends to another process. What they sent and were
    // told is stored is in the database; the content engine records the pending changes when the server has
    // finished its requests (server.ts, onClose).
    app.addHook('preClose', async () => {
      app.server.off('upgrade', onUpgrade);
      await closeSockets(sockets);
      sockets.close();
    });
  },
  { name: 'collaboration-endpoint' },
);
