/**
 * The demo intranet's page (served as /intranet/app.js, see ../intranet.ts). It talks to its own back end
 * only (`/intranet/api/…`), loads the JS SDK from the service and opens files with `connect()`.
 * User-provided text (names, file names, comments) is always set as text, never as HTML.
 */
import type { ConnectOptions, Credentials, OfficeSDK } from '../../../sdk/index.js';
import type { Colleague, EventEntry, FileEntry } from '../intranet.js';

type SdkModule = { connect(options: ConnectOptions): Promise<OfficeSDK> };
interface EditorProxy {
  on(name: string, listener: (payload: unknown) => void): Promise<unknown>;
  getCollaborators(): Promise<Array<{ id: string; name: string }>>;
}
interface OpenSession extends Credentials {
  endpoint: string;
  fileId: string;
  name: string;
  type: string;
}

const KINDS: Array<{ type: string; label: string; letter: string }> = [
  { type: 'document', label: 'Document', letter: 'D' },
  { type: 'documentPro', label: 'Document Pro', letter: 'P' },
  { type: 'spreadsheet', label: 'Spreadsheet', letter: 'S' },
  { type: 'presentation', label: 'Presentation', letter: 'R' },
  { type: 'table', label: 'Table', letter: 'T' },
];
const FILES_PATH = '/intranet/files/';
const USER_KEY = 'svc-demo-user';

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;

let token: string | undefined;
let me: Colleague | undefined;
let sdkModule: Promise<SdkModule> | undefined;
/** The open file; its title and save state are in the editor's own header (one title bar), not repeated here. */
let current: { sdk: OfficeSDK | undefined; editor: EditorProxy | undefined; fileId: string; name: string } | undefined;
let eventCount = 0;

class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function api<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const response = await fetch(path, {
    method: init.method ?? 'GET',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const answer = (await response.json().catch(() => ({}))) as T & { error?: string };
  if (!response.ok) throw new ApiError(response.status, answer.error ?? `HTTP ${response.status}`);
  return answer;
}

function element<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function initials(name: string): string {
  return name
    .split(/\s+/)
    .map((part) => part[0] ?? '')
    .join('')
    .slice(0, 2)
    .toUpperCase();
}

/** A stable colour per person, so the same colleague looks the same everywhere on the page. */
function avatar(person: { id: string; name: string }, className = 'avatar'): HTMLElement {
  const node = element('span', className, initials(person.name));
  let hash = 0;
  for (const char of person.id) hash = (hash * 31 + char.charCodeAt(0)) % 360;
  node.style.background = `hsl(${hash} 55% 48%)`;
  node.title = person.name;
  return node;
}

function kindOf(type: string) {
  return KINDS.find((kind) => kind.type === type) ?? { type, label: type, letter: '?' };
}

function kindIcon(type: string): HTMLElement {
  const node = element('span', `kind-icon kind-${type}`, kindOf(type).letter);
  node.title = kindOf(type).label;
  return node;
}

function ago(iso: string): string {
  const seconds = Math.max(0, (Date.now() - Date.parse(iso)) / 1000);
  if (seconds < 60) return 'just now';
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86400) return `${Math.floor(seconds / 3600)} h ago`;
  return new Date(iso).toLocaleDateString('en');
}

// --- who am I --------------------------------------------------------------------------------------------

async function signIn(userId: string): Promise<void> {
  const session = await api<{ token: string; user: Colleague }>('/intranet/api/session', { method: 'POST', body: { userId } });
  token = session.token;
  me = session.user;
  sessionStorage.setItem(USER_KEY, userId);
  $('me-avatar').replaceWith(Object.assign(avatar(me), { id: 'me-avatar' }));
  $('me-name').textContent = me.name;
  $('me-department').textContent = me.department;
  document.querySelector<HTMLElement>('.me')!.hidden = false;
  $<HTMLDialogElement>('picker').close();
  renderEvents();
  await refreshFiles();
  const wanted = fileIdInUrl() ?? current?.fileId;
  if (wanted) await openFile(wanted);
}

async function showPicker(): Promise<void> {
  const people = $('people');
  people.replaceChildren();
  for (const person of await api<Colleague[]>('/intranet/api/colleagues')) {
    const card = element('button', 'person');
    card.type = 'button';
    card.dataset.userId = person.id;
    const text = element('span', 'person-text');
    text.append(element('strong', undefined, person.name), element('small', undefined, person.department));
    card.append(avatar(person), text);
    card.addEventListener('click', () => void signIn(person.id).catch(showError));
    people.append(card);
  }
  $<HTMLDialogElement>('picker').showModal();
}

// --- files ----------------------------------------------------------------------------------------------

