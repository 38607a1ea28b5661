import { ApiCallError } from '../shared/api.js';
import type { EditorContext } from '../shared/editor-context.js';
import { t } from './messages.js';
import { sidePanel } from './side-panel.js';
import type { Column, DataTable, Row } from './model.js';

interface CommentOut {
  guid: string;
  userId: string;
  content: string;
}

interface ThreadOut {
  selectionGuid: string;
  kind: string;
  selection: { tableGuid?: string; rowGuid?: string; columnGuid?: string };
  comments: CommentOut[];
}

interface ThreadPage {
  threads: ThreadOut[];
  users: Record<string, { name: string }>;
}

export interface ActiveCell {
  table: DataTable;
  row: Row;
  column: Column;
  rowNumber: number;
}

/**
 * Comments on a table cell in the side panel: the threads on the active cell and a form that opens a
 * thread on it (selection `{tableGuid, rowGuid, columnGuid}`: the service sends `selectionTitle` = the
 * table guid and `selectionContent` = the cell's value as text in its events, docs/CONVERSATIONS.md).
 */
export class CommentPanel {
  private shown = false;
  private asked = 0;

  constructor(
    private readonly context: EditorContext,
    private readonly activeCell: () => ActiveCell | undefined,
  ) {
    context.session.onMessage((message) => {
      if (message.type === 'svc:conversation' && this.shown) void this.draw();
    });
  }

  open(): void {
    this.shown = true;
    this.context.shell.side.hidden = false;
    void this.draw();
  }

  selectionChanged(): void {
    if (this.shown) void this.draw();
  }

  private async draw(): Promise<void> {
    const { side } = this.context.shell;
    const ask = ++this.asked;
    const { panel, heading, close } = sidePanel(t('comment.title'), () => {
      this.shown = false;
      side.hidden = true;
      side.replaceChildren();
    });
    const cell = this.activeCell();
    if (!cell) {
      const hint = document.createElement('p');
      hint.textContent = t('comment.pickCell');
      panel.append(heading, hint, close);
      side.replaceChildren(panel);
      return;
    }
    const where = document.createElement('p');
    where.className = 'svc-table-count';
    where.textContent = t('comment.on', { column: cell.column.name, row: cell.rowNumber });
    const list = document.createElement('ul');
    list.className = 'svc-table-comments';
    const page = await this.context.api
      .call<ThreadPage>(this.context.api.filePath('comment-list'), { query: { pageSize: 100, status: 'open' } })
      .catch(() => ({ threads: [], users: {} }) as ThreadPage);
    if (ask !== this.asked) return;
    for (const thread of page.threads) {
      const selection = thread.selection;
      if (thread.kind !== 'table' || selection.rowGuid !== cell.row.guid || selection.columnGuid !== cell.column.guid) continue;
      for (const comment of thread.comments) {
        const item = document.createElement('li');
        const author = document.createElement('strong');
        author.textContent = page.users[comment.userId]?.name ?? comment.userId;
        item.append(author, document.createTextNode(` ${comment.content}`));
        list.append(item);
      }
    }
    panel.append(heading, where, list);
    if (this.context.boot.permissions.commentable) panel.append(this.form(cell));
    panel.append(close);
    side.replaceChildren(panel);
  }

  private form(cell: ActiveCell): HTMLFormElement {
    const form = document.createElement('form');
    const text = document.createElement('textarea');
    text.className = 'svc-table-textarea';
    text.placeholder = t('comment.placeholder');
    text.setAttribute('aria-label', t('comment.placeholder'));
    const error = document.createElement('p');
    error.className = 'svc-table-form-error';
    error.setAttribute('role', 'alert');
    const add = document.createElement('button');
    add.type = 'submit';
    add.className = 'svc-table-button svc-table-primary';
    add.textContent = t('comment.add');
    form.append(text, error, add);
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      if (!text.value.trim()) return;
      add.disabled = true;
      const selection = { tableGuid: cell.table.guid, rowGuid: cell.row.guid, columnGuid: cell.column.guid };
      this.context.api
        .call(this.context.api.filePath('comments'), { method: 'POST', body: { selection, content: text.value } })
        .then(() => this.draw())
        .catch((failure: unknown) => {
          error.textContent = failure instanceof ApiCallError || failure instanceof Error ? failure.message : String(failure);
          add.disabled = false;
        });
    });
    return form;
  }
}
