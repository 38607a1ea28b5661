/**
 * A reference integrator: the other side of the Svc integrator link, small enough to read in one sitting.
 * It keeps users, files and permissions in memory, answers every callback of contract notes 2, verifies the
 * signatures Svc puts on system calls and events, and receives events, deduplicating them by X-Svc-Event-Id.
 *
 * Run it on its own with `npx tsx examples/integrator/main.ts` (see README "Reference integrator"); tests
 * start it in-process through `startIntegrator`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';

/** JOSE `typ` of the signed user tokens this integrator accepts (`npx svc sign --user`). */
export const EXAMPLE_USER_TOKEN_TYPE = 'svc-example-user+jwt';

export type Permissions = Partial<Record<'readable' | 'editable' | 'commentable' | 'copyable' | 'exportable' | 'manageable', boolean>>;

export const ALL_PERMISSIONS: Required<Permissions> = {
  readable: true,
  editable: true,
  commentable: true,
  copyable: true,
  exportable: true,
  manageable: true,
};

export interface User {
  id: string;
  name: string;
  email?: string;
  avatar?: string;
  teamGuid?: string;
  departmentId?: string;
  /** the lines of the user's watermark (`GET /users/{userId}/watermark`); absent or empty: the user has none */
  watermark?: string[];
}

export interface File {
  id: string;
  name: string;
  /** document, documentPro, spreadsheet, presentation, table, or `file` for a third-party (preview) file */
  type: string;
  creatorId: string;
  createdAt: string;
  updatedAt: string;
  views: number;
  advancedPermissions: boolean;
  /** what each user may do; users not listed may do nothing */
  grants: Record<string, Permissions>;
  /** preview files: where the service downloads it and its extension (defaults: `/download/{id}` here, `pdf`) */
  downloadUrl?: string;
  ext?: string;
  /** preview files: the bytes `/download/{id}` serves (404 without them) */
  content?: Buffer;
}

export interface Department {
  id: string;
  name: string;
  parentId?: string;
}

/** An event as received: class, id, headers that matter, body. */
export interface ReceivedEvent {
  eventId: string;
  eventClass: string;
  credentialType: string | undefined;
  token: string | undefined;
  /** claims of the verified X-Svc-Signature, when one was sent */
  claims: Record<string, unknown> | undefined;
  body: Record<string, unknown>;
  receivedAt: number;
}

/** A request the integrator served, as a test may want to see it. */
export interface ServedCall {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
}

/**
 * A hook in front of every route: return a response to answer with instead (tests use it to play a slow,
 * failing or lying integrator), or undefined to answer normally.
 */
export type Intercept = (call: ServedCall) =>
  | { status: number; body?: string; headers?: Record<string, string>; delayMs?: number; destroy?: boolean }
  | undefined
  | Promise<{ status: number; body?: string; headers?: Record<string, string>; delayMs?: number; destroy?: boolean } | undefined>;

export interface IntegratorOptions {
  /** the app secret per appId: signatures on system calls and events are verified with it */
  secretOf: (appId: string) => string | undefined;
  port?: number;
  host?: string;
  /** base of the integrator's own pages (full file URLs) */
  publicUrl?: string;
  /**
   * Development convenience: a file id nobody registered is created on first sight as a document of the
   * caller with every permission. Off by default: an unknown file answers 404.
   */
  autoFiles?: boolean;
}

/**
 * Pages the integrator serves to people on the same origin as its callbacks (the demo intranet): `handle`
 * answers a request it owns and returns true, or returns false (without reading the body) to leave it to the
 * callback routes.
 */
