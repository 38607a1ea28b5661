import type { EditorMethod } from '../../bridge.js';
import type { EditorContext } from '../../editor-context.js';
import { fileUrl, openLink } from '../../links.js';
import { element } from '../../shell.js';
import type { MentionedFileAttrs } from '../composer/inline-content.js';
import { renderInlineNodes } from '../composer/render-content.js';
import { MentionComposer } from '../composer/mention-composer.js';
import { formatTime } from '../format.js';
import { redrawKeepingFocus } from '../keep-focus.js';
import { LivePermissions } from '../live-permissions.js';
import { messageOf, t as panelText } from '../messages.js';
import { PanelNotice } from '../notice.js';
import type { Panel, PanelHost } from '../panel-host.js';
import { CommentStore, type CommentData, type ThreadData } from './comment-store.js';
import { t } from './messages.js';

/** how long a Delete clicked once waits for the confirming click */
const DELETE_CONFIRM_MS = 8000;

/** What a new thread would be anchored to now: the selection the API takes and what a person calls it. */
export interface CommentTarget<Selection> {
  selection: Selection;
  /** e.g. the quoted text, `B2`, `Slide 2`, `Name, row 4` */
  label: string;
}

/**
 * What one editor kind adds to the conversation panel: its anchor kind (docs/CONVERSATIONS.md "Selections")
 * and the marks it draws on anything that has comments.
 */
export interface CommentAnchors<Selection, Resolved> {
  /** what the Comment button anchors a new thread to now; undefined: nothing chosen (the hint says what to choose) */
  target(): CommentTarget<Selection> | undefined;
  /** the hint shown when there is no target, e.g. "Select a cell first." */
  readonly chooseFirst: string;
  /** a thread's anchor as the person reads it; undefined when what it was on is gone */
  labelOf(thread: ThreadData<Resolved>): string | undefined;
  /** whether the thread is on the current target: listed first and highlighted */
  isHere(thread: ThreadData<Resolved>): boolean;
  /** shows the thread's anchor in the editor (select the cell, open the slide, scroll to the text) */
  reveal(thread: ThreadData<Resolved>): void;
  /** the open threads now: marks what has comments (text, cells, slides, boxes, rows) */
  mark(open: ReadonlyArray<ThreadData<Resolved>>): void;
  /** calls `listener` when the target moves (selection, slide, cell), so the panel shows what is here */
  onTargetChange(listener: () => void): void;
}

/**
 * The one conversation component of every editor (document, documentPro, spreadsheet, presentation, table):
 * a side panel listing the file's comment threads, those on the current target first, with replies, @mentions of
 * people and files, the time, edit, resolve/reopen and delete. Writes go through the comment routes, so the
 * service sends the same Comment and MentionAt events whichever editor wrote; every page follows
 * `svc:conversation`. Readers (not `commentable`) only read.
 */
export class ConversationPanel<Selection, Resolved extends { detached: boolean }> implements Panel {
  readonly id = 'comments';
  readonly label = t('comments.title');
  readonly element = element('section', 'svc-conversation');
  readonly store: CommentStore<Selection, Resolved>;
  readonly permissions: LivePermissions;
  private readonly list = element('div', 'svc-thread-list');
  private readonly notice = new PanelNotice();
  private readonly draftArea = element('div', 'svc-comment-draft');
  private readonly addButton: HTMLButtonElement;
  private readonly showResolved: HTMLInputElement;
  private readonly replies = new Map<string, MentionComposer>();
  /** the comment being edited, with its box */
  private editing: { guid: string; composer: MentionComposer } | undefined;
  private draft: { target: CommentTarget<Selection>; composer: MentionComposer } | undefined;
  private active: string | undefined;
  /** the comment whose Delete was clicked once and waits for the confirming click; kept across redraws */
  private confirmingDelete: { guid: string; timer: number } | undefined;
  /** the threads on the target when last drawn: a move of the target redraws only when they change */
  private hereKey = '';

