import { sheetPanel } from './sheet-panel.js';
import { columnLetters } from '../../src/model/sheets/a1.js';
import { columnValues, currentRegion, filteredRows, filterOf, FILTER_OPERATORS, removeFilter, setColumnFilter, setFilterArea, type ColumnFilter, type FilterOperator } from '../../src/model/sheets/filter.js';
import type { CellArea } from '../../src/model/sheets/sheet-model.js';
import { hiddenOf, setHidden, type HiddenAxis } from '../../src/model/sheets/hidden.js';
import { sortedCells, sortProblem, type SortKey } from '../../src/model/sheets/sort.js';
import type { CellRange, VirtualGrid } from '../shared/grid/grid.js';
import { t } from './messages.js';
import type { SheetValues } from './values.js';
import type { Sheet, Workbook } from './workbook.js';

/** What the sort and filter commands need of the editor. */
export interface SortFilterHost {
  workbook: Workbook;
  values: SheetValues;
  grid(): VirtualGrid;
  /** where the filter panel opens */
  root: HTMLElement;
  sheet(): Sheet;
  editable(): boolean;
  notice(text: string): void;
  /** runs an edit of the workbook; when the workbook refuses it (a lock, a validation rule) the notice says why */
  attempt(edit: () => void): boolean;
}

/** Most values the filter panel lists (a column with more lists its first ones; the condition reaches all). */
const LISTED_VALUES = 1_000;

const areaOf = (range: CellRange): CellArea => ({ startRow: range.top, endRow: range.bottom, startColumn: range.left, endColumn: range.right });
const inside = (area: CellArea, row: number, column: number) => area.startRow <= row && row <= area.endRow && area.startColumn <= column && column <= area.endColumn;

/**
 * Sort and filter in the spreadsheet editor (docs/BROWSER.md "Spreadsheet", docs/SHEETS.md "Sort and filter"): the
 * toolbar's and the menu's Sort A to Z / Z to A and Filter, the ▾ buttons on a filter's header cells and the panel
 * they open (sort, a list of the column's values to keep, a condition). The model is src/model/sheets/sort.ts and
 * filter.ts; every change is one transaction of the editor's origin, so one undo step.
 */
export class SortFilter {
  private hidden: number[] = [];
  private readonly panel: HTMLElement;
  private readonly onOutside = (event: Event) => {
    if (!this.panel.contains(event.target as Node)) this.closePanel();
  };

  constructor(private readonly host: SortFilterHost) {
    this.panel = sheetPanel(host.root, 'svc-sheet-filter-panel', 'dialog', () => this.closePanel());
  }

  /** The rows the active sheet hides (its filter's and the hidden ones), as last computed by `refreshHidden` (the grid reads them). */
  hiddenRows(): readonly number[] {
    return this.hidden;
  }

  /** Computes the hidden rows again (after any change); answers whether they changed, so the grid lays out again. */
  refreshHidden(): boolean {
    const sheet = this.host.sheet();
    const next = [...new Set([...filteredRows(sheet, (row, column) => this.host.values.shown(sheet, row, column)), ...hiddenOf(sheet, 'rows')])].sort((a, b) => a - b);
    const changed = next.length !== this.hidden.length || next.some((row, index) => row !== this.hidden[index]);
    this.hidden = next;
    return changed;
  }

  get hasFilter(): boolean {
    return filterOf(this.host.sheet()) !== undefined;
  }

  /**
   * The area a command from the selection works on: a range as selected, else the filter's area when the cell is
   * in it, else the block of data around the cell.
   */
  private targetArea(): CellArea {
    const range = this.host.grid().selectedRange;
    if (range.top !== range.bottom || range.left !== range.right) return areaOf(range);
    const sheet = this.host.sheet();
    const filter = filterOf(sheet);
    if (filter && inside(filter.area, range.top, range.left)) return filter.area;
    return currentRegion(sheet, range.top, range.left);
  }

  /**
   * Whether an area's first row is a header: it is the filter's header row, or it holds only text while the row
   * under it holds something else (a number, a date, a boolean) in some column, as spreadsheet programs guess.
   */
  private hasHeader(area: CellArea): boolean {
    const sheet = this.host.sheet();
    const filter = filterOf(sheet);
    if (filter && filter.area.startRow === area.startRow && filter.area.startColumn <= area.startColumn && area.endColumn <= filter.area.endColumn) return true;
    if (area.startRow === area.endRow) return false;
    let allText = true;
    let belowDiffers = false;
    for (let column = area.startColumn; column <= area.endColumn; column++) {
      const first = this.host.values.shown(sheet, area.startRow, column).kind;
      const second = this.host.values.shown(sheet, area.startRow + 1, column).kind;
      if (first !== 'text' && first !== 'empty') allText = false;
      if (first === 'text' && second !== 'text' && second !== 'empty') belowDiffers = true;
    }
    return allText && belowDiffers;
  }

