import './grid.css';
import type { CellRange } from './cell-range.js';
import { RowHeightIndex } from './row-heights.js';

export type { CellRange } from './cell-range.js';

/**
 * A virtualised, accessible grid that editors build on (the spreadsheet, the table editor). Only the rows and
 * columns in view (plus a small margin) are in the DOM, so a grid of a million rows costs what a screenful does.
 *
 * How to use it:
 *
 *   const grid = new VirtualGrid(container, {
 *     label: 'Sheet1',
 *     rowCount: () => 100_000, columnCount: () => 26,
 *     columnWidth: (column) => widths[column] ?? 100,
 *     columnHeader: (column) => columnLetters(column),
 *     rowHeader: (row) => String(row + 1),            // optional: a row-number column
 *     renderCell: (cell, row, column) => { cell.textContent = shownValue(row, column); },
 *     editCell: (host) => textCellEditor(host, { initial: …, commit: (text) => … }),   // optional
 *     onSelectionChange: (selection) => …, onCopy, onPaste, onClear, onColumnResize,   // optional
 *   });
 *   grid.refresh();          // after data changed (re-renders the cells in view)
 *   grid.invalidateLayout(); // after row/column counts, widths, row heights or the frozen row changed
 *
 * The grid owns no data: it asks the consumer for sizes, headers and cell content each time it draws, and
 * reports what the user does (selection, edits, clipboard, column resizes) through callbacks. Every cell
 * shows its value as text (`renderCell` sets it), with grid roles (`grid`, `row`, `columnheader`,
 * `rowheader`, `gridcell`, aria row and column indexes), and the grid element carries the focus with
 * `aria-activedescendant` on the active cell, so screen readers and tests read what the user sees.
 *
 * Rows have a default height, and rows may have their own: set (`rowHeights`), or grown to fit a cell that
 * `renderCell` marks with GROWING_CELL_CLASS (wrapped text, a larger font), measured as such cells are drawn.
 * Columns have their own widths. Keyboard: arrows, Tab, Enter, Home/End (Ctrl: the
 * sheet's corners), PageUp/PageDown, Shift extends the range, F2 or typing starts editing, Delete clears,
 * Ctrl+A selects all; Ctrl+C/X/V are the browser's clipboard events.
 */

export interface CellPosition {
  row: number;
  column: number;
}

/** The active cell (where typing goes) and the other corner of the selected range. */
export interface GridSelection {
  active: CellPosition;
  extent: CellPosition;
}

/**
 * A range shown over the grid in a colour, e.g. a collaborator's selection. Its label (their name) sits above the
 * range only for a moment after the range moved and while the pointer is over the range, as in Google Sheets:
 * a label always there would hide the cell above.
 */
export interface GridHighlight {
  range: CellRange;
  color: string;
  label?: string;
}

/**
 * The class `renderCell` gives a cell whose content may need more than one default row (wrapped text, a larger
 * font): the grid measures it when it draws it and grows its row to fit, unless the row has a height of its own.
 */
export const GROWING_CELL_CLASS = 'svc-grid-cell-grows';

/** How long a highlight's label shows after its range moved, milliseconds. */
export const HIGHLIGHT_LABEL_MS = 2500;

/** What `editCell` is given: a box over the cell to build the editor in, and how to finish. */
export interface CellEditorHost {
  row: number;
  column: number;
  /** positioned over the cell, at least its size; the editor's elements go inside */
  element: HTMLElement;
  /** the character typed to start editing (replaces the content), or undefined (F2, Enter, double click) */
  typed: string | undefined;
  /** ends editing and gives the focus back to the grid; `move` moves the active cell afterwards */
  close(move?: 'down' | 'up' | 'right' | 'left'): void;
}

export interface GridOptions {
  /** accessible name of the grid */
  label: string;
  rowCount(): number;
  columnCount(): number;
  columnWidth(column: number): number;
  /** whether a column is hidden: it takes no room, is not drawn, and the keys step over it */
  columnHidden?(column: number): boolean;
  columnHeader(column: number): string;
  /** the row-number column's text; without it there is no row header column */
  rowHeader?(row: number): string;
  /** draws one cell: set its text (what a reader should hear) and any classes; called for cells coming into view and on refresh */
  renderCell(cell: HTMLElement, row: number, column: number): void;
  /**
   * Wraps each batch of `renderCell` calls (a scrolled frame, a refresh) and must call `draw` once, at once: nothing
   * changes the data while a batch draws, so a consumer may keep what its cells read (a cell read as one cell's and as
   * its neighbour's, the sheet) until `draw` returns.
   */
  drawing?(draw: () => void): void;
  /** starts an editor over a cell; without it the grid cannot be edited in place */
  editCell?(host: CellEditorHost): void;
  onSelectionChange?(selection: GridSelection): void;
  /** Ctrl+C / Ctrl+X (`cut`): the text to put on the clipboard for the range (TSV, see src/model/sheets/delimited.ts) */
  onCopy?(range: CellRange, cut: boolean): string;
  /** Ctrl+V: clipboard text to put at the selection */
  onPaste?(text: string, selection: CellRange): void;
  /** Delete / Backspace, and the second half of a cut */
  onClear?(range: CellRange): void;
  /** a column header's edge was dragged to a new width (pixels) */
  onColumnResize?(column: number, width: number): void;
  /** a column header's right edge was double-clicked: fit the column to what it shows */
  onColumnAutoFit?(column: number): void;
  /** a row number's bottom edge was dragged to a new height (pixels); without it rows cannot be resized */
  onRowResize?(row: number, height: number): void;
  /** a row number's bottom edge was double-clicked: the row's height follows its content again */
  onRowAutoFit?(row: number): void;
  /**
   * the fill handle (the square at the selection's corner) was dragged: `target` holds `source` and reaches past
   * it on one side. Without it the selection has no fill handle.
   */
  onFill?(source: CellRange, target: CellRange): void;
  /** a right click (or the context-menu key) on a cell or header, after the selection was moved there if it was outside it */
  onContextMenu?(at: { x: number; y: number }): void;
  /** the default row height, pixels */
  rowHeight?: number;
  /** rows of their own height (pixels), read when the layout is laid out again (`invalidateLayout`) */
  rowHeights?(): ReadonlyMap<number, number>;
  headerHeight?: number;
  rowHeaderWidth?: number;
  /** rows kept in view at the top while scrolling (0 or more), under the header */
  frozenRows?(): number;
  /** merged areas (disjoint): each drawn as its top-left cell over the whole area; the selection covers them whole */
  merges?(): readonly CellRange[];
  /**
   * rows not drawn (a sheet's filter hides them), ascending; read when the layout is laid out again
   * (`invalidateLayout`). The keys step over them; frozen rows are never hidden.
   */
  hiddenRows?(): readonly number[];
}

const OVERSCAN_ROWS = 6;
const OVERSCAN_PIXELS = 200;
/** the most rows kept out of the DOM for reuse: the margin of both sides, and some */
const DETACHED_ROWS = 4 * OVERSCAN_ROWS;
const MIN_COLUMN_WIDTH = 24;
const MIN_ROW_HEIGHT = 4;
let gridSequence = 0;

