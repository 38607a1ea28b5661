import { EditorEvent, HostRequest, PageRequest, type EditForbiddenConfirmedPayload, type SaveStatusChangedPayload } from '../sdk/protocol.js';
import { ServiceApi } from './shared/api.js';
import { forgetCredentialsInAddress, readPage, type EditorBoot, type EditorFileType, type EditorPermissions } from './shared/boot.js';
import { FrameBridge, toErrorPayload } from './shared/bridge.js';
import { CloseCode, CollaborationSession, type Collaborator } from './shared/collaboration.js';
import { CollaboratorRoster } from './shared/collaborators.js';
import { applyAnnouncement, PushNotices } from './shared/announcements.js';
import { SessionKeeper } from './shared/credentials.js';
import type { EditorModule } from './shared/editor-context.js';
import { setLanguage, t, type MessageKey } from './shared/i18n/index.js';
import { routeLinkClicks } from './shared/links.js';
import { Shell, writeModeOf } from './shared/shell.js';
import { requestFirstScreen } from './spreadsheet/first-screen-request.js';
import { SYNCED_MARK } from './spreadsheet/marks.js';
import '@fontsource/noto-sans-sc/400.css';
import { revisionRequest } from './shared/revisions.js';
import { showWatermark } from './shared/watermark.js';
import './shared/styles.css';

/** The editor of each file kind, each its own chunk so a page loads only what its kind needs. */
const EDITORS: Partial<Record<EditorFileType, () => Promise<EditorModule>>> = {
  document: () => import('./document/index.js'),
  documentPro: () => import('./document-pro/index.js'),
  spreadsheet: () => import('./spreadsheet/index.js'),
  table: () => import('./table/index.js'),
  presentation: () => import('./presentation/index.js'),
};

/** Failed connection attempts in a row after which the page suspects its credentials and asks for new ones. */
const REFUSALS_BEFORE_RENEWAL = 2;

/** The server's loading screen (`showLoading` of the SDK) goes once the editor is ready or has failed. */
function hideLoading(): void {
  document.getElementById('svc-loading')?.remove();
}

/** What the page says when the service ends its session with one of these close codes (others: disconnected). */
const ENDED_MESSAGES = new Map<number, MessageKey>([
  [CloseCode.accessRevoked, 'error.accessRevoked'],
  [CloseCode.fileDeleted, 'error.fileDeleted'],
  [CloseCode.outdatedEditor, 'error.outdatedEditor'],
  [CloseCode.locked, 'error.locked'],
]);

