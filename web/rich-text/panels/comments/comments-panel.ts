import type { EditorMethod } from '../../../shared/bridge.js';
import { element } from '../../../shared/shell.js';
import { invalidArgument, optionsArgument, stringArgument } from '../../../shared/panels/arguments.js';
import { renderInlineNodes, type ConversationContent } from '../../../shared/panels/composer/inline-content.js';
import { MentionComposer } from '../../../shared/panels/composer/mention-composer.js';
import { formatTime } from '../../../shared/panels/format.js';
import { PanelNotice } from '../../../shared/panels/notice.js';
import { messageOf, t as panelText } from '../../../shared/panels/messages.js';
import type { Panel } from '../../../shared/panels/panel-host.js';
import type { PanelsContext } from '../panels-context.js';
import { anchorOf } from './anchor.js';
import { CommentHighlights } from './comment-highlights.js';
import { CommentStore, type CommentData, type DocumentSelection, type ThreadData } from '../../../shared/panels/comments/comment-store.js';
import { redrawKeepingFocus } from '../../../shared/panels/keep-focus.js';
import { t } from '../../../shared/panels/comments/messages.js';

interface Draft {
  selection: DocumentSelection;
  quote: string;
  composer: MentionComposer;
}

/**
 * Comments on selected text (docs/BROWSER.md "Panels"): a thread per commented range, marked in the text,
 * listed in the side panel with replies, resolve/reopen and delete; a floating button comments the selection.
 * Commentable users write; readers only read. Changes by anyone arrive through `svc:conversation`.
 */
export class CommentsPanel implements Panel {
  readonly id = 'comments';
  readonly label = t('comments.title');
  readonly element = element('div', '');
  readonly store: CommentStore;
  private readonly highlights: CommentHighlights;
  private readonly bubble: HTMLButtonElement;
  private readonly list = element('div', 'svc-thread-list');
  private readonly notice = new PanelNotice();
  private readonly draftArea = element('div', 'svc-comment-draft');
  private readonly addButton: HTMLButtonElement;
  private readonly showResolved: HTMLInputElement;
  private readonly replies = new Map<string, MentionComposer>();
  private draft: Draft | undefined;
  private active: string | undefined;

  constructor(private readonly context: PanelsContext) {
    this.store = new CommentStore(context.api, context.session);
    this.highlights = new CommentHighlights(context.editor, (selectionGuid) => this.clicked(selectionGuid));
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
    this.element.append(bar, this.notice.element, this.draftArea, this.list);

    this.bubble = element('button', 'svc-comment-bubble', t('comments.add'));
    this.bubble.type = 'button';
    this.bubble.title = t('comments.addTitle');
    this.bubble.hidden = true;
    // mousedown would take the selection away from the editor before the click
    this.bubble.addEventListener('mousedown', (event) => event.preventDefault());
    this.bubble.addEventListener('click', () => this.startDraft());
    context.shell.main.append(this.bubble);
    context.editor.on('selectionUpdate', () => this.placeBubble());
    document.addEventListener('selectionchange', () => this.placeBubble());
    context.shell.main.addEventListener('scroll', () => this.placeBubble(), { passive: true });

    this.store.onChange(() => this.render());
    context.permissions.follow(() => this.render());
    void this.store.reload().catch((error: unknown) => this.notice.show(panelText('panel.failed', { message: messageOf(error) })));
  }

  shown(): void {
    void this.store.reload().catch(() => undefined);
  }

