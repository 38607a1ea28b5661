import * as Y from 'yjs';
import { columnLetters, formatA1, parseA1 } from '../../src/model/sheets/a1.js';
import type { EditorContext } from '../shared/editor-context.js';
import { GROWING_CELL_CLASS, normalizeRange, textCellEditor, VirtualGrid, type CellRange, type GridHighlight } from '../shared/grid/grid.js';
import { formatDelimited, parseDelimited } from '../../src/model/sheets/delimited.js';
import { t as shellText } from '../shared/i18n/index.js';
import { toolButton } from '../shared/tool-button.js';
import type { Cell } from '../../src/model/content.js';
import { LockControls } from './locks.js';
import { ContextMenu, type MenuItem } from './context-menu.js';
import { FormatPicker } from './format-picker.js';
import { FormulaAssist } from './formula-assist.js';
import { t } from './messages.js';
import { formulaBar, gridArea, sheetTab, sheetTabs } from './sheet-parts.js';
import { selectionNumbers, StatusBar } from './status-bar.js';
import { StyleBar } from './style-bar.js';
import { SortFilter, type SortFilterHost } from './sort-filter.js';
import { DataValidationUi } from './data-validation.js';
import { RowHeightDialog } from './row-height.js';
import { fittedColumnWidth } from './column-fit.js';
import { ConditionalFormats } from './conditional-formats.js';
import { SheetCharts } from './charts.js';
import { hiddenOf } from '../../src/model/sheets/hidden.js';
import { borderSidesCss, type CellStyle, type StylePatch } from '../../src/model/sheets/cell-style.js';
import { SheetValues, type ShownValue } from './values.js';
import { clearLook, setLook } from './cell-look.js';
import { Workbook, WorkbookError, type BorderPreset, type Sheet } from './workbook.js';
import { afterUndoStep, observeSheets, type SheetChanges } from '../../src/model/sheets/sheet-model.js';
import './spreadsheet.css';

/** What the toolbar's controls do; the first screen (first-screen.ts) draws them with none, disabled. */
export interface ToolbarActions {
  undo(): void;
  redo(): void;
  shift(axis: 'row' | 'column', direction: 1 | -1): void;
  freeze(): void;
  format(code: string | null): void;
  style(patch: StylePatch): void;
  borders(preset: BorderPreset): void;
  autoSum(): void;
  merge(): void;
  sort(descending: boolean): void;
  filter(): void;
  validation(): void;
  conditionalFormats(): void;
  /** opens the chart types under the toolbar's Insert chart button */
  chart(button: HTMLElement): void;
}

/** The spreadsheet's toolbar controls, in order. */
export function spreadsheetToolbar(actions: ToolbarActions): { items: HTMLElement[]; freezeButton: HTMLButtonElement; filterButton: HTMLButtonElement; formatPicker: FormatPicker; styleBar: StyleBar } {
  const freezeButton = toolButton(t('toolbar.freeze'), '❄', () => actions.freeze());
  freezeButton.setAttribute('aria-pressed', 'false');
  // pressed while the sheet has a filter, as Excel's Filter button is
  const filterButton = toolButton(t('toolbar.filter'), '▽', () => actions.filter());
  filterButton.setAttribute('aria-pressed', 'false');
  const chartButton: HTMLButtonElement = toolButton(t('toolbar.chart'), '▥', () => actions.chart(chartButton));
  chartButton.setAttribute('aria-haspopup', 'menu');
  const formatPicker = new FormatPicker((code) => actions.format(code));
  const styleBar = new StyleBar(
    (patch) => actions.style(patch),
    (preset) => actions.borders(preset),
  );
  const items = [
    toolButton(shellText('toolbar.undo'), '↶', () => actions.undo()),
    toolButton(shellText('toolbar.redo'), '↷', () => actions.redo()),
    toolButton(t('toolbar.insertRow'), '+⇡', () => actions.shift('row', 1)),
    toolButton(t('toolbar.deleteRow'), '−⇡', () => actions.shift('row', -1)),
    toolButton(t('toolbar.insertColumn'), '+⇠', () => actions.shift('column', 1)),
    toolButton(t('toolbar.deleteColumn'), '−⇠', () => actions.shift('column', -1)),
    freezeButton,
    formatPicker.element,
    ...styleBar.elements,
    toolButton(t('toolbar.merge'), '⊞', () => actions.merge()),
    toolButton(t('toolbar.autoSum'), 'Σ', () => actions.autoSum()),
    toolButton(t('toolbar.sortAscending'), 'A↓Z', () => actions.sort(false)),
    toolButton(t('toolbar.sortDescending'), 'Z↓A', () => actions.sort(true)),
    filterButton,
    toolButton(t('validation.title'), '☑', () => actions.validation()),
    toolButton(t('condfmt.open'), '▤', () => actions.conditionalFormats()),
    chartButton,
  ];
  return { items, freezeButton, filterButton, formatPicker, styleBar };
}

/**
 * Draws what a cell shows into the grid's cell: its text, a class by its kind, its style (docs/SHEETS.md "Cell
 * styles") and an error's reason as tooltip. The grid resets the classes of a cell it redraws, not its inline
 * style: the colours are set (or emptied) on every draw.
 */
export function drawValue(cell: HTMLElement, values: SheetValues, sheet: Sheet, row: number, column: number): void {
  const shown = values.shown(sheet, row, column);
  const style = (r: number, c: number) => (r < 0 || c < 0 ? undefined : values.workbook.style(sheet, r, c));
  drawShown(cell, shown, style(row, column), { above: style(row - 1, column), left: style(row, column - 1) });
  if (shown.kind === 'error') {
    // why the cell shows its error: a formula that does not parse, or an array blocked from spilling
    const problem = values.problem(sheet, row, column) ?? (shown.value === '#SPILL!' && values.spillBlocked(sheet, row, column) ? t('spill.blocked') : undefined);
    if (problem) cell.title = problem;
  }
}

