import {
  FrameEvent,
  HostRequest,
  isProtocolMessage,
  messageId,
  PageRequest,
  PROTOCOL_MARKER,
  ProtocolError,
  type ConnectRequest,
  type ErrorPayload,
  type EventMessage,
  type MessageBase,
  type ProtocolMessage,
  type PushMessagePayload,
  type ReadyStatePayload,
  type RequestMessage,
  type ResponseMessage,
} from '../../sdk/protocol.js';

/** Calls to the host page time out after this long (browser-sdk.md "Page ⇄ iframe messages"). */
const CALL_TIMEOUT_MS = 60_000;
/** Message ids remembered to drop duplicates; older ones have expired anyway. */
const SEEN_KEPT = 2000;

/** An editor method the page may call as `editor.<path>(...args)`. */
export type EditorMethod = (...args: unknown[]) => unknown;

/** A failure that crosses the frame with a code (the service's number, or a protocol code). */
export class BridgeError extends Error {
  constructor(
    readonly code: number | string,
    message: string,
  ) {
    super(message);
  }
}

type HostRequestName = (typeof HostRequest)[keyof typeof HostRequest];

/**
 * The editor page's side of the SDK channel. The page (the SDK) opens it with a `connect` request; until
 * then what the editor sends waits in a queue, after that it goes to that page's origin only. Requests
 * are accepted only from the parent window, on this page's channel, unexpired and unseen.
 *
 * Without a channel (the page opened on its own, not through the SDK) nothing is sent and host calls fail
 * at once with NO_HANDLER, so editors fall back to their own behaviour (e.g. open links in a new tab).
 */
export class FrameBridge {
  private hostOrigin: string | undefined;
  private readonly queue: ProtocolMessage[] = [];
  private readonly seen = new Set<string>();
  private readonly pending = new Map<string, { resolve: (value: unknown) => void; reject: (error: Error) => void; timer: number }>();
  private readonly methods = new Map<string, EditorMethod>();
  private readonly listened = new Set<string>();
  private readonly requestHandlers = new Map<string, (args: unknown[]) => unknown>();
  private readonly listenHooks = new Map<string, () => void>();
  private lastReadyState: ReadyStatePayload | undefined;

  constructor(
    readonly channel: string | null,
    private readonly messageExpires: number,
  ) {
    if (channel && window.parent !== window) window.addEventListener('message', (event) => this.receive(event));
    this.requestHandlers.set(PageRequest.connect, ([request]) => {
      // the SDK knocks until it hears back: only the first knock's events start listening
      const events = (request as Partial<ConnectRequest> | undefined)?.events;
      if (Array.isArray(events)) for (const name of events) if (typeof name === 'string' && !this.listened.has(name)) this.listen(name);
      return { protocol: PROTOCOL_MARKER, readyState: this.lastReadyState };
    });
    this.requestHandlers.set(PageRequest.listenEditorEvent, ([name]) => {
      if (typeof name === 'string') this.listen(name);
    });
    // the editors fill the iframe and need nothing of the host's viewport; the report is acknowledged, not refused
    this.requestHandlers.set(PageRequest.resize, () => undefined);
    this.requestHandlers.set(PageRequest.unlistenEditorEvent, ([name]) => {
      if (typeof name === 'string') this.listened.delete(name);
    });
    this.requestHandlers.set(PageRequest.invokeEditorMethod, ([path, args]) => this.invoke(path, args));
  }

  /** Whether an SDK page is on the other side (the page was opened through the SDK, inside a frame). */
  get connected(): boolean {
    return this.channel !== null && window.parent !== window;
  }

  /** Answers page requests of `name` (e.g. setCredentials, resize) with `handler`. */
  handle(name: string, handler: (args: unknown[]) => unknown): void {
    this.requestHandlers.set(name, handler);
  }

  /**
   * Runs `hook` each time the page starts listening to the editor event `name` (also at connect): state events
   * such as collaboratorsChanged answer with a snapshot, so a listener never waits for the next change.
   */
  onListen(name: string, hook: () => void): void {
    this.listenHooks.set(name, hook);
    if (this.listened.has(name)) hook();
  }

  /** Editor methods by dotted path (`getTitle`, `comments.add`); a path not registered answers METHOD_NOT_SUPPORTED. */
  registerMethods(methods: Record<string, EditorMethod>): void {
    for (const [path, method] of Object.entries(methods)) this.methods.set(path, method);
  }

  reportReadyState(payload: ReadyStatePayload): void {
    this.lastReadyState = payload;
    this.send(this.event(FrameEvent.readyState, payload));
  }

  editorRendered(): void {
    this.send(this.event(FrameEvent.editorRendered, undefined));
  }