export function normalizeRange(a: CellPosition, b: CellPosition): CellRange {
  return { top: Math.min(a.row, b.row), bottom: Math.max(a.row, b.row), left: Math.min(a.column, b.column), right: Math.max(a.column, b.column) };
}

function contains(range: CellRange, row: number, column: number): boolean {
  return row >= range.top && row <= range.bottom && column >= range.left && column <= range.right;
}

function overlaps(a: CellRange, b: CellRange): boolean {
  return a.top <= b.bottom && b.top <= a.bottom && a.left <= b.right && b.left <= a.right;
}

function rangeKey(range: CellRange): string {
  return `${range.top}:${range.left}:${range.bottom}:${range.right}`;
}

function div(className: string): HTMLDivElement {
  const node = document.createElement('div');
  node.className = className;
  return node;
}

/** What stays the same while one batch of cells is drawn (see GridOptions.drawing), read once for it. */
interface DrawBatch {
  merges: readonly CellRange[];
  /** the selected range, read when first asked for */
  selected: CellRange | undefined;
}

interface RowView {
  element: HTMLElement;
  cells: Map<number, HTMLElement>;
}

export class VirtualGrid {
  readonly element: HTMLElement;
  private readonly viewport: HTMLElement;
  private readonly canvas: HTMLElement;
  private readonly header: HTMLElement;
  private readonly frozen: HTMLElement;
  private readonly body: HTMLElement;
  private readonly overlays: HTMLElement;
  /**
   * A layer over the cells for objects that float over the grid (the spreadsheet's charts), placed in the canvas's
   * coordinates (`boxOf`), so that they scroll with the cells; they stay under the row numbers and the headers.
   */
  readonly floating: HTMLElement;
  private readonly selectionBox: HTMLElement;
  private readonly fillHandle: HTMLElement;
  private readonly fillPreview: HTMLElement;
  private readonly id = `svc-grid-${++gridSequence}`;
  /** how many cell elements this grid has built: each keeps the id it was built with, whichever cell it draws */
  private cellsBuilt = 0;
  /** set while a batch of cells is drawn */
  private batch: DrawBatch | undefined;
  private readonly defaultRowHeight: number;
  private readonly headerHeight: number;
  private readonly rowHeaderWidth: number;
  private readonly rows = new Map<number, RowView>();
  /**
   * Body rows out of the DOM, kept to be drawn again as rows coming into view: the margin a jump leaves out for a
   * frame comes back with the next (their cells may be of other columns by then: the rows' cells are brought to the
   * columns in view as any row's are)
   */
  private detachedRows: RowView[] = [];
  private readonly headers = new Map<number, HTMLElement>();
  /** x of each column's left edge; one more entry than columns (the last is the total width) */
  private offsets: number[] = [0];
  /** the hidden rows as a set (see GridOptions.hiddenRows) */
  private hiddenSet = new Set<number>();
  /** rows' own heights: set ones, measured ones and hidden ones (0) */
  private heights: RowHeightIndex;
  /** heights rows were given (GridOptions.rowHeights), read at the last layout */
  private setHeights: ReadonlyMap<number, number> = new Map();
  /** per row, the heights its growing cells measured (by column), kept while they scroll out of view */
  private readonly measured = new Map<number, Map<number, number>>();
  /** growing cells drawn since the last measure */
  private readonly toMeasure: Array<{ cell: HTMLElement; row: number; column: number }> = [];
  private selection: GridSelection = { active: { row: 0, column: 0 }, extent: { row: 0, column: 0 } };
  private highlights: GridHighlight[] = [];
  /** when each label (by its text) was last shown for a move of its range */
  private readonly labelMoved = new Map<string, number>();
  private labelTimer = 0;
  private hovered: CellPosition | undefined;
  private editor: { host: CellEditorHost; box: HTMLElement } | undefined;
  private readOnly = false;
  private frame = 0;
  private resizing: { column: number; startX: number; startWidth: number; width: number } | undefined;
  private resizingRow: { row: number; startY: number; startHeight: number; height: number } | undefined;
  private dragging = false;
  /** the fill handle's drag: the selection it started from and the range it reaches now */
  private filling: { source: CellRange; target: CellRange } | undefined;
  /**
   * The column a run of Tab moves started from: Enter after "name Tab value Tab … Enter" goes to the next row's
   * cell in that column, as in Excel. Any other move of the selection ends the run.
   */
  private tabRunColumn: number | undefined;
  private readonly onDocumentCopy = (event: ClipboardEvent) => this.clipboard(event, 'copy');
  private readonly onDocumentCut = (event: ClipboardEvent) => this.clipboard(event, 'cut');
  private readonly onDocumentPaste = (event: ClipboardEvent) => this.clipboard(event, 'paste');
  private readonly onPointerUp = () => this.endPointer();
  private readonly onPointerMove = (event: PointerEvent) => this.movePointer(event);

  constructor(
    container: HTMLElement,
    private readonly options: GridOptions,
  ) {
    this.defaultRowHeight = options.rowHeight ?? 24;
    this.heights = new RowHeightIndex(this.defaultRowHeight, 0, new Map());
    this.headerHeight = options.headerHeight ?? 26;
    this.rowHeaderWidth = options.rowHeader ? (options.rowHeaderWidth ?? 56) : 0;
    this.element = div('svc-grid');
    this.element.id = this.id;
    this.element.tabIndex = 0;
    this.element.setAttribute('role', 'grid');
    this.element.setAttribute('aria-label', options.label);
    this.element.setAttribute('aria-multiselectable', 'true');
    this.viewport = div('svc-grid-viewport');
    this.canvas = div('svc-grid-canvas');
    this.header = div('svc-grid-header');
    this.header.setAttribute('role', 'row');
    this.header.setAttribute('aria-rowindex', '1');
    this.header.style.height = `${this.headerHeight}px`;
    this.frozen = div('svc-grid-frozen');
    this.frozen.style.top = `${this.headerHeight}px`;
    this.body = div('svc-grid-body');
    this.overlays = div('svc-grid-overlays');
    this.selectionBox = div('svc-grid-selection');
    this.fillHandle = div('svc-grid-fill-handle');
    this.fillHandle.setAttribute('aria-hidden', 'true');
    this.fillHandle.hidden = !options.onFill;
    this.fillPreview = div('svc-grid-fill-preview');
    this.fillPreview.hidden = true;
    this.selectionBox.append(this.fillHandle);
    this.overlays.append(this.selectionBox, this.fillPreview);
    this.floating = div('svc-grid-floating');
    this.canvas.append(this.header, this.frozen, this.body, this.overlays, this.floating);
    this.viewport.append(this.canvas);
    this.element.append(this.viewport);
    container.append(this.element);
    if (this.rowHeaderWidth > 0) {
      const corner = div('svc-grid-corner');
      corner.style.width = `${this.rowHeaderWidth}px`;
      this.header.append(corner);
    }
    this.viewport.addEventListener('scroll', () => this.schedule(), { passive: true });
    this.element.addEventListener('keydown', (event) => this.keydown(event));
    this.canvas.addEventListener('pointerdown', (event) => this.pointerdown(event));
    this.canvas.addEventListener('dblclick', (event) => this.doubleClick(event));
    this.canvas.addEventListener('contextmenu', (event) => this.contextMenu(event));
    this.element.addEventListener('keydown', (event) => {
      if (event.target !== this.element || !(event.key === 'ContextMenu' || (event.shiftKey && event.key === 'F10')) || !this.options.onContextMenu) return;
      event.preventDefault();
      const box = this.selectionBox.getBoundingClientRect();
      this.options.onContextMenu({ x: box.left + 4, y: box.bottom });
    });
    this.canvas.addEventListener('pointermove', (event) => this.hover(this.positionOf(event.target)));
    this.canvas.addEventListener('pointerleave', () => this.hover(undefined));
    document.addEventListener('copy', this.onDocumentCopy);
    document.addEventListener('cut', this.onDocumentCut);
    document.addEventListener('paste', this.onDocumentPaste);
    new ResizeObserver(() => this.schedule()).observe(this.viewport);
    this.invalidateLayout();
  }

