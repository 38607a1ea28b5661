import { ApiCallError } from '../shared/api.js';
import type { SaveStatus } from '../shared/collaboration.js';
import type { EditorContext } from '../shared/editor-context.js';
import { VirtualGrid, type CellEditorHost, type CellRange } from '../shared/grid/grid.js';
import { openCellEditor } from './cell-editors.js';
import { appendChoiceChips } from './cards.js';
import { choiceOptions, shownText } from './cell-types.js';
import { expected, explainRefusal } from './refusals.js';
import { columnForm, type ColumnDraft } from './column-form.js';
import { TableComments, type ActiveCell } from './comments.js';
import { columnsPanel } from './columns-panel.js';
import { recordView } from './record-view.js';
import { GridLayout } from './grid-layout.js';
import { t } from './messages.js';
import { RowStore } from './row-store.js';
import type { Column, DataTable, FilterOperator, Row, TableView, ValueMap, ViewKind, ViewQuery } from './model.js';
import { drawViewBar as drawViewTabs, kindLabel } from './view-bar.js';
import { viewSettingsPanel } from './view-settings.js';
import { drawKanban } from './kanban.js';
import { drawGallery } from './gallery.js';
import { drawForm } from './form-view.js';
import { drawGroupedGrid } from './grouped-grid.js';
import { TableClient } from './table-client.js';
import { UndoHistory, type Ref } from './undo.js';
import './table.css';
import { tableButton } from './controls.js';

const ROW_HEIGHT = 32;
/**
 * Rows a kanban, gallery or grouped grid loads at most (in pages of the row window's largest count): they draw
 * every row at once, unlike the virtualised grid; past it a notice says that only the first ones are shown.
 */
const MAX_BOARD_ROWS = 2000;
const BOARD_PAGE_ROWS = 500;
/** Rows changed by one Delete key or one "delete rows" at most (each is one call of the table API). */
const MAX_ROWS_PER_ACTION = 500;

/** A change of the service about this base (src/domain/tables/table-notices.ts). */
interface TableNotice {
  type: 'svc:table';
  tableGuid: string;
  subject: 'table' | 'columns' | 'views' | 'rows';
  rowGuids?: string[];
}

function isTableNotice(message: { type: string } & Record<string, unknown>): message is TableNotice & Record<string, unknown> {
  return message.type === 'svc:table' && typeof message.tableGuid === 'string' && typeof message.subject === 'string';
}

/** A column as the history re-creates it. */
type ColumnSpec = ColumnDraft;

/** Types the API refuses to write: left out of a row that undo re-creates (AutoNumber takes a new number). */
const READ_ONLY_TYPES: ReadonlySet<string> = new Set(['AutoNumber', 'Attachment']);


function errorText(error: unknown): string {
  if (error instanceof ApiCallError) return error.message;
  return error instanceof Error ? error.message : String(error);
}

/** Why the service refused a cell write, in a person's words (the API's codes stay as they are). */
function serviceRefusal(column: Column, value: unknown, error: unknown): string {
  if (!(error instanceof ApiCallError)) return t('refuse.failed');
  if (error.code === 70005) return t('refuse.rowGone');
  if (error.status === 403) return t('refuse.denied');
  if (error.code === 70000) return expected(column, value);
  return t('refuse.failed');
}

/** A cell refused by the type check or the service: the rejected input and why, shown in the cell. */
interface CellError {
  message: string;
}

/**
 * The table editor (file type `table`): the base's tables over the table API, not Yjs. One virtualised grid
 * per table (web/shared/grid), rows fetched by position near the viewport (row-window), an editor per
 * column type, column settings in the side panel, sort and filter of the view, comments on cells. Changes
 * of other users and of the table API arrive as `svc:table` notices on the collaboration socket; the page
 * then fetches again what it shows.
 */
class TableEditor {
  private readonly client: TableClient;
  private tables: DataTable[] = [];
  private table: DataTable | undefined;
  private store: RowStore | undefined;
  private grid: VirtualGrid | undefined;
  /** this user's arrangement of the shown table's columns, and the columns the grid shows in that order */
  private layout: GridLayout | undefined;
  private shown: Column[] = [];
  private readonly gridHost = document.createElement('div');
  /** the saved views of the shown table, the one shown, and where a kanban, gallery, form or grouped grid draws */
  private views: TableView[] = [];
  private view: TableView | undefined;
  private readonly viewTabs = document.createElement('div');
  private readonly boardHost = document.createElement('div');
  private boardRows: Row[] = [];
  /** group keys this user folded in the grouped grid, per view */
  private readonly folded = new Map<string, Set<string>>();
  private readonly viewBar = document.createElement('div');
  private readonly tablePicker = document.createElement('select');
  private readonly rowCount = document.createElement('span');
  private readonly errors = new Map<string, CellError>();
  private readonly linkLabels = new Map<string, string>();
  private readonly linkQueue = new Map<string, Set<string>>();
  private linkTimer: number | undefined;
  private pendingWrites = 0;
  private failedWrites = false;
  private editable: boolean;
  private readonly comments: TableComments;
  /** The user's own changes of the table shown, for undo and redo (Ctrl+Z, Ctrl+Shift+Z, the buttons). */
  private history = new UndoHistory(() => this.drawUndoButtons());
  private readonly undoButton = tableButton(t('toolbar.undo'), () => this.attempt(() => this.history.undo()));
  private readonly redoButton = tableButton(t('toolbar.redo'), () => this.attempt(() => this.history.redo()));

