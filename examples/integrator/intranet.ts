/**
 * The demo intranet: the reference integrator's pages for people (`npm run demo`, README "Try it").
 *
 * It shares the integrator's origin and port with the callbacks. The browser talks only to this back end
 * (`/intranet/api/…`): it picks a colleague, lists and creates files, and gets what `connect()` needs to open
 * one. The back end signs with the app secret and calls the service's backend API; the browser never sees
 * the secret. Files are kept in a JSON file beside the service's data, so a restart keeps them.
 *
 * It is a demo, not a model of sign-in: signing in is picking a name (the session token is that colleague's
 * integrator token, made anew at each start), and the received events are shown to whoever opens the page.
 *
 *   GET  /                                   the page (also /intranet/files/{fileId}: the page opening that file)
 *   GET  /intranet/app.js, /intranet/app.css its script (page/app.ts, transpiled once) and styles
 *   POST /intranet/api/session {userId}      signs in as a colleague: {token, user}
 *   GET  /intranet/api/colleagues            who can sign in
 *   GET  /intranet/api/files                 files the signed-in user may read, most recently changed first
 *   POST /intranet/api/files {name, type}    creates a file: registered here, then on the service
 *   POST /intranet/api/files/{fileId}/open   {endpoint, fileId, token, signature} for the SDK's connect()
 *   POST /intranet/api/files/{fileId}/notify {text}: pushed to every open editor of the file
 *   POST /intranet/api/files/{fileId}/share {userId}  lets that colleague edit the file; written to its behavior history
 *   GET  /intranet/api/events                the events the integrator received, as a server-sent event stream
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SignJWT } from 'jose';
import ts from 'typescript';
import { ALL_PERMISSIONS, HttpError, readBody, type File, type ReceivedEvent, type ReferenceIntegrator, type Site, type User } from './integrator.js';

/** The kinds of collaborative file a user can create (platform-api.md 4.2). */
export const FILE_KINDS = ['document', 'documentPro', 'spreadsheet', 'presentation', 'table'] as const;
export type FileKind = (typeof FILE_KINDS)[number];

const PAGE_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'page');
/** The signature the page gets lives this long; the SDK asks for a new one through getCredentials. */
const SIGNATURE_TTL = '30m';
const MAX_NAME_LENGTH = 120;
/** Longest notice a colleague may send to everyone in a file. */
const MAX_NOTICE_LENGTH = 500;
/** The department whose members read and comment but do not edit others' files. */
export const GUESTS = 'guests';
/** Events kept for the page's live list (the oldest are dropped first). */
const EVENT_HISTORY = 200;

/** A colleague one can sign in as. */
export interface Colleague {
  id: string;
  name: string;
  email: string;
  department: string;
}

/** A file as the page lists it. */
export interface FileEntry {
  id: string;
  name: string;
  type: string;
  creatorName: string;
  updatedAt: string;
  editable: boolean;
}

/** An event as the page shows it: a sentence made here (names resolved), and the body as received. */
export interface EventEntry {
  id: string;
  eventClass: string;
  receivedAt: number;
  fileId: string | undefined;
  fileName: string | undefined;
  summary: string;
  /** users the event names as mentioned (the page marks events that mention the signed-in user) */
  mentioned: string[];
  body: Record<string, unknown>;
}

interface SavedState {
  files: File[];
}

export interface IntranetOptions {
  integrator: ReferenceIntegrator;
  /** the service's base address, e.g. `http://127.0.0.1:3000` */
  serviceUrl: string;
  appId: string;
  secret: string;
  /** where files are kept between runs (JSON); none: in memory only */
  statePath?: string;
}

/** How long the demo's first run waits for one of its seed files to be imported, and how often it asks. */
const IMPORT_WAIT_MS = 120_000;
const IMPORT_POLL_MS = 250;

export class Intranet implements Site {
  private readonly integrator: ReferenceIntegrator;
  private readonly sessions = new Map<string, string>();
  private readonly recent: EventEntry[] = [];
  private readonly streams = new Set<http.ServerResponse>();
  private script: string | undefined;

