import type { App } from '../apps/app.js';
import { ApiError, Errors } from '../errors.js';
import type { RequestAuth } from '../auth/request-auth.js';
import { concernsAnswer, type AppChange, type AppChanges } from '../apps/app-changes.js';
import { AnswerCache } from './answer-cache.js';
import type { CallbackClient, CallContext } from './callback-client.js';
import type { FileAccess, FileMetadata, IntegratorUser, Permission } from './types.js';
import { watermarkLines } from '../model/watermark.js';

/**
 * The first key parts of every remembered answer: the app and the address that gave it. An answer of the old
 * address is never used after the endpoint URL changes, even where the change was not announced (the command
 * line on the database, a Redis outage): as soon as this process reads the app again.
 */
function origin(auth: RequestAuth): [string, string] {
  return [auth.app.id, auth.app.endpointUrl ?? ''];
}

const VERBS: Record<Permission, string> = {
  readable: 'read',
  editable: 'edit',
  commentable: 'comment on',
  copyable: 'copy',
  exportable: 'export',
  manageable: 'manage',
};

/** Whether the application lets this user in (its seat policy); throws the refusal. */
export type AdmitUser = (app: App, userId: string) => Promise<void>;

/**
 * Permission resolution for user-context requests. The integrator owns users and permissions: the token
 * becomes a user through `/users/current/info`, a file becomes metadata and permission booleans through
 * `/files/{fileId}`. Answers are reused for `ttlMs` (0: never) per app + token (+ file). Every user-context
 * call resolves its user here, so this is where the app's seat policy admits or refuses the user, on every
 * call (never cached: a disabled seat takes effect at once).
 */
export class AccessService {
  private readonly users: AnswerCache<IntegratorUser>;
  private readonly files: AnswerCache<FileMetadata>;
  private readonly people: AnswerCache<IntegratorUser | null>;
  private readonly watermarks: AnswerCache<string[]>;

  constructor(
    private readonly callbacks: CallbackClient,
    ttlMs: number,
    private readonly admit: AdmitUser,
    changes: AppChanges,
  ) {
    this.users = new AnswerCache(ttlMs);
    this.files = new AnswerCache(ttlMs);
    this.people = new AnswerCache(ttlMs);
    this.watermarks = new AnswerCache(ttlMs);
    changes.subscribe((change) => this.changed(change));
  }

  /**
   * The user behind the request's token; 401 (10003 / table 20000) when the integrator does not know it, 403 /
   * 20011 when the app's seat policy does not admit them.
   */
  async currentUser(auth: RequestAuth): Promise<IntegratorUser> {
    const context = this.userContext(auth);
    const user = await this.users.get([...origin(auth), context.token], () => this.callbacks.currentUser(context.call));
    // an editor session is one user's: a token that now names someone else does not carry it over
    if (auth.session && auth.session.userId !== user.id) throw new ApiError(Errors.sessionTicketInvalid, 'the editor session belongs to another user: open the editor again');
    await this.admit(auth.app, user.id);
    return user;
  }

  /**
   * The file's metadata as the caller sees it, without deciding anything. `fresh`: ask the integrator now and
   * keep that answer for the next callers (an open editor asked to have its permissions checked again).
   */
  fileMetadata(auth: RequestAuth, fileId: string, options: { fresh?: boolean } = {}): Promise<FileMetadata> {
    if (auth.session && auth.session.fileId !== fileId) {
      return Promise.reject(new ApiError(Errors.sessionOtherFile, `this editor session is for file ${auth.session.fileId}, not ${fileId}`, { fileId }));
    }
    const context = this.userContext(auth);
    const key = [...origin(auth), context.token, fileId];
    const load = () => this.callbacks.file(context.call, fileId);
    return options.fresh ? this.files.refresh(key, load) : this.files.get(key, load);
  }

  /**
   * Resolves the caller and the file, and checks one permission. Throws 403 (table 20000) when the
   * integrator says no, 404 when it does not know the file, the callback's own error when it fails.
   */
  async authorize(auth: RequestAuth, fileId: string, permission: Permission): Promise<FileAccess> {
    const [user, file] = await Promise.all([this.currentUser(auth), this.fileMetadata(auth, fileId)]);
    if (file.permissions[permission] !== true) {
      throw new ApiError(
        Errors.permissionDenied,
        `user ${user.id} may not ${VERBS[permission]} file ${fileId}: the integrator answered ${permission}: false`,
        { fileId, permission },
      );
    }
    return { user, file };
  }