  constructor(private readonly context: EditorContext) {
    this.client = new TableClient(context.api, context.boot.fileId);
    this.editable = context.boot.permissions.editable;
    this.comments = new TableComments(context, {
      tables: () => this.tables,
      activeCell: () => this.activeCell(),
      rowNumberOf: (rowGuid) => {
        const index = this.store?.indexOf(rowGuid) ?? -1;
        return index < 0 ? undefined : index + 1;
      },
      select: (tableGuid, rowGuid, columnGuid) => void this.selectCommented(tableGuid, rowGuid, columnGuid).catch((error: unknown) => context.shell.showNotice(errorText(error))),
      refresh: () => this.grid?.refresh(),
    });
  }

  async mount(): Promise<void> {
    const { shell } = this.context;
    shell.main.classList.add('svc-table-main');
    this.viewBar.className = 'svc-table-viewbar';
    this.gridHost.className = 'svc-table-grid';
    this.viewTabs.className = 'svc-table-viewbar svc-table-views';
    this.boardHost.className = 'svc-table-board';
    this.boardHost.hidden = true;
    shell.main.append(this.viewTabs, this.viewBar, this.gridHost, this.boardHost);
    this.tables = await this.client.listTables();
    if (this.tables.length === 0 && this.editable) this.tables = [await this.client.createTable(t('table.defaultName'), [{ name: t('table.defaultColumn'), type: 'SingleLineText' }])];
    this.buildToolbar();
    document.addEventListener('keydown', (event) => this.undoKeys(event));
    this.context.session.onMessage((message) => {
      if (isTableNotice(message)) this.notice(message);
    });
    // edit permission given or taken away during the session (svc:access) applies to the grid at once
    this.context.session.onAccess((permissions) => {
      if (permissions.editable === undefined) return;
      this.editable = permissions.editable;
      this.grid?.setReadOnly(!this.editable);
      this.drawUndoButtons();
    });
    const first = this.tables[0];
    if (!first) {
      shell.showNotice(t('table.none'));
      return;
    }
    await this.showTable(first);
    this.context.bridge.registerMethods({
      ...this.comments.panel.methods(),
      getTitle: () => shell.title,
      getActiveTableGuid: () => this.table?.guid,
      getSelectedRowGuids: () => this.selectedRows().map((row) => row.guid),
    });
  }

  // ---- tables and view --------------------------------------------------------------------------

  private async showTable(table: DataTable, viewGuid?: string): Promise<void> {
    this.table = table;
    this.tablePicker.value = table.guid;
    this.errors.clear();
    this.history = new UndoHistory(() => this.drawUndoButtons());
    this.drawUndoButtons();
    this.layout = new GridLayout(`svc-table-layout:${this.context.boot.fileId}:${table.guid}`);
    this.views = await this.client.listViews(table.guid);
    await this.showView(this.views.find((view) => view.viewGuid === viewGuid) ?? this.views[0]);
  }

  /** Shows a saved view of the shown table: the virtualised grid, or a kanban, gallery, form or grouped grid. */
  private async showView(view: TableView | undefined): Promise<void> {
    const table = this.table;
    if (!table || !view) return;
    this.view = view;
    this.arrangeColumns();
    this.grid?.destroy();
    this.grid = undefined;
    this.store = undefined;
    this.drawTabs();
    const plainGrid = view.kind === 'grid' && view.settings.groupBy === null;
    this.gridHost.hidden = !plainGrid;
    this.viewBar.hidden = !plainGrid;
    this.boardHost.hidden = plainGrid;
    if (!plainGrid) {
      await this.loadBoard();
      return;
    }
    const store = new RowStore(
      this.client,
      table.guid,
      {},
      view.viewGuid,
      (totalChanged) => this.redraw(totalChanged),
      (error) => this.context.shell.showNotice(t('error.load', { message: errorText(error) })),
    );
    this.store = store;
    await store.open();
    if (this.store !== store) return;
    this.grid = new VirtualGrid(this.gridHost, {
      label: t('grid.label', { name: table.name }),
      rowCount: () => store.total,
      columnCount: () => this.shown.length,
      columnWidth: (column) => (this.shown[column] && this.layout ? this.layout.width(this.shown[column]) : 0),
      columnHeader: (column) => this.shown[column]?.name ?? '',
      onColumnResize: (column, width) => {
        const resized = this.shown[column];
        if (!resized || !this.layout) return;
        this.layout.setWidth(resized, width);
        this.grid?.invalidateLayout();
      },
      rowHeader: (row) => String(row + 1),
      rowHeight: ROW_HEIGHT,
      renderCell: (cell, row, column) => this.renderCell(cell, row, column),
      editCell: (host) => this.editCell(host),
      onClear: (range) => this.attempt(() => this.clearRange(range)),
      onCopy: (range) => this.copyRange(range),
      onSelectionChange: () => this.comments.selectionChanged(),
    });
    this.grid.setReadOnly(!this.editable);
    this.drawViewBar();
    this.rowCount.textContent = t('view.rows', { count: store.total });
  }

  private redraw(totalChanged: boolean): void {
    if (!this.grid || !this.store) return;
    this.rowCount.textContent = t('view.rows', { count: this.store.total });
    if (totalChanged) this.grid.invalidateLayout();
    else this.grid.refresh();
  }

  /** The columns the grid shows: the view's order and hidden columns, then this user's arrangement. */
  private arrangeColumns(): void {
    const table = this.table;
    if (!table || !this.layout) {
      this.shown = [];
      return;
    }
    const settings = this.view?.kind === 'grid' ? this.view.settings : undefined;
    const first = settings?.columnOrder ?? [];
    const ordered = [...table.columns].sort((a, b) => rank(first, a) - rank(first, b));
    this.shown = this.layout.visible(ordered).filter((column) => column.isPrimary || !settings?.hiddenColumns.includes(column.guid));
  }