/** The largest font size (points) whose text fits a default row's line: larger ones grow their row. */
const LARGEST_ONE_LINE_FONT = 12;

/**
 * Draws a shown value with its style into a grid cell (the editor's grids and the first screen draw alike).
 * `neighbours`: the styles of the cells above and left, whose bottom and right borders are this cell's top and left
 * lines (drawn once, by them, where the grid line is).
 */
export function drawShown(cell: HTMLElement, shown: ShownValue, style: CellStyle | undefined, neighbours: { above?: CellStyle; left?: CellStyle } = {}): void {
  // the text node of the cell drawn there before takes the new text (a node less to build), unless the cell holds more
  const only = cell.firstChild;
  if (only instanceof Text && only === cell.lastChild) only.data = shown.text;
  else cell.textContent = shown.text;
  clearLook(cell);
  if (shown.kind !== 'empty' && shown.kind !== 'text') cell.classList.add(`svc-sheet-${shown.kind}`);
  if (style?.b) cell.classList.add('svc-sheet-bold');
  if (style?.i) cell.classList.add('svc-sheet-italic');
  if (style?.a) cell.classList.add(`svc-sheet-align-${style.a}`);
  if (style?.bg) cell.classList.add('svc-sheet-filled');
  if (style?.c) setLook(cell, 'color', style.c);
  if (style?.bg) setLook(cell, '--svc-cell-fill', style.bg);
  // names and sizes passed the model's check (cell-style.ts): letters, digits, spaces, dots, dashes; 1-409 points
  if (style?.ff) setLook(cell, 'font-family', `"${style.ff}"`);
  if (style?.fs) setLook(cell, 'font-size', `${style.fs}pt`);
  if (style?.w) cell.classList.add('svc-sheet-wrap');
  // wrapped text and fonts above a default row's line grow the row to fit (unless it has a height of its own)
  if (shown.kind !== 'empty' && (style?.w || (style?.fs ?? 0) > LARGEST_ONE_LINE_FONT)) cell.classList.add(GROWING_CELL_CLASS);
  // a cell's right and bottom borders take the place of its grid lines; its top and left ones are drawn inside it,
  // unless the cell above (left) draws that line as its bottom (right) border already (a cell without a style has none)
  if (!style) return;
  const shared = { ...style, bt: neighbours.above?.bb ? undefined : style.bt, bl: neighbours.left?.br ? undefined : style.bl };
  const borders = borderSidesCss(shared);
  if (borders.length > 0) {
    cell.classList.add('svc-sheet-bordered');
    for (const [side, css] of borders) setLook(cell, `--svc-border-${side}`, css);
  }
}

/** The rectangle from A1 to the last row and column holding data (A1 alone for an empty sheet). */
export function usedRangeOf(workbook: Workbook, sheet: Sheet): CellRange {
  const extent = sheet.extent();
  return { top: 0, left: 0, bottom: extent?.lastRow ?? 0, right: extent?.lastColumn ?? 0 };
}

/** The range as TSV of what the cells show (the clipboard's copy), cut to the sheet's data: a whole column copies its used part. */
export function shownTsv(workbook: Workbook, values: SheetValues, sheet: Sheet, range: CellRange): string {
  const used = usedRangeOf(workbook, sheet);
  const bottom = Math.min(range.bottom, used.bottom);
  const right = Math.min(range.right, used.right);
  const rows: string[][] = [];
  for (let row = range.top; row <= bottom; row++) {
    const line: string[] = [];
    for (let column = range.left; column <= right; column++) line.push(values.shown(sheet, row, column).text);
    rows.push(line);
  }
  return formatDelimited(rows, '\t', '\n');
}

/** Text with its line ends as `\n` (a clipboard may hand back `\r\n`). */
function normalizeLines(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(/\n$/, '');
}

/** `A1` for one cell, `A1:C3` for a range (no sheet name). */
export function rangeText(range: CellRange): string {
  return formatA1({ sheetName: null, startRow: range.top, endRow: range.bottom, startColumn: range.left, endColumn: range.right });
}

/**
 * The spreadsheet editor: sheet tabs, a formula bar and the virtualised grid over the active sheet, bound to
 * the file's Yjs document (see workbook.ts). Local changes carry this editor's origin; the undo manager tracks
 * that origin only, so Ctrl+Z undoes this user's changes and never a collaborator's.
 */
export class SpreadsheetEditor {
  readonly workbook: Workbook;
  readonly values: SheetValues;
  readonly grid: VirtualGrid;
  readonly undo: Y.UndoManager;
  readonly root: HTMLElement;
  /** the row above the grid: cell address, formula input; editors may add controls at its end */
  readonly formulaBar: HTMLElement;
  private readonly nameBox: HTMLInputElement;
  private readonly formulaInput: HTMLInputElement;
  private readonly tabs: HTMLElement;
  private readonly notice: HTMLElement;
  private readonly freezeButton: HTMLButtonElement;
  private readonly filterButton: HTMLButtonElement;
  private readonly formatPicker: FormatPicker;
  private readonly styleBar: StyleBar;
  private readonly statusBar = new StatusBar();
  private activeId: string;
  private editable: boolean;
  private noticeTimer = 0;
  private readonly selectionListeners = new Set<() => void>();
  private redrawFrame = 0;
  private cellMarker: ((row: number, column: number) => boolean) | undefined;
  private structureChanged = false;
  /** what this editor copied last: pasting the same text here pastes the cells themselves, formulas moved (not their values) */
  private copied: { text: string; cells: Array<Array<Cell | undefined>>; top: number; left: number; cut: boolean } | undefined;
  private readonly assist: FormulaAssist;
  private readonly menu: ContextMenu;
  private readonly sortFilter: SortFilter;
  private readonly validation: DataValidationUi;
  private readonly rowHeightDialog: RowHeightDialog;
  private readonly conditionalFormats: ConditionalFormats;
  readonly locks: LockControls;
  private readonly charts: SheetCharts;
  /** the active sheet's hidden columns, read again when the layout changes */
  private hiddenColumns = new Set<number>();
  /** the array spilling around the active cell, outlined (outlineSpill) */
  private spill: { top: number; left: number; bottom: number; right: number } | undefined;