  /**
   * Users by id as the integrator knows them (names and avatars of authors and mentioned users). The ids not
   * cached are asked in one `POST /users/batch/get`; an id the integrator does not answer is absent.
   */
  async usersById(auth: RequestAuth, ids: Iterable<string>): Promise<Map<string, IntegratorUser>> {
    const wanted = [...new Set(ids)];
    const found = new Map<string, IntegratorUser>();
    if (wanted.length === 0) return found;
    const context = this.userContext(auth);
    const asked = new Map<string, { resolve: (user: IntegratorUser | null) => void; reject: (error: unknown) => void }>();
    const answers = wanted.map((id) =>
      this.people.get([...origin(auth), id], () => new Promise<IntegratorUser | null>((resolve, reject) => asked.set(id, { resolve, reject }))),
    );
    if (asked.size > 0) {
      this.callbacks.users(context.call, [...asked.keys()]).then(
        (users) => {
          const byId = new Map(users.map((user) => [user.id, user]));
          for (const [id, pending] of asked) pending.resolve(byId.get(id) ?? null);
        },
        (error: unknown) => {
          for (const pending of asked.values()) pending.reject(error);
        },
      );
    }
    const users = await Promise.all(answers);
    wanted.forEach((id, index) => {
      const user = users[index];
      if (user) found.set(id, user);
    });
    return found;
  }

  /**
   * The lines of a user's watermark (`GET /users/{userId}/watermark`, made fit to draw by watermarkLines), asked
   * with the caller's token. The watermark is optional, as the integrator's other optional answers (mention
   * suggestions): an integrator that does not answer it, answers 404 or something malformed, or fails, gives no
   * watermark and no error; the failure is recorded as any callback failure (a System event, docs/PUSH-AND-EVENTS.md)
   * and not remembered, so the next page asks again.
   */
  async watermark(auth: RequestAuth, userId: string): Promise<string[]> {
    const context = this.userContext(auth);
    try {
      return await this.watermarks.get([...origin(auth), userId], async () => watermarkLines(await this.callbacks.watermarks(context.call, userId)));
    } catch {
      return [];
    }
  }

  /** How to make a callback on the caller's behalf (their token forwarded, credential type 0). */
  callContext(auth: RequestAuth): CallContext {
    return this.userContext(auth).call;
  }

  /** Forgets this process's cached answers about one user (their name or avatar changed; the next ask is fresh). */
  forgetUser(appId: string, userId: string): void {
    this.changed({ kind: 'user', appId, userId, user: null });
  }

  /** Forgets every cached answer (tests; an integrator that announces a permission change). */
  forget(): void {
    this.users.clear();
    this.files.clear();
    this.people.clear();
    this.watermarks.clear();
  }

  /**
   * Drops what a change made stale: everything of the app when its endpoint URL, secret or settings changed
   * (answers came from the old address); the answers a permission change names (by file, by user: a
   * token's user is known once its answer arrived; a token still being resolved counts as anyone).
   */
  private changed(change: AppChange): void {
    const { appId } = change;
    if (change.kind === 'settings') {
      for (const cache of [this.users, this.files, this.people, this.watermarks] as AnswerCache<unknown>[]) cache.forget((parts) => parts[0] === appId);
      return;
    }
    if (change.kind === 'push' || change.kind === 'push-receipt') return;
    // a renamed or deleted file: its metadata (name, permissions) for every user; an updated user: who they are
    if (change.kind === 'file') return this.changed({ kind: 'permissions', appId, fileIds: [change.fileId], userIds: [] });
    if (change.kind === 'user') return this.changed({ kind: 'permissions', appId, fileIds: [], userIds: [change.userId] });
    const userOfToken = new Map<string, string>();
    for (const [[app, , token], user] of this.users.answers()) if (app === appId && token !== undefined) userOfToken.set(token, user.id);
    this.users.forget(([app], user) => app === appId && concernsAnswer(change, undefined, user?.id));
    this.people.forget(([app, , userId]) => app === appId && concernsAnswer(change, undefined, userId));
    this.watermarks.forget(([app, , userId]) => app === appId && concernsAnswer(change, undefined, userId));
    this.files.forget(([app, , token, fileId]) => app === appId && concernsAnswer(change, fileId, token === undefined ? undefined : userOfToken.get(token)));
  }

  private userContext(auth: RequestAuth): { token: string; call: CallContext } {
    if (auth.token === undefined) throw new ApiError(Errors.tokenMissing, 'user token missing: send X-Svc-Token or ?token=');
    return { token: auth.token, call: { app: auth.app, credential: { kind: 'user', token: auth.token }, requestId: auth.requestId } };
  }
}