  /** Sorts the target area by the active cell's column (ascending, or descending), its header kept on top. */
  sort(descending: boolean, column = this.host.grid().currentSelection.active.column, area = this.targetArea()): void {
    if (!this.host.editable()) return;
    const sheet = this.host.sheet();
    const keys: SortKey[] = [{ column, descending }];
    const problem = sortProblem(sheet, area, keys);
    if (problem) {
      this.host.notice(t(`sort.${problem}`));
      return;
    }
    const header = this.hasHeader(area);
    this.host.values.compute();
    // refused whole when it moves a value into a cell whose stop rule refuses it, as the values API's sort is
    const written = sortedCells(sheet, area, keys, header, (row, c) => this.host.values.shown(sheet, row, c));
    this.host.attempt(() => this.host.workbook.writeCells(sheet, written));
  }

  /** Puts a filter on the target area (its first row the header), or takes the sheet's filter away. */
  toggleFilter(): void {
    if (!this.host.editable()) return;
    const sheet = this.host.sheet();
    const { workbook } = this.host;
    if (filterOf(sheet)) workbook.doc.transact(() => removeFilter(sheet), workbook.origin);
    else {
      const area = this.targetArea();
      if (area.startRow === area.endRow && area.startColumn === area.endColumn && this.host.values.shown(sheet, area.startRow, area.startColumn).kind === 'empty') {
        this.host.notice(t('filter.noData'));
        return;
      }
      workbook.doc.transact(() => setFilterArea(sheet, area), workbook.origin);
    }
  }

  /** Adds the ▾ button to a header cell of the filter (drawn with the cell). */
  decorate(cell: HTMLElement, row: number, column: number): void {
    const filter = filterOf(this.host.sheet());
    if (!filter || row !== filter.area.startRow || column < filter.area.startColumn || column > filter.area.endColumn) return;
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'svc-sheet-filter-button';
    const active = filter.columns.has(column);
    if (active) button.classList.add('svc-sheet-filter-active');
    // the glyph is drawn by CSS, so the cell's text stays what the cell shows (for readers and tests alike)
    button.setAttribute('aria-label', t('filter.column', { column: columnLetters(column) }));
    button.addEventListener('pointerdown', (event) => event.stopPropagation());
    button.addEventListener('click', (event) => {
      event.stopPropagation();
      this.openPanel(column, button);
    });
    cell.classList.add('svc-sheet-filter-header');
    cell.append(button);
  }