  /** Re-renders every cell in view (the data changed). */
  refresh(): void {
    this.drawBatch(() => {
      for (const [row, view] of this.rows) for (const [column, cell] of view.cells) this.drawCell(cell, row, column);
      this.placeOverlays();
      this.measureGrowth();
    });
  }

  /** Re-renders one cell if it is in view. */
  refreshCell(row: number, column: number): void {
    this.drawBatch(() => {
      const cell = this.rows.get(row)?.cells.get(column);
      if (cell) this.drawCell(cell, row, column);
      this.measureGrowth();
    });
  }

  /**
   * Runs `draw` as one batch (GridOptions.drawing): the merges and the selected range are read once for all its
   * cells rather than once per cell (a batch inside another is part of it).
   */
  private drawBatch(draw: () => void): void {
    if (this.batch) return draw();
    this.batch = { merges: this.options.merges?.() ?? [], selected: undefined };
    try {
      if (this.options.drawing) this.options.drawing(draw);
      else draw();
    } finally {
      this.batch = undefined;
    }
  }

  /** The selected range, read once per batch. */
  private batchSelectedRange(): CellRange {
    if (!this.batch) return this.selectedRange;
    return (this.batch.selected ??= this.selectedRange);
  }

  /** Sizes, widths, headers or frozen rows changed: lays the grid out again and redraws what is in view. */
  invalidateLayout(): void {
    const columns = this.options.columnCount();
    this.offsets = new Array<number>(columns + 1);
    this.offsets[0] = 0;
    for (let c = 0; c < columns; c++) this.offsets[c + 1] = this.offsets[c]! + this.widthOf(c);
    const rows = this.options.rowCount();
    this.hiddenSet = new Set(this.options.hiddenRows?.().filter((row) => row >= this.frozenRowCount() && row < rows) ?? []);
    this.setHeights = this.options.rowHeights?.() ?? new Map();
    // rows may have moved (insertions, deletions) or widths changed: what was measured is measured again as drawn
    this.measured.clear();
    this.indexHeights();
    this.canvas.style.width = `${this.rowHeaderWidth + this.offsets[columns]!}px`;
    this.element.setAttribute('aria-rowcount', String(rows + 1));
    this.element.setAttribute('aria-colcount', String(columns + (this.rowHeaderWidth > 0 ? 1 : 0)));
    this.clampSelection();
    for (const view of this.rows.values()) view.element.remove();
    this.rows.clear();
    // their cells are placed by the old column offsets
    this.detachedRows = [];
    for (const header of this.headers.values()) header.remove();
    this.headers.clear();
    this.render();
  }

  /** Where a range lies on the canvas, pixels (the coordinates of `floating`). */
  boxOf(range: CellRange): { x: number; y: number; width: number; height: number } {
    return this.rangeBox(range);
  }

  /** The cell under a point of the page (client coordinates), as a canvas point too; clamped to the grid's cells. */
  cellAtClient(clientX: number, clientY: number): { cell: CellPosition; x: number; y: number } {
    const origin = this.canvas.getBoundingClientRect();
    const x = clientX - origin.left;
    const y = clientY - origin.top;
    const row = Math.min(Math.max(0, this.options.rowCount() - 1), this.rowAtY(Math.max(0, y - this.headerHeight)));
    const column = Math.min(Math.max(0, this.options.columnCount() - 1), this.columnAt(Math.max(0, x - this.rowHeaderWidth)));
    return { cell: { row, column }, x, y };
  }

  /** How far the cells are scrolled, pixels (a grid taking another's place keeps its scroll). */
  get scrollPosition(): { top: number; left: number } {
    return { top: this.viewport.scrollTop, left: this.viewport.scrollLeft };
  }

  scrollTo(position: { top: number; left: number }): void {
    this.viewport.scrollTop = position.top;
    this.viewport.scrollLeft = position.left;
    this.render();
  }

  get currentSelection(): GridSelection {
    return { active: { ...this.selection.active }, extent: { ...this.selection.extent } };
  }

  get selectedRange(): CellRange {
    // grown until no merge sticks out of it: a merge is selected whole or not at all
    const range = normalizeRange(this.selection.active, this.selection.extent);
    const merges = this.batch?.merges ?? this.options.merges?.() ?? [];
    for (let grown = true; grown; ) {
      grown = false;
      for (const merge of merges) {
        if (!overlaps(range, merge) || (range.top <= merge.top && range.left <= merge.left && range.bottom >= merge.bottom && range.right >= merge.right)) continue;
        Object.assign(range, { top: Math.min(range.top, merge.top), left: Math.min(range.left, merge.left), bottom: Math.max(range.bottom, merge.bottom), right: Math.max(range.right, merge.right) });
        grown = true;
      }
    }
    return range;
  }

  /**
   * Rebuilds the row height index from the rows' own heights: hidden rows take none, a height being dragged or set
   * wins, else the tallest growing cell measured (never below the default).
   */
  private indexHeights(): void {
    const own = new Map<number, number>();
    for (const [row, cells] of this.measured) own.set(row, Math.max(this.defaultRowHeight, ...cells.values()));
    for (const [row, height] of this.setHeights) own.set(row, Math.max(MIN_ROW_HEIGHT, height));
    if (this.resizingRow) own.set(this.resizingRow.row, this.resizingRow.height);
    for (const row of this.hiddenSet) own.set(row, 0);
    this.heights = new RowHeightIndex(this.defaultRowHeight, this.options.rowCount(), own);
    this.canvas.style.height = `${this.headerHeight + this.heights.total}px`;
  }

  /** Distance from the first row's top to `row`'s top, pixels (hidden rows take no room). */
  private rowTop(row: number): number {
    return this.heights.top(row);
  }

  private heightOf(row: number): number {
    return this.heights.heightOf(row);
  }

  /** The row whose band holds `y` (a distance from the first row's top), counting only rows that are drawn. */
  private rowAtY(y: number): number {
    return this.heights.rowAt(y);
  }

  /** The height a row is drawn with now, pixels (0: hidden). */
  rowHeight(row: number): number {
    return this.heightOf(row);
  }

  /** The rows whose band is in view now (frozen rows aside), for consumers measuring what is shown. */
  get rowsInView(): { first: number; last: number } {
    const top = this.viewport.scrollTop;
    return { first: this.rowAtY(top), last: this.rowAtY(top + (this.viewport.clientHeight || 600)) };
  }

