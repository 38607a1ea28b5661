import { parseA1 } from '../../src/model/sheets/a1.js';
import type { EditorMethod } from '../shared/bridge.js';
import type { EditorContext } from '../shared/editor-context.js';
import type { CellRange } from '../shared/grid/grid.js';
import { renderInlineNodes } from '../shared/panels/composer/inline-content.js';
import { MentionComposer } from '../shared/panels/composer/mention-composer.js';
import { CommentStore, type ThreadData } from '../shared/panels/comments/comment-store.js';
import { formatTime } from '../shared/panels/format.js';
import { redrawKeepingFocus } from '../shared/panels/keep-focus.js';
import { messageOf } from '../shared/panels/messages.js';
import type { Panel, PanelHost } from '../shared/panels/panel-host.js';
import { element } from '../shared/shell.js';
import { rangeText, type SpreadsheetEditor } from './editor.js';
import { t } from './messages.js';
import '../shared/panels/panels.css';

/** A spreadsheet comment's selection (docs/CONVERSATIONS.md "Selections"): a sheet by id and cells in A1. */
interface CellSelection {
  sheetId: string;
  range: string;
}

/** As listing resolves it: `sheet` is the name now, null once the sheet is deleted. */
interface ResolvedCellSelection extends CellSelection {
  detached: boolean;
  sheet: string | null;
}

function areaOf(range: string): CellRange | undefined {
  try {
    const parsed = parseA1(range);
    return { top: parsed.startRow, left: parsed.startColumn, bottom: parsed.endRow, right: parsed.endColumn };
  } catch {
    return undefined;
  }
}

/**
 * Comments on cells, a panel of the side area (beside the history): the threads on the active cell with their
 * replies, resolve and reopen, and a box to start a thread on the selected cells (the spreadsheet selection module: `{sheetId, range}`).
 * Cells with an open thread are marked. The comment routes and `svc:conversation` keep every page current;
 * the service sends the spec's Comment events (`selectionTitle`, and `replyTo` / `replyComment` on replies).
 */
export class CellComments implements Panel {
  readonly id = 'comments';
  readonly label = t('toolbar.comment');
  readonly element = element('section', 'svc-sheet-comments');
  readonly store: CommentStore<CellSelection, ResolvedCellSelection>;
  private readonly heading = element('h2', 'svc-sheet-comments-title');
  private readonly notice = element('p', 'svc-panel-notice');
  private readonly list = element('div', 'svc-thread-list');
  private readonly composer: MentionComposer;
  /** each open thread's reply box, kept across redraws so text being typed survives a change arriving meanwhile */
  private readonly replies = new Map<string, MentionComposer>();

  constructor(
    private readonly context: EditorContext,
    private readonly editor: SpreadsheetEditor,
    private readonly panels: PanelHost,
  ) {
    this.store = new CommentStore(context.api, context.session);
    this.element.setAttribute('aria-label', t('toolbar.comment'));
    this.notice.hidden = true;
    this.composer = new MentionComposer(context.api, {
      placeholder: t('comments.placeholder'),
      submitLabel: t('comments.add'),
      submit: (content) => this.change(() => this.store.create({ sheetId: editor.activeSheetId, range: rangeText(editor.grid.selectedRange) }, content)),
    });
    this.element.append(this.heading, this.notice, this.list, this.composer.element);
    editor.onSelection(() => this.render());
    editor.setCellMarker((row, column) => this.openThreadAt(row, column) !== undefined);
    this.store.onChange(() => {
      this.render();
      editor.grid.refresh();
    });
    void this.store.reload().catch((error: unknown) => this.showNotice(messageOf(error)));
  }

  shown(): void {
    this.render();
  }

  methods(): Record<string, EditorMethod> {
    return {
      showComments: () => this.panels.show(this.id),
      hideComments: () => this.panels.hide(this.id),
    };
  }

  /** Threads on the sheet shown whose cells include (row, column). */
  private threadsAt(row: number, column: number): Array<ThreadData<ResolvedCellSelection>> {
    const sheetId = this.editor.activeSheetId;
    return this.store.threads.filter((thread) => {
      if (thread.selection.detached || thread.selection.sheetId !== sheetId) return false;
      const area = areaOf(thread.selection.range);
      return area !== undefined && row >= area.top && row <= area.bottom && column >= area.left && column <= area.right;
    });
  }

  private openThreadAt(row: number, column: number): ThreadData<ResolvedCellSelection> | undefined {
    return this.threadsAt(row, column).find((thread) => thread.status === 'open');
  }

  private render(): void {
    const { active } = this.editor.grid.currentSelection;
    const commentable = this.context.boot.permissions.commentable;
    this.heading.textContent = t('comments.title', { cell: rangeText(this.editor.grid.selectedRange) });
    this.composer.element.hidden = !commentable;
    const threads = this.threadsAt(active.row, active.column);
    if (threads.length === 0) {
      this.list.replaceChildren(element('p', 'svc-thread-detached', t('comments.none')));
      return;
    }
    redrawKeepingFocus(this.list, () => threads.map((thread) => this.renderThread(thread, commentable)));
  }

  private renderThread(thread: ThreadData<ResolvedCellSelection>, commentable: boolean): HTMLElement {
    const box = element('article', 'svc-thread');
    box.dataset.status = thread.status;
    box.dataset.selectionGuid = thread.selectionGuid;
    box.append(element('p', 'svc-thread-quote', thread.selection.range));
    if (thread.status === 'closed') box.append(element('p', 'svc-thread-resolved', t('comments.resolved')));
    const comments = element('ul', 'svc-thread-comments');
    for (const comment of thread.comments) {
      const item = element('li', 'svc-comment');
      const meta = element('div', 'svc-comment-meta');
      meta.append(element('span', 'svc-comment-author', this.store.nameOf(comment.userId) ?? comment.userId), element('time', '', formatTime(comment.createdAt)));
      const body = element('div', 'svc-comment-body');
      body.append(renderInlineNodes(comment.nodes, (userId) => this.store.nameOf(userId)));
      item.append(meta, body);
      comments.append(item);
    }
    box.append(comments);
    if (!commentable) return box;
    const first = thread.comments[0];
    if (first && thread.status === 'open') {
      let reply = this.replies.get(thread.selectionGuid);
      if (!reply) {
        reply = new MentionComposer(this.context.api, {
          placeholder: t('comments.replyPlaceholder'),
          submitLabel: t('comments.reply'),
          submit: (content) => this.change(() => this.store.reply(first.guid, content)),
        });
        this.replies.set(thread.selectionGuid, reply);
      }
      box.append(reply.element);
    }
    const actions = element('div', 'svc-thread-actions');
    const closing = thread.status === 'open';
    const toggle = element('button', 'svc-button', closing ? t('comments.resolve') : t('comments.reopen'));
    toggle.type = 'button';
    toggle.addEventListener('click', () => void this.change(() => this.store.setClosed(thread.selectionGuid, closing)).catch(() => undefined));
    actions.append(toggle);
    box.append(actions);
    return box;
  }

  /** Runs a comment change; a refusal is shown in the panel and rethrown, so a composer keeps its text. */
  private async change(run: () => Promise<unknown>): Promise<void> {
    this.notice.hidden = true;
    try {
      await run();
    } catch (error) {
      this.showNotice(messageOf(error));
      throw error;
    }
  }

  private showNotice(message: string): void {
    this.notice.textContent = t('comments.failed', { reason: message });
    this.notice.hidden = false;
  }
}