  constructor(private readonly context: EditorContext) {
    const origin = { editor: 'spreadsheet', user: context.boot.user.id };
    this.workbook = new Workbook(context.session.doc, origin, context.boot.user.id);
    this.locks = new LockControls(this.workbook, document.body, { id: context.boot.user.id, manageable: context.boot.permissions.manageable });
    this.values = new SheetValues(this.workbook);
    this.workbook.validationContext = (sheet) => this.values.validationContext(sheet);
    // a change here is one whole user action (a cell confirmed, a paste, a row inserted), so each is its own undo
    // step, as in other spreadsheet programs; merging changes close in time undid a quick user's earlier cells too
    this.undo = new Y.UndoManager(this.workbook.sheets, { trackedOrigins: new Set([origin]), captureTimeout: 0 });
    // rows and columns an undo brings back are new Yjs items: their cells follow them (an untracked origin)
    this.undo.on('stack-item-popped', ({ stackItem }) => afterUndoStep(this.workbook.doc, stackItem, { editor: 'spreadsheet', revive: true }));
    this.editable = context.boot.permissions.editable;
    this.activeId = this.workbook.list()[0]?.id ?? '';

    this.root = document.createElement('div');
    this.root.className = 'svc-sheet';
    const { bar, nameBox, formulaInput } = formulaBar();
    this.formulaBar = bar;
    this.nameBox = nameBox;
    this.formulaInput = formulaInput;
    this.notice = document.createElement('div');
    this.notice.className = 'svc-sheet-notice';
    this.notice.setAttribute('role', 'alert');
    this.notice.hidden = true;
    const area = gridArea();
    this.tabs = sheetTabs();
    // the status bar shares the tabs' row, so the grid has the height of the first screen's (first-screen.ts)
    const footer = document.createElement('div');
    footer.className = 'svc-sheet-footer';
    footer.append(this.tabs, this.statusBar.element);
    this.root.append(bar, this.notice, area, footer);
    context.shell.main.append(this.root);

    // before the grid, which draws cells (with their filter buttons) as it is built
    const panelHost: SortFilterHost = {
      workbook: this.workbook,
      values: this.values,
      grid: () => this.grid,
      root: this.root,
      sheet: () => this.sheet,
      editable: () => this.editable,
      notice: (text) => this.showNotice(text),
      attempt: (edit) => this.attempt(edit),
    };
    this.sortFilter = new SortFilter(panelHost);
    this.validation = new DataValidationUi({ ...panelHost, setInput: (row, column, text) => this.setInput(row, column, text) });
    this.conditionalFormats = new ConditionalFormats(panelHost);
    this.grid = new VirtualGrid(area, {
      label: t('grid.label', { name: this.workbook.nameOf(this.sheet) }),
      rowCount: () => this.workbook.rowCount(this.sheet),
      columnCount: () => this.workbook.columnCount(this.sheet),
      columnWidth: (column) => this.workbook.columnWidth(this.sheet, column),
      columnHidden: (column) => this.hiddenColumns.has(column),
      columnHeader: columnLetters,
      rowHeader: (row) => String(row + 1),
      frozenRows: () => this.workbook.frozenRows(this.sheet),
      merges: () => this.sheet.merges().map((area) => ({ top: area.startRow, left: area.startColumn, bottom: area.endRow, right: area.endColumn })),
      hiddenRows: () => this.sortFilter.hiddenRows(),
      rowHeights: () => this.sheet.rowHeights(),
      drawing: (draw) => this.workbook.keepingReads(draw),
      renderCell: (cell, row, column) => {
        drawValue(cell, this.values, this.sheet, row, column);
        this.conditionalFormats.decorate(cell, row, column);
        this.drawImage(cell, row, column);
        this.sortFilter.decorate(cell, row, column);
        this.validation.decorate(cell, row, column);
        if (this.cellMarker?.(row, column)) cell.classList.add('svc-sheet-commented');
        this.locks.decorate(cell, this.sheet, row, column);
        this.outlineSpill(cell, row, column);
      },
      editCell: (host) => {
        // a protected cell does not open for typing: the notice says why, as Excel's does
        const cell = { top: host.row, left: host.column, bottom: host.row, right: host.column };
        if (!this.attempt(() => this.workbook.checkEditable(this.sheet, cell))) return host.close();
        return this.assist.attach(
          this.dismissFormulaNoticeOnEscape(
            textCellEditor(host, {
              initial: this.workbook.input(this.sheet, host.row, host.column),
              commit: (text) => this.setInput(host.row, host.column, text),
              input: (text) => {
                this.formulaInput.value = text;
              },
            }),
          ),
        );
      },
      onSelectionChange: () => this.selectionChanged(),
      onCopy: (range, cut) => this.copy(range, cut),
      onPaste: (text, range) => this.paste(text, range),
      onClear: (range) => this.attempt(() => this.workbook.clear(this.sheet, range)),
      onColumnResize: (column, width) => this.attempt(() => this.workbook.setColumnWidth(this.sheet, column, width)),
      onColumnAutoFit: (column) => this.attempt(() => this.workbook.setColumnWidth(this.sheet, column, fittedColumnWidth(this.values, this.sheet, column, this.grid))),
      onRowResize: (row, height) => this.setRowHeights(row, height),
      onRowAutoFit: (row) => this.setRowHeights(row, undefined),
      onFill: (source, target) => this.attempt(() => this.workbook.fill(this.sheet, source, target)),
      onContextMenu: (at) => this.openMenu(at),
    });
    this.assist = new FormulaAssist(this.root);
    this.menu = new ContextMenu(this.root, t('menu.label'));
    this.rowHeightDialog = new RowHeightDialog({
      root: this.root,
      shownHeight: () => this.grid.rowHeight(this.grid.selectedRange.top),
      apply: (height) => this.setRowHeights(this.grid.selectedRange.top, height),
      closed: () => this.grid.focus(),
    });
    this.charts = new SheetCharts({
      workbook: this.workbook,
      values: this.values,
      grid: () => this.grid,
      sheet: () => this.sheet,
      editable: () => this.editable,
      notice: (text) => this.showNotice(text),
    });

    const toolbar = spreadsheetToolbar({
      undo: () => this.editable && this.undo.undo(),
      redo: () => this.editable && this.undo.redo(),
      shift: (axis, direction) => this.shiftSelected(axis, direction),
      // as Excel's Freeze Panes, for rows: those above the selection stay in view (the first row when the selection is in
      // row 1); pressed again, the sheet scrolls whole
      freeze: () => this.attempt(() => this.workbook.setFrozenRows(this.sheet, this.workbook.frozenRows(this.sheet) ? 0 : Math.max(1, this.grid.selectedRange.top))),
      format: (code) => {
        this.attempt(() => this.workbook.setFormat(this.sheet, this.grid.selectedRange, code));
        this.selectionChanged();
        this.grid.focus();
      },
      style: (patch) => {
        this.attempt(() => this.workbook.setStyle(this.sheet, this.grid.selectedRange, patch));
        this.selectionChanged();
        this.grid.focus();
      },
      borders: (preset) => {
        this.attempt(() => this.workbook.setBorders(this.sheet, this.grid.selectedRange, preset));
        this.grid.focus();
      },
      autoSum: () => this.autoSum(),
      merge: () => this.toggleMerge(),
      sort: (descending) => {
        this.sortFilter.sort(descending);
        this.grid.focus();
      },
      filter: () => {
        this.sortFilter.toggleFilter();
        this.grid.focus();
      },
      validation: () => this.validation.openDialog(),
      conditionalFormats: () => this.conditionalFormats.open(),
      chart: (button) => {
        const below = button.getBoundingClientRect();
        this.menu.open({ x: below.left, y: below.bottom }, this.charts.menuItems(), this.grid.element);
      },
    });
    this.freezeButton = toolbar.freezeButton;
    this.filterButton = toolbar.filterButton;
    this.formatPicker = toolbar.formatPicker;
    this.styleBar = toolbar.styleBar;
    context.shell.toolbar.append(...toolbar.items);

    this.bindFormulaBar();
    this.assist.attach(this.formulaInput);
    this.root.addEventListener('keydown', (event) => this.shortcut(event));
    observeSheets(this.workbook.doc, (changes) => this.changed(changes));
    this.setEditable(this.editable);
    // TODAY() and NOW() move with the clock
    window.setInterval(() => {
      if (!this.values.recalculateClock()) return;
      this.conditionalFormats.cellsChanged([], this.values.takeRecomputed());
      this.grid.refresh();
    }, 60_000);
    this.hiddenColumns = new Set(hiddenOf(this.sheet, 'columns'));
    if (this.sortFilter.refreshHidden() || this.hiddenColumns.size > 0) this.grid.invalidateLayout();
    this.charts.refresh();
    // a sheet opened with frozen rows or a filter shows Freeze and Filter pressed from the start
    this.showSheetToggles();
    this.selectionChanged();
  }