  constructor(
    private readonly context: EditorContext,
    private readonly panels: Pick<PanelHost, 'show' | 'hide'>,
    private readonly anchors: CommentAnchors<Selection, Resolved>,
    permissions?: LivePermissions,
  ) {
    this.store = new CommentStore(context.api, context.session);
    this.permissions = permissions ?? new LivePermissions(context.boot.permissions, context.session);
    this.element.setAttribute('aria-label', this.label);
    this.addButton = element('button', 'svc-button svc-button-primary svc-comment-add', t('comments.add'));
    this.addButton.type = 'button';
    this.addButton.title = t('comments.addTitle');
    this.addButton.addEventListener('click', () => this.startDraft());
    const resolvedLabel = element('label', 'svc-comment-filter');
    this.showResolved = element('input', '');
    this.showResolved.type = 'checkbox';
    this.showResolved.addEventListener('change', () => this.render());
    resolvedLabel.append(this.showResolved, document.createTextNode(t('comments.showResolved')));
    const bar = element('div', 'svc-panel-bar');
    bar.append(this.addButton, resolvedLabel);
    this.list.setAttribute('role', 'list');
    this.list.setAttribute('aria-label', t('comments.threads'));
    this.element.append(bar, this.notice.element, this.draftArea, this.list);
    this.store.onChange(() => this.render());
    this.permissions.follow(() => this.render());
    anchors.onTargetChange(() => {
      if (this.threadsHereKey() !== this.hereKey) this.render();
    });
    void this.store.reload().catch((error: unknown) => this.notice.show(panelText('panel.failed', { message: messageOf(error) })));
  }

  shown(): void {
    void this.store.reload().catch(() => undefined);
  }

  /** SDK editor methods every kind has (browser-sdk.md): show and hide the comments. */
  methods(): Record<string, EditorMethod> {
    return {
      showComments: () => this.panels.show(this.id),
      hideComments: () => this.panels.hide(this.id),
    };
  }

  /** Opens the panel with a box for a new thread on the current target (the toolbar's and the bubble's Comment). */
  startDraft(): void {
    this.panels.show(this.id);
    const target = this.anchors.target();
    if (!target) {
      this.notice.show(this.anchors.chooseFirst);
      return;
    }
    if (!this.permissions.now.commentable) return;
    const composer = new MentionComposer(this.context.api, {
      placeholder: t('comments.placeholder'),
      submitLabel: t('comments.send'),
      submit: (content) =>
        this.notice.run(async () => {
          const comment = await this.store.create(target.selection, content);
          this.draft = undefined;
          this.focusThread(comment.selectionGuid);
        }),
      cancel: () => {
        this.draft = undefined;
        this.render();
        this.addButton.focus();
      },
    });
    this.draft = { target, composer };
    this.render();
    composer.focus();
  }

  /** Shows the thread in the panel, opening it (a click on a marker; goToComment). */
  open(selectionGuid: string): void {
    const thread = this.store.threads.find((candidate) => candidate.selectionGuid === selectionGuid);
    this.context.bridge.emitEditorEvent('commentClicked', { selectionGuid, commentGuids: thread?.comments.map((comment) => comment.guid) ?? [] });
    this.panels.show(this.id);
    this.focusThread(selectionGuid);
  }

  private focusThread(selectionGuid: string): void {
    this.active = selectionGuid;
    this.render();
    this.list.querySelector<HTMLElement>(`[data-thread="${CSS.escape(selectionGuid)}"]`)?.scrollIntoView({ block: 'nearest' });
  }

  /** The thread the panel highlights (the last one opened), for the editor's own highlight. */
  get activeThread(): string | undefined {
    return this.active;
  }

  private threadsHereKey(): string {
    return this.store.threads
      .filter((thread) => this.anchors.isHere(thread))
      .map((thread) => thread.selectionGuid)
      .join(' ');
  }