  /** Opens the filter panel of one column under its ▾ button. */
  openPanel(column: number, anchor: HTMLElement): void {
    const sheet = this.host.sheet();
    const filter = filterOf(sheet);
    if (!filter) return;
    const current: ColumnFilter | undefined = filter.columns.get(column);
    const readOnly = !this.host.editable();
    this.panel.setAttribute('aria-label', t('filter.column', { column: columnLetters(column) }));

    const sortButton = (label: string, descending: boolean) => {
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'svc-sheet-filter-sort';
      button.textContent = label;
      button.disabled = readOnly;
      button.addEventListener('click', () => {
        this.closePanel();
        this.sort(descending, column, filter.area);
      });
      return button;
    };

    const values = columnValues(sheet, column, (row, c) => this.host.values.shown(sheet, row, c), LISTED_VALUES);
    const list = document.createElement('div');
    list.className = 'svc-sheet-filter-values';
    list.setAttribute('role', 'group');
    list.setAttribute('aria-label', t('filter.values'));
    const boxes: Array<[string, HTMLInputElement]> = [];
    const checkbox = (label: string, checked: boolean) => {
      const row = document.createElement('label');
      const box = document.createElement('input');
      box.type = 'checkbox';
      box.checked = checked;
      row.append(box, document.createTextNode(label));
      list.append(row);
      return box;
    };
    const all = checkbox(t('filter.selectAll'), !current?.values);
    for (const value of values) boxes.push([value, checkbox(value === '' ? t('filter.blanks') : value, !current?.values || current.values.includes(value))]);
    all.addEventListener('change', () => boxes.forEach(([, box]) => (box.checked = all.checked)));
    // "(Select all)" says what the list holds: checked when every value is, mixed when only some are
    const reflectAll = () => {
      const checked = boxes.filter(([, box]) => box.checked).length;
      all.checked = checked === boxes.length;
      all.indeterminate = checked > 0 && checked < boxes.length;
    };
    for (const [, box] of boxes) box.addEventListener('change', reflectAll);
    reflectAll();

    const operator = document.createElement('select');
    operator.setAttribute('aria-label', t('filter.condition'));
    for (const op of ['', ...FILTER_OPERATORS] as const) {
      const option = document.createElement('option');
      option.value = op;
      option.textContent = t(op === '' ? 'filter.op.none' : `filter.op.${op}`);
      operator.append(option);
    }
    operator.value = current?.condition?.op ?? '';
    const operand = document.createElement('input');
    operand.type = 'text';
    operand.setAttribute('aria-label', t('filter.conditionValue'));
    operand.value = current?.condition ? String(current.condition.value) : '';
    const condition = document.createElement('div');
    condition.className = 'svc-sheet-filter-condition';
    condition.append(operator, operand);

    const action = (label: string, run: () => void, primary = false) => {
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = label;
      button.disabled = readOnly && primary;
      if (primary) button.className = 'svc-sheet-filter-apply';
      button.addEventListener('click', run);
      return button;
    };
    const apply = () => {
      const kept = boxes.filter(([, box]) => box.checked).map(([value]) => value);
      const next: ColumnFilter = {};
      if (kept.length < boxes.length) next.values = kept;
      const op = operator.value as FilterOperator | '';
      if (op !== '') {
        const text = operand.value.trim();
        next.condition = { op, value: text !== '' && Number.isFinite(Number(text)) && !['contains', 'notContains', 'beginsWith', 'endsWith'].includes(op) ? Number(text) : operand.value.slice(0, 255) };
      }
      this.setColumn(column, next.values || next.condition ? next : undefined);
      this.closePanel();
    };
    const actions = document.createElement('div');
    actions.className = 'svc-sheet-filter-actions';
    actions.append(action(t('filter.clear'), () => (this.setColumn(column, undefined), this.closePanel()), true), action(t('filter.cancel'), () => this.closePanel()), action(t('filter.apply'), apply, true));

    const sorts = document.createElement('div');
    sorts.className = 'svc-sheet-filter-sorts';
    sorts.append(sortButton(t('sort.ascending'), false), sortButton(t('sort.descending'), true));
    this.panel.replaceChildren(sorts, list, condition, actions);
    this.panel.hidden = false;
    const origin = this.host.root.getBoundingClientRect();
    const at = anchor.getBoundingClientRect();
    this.panel.style.left = `${Math.max(0, Math.min(at.right - origin.left - this.panel.offsetWidth, origin.width - this.panel.offsetWidth - 4))}px`;
    this.panel.style.top = `${Math.max(0, Math.min(at.bottom - origin.top + 2, origin.height - this.panel.offsetHeight - 4))}px`;
    (boxes[0]?.[1] ?? all).focus();
    document.addEventListener('pointerdown', this.onOutside, true);
  }

  /**
   * Hides the selected rows or columns, or shows again the hidden ones inside the selection (select across hidden
   * rows to unhide them, as in the desktop programs). One undo step.
   */
  setHidden(axis: HiddenAxis, hidden: boolean): void {
    if (!this.host.editable()) return;
    const range = this.host.grid().selectedRange;
    const sheet = this.host.sheet();
    const [start, end] = axis === 'rows' ? [range.top, range.bottom] : [range.left, range.right];
    const size = axis === 'rows' ? sheet.rowCount : sheet.columnCount;
    // the whole sheet never hides: one row (column) stays
    if (hidden && end - start + 1 >= size) {
      this.host.notice(t('hide.all'));
      return;
    }
    const { workbook } = this.host;
    workbook.doc.transact(() => setHidden(sheet, axis, start, end, hidden), workbook.origin);
  }

  private setColumn(column: number, filter: ColumnFilter | undefined): void {
    if (!this.host.editable()) return;
    const sheet = this.host.sheet();
    const { workbook } = this.host;
    workbook.doc.transact(() => setColumnFilter(sheet, column, filter), workbook.origin);
  }

  closePanel(): void {
    if (this.panel.hidden) return;
    this.panel.hidden = true;
    document.removeEventListener('pointerdown', this.onOutside, true);
    this.host.grid().focus();
  }
}