  // ---- saved views --------------------------------------------------------------------------------

  private drawTabs(): void {
    const view = this.view;
    if (!view) return;
    drawViewTabs(this.viewTabs, {
      views: this.views,
      current: view,
      editable: this.editable,
      show: (next) => void this.showView(next).catch((error: unknown) => this.context.shell.showNotice(t('error.load', { message: errorText(error) }))),
      add: (kind) => this.attempt(() => this.addView(kind)),
      rename: (renamed, name) => this.attempt(() => this.saveView(renamed, { name })),
      remove: (removed) => this.attempt(() => this.removeView(removed)),
      openSettings: () => this.openViewSettings(),
    });
    this.viewTabs.prepend(this.tablePicker);
  }

  private async addView(kind: ViewKind): Promise<void> {
    const table = this.table;
    if (!table) return;
    const names = new Set(this.views.map((view) => view.name));
    let name = kindLabel(kind);
    for (let number = 2; names.has(name); number++) name = `${kindLabel(kind)} ${number}`;
    const created = await this.client.createView(table.guid, { name, kind });
    this.views = await this.client.listViews(table.guid);
    await this.showView(this.views.find((view) => view.viewGuid === created.viewGuid));
  }

  private async saveView(view: TableView, change: { name?: string; settings?: TableView['settings'] }): Promise<void> {
    const table = this.table;
    if (!table) return;
    try {
      await this.client.updateView(table.guid, view.viewGuid, change);
    } finally {
      // a refused rename (a name taken) draws the tab with its old name again
      this.views = await this.client.listViews(table.guid);
    }
    await this.showView(this.views.find((candidate) => candidate.viewGuid === view.viewGuid) ?? this.views[0]);
  }

  private async removeView(view: TableView): Promise<void> {
    const table = this.table;
    if (!table) return;
    await this.client.deleteView(table.guid, view.viewGuid);
    this.views = await this.client.listViews(table.guid);
    await this.showView(this.views[0]);
  }

  private openViewSettings(): void {
    const table = this.table;
    const view = this.view;
    if (!table || !view) return;
    const { side } = this.context.shell;
    side.hidden = false;
    const close = () => {
      side.hidden = true;
      side.replaceChildren();
    };
    viewSettingsPanel(side, { view, columns: table.columns, save: (settings) => this.track(() => this.saveView(view, { settings })), close });
  }

  /** Every row of the view (up to MAX_BOARD_ROWS) in its order, then draws it. */
  private async loadBoard(): Promise<void> {
    const table = this.table;
    const view = this.view;
    if (!table || !view) return;
    const rows: Row[] = [];
    let total = 0;
    if (view.kind !== 'form') {
      do {
        const page = await this.client.rowWindow(table.guid, rows.length, BOARD_PAGE_ROWS, {}, view.viewGuid);
        rows.push(...page.rows);
        total = page.total;
        if (page.rows.length === 0) break;
      } while (rows.length < Math.min(total, MAX_BOARD_ROWS));
    }
    if (this.view !== view) return;
    this.boardRows = rows;
    if (total > rows.length) this.context.shell.showNotice(t('views.firstRows', { count: rows.length, total }));
    this.drawBoard();
  }

  private drawBoard(): void {
    const table = this.table;
    const view = this.view;
    if (!table || !view) return;
    const cards = { columns: table.columns, linkLabel: (tableGuid: string, rowGuid: string) => this.linkLabel(tableGuid, rowGuid) };
    const open = (row: Row) => this.openBoardRecord(row);
    if (view.kind === 'kanban') {
      drawKanban(this.boardHost, {
        ...cards,
        settings: view.settings,
        rows: this.boardRows,
        editable: this.editable,
        open,
        move: (row, column, value) => {
          void this.writeCell(row, column, value).then(() => this.drawBoard());
          this.drawBoard();
        },
        add: (column, value) => this.attempt(() => this.addCard(value === null ? {} : { [column.name]: value })),
      });
    } else if (view.kind === 'gallery') {
      drawGallery(this.boardHost, { ...cards, settings: view.settings, rows: this.boardRows, editable: this.editable, open, add: () => this.attempt(() => this.addCard({})) });
    } else if (view.kind === 'form') {
      drawForm(this.boardHost, { settings: view.settings, tableName: table.name, columns: table.columns, editable: this.editable, submit: (valueMap) => this.track(() => this.createRow(valueMap).then(() => undefined)) });
    } else {
      const group = table.columns.find((column) => column.guid === view.settings.groupBy);
      if (!group) return;
      let folded = this.folded.get(view.viewGuid);
      if (!folded) this.folded.set(view.viewGuid, (folded = new Set()));
      drawGroupedGrid(this.boardHost, { ...cards, shown: this.shown, group, rows: this.boardRows, collapsed: folded, open });
    }
  }

  /** A row of a form view or a card view: created as "Add row" creates one, so that undo takes it back. */
  private async createRow(valueMap: ValueMap): Promise<Row | undefined> {
    const table = this.table;
    if (!table) return undefined;
    const [row] = await this.client.createRows(table.guid, [valueMap]);
    if (!row) return undefined;
    const ref = this.history.ref(row.guid);
    this.history.record({ undo: () => this.removeRows([ref]), redo: () => this.restoreRows([{ ref, valueMap }]) });
    return row;
  }

