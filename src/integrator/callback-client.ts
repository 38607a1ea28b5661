import crypto from 'node:crypto';
import { request } from 'undici';
import type { App } from '../apps/app.js';
import { ApiError, Errors, type ErrorSpec } from '../errors.js';
import { Deadline } from '../net/deadline.js';
import { OutboundRefusedError, type OutboundPolicy } from '../net/outbound-policy.js';
import * as answers from './answers.js';
import type {
  CallbackCredential,
  Collaborator,
  Department,
  DepartmentMembers,
  DepartmentRef,
  FileListEntry,
  FileMetadata,
  IntegratorUser,
  SearchQuery,
  SearchResults,
  Team,
} from './types.js';

/** Largest callback answer we read; a lying integrator must not make us buffer without end. */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;
/** Lifetime of the signature on system-triggered calls: long enough for the call, short if intercepted. */
const SYSTEM_SIGNATURE_SECONDS = 300;
/** Pause before the one retry of a failed idempotent GET. */
const RETRY_PAUSE_MS = 100;
/** How much of a failed exchange a System event carries back to the integrator. */
const REPORTED_BODY_CHARS = 2048;

/** Who a callback is for and on whose behalf; `requestId` correlates it with the request that caused it. */
export interface CallContext {
  app: App;
  credential: CallbackCredential;
  requestId?: string | undefined;
}

export interface CallbackExchange {
  request: { method: string; url: string; headers: Record<string, string>; body: unknown };
  response: { status: number; headers: Record<string, string>; body: string } | null;
}

/** A callback that failed: what was sent, what came back, and the error the caller receives. */
export interface CallbackFailure extends CallbackExchange {
  app: App;
  callback: string;
  error: ApiError;
}

export type CallbackFailureListener = (failure: CallbackFailure) => void;

interface CallbackSpec<T> {
  method: 'GET' | 'POST';
  /** the callback's name as documented, e.g. `GET /files/{fileId}`: used in error messages */
  name: string;
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  /** what a 404 (and other specific statuses) means for this callback */
  statusErrors?: Partial<Record<number, ErrorSpec>>;
  parse: (json: unknown) => T;
}

class CallbackAttemptError extends Error {
  constructor(
    readonly spec: ErrorSpec,
    readonly reason: string,
    readonly response: CallbackExchange['response'],
    readonly retryable: boolean,
  ) {
    super(reason);
  }
}

export interface CallbackClientOptions {
  /** deadline of one callback, retries included */
  timeoutMs: number;
  /** which addresses callbacks may connect to (the endpoint URL is checked again at connect time) */
  outbound: OutboundPolicy;
  onFailure?: CallbackFailureListener | undefined;
}

const encodeSegment = (value: string) => encodeURIComponent(value);

/**
 * An HS256 JWT made with node:crypto directly: every event delivery and system callback carries one, and
 * this is some fifty times cheaper than a general JOSE library that imports the key on each call.
 */
export function signHs256(header: Record<string, string>, claims: Record<string, unknown>, secret: string): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const input = `${part(header)}.${part(claims)}`;
  return `${input}.${crypto.createHmac('sha256', secret).update(input).digest('base64url')}`;
}

/**
 * The service's side of the callbacks of contract notes 2. Every call has a deadline; idempotent GETs are
 * retried once on a network error or a 5xx while the deadline allows; every failure becomes an ApiError with
 * its own backend code (10001-10015) and a message naming the callback and the request id. Failures are also
 * handed to `onFailure` (the service turns them into `System` events).
 */
export class CallbackClient {
  private readonly agent;
  private onFailure: CallbackFailureListener | undefined;

  constructor(private readonly options: CallbackClientOptions) {
    this.agent = options.outbound.dispatcher({ keepAliveTimeout: 10_000, connections: 64 });
    this.onFailure = options.onFailure;
  }

  /** Set after construction because the listener (the outbox) is built from the same services. */
  setFailureListener(listener: CallbackFailureListener): void {
    this.onFailure = listener;
  }

  async close(): Promise<void> {
    await this.agent.close();
  }

  currentUser(context: CallContext): Promise<IntegratorUser> {
    return this.call(context, {
      method: 'GET',
      name: 'GET /users/current/info',
      path: '/users/current/info',
      statusErrors: { 401: Errors.integratorTokenRejected, 403: Errors.integratorTokenRejected, 404: Errors.integratorTokenRejected },
      parse: (json) => answers.parseUser(json),
    });
  }