async function start(boot: EditorBoot, bridge: FrameBridge): Promise<void> {
  setLanguage(boot.lang);
  showWatermark(boot.watermark);
  bridge.reportReadyState({ readyState: 'loading' });
  const api = new ServiceApi(boot);
  const shell = new Shell(document.getElementById('app')!, boot);
  routeLinkClicks(bridge, shell.root, (error) => bridge.reportError(error));
  // asked before the session opens: see first-screen-request.ts
  const firstScreen = boot.fileType === 'spreadsheet' ? requestFirstScreen(api, boot, shell.main) : undefined;
  const notices = new PushNotices(shell);
  const roster = new CollaboratorRoster();
  const updateRoster = (states: Collaborator[]) => {
    const changes = roster.update(states);
    if (changes.length === 0) return;
    shell.showCollaborators(roster.list());
    for (const change of changes) bridge.emitEditorEvent(EditorEvent.collaboratorsChanged, change);
  };
  let writeMode = writeModeOf(boot.permissions, boot.fileType);
  let failedAttempts = 0;
  let lastConnectionStatus = '';
  const session = new CollaborationSession(boot, {
    saveStatus: (status) => {
      shell.showSaveStatus(status);
      bridge.emitEditorEvent(EditorEvent.saveStatusChanged, { status } satisfies SaveStatusChangedPayload);
    },
    collaborators: (states) => updateRoster(states),
    access: (permissions: Partial<EditorPermissions>) => {
      const mode = writeModeOf({ ...boot.permissions, ...permissions }, boot.fileType);
      if (mode === writeMode) return;
      writeMode = mode;
      shell.showWriteMode(mode);
      if (mode === 'edit') {
        shell.showSaveStatus(session.status);
        shell.showNotice(t('notice.editAllowed'), { label: t('notice.confirm'), then: () => undefined });
      } else {
        const confirmed: EditForbiddenConfirmedPayload = { reason: 'STATUS_FORBIDDEN' };
        shell.showNotice(t('notice.editForbidden'), { label: t('notice.confirm'), then: () => bridge.emitEditorEvent(EditorEvent.editForbiddenConfirmed, confirmed) });
      }
    },
    connection: (status) => {
      // a connection that never opens may be refused for its ticket before it says so
      if (status === 'connected') failedAttempts = 0;
      else if (status === 'disconnected' && lastConnectionStatus === 'connecting' && ++failedAttempts >= REFUSALS_BEFORE_RENEWAL) keeper.renewSoon();
      lastConnectionStatus = status;
    },
    ticketRefused: () => keeper.renewSoon(),
    message: (message) => applyAnnouncement(message, { boot, bridge, shell, session, notices }),
    ended: (code) => {
      const key = ENDED_MESSAGES.get(code) ?? 'error.disconnected';
      shell.showNotice(t(key));
      bridge.reportReadyState({ readyState: 'disconnected', fileType: boot.fileType, error: { code, message: t(key) } });
    },
  });
  const keeper = new SessionKeeper(
    boot.session,
    (ticket) => {
      api.setTicket(ticket);
      session.setTicket(ticket);
    },
    { open: (credentials) => api.openSession(credentials), askHost: () => bridge.callHost(HostRequest.getCredentials) },
  );
  api.onUnauthorized(() => keeper.renew());
  bridge.handle(PageRequest.setCredentials, ([credentials]) => keeper.set(credentials));
  bridge.onListen(EditorEvent.collaboratorsChanged, () => bridge.emitEditorEvent(EditorEvent.collaboratorsChanged, roster.snapshot()));
  // methods of every kind (browser-sdk.md "Editor methods"); an editor module may register its own over them
  bridge.registerMethods({
    setTitle: (title) => {
      if (typeof title !== 'string') throw new TypeError('setTitle needs a string');
      shell.setTitle(title);
      bridge.emitEditorEvent(EditorEvent.titleChange, title);
    },
    createRevision: (options) => {
      const { title, label } = revisionRequest(options);
      return api.call(api.filePath('revisions'), { method: 'POST', body: { title: title ?? new Date().toLocaleString(boot.lang), label } });
    },
  });
  bridge.reportReadyState({ readyState: 'loadingEditor', fileType: boot.fileType });
  const load = EDITORS[boot.fileType];
  if (!load) throw new Error(`no editor for ${boot.fileType}`);
  const context = { boot, bridge, api, session, shell };
  const editor = await load();
  // a large file's sync takes seconds: an editor may show its first screen from the service meanwhile
  // (a small file is synced by now, and its editor comes at once)
  if (firstScreen && !session.isSynced && editor.showFirstScreen) {
    void editor.showFirstScreen(context, firstScreen).then((shown) => {
      if (shown) hideLoading();
    });
  }
  await session.synced();
  performance.mark(SYNCED_MARK);
  await editor.mount(context);
  shell.showSaveStatus(session.status);
  // the page's own awareness state was set before anyone listened to changes
  updateRoster(session.collaborators());
  shell.showWriteMode(writeMode);
  hideLoading();
  bridge.reportReadyState({ readyState: 'ready', fileType: boot.fileType });
  bridge.editorRendered();
}

forgetCredentialsInAddress();
const page = readPage();
if ('error' in page) {
  // the server answered an error page: tell the SDK, whose connect() rejects with this code
  const bridge = new FrameBridge(page.error.channel, page.error.messageExpires);
  bridge.reportReadyState({ readyState: 'failed', error: { code: page.error.code, message: page.error.message } });
} else {
  const bridge = new FrameBridge(page.boot.channel, page.boot.messageExpires);
  start(page.boot, bridge).catch((error: unknown) => {
    console.error(error);
    hideLoading();
    bridge.reportReadyState({ readyState: 'failed', fileType: page.boot.fileType, error: toErrorPayload(error) });
  });
}
