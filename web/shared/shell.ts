import type { EditorBoot } from './boot.js';
import type { Collaborator, SaveStatus } from '../../sdk/protocol.js';
import { t, type MessageKey } from './i18n/index.js';
import { SUGGESTIBLE_KINDS } from '../../src/model/content.js';

const STATUS_TEXT: Record<SaveStatus, MessageKey> = { saving: 'status.saving', saved: 'status.saved', error: 'status.error' };

/** An element with a class and, optionally, its text (always as text, never as HTML). */
export function element<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/**
 * The frame every editor lives in: a header with the title, the save status and the collaborators, a
 * toolbar row, the editor's area and a side panel. Text is only ever set through textContent, so names and
 * titles from the integrator cannot inject markup.
 */
/** What a user may do to the content of the open file (`writeModeOf`). */
export type WriteMode = 'edit' | 'suggest' | 'read';

/** A user may edit; may suggest where the file's text takes suggestions and they may comment; or reads. */
export function writeModeOf(permissions: { editable?: boolean; commentable?: boolean }, fileType: string): WriteMode {
  if (permissions.editable) return 'edit';
  return permissions.commentable && (SUGGESTIBLE_KINDS as readonly string[]).includes(fileType) ? 'suggest' : 'read';
}

export class Shell {
  readonly root: HTMLElement;
  readonly toolbar: HTMLElement;
  readonly main: HTMLElement;
  readonly side: HTMLElement;
  private readonly titleElement: HTMLElement;
  private readonly statusElement: HTMLElement;
  /** "Suggesting" beside the save status, for a user whose edits are all suggestions */
  private readonly modeElement: HTMLElement;
  private readonly collaboratorsElement: HTMLElement;
  private readonly noticeElement: HTMLElement;

  constructor(
    container: HTMLElement,
    private readonly boot: EditorBoot,
  ) {
    this.root = container;
    const header = element('header', 'svc-header');
    this.titleElement = element('h1', 'svc-title', boot.title);
    this.statusElement = element('span', 'svc-status', t('status.connecting'));
    this.statusElement.setAttribute('role', 'status');
    this.modeElement = element('span', 'svc-mode', t('status.suggesting'));
    this.modeElement.hidden = true;
    this.collaboratorsElement = element('ul', 'svc-collaborators');
    this.collaboratorsElement.setAttribute('aria-label', 'collaborators');
    header.append(this.titleElement, this.modeElement, this.statusElement, this.collaboratorsElement);
    this.noticeElement = element('div', 'svc-notice');
    this.noticeElement.hidden = true;
    this.noticeElement.setAttribute('role', 'alert');
    this.toolbar = element('div', 'svc-toolbar');
    this.toolbar.setAttribute('role', 'toolbar');
    const body = element('div', 'svc-body');
    this.main = element('main', 'svc-main');
    this.side = element('aside', 'svc-side');
    this.side.hidden = true;
    body.append(this.main, this.side);
    this.root.append(header, this.noticeElement, this.toolbar, body);
  }

  get title(): string {
    return this.titleElement.textContent ?? '';
  }

  setTitle(title: string): void {
    this.titleElement.textContent = title;
    document.title = title;
  }

  showSaveStatus(status: SaveStatus): void {
    this.statusElement.textContent = t(STATUS_TEXT[status]);
    this.statusElement.dataset.status = status;
  }

  /**
   * What the user may do to the content: `edit`; `read` (the toolbar goes); `suggest`, one who may comment on a
   * document suggests by typing (docs/BROWSER.md "Suggestions"), without the formatting toolbar either.
   */
  showWriteMode(mode: WriteMode): void {
    this.root.classList.toggle('svc-read-only', mode !== 'edit');
    // a suggester saves: the save status stays, with the mode beside it
    this.modeElement.hidden = mode !== 'suggest';
    if (mode !== 'read') return;
    this.statusElement.textContent = t('status.readOnly');
    this.statusElement.dataset.status = 'readOnly';
  }

  /**
   * A lasting notice over the editor (session ended, access revoked); with `confirm`, a button that closes it
   * and then runs `confirm.then`.
   */
  showNotice(text: string, confirm?: { label: string; then: () => void }): void {
    const parts: Node[] = [document.createTextNode(text)];
    if (confirm) {
      const button = element('button', 'svc-notice-confirm', confirm.label);
      button.type = 'button';
      button.addEventListener('click', () => {
        this.noticeElement.hidden = true;
        confirm.then();
      });
      parts.push(button);
    }
    this.noticeElement.replaceChildren(...parts);
    this.noticeElement.hidden = false;
  }

  /** One badge per collaborator (the roster has one entry per user): the avatar, or the initial on the user's color. */
  showCollaborators(collaborators: Collaborator[]): void {
    const items = collaborators.map((person) => {
      const item = element('li', 'svc-collaborator', person.name.slice(0, 1).toUpperCase());
      item.title = person.id === this.boot.user.id ? t('collaborators.you', { name: person.name }) : person.name;
      item.style.background = person.color;
      item.dataset.userId = person.id;
      if (/^(https?:|data:image\/)/i.test(person.avatar)) {
        const avatar = element('img', 'svc-avatar');
        avatar.alt = '';
        avatar.src = person.avatar;
        // a broken avatar leaves the initial on the user's color
        avatar.addEventListener('error', () => avatar.remove());
        item.append(avatar);
      }
      return item;
    });
    this.collaboratorsElement.replaceChildren(...items);
  }
}