  user(context: CallContext, userId: string): Promise<IntegratorUser> {
    return this.call(context, {
      method: 'GET',
      name: 'GET /users/{userId}',
      path: `/users/${encodeSegment(userId)}`,
      statusErrors: { 404: Errors.integratorUserNotFound },
      parse: (json) => answers.parseUser(json),
    });
  }

  users(context: CallContext, ids: string[]): Promise<IntegratorUser[]> {
    return this.call(context, {
      method: 'POST',
      name: 'POST /users/batch/get',
      path: '/users/batch/get',
      body: { ids },
      statusErrors: { 404: Errors.integratorUserListNotFound },
      parse: (json) => answers.parseUsers(json),
    });
  }

  currentTeam(context: CallContext): Promise<Team> {
    return this.call(context, { method: 'GET', name: 'GET /users/current/team', path: '/users/current/team', parse: answers.parseTeam });
  }

  watermarks(context: CallContext, userId: string): Promise<string[]> {
    return this.call(context, {
      method: 'GET',
      name: 'GET /users/{userId}/watermark',
      path: `/users/${encodeSegment(userId)}/watermark`,
      statusErrors: { 404: Errors.integratorUserNotFound },
      parse: answers.parseWatermarks,
    });
  }

  departmentPaths(context: CallContext, userId: string): Promise<DepartmentRef[][]> {
    return this.call(context, {
      method: 'GET',
      name: 'GET /users/{userId}/department-paths',
      path: `/users/${encodeSegment(userId)}/department-paths`,
      statusErrors: { 404: Errors.integratorUserNotFound },
      parse: answers.parseDepartmentPaths,
    });
  }

  /** File metadata and the caller's permissions (user call), or `/admin/files/…` for system calls. */
  file(context: CallContext, fileId: string): Promise<FileMetadata> {
    const system = context.credential.kind === 'system';
    return this.call(context, {
      method: 'GET',
      name: system ? 'GET /admin/files/{fileId}' : 'GET /files/{fileId}',
      path: `${system ? '/admin' : ''}/files/${encodeSegment(fileId)}`,
      statusErrors: {
        404: Errors.integratorFileNotFound,
        ...(system ? {} : { 401: Errors.integratorTokenRejected, 403: Errors.permissionDenied }),
      },
      parse: (json) => answers.parseFileMetadata(json),
    });
  }

  /** File metadata as one user sees it, asked by the service itself (system call). */
  fileForUser(context: CallContext, fileId: string, userId: string): Promise<FileMetadata> {
    return this.call(context, {
      method: 'GET',
      name: 'GET /admin/files/{fileId}/by-user-id',
      path: `/admin/files/${encodeSegment(fileId)}/by-user-id`,
      query: { userId },
      statusErrors: { 404: Errors.integratorFileNotFound },
      parse: (json) => answers.parseFileMetadata(json),
    });
  }

  files(context: CallContext, query: { limit?: number; orderBy?: 'created_at' | 'updated_at' } = {}): Promise<FileListEntry[]> {
    return this.call(context, {
      method: 'GET',
      name: 'GET /files',
      path: '/files',
      query: { limit: query.limit, orderBy: query.orderBy },
      parse: (json) => answers.parseFileList(json),
    });
  }

  collaborators(context: CallContext, fileId: string): Promise<Collaborator[]> {
    return this.call(context, {
      method: 'GET',
      name: 'GET /files/{fileId}/collaborators',
      path: `/files/${encodeSegment(fileId)}/collaborators`,
      statusErrors: { 404: Errors.integratorCollaboratorsNotFound },
      parse: answers.parseCollaborators,
    });
  }

  /** The file's full address in the integrator's system (a system call). */
  fileUrl(context: CallContext, fileId: string): Promise<string> {
    return this.call(context, {
      method: 'POST',
      name: 'POST /files/{fileId}/url',
      path: `/files/${encodeSegment(fileId)}/url`,
      body: {},
      statusErrors: { 404: Errors.integratorFileNotFound },
      parse: answers.parseFullUrl,
    });
  }

  teamMembers(context: CallContext, teamGuid: string, page = 1, pageSize = 50): Promise<IntegratorUser[]> {
    return this.call(context, {
      method: 'GET',
      name: 'GET /teams/{teamGuid}/members',
      path: `/teams/${encodeSegment(teamGuid)}/members`,
      query: { page, pageSize },
      statusErrors: { 404: Errors.integratorUserListNotFound },
      parse: (json) => answers.parseUsers(json, 'team members'),
    });
  }