  private render(): void {
    this.hereKey = this.threadsHereKey();
    const commentable = this.permissions.now.commentable;
    this.addButton.disabled = !commentable;
    if (!commentable) this.draft = undefined;
    redrawKeepingFocus(this.draftArea, () => (this.draft ? [element('p', 'svc-thread-quote', this.draft.target.label), this.draft.composer.element] : []));
    const threads = this.store.threads;
    this.anchors.mark(threads.filter((thread) => thread.status === 'open' && !thread.selection.detached));
    const visible = threads.filter((thread) => thread.status === 'open' || this.showResolved.checked || thread.selectionGuid === this.active);
    // those on the current target first, each group newest first as listed
    const shown = [...visible.filter((thread) => this.anchors.isHere(thread)), ...visible.filter((thread) => !this.anchors.isHere(thread))];
    for (const guid of this.replies.keys()) if (!threads.some((thread) => thread.selectionGuid === guid && thread.status === 'open')) this.replies.delete(guid);
    if (this.editing && !threads.some((thread) => thread.comments.some((comment) => comment.guid === this.editing?.guid))) this.editing = undefined;
    if (shown.length === 0) {
      this.list.replaceChildren(element('p', 'svc-panel-empty', commentable ? t('comments.empty') : t('comments.readOnly')));
      return;
    }
    redrawKeepingFocus(this.list, () => shown.map((thread) => this.renderThread(thread, commentable)));
  }

  private renderThread(thread: ThreadData<Resolved>, commentable: boolean): HTMLElement {
    const card = element('article', 'svc-thread');
    card.setAttribute('role', 'listitem');
    card.dataset.thread = thread.selectionGuid;
    card.dataset.status = thread.status;
    const here = this.anchors.isHere(thread);
    card.classList.toggle('svc-thread-here', here);
    card.classList.toggle('svc-thread-active', thread.selectionGuid === this.active);
    const label = thread.selection.detached ? undefined : this.anchors.labelOf(thread);
    if (label === undefined) card.append(element('p', 'svc-thread-detached', t('comments.detached')));
    else {
      const go = element('button', 'svc-thread-quote svc-thread-anchor', label);
      go.type = 'button';
      go.title = t('comments.goTo');
      go.setAttribute('aria-label', t('comments.goToLabel', { place: label }));
      go.addEventListener('click', () => {
        this.active = thread.selectionGuid;
        this.anchors.reveal(thread);
        this.render();
      });
      card.append(go);
    }
    card.setAttribute('aria-label', label ?? t('comments.detached'));
    if (thread.status === 'closed') card.append(element('p', 'svc-thread-resolved', t('comments.resolved')));
    const comments = element('ol', 'svc-thread-comments');
    comments.append(...thread.comments.map((comment, index) => this.renderComment(comment, index === 0, commentable)));
    card.append(comments);
    if (!commentable) return card;
    const actions = element('div', 'svc-thread-actions');
    const closed = thread.status === 'closed';
    const toggle = element('button', 'svc-button svc-thread-toggle', closed ? t('comments.reopen') : t('comments.resolve'));
    toggle.type = 'button';
    toggle.addEventListener('click', () => void this.notice.run(() => this.store.setClosed(thread.selectionGuid, !closed)).catch(() => undefined));
    actions.append(toggle);
    card.append(actions);
    const first = thread.comments[0];
    if (!closed && first) card.append(this.replyComposer(thread.selectionGuid, first.guid).element);
    return card;
  }