  constructor(private readonly options: IntranetOptions) {
    this.integrator = options.integrator;
    for (const file of this.loadFiles()) this.integrator.files.set(file.id, file);
    this.integrator.eventListeners.add((event) => this.received(event));
    options.integrator.site = this;
  }

  /** The base of the intranet's own URLs of files (what `generateUrl` and the file-search callback give). */
  static filesPath = '/intranet/files/';

  async handle(req: http.IncomingMessage, res: http.ServerResponse, url: URL): Promise<boolean> {
    const method = req.method ?? 'GET';
    const route = url.pathname;
    if (method === 'GET' && (route === '/' || route.startsWith(Intranet.filesPath))) return this.send(res, 200, 'text/html; charset=utf-8', this.asset('index.html'));
    if (!route.startsWith('/intranet/')) return false;
    if (method === 'GET' && route === '/intranet/app.js') return this.send(res, 200, 'text/javascript; charset=utf-8', this.pageScript());
    if (method === 'GET' && route === '/intranet/app.css') return this.send(res, 200, 'text/css; charset=utf-8', this.asset('app.css'));
    if (method === 'GET' && route === '/intranet/api/events') return this.openStream(req, res);
    const answer = await this.api(method, route, req);
    return this.send(res, 200, 'application/json', JSON.stringify(answer));
  }

  /**
   * Creates a file as `creator`: registered with the integrator (everyone may edit), then on the service, empty,
   * or with `content` imported (the import API: the service converts the file into the new one).
   */
  async createFile(creator: User, name: string, type: FileKind, content?: { fileName: string; bytes: Uint8Array }): Promise<File> {
    const id = `${type}-${crypto.randomBytes(6).toString('base64url')}`;
    const grants: File['grants'] = {};
    for (const user of this.integrator.users.values()) grants[user.id] = this.grantFor(user, user.id === creator.id);
    const file = this.integrator.addFile({ id, name, type, creatorId: creator.id, grants });
    try {
      if (content) await this.importInto(creator, file, content);
      else await this.callService('files', creator, { type, fileId: id }, 'the service refused the file');
    } catch (error) {
      this.integrator.files.delete(id);
      throw error;
    }
    this.saveFiles();
    return file;
  }

  /** Imports `content` as the new file `file` and waits until the service has made it. */
  private async importInto(creator: User, file: File, content: { fileName: string; bytes: Uint8Array }): Promise<void> {
    const form = new FormData();
    form.append('fileId', file.id);
    form.append('type', file.type);
    form.append('file', new Blob([new Uint8Array(content.bytes)]), content.fileName);
    const { taskId } = (await this.callService('files/v2/import', creator, form, 'the service refused the import')) as { taskId: string };
    for (let waited = 0; waited < IMPORT_WAIT_MS; waited += IMPORT_POLL_MS) {
      const { progress } = (await this.callService('files/v2/import/progress', creator, { taskId }, 'the import failed')) as { progress: number };
      if (progress === 100) return;
      await new Promise((resolve) => setTimeout(resolve, IMPORT_POLL_MS));
    }
    throw new HttpError(504, `the import of ${content.fileName} did not finish within ${IMPORT_WAIT_MS / 1000} s`);
  }

  /** A comment by `author` on a document's text from `from` to `to` (ProseMirror positions). */
  async comment(author: User, fileId: string, selection: { from: number; to: number }, content: string): Promise<void> {
    await this.callService(`../collab-files/${encodeURIComponent(fileId)}/comments`, author, { selection, content }, 'the service refused the comment');
  }

  /**
   * "Notify everyone in this file": the sender's words pushed to every editor that has the file open
   * (docs/PUSH-AND-EVENTS.md); the editors show `message.text` as a notice.
   */
  async notifyFile(sender: User, fileId: string, text: string): Promise<{ pushId: string }> {
    const message = { text: `${sender.name}: ${text}`, from: sender.id, kind: 'intranet-notice' };
    return (await this.callService(`files/${encodeURIComponent(fileId)}/push`, sender, { message }, 'the service did not send the notice')) as { pushId: string };
  }