  /** "Add card" of a kanban column or a gallery: the new row shown among the cards and opened, to be filled in. */
  private async addCard(valueMap: ValueMap): Promise<void> {
    const row = await this.createRow(valueMap);
    if (!row) return;
    await this.loadBoard();
    const shown = this.boardRows.find((candidate) => candidate.guid === row.guid);
    if (shown) this.openBoardRecord(shown);
  }

  /** A card's or grouped row's record in the side panel; previous and next follow the view's order. */
  private openBoardRecord(row: Row): void {
    const table = this.table;
    const layout = this.layout;
    if (!table || !layout) return;
    const index = this.boardRows.findIndex((candidate) => candidate.guid === row.guid);
    const { side } = this.context.shell;
    side.hidden = false;
    recordView(side, {
      row,
      rowNumber: index + 1,
      rowCount: this.boardRows.length,
      columns: layout.ordered(table.columns),
      editable: this.editable,
      linkLabel: (tableGuid, rowGuid) => this.linkLabel(tableGuid, rowGuid),
      write: (column, value) => void this.writeCell(row, column, value).then(() => this.drawBoard()),
      step: (by) => {
        const next = this.boardRows[index + by];
        if (next) this.openBoardRecord(next);
      },
      close: () => {
        side.hidden = true;
        side.replaceChildren();
      },
    });
  }

  private openColumnsPanel(): void {
    const table = this.table;
    const layout = this.layout;
    if (!table || !layout) return;
    const { side } = this.context.shell;
    side.hidden = false;
    columnsPanel(side, {
      columns: table.columns,
      layout,
      changed: () => {
        this.arrangeColumns();
        this.grid?.invalidateLayout();
      },
      close: () => {
        side.hidden = true;
        side.replaceChildren();
        this.grid?.focus();
      },
    });
  }

  /** The active cell's row as a record in the side panel; previous and next move the grid's selection too. */
  private openRecord(): void {
    const active = this.activeCell();
    const layout = this.layout;
    if (!active || !layout || !this.store) return;
    const { side } = this.context.shell;
    side.hidden = false;
    recordView(side, {
      row: active.row,
      rowNumber: active.rowNumber,
      rowCount: this.store.total,
      columns: layout.ordered(active.table.columns),
      editable: this.editable,
      linkLabel: (tableGuid, rowGuid) => this.linkLabel(tableGuid, rowGuid),
      write: (column, value) => void this.writeCell(active.row, column, value),
      step: (by) => {
        const column = this.grid?.currentSelection.active.column ?? 0;
        this.grid?.select({ row: active.rowNumber - 1 + by, column });
        this.openRecord();
      },
      close: () => {
        side.hidden = true;
        side.replaceChildren();
        this.grid?.focus();
      },
    });
  }

  private async reloadColumns(): Promise<void> {
    const table = this.table;
    if (!table) return;
    const columns = await this.client.listColumns(table.guid);
    table.columns = columns;
    this.arrangeColumns();
    const query = this.store?.query ?? {};
    // a sort or filter on a column that is gone is dropped
    const known = (guid: string | undefined) => guid === undefined || columns.some((column) => column.guid === guid);
    if (!known(query.sort?.columnGuid) || !known(query.filter?.columnGuid)) await this.store?.setView({});
    this.drawViewBar();
    this.grid?.invalidateLayout();
    // a board's settings may have lost the column (the service drops it from them): read them again
    if (!this.store) {
      this.views = await this.client.listViews(table.guid);
      await this.showView(this.views.find((view) => view.viewGuid === this.view?.viewGuid) ?? this.views[0]);
    }
  }

  private buildToolbar(): void {
    const { toolbar } = this.context.shell;
    this.undoButton.setAttribute('aria-keyshortcuts', 'Control+Z');
    this.redoButton.setAttribute('aria-keyshortcuts', 'Control+Shift+Z Control+Y');
    toolbar.append(
      this.undoButton,
      this.redoButton,
      tableButton(t('toolbar.addRow'), () => this.attempt(() => this.addRow())),
      tableButton(t('toolbar.deleteRows'), () => this.attempt(() => this.deleteRows())),
      tableButton(t('toolbar.addColumn'), () => this.openColumnForm(undefined)),
      tableButton(t('toolbar.editColumn'), () => this.openColumnForm(this.activeColumn())),
    );
  }