  /**
   * Measures the growing cells drawn since the last call (their content's height, at their width) and, when a
   * row's tallest one changed, lays the rows out again. Only cells in view are ever measured.
   */
  private measureGrowth(): void {
    if (this.toMeasure.length === 0) return;
    let changed = false;
    const queued = this.toMeasure.splice(0);
    // cells that stopped growing are forgotten; the others' content heights are read in one layout of the page:
    // all set to their content first, then all read
    const growing = queued.filter(({ cell }) => cell.isConnected && cell.classList.contains(GROWING_CELL_CLASS)).map(({ cell }) => cell);
    for (const cell of growing) cell.style.height = 'auto';
    const heights = new Map(growing.map((cell) => [cell, Math.ceil(cell.offsetHeight)]));
    for (const cell of growing) cell.style.height = '';
    for (const { cell, row, column } of queued) {
      const before = this.measured.get(row)?.get(column);
      const height = heights.get(cell);
      if (height === before) continue;
      let cells = this.measured.get(row);
      if (height === undefined) cells?.delete(column);
      else if (!cells) this.measured.set(row, (cells = new Map([[column, height]])));
      else cells.set(column, height);
      if (cells?.size === 0) this.measured.delete(row);
      if (!this.setHeights.has(row)) changed = true;
    }
    if (!changed) return;
    this.indexHeights();
    for (const [row, view] of this.rows) this.placeRow(view.element, row, row < this.frozenRowCount());
    this.render();
  }

  /** Height of the rows from `top` to `bottom`, hidden ones taking none. */
  private rowsHeight(top: number, bottom: number): number {
    return this.rowTop(bottom + 1) - this.rowTop(top);
  }

  /** The merged area holding a cell, if any. */
  private mergeAt(row: number, column: number): CellRange | undefined {
    return (this.batch?.merges ?? this.options.merges?.())?.find((merge) => contains(merge, row, column));
  }

  /** Selects a cell or range and scrolls the active cell into view. */
  select(active: CellPosition, extent: CellPosition = active): void {
    this.closeEditor();
    this.tabRunColumn = undefined;
    this.selection = { active: { ...active }, extent: { ...extent } };
    this.clampSelection();
    // the active cell of a merge is its top-left one, which holds what the merge shows
    // (and a selection within one merge is that merge: its extent too)
    const merge = this.mergeAt(this.selection.active.row, this.selection.active.column);
    if (merge) {
      const within = contains(merge, this.selection.extent.row, this.selection.extent.column);
      this.selection.active = { row: merge.top, column: merge.left };
      if (within) this.selection.extent = { ...this.selection.active };
    }
    this.scrollIntoView(this.selection.extent);
    this.selectionChanged();
  }

  setHighlights(highlights: GridHighlight[]): void {
    const before = new Map(this.highlights.map((highlight) => [highlight.label, highlight.range]));
    const now = Date.now();
    for (const { label, range } of highlights) {
      const previous = before.get(label);
      if (label !== undefined && (!previous || rangeKey(previous) !== rangeKey(range))) this.labelMoved.set(label, now);
    }
    this.highlights = highlights;
    this.placeOverlays();
  }

  /** A read-only grid can be selected and copied from, never edited. */
  setReadOnly(readOnly: boolean): void {
    this.readOnly = readOnly;
    this.fillHandle.hidden = readOnly || !this.options.onFill;
    this.element.setAttribute('aria-readonly', String(readOnly));
    if (readOnly) this.closeEditor();
  }

  get editing(): boolean {
    return this.editor !== undefined;
  }

  /** Starts editing the active cell (what F2 does); `typed` replaces its content. */
  startEditing(typed?: string): void {
    if (this.readOnly || !this.options.editCell || this.editor) return;
    const { row, column } = this.selection.active;
    this.scrollIntoView(this.selection.active);
    const box = div('svc-grid-editor');
    const bounds = this.cellBounds(row, column);
    Object.assign(box.style, { left: `${bounds.x}px`, top: `${bounds.y}px`, minWidth: `${bounds.width}px`, height: `${this.heightOf(row)}px` });
    if (row < this.frozenRowCount()) box.classList.add('svc-grid-editor-frozen');
    this.overlays.append(box);
    const host: CellEditorHost = { row, column, element: box, typed, close: (move) => this.finishEditing(host, move) };
    this.editor = { host, box };
    this.options.editCell(host);
  }

  /** Gives the keyboard focus to the grid. */
  focus(): void {
    this.element.focus({ preventScroll: true });
  }

  destroy(): void {
    cancelAnimationFrame(this.frame);
    window.clearTimeout(this.labelTimer);
    document.removeEventListener('copy', this.onDocumentCopy);
    document.removeEventListener('cut', this.onDocumentCut);
    document.removeEventListener('paste', this.onDocumentPaste);
    this.endPointer();
    this.element.remove();
  }

  private widthOf(column: number): number {
    if (this.resizing?.column === column) return this.resizing.width;
    if (this.options.columnHidden?.(column)) return 0;
    return Math.max(MIN_COLUMN_WIDTH, this.options.columnWidth(column));
  }

  private frozenRowCount(): number {
    return Math.min(this.options.frozenRows?.() ?? 0, this.options.rowCount());
  }