  /**
   * POST to the service's backend API as `user` (signed with the app secret), `route` relative to `/sdk/v2/api/`,
   * `body` JSON or a multipart form; answers `data`, a 502 when it refuses.
   */
  private async callService(route: string, user: User, body: unknown, refused: string): Promise<unknown> {
    const headers: Record<string, string> = { 'x-svc-signature': await this.signature(), 'x-svc-token': this.tokenOf(user) };
    if (!(body instanceof FormData)) headers['content-type'] = 'application/json';
    const response = await fetch(new URL(route, `${this.options.serviceUrl}/sdk/v2/api/`), {
      method: 'POST',
      headers,
      body: body instanceof FormData ? body : JSON.stringify(body),
    });
    const answer = (await response.json().catch(() => undefined)) as { status?: number; message?: string; data?: unknown } | undefined;
    if (!response.ok || answer?.status !== 0) throw new HttpError(502, `${refused}: ${answer?.message ?? response.status}`);
    return answer.data;
  }

  /** A session token of a colleague (the token the service hands back to the integrator's callbacks). */
  tokenOf(user: User): string {
    for (const [token, userId] of this.integrator.tokens) if (userId === user.id) return token;
    throw new HttpError(404, `no session for ${user.id}`);
  }

  close(): void {
    for (const stream of this.streams) stream.end();
    this.streams.clear();
  }

  /** Guests read and comment; colleagues edit; the creator also manages. */
  private grantFor(user: User, isCreator: boolean) {
    if (isCreator) return { ...ALL_PERMISSIONS };
    if (user.departmentId === GUESTS) return { readable: true, commentable: true };
    return { readable: true, editable: true, commentable: true, copyable: true, exportable: true };
  }