  /** Table picker, sort and filter (for readers too: the shell hides its toolbar in read-only pages). */
  private drawViewBar(): void {
    const table = this.table;
    const store = this.store;
    if (!table || !store) return;
    const query = store.query;
    this.tablePicker.className = 'svc-table-select';
    this.tablePicker.setAttribute('aria-label', t('view.table'));
    this.tablePicker.replaceChildren(...this.tables.map((candidate) => new Option(candidate.name, candidate.guid)));
    this.tablePicker.value = table.guid;
    this.tablePicker.onchange = () => {
      const next = this.tables.find((candidate) => candidate.guid === this.tablePicker.value);
      if (next) void this.showTable(next);
    };
    const columnSelect = (label: string, none: string, current: string | undefined) => {
      const select = document.createElement('select');
      select.className = 'svc-table-select';
      select.setAttribute('aria-label', label);
      select.append(new Option(none, ''), ...table.columns.map((column) => new Option(column.name, column.guid)));
      select.value = current ?? '';
      return select;
    };
    const sortColumn = columnSelect(t('view.sort'), t('view.sortNone'), query.sort?.columnGuid);
    const sortOrder = document.createElement('select');
    sortOrder.className = 'svc-table-select';
    sortOrder.setAttribute('aria-label', `${t('view.sort')}: ${t('view.descending')}`);
    sortOrder.append(new Option(t('view.ascending'), 'asc'), new Option(t('view.descending'), 'desc'));
    sortOrder.value = query.sort?.descending ? 'desc' : 'asc';
    const filterColumn = columnSelect(t('view.filter'), t('view.filterNone'), query.filter?.columnGuid);
    const filterOperator = document.createElement('select');
    filterOperator.className = 'svc-table-select';
    filterOperator.setAttribute('aria-label', `${t('view.filter')}: ${t('view.is')}`);
    const operators: [FilterOperator, string][] = [
      ['contains', t('view.contains')],
      ['is', t('view.is')],
      ['empty', t('view.empty')],
      ['notEmpty', t('view.notEmpty')],
    ];
    filterOperator.append(...operators.map(([value, label]) => new Option(label, value)));
    filterOperator.value = query.filter?.operator ?? 'contains';
    const filterValue = document.createElement('input');
    filterValue.className = 'svc-table-search';
    filterValue.placeholder = t('view.filterValue');
    filterValue.setAttribute('aria-label', t('view.filterValue'));
    filterValue.value = query.filter?.value ?? '';
    const apply = () => {
      const view: ViewQuery = {
        sort: sortColumn.value ? { columnGuid: sortColumn.value, descending: sortOrder.value === 'desc' } : undefined,
        filter: filterColumn.value ? { columnGuid: filterColumn.value, operator: filterOperator.value as FilterOperator, value: filterValue.value } : undefined,
      };
      void store.setView(view).then(() => this.grid?.invalidateLayout(), (error: unknown) => this.context.shell.showNotice(t('error.load', { message: errorText(error) })));
    };
    for (const control of [sortColumn, sortOrder, filterColumn, filterOperator]) control.addEventListener('change', apply);
    let typing: number | undefined;
    filterValue.addEventListener('input', () => {
      window.clearTimeout(typing);
      typing = window.setTimeout(apply, 250);
    });
    this.rowCount.className = 'svc-table-count';
    this.viewBar.replaceChildren(
      sortColumn,
      sortOrder,
      filterColumn,
      filterOperator,
      filterValue,
      this.rowCount,
      tableButton(t('toolbar.columns'), () => this.openColumnsPanel()),
      tableButton(t('toolbar.record'), () => this.openRecord()),
      tableButton(t('toolbar.comment'), () => this.comments.open()),
    );
  }

  // ---- undo and redo ----------------------------------------------------------------------------

  private drawUndoButtons(): void {
    this.undoButton.disabled = !this.editable || !this.history.canUndo;
    this.redoButton.disabled = !this.editable || !this.history.canRedo;
  }

  /** Ctrl+Z undoes, Ctrl+Shift+Z or Ctrl+Y redoes; inside a text field the browser's own undo applies. */
  private undoKeys(event: KeyboardEvent): void {
    if (!(event.ctrlKey || event.metaKey) || event.altKey || !this.editable) return;
    const target = event.target as HTMLElement | null;
    if (target?.closest('input, textarea, select, [contenteditable="true"]')) return;
    const key = event.key.toLowerCase();
    const redo = (key === 'z' && event.shiftKey) || (key === 'y' && !event.shiftKey);
    if (!redo && !(key === 'z' && !event.shiftKey)) return;
    event.preventDefault();
    this.attempt(() => (redo ? this.history.redo() : this.history.undo()));
  }

  /** Writes cells of one row, naming columns by reference (a column may be renamed or re-created meanwhile). */
  private async writeCells(row: Ref, cells: ReadonlyArray<readonly [Ref, unknown]>): Promise<void> {
    const table = this.table;
    if (!table) return;
    const valueMap: Record<string, unknown> = {};
    for (const [ref, value] of cells) {
      const column = table.columns.find((candidate) => candidate.guid === ref.guid);
      if (column) valueMap[column.name] = value ?? null;
    }
    for (const [ref] of cells) this.errors.delete(`${row.guid}:${ref.guid}`);
    // written first, then shown: `this.store?.replace(await …)` would skip the write when no grid is shown
    const written = await this.client.updateRow(table.guid, row.guid, valueMap);
    this.store?.replace(written);
    if (!this.store) await this.loadBoard();
  }

  /** Creates rows again with the values they had (undo of a delete, redo of an add) and follows their new guids. */
  private async restoreRows(rows: ReadonlyArray<{ ref: Ref; valueMap: Record<string, unknown> }>): Promise<void> {
    const table = this.table;
    const store = this.store;
    if (!table) return;
    const created = await this.client.createRows(table.guid, rows.map((row) => row.valueMap));
    created.forEach((row, index) => this.history.moved(rows[index]!.ref, row.guid));
    if (!store) return this.loadBoard();
    await store.setView(store.query);
    this.grid?.invalidateLayout();
  }

  private async removeRows(rows: readonly Ref[]): Promise<void> {
    const table = this.table;
    if (!table) return;
    for (const row of rows) await this.client.deleteRow(table.guid, row.guid);
    if (this.store) this.store.refresh();
    else await this.loadBoard();
  }

  /** A row's values as the API takes them back: read-only cells left out. */
  private writableValues(row: Row): Record<string, unknown> {
    const columns = this.table?.columns ?? [];
    return Object.fromEntries(columns.filter((column) => !READ_ONLY_TYPES.has(column.type) && row.valueMap[column.name] !== undefined).map((column) => [column.name, row.valueMap[column.name]]));
  }

  private async makeColumn(ref: Ref, spec: ColumnSpec, after: Ref | undefined): Promise<void> {
    const table = this.table;
    if (!table) return;
    const created = await this.client.createColumn(table.guid, table.defaultViewGuid, { ...spec, targetGuid: after?.guid });
    this.history.moved(ref, created.guid);
    await this.reloadColumns();
  }

