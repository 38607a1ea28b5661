import type { EditorContext } from '../shared/editor-context.js';
import { redrawKeepingFocus } from '../shared/panels/keep-focus.js';
import type { Panel, PanelHost } from '../shared/panels/panel-host.js';
import { t } from './messages.js';

/** A comment as `comment-list` answers it (docs/CONVERSATIONS.md). */
interface CommentEntry {
  guid: string;
  userId: string;
  content: string;
  replyTo: string | null;
}

interface Thread {
  selectionGuid: string;
  selection: { slideId?: string; detached: boolean };
  status: 'open' | 'closed';
  comments: CommentEntry[];
}

interface CommentPage {
  threads: Thread[];
  isLastPage: boolean;
  users: Record<string, { name: string }>;
}

/** comment-list's largest page; a presentation with more threads than pages × this shows the newest. */
const PAGE_SIZE = 100;
const MAX_PAGES = 20;

/**
 * The comments on the open slide, a panel of the side area: threads anchored to `{slideId}` (the presentation
 * selection of docs/CONVERSATIONS.md), newest first, with a form to start one and to reply. It reads again when
 * the service says a comment or thread changed (`svc:conversation`) and after each own write.
 */
export class SlideComments implements Panel {
  readonly id = 'comments';
  readonly label = t('comments.title');
  readonly element: HTMLElement;
  private readonly list: HTMLElement;
  private readonly form: HTMLFormElement;
  private readonly status: HTMLElement;
  private slideId: string | undefined;
  private reading = 0;
  /** each open thread's reply box, kept across reads so text being typed survives a comment arriving meanwhile */
  private readonly replies = new Map<string, HTMLFormElement>();

  constructor(
    private readonly context: EditorContext,
    private readonly panels: PanelHost,
  ) {
    this.element = document.createElement('section');
    this.element.className = 'svc-slide-comments';
    this.status = document.createElement('p');
    this.status.className = 'svc-comments-status';
    this.status.setAttribute('role', 'status');
    this.list = document.createElement('ol');
    this.list.className = 'svc-comment-threads';
    this.form = this.composer(t('comments.placeholder'), t('comments.send'), (content) =>
      this.slideId === undefined ? Promise.resolve() : this.write('comments', { selection: { slideId: this.slideId }, content }),
    );
    this.form.hidden = !context.boot.permissions.commentable;
    this.element.append(this.status, this.list, this.form);
    context.session.onMessage((message) => {
      if (message.type === 'svc:conversation' && (message.subject === 'comment' || message.subject === 'thread') && this.panels.isShown(this.id)) void this.read();
    });
  }

  shown(): void {
    void this.read();
  }

  show(slideId: string | undefined): void {
    this.slideId = slideId;
    this.list.replaceChildren();
    if (this.panels.isShown(this.id)) void this.read();
  }

  private async read(): Promise<void> {
    const reading = ++this.reading;
    const slideId = this.slideId;
    try {
      const threads: Thread[] = [];
      const users: CommentPage['users'] = {};
      for (let page = 1; page <= MAX_PAGES; page++) {
        const answer = await this.context.api.call<CommentPage>(this.context.api.filePath('comment-list'), { query: { page, pageSize: PAGE_SIZE, status: 'all' } });
        threads.push(...answer.threads.filter((thread) => thread.selection.slideId === slideId && !thread.selection.detached));
        Object.assign(users, answer.users);
        if (answer.isLastPage) break;
      }
      if (reading !== this.reading) return;
      this.status.textContent = threads.length === 0 ? t('comments.empty') : '';
      for (const guid of this.replies.keys()) if (!threads.some((thread) => thread.selectionGuid === guid && thread.status === 'open')) this.replies.delete(guid);
      redrawKeepingFocus(this.list, () => threads.map((thread) => this.thread(thread, users)));
    } catch (error) {
      if (reading === this.reading) this.status.textContent = t('comments.loadFailed', { message: error instanceof Error ? error.message : String(error) });
    }
  }

  private thread(thread: Thread, users: CommentPage['users']): HTMLElement {
    const item = document.createElement('li');
    item.className = 'svc-comment-thread';
    item.dataset.selectionGuid = thread.selectionGuid;
    item.classList.toggle('is-closed', thread.status === 'closed');
    for (const comment of thread.comments) {
      const entry = document.createElement('div');
      entry.className = 'svc-comment';
      const author = document.createElement('strong');
      author.textContent = users[comment.userId]?.name ?? comment.userId;
      const text = document.createElement('p');
      text.textContent = comment.content;
      entry.append(author, text);
      item.append(entry);
    }
    if (thread.status === 'closed') {
      const closed = document.createElement('span');
      closed.className = 'svc-comment-closed';
      closed.textContent = t('comments.closed');
      item.append(closed);
    } else if (this.context.boot.permissions.commentable && thread.comments[0]) {
      const first = thread.comments[0].guid;
      let reply = this.replies.get(thread.selectionGuid);
      if (!reply) {
        reply = this.composer(t('comments.replyPlaceholder'), t('comments.reply'), (content) => this.write(`comments/${encodeURIComponent(first)}/replies`, { content }));
        this.replies.set(thread.selectionGuid, reply);
      }
      item.append(reply);
    }
    return item;
  }

  /** A text field with a send button; the text is kept when sending fails. */
  private composer(placeholder: string, label: string, send: (content: string) => Promise<void>): HTMLFormElement {
    const form = document.createElement('form');
    form.className = 'svc-comment-form';
    const input = document.createElement('textarea');
    input.placeholder = placeholder;
    input.setAttribute('aria-label', placeholder);
    input.rows = 2;
    const submit = document.createElement('button');
    submit.type = 'submit';
    submit.className = 'svc-button svc-button-primary';
    submit.textContent = label;
    form.append(input, submit);
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const content = input.value.trim();
      if (!content) return;
      submit.disabled = true;
      send(content)
        .then(() => {
          input.value = '';
        })
        .catch((error: unknown) => {
          this.status.textContent = t('comments.failed', { message: error instanceof Error ? error.message : String(error) });
        })
        .finally(() => {
          submit.disabled = false;
        });
    });
    return form;
  }

  private async write(path: string, body: unknown): Promise<void> {
    await this.context.api.call(this.context.api.filePath(path), { method: 'POST', body });
    await this.read();
  }
}
