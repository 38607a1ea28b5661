import { Event, ReadyState } from './enums.js';
import {
  credentialsOf,
  EditorEvent,
  FrameEvent,
  HostRequest,
  isProtocolMessage,
  messageId,
  PageRequest,
  PROTOCOL_MARKER,
  ProtocolError,
  type Collaborator,
  type CollaboratorsChangedPayload,
  type ConnectRequest,
  type ErrorPayload,
  type MessageBase,
  type ProtocolMessage,
  type ReadyStatePayload,
  type RequestMessage,
  type ResponseMessage,
  type ViewportRect,
} from './protocol.js';
import { SDK_VERSION } from './version.js';

export interface Credentials {
  token: string;
  signature: string;
}

/** `generateUrl`'s second argument: how the mention shares the file. */
export interface GenerateUrlInfo {
  sharingType?: string;
  sharingText?: string;
}

/** The editor's built-in loading screen (with `showLoading`): a logo image URL (`false`: none) and a line of text. */
export interface LoadingOptions {
  logo?: string | false;
  tip?: string;
}

/** What the editor asks the host to show (`showToast`). */
export interface ShowToastOptions {
  type?: 'info' | 'success' | 'warning' | 'error';
  content: string;
  duration?: number;
}

/** `smParams`: a string goes as it is, an object or array as JSON. */
export type StartParams = string | Record<string, unknown> | Array<string | Record<string, unknown>>;

export interface ConnectOptions extends Credentials {
  container: HTMLElement;
  endpoint: string;
  fileId: string;
  lang?: string;
  userUuid?: string;
  params?: Record<string, string>;
  smParams?: StartParams;
  deviceMode?: string;
  showLoading?: boolean;
  loadingOptions?: LoadingOptions;
  messageExpires?: number;
  openLink?: (url: string, target?: string) => void;
  generateUrl?: (fileId: string, info?: GenerateUrlInfo) => string | Promise<string>;
  getFileInfoFromUrl?: (url: string) => Promise<{ fileId: string } | undefined>;
  getCredentials?: () => Promise<Credentials>;
  showToast?: (options: ShowToastOptions) => void | Promise<void>;
}

const LANGUAGES = ['zh-CN', 'en', 'ja', 'ar-SA', 'ru-RU'];
/** Calls, and the whole of `connect()`, give up after this long (browser-sdk.md). */
const CALL_TIMEOUT_MS = 60_000;
const DEFAULT_MESSAGE_EXPIRES_MS = 5 * 60 * 1000;
/** How often the SDK knocks until the page's script answers (it may not listen yet when the iframe loads). */
const KNOCK_INTERVAL_MS = 500;
/** Message ids remembered to drop duplicates; older ones have expired anyway. */
const SEEN_KEPT = 2000;

/** An error of the editor or the service, with its code (the service's number, or a protocol code). */
export class SDKError extends Error {
  constructor(
    readonly code: number | string,
    message: string,
  ) {
    super(message);
    this.name = 'SDKError';
  }
}

type Listener = (payload: unknown) => void;

/** Methods of the editor object the SDK answers itself, as the public SDK does. */
const LOCAL_EDITOR_MEMBERS = new Set(['on', 'off', 'getCollaborators']);
/** Function members a caller (or compiled code) may use on a method: they belong to the function, not the editor. */
const FUNCTION_MEMBERS = new Set(['call', 'apply', 'bind']);

function requiredString(value: unknown, name: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw new TypeError(`"${name}" is missing or empty`);
  return value;
}