  private async changeColumn(ref: Ref, spec: Partial<ColumnSpec>): Promise<void> {
    const table = this.table;
    if (!table) return;
    await this.client.updateColumn(table.guid, ref.guid, spec);
    await this.reloadColumns();
  }

  private async dropColumn(ref: Ref): Promise<void> {
    const table = this.table;
    if (!table) return;
    await this.client.deleteColumn(table.guid, ref.guid);
    await this.reloadColumns();
  }

  /** Records a change of a column's settings (the form, or an option added from a cell). */
  private recordColumnChange(column: Column, after: Partial<ColumnSpec>): void {
    const ref = this.history.ref(column.guid);
    const before: ColumnSpec = { name: column.name, type: column.type, props: column.props };
    this.history.record({ undo: () => this.changeColumn(ref, before), redo: () => this.changeColumn(ref, after) });
  }

  // ---- cells ------------------------------------------------------------------------------------

  /** The column shown at grid position `index`. */
  private column(index: number): Column | undefined {
    return this.shown[index];
  }

  private activeColumn(): Column | undefined {
    return this.grid ? this.column(this.grid.currentSelection.active.column) : undefined;
  }

  private activeCell(): ActiveCell | undefined {
    if (!this.grid || !this.table || !this.store) return undefined;
    const { row: index, column: columnIndex } = this.grid.currentSelection.active;
    const row = this.store.row(index);
    const column = this.column(columnIndex);
    const range = this.grid.selectedRange;
    const wholeRow = range.top === range.bottom && range.left === 0 && range.right === this.shown.length - 1 && this.shown.length > 1;
    return row && column ? { table: this.table, row, column, rowNumber: index + 1, wholeRow } : undefined;
  }

  /** Selects a commented row (all its shown columns) or cell, switching table when it is another one. */
  private async selectCommented(tableGuid: string, rowGuid: string, columnGuid: string | undefined): Promise<void> {
    const table = this.tables.find((candidate) => candidate.guid === tableGuid);
    if (!table) return;
    if (this.table?.guid !== tableGuid) await this.showTable(table);
    const rowIndex = this.store?.indexOf(rowGuid) ?? -1;
    if (!this.grid || rowIndex < 0) return;
    if (columnGuid === undefined) {
      this.grid.select({ row: rowIndex, column: 0 }, { row: rowIndex, column: Math.max(0, this.shown.length - 1) });
      return;
    }
    const columnIndex = this.shown.findIndex((column) => column.guid === columnGuid);
    if (columnIndex >= 0) this.grid.select({ row: rowIndex, column: columnIndex });
  }

  private selectedRows(): Row[] {
    if (!this.grid || !this.store) return [];
    const { top, bottom } = this.grid.selectedRange;
    const rows: Row[] = [];
    for (let index = top; index <= Math.min(bottom, top + MAX_ROWS_PER_ACTION - 1); index++) {
      const row = this.store.row(index);
      if (row) rows.push(row);
    }
    return rows;
  }

  private renderCell(cell: HTMLElement, rowIndex: number, columnIndex: number): void {
    const row = this.store?.row(rowIndex);
    const column = this.column(columnIndex);
    cell.replaceChildren();
    if (!row || !column) {
      cell.classList.add('svc-table-loading');
      return;
    }
    const mark = this.comments.markOf(row.guid, column.guid, columnIndex === 0);
    if (mark) cell.classList.add(mark === 'cell' ? 'svc-table-commented' : 'svc-table-row-commented');
    const value = row.valueMap[column.name];
    const error = this.errors.get(`${row.guid}:${column.guid}`);
    const text = shownText(value, column, (tableGuid, rowGuid) => this.linkLabel(tableGuid, rowGuid));
    cell.dataset.type = column.type;
    if (error) {
      cell.classList.add('svc-table-cell-error');
      cell.title = t('cell.refused', { message: error.message });
      cell.textContent = `⚠ ${t('cell.refused', { message: error.message })}`;
      return;
    }
    if (appendChoiceChips(cell, column, value)) return;
    if (column.type === 'Rate' && typeof value === 'number') {
      const count = typeof column.props.count === 'number' ? column.props.count : 5;
      cell.textContent = text;
      cell.setAttribute('aria-label', `${value}/${count}`);
      return;
    }
    cell.textContent = text;
    if (text.length > 20) cell.title = text;
  }

  private editCell(host: CellEditorHost): void {
    const row = this.store?.row(host.row);
    const column = this.column(host.column);
    if (!row || !column) {
      host.close();
      return;
    }
    const linkedTable = String(column.props.tableGuid ?? '');
    openCellEditor(host, {
      column,
      row,
      value: row.valueMap[column.name],
      commit: (value) => void this.writeCell(row, column, value),
      refuse: (message) => this.showError(row, column, message),
      linkCandidates: (text) => this.linkCandidates(linkedTable, text),
      linkLabel: (rowGuid) => this.linkLabel(linkedTable, rowGuid),
      addOption: this.editable && (column.type === 'SingleChoice' || column.type === 'MultipleChoice') ? (name) => this.addOption(column, name) : undefined,
    });
  }

  /** Adds an option to a choice column from its cell (the same change as the column form's). */
  private async addOption(column: Column, name: string): Promise<void> {
    const table = this.table;
    if (!table) return;
    const props = { ...column.props, options: [...choiceOptions(column), { name }] };
    await this.track(async () => {
      const changed = await this.client.updateColumn(table.guid, column.guid, { props });
      this.recordColumnChange(column, { props });
      // The cell's write that follows is checked against the new options.
      column.props = changed.props;
      await this.reloadColumns();
    });
  }

