import type { EditorContext } from '../shared/editor-context.js';
import type { ThreadData } from '../shared/panels/comments/comment-store.js';
import { ConversationPanel, type CommentAnchors, type CommentTarget } from '../shared/panels/comments/conversation-panel.js';
import { t } from './messages.js';
import { sidePanel } from './side-panel.js';
import type { Column, DataTable, Row } from './model.js';
import '../shared/panels/panels.css';

/** A table comment's selection (docs/CONVERSATIONS.md "Selections"): a row, or one cell of it. */
interface TableSelection {
  tableGuid: string;
  rowGuid: string;
  columnGuid?: string;
}

interface ResolvedTableSelection extends TableSelection {
  detached: boolean;
}

type TableThread = ThreadData<ResolvedTableSelection>;

/** What is selected in the grid: a cell, or a whole row when every shown column of one row is selected. */
export interface ActiveCell {
  table: DataTable;
  row: Row;
  column: Column;
  rowNumber: number;
  wholeRow: boolean;
}

/** What the comments need of the table editor. */
export interface CommentedGrid {
  tables(): readonly DataTable[];
  activeCell(): ActiveCell | undefined;
  /** the 1-based number of a loaded row of the table shown */
  rowNumberOf(rowGuid: string): number | undefined;
  /** selects the row (its first shown column) or the cell in the grid */
  select(tableGuid: string, rowGuid: string, columnGuid: string | undefined): void;
  /** draws the cells again (their comment marks changed) */
  refresh(): void;
}

/** How a commented cell or row is marked: the cell itself, or the row on its first shown column. */
export type CommentMark = 'cell' | 'row';

class TableAnchors implements CommentAnchors<TableSelection, ResolvedTableSelection> {
  readonly chooseFirst = t('comment.pickCell');
  private readonly listeners: Array<() => void> = [];
  private cells = new Set<string>();
  private rows = new Set<string>();

  constructor(private readonly grid: CommentedGrid) {}

  moved(): void {
    for (const listener of this.listeners) listener();
  }

  markOf(rowGuid: string, columnGuid: string, firstColumn: boolean): CommentMark | undefined {
    if (this.cells.has(`${rowGuid}:${columnGuid}`)) return 'cell';
    return firstColumn && this.rows.has(rowGuid) ? 'row' : undefined;
  }

  target(): CommentTarget<TableSelection> | undefined {
    const cell = this.grid.activeCell();
    if (!cell) return undefined;
    const selection = cell.wholeRow ? { tableGuid: cell.table.guid, rowGuid: cell.row.guid } : { tableGuid: cell.table.guid, rowGuid: cell.row.guid, columnGuid: cell.column.guid };
    return { selection, label: this.describe(selection) ?? '' };
  }

  labelOf(thread: TableThread): string | undefined {
    return this.describe(thread.selection);
  }

  isHere(thread: TableThread): boolean {
    const cell = this.grid.activeCell();
    const { selection } = thread;
    if (!cell || selection.tableGuid !== cell.table.guid || selection.rowGuid !== cell.row.guid) return false;
    return selection.columnGuid === undefined || cell.wholeRow || selection.columnGuid === cell.column.guid;
  }

  reveal(thread: TableThread): void {
    this.grid.select(thread.selection.tableGuid, thread.selection.rowGuid, thread.selection.columnGuid);
  }

  mark(open: readonly TableThread[]): void {
    this.cells = new Set(open.flatMap((thread) => (thread.selection.columnGuid === undefined ? [] : [`${thread.selection.rowGuid}:${thread.selection.columnGuid}`])));
    this.rows = new Set(open.flatMap((thread) => (thread.selection.columnGuid === undefined ? [thread.selection.rowGuid] : [])));
    this.grid.refresh();
  }

  onTargetChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** "Status, row 4", "Row 4", with the table's name when it is not the one shown; undefined once the table is gone. */
  private describe(selection: TableSelection): string | undefined {
    const table = this.grid.tables().find((candidate) => candidate.guid === selection.tableGuid);
    if (!table) return undefined;
    const shown = this.grid.activeCell()?.table.guid;
    const number = table.guid === shown ? this.grid.rowNumberOf(selection.rowGuid) : undefined;
    const row = number === undefined ? t('comment.aRow') : t('comment.row', { row: number });
    const column = selection.columnGuid === undefined ? undefined : table.columns.find((candidate) => candidate.guid === selection.columnGuid);
    const place = column ? t('comment.on', { column: column.name, row }) : row;
    return table.guid === shown ? place : t('comment.inTable', { table: table.name, place });
  }
}

/**
 * Table comments: the conversation panel in the side area, anchored to the selected cell, or to the row when a
 * whole row is selected (`{tableGuid, rowGuid, columnGuid?}`); commented cells and rows are marked in the grid.
 * The service sends `selectionTitle` = the table guid and `selectionContent` = the cell's value in its events.
 */
export class TableComments {
  readonly panel: ConversationPanel<TableSelection, ResolvedTableSelection>;
  private readonly anchors: TableAnchors;
  private frame: HTMLElement | undefined;

  constructor(
    private readonly context: EditorContext,
    grid: CommentedGrid,
  ) {
    this.anchors = new TableAnchors(grid);
    this.panel = new ConversationPanel(context, { show: () => this.open(), hide: () => this.close() }, this.anchors);
    // the side panel's frame is the region named Comments; the panel inside it needs no second name
    this.panel.element.removeAttribute('aria-label');
  }

  /** Shows the panel in the side area (the toolbar's Comment). */
  open(): void {
    const { side } = this.context.shell;
    if (!this.frame || !side.contains(this.frame)) {
      const { panel, heading, close } = sidePanel(this.panel.label, () => this.close());
      panel.append(heading, this.panel.element, close);
      this.frame = panel;
      side.replaceChildren(panel);
    }
    side.hidden = false;
    this.panel.shown();
  }

  /** The grid's selection moved. */
  selectionChanged(): void {
    this.anchors.moved();
  }

  /** The mark of a cell drawn, by its row and column (`firstColumn`: the row's mark goes there). */
  markOf(rowGuid: string, columnGuid: string, firstColumn: boolean): CommentMark | undefined {
    return this.anchors.markOf(rowGuid, columnGuid, firstColumn);
  }

  private close(): void {
    const { side } = this.context.shell;
    if (!this.frame || !side.contains(this.frame)) return;
    side.hidden = true;
    side.replaceChildren();
    this.frame = undefined;
  }
}