/** smParams as it goes into the URL; without the option, the host page's own `?smParams=` is passed on. */
function encodeStartParams(value: StartParams | undefined): string | undefined {
  if (value === undefined) return new URLSearchParams(window.location.search).get('smParams') ?? undefined;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * One embedded editor: the iframe, its message channel and the editor proxy (browser-sdk.md). The channel id
 * travels as the iframe's `uuid`; the page answers only this window's origin once it has heard `connect`.
 */
export class OfficeSDK {
  readonly element: HTMLIFrameElement;
  private currentFileType: string | undefined;
  private currentReadyState: ReadyState = ReadyState.Loading;
  private readonly channel = messageId();
  private readonly origin: string;
  private readonly expires: number;
  private readonly pending = new Map<string, { resolve: (value: unknown) => void; reject: (error: Error) => void; timer: number }>();
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly editorListeners = new Map<string, Set<Listener>>();
  private readonly seen = new Set<string>();
  private collaborators: Collaborator[] = [];
  private readonly onMessage = (event: MessageEvent) => this.receive(event);
  private readonly onResize = () => this.sendViewport();
  private knockTimer: number | undefined;
  private connectTimer: number | undefined;
  private opened = false;
  private ready: Promise<this> | undefined;
  private abortInit: ((error: Error) => void) | undefined;

  constructor(private readonly options: ConnectOptions) {
    const { container } = options;
    if (typeof HTMLElement === 'undefined' || !(container instanceof HTMLElement)) throw new TypeError(`container is not an HTMLElement: "${String(container)}"`);
    if (/^(IFRAME|FRAME|EMBED|OBJECT)$/.test(container.tagName)) throw new TypeError(`invalid container element: "${container.tagName}" (use a DIV)`);
    let endpoint: URL;
    try {
      endpoint = new URL(requiredString(options.endpoint, 'endpoint'), window.location.href);
    } catch {
      throw new TypeError(`invalid endpoint: "${String(options.endpoint)}"`);
    }
    if (!/\/sdk\/v2\/?$/.test(endpoint.pathname)) console.warn(`the endpoint should end with "/sdk/v2": "${endpoint.href}"`);
    this.origin = endpoint.origin;
    const expires = options.messageExpires ?? DEFAULT_MESSAGE_EXPIRES_MS;
    if (typeof expires !== 'number' || !(expires > 0)) throw new TypeError(`"messageExpires" is not a positive number: "${String(expires)}"`);
    this.expires = expires;
    this.element = document.createElement('iframe');
    this.element.src = this.frameUrl(endpoint);
    this.element.allow = 'fullscreen; clipboard-read; clipboard-write';
    this.element.style.cssText = 'width:100%;height:100%;border:none;overflow:hidden;display:block';
  }

  /** The iframe's URL: the query in the order of browser-sdk.md "The iframe". */
  private frameUrl(endpoint: URL): string {
    const { options } = this;
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(options.params ?? {})) query.set(key, String(value));
    if (typeof options.deviceMode === 'string' && options.deviceMode.trim()) query.set('deviceMode', options.deviceMode.trim());
    const startParams = encodeStartParams(options.smParams);
    if (startParams !== undefined) query.set('smParams', startParams);
    if (options.showLoading) {
      query.set('loadingEffect', 'true');
      if (options.loadingOptions) query.set('loadingOptions', JSON.stringify(options.loadingOptions));
    }
    if (typeof options.lang === 'string' && LANGUAGES.includes(options.lang)) query.set('lang', options.lang);
    query.set('jsver', SDK_VERSION);
    query.set('token', requiredString(options.token, 'token'));
    query.set('signature', requiredString(options.signature, 'signature'));
    query.set('uuid', this.channel);
    if (options.userUuid) query.set('userUuid', options.userUuid);
    if (options.messageExpires !== undefined) query.set('messageExpires', String(options.messageExpires));
    const base = endpoint.href.replace(/[?#].*$/, '').replace(/\/+$/, '');
    return `${base}/collab-files/${encodeURIComponent(requiredString(options.fileId, 'fileId'))}?${query}`;
  }

  get fileType(): string | undefined {
    return this.currentFileType;
  }

  get readyState(): ReadyState {
    return this.currentReadyState;
  }

  /**
   * Puts the iframe in the container; resolves when the editor reports `ready`, rejects with the page's error
   * (its code: 70013 unknown file, 30003 bad signature, 40300 not readable, …) or TIMEOUT after 60 s.
   */
  init(): Promise<this> {
    this.ready ??= new Promise<this>((resolve, reject) => {
      const settle = (error?: Error) => {
        this.off(Event.ReadyState, onState);
        window.clearTimeout(this.connectTimer);
        this.abortInit = undefined;
        if (error) reject(error);
        else resolve(this);
      };
      const onState = (payload: unknown) => {
        const state = payload as ReadyStatePayload;
        if (state.readyState === ReadyState.Ready) settle();
        else if (state.readyState === ReadyState.Failed || state.readyState === ReadyState.Disconnected) {
          settle(new SDKError(state.error?.code ?? ProtocolError.disconnected, state.error?.message ?? 'the editor failed to load'));
        }
      };
      this.abortInit = settle;
      this.on(Event.ReadyState, onState);
      window.addEventListener('message', this.onMessage);
      (window.visualViewport ?? window).addEventListener('resize', this.onResize);
      this.options.container.append(this.element);
      this.element.addEventListener('load', this.knock);
      this.knockTimer = window.setInterval(this.knock, KNOCK_INTERVAL_MS);
      this.connectTimer = window.setTimeout(() => {
        const error = new SDKError(ProtocolError.timeout, `the editor did not get ready within ${CALL_TIMEOUT_MS / 1000} s`);
        this.setReadyState({ readyState: ReadyState.Failed, error: { code: error.code, message: error.message } });
        settle(error);
      }, CALL_TIMEOUT_MS);
    });
    return this.ready;
  }

  private readonly knock = () => {
    if (this.opened) return;
    const request: ConnectRequest = { events: [EditorEvent.collaboratorsChanged] };
    this.request(PageRequest.connect, [request], KNOCK_INTERVAL_MS * 4).then(
      () => {
        if (this.opened) return;
        this.opened = true;
        window.clearInterval(this.knockTimer);
        this.sendViewport();
      },
      () => undefined,
    );
  };

  /** The editor object: `editor.a.b(x)` calls the editor's method `a.b`; see browser-sdk.md "Editor methods". */
  getEditor<T = EditorProxy>(): T {
    return editorProxy(this, []) as T;
  }

  on(name: string, listener: Listener): void {
    let set = this.listeners.get(name);
    if (!set) this.listeners.set(name, (set = new Set()));
    set.add(listener);
  }

  off(name: string, listener?: Listener): void {
    if (listener) this.listeners.get(name)?.delete(listener);
    else this.listeners.delete(name);
  }

  /** Gives the editor new credentials (it uses them for every later call and reconnection). */
  async setCredentials(credentials: Credentials): Promise<void> {
    const checked = credentialsOf(credentials);
    if (!checked) throw new TypeError('setCredentials needs {token, signature} as non-empty strings');
    await this.request(PageRequest.setCredentials, [checked]);
  }

  /** Removes the iframe and stops listening; pending calls (and a pending connect()) reject with DISCONNECTED. */
  disconnect(): void {
    window.removeEventListener('message', this.onMessage);
    (window.visualViewport ?? window).removeEventListener('resize', this.onResize);
    window.clearInterval(this.knockTimer);
    window.clearTimeout(this.connectTimer);
    const error = new SDKError(ProtocolError.disconnected, 'the SDK was disconnected');
    for (const pending of this.pending.values()) {
      window.clearTimeout(pending.timer);
      pending.reject(error);
    }
    this.pending.clear();
    this.abortInit?.(error);
    this.element.remove();
    this.currentReadyState = ReadyState.Disconnected;
  }

  /** @internal a call of the editor proxy */
  invoke(path: string, args: unknown[]): unknown {
    if (path === 'getCollaborators') return this.collaborators.map((person) => ({ ...person }));
    if (path === 'on' || path === 'off') {
      const [name, listener] = args as [unknown, Listener | undefined];
      if (typeof name !== 'string') return Promise.reject(new TypeError(`editor.${path} needs an event name`));
      return path === 'on' ? this.listenEditor(name, listener) : this.unlistenEditor(name, listener);
    }
    return this.request(PageRequest.invokeEditorMethod, [path, args]);
  }

  private async listenEditor(name: string, listener: Listener | undefined): Promise<void> {
    if (typeof listener !== 'function') throw new TypeError('editor.on needs a listener function');
    let set = this.editorListeners.get(name);
    if (!set) this.editorListeners.set(name, (set = new Set()));
    set.add(listener);
    await this.request(PageRequest.listenEditorEvent, [name]);
  }

  private async unlistenEditor(name: string, listener: Listener | undefined): Promise<void> {
    const set = this.editorListeners.get(name);
    if (listener) set?.delete(listener);
    else set?.clear();
    // the SDK keeps its collaborator list current whoever listens
    if (!set?.size && name !== EditorEvent.collaboratorsChanged) await this.request(PageRequest.unlistenEditorEvent, [name]);
  }

  private base(): MessageBase {
    return { svcSdk: PROTOCOL_MARKER, channel: this.channel, id: messageId(), time: Date.now() };
  }

  private request(name: string, args: unknown[], timeoutMs = CALL_TIMEOUT_MS): Promise<unknown> {
    const message: RequestMessage = { ...this.base(), type: 'request', name, args };
    return new Promise((resolve, reject) => {
      if (!this.element.contentWindow) {
        reject(new SDKError(ProtocolError.disconnected, `${name}: the editor is not connected`));
        return;
      }
      const timer = window.setTimeout(() => {
        this.pending.delete(message.id);
        reject(new SDKError(ProtocolError.timeout, `${name} timed out`));
      }, timeoutMs);
      this.pending.set(message.id, { resolve, reject, timer });
      this.element.contentWindow.postMessage(message, this.origin);
    });
  }

  private sendViewport(): void {
    if (!this.opened) return;
    const box = this.element.getBoundingClientRect();
    const rect: ViewportRect = { viewportWidth: window.innerWidth, viewportHeight: window.innerHeight, top: box.top, left: box.left, bottom: box.bottom, right: box.right };
    this.request(PageRequest.resize, [rect]).catch((error: unknown) => this.emit(Event.Error, error));
  }

  private receive(event: MessageEvent): void {
    if (event.source !== this.element.contentWindow || event.origin !== this.origin) return;
    const message: unknown = event.data;
    if (!isProtocolMessage(message) || message.channel !== this.channel) return;
    if (Date.now() - message.time > this.expires || this.seen.has(message.id)) return;
    this.seen.add(message.id);
    if (this.seen.size > SEEN_KEPT) this.seen.delete(this.seen.values().next().value as string);
    this.dispatch(message);
  }

  private dispatch(message: ProtocolMessage): void {
    if (message.type === 'response') {
      const pending = this.pending.get(message.replyTo);
      if (!pending) return;
      this.pending.delete(message.replyTo);
      window.clearTimeout(pending.timer);
      if (message.error) pending.reject(new SDKError(message.error.code, message.error.message));
      else pending.resolve(message.data);
    } else if (message.type === 'event') {
      if (message.name === FrameEvent.readyState) this.setReadyState(message.payload as ReadyStatePayload);
      else if (message.name === FrameEvent.editorRendered) this.emit(Event.EditorRendered, undefined);
      else if (message.name === FrameEvent.error) this.emit(Event.Error, toError(message.payload as ErrorPayload));
      else if (message.name === FrameEvent.pushMessage) this.emit(Event.PushMessage, message.payload);
      else if (message.name === FrameEvent.editorEvent) {
        const { name, payload } = message.payload as { name: string; payload: unknown };
        if (name === EditorEvent.collaboratorsChanged) this.collaborators = (payload as CollaboratorsChangedPayload).collaborators ?? [];
        for (const listener of this.editorListeners.get(name) ?? []) listener(payload);
      }
    } else {
      void this.answerHost(message);
    }
  }

  private setReadyState(state: ReadyStatePayload): void {
    this.currentReadyState = state.readyState as ReadyState;
    if (state.fileType) this.currentFileType = state.fileType;
    this.emit(Event.ReadyState, state);
    if (state.error) this.emit(Event.Error, toError(state.error));
  }

  private async answerHost(request: RequestMessage): Promise<void> {
    const reply: ResponseMessage = { ...this.base(), type: 'response', replyTo: request.id };
    try {
      reply.data = await this.hostCall(request.name, request.args);
    } catch (error) {
      reply.error = { code: error instanceof SDKError ? error.code : ProtocolError.invalidArguments, message: error instanceof Error ? error.message : String(error) };
    }
    this.element.contentWindow?.postMessage(reply, this.origin);
  }

  /** The host callbacks of the connect options, called by the editor; a missing one answers NO_HANDLER. */
  private async hostCall(name: string, args: unknown[]): Promise<unknown> {
    const { options } = this;
    const missing = () => new SDKError(ProtocolError.noHandler, `no ${name} handler in the connect options`);
    switch (name) {
      case HostRequest.openLink:
        if (!options.openLink) throw missing();
        options.openLink(String(args[0]), args[1] === undefined ? undefined : String(args[1]));
        return null;
      case HostRequest.generateUrl: {
        if (!options.generateUrl) throw missing();
        const url = await options.generateUrl(String(args[0]), args[1] as GenerateUrlInfo | undefined);
        if (typeof url !== 'string') throw new SDKError(ProtocolError.invalidArguments, 'generateUrl must return a string');
        return url;
      }
      case HostRequest.getFileInfoFromUrl:
        if (!options.getFileInfoFromUrl) throw missing();
        return (await options.getFileInfoFromUrl(String(args[0]))) ?? null;
      case HostRequest.getCredentials: {
        if (!options.getCredentials) throw missing();
        const credentials = credentialsOf(await options.getCredentials());
        if (!credentials) throw new SDKError(ProtocolError.invalidCredentials, 'getCredentials must resolve with {token, signature} strings');
        return credentials;
      }
      case HostRequest.showToast:
        if (!options.showToast) throw missing();
        await options.showToast(args[0] as ShowToastOptions);
        return null;
      default:
        throw new SDKError(ProtocolError.methodNotSupported, `unknown host call ${name}`);
    }
  }

  private emit(name: string, payload: unknown): void {
    for (const listener of this.listeners.get(name) ?? []) listener(payload);
  }
}

function toError(payload: ErrorPayload): SDKError {
  return new SDKError(payload.code, payload.message);
}

/** The editor object's type when the page does not name one: any path is a method answering a promise. */
export interface EditorProxy {
  on(event: string, listener: (payload: unknown) => void): Promise<void>;
  off(event: string, listener?: (payload: unknown) => void): Promise<void>;
  getCollaborators(): Collaborator[];
  [method: string]: (...args: never[]) => unknown;
}

/** `editor.a.b(x)` becomes `invokeEditorMethod('a.b', [x])`; `on`, `off` and `getCollaborators` are answered here. */
function editorProxy(sdk: OfficeSDK, path: string[]): unknown {
  const call = (...args: unknown[]) => sdk.invoke(path.join('.'), args);
  return new Proxy(call, {
    get: (target, property) => {
      if (typeof property !== 'string' || property === 'then') return undefined;
      if (path.length > 0 && FUNCTION_MEMBERS.has(property)) return Reflect.get(target, property) as unknown;
      if (path.length === 0 && LOCAL_EDITOR_MEMBERS.has(property)) return (...args: unknown[]) => sdk.invoke(property, args);
      return editorProxy(sdk, [...path, property]);
    },
  });
}

/** Creates the iframe in `options.container` and resolves with the sdk object once the editor is ready. */
export async function connect(options: ConnectOptions): Promise<OfficeSDK> {
  return new OfficeSDK(options).init();
}