  /** Draws the cells again once formulas are computed (a filter on computed values may hide other rows then). */
  valuesComputed(): void {
    this.conditionalFormats.invalidate();
    if (this.sortFilter.refreshHidden()) this.grid.invalidateLayout();
    else this.grid.refresh();
    this.charts.refresh();
  }

  /** The active sheet (the first one if the active one was deleted meanwhile). */
  /** A cell's image (docs/SHEETS.md "Images in cells") as a thumbnail fitted to the row's height, before its value. */
  private drawImage(cell: HTMLElement, row: number, column: number): void {
    const guid = this.workbook.image(this.sheet, row, column);
    const src = guid === undefined ? undefined : this.context.api.attachmentUrlOf(guid);
    if (src === undefined) return;
    const image = document.createElement('img');
    image.className = 'svc-sheet-image';
    image.src = src;
    image.alt = '';
    image.draggable = false;
    cell.prepend(image);
  }

  get sheet(): Sheet {
    const active = this.workbook.byId(this.activeId);
    if (active) return active;
    const first = this.workbook.list()[0];
    if (!first) throw new WorkbookError('noSheet', 'the spreadsheet has no sheets');
    this.activeId = this.workbook.idOf(first);
    return first;
  }

  get activeSheetId(): string {
    return this.workbook.idOf(this.sheet);
  }

  get isEditable(): boolean {
    return this.editable;
  }

  setEditable(editable: boolean): void {
    this.editable = editable;
    this.grid.setReadOnly(!editable);
    this.formulaInput.readOnly = !editable;
    this.formatPicker.disabled = !editable;
    this.styleBar.disabled = !editable;
    this.root.classList.toggle('svc-sheet-read-only', !editable);
    this.renderTabs();
    this.charts.refresh();
  }

