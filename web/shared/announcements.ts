import { EditorEvent, type PushMessagePayload } from '../../sdk/protocol.js';
import type { FrameBridge } from './bridge.js';
import type { CollaborationSession, ServiceMessage } from './collaboration.js';
import type { EditorBoot } from './boot.js';
import { t } from './i18n/index.js';
import { element, type Shell } from './shell.js';

/** Notices shown at once; an older one gives way to a newer. */
const MAX_PUSH_NOTICES = 3;

/**
 * The integrator's pushed notices over the editor (docs/PUSH-AND-EVENTS.md): one row each, read out politely
 * (role=status), each closed by its own labelled button. Text only, never markup.
 */
export class PushNotices {
  private readonly container: HTMLElement;

  constructor(shell: Shell) {
    this.container = element('div', 'svc-push-notices');
    this.container.setAttribute('aria-label', t('notice.pushed'));
    shell.toolbar.before(this.container);
  }

  show(text: string): void {
    const notice = element('div', 'svc-push-notice');
    notice.setAttribute('role', 'status');
    const close = element('button', 'svc-push-close', '×');
    close.type = 'button';
    close.setAttribute('aria-label', t('notice.close'));
    close.addEventListener('click', () => notice.remove());
    notice.append(element('span', 'svc-push-text', text), close);
    this.container.append(notice);
    while (this.container.childElementCount > MAX_PUSH_NOTICES) this.container.firstElementChild?.remove();
  }
}

export interface AnnouncementContext {
  boot: EditorBoot;
  bridge: FrameBridge;
  shell: Shell;
  session: CollaborationSession;
  notices: PushNotices;
}

function pushPayload(message: ServiceMessage): PushMessagePayload | undefined {
  const { pushId, fileId, sentAt } = message;
  if (typeof pushId !== 'string' || typeof fileId !== 'string' || typeof sentAt !== 'string') return undefined;
  return { pushId, fileId, message: message.message, sentAt };
}

/**
 * What the service's push and reported-event messages do to an open editor: a push goes to the host page as
 * `pushMessage` (and a string `message.text` shows as a notice); a rename sets the title (`titleChange`); an
 * updated user's own page shows the new name and avatar to the others (awareness). A deleted file needs nothing
 * here: the service closes the session with 4404, and the page says so (main.ts `ended`).
 */
export function applyAnnouncement(message: ServiceMessage, context: AnnouncementContext): void {
  switch (message.type) {
    case 'svc:push': {
      const payload = pushPayload(message);
      if (!payload) return;
      context.bridge.pushMessage(payload);
      const text = (payload.message as { text?: unknown } | null)?.text;
      if (typeof text === 'string' && text.trim() !== '') context.notices.show(text);
      return;
    }
    case 'svc:file-renamed':
      if (typeof message.name !== 'string') return;
      context.shell.setTitle(message.name);
      context.bridge.emitEditorEvent(EditorEvent.titleChange, message.name);
      return;
    case 'svc:user-updated': {
      const user = message.user as { id?: unknown; name?: unknown; avatar?: unknown } | null;
      if (message.userId !== context.boot.user.id || typeof user?.name !== 'string') return;
      context.session.setIdentity({ id: context.boot.user.id, name: user.name, avatar: typeof user.avatar === 'string' ? user.avatar : '' });
      return;
    }
    default:
      return;
  }
}