  /** SDK editor methods of the comments (browser-sdk.md: documentPro comments, document show/hide). */
  methods(): Record<string, EditorMethod> {
    return {
      showComments: () => this.context.panels.show(this.id),
      hideComments: () => this.context.panels.hide(this.id),
      getComments: async () => {
        await this.store.reload();
        return this.store.threads.map((thread) => this.describe(thread));
      },
      getComment: async (guid) => {
        await this.store.reload();
        const found = this.store.findComment(stringArgument(guid, 'commentGuid'));
        return found ? { ...found.comment, status: found.thread.status, quote: found.thread.selection.quote ?? '' } : null;
      },
      addComment: async (options) => {
        const { content, from, to } = optionsArgument(options, 'addComment');
        const range = from === undefined && to === undefined ? this.context.editor.state.selection : { from, to };
        if (typeof range.from !== 'number' || typeof range.to !== 'number' || range.from >= range.to) throw invalidArgument('addComment needs a selection: select text, or give {from, to} with from < to');
        if (range.to > this.context.editor.state.doc.content.size || range.from < 0) throw invalidArgument('addComment: {from, to} is outside the document');
        return this.store.create(anchorOf(this.context.editor, range.from, range.to), contentArgument(content));
      },
      replyComment: (options) => {
        const { commentGuid, content } = optionsArgument(options, 'replyComment');
        return this.store.reply(stringArgument(commentGuid, 'commentGuid'), contentArgument(content));
      },
      updateComment: (options) => {
        const { commentGuid, content } = optionsArgument(options, 'updateComment');
        return this.store.update(stringArgument(commentGuid, 'commentGuid'), contentArgument(content));
      },
      removeComment: (commentGuid) => this.store.remove(stringArgument(commentGuid, 'commentGuid')),
      goToComment: async (guid) => {
        const wanted = stringArgument(guid, 'guid');
        await this.store.reload();
        const thread = this.store.threads.find((candidate) => candidate.selectionGuid === wanted) ?? this.store.findComment(wanted)?.thread;
        if (!thread) throw invalidArgument(`no comment or thread ${wanted} in this file`);
        this.context.panels.show(this.id);
        this.focusThread(thread.selectionGuid, true);
      },
    };
  }

  private describe(thread: ThreadData): Record<string, unknown> {
    return { selectionGuid: thread.selectionGuid, status: thread.status, quote: thread.selection.quote ?? '', detached: thread.selection.detached, comments: thread.comments };
  }

  private get commentable(): boolean {
    return this.context.permissions.now.commentable;
  }

  private clicked(selectionGuid: string): void {
    const thread = this.store.threads.find((candidate) => candidate.selectionGuid === selectionGuid);
    this.context.bridge.emitEditorEvent('commentClicked', { selectionGuid, commentGuids: thread?.comments.map((comment) => comment.guid) ?? [] });
    this.context.panels.show(this.id);
    this.focusThread(selectionGuid, false);
  }

  private focusThread(selectionGuid: string, scrollText: boolean): void {
    this.active = selectionGuid;
    this.highlights.activate(selectionGuid);
    this.render();
    this.list.querySelector<HTMLElement>(`[data-thread="${CSS.escape(selectionGuid)}"]`)?.scrollIntoView({ block: 'nearest' });
    const range = this.highlights.rangeOf(selectionGuid);
    if (scrollText && range) {
      const { node } = this.context.editor.view.domAtPos(range.from);
      (node instanceof Element ? node : node.parentElement)?.scrollIntoView({ block: 'center' });
    }
  }

  private placeBubble(): void {
    const { editor } = this.context;
    const { from, to, empty } = editor.state.selection;
    // the page's selection, not focus: a reader's editor (not editable) never has focus but can be selected in
    const selected = window.getSelection();
    const inEditor = selected !== null && !selected.isCollapsed && editor.view.dom.contains(selected.anchorNode);
    if (empty || !inEditor || !this.commentable || editor.state.doc.textBetween(from, to, '').trim() === '') {
      this.bubble.hidden = true;
      return;
    }
    const end = editor.view.coordsAtPos(to);
    const area = this.context.shell.main.getBoundingClientRect();
    this.bubble.style.top = `${Math.max(area.top, end.top - 36)}px`;
    this.bubble.style.left = `${Math.min(area.right - 90, end.right + 8)}px`;
    this.bubble.hidden = false;
  }

  private startDraft(): void {
    const { editor } = this.context;
    const { from, to, empty } = editor.state.selection;
    this.context.panels.show(this.id);
    if (empty) {
      this.notice.show(t('comments.selectFirst'));
      return;
    }
    const composer = new MentionComposer(this.context.api, {
      placeholder: t('comments.placeholder'),
      submitLabel: t('comments.send'),
      submit: (content) => this.notice.run(async () => {
        const comment = await this.store.create(draft.selection, content);
        this.closeDraft();
        this.focusThread(comment.selectionGuid, false);
      }),
      cancel: () => this.closeDraft(),
    });
    const draft: Draft = { selection: anchorOf(editor, from, to), quote: editor.state.doc.textBetween(from, to, '\n'), composer };
    this.draft = draft;
    this.bubble.hidden = true;
    this.render();
    composer.focus();
  }

  private closeDraft(): void {
    this.draft = undefined;
    this.render();
  }


