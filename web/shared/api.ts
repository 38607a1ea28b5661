import type { EditorBoot, EditorSessionTicket } from './boot.js';

/** A refusal of the service: its HTTP status and the backend envelope's code and message. */
export class ApiCallError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

export interface CallOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** JSON, or a FormData sent as multipart/form-data */
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
}

/** The header an editor page's calls carry its session ticket in; images carry it as `?sessionToken=`. */
export const SESSION_HEADER = 'x-svc-session-token';
const SESSION_QUERY = 'sessionToken';

/**
 * The service's backend API as the editor page calls it: with the page's editor session ticket (never the
 * integrator's token or signature: docs/SDK.md "Sessions without tokens in URLs"), the backend envelope
 * unwrapped, refusals thrown as ApiCallError.
 */
export class ServiceApi {
  private renewSession: (() => Promise<boolean>) | undefined;
  private ticket: string;

  constructor(private readonly boot: EditorBoot) {
    this.ticket = boot.session.ticket;
  }

  /**
   * How to get a new ticket when the service answers 401 (an expired or revoked ticket): `renew` applies it
   * (setTicket) and says whether it did; the refused request is then sent once more.
   */
  onUnauthorized(renew: () => Promise<boolean>): void {
    this.renewSession = renew;
  }

  setTicket(ticket: string): void {
    this.ticket = ticket;
  }

  /** Path of a route about this page's file: `/sdk/v2/collab-files/{fileId}/{rest}`. */
  filePath(rest: string): string {
    return `${this.boot.apiBase}/collab-files/${encodeURIComponent(this.boot.fileId)}/${rest}`;
  }

  /** A URL for elements that cannot send headers (images): the session ticket in the query. */
  withCredentials(path: string): string {
    const url = new URL(path, window.location.origin);
    url.searchParams.set(SESSION_QUERY, this.ticket);
    return url.pathname + url.search;
  }

  /**
   * The URL to show a stored attachment path (`{apiBase}/attachments/{guid}`, docs/ATTACHMENTS.md) with this
   * user's credentials; undefined for anything else, so content can never send the credentials elsewhere.
   */
  attachmentUrl(src: unknown): string | undefined {
    const prefix = `${this.boot.apiBase}/attachments/`;
    if (typeof src !== 'string' || !src.startsWith(prefix) || !/^[\w.-]+$/.test(src.slice(prefix.length))) return undefined;
    return this.withCredentials(src);
  }

  /** The URL to show the attachment `guid` (an image a spreadsheet cell shows) with this user's credentials. */
  attachmentUrlOf(guid: string): string | undefined {
    return this.attachmentUrl(`${this.boot.apiBase}/attachments/${guid}`);
  }

  /** Path of a table API route: `/sdk/v2/api/table-api/openapi/v1/{rest}`. */
  tablePath(rest: string): string {
    return `${this.boot.apiBase}/api/table-api/openapi/v1/${rest}`;
  }

  /** A backend API call: the `{status, message, data}` envelope, status 0 on success. */
  call<T>(path: string, options: CallOptions = {}): Promise<T> {
    return this.send<T>(path, options, (envelope) => ({ code: envelope.status, message: envelope.message }));
  }

  /** A table API call: its `{code, msg, data}` envelope, code 0 on success (docs/TABLE-API.md). */
  callTable<T>(path: string, options: CallOptions = {}): Promise<T> {
    return this.send<T>(path, options, (envelope) => ({ code: envelope.code, message: envelope.message }));
  }

  private async send<T>(path: string, options: CallOptions, outcome: (envelope: Envelope<T>) => { code: unknown; message: unknown }): Promise<T> {
    const response = await this.request(path, options);
    const envelope = (await response.json().catch(() => undefined)) as Envelope<T> | undefined;
    const { code, message } = envelope ? outcome(envelope) : { code: undefined, message: undefined };
    if (!response.ok || code !== 0) {
      throw new ApiCallError(response.status, typeof code === 'number' ? code : response.status, typeof message === 'string' ? message : response.statusText);
    }
    return (envelope as Envelope<T>).data as T;
  }

  /**
   * The page's editor session, new (`credentials`: the signature and token the host gave) or renewed (the
   * current ticket); refusals are thrown as ApiCallError and never retried.
   */
  async openSession(credentials?: { signature: string; token: string }): Promise<EditorSessionTicket> {
    const headers: Record<string, string> = credentials ? { 'x-svc-signature': credentials.signature, 'x-svc-token': credentials.token } : { [SESSION_HEADER]: this.ticket };
    const response = await this.fetchOnce(this.filePath('editor-session'), { method: 'POST', headers });
    const envelope = (await response.json().catch(() => undefined)) as Envelope<EditorSessionTicket> | undefined;
    if (!response.ok || envelope?.status !== 0 || !envelope.data) {
      throw new ApiCallError(response.status, envelope?.status ?? response.status, envelope?.message ?? response.statusText);
    }
    return envelope.data;
  }

  /** A binary answer (an old version's Yjs state); refusals keep the JSON envelope and are thrown as ApiCallError. */
  async bytes(path: string, options: CallOptions = {}): Promise<Uint8Array> {
    const response = await this.request(path, options);
    if (!response.ok) {
      const envelope = (await response.json().catch(() => undefined)) as { status?: number; message?: string } | undefined;
      throw new ApiCallError(response.status, envelope?.status ?? response.status, envelope?.message ?? response.statusText);
    }
    return new Uint8Array(await response.arrayBuffer());
  }

  private async request(path: string, options: CallOptions): Promise<Response> {
    const response = await this.fetchOnce(path, options);
    if (response.status !== 401 || !this.renewSession || !(await this.renewSession())) return response;
    return this.fetchOnce(path, options);
  }

  private fetchOnce(path: string, options: CallOptions & { headers?: Record<string, string> }): Promise<Response> {
    const url = new URL(path, window.location.origin);
    for (const [key, value] of Object.entries(options.query ?? {})) if (value !== undefined) url.searchParams.set(key, String(value));
    const headers: Record<string, string> = options.headers ?? { [SESSION_HEADER]: this.ticket };
    const multipart = options.body instanceof FormData;
    if (options.body !== undefined && !multipart) headers['content-type'] = 'application/json';
    const body = options.body === undefined ? undefined : options.body instanceof FormData ? options.body : JSON.stringify(options.body);
    return fetch(url, { method: options.method ?? 'GET', headers, body });
  }
}

/** The fields of both envelopes (backend: status, message; table API: code, msg, message). */
interface Envelope<T> {
  status?: number;
  code?: number;
  message?: string;
  data?: T;
}
