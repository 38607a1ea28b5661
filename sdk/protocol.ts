/**
 * The message protocol between the SDK (in the integrator's page) and the editor page (in the iframe).
 * Both sides import this file: the SDK from `sdk/`, the editor from `web/shared/bridge.ts`.
 *
 * Every message carries `svcSdk` (the protocol marker), the channel id of one SDK instance (sent to the
 * iframe as the `uuid` query parameter), a unique `id` and the sender's `time`. A call is a `request`
 * answered by a `response` whose `replyTo` is the request's id and which carries `data` or `error`;
 * `event`s are one-way. Receivers drop messages of another channel, older than `messageExpires`, or seen
 * before.
 */

export const PROTOCOL_MARKER = 'svc-sdk/1';

export interface MessageBase {
  svcSdk: typeof PROTOCOL_MARKER;
  channel: string;
  id: string;
  time: number;
}

export interface RequestMessage extends MessageBase {
  type: 'request';
  name: string;
  args: unknown[];
}

export interface ResponseMessage extends MessageBase {
  type: 'response';
  replyTo: string;
  data?: unknown;
  error?: ErrorPayload;
}

export interface EventMessage extends MessageBase {
  type: 'event';
  name: string;
  payload?: unknown;
}

export type ProtocolMessage = RequestMessage | ResponseMessage | EventMessage;

/** An error as it crosses the frame: the service's numeric code where there is one. */
export interface ErrorPayload {
  code: number | string;
  message: string;
}

/** Ready states the iframe reports (public SDK names). */
export type ReadyStateValue = 'loading' | 'loadingEditor' | 'ready' | 'failed' | 'disconnected';

export interface ReadyStatePayload {
  readyState: ReadyStateValue;
  fileType?: string;
  error?: ErrorPayload;
}

/** Requests the page sends to the iframe. */
export const PageRequest = {
  /** first message of the page (args: ConnectRequest): the iframe answers once it can talk to this origin */
  connect: 'connect',
  setCredentials: 'setCredentials',
  listenEditorEvent: 'listenEditorEvent',
  unlistenEditorEvent: 'unlistenEditorEvent',
  invokeEditorMethod: 'invokeEditorMethod',
  /** the host's viewport and the iframe's place in it (args: [ViewportRect]) */
  resize: 'resize',
} as const;

/** What the page sends with `connect`: the editor events it wants from the start (the SDK keeps its own copy of some). */
export interface ConnectRequest {
  events: string[];
}

/** The host page's viewport and the iframe's box in it, sent on every resize of the host's window. */
export interface ViewportRect {
  viewportWidth: number;
  viewportHeight: number;
  top: number;
  left: number;
  bottom: number;
  right: number;
}

/** Requests the iframe sends to the page: the host callbacks of the connect options. */
export const HostRequest = {
  openLink: 'openLink',
  generateUrl: 'generateUrl',
  getFileInfoFromUrl: 'getFileInfoFromUrl',
  getCredentials: 'getCredentials',
  showToast: 'showToast',
} as const;

/** Events the iframe sends to the page. */
export const FrameEvent = {
  readyState: 'readyState',
  editorRendered: 'editorRendered',
  /** an editor event the page listens to: payload `{name, payload}` */
  editorEvent: 'editorEvent',
  /** a failure of the editor outside any call (payload ErrorPayload): the sdk object's `error` event */
  error: 'error',
  /** the integrator pushed a message to this editor (payload PushMessagePayload): the sdk object's `pushMessage` event */
  pushMessage: 'pushMessage',
} as const;

/** `pushMessage`: what the integrator pushed (POST files/{fileId}/push or users/{userId}/push, docs/PUSH-AND-EVENTS.md). */
export interface PushMessagePayload {
  pushId: string;
  /** the file this editor has open */
  fileId: string;
  /** the integrator's JSON value, as sent */
  message: unknown;
  /** when the service sent it, ISO 8601 UTC */
  sentAt: string;
}

/** Editor events every editor kind sends (browser-sdk.md "Editor methods"). */
export const EditorEvent = {
  saveStatusChanged: 'saveStatusChanged',
  collaboratorsChanged: 'collaboratorsChanged',
  editForbiddenConfirmed: 'editForbiddenConfirmed',
  titleChange: 'titleChange',
} as const;

/** A person in the file, as the integrator's user callbacks name them. */
export interface Collaborator {
  id: string;
  name: string;
  avatar: string;
  color: string;
}

/** `collaboratorsChanged`: the whole list each time, and who came or went. */
export interface CollaboratorsChangedPayload {
  type: 'snapshot' | 'enter' | 'leave';
  collaborators: Collaborator[];
  enterUsers?: Collaborator[];
  leaveUsers?: Collaborator[];
}

export type SaveStatus = 'saving' | 'saved' | 'error';

/** `saveStatusChanged` */
export interface SaveStatusChangedPayload {
  status: SaveStatus;
}

/** `editForbiddenConfirmed`: the user acknowledged that editing was taken away from them. */
export interface EditForbiddenConfirmedPayload {
  reason: 'STATUS_FORBIDDEN';
}

/** Error codes of the protocol itself (the service's own codes are numbers). */
export const ProtocolError = {
  methodNotSupported: 'METHOD_NOT_SUPPORTED',
  timeout: 'TIMEOUT',
  noHandler: 'NO_HANDLER',
  invalidArguments: 'INVALID_ARGUMENTS',
  disconnected: 'DISCONNECTED',
  /** the host's getCredentials answered something that is not `{token, signature}` strings */
  invalidCredentials: 'INVALID_CREDENTIALS',
} as const;

/** A `{token, signature}` pair of non-empty strings, or undefined. */
export function credentialsOf(value: unknown): { token: string; signature: string } | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { token, signature } = value as { token?: unknown; signature?: unknown };
  return typeof token === 'string' && token.length > 0 && typeof signature === 'string' && signature.length > 0 ? { token, signature } : undefined;
}

export function isProtocolMessage(value: unknown): value is ProtocolMessage {
  if (typeof value !== 'object' || value === null) return false;
  const message = value as Partial<ProtocolMessage>;
  return (
    message.svcSdk === PROTOCOL_MARKER &&
    typeof message.channel === 'string' &&
    typeof message.id === 'string' &&
    typeof message.time === 'number' &&
    (message.type === 'request' || message.type === 'response' || message.type === 'event')
  );
}

/** A random id; `crypto.randomUUID` needs a secure context, which an http integrator page may not be. */
export function messageId(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
