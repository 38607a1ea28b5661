import { expect } from 'vitest';
import type { UploadTicket } from '../../src/domain/attachments/attachment-service.js';
import type { CallOptions, CallResult, TestService } from '../support/service.js';

export const TOKEN_PATH = '/uploader/token';
export const UPLOAD_PATH = '/uploader/upload';

/** An upload to prepare, with defaults: an image of 1 KiB declared for `doc-1`. */
export function uploadRequest(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { bucket: 'images', filename: 'photo.png', fileGuid: 'doc-1', fileSize: 1024, encrypt: false, ...overrides };
}

/** `POST /uploader/token` as the default user (or as `options` say). */
export function requestTokens(svc: TestService, body: unknown, options: CallOptions = {}): Promise<CallResult> {
  return svc.call('POST', TOKEN_PATH, { body, ...options });
}

/** Prepares one upload and returns its ticket. */
export async function ticketFor(svc: TestService, overrides: Record<string, unknown> = {}, options: CallOptions = {}): Promise<UploadTicket> {
  const response = await requestTokens(svc, [uploadRequest(overrides)], options);
  expect(response.status, response.text).toBe(200);
  return response.body.data[0] as UploadTicket;
}

export interface Upload {
  accessToken?: string;
  file?: Uint8Array;
  filename?: string;
  /** the declared type of the part: never trusted */
  type?: string;
  /** extra fields and file parts, in order, after the token and before the file */
  extra?: [name: string, value: string | Blob][];
  /** put the file before the token */
  fileFirst?: boolean;
}

/** `POST /uploader/upload` as a browser's FormData would send it (no signature: the token is the credential). */
export async function upload(svc: TestService, parts: Upload): Promise<CallResult> {
  const form = new FormData();
  const file = () => {
    if (parts.file) form.append('file', new Blob([parts.file], { type: parts.type ?? 'image/png' }), parts.filename ?? 'photo.png');
  };
  if (parts.fileFirst) file();
  if (parts.accessToken !== undefined) form.append('accessToken', parts.accessToken);
  form.append('download', '0');
  for (const [name, value] of parts.extra ?? []) form.append(name, value);
  if (!parts.fileFirst) file();
  return send(svc, form);
}

/** Posts any body to the upload route, without signature or user token. */
export function send(svc: TestService, body: FormData | string | Uint8Array, headers: Record<string, string> = {}): Promise<CallResult> {
  return svc.call('POST', UPLOAD_PATH, { rawBody: body, headers, signature: null, token: null });
}

/** GET an attachment's path with credentials in the query, as an `<img src>` would. */
export async function fetchAttachment(svc: TestService, path: string, options: { token?: string; headers?: Record<string, string> } = {}): Promise<Response> {
  const signature = await svc.sign();
  const query = new URLSearchParams({ signature, token: options.token ?? 'user-token' });
  return fetch(`${svc.url}${path}?${query}`, { headers: options.headers ?? {} });
}

/** Attachments stored for the test app. */
export async function storedCount(svc: TestService): Promise<number> {
  const rows = await svc.services.storage.db.selectFrom('attachments').select('guid').where('app_id', '=', svc.app.id).execute();
  return rows.length;
}