  private showError(row: Row, column: Column, message: string): void {
    this.errors.set(`${row.guid}:${column.guid}`, { message });
    this.grid?.refresh();
  }

  /**
   * Writes one cell: refused at once when the type check says no (nothing is sent), otherwise shown at
   * once and sent; the service's answer replaces the row, its refusal restores the old value and shows why.
   */
  private async writeCell(row: Row, column: Column, value: unknown): Promise<void> {
    const table = this.table;
    if (!table) return;
    const why = explainRefusal(column, value);
    if (why !== undefined) {
      this.showError(row, column, why);
      return;
    }
    this.errors.delete(`${row.guid}:${column.guid}`);
    const before = row.valueMap[column.name];
    if (value === null || value === false) delete row.valueMap[column.name];
    else row.valueMap[column.name] = value;
    this.grid?.refresh();
    await this.track(async () => {
      try {
        const written = await this.client.updateRow(table.guid, row.guid, { [column.name]: value });
        this.store?.replace(written);
        const rowRef = this.history.ref(row.guid);
        const columnRef = this.history.ref(column.guid);
        this.history.record({ undo: () => this.writeCells(rowRef, [[columnRef, before]]), redo: () => this.writeCells(rowRef, [[columnRef, value]]) });
      } catch (error) {
        if (before === undefined) delete row.valueMap[column.name];
        else row.valueMap[column.name] = before;
        this.showError(row, column, serviceRefusal(column, value, error));
        throw error;
      }
    }).catch(() => undefined); // shown in the cell
  }

  private async clearRange(range: CellRange): Promise<void> {
    const table = this.table;
    if (!table || !this.store) return;
    const columns = this.shown.slice(range.left, range.right + 1).filter((column) => !READ_ONLY_TYPES.has(column.type));
    if (columns.length === 0) return;
    const valueMap = Object.fromEntries(columns.map((column) => [column.name, null]));
    const rows: Row[] = [];
    for (let index = range.top; index <= Math.min(range.bottom, range.top + MAX_ROWS_PER_ACTION - 1); index++) {
      const row = this.store.row(index);
      if (row) rows.push(row);
    }
    const before = rows.map((row) => ({ ref: this.history.ref(row.guid), cells: columns.map((column) => [this.history.ref(column.guid), row.valueMap[column.name]] as const) }));
    for (const row of rows) {
      for (const column of columns) this.errors.delete(`${row.guid}:${column.guid}`);
      this.store.replace(await this.client.updateRow(table.guid, row.guid, valueMap));
    }
    this.history.record({
      undo: async () => {
        for (const row of before) await this.writeCells(row.ref, row.cells);
      },
      redo: async () => {
        for (const row of before) await this.writeCells(row.ref, row.cells.map(([ref]) => [ref, null] as const));
      },
    });
  }

  private copyRange(range: CellRange): string {
    const lines: string[] = [];
    for (let index = range.top; index <= Math.min(range.bottom, range.top + MAX_ROWS_PER_ACTION - 1); index++) {
      const row = this.store?.row(index);
      const cells: string[] = [];
      for (let columnIndex = range.left; columnIndex <= range.right; columnIndex++) {
        const column = this.column(columnIndex);
        cells.push(row && column ? shownText(row.valueMap[column.name], column, (tableGuid, rowGuid) => this.linkLabel(tableGuid, rowGuid)) : '');
      }
      lines.push(cells.join('\t'));
    }
    return lines.join('\n');
  }

  // ---- rows and columns -------------------------------------------------------------------------

  private async addRow(): Promise<void> {
    // a board's new row is a card, shown and opened there (the grid is not on the page)
    if (this.view?.kind === 'kanban' || this.view?.kind === 'gallery') return this.addCard({});
    const table = this.table;
    const store = this.store;
    if (!table || !store) return;
    const [row] = await this.client.createRows(table.guid, [{}]);
    if (!row) return;
    const ref = this.history.ref(row.guid);
    this.history.record({ undo: () => this.removeRows([ref]), redo: () => this.restoreRows([{ ref, valueMap: {} }]) });
    // the new row comes last in creation order; under a sort or filter it lands where the view puts it
    await store.setView(store.query);
    this.grid?.invalidateLayout();
    const at = store.query.sort || store.query.filter ? store.indexOf(row.guid) : store.total - 1;
    if (at >= 0) this.grid?.select({ row: at, column: 0 });
  }

  private async deleteRows(): Promise<void> {
    const table = this.table;
    const rows = this.selectedRows();
    if (!table || rows.length === 0) return;
    const deleted = rows.map((row) => ({ ref: this.history.ref(row.guid), valueMap: this.writableValues(row) }));
    await this.removeRows(deleted.map((row) => row.ref));
    this.history.record({ undo: () => this.restoreRows(deleted), redo: () => this.removeRows(deleted.map((row) => row.ref)) });
  }