  /** Tells the page of a failure outside any call (the sdk object's `error` event). */
  reportError(error: unknown): void {
    this.send(this.event(FrameEvent.error, toErrorPayload(error)));
  }

  /** Hands the page a message the integrator pushed (the sdk object's `pushMessage`; sent whether or not it listens). */
  pushMessage(payload: PushMessagePayload): void {
    this.send(this.event(FrameEvent.pushMessage, payload));
  }

  /** Tells the page of an editor event, if it listens to it. */
  emitEditorEvent(name: string, payload: unknown): void {
    if (this.listened.has(name)) this.send(this.event(FrameEvent.editorEvent, { name, payload }));
  }

  /** Calls a host callback of the connect options; rejects with NO_HANDLER when there is no page. */
  callHost<T = unknown>(name: HostRequestName, ...args: unknown[]): Promise<T> {
    if (!this.connected) return Promise.reject(new BridgeError(ProtocolError.noHandler, `no host page to call ${name}`));
    const request: RequestMessage = { ...this.base(), type: 'request', name, args };
    return new Promise<T>((resolve, reject) => {
      const timer = window.setTimeout(() => {
        this.pending.delete(request.id);
        reject(new BridgeError(ProtocolError.timeout, `${name}: the host page did not answer within ${CALL_TIMEOUT_MS / 1000} s`));
      }, CALL_TIMEOUT_MS);
      this.pending.set(request.id, { resolve: resolve as (value: unknown) => void, reject, timer });
      this.send(request);
    });
  }

  private listen(name: string): void {
    this.listened.add(name);
    this.listenHooks.get(name)?.();
  }

  private async invoke(path: unknown, args: unknown): Promise<unknown> {
    const method = typeof path === 'string' ? this.methods.get(path) : undefined;
    if (!method) throw new BridgeError(ProtocolError.methodNotSupported, `this editor does not support ${String(path)}`);
    return method(...(Array.isArray(args) ? args : []));
  }

  private receive(event: MessageEvent): void {
    if (event.source !== window.parent) return;
    const message: unknown = event.data;
    if (!isProtocolMessage(message) || message.channel !== this.channel) return;
    if (Date.now() - message.time > this.messageExpires || this.seen.has(message.id)) return;
    this.remember(message.id);
    if (message.type === 'request') {
      if (message.name === PageRequest.connect && this.hostOrigin === undefined) {
        this.hostOrigin = event.origin;
        void this.answer(message).then(() => this.flush());
        return;
      }
      if (event.origin !== this.hostOrigin) return;
      void this.answer(message);
    } else if (message.type === 'response' && event.origin === this.hostOrigin) {
      const pending = this.pending.get(message.replyTo);
      if (!pending) return;
      this.pending.delete(message.replyTo);
      window.clearTimeout(pending.timer);
      if (message.error) pending.reject(new BridgeError(message.error.code, message.error.message));
      else pending.resolve(message.data);
    }
  }

  private async answer(request: RequestMessage): Promise<void> {
    const response: ResponseMessage = { ...this.base(), type: 'response', replyTo: request.id };
    const handler = this.requestHandlers.get(request.name);
    try {
      if (!handler) throw new BridgeError(ProtocolError.methodNotSupported, `unknown request ${request.name}`);
      response.data = await handler(Array.isArray(request.args) ? request.args : []);
    } catch (error) {
      response.error = toErrorPayload(error);
    }
    this.post(response);
  }

  private event(name: string, payload: unknown): EventMessage {
    return { ...this.base(), type: 'event', name, payload };
  }

  private base(): MessageBase {
    return { svcSdk: PROTOCOL_MARKER, channel: this.channel ?? '', id: messageId(), time: Date.now() };
  }

  private send(message: ProtocolMessage): void {
    if (!this.connected) return;
    if (this.hostOrigin === undefined) this.queue.push(message);
    else this.post(message);
  }

  private post(message: ProtocolMessage): void {
    if (this.hostOrigin === undefined) return;
    // time is stamped when the message actually leaves, so that a queued one does not arrive expired
    window.parent.postMessage({ ...message, time: Date.now() }, this.hostOrigin);
  }

  private flush(): void {
    for (const message of this.queue.splice(0)) this.post(message);
  }

  private remember(id: string): void {
    this.seen.add(id);
    if (this.seen.size > SEEN_KEPT) this.seen.delete(this.seen.values().next().value as string);
  }
}

export function toErrorPayload(error: unknown): ErrorPayload {
  if (error instanceof BridgeError) return { code: error.code, message: error.message };
  const coded = error as { code?: unknown; message?: unknown };
  if (coded && (typeof coded.code === 'number' || typeof coded.code === 'string')) return { code: coded.code, message: String(coded.message ?? '') };
  return { code: ProtocolError.invalidArguments, message: error instanceof Error ? error.message : String(error) };
}