async function refreshFiles(): Promise<void> {
  const files = await api<FileEntry[]>('/intranet/api/files');
  const list = $('file-list');
  list.replaceChildren();
  for (const file of files) {
    const item = element('li');
    const link = element('a', 'file');
    link.href = FILES_PATH + encodeURIComponent(file.id);
    link.dataset.fileId = file.id;
    if (file.id === current?.fileId) link.classList.add('active');
    const text = element('span', 'file-text');
    text.append(element('span', 'file-name', file.name), element('small', undefined, `${kindOf(file.type).label} · ${file.creatorName} · ${ago(file.updatedAt)}${file.editable ? '' : ' · read only'}`));
    link.append(kindIcon(file.type), text);
    link.addEventListener('click', (event) => {
      event.preventDefault();
      void openFile(file.id);
    });
    item.append(link);
    list.append(item);
  }
}

function setUpNewFileForm(): void {
  const kinds = $('new-kinds');
  for (const [index, kind] of KINDS.entries()) {
    const label = element('label', 'kind');
    const radio = element('input');
    radio.type = 'radio';
    radio.name = 'kind';
    radio.value = kind.type;
    radio.checked = index === 0;
    label.append(radio, kindIcon(kind.type), element('span', undefined, kind.label));
    kinds.append(label);
  }
  $<HTMLFormElement>('new-file').addEventListener('submit', (event) => {
    event.preventDefault();
    const name = $<HTMLInputElement>('new-name').value.trim();
    const type = document.querySelector<HTMLInputElement>('input[name=kind]:checked')?.value ?? 'document';
    $('new-error').textContent = '';
    $<HTMLButtonElement>('create').disabled = true;
    api<{ id: string }>('/intranet/api/files', { method: 'POST', body: { name, type } })
      .then(async (file) => {
        $<HTMLInputElement>('new-name').value = '';
        await refreshFiles();
        await openFile(file.id);
      })
      .catch((error: Error) => ($('new-error').textContent = error.message))
      .finally(() => ($<HTMLButtonElement>('create').disabled = false));
  });
}

// --- the editor -----------------------------------------------------------------------------------------

function fileIdInUrl(): string | undefined {
  return location.pathname.startsWith(FILES_PATH) ? decodeURIComponent(location.pathname.slice(FILES_PATH.length)) || undefined : undefined;
}

function loadSdk(endpoint: string): Promise<SdkModule> {
  sdkModule ??= import(`${endpoint}/js/sdk.mjs`) as Promise<SdkModule>;
  return sdkModule;
}

function showNotice(text: string): void {
  const notice = $('notice');
  notice.textContent = text;
  notice.hidden = false;
}

function disconnect(): void {
  current?.sdk?.disconnect();
  current = undefined;
  $('notice').hidden = true;
}

function closeFile(): void {
  disconnect();
  $('doc-bar').hidden = true;
  $('welcome').hidden = false;
  if (fileIdInUrl()) history.pushState(null, '', '/');
  for (const link of document.querySelectorAll('.file.active')) link.classList.remove('active');
}

/** The colleagues the open file can be shared with: everyone but me. */
async function setUpSharing(fileId: string): Promise<void> {
  const select = $<HTMLSelectElement>('share-with');
  const colleagues = (await api<Colleague[]>('/intranet/api/colleagues')).filter((person) => person.id !== me?.id);
  select.replaceChildren(Object.assign(element('option', undefined, 'Share with…'), { value: '' }), ...colleagues.map((person) => Object.assign(element('option', undefined, person.name), { value: person.id })));
  $('share-status').textContent = '';
  select.onchange = () => {
    const userId = select.value;
    if (!userId) return;
    select.value = '';
    void api<{ sharedWith: string }>(`/intranet/api/files/${encodeURIComponent(fileId)}/share`, { method: 'POST', body: { userId } })
      .then((shared) => ($('share-status').textContent = `Shared with ${shared.sharedWith}: see the file's history`))
      .catch(showError);
  };
}

async function showCollaborators(editor: EditorProxy): Promise<void> {
  const people = await editor.getCollaborators();
  const seen = new Set<string>();
  const box = $('collaborators');
  box.replaceChildren();
  for (const person of people) {
    if (seen.has(person.id)) continue;
    seen.add(person.id);
    box.append(avatar(person, 'avatar small'));
  }
}

