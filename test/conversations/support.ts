import { expect } from 'vitest';
import type { ReceivedEvent } from '../../examples/integrator/integrator.js';
import { eventually } from '../support/integrator.js';
import type { CallOptions, CallResult, TestService } from '../support/service.js';

export const COLLAB = '/sdk/v2/collab-files';
export const FAST_CONTENT = { coalesceMs: 100, coalesceMaxMs: 1000, pollMs: 50, compactAfter: 500, permissionRecheckMs: 60_000 };

export const SECOND_USER = { id: 'user-2', name: 'Second User', avatar: 'https://example.com/u2.png', token: 'token-2' } as const;
export const THIRD_USER = { id: 'user-3', name: 'Third User', token: 'token-3' } as const;

const CONVERSATION_EVENTS = new Set(['Comment', 'MentionAt', 'Discussion', 'DateMention']);

/** Registers the other users of these tests with the reference integrator. */
export function addPeople(svc: TestService): void {
  svc.integrator.addUser({ ...SECOND_USER });
  svc.integrator.addUser({ ...THIRD_USER });
}

/** Creates a file of `type` through the backend API. */
export async function createFile(svc: TestService, fileId: string, type: string): Promise<void> {
  const created = await svc.call('POST', '/sdk/v2/api/files', { body: { type, fileId } });
  expect(created.status, created.text).toBe(200);
}

/** A conversation call: `path` is relative to the file (`comments`, `comment-threads/…`). */
export function talk<T = any>(svc: TestService, method: string, fileId: string, path: string, options: CallOptions = {}): Promise<CallResult<T>> {
  return svc.call<T>(method, `${COLLAB}/${encodeURIComponent(fileId)}/${path}`, options);
}

/** Asserts a successful backend answer and returns its data. */
export function data<T = any>(response: CallResult): T {
  expect(response.status, response.text).toBe(200);
  expect(response.body.status, response.text).toBe(0);
  return response.body.data as T;
}

/** Asserts a backend failure: HTTP status and envelope status. */
export function expectFailure(response: CallResult, http: number, status: number, message?: RegExp): void {
  expect(response.status, response.text).toBe(http);
  expect(response.body.status, response.text).toBe(status);
  expect(typeof response.body.requestId).toBe('string');
  if (message) expect(response.body.message).toMatch(message);
}

/** Conversation events of a file the integrator received, in order. */
export function conversationEvents(svc: TestService, fileId: string): ReceivedEvent[] {
  return svc.integrator.events.filter((event) => CONVERSATION_EVENTS.has(event.eventClass) && event.body.fileId === fileId);
}

/** Waits until the file has `count` conversation events and returns them. */
export async function waitForEvents(svc: TestService, fileId: string, count: number): Promise<ReceivedEvent[]> {
  await eventually(() => conversationEvents(svc, fileId).length >= count, `${count} conversation events of ${fileId}`);
  return conversationEvents(svc, fileId);
}

/** A short name for an event: `Comment/create`, `MentionAt/comment`, `Discussion/create`. */
export function eventName(event: ReceivedEvent): string {
  const detail = event.eventClass === 'MentionAt' ? event.body.type : event.body.action;
  return `${event.eventClass}/${String(detail)}`;
}