export interface Site {
  handle(req: http.IncomingMessage, res: http.ServerResponse, url: URL): boolean | Promise<boolean>;
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export class ReferenceIntegrator {
  readonly users = new Map<string, User>();
  readonly tokens = new Map<string, string>();
  readonly files = new Map<string, File>();
  readonly departments = new Map<string, Department>();
  readonly teams = new Map<string, { id: string; name: string }>();
  /** every event delivery received, duplicates included, in arrival order */
  readonly deliveries: ReceivedEvent[] = [];
  /** every served call, in arrival order */
  readonly calls: ServedCall[] = [];
  intercept: Intercept | undefined;
  /** base of the integrator's own pages (full file URLs); starts as options.publicUrl */
  publicUrl: string | undefined;
  /** pages for people, tried before the callback routes (examples/integrator/intranet.ts) */
  site: Site | undefined;
  /** called once per event (after deduplication), as it arrives */
  readonly eventListeners = new Set<(event: ReceivedEvent) => void>();
  /** what /events answers (tests switch it to make deliveries fail) */
  eventsAnswer: { status: number; delayMs?: number } = { status: 200 };
  private readonly seenEventIds = new Set<string>();
  private readonly uniqueEvents: ReceivedEvent[] = [];
  private readonly server: http.Server;

  constructor(private readonly options: IntegratorOptions) {
    this.server = http.createServer((req, res) => void this.handle(req, res));
    this.publicUrl = options.publicUrl;
  }

  /** events received, each once (deduplicated by X-Svc-Event-Id), in order of first arrival */
  get events(): readonly ReceivedEvent[] {
    return this.uniqueEvents;
  }

  get url(): string {
    const address = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${address.port}`;
  }

  async listen(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(this.options.port ?? 0, this.options.host ?? '127.0.0.1', resolve));
    return this;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  addUser(user: User & { token?: string }): User {
    const { token, ...record } = user;
    this.users.set(record.id, record);
    if (token !== undefined) this.tokens.set(token, record.id);
    return record;
  }

  addFile(file: Partial<File> & { id: string; grants?: Record<string, Permissions> }): File {
    const now = new Date().toISOString();
    const record: File = {
      name: file.id,
      type: 'document',
      creatorId: Object.keys(file.grants ?? {})[0] ?? 'unknown',
      createdAt: now,
      updatedAt: now,
      views: 0,
      advancedPermissions: false,
      grants: {},
      ...file,
    };
    this.files.set(record.id, record);
    return record;
  }

  /**
   * `GET /download/{id}`: a preview file's bytes, where its default `downloadUrl` points. An integrator's real
   * store would answer a pre-signed, expiring link instead; the service only ever fetches what `/files/{id}` named.
   */
  private download(path: string, res: http.ServerResponse): boolean {
    const match = path.match(/^\/download\/([^/]+)$/);
    if (!match) return false;
    const file = this.files.get(decodeURIComponent(match[1]!));
    if (file?.type !== 'file' || !file.content) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'no such download' }));
      return true;
    }
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': file.content.length }).end(file.content);
    return true;
  }

  grant(fileId: string, userId: string, permissions: Permissions): void {
    const file = this.files.get(fileId);
    if (!file) throw new Error(`no file ${fileId}`);
    file.grants[userId] = { ...file.grants[userId], ...permissions };
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://integrator.local');
    try {
      if (await this.site?.handle(req, res, url)) return;
      const call: ServedCall = { method: req.method ?? 'GET', path: url.pathname, headers: req.headers };
      this.calls.push(call);
      if (call.method === 'GET' && this.download(url.pathname, res)) return;
      const body = await readBody(req);
      const override = await this.intercept?.(call);
      if (override) {
        if (override.delayMs) await new Promise((resolve) => setTimeout(resolve, override.delayMs));
        if (override.destroy) {
          req.socket.destroy();
          return;
        }
        res.writeHead(override.status, { 'content-type': 'application/json', ...override.headers }).end(override.body ?? '');
        return;
      }
      const answer = await this.route(req, url, body);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    } catch (error) {
      const status = error instanceof HttpError ? error.status : 500;
      if (!res.headersSent) res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: (error as Error).message }));
    }
  }

  private async route(req: http.IncomingMessage, url: URL, body: unknown): Promise<unknown> {
    const method = req.method ?? 'GET';
    const path = url.pathname;
    const query = url.searchParams;
    let m: RegExpMatchArray | null;

    if (method === 'POST' && path === '/events') return this.receiveEvent(req, body);

    // System calls (credential type 3) are made by Svc itself, signed with the app secret.
    if (path.startsWith('/admin/') || (method === 'POST' && /^\/files\/[^/]+\/url$/.test(path))) {
      const claims = await this.verifySignature(req);
      if ((m = path.match(/^\/admin\/files\/([^/]+)$/))) return this.fileMetadata(this.file(m[1]!), undefined);
      if ((m = path.match(/^\/admin\/files\/([^/]+)\/by-user-id$/))) return this.fileMetadata(this.file(m[1]!), this.userById(query.get('userId') ?? ''));
      if ((m = path.match(/^\/files\/([^/]+)\/url$/))) {
        const file = this.file(m[1]!);
        if (claims.fileId !== undefined && claims.fileId !== file.id) throw new HttpError(403, 'signature is for another file');
        return { url: `${this.publicUrl ?? this.url}/files/${encodeURIComponent(file.id)}` };
      }
      throw new HttpError(404, 'no such system call');
    }

    // User calls (credential type 0) carry the user's own session token.
    const me = await this.currentUser(req);
    if (method === 'GET' && path === '/users/current/info') return publicUser(me);
    if (method === 'GET' && path === '/users/current/team') {
      const team = me.teamGuid ? this.teams.get(me.teamGuid) : undefined;
      if (!team) throw new HttpError(404, 'no team');
      return { ...team, memberCount: this.teamMembers(team.id).length };
    }
    if (method === 'POST' && path === '/users/batch/get') {
      const ids = Array.isArray((body as { ids?: unknown })?.ids) ? ((body as { ids: unknown[] }).ids as unknown[]) : [];
      return ids.flatMap((id) => (typeof id === 'string' && this.users.has(id) ? [publicUser(this.users.get(id)!)] : []));
    }
    if ((m = path.match(/^\/users\/([^/]+)$/))) return publicUser(this.userById(decodeURIComponent(m[1]!)));
    if ((m = path.match(/^\/users\/([^/]+)\/watermark$/))) {
      const user = this.userById(decodeURIComponent(m[1]!));
      return { watermarks: user.watermark ?? [] };
    }
    if ((m = path.match(/^\/users\/([^/]+)\/department-paths$/))) return this.departmentPaths(this.userById(decodeURIComponent(m[1]!)));
    if (method === 'GET' && path === '/files') {
      const limit = Number(query.get('limit') ?? 50);
      const key = query.get('orderBy') === 'created_at' ? 'createdAt' : 'updatedAt';
      return this.visibleFiles(me)
        .sort((a, b) => b[key].localeCompare(a[key]))
        .slice(0, limit)
        .map((file) => this.listEntry(file, me));
    }
    if ((m = path.match(/^\/files\/([^/]+)$/))) return this.fileMetadata(this.file(decodeURIComponent(m[1]!), me), me);
    if ((m = path.match(/^\/files\/([^/]+)\/collaborators$/))) {
      const file = this.file(decodeURIComponent(m[1]!), me);
      return Object.entries(file.grants)
        .filter(([userId, grant]) => grant.readable && this.users.has(userId))
        .map(([userId, grant]) => ({ ...publicUser(this.users.get(userId)!), isManager: grant.manageable === true }));
    }
    if ((m = path.match(/^\/teams\/([^/]+)\/members$/))) return this.page(this.teamMembers(decodeURIComponent(m[1]!)), query).map(publicUser);
    if ((m = path.match(/^\/departments\/([^/]+)(\/children|\/members)?$/))) {
      const department = this.departments.get(decodeURIComponent(m[1]!));
      if (!department) throw new HttpError(404, 'no such department');
      const members = [...this.users.values()].filter((u) => this.departmentChain(u.departmentId).some((d) => d.id === department.id));
      if (m[2] === '/children') {
        return [...this.departments.values()].filter((d) => d.parentId === department.id).map((d) => this.departmentInfo(d));
      }
      if (m[2] === '/members') return { total: members.length, members: this.page(members, query).map(publicUser) };
      return this.departmentInfo(department);
    }
    if (method === 'GET' && path === '/search/users/recent') {
      const fileId = query.get('fileId');
      const file = fileId ? this.files.get(fileId) : undefined;
      const ids = file ? Object.keys(file.grants) : [...this.users.keys()];
      return ids.filter((id) => id !== me.id && this.users.has(id)).map((id) => publicUser(this.users.get(id)!));
    }
    if (method === 'GET' && path === '/search/files/recent') {
      const fileId = query.get('fileId');
      return this.visibleFiles(me)
        .filter((file) => file.id !== fileId)
        .map((file) => this.listEntry(file, me));
    }
    if (method === 'POST' && path === '/search') {
      const request = body as { keyword?: unknown; page?: unknown; pageSize?: unknown };
      const keyword = typeof request.keyword === 'string' ? request.keyword.toLowerCase() : '';
      const page = typeof request.page === 'number' ? request.page : 1;
      const pageSize = typeof request.pageSize === 'number' ? request.pageSize : 20;
      const files = this.visibleFiles(me).filter((f) => f.name.toLowerCase().includes(keyword)).map((f) => this.listEntry(f, me));
      const users = [...this.users.values()].filter((u) => u.name.toLowerCase().includes(keyword)).map(publicUser);
      const paged = <T>(all: T[]) => ({
        count: all.length,
        page,
        pageSize,
        pageCount: Math.ceil(all.length / pageSize),
        results: all.slice((page - 1) * pageSize, page * pageSize),
      });
      return { files: paged(files), recentUsers: paged(users), collaborators: paged([]), teamMembers: paged([]), department: paged([]) };
    }
    throw new HttpError(404, `no route ${method} ${path}`);
  }

  /** Verifies the X-Svc-Signature Svc puts on system calls and events: HS256 with the app secret, unexpired. */
  private async verifySignature(req: http.IncomingMessage): Promise<Record<string, unknown>> {
    const signature = req.headers['x-svc-signature'];
    if (typeof signature !== 'string') throw new HttpError(401, 'signature missing');
    try {
      const { kid } = decodeProtectedHeader(signature);
      const secret = typeof kid === 'string' ? this.options.secretOf(kid) : undefined;
      if (!secret) throw new Error('unknown app');
      const { payload } = await jwtVerify(signature, new TextEncoder().encode(secret), { algorithms: ['HS256'], requiredClaims: ['exp'] });
      return payload as Record<string, unknown>;
    } catch {
      throw new HttpError(401, 'signature invalid');
    }
  }

  private async receiveEvent(req: http.IncomingMessage, body: unknown): Promise<unknown> {
    const claims = req.headers['x-svc-signature'] !== undefined ? await this.verifySignature(req) : undefined;
    if (req.headers['x-svc-credential-type'] === '3' && !claims) throw new HttpError(401, 'system event without signature');
    const eventId = req.headers['x-svc-event-id'];
    const eventClass = req.headers['x-svc-sdk-event'];
    if (typeof eventId !== 'string' || typeof eventClass !== 'string' || typeof body !== 'object' || body === null) {
      throw new HttpError(400, 'not an event');
    }
    if (this.eventsAnswer.delayMs) await new Promise((resolve) => setTimeout(resolve, this.eventsAnswer.delayMs));
    if (this.eventsAnswer.status !== 200) throw new HttpError(this.eventsAnswer.status, 'events refused for now');
    const event: ReceivedEvent = {
      eventId,
      eventClass,
      credentialType: header(req, 'x-svc-credential-type'),
      token: header(req, 'x-svc-token'),
      claims,
      body: body as Record<string, unknown>,
      receivedAt: Date.now(),
    };
    this.deliveries.push(event);
    if (!this.seenEventIds.has(eventId)) {
      this.seenEventIds.add(eventId);
      this.uniqueEvents.push(event);
      for (const listener of this.eventListeners) listener(event);
    }
    return {};
  }

  private async currentUser(req: http.IncomingMessage): Promise<User> {
    const token = header(req, 'x-svc-token');
    const userId = token === undefined ? undefined : (this.tokens.get(token) ?? (await this.userOfSignedToken(token)));
    const user = userId === undefined ? undefined : this.users.get(userId);
    if (!user) throw new HttpError(401, 'unknown token');
    return user;
  }

  /**
   * Besides its fixed tokens, this integrator accepts user tokens signed with the app secret, as
   * `npx svc sign --app <appId> --user <userId>` prints them (src/cli/sign.ts): JOSE `typ`
   * svc-example-user+jwt, HS256, the appId in `aud`, the user in `sub`, unexpired. A real integrator hands
   * out its own session tokens instead.
   */
  private async userOfSignedToken(token: string): Promise<string | undefined> {
    try {
      if (decodeProtectedHeader(token).typ !== EXAMPLE_USER_TOKEN_TYPE) return undefined;
      const { aud } = decodeJwt(token);
      const secret = typeof aud === 'string' ? this.options.secretOf(aud) : undefined;
      if (!secret) return undefined;
      const { payload } = await jwtVerify(token, new TextEncoder().encode(secret), {
        algorithms: ['HS256'],
        typ: EXAMPLE_USER_TOKEN_TYPE,
        audience: aud as string,
        requiredClaims: ['exp', 'sub'],
      });
      return payload.sub;
    } catch {
      return undefined;
    }
  }

  private userById(id: string): User {
    const user = this.users.get(id);
    if (!user) throw new HttpError(404, 'no such user');
    return user;
  }

  private file(id: string, caller?: User): File {
    const file = this.files.get(id);
    if (file) return file;
    if (this.options.autoFiles && caller) return this.addFile({ id, creatorId: caller.id, grants: { [caller.id]: { ...ALL_PERMISSIONS } } });
    throw new HttpError(404, 'no such file');
  }

  private permissionsOf(file: File, user: User | undefined): Required<Permissions> {
    if (!user) return { ...ALL_PERMISSIONS };
    const grant = this.options.autoFiles ? { ...ALL_PERMISSIONS, ...file.grants[user.id] } : (file.grants[user.id] ?? {});
    return {
      readable: grant.readable === true,
      editable: grant.editable === true,
      commentable: grant.commentable === true,
      copyable: grant.copyable === true,
      exportable: grant.exportable === true,
      manageable: grant.manageable === true,
    };
  }

  private fileMetadata(file: File, user: User | undefined) {
    return {
      id: file.id,
      name: file.name,
      type: file.type,
      creatorId: file.creatorId,
      createdAt: file.createdAt,
      updatedAt: file.updatedAt,
      views: file.views,
      permissions: this.permissionsOf(file, user),
      advancedPermissions: file.advancedPermissions,
      ...(file.type === 'file' ? { downloadUrl: file.downloadUrl ?? `${this.publicUrl ?? this.url}/download/${encodeURIComponent(file.id)}`, ext: file.ext ?? 'pdf' } : {}),
    };
  }

  private visibleFiles(user: User): File[] {
    return [...this.files.values()].filter((file) => this.permissionsOf(file, user).readable);
  }

  private listEntry(file: File, user: User) {
    const { readable, editable, commentable } = this.permissionsOf(file, user);
    return {
      id: file.id,
      name: file.name,
      type: file.type,
      permissions: { readable, editable, commentable },
      creatorId: file.creatorId,
      createdAt: file.createdAt,
      updatedAt: file.updatedAt,
      views: file.views,
      ...(file.type === 'file' ? { fullUrl: `${this.publicUrl ?? this.url}/files/${encodeURIComponent(file.id)}` } : {}),
    };
  }

  private teamMembers(teamGuid: string): User[] {
    return [...this.users.values()].filter((user) => user.teamGuid === teamGuid);
  }

  private departmentChain(departmentId: string | undefined): Department[] {
    const chain: Department[] = [];
    for (let id = departmentId; id !== undefined && chain.length < 64; ) {
      const department = this.departments.get(id);
      if (!department) break;
      chain.unshift(department);
      id = department.parentId;
    }
    return chain;
  }

  private departmentPaths(user: User) {
    const chain = this.departmentChain(user.departmentId);
    return chain.length ? [chain.map(({ id, name }) => ({ id, name }))] : [];
  }

  private departmentInfo(department: Department) {
    const allMemberCount = [...this.users.values()].filter((u) => this.departmentChain(u.departmentId).some((d) => d.id === department.id)).length;
    return { id: department.id, name: department.name, allMemberCount };
  }

  private page<T>(all: T[], query: URLSearchParams): T[] {
    const page = Math.max(1, Number(query.get('page') ?? 1) || 1);
    const pageSize = Math.max(1, Number(query.get('pageSize') ?? 50) || 50);
    return all.slice((page - 1) * pageSize, page * pageSize);
  }
}

function header(req: http.IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
}

function publicUser(user: User) {
  return { id: user.id, name: user.name, avatar: user.avatar ?? '', email: user.email ?? '', ...(user.teamGuid ? { teamGuid: user.teamGuid } : {}) };
}

export async function readBody(req: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, 'invalid JSON');
  }
}

export async function startIntegrator(options: IntegratorOptions): Promise<ReferenceIntegrator> {
  return new ReferenceIntegrator(options).listen();
}