  department(context: CallContext, departmentId: string): Promise<Department> {
    return this.call(context, {
      method: 'GET',
      name: 'GET /departments/{id}',
      path: `/departments/${encodeSegment(departmentId)}`,
      parse: (json) => answers.parseDepartment(json),
    });
  }

  departmentChildren(context: CallContext, departmentId: string): Promise<Department[]> {
    return this.call(context, {
      method: 'GET',
      name: 'GET /departments/{id}/children',
      path: `/departments/${encodeSegment(departmentId)}/children`,
      parse: answers.parseDepartments,
    });
  }

  departmentMembers(context: CallContext, departmentId: string, page = 1, pageSize = 50): Promise<DepartmentMembers> {
    return this.call(context, {
      method: 'GET',
      name: 'GET /departments/{id}/members',
      path: `/departments/${encodeSegment(departmentId)}/members`,
      query: { page, pageSize },
      statusErrors: { 404: Errors.integratorUserListNotFound },
      parse: answers.parseDepartmentMembers,
    });
  }

  recentUsers(context: CallContext, fileId: string): Promise<IntegratorUser[]> {
    return this.call(context, {
      method: 'GET',
      name: 'GET /search/users/recent',
      path: '/search/users/recent',
      query: { fileId },
      statusErrors: { 404: Errors.integratorRecentUsersNotFound },
      parse: (json) => answers.parseUsers(json, 'recent users'),
    });
  }

  /** Files for the mention dropdown (spec 4.6): entries validated per spec 2.3. */
  recentFiles(context: CallContext, fileId: string): Promise<FileListEntry[]> {
    return this.call(context, {
      method: 'GET',
      name: 'GET /search/files/recent',
      path: '/search/files/recent',
      query: { fileId },
      statusErrors: { 404: Errors.integratorRecentFilesNotFound },
      parse: (json) => answers.parseFileList(json, 'recent files'),
    });
  }

  search(context: CallContext, query: SearchQuery): Promise<SearchResults> {
    return this.call(context, {
      method: 'POST',
      name: 'POST /search',
      path: '/search',
      body: { page: 1, pageSize: 20, ...query },
      parse: answers.parseSearchResults,
    });
  }

  /** Headers that say on whose behalf we call (contract notes 2). */
  credentialHeaders(app: App, credential: CallbackCredential): Record<string, string> {
    if (credential.kind === 'user') return { 'x-svc-token': credential.token, 'x-svc-credential-type': '0' };
    const now = Math.floor(Date.now() / 1000);
    const claims: Record<string, string | number> = { iat: now, exp: now + SYSTEM_SIGNATURE_SECONDS };
    if (credential.fileId !== undefined) claims.fileId = credential.fileId;
    if (credential.userId !== undefined) claims.userId = credential.userId;
    return { 'x-svc-signature': signHs256({ alg: 'HS256', typ: 'JWT', kid: app.id }, claims, app.secret), 'x-svc-credential-type': '3' };
  }

  private async call<T>(context: CallContext, spec: CallbackSpec<T>): Promise<T> {
    const requestId = context.requestId ?? crypto.randomUUID();
    const describe = (why: string) => `callback ${spec.name} failed: ${why} (request id ${requestId})`;
    const endpoint = context.app.endpointUrl;
    const query = spec.query
      ? Object.entries(spec.query).filter((entry): entry is [string, string | number] => entry[1] !== undefined)
      : [];
    const url = `${endpoint ?? ''}${spec.path}${query.length ? `?${new URLSearchParams(query.map(([k, v]): [string, string] => [k, String(v)]))}` : ''}`;
    const headers: Record<string, string> = {
      accept: 'application/json',
      'x-request-id': requestId,
      ...this.credentialHeaders(context.app, context.credential),
    };
    if (spec.body !== undefined) headers['content-type'] = 'application/json';
    const exchange: CallbackExchange = { request: { method: spec.method, url, headers, body: spec.body ?? null }, response: null };

    if (!endpoint) {
      throw this.failed(context, spec, exchange, new ApiError(Errors.integratorEndpointMissing, describe('the application has no endpoint URL')));
    }
    const deadline = new Deadline(this.options.timeoutMs);
    try {
      return await this.attempts(context, spec, url, headers, exchange, deadline.signal, describe);
    } finally {
      deadline.clear();
    }
  }