  private schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.render();
    });
  }

  /** First column whose right edge is past x (binary search over the offsets). */
  private columnAt(x: number): number {
    let low = 0;
    let high = this.offsets.length - 2;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.offsets[mid + 1]! <= x) low = mid + 1;
      else high = mid;
    }
    return Math.max(0, low);
  }

  /**
   * The first column edge at or right of `x` (never past `limit`): scrolling right to show a column starts the
   * view at a whole column, as spreadsheet programs do, rather than leaving a sliver of one by the row numbers.
   */
  private columnStartFrom(x: number, limit: number): number {
    const column = this.columnAt(x);
    const start = this.offsets[column]! < x ? this.offsets[column + 1]! : this.offsets[column]!;
    return Math.min(start, limit);
  }

  /** The rows and columns in view, with `marginRows` more above and below (and OVERSCAN_PIXELS of columns either side). */
  private visibleWindow(marginRows: number): { firstRow: number; lastRow: number; firstColumn: number; lastColumn: number } {
    const rows = this.options.rowCount();
    const columns = this.options.columnCount();
    const top = this.viewport.scrollTop;
    const height = this.viewport.clientHeight || 600;
    const left = this.viewport.scrollLeft;
    const width = this.viewport.clientWidth || 800;
    const firstRow = Math.max(this.frozenRowCount(), this.rowAtY(top) - marginRows);
    const lastRow = Math.min(rows - 1, this.rowAtY(top + height) + marginRows);
    if (columns === 0) return { firstRow, lastRow, firstColumn: 0, lastColumn: -1 };
    const firstColumn = this.columnAt(Math.max(0, left - OVERSCAN_PIXELS));
    const lastColumn = Math.min(columns - 1, this.columnAt(left + width - this.rowHeaderWidth + OVERSCAN_PIXELS));
    return { firstRow, lastRow, firstColumn, lastColumn };
  }

  /** Brings the DOM to exactly the rows and columns in view: removes what left, adds and draws what came in. */
  private render(): void {
    this.drawBatch(() => this.renderWindow());
  }

  private renderWindow(): void {
    const kept = this.visibleWindow(OVERSCAN_ROWS);
    const shown = this.visibleWindow(0);
    // a jump (the scrollbar dragged, a far cell selected) leaves rows in view undrawn: this frame draws those only and
    // the next one the margin around them, so that the frame showing the new place draws no row it does not show
    let jumped = false;
    for (let row = shown.firstRow; row <= shown.lastRow && !jumped; row++) jumped = !this.hiddenSet.has(row) && !this.rows.has(row);
    const view = jumped ? { ...kept, firstRow: shown.firstRow, lastRow: shown.lastRow } : kept;
    const frozenRows = this.frozenRowCount();
    this.frozen.style.height = `${this.rowTop(frozenRows)}px`;
    for (const [column, header] of this.headers) {
      if (column < view.firstColumn || column > view.lastColumn) {
        header.remove();
        this.headers.delete(column);
      }
    }
    for (let column = view.firstColumn; column <= view.lastColumn; column++) {
      if (!this.headers.has(column) && this.widthOf(column) > 0) this.headers.set(column, this.createHeader(column));
    }
    // rows that left the view are drawn again as rows that came in rather than built anew: a jump far down a large
    // sheet replaces every row in view at once, and building hundreds of elements per frame (and collecting the old
    // ones) is what kept such a scroll under 60 frames per second. Rows of the margin stay while they are in it.
    const spare: RowView[] = [];
    for (const [row, rowView] of this.rows) {
      const inView = row < frozenRows || (row >= kept.firstRow && row <= kept.lastRow && !this.hiddenSet.has(row));
      if (!inView) {
        this.rows.delete(row);
        if (rowView.element.parentElement === this.body) spare.push(rowView);
        else rowView.element.remove();
      }
    }
    const wanted: number[] = [];
    for (let row = 0; row < frozenRows; row++) wanted.push(row);
    for (let row = view.firstRow; row <= view.lastRow; row++) if (!this.hiddenSet.has(row)) wanted.push(row);
    for (const row of wanted) {
      let rowView = this.rows.get(row);
      if (!rowView) {
        const frozen = row < frozenRows;
        const reused = frozen ? undefined : (spare.pop() ?? this.detachedRows.pop());
        if (reused && !reused.element.isConnected) this.body.append(reused.element);
        rowView = reused ? this.redrawRowAs(reused, row) : this.createRow(row, frozen);
        this.rows.set(row, rowView);
      }
      for (const [column, cell] of rowView.cells) {
        if (column < view.firstColumn || column > view.lastColumn || this.widthOf(column) === 0) {
          cell.remove();
          rowView.cells.delete(column);
        }
      }
      for (let column = view.firstColumn; column <= view.lastColumn; column++) {
        if (rowView.cells.has(column) || this.widthOf(column) === 0) continue;
        const cell = this.createCell(row, column);
        rowView.cells.set(column, cell);
        rowView.element.append(cell);
      }
    }
    for (const rowView of spare) {
      rowView.element.remove();
      if (this.detachedRows.length < DETACHED_ROWS) this.detachedRows.push(rowView);
    }
    this.placeOverlays();
    this.measureGrowth();
    if (jumped) this.schedule();
  }

  private createHeader(column: number): HTMLElement {
    const header = div('svc-grid-columnheader');
    header.setAttribute('role', 'columnheader');
    header.setAttribute('aria-colindex', String(column + 1 + (this.rowHeaderWidth > 0 ? 1 : 0)));
    header.dataset.column = String(column);
    header.style.left = `${this.rowHeaderWidth + this.offsets[column]!}px`;
    header.style.width = `${this.offsets[column + 1]! - this.offsets[column]!}px`;
    header.textContent = this.options.columnHeader(column);
    const { left, right } = this.selectedRange;
    header.classList.toggle('svc-grid-header-selected', column >= left && column <= right);
    if (this.options.onColumnResize) {
      const handle = div('svc-grid-resize');
      handle.dataset.resize = String(column);
      handle.setAttribute('aria-hidden', 'true');
      header.append(handle);
    }
    this.header.append(header);
    return header;
  }

  private createRow(row: number, frozen: boolean): RowView {
    const element = div('svc-grid-row');
    element.setAttribute('role', 'row');
    element.setAttribute('aria-rowindex', String(row + 2));
    this.placeRow(element, row, frozen);
    if (this.options.rowHeader) {
      const header = div('svc-grid-rowheader');
      header.setAttribute('role', 'rowheader');
      header.setAttribute('aria-colindex', '1');
      header.dataset.row = String(row);
      header.style.width = `${this.rowHeaderWidth}px`;
      header.textContent = this.options.rowHeader(row);
      // the row number says rows are hidden right before or after it, as spreadsheets mark filtered rows
      if (this.hiddenSet.has(row - 1) || this.hiddenSet.has(row + 1)) header.classList.add('svc-grid-rowheader-by-hidden');
      if (this.options.onRowResize) {
        const handle = div('svc-grid-row-resize');
        handle.dataset.resizeRow = String(row);
        handle.setAttribute('aria-hidden', 'true');
        header.append(handle);
      }
      element.append(header);
    }
    (frozen ? this.frozen : this.body).append(element);
    return { element, cells: new Map() };
  }

  /** A body row's elements (`view`, out of view now) made into those of `row`: placed, numbered, its cells redrawn. */
  private redrawRowAs(view: RowView, row: number): RowView {
    const { element } = view;
    element.setAttribute('aria-rowindex', String(row + 2));
    this.placeRow(element, row, false);
    const header = this.options.rowHeader ? element.firstElementChild : null;
    if (header instanceof HTMLElement && header.classList.contains('svc-grid-rowheader')) {
      header.dataset.row = String(row);
      // the resize handle stays: only the number (the header's text node) changes
      const label = header.firstChild;
      if (label instanceof Text) label.data = this.options.rowHeader!(row);
      else header.prepend(this.options.rowHeader!(row));
      header.classList.toggle('svc-grid-rowheader-by-hidden', this.hiddenSet.has(row - 1) || this.hiddenSet.has(row + 1));
      const handle = header.querySelector<HTMLElement>('.svc-grid-row-resize');
      if (handle) handle.dataset.resizeRow = String(row);
    }
    for (const [column, cell] of view.cells) {
      cell.dataset.row = String(row);
      this.drawCell(cell, row, column);
    }
    return view;
  }

  private placeRow(element: HTMLElement, row: number, frozen: boolean): void {
    element.style.height = `${this.heightOf(row)}px`;
    element.style.top = `${(frozen ? 0 : this.headerHeight) + this.rowTop(row)}px`;
  }

  private createCell(row: number, column: number): HTMLElement {
    const cell = div('svc-grid-cell');
    cell.setAttribute('role', 'gridcell');
    cell.setAttribute('aria-colindex', String(column + 1 + (this.rowHeaderWidth > 0 ? 1 : 0)));
    cell.dataset.column = String(column);
    cell.style.left = `${this.rowHeaderWidth + this.offsets[column]!}px`;
    // an id of the element's own, not of the cell it draws (aria-activedescendant names the active cell's element):
    // a row drawn again as another row keeps its elements' ids, and changing hundreds of ids per frame costs
    cell.id = `${this.id}-cell-${++this.cellsBuilt}`;
    cell.dataset.row = String(row);
    this.drawCell(cell, row, column);
    return cell;
  }

  private drawCell(cell: HTMLElement, row: number, column: number): void {
    cell.className = 'svc-grid-cell';
    cell.removeAttribute('title');
    this.markSelected(cell, row, column);
    const merge = this.mergeAt(row, column);
    const anchor = merge && merge.top === row && merge.left === column;
    const columns = anchor ? merge : { left: column, right: column };
    cell.style.width = `${this.offsets[columns.right + 1]! - this.offsets[columns.left]!}px`;
    cell.style.height = anchor ? `${this.rowsHeight(merge.top, merge.bottom)}px` : '';
    if (anchor) cell.classList.add('svc-grid-cell-merged');
    else if (merge) cell.classList.add('svc-grid-cell-covered');
    this.options.renderCell(cell, row, column);
    if (cell.classList.contains(GROWING_CELL_CLASS) && !merge) this.toMeasure.push({ cell, row, column });
    else if (this.measured.get(row)?.has(column)) this.toMeasure.push({ cell, row, column });
  }

  /** Marks the cell as in the selection or not (its class and aria-selected). */
  private markSelected(cell: HTMLElement, row: number, column: number): void {
    const selected = contains(this.batchSelectedRange(), row, column);
    cell.setAttribute('aria-selected', String(selected));
    cell.classList.toggle('svc-grid-cell-selected', selected);
  }

  /** Canvas coordinates of a cell (frozen rows are placed where they stick). */
  private cellBounds(row: number, column: number): { x: number; y: number; width: number } {
    const x = this.rowHeaderWidth + (this.offsets[column] ?? 0);
    const width = (this.offsets[column + 1] ?? x) - (this.offsets[column] ?? 0);
    const frozen = row < this.frozenRowCount();
    const y = this.headerHeight + this.rowTop(row) + (frozen ? this.viewport.scrollTop : 0);
    return { x, y, width };
  }

  private rangeBox(range: CellRange): { x: number; y: number; width: number; height: number } {
    const x = this.rowHeaderWidth + (this.offsets[range.left] ?? 0);
    const width = (this.offsets[range.right + 1] ?? 0) - (this.offsets[range.left] ?? 0);
    const y = this.headerHeight + this.rowTop(range.top);
    return { x, y, width, height: this.rowsHeight(range.top, range.bottom) };
  }

  private placeOverlays(): void {
    const range = this.selectedRange;
    const box = this.rangeBox(range);
    Object.assign(this.selectionBox.style, { left: `${box.x}px`, top: `${box.y}px`, width: `${box.width}px`, height: `${box.height}px` });
    for (const old of this.overlays.querySelectorAll('.svc-grid-highlight')) old.remove();
    window.clearTimeout(this.labelTimer);
    const now = Date.now();
    let nextHiding = Infinity;
    for (const highlight of this.highlights) {
      const area = this.rangeBox(highlight.range);
      const element = div('svc-grid-highlight');
      Object.assign(element.style, { left: `${area.x}px`, top: `${area.y}px`, width: `${area.width}px`, height: `${area.height}px`, borderColor: highlight.color });
      if (highlight.label) {
        const tag = div('svc-grid-highlight-label');
        tag.textContent = highlight.label;
        tag.style.background = highlight.color;
        const hiding = (this.labelMoved.get(highlight.label) ?? 0) + HIGHLIGHT_LABEL_MS;
        const recent = hiding > now;
        if (recent) nextHiding = Math.min(nextHiding, hiding);
        const pointed = this.hovered !== undefined && contains(highlight.range, this.hovered.row, this.hovered.column);
        tag.hidden = !recent && !pointed;
        element.append(tag);
      }
      this.overlays.insertBefore(element, this.selectionBox);
    }
    if (nextHiding < Infinity) this.labelTimer = window.setTimeout(() => this.placeOverlays(), nextHiding - now);
    const active = this.rows.get(this.selection.active.row)?.cells.get(this.selection.active.column);
    if (active) this.element.setAttribute('aria-activedescendant', active.id);
    else this.element.removeAttribute('aria-activedescendant');
  }

  private clampSelection(): void {
    const maxRow = Math.max(0, this.options.rowCount() - 1);
    const maxColumn = Math.max(0, this.options.columnCount() - 1);
    for (const corner of [this.selection.active, this.selection.extent]) {
      corner.row = Math.min(Math.max(0, corner.row), maxRow);
      corner.column = Math.min(Math.max(0, corner.column), maxColumn);
    }
  }

  private selectionChanged(): void {
    // only the selection's marks: what a cell shows does not depend on the selection (a consumer whose drawing does,
    // as the spreadsheet's spill outline, refreshes itself), and drawing every cell again made each move of the
    // selection cost as much as a screen drawn afresh
    this.drawBatch(() => {
      for (const [row, view] of this.rows) for (const [column, cell] of view.cells) this.markSelected(cell, row, column);
      const { left, right } = this.batchSelectedRange();
      for (const [column, header] of this.headers) header.classList.toggle('svc-grid-header-selected', column >= left && column <= right);
      this.placeOverlays();
      this.measureGrowth();
    });
    this.options.onSelectionChange?.(this.currentSelection);
  }

  private scrollIntoView(position: CellPosition): void {
    const frozenHeight = this.rowTop(this.frozenRowCount());
    const y = this.rowTop(position.row);
    const viewTop = this.viewport.scrollTop;
    const viewHeight = this.viewport.clientHeight - this.headerHeight - frozenHeight;
    if (position.row >= this.frozenRowCount()) {
      if (y - frozenHeight < viewTop) this.viewport.scrollTop = y - frozenHeight;
      else if (y + this.heightOf(position.row) > viewTop + frozenHeight + viewHeight) this.viewport.scrollTop = y + this.heightOf(position.row) - viewHeight - frozenHeight;
    }
    const x = this.offsets[position.column] ?? 0;
    const right = this.offsets[position.column + 1] ?? x;
    const viewWidth = this.viewport.clientWidth - this.rowHeaderWidth;
    if (x < this.viewport.scrollLeft) this.viewport.scrollLeft = x;
    else if (right > this.viewport.scrollLeft + viewWidth) this.viewport.scrollLeft = this.columnStartFrom(right - viewWidth, x);
    this.render();
  }

  private move(rows: number, columns: number, extend: boolean): void {
    const from = extend ? this.selection.extent : this.selection.active;
    // out of a merge from its edge in the direction of the move
    const merge = this.mergeAt(from.row, from.column);
    const row = merge ? (rows > 0 ? merge.bottom : rows < 0 ? merge.top : from.row) : from.row;
    const column = merge ? (columns > 0 ? merge.right : columns < 0 ? merge.left : from.column) : from.column;
    const next = { row: this.shownRow(row + rows, rows >= 0 ? 1 : -1), column: this.shownColumn(column + columns, columns >= 0 ? 1 : -1) };
    if (extend) this.select(this.selection.active, next);
    else this.select(next);
  }

  /** `row`, or the nearest drawn row from it in `direction` (back the other way at the grid's end). */
  private shownRow(row: number, direction: 1 | -1): number {
    const last = this.options.rowCount() - 1;
    let at = Math.max(0, Math.min(last, row));
    while (this.hiddenSet.has(at) && at + direction >= 0 && at + direction <= last) at += direction;
    while (this.hiddenSet.has(at) && at - direction >= 0 && at - direction <= last) at -= direction;
    return at;
  }

  /** `column`, or the nearest drawn (not zero-width) column from it in `direction` (back the other way at the end). */
  private shownColumn(column: number, direction: 1 | -1): number {
    const last = this.options.columnCount() - 1;
    let at = Math.max(0, Math.min(last, column));
    while (this.widthOf(at) === 0 && at + direction >= 0 && at + direction <= last) at += direction;
    while (this.widthOf(at) === 0 && at - direction >= 0 && at - direction <= last) at -= direction;
    return at;
  }

  /** Tab (1) or Shift+Tab (-1): one cell right or left, keeping the column the run of Tabs started from. */
  private tab(direction: 1 | -1): void {
    const start = this.tabRunColumn ?? this.selection.active.column;
    this.move(0, direction, false);
    this.tabRunColumn = start;
  }

  /** Enter's move: down one row, back to the column a run of Tabs started from. */
  private enter(): void {
    const { row, column } = this.selection.active;
    this.select({ row: this.shownRow(row + 1, 1), column: this.tabRunColumn ?? column });
  }

  private pageRows(): number {
    return Math.max(1, Math.floor((this.viewport.clientHeight - this.headerHeight) / this.defaultRowHeight) - 1);
  }

  private keydown(event: KeyboardEvent): void {
    // keys typed in an editor (or anything else inside the grid) are theirs, even once the editor closed
    if (event.target !== this.element) return;
    const command = event.ctrlKey || event.metaKey;
    const lastRow = this.options.rowCount() - 1;
    const lastColumn = this.options.columnCount() - 1;
    const { active } = this.selection;
    switch (event.key) {
      case 'ArrowUp':
        this.move(command ? -lastRow : -1, 0, event.shiftKey);
        break;
      case 'ArrowDown':
        this.move(command ? lastRow : 1, 0, event.shiftKey);
        break;
      case 'ArrowLeft':
        this.move(0, command ? -lastColumn : -1, event.shiftKey);
        break;
      case 'ArrowRight':
        this.move(0, command ? lastColumn : 1, event.shiftKey);
        break;
      case 'Tab':
        this.tab(event.shiftKey ? -1 : 1);
        break;
      case 'Enter':
        if (event.shiftKey) this.move(-1, 0, false);
        else if (this.readOnly || !this.options.editCell) this.enter();
        else this.startEditing();
        break;
      case 'F2':
        this.startEditing();
        break;
      case 'Home':
        this.select(command ? { row: 0, column: 0 } : { row: active.row, column: 0 });
        break;
      case 'End':
        this.select(command ? { row: lastRow, column: lastColumn } : { row: active.row, column: lastColumn });
        break;
      case 'PageDown':
        this.move(this.pageRows(), 0, event.shiftKey);
        break;
      case 'PageUp':
        this.move(-this.pageRows(), 0, event.shiftKey);
        break;
      case 'Delete':
      case 'Backspace':
        if (!this.readOnly) this.options.onClear?.(this.selectedRange);
        break;
      default:
        if (command && event.key.toLowerCase() === 'a') {
          this.select({ row: 0, column: 0 }, { row: lastRow, column: lastColumn });
          break;
        }
        if (!command && !event.altKey && event.key.length === 1 && !this.readOnly && this.options.editCell) {
          this.startEditing(event.key);
          break;
        }
        return;
    }
    event.preventDefault();
  }

  private positionOf(target: EventTarget | null): CellPosition | 'column' | 'row' | undefined {
    const element = (target as HTMLElement | null)?.closest?.('[data-row], [data-column]') as HTMLElement | null;
    if (!element) return undefined;
    if (element.dataset.row !== undefined && element.dataset.column !== undefined) return { row: Number(element.dataset.row), column: Number(element.dataset.column) };
    return element.dataset.column !== undefined ? 'column' : 'row';
  }

  /** The pointer is over a cell (or left the cells): a collaborator's label shows while it is over their range. */
  private hover(position: ReturnType<VirtualGrid['positionOf']>): void {
    const cell = typeof position === 'object' ? position : undefined;
    const inside = (at: CellPosition | undefined) => at !== undefined && this.highlights.some((highlight) => contains(highlight.range, at.row, at.column));
    const changed = inside(cell) || inside(this.hovered);
    this.hovered = cell;
    if (changed) this.placeOverlays();
  }

  private pointerdown(event: PointerEvent): void {
    if (event.button !== 0) return;
    const target = event.target as HTMLElement;
    if (this.editor?.box.contains(target)) return;
    if (target === this.fillHandle) {
      const source = this.selectedRange;
      this.filling = { source, target: source };
      this.listenPointer();
      event.preventDefault();
      return;
    }
    const resizeRow = target.dataset.resizeRow;
    if (resizeRow !== undefined && !this.readOnly) {
      const row = Number(resizeRow);
      this.resizingRow = { row, startY: event.clientY, startHeight: this.heightOf(row), height: this.heightOf(row) };
      this.listenPointer();
      event.preventDefault();
      return;
    }
    const resize = target.dataset.resize;
    if (resize !== undefined) {
      const column = Number(resize);
      this.resizing = { column, startX: event.clientX, startWidth: this.widthOf(column), width: this.widthOf(column) };
      this.listenPointer();
      event.preventDefault();
      return;
    }
    const element = target.closest('[data-row], [data-column]') as HTMLElement | null;
    if (!element) return;
    event.preventDefault();
    this.focus();
    const lastRow = this.options.rowCount() - 1;
    const lastColumn = this.options.columnCount() - 1;
    if (element.dataset.row === undefined) {
      const column = Number(element.dataset.column);
      const from = event.shiftKey ? this.selection.active.column : column;
      this.select({ row: 0, column: from }, { row: lastRow, column });
      return;
    }
    if (element.dataset.column === undefined) {
      const row = Number(element.dataset.row);
      const from = event.shiftKey ? this.selection.active.row : row;
      this.select({ row: from, column: 0 }, { row, column: lastColumn });
      return;
    }
    const position = { row: Number(element.dataset.row), column: Number(element.dataset.column) };
    if (event.shiftKey) this.select(this.selection.active, position);
    else this.select(position);
    this.dragging = true;
    this.listenPointer();
  }

  private listenPointer(): void {
    document.addEventListener('pointermove', this.onPointerMove);
    document.addEventListener('pointerup', this.onPointerUp);
  }

  private movePointer(event: PointerEvent): void {
    if (this.filling) {
      const position = this.positionOf(document.elementFromPoint(event.clientX, event.clientY));
      if (typeof position === 'object') this.dragFill(position);
      return;
    }
    if (this.resizing) {
      this.resizing.width = Math.max(MIN_COLUMN_WIDTH, Math.round(this.resizing.startWidth + event.clientX - this.resizing.startX));
      this.invalidateLayout();
      return;
    }
    if (this.resizingRow) {
      this.resizingRow.height = Math.max(MIN_ROW_HEIGHT, Math.round(this.resizingRow.startHeight + event.clientY - this.resizingRow.startY));
      this.indexHeights();
      for (const [row, view] of this.rows) this.placeRow(view.element, row, row < this.frozenRowCount());
      this.render();
      return;
    }
    if (!this.dragging) return;
    const position = this.positionOf(document.elementFromPoint(event.clientX, event.clientY));
    if (typeof position !== 'object') return;
    const { extent } = this.selection;
    if (position.row !== extent.row || position.column !== extent.column) this.select(this.selection.active, position);
  }

  private endPointer(): void {
    document.removeEventListener('pointermove', this.onPointerMove);
    document.removeEventListener('pointerup', this.onPointerUp);
    this.dragging = false;
    const filled = this.filling;
    if (filled) {
      this.filling = undefined;
      this.fillPreview.hidden = true;
      const { source, target } = filled;
      if (rangeKey(source) !== rangeKey(target)) {
        this.options.onFill?.(source, target);
        this.select({ row: target.top, column: target.left }, { row: target.bottom, column: target.right });
      }
      return;
    }
    // an edge pressed without a move lays nothing out again: the headers stay, so that a double-click reaches them
    const resizedRow = this.resizingRow;
    if (resizedRow) {
      this.resizingRow = undefined;
      if (resizedRow.height === resizedRow.startHeight) return;
      this.options.onRowResize?.(resizedRow.row, resizedRow.height);
      this.invalidateLayout();
      return;
    }
    const resized = this.resizing;
    if (!resized) return;
    this.resizing = undefined;
    if (resized.width === resized.startWidth) return;
    this.options.onColumnResize?.(resized.column, resized.width);
    this.invalidateLayout();
  }

  /**
   * The fill reaches the cell under the pointer: the selection grows on the side the pointer is farthest past it
   * (down, up, right or left), as spreadsheets fill one way at a time; a pointer inside the selection fills nothing.
   */
  private dragFill(position: CellPosition): void {
    const { source } = this.filling!;
    const past = {
      down: position.row - source.bottom,
      up: source.top - position.row,
      right: position.column - source.right,
      left: source.left - position.column,
    };
    const [side, distance] = Object.entries(past).reduce((best, entry) => (entry[1] > best[1] ? entry : best));
    const target = { ...source };
    if (distance > 0) {
      if (side === 'down') target.bottom = position.row;
      else if (side === 'up') target.top = position.row;
      else if (side === 'right') target.right = position.column;
      else target.left = position.column;
    }
    this.filling!.target = target;
    const box = this.rangeBox(target);
    this.fillPreview.hidden = distance <= 0;
    Object.assign(this.fillPreview.style, { left: `${box.x}px`, top: `${box.y}px`, width: `${box.width}px`, height: `${box.height}px` });
    this.scrollIntoView(position);
  }

  private contextMenu(event: MouseEvent): void {
    if (!this.options.onContextMenu) return;
    const position = this.positionOf(event.target);
    if (position === undefined || this.editor?.box.contains(event.target as Node)) return;
    event.preventDefault();
    this.focus();
    // a right click outside the selection selects what it is on first (the cell, or the row or column of a header)
    const element = (event.target as HTMLElement).closest('[data-row], [data-column]') as HTMLElement;
    const row = element.dataset.row === undefined ? undefined : Number(element.dataset.row);
    const column = element.dataset.column === undefined ? undefined : Number(element.dataset.column);
    const range = this.selectedRange;
    const inside = (row === undefined || (row >= range.top && row <= range.bottom)) && (column === undefined || (column >= range.left && column <= range.right));
    if (!inside) {
      if (row !== undefined && column !== undefined) this.select({ row, column });
      else if (column !== undefined) this.select({ row: 0, column }, { row: this.options.rowCount() - 1, column });
      else if (row !== undefined) this.select({ row, column: 0 }, { row, column: this.options.columnCount() - 1 });
    }
    this.options.onContextMenu({ x: event.clientX, y: event.clientY });
  }

  private doubleClick(event: MouseEvent): void {
    const { resize, resizeRow } = (event.target as HTMLElement).dataset;
    if (resize !== undefined || resizeRow !== undefined) {
      if (!this.readOnly && resize !== undefined) this.options.onColumnAutoFit?.(Number(resize));
      if (!this.readOnly && resizeRow !== undefined) this.options.onRowAutoFit?.(Number(resizeRow));
      return;
    }
    const position = this.positionOf(event.target);
    if (typeof position !== 'object' || this.editor) return;
    this.select(position);
    this.startEditing();
  }

  private finishEditing(host: CellEditorHost, move?: 'down' | 'up' | 'right' | 'left'): void {
    if (this.editor?.host !== host) return;
    this.closeEditor();
    this.focus();
    if (move === 'down') this.enter();
    else if (move === 'up') this.move(-1, 0, false);
    else if (move === 'right') this.tab(1);
    else if (move === 'left') this.tab(-1);
  }

  private closeEditor(): void {
    if (!this.editor) return;
    const { box } = this.editor;
    this.editor = undefined;
    box.remove();
  }

  /** Clipboard events reach the grid when it has the focus (not while a cell is being edited). */
  private clipboard(event: ClipboardEvent, kind: 'copy' | 'cut' | 'paste'): void {
    if (document.activeElement !== this.element || !event.clipboardData) return;
    const range = this.selectedRange;
    if (kind === 'paste') {
      if (this.readOnly || !this.options.onPaste) return;
      event.preventDefault();
      this.options.onPaste(event.clipboardData.getData('text/plain'), range);
      return;
    }
    if (!this.options.onCopy) return;
    event.preventDefault();
    event.clipboardData.setData('text/plain', this.options.onCopy(range, kind === 'cut'));
    if (kind === 'cut' && !this.readOnly) this.options.onClear?.(range);
  }
}