  activate(sheet: Sheet): void {
    this.activeId = this.workbook.idOf(sheet);
    this.sortFilter.refreshHidden();
    this.validation.refresh();
    this.conditionalFormats.invalidate();
    this.hiddenColumns = new Set(hiddenOf(sheet, 'columns'));
    this.grid.element.setAttribute('aria-label', t('grid.label', { name: this.workbook.nameOf(sheet) }));
    this.grid.invalidateLayout();
    this.charts.clear();
    this.charts.refresh();
    this.grid.select({ row: 0, column: 0 });
    this.renderTabs();
    this.showSheetToggles();
  }

  /** The toolbar's Freeze and Filter buttons pressed as the active sheet has frozen rows, a filter. */
  private showSheetToggles(): void {
    this.freezeButton.setAttribute('aria-pressed', String(this.workbook.frozenRows(this.sheet) > 0));
    this.filterButton.setAttribute('aria-pressed', String(this.sortFilter.hasFilter));
  }

  /** Called after the selection or the active sheet changed. */
  onSelection(listener: () => void): void {
    this.selectionListeners.add(listener);
  }

  /** Marks cells of the active sheet (a comment there): `marked` is asked for every cell drawn. */
  setCellMarker(marked: (row: number, column: number) => boolean): void {
    this.cellMarker = marked;
    this.grid.refresh();
  }

  /** Collaborators' selections on the active sheet. */
  setHighlights(highlights: GridHighlight[]): void {
    this.grid.setHighlights(highlights);
  }

  /** Runs an edit; a refusal of the model becomes a message over the grid, never an exception in the page. */
  attempt(edit: () => void): boolean {
    if (!this.editable) return false;
    try {
      edit();
      return true;
    } catch (error) {
      if (!(error instanceof WorkbookError)) throw error;
      const { detail } = error;
      this.showNotice(detail ? t(`error.${error.reason}`, { cell: detail.cell, message: detail.message || t('validation.invalid') }) : t(`error.${error.reason}`));
      return false;
    }
  }

  showNotice(text: string): void {
    this.notice.textContent = text;
    this.notice.hidden = false;
    window.clearTimeout(this.noticeTimer);
    this.noticeTimer = window.setTimeout(() => {
      this.notice.hidden = true;
    }, 6000);
  }