  private render(): void {
    const commentable = this.commentable;
    this.addButton.disabled = !commentable;
    if (!commentable && this.draft) this.draft = undefined;
    redrawKeepingFocus(this.draftArea, () => (this.draft ? [element('blockquote', 'svc-thread-quote', this.draft.quote), this.draft.composer.element] : []));
    const threads = this.store.threads;
    this.highlights.show(
      threads
        .filter((thread) => thread.status === 'open' && !thread.selection.detached && thread.selection.from !== undefined && thread.selection.to !== undefined)
        .map((thread) => ({ selectionGuid: thread.selectionGuid, from: thread.selection.from!, to: thread.selection.to! })),
    );
    const shown = threads.filter((thread) => thread.status === 'open' || this.showResolved.checked || thread.selectionGuid === this.active);
    for (const guid of this.replies.keys()) if (!threads.some((thread) => thread.selectionGuid === guid)) this.replies.delete(guid);
    if (shown.length === 0) {
      this.list.replaceChildren(element('p', 'svc-panel-empty', commentable ? t('comments.empty') : t('comments.readOnly')));
      return;
    }
    redrawKeepingFocus(this.list, () => shown.map((thread) => this.renderThread(thread, commentable)));
  }

  private renderThread(thread: ThreadData, commentable: boolean): HTMLElement {
    const card = element('section', 'svc-thread');
    card.dataset.thread = thread.selectionGuid;
    card.dataset.status = thread.status;
    card.classList.toggle('svc-thread-active', thread.selectionGuid === this.active);
    const quote = thread.selection.detached ? element('p', 'svc-thread-detached', t('comments.detached')) : element('blockquote', 'svc-thread-quote', thread.selection.quote ?? '');
    card.append(quote);
    if (thread.status === 'closed') card.append(element('p', 'svc-thread-resolved', t('comments.resolved')));
    const comments = element('ol', 'svc-thread-comments');
    comments.append(...thread.comments.map((comment, index) => this.renderComment(comment, index === 0, commentable)));
    card.append(comments);
    if (commentable) {
      const actions = element('div', 'svc-thread-actions');
      const closed = thread.status === 'closed';
      const toggle = element('button', 'svc-button svc-thread-toggle', closed ? t('comments.reopen') : t('comments.resolve'));
      toggle.type = 'button';
      toggle.addEventListener('click', () => void this.notice.run(() => this.store.setClosed(thread.selectionGuid, !closed)).catch(() => undefined));
      actions.append(toggle);
      card.append(actions);
      const first = thread.comments[0];
      if (!closed && first) card.append(this.replyComposer(thread.selectionGuid, first.guid).element);
    }
    card.addEventListener('click', (event) => {
      if ((event.target as Element).closest('button, textarea, form')) return;
      this.focusThread(thread.selectionGuid, true);
    });
    return card;
  }

  private renderComment(comment: CommentData, first: boolean, commentable: boolean): HTMLElement {
    const item = element('li', 'svc-comment');
    item.dataset.comment = comment.guid;
    const meta = element('div', 'svc-comment-meta');
    meta.append(element('span', 'svc-comment-author', this.store.nameOf(comment.userId) ?? comment.userId), element('time', 'svc-comment-time', formatTime(comment.createdAt)));
    if (comment.updatedAt !== comment.createdAt) meta.append(element('span', 'svc-comment-edited', t('comments.edited')));
    const body = element('div', 'svc-comment-body');
    body.append(renderInlineNodes(comment.nodes, (userId) => this.store.nameOf(userId)));
    item.append(meta, body);
    const { manageable } = this.context.permissions.now;
    if (commentable && (comment.userId === this.context.boot.user.id || manageable)) {
      const remove = element('button', 'svc-link-button svc-comment-delete', t('comments.delete'));
      remove.type = 'button';
      // a second click confirms: a native confirm() may be blocked in a cross-origin frame
      remove.addEventListener('click', () => {
        if (remove.dataset.confirm !== 'true') {
          remove.dataset.confirm = 'true';
          remove.textContent = first ? t('comments.deleteThreadConfirm') : t('comments.deleteConfirm');
          return;
        }
        void this.notice.run(() => this.store.remove(comment.guid)).catch(() => undefined);
      });
      meta.append(remove);
    }
    return item;
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
}

function contentArgument(value: unknown): ConversationContent {
  if (typeof value === 'string' || Array.isArray(value)) return value as ConversationContent;
  throw invalidArgument('content must be a string or an array of inline nodes (text, mention, hardBreak)');
}