/**
 * The plain text editor most cells use: an input over the cell. Enter commits and moves down (back to the
 * column a run of Tabs started from), Tab right, Escape cancels; leaving the input commits. A commit answering
 * false was refused (a formula that does not parse): Enter and Tab then keep the input open for fixing.
 */
export function textCellEditor(host: CellEditorHost, options: { initial: string; commit(text: string): boolean | void; input?(text: string): void }): HTMLInputElement {
  const input = document.createElement('input');
  input.className = 'svc-grid-input';
  input.value = host.typed ?? options.initial;
  let done = false;
  const finish = (commit: boolean, move?: 'down' | 'up' | 'right' | 'left') => {
    if (done) return;
    done = true;
    if (commit && options.commit(input.value) === false && move !== undefined) {
      done = false;
      return;
    }
    host.close(move);
  };
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') finish(true, event.shiftKey ? 'up' : 'down');
    else if (event.key === 'Tab') finish(true, event.shiftKey ? 'left' : 'right');
    else if (event.key === 'Escape') {
      // whoever mirrors the typing (the formula bar) shows the content as it was again
      options.input?.(options.initial);
      finish(false);
    }
    else return;
    event.preventDefault();
    event.stopPropagation();
  });
  input.addEventListener('input', () => options.input?.(input.value));
  input.addEventListener('blur', () => finish(true));
  host.element.append(input);
  input.focus();
  input.setSelectionRange(input.value.length, input.value.length);
  return input;
}