  /**
   * Escape cancels the typing: the notice of a refused formula, which says to press Escape, goes with it (it would
   * otherwise stay over the grid for its seconds while the user already moved on).
   */
  private dismissFormulaNoticeOnEscape(input: HTMLInputElement): HTMLInputElement {
    input.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') this.hideFormulaNotice();
    });
    return input;
  }

  private hideFormulaNotice(): void {
    if (this.notice.hidden || this.notice.textContent !== t('error.formula')) return;
    window.clearTimeout(this.noticeTimer);
    this.notice.hidden = true;
  }

  /** Stores typed text in a cell; false when it was refused (the notice says why), the typing then kept for fixing. */
  setInput(row: number, column: number, text: string): boolean {
    if (!this.validation.accepts(row, column, text)) return false;
    const stored = this.attempt(() => this.workbook.setInput(this.sheet, row, column, text));
    // the formula fixed, the notice about it has said its piece
    if (stored) this.hideFormulaNotice();
    return stored;
  }

  /** The range's text for the clipboard (what the cells show); the cells themselves are kept for a paste in this editor. */
  copy(range: CellRange, cut = false): string {
    const text = shownTsv(this.workbook, this.values, this.sheet, range);
    const used = usedRangeOf(this.workbook, this.sheet);
    const kept = { ...range, bottom: Math.min(range.bottom, used.bottom), right: Math.min(range.right, used.right) };
    this.copied = { text, cells: this.workbook.cellsOf(this.sheet, kept), top: range.top, left: range.left, cut };
    return text;
  }

  /**
   * Pastes clipboard text at the selection. Text this editor copied last pastes the copied cells (formulas with
   * their relative references moved by the distance, formats and styles with them; a cut's formulas unmoved, once),
   * as in spreadsheets; any other text is read as typing (docs/SHEETS.md "Copying and filling formulas").
   */
  paste(text: string, range: CellRange): void {
    const copied = this.copied;
    if (copied && normalizeLines(text) === normalizeLines(copied.text)) {
      const moved = copied.cut ? undefined : { rows: range.top - copied.top, columns: range.left - copied.left };
      if (copied.cut) this.copied = undefined;
      if (this.attempt(() => this.workbook.pasteCells(this.sheet, range.top, range.left, copied.cells, moved))) {
        const width = copied.cells.reduce((widest, line) => Math.max(widest, line.length), 1);
        this.grid.select({ row: range.top, column: range.left }, { row: range.top + Math.max(copied.cells.length, 1) - 1, column: range.left + width - 1 });
      }
      return;
    }
    const block = parseDelimited(text, '\t');
    if (block.length === 0) return;
    if (this.attempt(() => this.workbook.setBlock(this.sheet, range.top, range.left, block))) {
      const width = block.reduce((widest, line) => Math.max(widest, line.length), 1);
      this.grid.select({ row: range.top, column: range.left }, { row: range.top + block.length - 1, column: range.left + width - 1 });
    }
  }

  usedRange(sheet: Sheet): CellRange {
    return usedRangeOf(this.workbook, sheet);
  }

  /** Inserts (+1) as many rows or columns as are selected before the selection, or deletes (-1) the selected ones. */
  private shiftSelected(axis: 'row' | 'column', direction: 1 | -1): void {
    const { top, bottom, left, right } = this.grid.selectedRange;
    const [at, count] = axis === 'row' ? [top, bottom - top + 1] : [left, right - left + 1];
    this.attempt(() => this.workbook.shift(this.sheet, axis, at, direction * count));
  }

  /**
   * AutoSum (the toolbar's Σ, Alt+=): on one cell, starts editing it with a SUM of the numbers right above it (else
   * right left of it), for the user to confirm with Enter or change; on a range, writes the SUM of each of its columns
   * in the row under it.
   */
  autoSum(): void {
    if (!this.editable) return;
    const range = this.grid.selectedRange;
    if (range.top === range.bottom && range.left === range.right) {
      this.grid.focus();
      this.grid.startEditing(`=SUM(${this.sumArea(range.top, range.left)})`);
      return;
    }
    const sums: string[] = [];
    for (let column = range.left; column <= range.right; column++) {
      sums.push(`=SUM(${rangeText({ top: range.top, bottom: range.bottom, left: column, right: column })})`);
    }
    if (this.attempt(() => this.workbook.setBlock(this.sheet, range.bottom + 1, range.left, [sums]))) {
      this.grid.select({ row: range.bottom + 1, column: range.left }, { row: range.bottom + 1, column: range.right });
    }
  }

  /** The run of numbers right above (else left of) a cell, in A1; '' when there is none. */
  private sumArea(row: number, column: number): string {
    const isNumber = (r: number, c: number) => this.values.shown(this.sheet, r, c).kind === 'number';
    let top = row;
    while (top > 0 && isNumber(top - 1, column)) top--;
    if (top < row) return rangeText({ top, bottom: row - 1, left: column, right: column });
    let left = column;
    while (left > 0 && isNumber(row, left - 1)) left--;
    return left < column ? rangeText({ top: row, bottom: row, left, right: column - 1 }) : '';
  }

  /** Ctrl+D (down: the top row over the selection, or the cell above into one cell) and Ctrl+R (right, likewise). */
  private fillSelection(direction: 'down' | 'right'): void {
    const range = this.grid.selectedRange;
    const target = { ...range };
    if (direction === 'down') {
      if (range.top === range.bottom) target.top = range.top - 1;
      if (target.top < 0) return;
      this.attempt(() => this.workbook.fill(this.sheet, { ...target, bottom: target.top }, target));
    } else {
      if (range.left === range.right) target.left = range.left - 1;
      if (target.left < 0) return;
      this.attempt(() => this.workbook.fill(this.sheet, { ...target, right: target.left }, target));
    }
  }

  /** Merges the selection, or splits the merges in it when it holds some (the toolbar's merge button toggles). */
  private toggleMerge(): void {
    const range = this.grid.selectedRange;
    if (this.workbook.hasMerge(this.sheet, range)) this.attempt(() => this.workbook.unmerge(this.sheet, range));
    else if (range.top !== range.bottom || range.left !== range.right) this.attempt(() => this.workbook.merge(this.sheet, range));
    this.grid.focus();
  }

  /** The right-click menu's commands over the selection. */
  /**
   * Sets the height of `row` (undefined: back to its content), or of every selected row when `row` is one of them,
   * as Excel resizes all the selected rows by one's edge.
   */
  private setRowHeights(row: number, height: number | undefined): void {
    const { top, bottom } = this.grid.selectedRange;
    const [from, to] = row >= top && row <= bottom ? [top, bottom] : [row, row];
    this.attempt(() => this.workbook.setRowHeight(this.sheet, from, to, height));
  }

  private openMenu(at: { x: number; y: number }): void {
    const range = this.grid.selectedRange;
    const readOnly = !this.editable;
    const merged = this.workbook.hasMerge(this.sheet, range);
    const single = range.top === range.bottom && range.left === range.right;
    const items: MenuItem[] = [
      { label: t('menu.cut'), shortcut: 'Ctrl+X', disabled: readOnly, run: () => this.clipboardCommand('cut') },
      { label: t('menu.copy'), shortcut: 'Ctrl+C', run: () => this.clipboardCommand('copy') },
      { label: t('menu.paste'), shortcut: 'Ctrl+V', disabled: readOnly, run: () => this.clipboardCommand('paste') },
      { label: t('toolbar.insertRow'), separator: true, disabled: readOnly, run: () => this.shiftSelected('row', 1) },
      { label: t('toolbar.insertColumn'), disabled: readOnly, run: () => this.shiftSelected('column', 1) },
      { label: t('toolbar.deleteRow'), disabled: readOnly, run: () => this.shiftSelected('row', -1) },
      { label: t('toolbar.deleteColumn'), disabled: readOnly, run: () => this.shiftSelected('column', -1) },
      { label: merged ? t('menu.unmerge') : t('menu.merge'), separator: true, disabled: readOnly || (single && !merged), run: () => this.toggleMerge() },
      { label: t('sort.ascending'), separator: true, disabled: readOnly, run: () => this.sortFilter.sort(false) },
      { label: t('sort.descending'), disabled: readOnly, run: () => this.sortFilter.sort(true) },
      { label: t('toolbar.filter'), disabled: readOnly, run: () => this.sortFilter.toggleFilter() },
      { label: t('hide.rows'), separator: true, disabled: readOnly, run: () => this.sortFilter.setHidden('rows', true) },
      { label: t('hide.columns'), disabled: readOnly, run: () => this.sortFilter.setHidden('columns', true) },
      { label: t('hide.unhideRows'), disabled: readOnly, run: () => this.sortFilter.setHidden('rows', false) },
      { label: t('hide.unhideColumns'), disabled: readOnly, run: () => this.sortFilter.setHidden('columns', false) },
      { label: t('rowHeight.menu'), disabled: readOnly, run: () => this.rowHeightDialog.open() },
      { label: t('validation.menu'), separator: true, disabled: readOnly, run: () => this.validation.openDialog() },
      { label: t('condfmt.menu'), run: () => this.conditionalFormats.open() },
      { label: t('menu.clear'), shortcut: 'Delete', separator: true, disabled: readOnly, run: () => this.attempt(() => this.workbook.clear(this.sheet, range)) },
      ...(readOnly ? [] : this.locks.menuItems(this.sheet, range, () => this.context.session.collaborators(), () => this.grid.focus())),
    ];
    this.menu.open(at, items, this.grid.element);
  }

  /**
   * Cut, copy and paste from the menu, through the asynchronous clipboard (a menu click is no clipboard event). A
   * page refused the clipboard still copies and pastes within this editor, and says to use the keys for the rest.
   */
  private clipboardCommand(kind: 'cut' | 'copy' | 'paste'): void {
    const range = this.grid.selectedRange;
    if (kind === 'paste') {
      navigator.clipboard.readText().then(
        (text) => this.paste(text, range),
        () => (this.copied ? this.paste(this.copied.text, range) : this.showNotice(t('menu.clipboardRefused'))),
      );
      return;
    }
    const text = this.copy(range, kind === 'cut');
    if (kind === 'cut') this.attempt(() => this.workbook.clear(this.sheet, range));
    navigator.clipboard.writeText(text).catch(() => this.showNotice(t('menu.clipboardRefused')));
  }

  private shortcut(event: KeyboardEvent): void {
    if (this.grid.editing || event.target !== this.grid.element) return;
    if (event.altKey && !event.ctrlKey && !event.metaKey && event.key === '=') {
      event.preventDefault();
      this.autoSum();
      return;
    }
    if (!(event.ctrlKey || event.metaKey)) return;
    const key = event.key.toLowerCase();
    if ((key === 'd' || key === 'r') && !event.shiftKey && !event.altKey) {
      if (this.editable) this.fillSelection(key === 'd' ? 'down' : 'right');
    } else if (key === 'z' && !event.shiftKey) {
      if (this.editable) this.undo.undo();
    } else if (key === 'y' || (key === 'z' && event.shiftKey)) {
      if (this.editable) this.undo.redo();
    } else if ((key === 'b' || key === 'i') && !event.shiftKey && !event.altKey) {
      if (this.editable) this.styleBar.toggle(key);
    } else return;
    event.preventDefault();
  }

  private bindFormulaBar(): void {
    const revert = () => {
      const { active } = this.grid.currentSelection;
      this.formulaInput.value = this.workbook.input(this.sheet, active.row, active.column);
    };
    this.formulaInput.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') {
        const { active } = this.grid.currentSelection;
        // a formula that does not parse is refused: the formula bar keeps it for fixing, as Excel does
        if (!this.setInput(active.row, active.column, this.formulaInput.value)) {
          event.preventDefault();
          return;
        }
        this.grid.focus();
        this.grid.select({ row: active.row + 1, column: active.column });
      } else if (event.key === 'Escape') {
        revert();
        this.hideFormulaNotice();
        this.grid.focus();
      } else return;
      event.preventDefault();
    });
    this.formulaInput.addEventListener('blur', revert);
    this.nameBox.addEventListener('keydown', (event) => {
      if (event.key !== 'Enter') return;
      event.preventDefault();
      this.locate(this.nameBox.value);
      this.grid.focus();
    });
  }

  /** Selects a range given in A1 (`B2`, `A1:C3`, `Sheet2!B2`); answers the range selected, or undefined when it is not one. */
  locate(text: string): { sheetId: string; range: string } | undefined {
    const target = this.resolveRange(text);
    if (!target) return undefined;
    if (this.workbook.idOf(target.sheet) !== this.activeId) this.activate(target.sheet);
    this.grid.select({ row: target.range.top, column: target.range.left }, { row: target.range.bottom, column: target.range.right });
    return { sheetId: this.activeId, range: rangeText(this.grid.selectedRange) };
  }

  /** An A1 text as a sheet and a rectangle inside its grid, or undefined when it names nothing there. */
  resolveRange(text: string): { sheet: Sheet; range: CellRange } | undefined {
    return resolveA1(this.workbook, this.sheet, text);
  }

  /**
   * Draws the thin outline of the array spilling around the active cell (Excel's blue frame of a dynamic array) on
   * the cells of its edges; other cells get none (a redraw resets it).
   */
  private outlineSpill(cell: HTMLElement, row: number, column: number): void {
    const area = this.spill;
    const inside = area && row >= area.top && row <= area.bottom && column >= area.left && column <= area.right;
    const edges: string[] = [];
    if (inside) {
      if (row === area.top) edges.push('inset 0 1px 0 var(--svc-spill-outline)');
      if (row === area.bottom) edges.push('inset 0 -1px 0 var(--svc-spill-outline)');
      if (column === area.left) edges.push('inset 1px 0 0 var(--svc-spill-outline)');
      if (column === area.right) edges.push('inset -1px 0 0 var(--svc-spill-outline)');
    }
    cell.classList.toggle('svc-sheet-spill', Boolean(inside));
    if (edges.length > 0) setLook(cell, 'box-shadow', edges.join(', '));
  }

  /** Whether the outlined spill area changed with the selection or a recalculation (then the grid redraws). */
  private updateSpillOutline(): boolean {
    const { active } = this.grid.currentSelection;
    const area = this.values.spillAround(this.sheet, active.row, active.column);
    const same = JSON.stringify(area) === JSON.stringify(this.spill);
    this.spill = area;
    return !same;
  }

  private selectionChanged(): void {
    if (this.updateSpillOutline()) this.grid.refresh();
    const selection = this.grid.currentSelection;
    const range = normalizeRange(selection.active, selection.extent);
    this.nameBox.value = rangeText(range);
    if (document.activeElement !== this.formulaInput) this.formulaInput.value = this.workbook.input(this.sheet, selection.active.row, selection.active.column);
    this.formatPicker.show(this.workbook.format(this.sheet, selection.active.row, selection.active.column));
    this.styleBar.show(this.workbook.style(this.sheet, selection.active.row, selection.active.column));
    this.summarizeSelection();
    for (const listener of this.selectionListeners) listener();
  }

  /**
   * Notes a change of the document and redraws once in the next frame: a burst of transactions (a remote
   * sync, a large paste) costs one redraw, and the formula engine, which observes the document too, has seen
   * every change by then whatever the order the observers run in.
   */
  private changed(changes: SheetChanges): void {
    // a cell of another sheet can change what a formula here shows: a cells-only change redraws, never re-lays out
    this.structureChanged ||= changes.layout;
    if (changes.layout) this.locks.invalidate();
    else this.conditionalFormats.cellsChanged(changes.cells, []);
    if (this.redrawFrame) return;
    this.redrawFrame = requestAnimationFrame(() => {
      this.redrawFrame = 0;
      this.values.flush();
      this.validation.refresh();
      // a change of rules or of rows and columns reads the rules' areas again; a change of cells, those cells
      const recomputed = this.values.takeRecomputed();
      if (this.structureChanged) this.conditionalFormats.invalidate();
      else this.conditionalFormats.cellsChanged([], recomputed);
      this.updateSpillOutline();
      // a filter hides rows by what cells show: a change of a cell can hide or show a row
      const structural = this.sortFilter.refreshHidden() || this.structureChanged;
      if (this.structureChanged) this.hiddenColumns = new Set(hiddenOf(this.sheet, 'columns'));
      this.structureChanged = false;
      if (!this.workbook.byId(this.activeId)) this.activate(this.sheet);
      else if (structural) this.grid.invalidateLayout();
      else this.grid.refresh();
      if (structural) this.renderTabs();
      this.charts.refresh();
      this.showSheetToggles();
      const { active } = this.grid.currentSelection;
      if (document.activeElement !== this.formulaInput) this.formulaInput.value = this.workbook.input(this.sheet, active.row, active.column);
      // a collaborator's or an undone change of the active cell's look shows on the toolbar too
      this.formatPicker.show(this.workbook.format(this.sheet, active.row, active.column));
      this.styleBar.show(this.workbook.style(this.sheet, active.row, active.column));
      this.summarizeSelection();
    });
  }

  /** Sum, Average and Count of the selection's numbers in the status bar (nothing for a single cell). */
  private summarizeSelection(): void {
    const range = this.grid.selectedRange;
    const single = range.top === range.bottom && range.left === range.right;
    this.statusBar.show(single ? undefined : selectionNumbers(this.values, this.sheet, range));
  }

  private renderTabs(): void {
    const sheets = this.workbook.list();
    const items: HTMLElement[] = sheets.map((sheet, index) => {
      const id = this.workbook.idOf(sheet);
      const tab = sheetTab(id, this.workbook.nameOf(sheet), id === this.activeId, () => {
        const current = this.workbook.byId(id);
        if (current && id !== this.activeId) this.activate(current);
      });
      tab.addEventListener('dblclick', () => this.rename(id));
      if (this.editable) {
        tab.draggable = true;
        tab.addEventListener('dragstart', (event) => event.dataTransfer?.setData('application/x-svc-sheet', id));
        tab.addEventListener('dragover', (event) => event.preventDefault());
        tab.addEventListener('drop', (event) => {
          event.preventDefault();
          const dragged = event.dataTransfer?.getData('application/x-svc-sheet');
          const sheetToMove = dragged ? this.workbook.byId(dragged) : undefined;
          if (sheetToMove) this.attempt(() => this.workbook.moveSheet(sheetToMove, index));
        });
      }
      return tab;
    });
    if (this.editable) {
      const active = () => this.workbook.byId(this.activeId);
      const move = (by: number) => {
        const sheet = active();
        if (sheet) this.attempt(() => this.workbook.moveSheet(sheet, this.workbook.list().indexOf(sheet) + by));
      };
      items.push(
        toolButton(t('tabs.add'), '+', () => {
          this.attempt(() => this.activate(this.workbook.addSheet(this.workbook.nextSheetName(t('tabs.newName')))));
        }),
        toolButton(t('tabs.rename'), '✎', () => this.rename(this.activeId)),
        toolButton(t('tabs.moveLeft'), '◀', () => move(-1)),
        toolButton(t('tabs.moveRight'), '▶', () => move(1)),
        toolButton(t('tabs.delete'), '✕', () => {
          const sheet = active();
          if (sheet && window.confirm(t('tabs.deleteConfirm', { name: this.workbook.nameOf(sheet) }))) this.attempt(() => this.workbook.deleteSheet(sheet));
        }),
      );
    }
    this.tabs.replaceChildren(...items);
  }

  private rename(id: string): void {
    const sheet = this.workbook.byId(id);
    if (!sheet || !this.editable) return;
    const name = window.prompt(t('tabs.renamePrompt'), this.workbook.nameOf(sheet));
    if (name === null) return;
    if (this.attempt(() => this.workbook.renameSheet(sheet, name)) && id === this.activeId) {
      this.grid.element.setAttribute('aria-label', t('grid.label', { name }));
    }
  }
}

/** An A1 text as a sheet and a rectangle inside its grid (whole rows and columns cut to it); `fallback` when it names no sheet. */
export function resolveA1(workbook: Workbook, fallback: Sheet, text: string): { sheet: Sheet; range: CellRange } | undefined {
  let parsed;
  try {
    parsed = parseA1(text);
  } catch {
    return undefined;
  }
  const sheet = parsed.sheetName === null ? fallback : workbook.byName(parsed.sheetName);
  if (!sheet) return undefined;
  const lastRow = workbook.rowCount(sheet) - 1;
  const lastColumn = workbook.columnCount(sheet) - 1;
  if (parsed.startRow > lastRow || parsed.startColumn > lastColumn) return undefined;
  return {
    sheet,
    range: { top: parsed.startRow, left: parsed.startColumn, bottom: Math.min(parsed.endRow, lastRow), right: Math.min(parsed.endColumn, lastColumn) },
  };
}