async function openFile(fileId: string): Promise<void> {
  disconnect();
  const opening: NonNullable<typeof current> = { sdk: undefined, editor: undefined, fileId, name: '' };
  current = opening;
  if (fileIdInUrl() !== fileId) history.pushState(null, '', FILES_PATH + encodeURIComponent(fileId));
  for (const link of document.querySelectorAll<HTMLElement>('.file')) link.classList.toggle('active', link.dataset.fileId === fileId);
  $('welcome').hidden = true;
  let session: OpenSession;
  try {
    session = await api<OpenSession>(`/intranet/api/files/${encodeURIComponent(fileId)}/open`, { method: 'POST' });
  } catch (error) {
    showNotice(`This file cannot be opened: ${(error as Error).message}`);
    return;
  }
  $('doc-kind').replaceWith(Object.assign(kindIcon(session.type), { id: 'doc-kind' }));
  opening.name = session.name;
  $('collaborators').replaceChildren();
  $('doc-bar').hidden = false;
  await setUpSharing(fileId).catch(showError);
  try {
    const { connect } = await loadSdk(session.endpoint);
    const sdk = await connect({
      container: $('editor'),
      endpoint: session.endpoint,
      fileId: session.fileId,
      token: session.token,
      signature: session.signature,
      lang: 'en',
      // a click on a link or on a mention of another file: files of the intranet open here, others in a tab
      openLink: (url) => {
        const target = new URL(url, location.href);
        if (target.origin === location.origin && target.pathname.startsWith(FILES_PATH)) void openFile(decodeURIComponent(target.pathname.slice(FILES_PATH.length)));
        else window.open(target.href, '_blank', 'noopener');
      },
      generateUrl: (id) => `${location.origin}${FILES_PATH}${encodeURIComponent(id)}`,
      getCredentials: async () => {
        const renewed = await api<OpenSession>(`/intranet/api/files/${encodeURIComponent(fileId)}/open`, { method: 'POST' });
        return { token: renewed.token, signature: renewed.signature };
      },
    });
    if (current !== opening) {
      sdk.disconnect();
      return;
    }
    opening.sdk = sdk;
    const editor = sdk.getEditor<EditorProxy>();
    opening.editor = editor;
    await editor.on('collaboratorsChanged', () => void showCollaborators(editor).catch(() => undefined));
    await showCollaborators(editor).catch(() => undefined);
  } catch (error) {
    if (current !== opening) return;
    const { code, message } = error as { code?: string | number; message?: string };
    showNotice(`The editor could not open this file (code ${String(code ?? '?')}): ${message ?? String(error)}`);
  }
}

// --- notify everyone in the open file (docs/PUSH-AND-EVENTS.md) ------------------------------------------

function setUpNotifyDialog(): void {
  const dialog = $<HTMLDialogElement>('notify-dialog');
  const text = $<HTMLTextAreaElement>('notify-text');
  $('notify-file').addEventListener('click', () => {
    if (!current) return;
    $('notify-file-name').textContent = current.name;
    $('notify-error').textContent = '';
    text.value = '';
    dialog.showModal();
    text.focus();
  });
  $('notify-cancel').addEventListener('click', () => dialog.close());
  $<HTMLFormElement>('notify-form').addEventListener('submit', (event) => {
    event.preventDefault();
    if (!current) return dialog.close();
    const send = $<HTMLButtonElement>('notify-send');
    send.disabled = true;
    api(`/intranet/api/files/${encodeURIComponent(current.fileId)}/notify`, { method: 'POST', body: { text: text.value } })
      .then(() => dialog.close())
      .catch((error: unknown) => ($('notify-error').textContent = (error as Error).message))
      .finally(() => (send.disabled = false));
  });
}

// --- events ---------------------------------------------------------------------------------------------

const events: EventEntry[] = [];

function eventItem(entry: EventEntry): HTMLElement {
  const item = element('li', 'event');
  item.dataset.eventClass = entry.eventClass;
  if (me && entry.mentioned.includes(me.id)) {
    item.classList.add('for-me');
    item.title = 'This event mentions you';
  }
  const head = element('div', 'event-head');
  head.append(element('span', `badge badge-${entry.eventClass}`, entry.eventClass), element('time', undefined, new Date(entry.receivedAt).toLocaleTimeString('en')));
  const details = element('details');
  details.append(element('summary', undefined, 'payload'), element('pre', undefined, JSON.stringify(entry.body, null, 2)));
  item.append(head, element('p', 'event-summary', entry.summary), details);
  return item;
}

function renderEvents(): void {
  $('event-list').replaceChildren(...events.map(eventItem).reverse());
  $('event-count').textContent = String(eventCount);
  $('events-empty').hidden = events.length > 0;
}

function listenToEvents(): void {
  const stream = new EventSource('/intranet/api/events');
  stream.addEventListener('message', (message: MessageEvent<string>) => {
    const entry = JSON.parse(message.data) as EventEntry;
    if (events.some((seen) => seen.id === entry.id)) return;
    events.push(entry);
    eventCount += 1;
    $('event-list').prepend(eventItem(entry));
    $('event-count').textContent = String(eventCount);
    $('events-empty').hidden = true;
    if (entry.eventClass === 'FileContent' && me) void refreshFiles();
    // someone opened or closed the open file: the integrator heard it, so the avatars can follow at once
    if (entry.eventClass === 'Collaborator' && current && entry.fileId === current.fileId && current.editor) void showCollaborators(current.editor).catch(() => undefined);
  });
}

function showError(error: unknown): void {
  showNotice(error instanceof Error ? error.message : String(error));
}

setUpNewFileForm();
listenToEvents();
$('switch-user').addEventListener('click', () => void showPicker().catch(showError));
$('close-file').addEventListener('click', closeFile);
setUpNotifyDialog();
window.addEventListener('popstate', () => {
  const fileId = fileIdInUrl();
  if (fileId && me) void openFile(fileId);
  else if (!fileId) closeFile();
});
const remembered = sessionStorage.getItem(USER_KEY);
(remembered ? signIn(remembered).catch(showPicker) : showPicker()).catch(showError);