  private openColumnForm(column: Column | undefined): void {
    const table = this.table;
    if (!table || !this.editable) return;
    const { side } = this.context.shell;
    side.hidden = false;
    columnForm(side, {
      column,
      tables: this.tables,
      close: () => {
        side.hidden = true;
        side.replaceChildren();
        this.grid?.focus();
      },
      save: (draft: ColumnDraft) =>
        this.track(async () => {
          if (column) {
            await this.client.updateColumn(table.guid, column.guid, draft);
            this.recordColumnChange(column, draft);
          } else {
            const last = table.columns.at(-1);
            const created = await this.client.createColumn(table.guid, table.defaultViewGuid, draft);
            const ref = this.history.ref(created.guid);
            const after = last && this.history.ref(last.guid);
            this.history.record({ undo: () => this.dropColumn(ref), redo: () => this.makeColumn(ref, draft, after) });
          }
          await this.reloadColumns();
        }),
      remove: column
        ? () =>
            this.track(async () => {
              const position = table.columns.findIndex((candidate) => candidate.guid === column.guid);
              const previous = table.columns[position - 1];
              const ref = this.history.ref(column.guid);
              const after = previous && this.history.ref(previous.guid);
              const spec: ColumnSpec = { name: column.name, type: column.type, props: column.props };
              await this.dropColumn(ref);
              this.history.record({ undo: () => this.makeColumn(ref, spec, after), redo: () => this.dropColumn(ref) });
            })
        : undefined,
    });
  }

  // ---- links ------------------------------------------------------------------------------------

  /** The linked row's primary value, fetched in batches the first time it is shown. */
  private linkLabel(tableGuid: string, rowGuid: string): string {
    const known = this.linkLabels.get(rowGuid);
    if (known !== undefined) return known;
    let queued = this.linkQueue.get(tableGuid);
    if (!queued) this.linkQueue.set(tableGuid, (queued = new Set()));
    queued.add(rowGuid);
    if (this.linkTimer === undefined) this.linkTimer = window.setTimeout(() => void this.fetchLinkLabels(), 20);
    return '…';
  }

  private primaryText(tableGuid: string, row: Row): string {
    const primary = this.tables.find((candidate) => candidate.guid === tableGuid)?.columns[0];
    return primary ? shownText(row.valueMap[primary.name], primary, () => '') : row.guid;
  }

  private async fetchLinkLabels(): Promise<void> {
    this.linkTimer = undefined;
    const batches = [...this.linkQueue];
    this.linkQueue.clear();
    await Promise.all(
      batches.flatMap(([tableGuid, guids]) =>
        [...guids].map(async (rowGuid) => {
          this.linkLabels.set(rowGuid, rowGuid);
          try {
            this.linkLabels.set(rowGuid, this.primaryText(tableGuid, await this.client.getRow(tableGuid, rowGuid)) || rowGuid);
          } catch {
            // a deleted linked row keeps showing its guid (docs/TABLE-API.md: links are kept as written)
          }
        }),
      ),
    );
    this.grid?.refresh();
  }

  private async linkCandidates(tableGuid: string, text: string): Promise<{ guid: string; label: string }[]> {
    const linked = this.tables.find((candidate) => candidate.guid === tableGuid);
    const primary = linked?.columns[0];
    if (!linked || !primary) return [];
    const window = await this.client.rowWindow(tableGuid, 0, 50, text ? { filter: { columnGuid: primary.guid, operator: 'contains', value: text } } : {});
    return window.rows.map((row) => {
      const label = this.primaryText(tableGuid, row);
      this.linkLabels.set(row.guid, label || row.guid);
      return { guid: row.guid, label };
    });
  }

  // ---- live changes and save status -------------------------------------------------------------

  private notice(notice: TableNotice): void {
    if (notice.subject === 'table') {
      void this.client.listTables().then((tables) => {
        this.tables = tables;
        this.drawViewBar();
        this.drawTabs();
      });
      return;
    }
    if (notice.tableGuid !== this.table?.guid) {
      // a linked table's rows changed: their labels are fetched again when shown
      for (const guid of notice.rowGuids ?? []) this.linkLabels.delete(guid);
      return;
    }
    if (notice.subject === 'views') void this.reloadViews();
    else if (notice.subject === 'columns') void this.reloadColumns().then(() => this.store?.refresh());
    else if (this.store) this.store.refresh();
    // a form shows no rows: redrawing it would drop what the person is typing
    else if (this.view?.kind !== 'form') void this.loadBoard();
  }

  /** Another user changed the views: the shown one is drawn again with its new settings (or the default view if it is gone). */
  private async reloadViews(): Promise<void> {
    const table = this.table;
    if (!table) return;
    this.views = await this.client.listViews(table.guid);
    const same = this.views.find((view) => view.viewGuid === this.view?.viewGuid);
    if (same && JSON.stringify(same) === JSON.stringify(this.view)) this.drawTabs();
    else await this.showView(same ?? this.views[0]);
  }

  /** Runs a write started by a click or a key; a refusal is shown over the grid. */
  private attempt(work: () => Promise<void>): void {
    this.track(work).catch((error: unknown) => this.context.shell.showNotice(errorText(error)));
  }

  /** Runs a write, reporting the save status to the shell and the host page. */
  private async track(work: () => Promise<void>): Promise<void> {
    this.pendingWrites++;
    this.reportStatus('saving');
    try {
      await work();
    } catch (error) {
      this.failedWrites = true;
      throw error;
    } finally {
      this.pendingWrites--;
      if (this.pendingWrites === 0) {
        this.reportStatus(this.failedWrites ? 'error' : 'saved');
        this.failedWrites = false;
      }
    }
  }

  private reportStatus(status: SaveStatus): void {
    this.context.shell.showSaveStatus(status);
    this.context.bridge.emitEditorEvent('saveStatusChanged', { status });
  }
}

/** Where a column comes in a view's `columnOrder`: listed ones first in that order, the others after in table order. */
function rank(order: readonly string[], column: Column): number {
  const at = order.indexOf(column.guid);
  return at < 0 ? order.length : at;
}

/** The table editor (multi-dimensional table): the base's tables in a grid over the table API. */
export async function mount(context: EditorContext): Promise<void> {
  await new TableEditor(context).mount();
}