  private renderComment(comment: CommentData, first: boolean, commentable: boolean): HTMLElement {
    const item = element('li', 'svc-comment');
    item.dataset.comment = comment.guid;
    const meta = element('div', 'svc-comment-meta');
    const time = element('time', 'svc-comment-time', formatTime(comment.createdAt));
    time.dateTime = comment.createdAt;
    meta.append(element('span', 'svc-comment-author', this.store.nameOf(comment.userId) ?? comment.userId), time);
    if (comment.updatedAt !== comment.createdAt) meta.append(element('span', 'svc-comment-edited', t('comments.edited')));
    item.append(meta);
    if (this.editing?.guid === comment.guid) {
      item.append(this.editing.composer.element);
      return item;
    }
    const body = element('div', 'svc-comment-body');
    body.append(renderInlineNodes(comment.nodes, (userId) => this.store.nameOf(userId), (file) => this.openFile(file)));
    item.append(body);
    const own = comment.userId === this.context.boot.user.id;
    if (!commentable || !(own || this.permissions.now.manageable)) return item;
    const tools = element('div', 'svc-comment-tools');
    if (own) {
      const edit = element('button', 'svc-link-button svc-comment-edit', t('comments.edit'));
      edit.type = 'button';
      edit.addEventListener('click', () => this.startEditing(comment));
      tools.append(edit);
    }
    const confirming = this.confirmingDelete?.guid === comment.guid;
    const confirmText = first ? t('comments.deleteThreadConfirm') : t('comments.deleteConfirm');
    const remove = element('button', 'svc-link-button svc-comment-delete', confirming ? confirmText : t('comments.delete'));
    remove.type = 'button';
    remove.dataset.focusKey = `delete:${comment.guid}`;
    if (confirming) remove.dataset.confirm = 'true';
    // a second click confirms: a native confirm() may be blocked in a cross-origin frame. The armed state lives in
    // the panel, not the button, so a redraw in between (a collaborator's change, a reload) does not disarm it.
    remove.addEventListener('click', () => {
      if (this.confirmingDelete?.guid !== comment.guid) {
        this.armDelete(comment.guid);
        remove.dataset.confirm = 'true';
        remove.textContent = confirmText;
        return;
      }
      this.disarmDelete();
      void this.notice.run(() => this.store.remove(comment.guid)).catch(() => undefined);
    });
    tools.append(remove);
    meta.append(tools);
    return item;
  }

  /** Arms a comment's Delete for the confirming click; left alone, it goes back to Delete after a few seconds. */
  private armDelete(guid: string): void {
    this.disarmDelete();
    const timer = window.setTimeout(() => {
      if (this.confirmingDelete?.guid !== guid) return;
      this.confirmingDelete = undefined;
      this.render();
    }, DELETE_CONFIRM_MS);
    this.confirmingDelete = { guid, timer };
  }

  private disarmDelete(): void {
    if (this.confirmingDelete) window.clearTimeout(this.confirmingDelete.timer);
    this.confirmingDelete = undefined;
  }

  private startEditing(comment: CommentData): void {
    const composer = new MentionComposer(this.context.api, {
      placeholder: t('comments.editPlaceholder'),
      submitLabel: panelText('action.save'),
      submit: (content) =>
        this.notice.run(async () => {
          await this.store.update(comment.guid, content);
          this.editing = undefined;
          this.render();
        }),
      cancel: () => {
        this.editing = undefined;
        this.render();
      },
    });
    composer.setContent(comment.nodes, (userId) => this.store.nameOf(userId));
    this.editing = { guid: comment.guid, composer };
    this.render();
    composer.focus();
  }

  private replyComposer(selectionGuid: string, firstGuid: string): MentionComposer {
    let composer = this.replies.get(selectionGuid);
    if (!composer) {
      composer = new MentionComposer(this.context.api, {
        placeholder: t('comments.replyPlaceholder'),
        submitLabel: t('comments.reply'),
        submit: (content) => this.notice.run(() => this.store.reply(firstGuid, content)),
      });
      this.replies.set(selectionGuid, composer);
    }
    return composer;
  }

  /** A mentioned file opens as the integrator wants: a third-party file at its address, ours through generateUrl. */
  private openFile(file: MentionedFileAttrs): void {
    void (async () => {
      const url = file.fullUrl ?? (await fileUrl(this.context.bridge, file.fileId));
      if (url) await openLink(this.context.bridge, url);
      else this.notice.show(t('comments.fileNoLink', { name: file.label }));
    })().catch((error: unknown) => this.notice.show(panelText('action.failed', { message: messageOf(error) })));
  }
}