  /** The call's tries (a GET twice on a network error or a 5xx) within the one deadline. */
  private async attempts<T>(
    context: CallContext,
    spec: CallbackSpec<T>,
    url: string,
    headers: Record<string, string>,
    exchange: CallbackExchange,
    deadline: AbortSignal,
    describe: (reason: string) => string,
  ): Promise<T> {
    const attempts = spec.method === 'GET' ? 2 : 1;
    for (let attempt = 1; ; attempt++) {
      try {
        const { status, text, responseHeaders } = await this.exchange(url, spec, headers, deadline);
        exchange.response = { status, headers: responseHeaders, body: text.slice(0, REPORTED_BODY_CHARS) };
        return this.interpret(spec, status, text, exchange.response);
      } catch (error) {
        const attemptError = this.classify(error, deadline);
        exchange.response = attemptError.response ?? exchange.response;
        const mayRetry = attemptError.retryable && attempt < attempts && !deadline.aborted;
        if (mayRetry) {
          await new Promise((resolve) => setTimeout(resolve, RETRY_PAUSE_MS));
          if (!deadline.aborted) continue;
        }
        throw this.failed(context, spec, exchange, new ApiError(attemptError.spec, describe(attemptError.reason)));
      }
    }
  }

  private async exchange(url: string, spec: CallbackSpec<unknown>, headers: Record<string, string>, signal: AbortSignal) {
    const response = await request(url, {
      method: spec.method,
      headers,
      body: spec.body === undefined ? null : JSON.stringify(spec.body),
      dispatcher: this.agent,
      signal,
    });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body) {
      size += (chunk as Buffer).length;
      if (size > MAX_ANSWER_BYTES) {
        response.body.destroy();
        throw new CallbackAttemptError(Errors.integratorInvalidJson, `answer larger than ${MAX_ANSWER_BYTES} bytes`, null, false);
      }
      chunks.push(chunk as Buffer);
    }
    const responseHeaders: Record<string, string> = {};
    for (const [name, value] of Object.entries(response.headers)) {
      if (value !== undefined) responseHeaders[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    return { status: response.statusCode, text: Buffer.concat(chunks).toString('utf8'), responseHeaders };
  }

  private interpret<T>(spec: CallbackSpec<T>, status: number, text: string, response: CallbackExchange['response']): T {
    if (status !== 200) {
      const specific = spec.statusErrors?.[status];
      if (specific) throw new CallbackAttemptError(specific, `answered HTTP ${status}`, response, false);
      if (status >= 400) throw new CallbackAttemptError(Errors.integratorHttpError, `answered HTTP ${status}`, response, status >= 500);
      throw new CallbackAttemptError(Errors.integratorUnexpectedStatus, `answered HTTP ${status}, expected 200`, response, false);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new CallbackAttemptError(Errors.integratorInvalidJson, 'answered with invalid JSON', response, false);
    }
    try {
      return spec.parse(json);
    } catch (error) {
      if (error instanceof answers.MalformedAnswer) throw new CallbackAttemptError(error.spec, `malformed answer: ${error.message}`, response, false);
      throw error;
    }
  }

  private classify(error: unknown, deadline: AbortSignal): CallbackAttemptError {
    if (error instanceof CallbackAttemptError) return error;
    if (deadline.aborted) {
      return new CallbackAttemptError(Errors.integratorTimeout, `no answer within ${this.options.timeoutMs} ms`, null, false);
    }
    if (error instanceof OutboundRefusedError) {
      return new CallbackAttemptError(Errors.integratorUnreachable, `endpoint refused: ${error.message}`, null, false);
    }
    const code = (error as { code?: unknown }).code;
    const why = typeof code === 'string' ? code : error instanceof Error ? error.message : 'network error';
    return new CallbackAttemptError(Errors.integratorUnreachable, `endpoint unreachable (${why})`, null, true);
  }

  private failed(context: CallContext, spec: CallbackSpec<unknown>, exchange: CallbackExchange, error: ApiError): ApiError {
    try {
      this.onFailure?.({ app: context.app, callback: spec.name, error, ...exchange });
    } catch {
      // reporting a failure must never replace the failure the caller gets
    }
    return error;
  }
}