  private async api(method: string, route: string, req: http.IncomingMessage): Promise<unknown> {
    if (method === 'GET' && route === '/intranet/api/colleagues') return [...this.integrator.users.values()].map((user) => this.colleague(user));
    if (method === 'POST' && route === '/intranet/api/session') {
      const { userId } = (await readBody(req)) as { userId?: unknown } | undefined ?? {};
      const user = typeof userId === 'string' ? this.integrator.users.get(userId) : undefined;
      if (!user) throw new HttpError(404, 'no such colleague');
      return { token: this.tokenOf(user), user: this.colleague(user) };
    }
    const me = this.signedIn(req);
    if (method === 'GET' && route === '/intranet/api/files') {
      return [...this.integrator.files.values()]
        .filter((file) => file.grants[me.id]?.readable)
        .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))
        .map((file): FileEntry => ({
          id: file.id,
          name: file.name,
          type: file.type,
          creatorName: this.integrator.users.get(file.creatorId)?.name ?? file.creatorId,
          updatedAt: file.updatedAt,
          editable: file.grants[me.id]?.editable === true,
        }));
    }
    if (method === 'POST' && route === '/intranet/api/files') {
      const { name, type } = ((await readBody(req)) ?? {}) as { name?: unknown; type?: unknown };
      if (typeof name !== 'string' || name.trim().length === 0 || name.length > MAX_NAME_LENGTH) {
        throw new HttpError(400, `a name of 1-${MAX_NAME_LENGTH} characters is needed`);
      }
      if (!FILE_KINDS.includes(type as FileKind)) throw new HttpError(400, `type must be one of ${FILE_KINDS.join(', ')}`);
      const file = await this.createFile(me, name.trim(), type as FileKind);
      return { id: file.id, name: file.name, type: file.type };
    }
    const open = /^\/intranet\/api\/files\/([^/]+)\/open$/.exec(route);
    if (method === 'POST' && open) {
      const file = this.integrator.files.get(decodeURIComponent(open[1]!));
      if (!file || !file.grants[me.id]?.readable) throw new HttpError(404, 'no such file');
      return {
        endpoint: `${this.options.serviceUrl}/sdk/v2`,
        fileId: file.id,
        name: file.name,
        type: file.type,
        token: this.tokenOf(me),
        signature: await this.signature(),
      };
    }
    const notify = /^\/intranet\/api\/files\/([^/]+)\/notify$/.exec(route);
    if (method === 'POST' && notify) {
      const file = this.integrator.files.get(decodeURIComponent(notify[1]!));
      if (!file || !file.grants[me.id]?.readable) throw new HttpError(404, 'no such file');
      const { text } = ((await readBody(req)) ?? {}) as { text?: unknown };
      if (typeof text !== 'string' || text.trim().length === 0 || text.length > MAX_NOTICE_LENGTH) {
        throw new HttpError(400, `a message of 1-${MAX_NOTICE_LENGTH} characters is needed`);
      }
      return this.notifyFile(me, file.id, text.trim());
    }
    const share = /^\/intranet\/api\/files\/([^/]+)\/share$/.exec(route);
    if (method === 'POST' && share) {
      const file = this.integrator.files.get(decodeURIComponent(share[1]!));
      if (!file || !file.grants[me.id]?.readable) throw new HttpError(404, 'no such file');
      const { userId } = ((await readBody(req)) as { userId?: unknown } | undefined) ?? {};
      const colleague = typeof userId === 'string' ? this.integrator.users.get(userId) : undefined;
      if (!colleague) throw new HttpError(404, 'no such colleague');
      return { sharedWith: await this.shareFile(file, me, colleague) };
    }
    throw new HttpError(404, `no route ${method} ${route}`);
  }

  /**
   * Shares `file` with `colleague` (they may edit it from now on) and writes that into the file's history on
   * the service (docs/BEHAVIOR-HISTORY.md), where every editor's history panel shows it.
   */
  private async shareFile(file: File, sharer: User, colleague: User): Promise<string> {
    file.grants[colleague.id] = { ...file.grants[colleague.id], readable: true, commentable: true, editable: true };
    this.saveFiles();
    const response = await fetch(`${this.options.serviceUrl}/sdk/v2/api/files/${encodeURIComponent(file.id)}/behavior-histories`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-svc-signature': await this.signature(), 'x-svc-token': this.tokenOf(sharer) },
      body: JSON.stringify({ userId: sharer.id, action: 'shared', content: `with ${colleague.name}` }),
    });
    const answer = (await response.json().catch(() => undefined)) as { status?: number; message?: string } | undefined;
    if (!response.ok || answer?.status !== 0) throw new HttpError(502, `shared, but the service did not record it: ${answer?.message ?? response.status}`);
    return colleague.name;
  }

  private colleague(user: User): Colleague {
    const department = user.departmentId === undefined ? undefined : this.integrator.departments.get(user.departmentId);
    return { id: user.id, name: user.name, email: user.email ?? '', department: department?.name ?? '' };
  }

  private signedIn(req: http.IncomingMessage): User {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const userId = token === undefined ? undefined : this.integrator.tokens.get(token);
    const user = userId === undefined ? undefined : this.integrator.users.get(userId);
    if (!user) throw new HttpError(401, 'sign in first');
    return user;
  }

  /** The app's signature JWT (README "Calling the backend API"), made here with the secret. */
  private signature(): Promise<string> {
    return new SignJWT({})
      .setProtectedHeader({ alg: 'HS256', kid: this.options.appId })
      .setExpirationTime(SIGNATURE_TTL)
      .sign(new TextEncoder().encode(this.options.secret));
  }

  private received(event: ReceivedEvent): void {
    const entry = this.describe(event);
    this.recent.push(entry);
    if (this.recent.length > EVENT_HISTORY) this.recent.shift();
    // the file list shows what changed last first
    const file = entry.fileId === undefined ? undefined : this.integrator.files.get(entry.fileId);
    if (file && event.eventClass === 'FileContent') {
      file.updatedAt = new Date(event.receivedAt).toISOString();
      this.saveFiles();
    }
    const frame = `data: ${JSON.stringify(entry)}\n\n`;
    for (const stream of this.streams) stream.write(frame);
  }

  private openStream(req: http.IncomingMessage, res: http.ServerResponse): boolean {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
    for (const entry of this.recent) res.write(`data: ${JSON.stringify(entry)}\n\n`);
    this.streams.add(res);
    req.once('close', () => this.streams.delete(res));
    return true;
  }

  private describe(event: ReceivedEvent): EventEntry {
    const body = event.body;
    const fileId = typeof body.fileId === 'string' ? body.fileId : undefined;
    const fileName = fileId === undefined ? undefined : (this.integrator.files.get(fileId)?.name ?? fileId);
    const name = (id: unknown) => (typeof id === 'string' ? (this.integrator.users.get(id)?.name ?? id) : 'Someone');
    const who = name(body.userId);
    const where = fileName === undefined ? '' : ` “${fileName}”`;
    const comment = record(body.comment);
    const discussion = record(body.discussion);
    const mentionAt = record(body.mentionAt);
    const mentioned = stringList(comment?.userIds ?? discussion?.userIds ?? mentionAt?.userIds);
    const names = mentioned.map(name).join(', ');
    let summary: string;
    switch (event.eventClass) {
      case 'FileContent':
        summary = `${who} changed${where} (version ${String(record(body.fileContent)?.version ?? '?')})`;
        break;
      case 'Collaborator':
        summary = `${who} ${body.action === 'leave' ? 'closed' : 'opened'}${where}`;
        break;
      case 'Comment':
        if (body.action === 'delete') summary = `${who} deleted a comment in${where}`;
        else if (body.action === 'closeComments') summary = `${who} resolved a comment thread in${where}`;
        else summary = `${who} ${body.action === 'update' ? 'edited a comment' : 'commented'} in${where}: “${plainText(comment?.content)}”`;
        break;
      case 'MentionAt':
        summary = `${who} mentioned ${names || 'someone'} in${where}${comment || discussion ? `: “${plainText((comment ?? discussion)?.content)}”` : ''}`;
        break;
      case 'Discussion':
        summary = `${who} wrote in the discussion of${where}: “${plainText(discussion?.content)}”`;
        break;
      case 'DateMention':
        summary = `${who} ${body.action === 'remove' ? 'removed' : 'set'} a date reminder in${where}`;
        break;
      default:
        summary = `${event.eventClass}${body.action ? ` ${String(body.action)}` : ''} by ${who}${where ? ` in${where}` : ''}`;
    }
    return { id: event.eventId, eventClass: event.eventClass, receivedAt: event.receivedAt, fileId, fileName, summary, mentioned, body };
  }

  private send(res: http.ServerResponse, status: number, type: string, body: string): true {
    res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' }).end(body);
    return true;
  }

  private asset(name: string): string {
    return fs.readFileSync(path.join(PAGE_DIR, name), 'utf8');
  }

  /** page/app.ts as JavaScript: its imports of the SDK are types only, so a transpile is all it needs. */
  private pageScript(): string {
    this.script ??= ts.transpileModule(this.asset('app.ts'), { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext } }).outputText;
    return this.script;
  }

  private loadFiles(): File[] {
    if (!this.options.statePath || !fs.existsSync(this.options.statePath)) return [];
    return (JSON.parse(fs.readFileSync(this.options.statePath, 'utf8')) as SavedState).files;
  }

  private saveFiles(): void {
    if (!this.options.statePath) return;
    const state: SavedState = { files: [...this.integrator.files.values()] };
    fs.writeFileSync(this.options.statePath, JSON.stringify(state, null, 2));
  }
}


function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** The text of comment content: a string, or inline nodes (docs/CONVERSATIONS.md "Content"), possibly as JSON. */
function plainText(content: unknown): string {
  let nodes = content;
  if (typeof content === 'string') {
    try {
      nodes = JSON.parse(content);
    } catch {
      return content;
    }
  }
  if (!Array.isArray(nodes)) return typeof content === 'string' ? content : '';
  return nodes
    .map((node) => {
      const item = record(node);
      if (item?.type === 'text') return typeof item.text === 'string' ? item.text : '';
      if (item?.type === 'mention') return `@${String(record(item.attrs)?.label ?? record(item.attrs)?.id ?? '')}`;
      return item?.type === 'hardBreak' ? ' ' : '';
    })
    .join('');
}
