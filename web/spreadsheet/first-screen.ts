import { columnLetters } from '../../src/model/sheets/a1.js';
import type { FirstScreen as FirstScreenData } from '../../src/model/sheets/first-screen.js';
import { EMPTY_SHOWN, type ShownValue } from '../../src/model/sheets/layout.js';
import { DEFAULT_COLUMN_WIDTH } from '../../src/model/sheets/sheet-model.js';
import type { EditorContext } from '../shared/editor-context.js';
import { normalizeRange, VirtualGrid, type GridSelection } from '../shared/grid/grid.js';
import type { CellStyle } from '../../src/model/sheets/cell-style.js';
import type { ConditionalLook } from '../../src/model/sheets/conditional-formats.js';
import { drawConditionalLook } from './conditional-formats.js';
import { drawShown, rangeText, spreadsheetToolbar } from './editor.js';
import { writeModeOf } from '../shared/shell.js';
import { FIRST_SCREEN_MARK } from './marks.js';
import { t } from './messages.js';
import { requestFirstScreen } from './first-screen-request.js';
import { formulaBar, gridArea, sheetTab, sheetTabs } from './sheet-parts.js';

/** What the editor takes over from the first screen so that nothing moves (same sheet, same scroll, same selection). */
export interface Handover {
  /** the sheet whose tab the user picked last (the first sheet unless they picked another): the editor opens it */
  sheetId: string;
  scroll: { top: number; left: number };
  selection: GridSelection;
  /** false when the user put the focus elsewhere meanwhile (the name box, the host page): the editor leaves it there */
  takeFocus: boolean;
  /** what a cell of the first screen showed, for formula cells until the editor has computed them */
  shown(sheetId: string, row: number, column: number): ShownValue | undefined;
}

/** One sheet's answer from the service, with its cells by `row:column` to draw them. */
interface ShownSheet {
  data: FirstScreenData;
  texts: Map<string, ShownValue>;
  looks: Map<string, ConditionalLook>;
  /** the style a covered cell shows: a listed cell's own, else its row's, else its column's */
  styleAt(row: number, column: number): CellStyle | undefined;
}

function shownSheet(data: FirstScreenData): ShownSheet {
  const texts = new Map<string, ShownValue>();
  const styles = new Map<string, CellStyle>();
  const looks = new Map<string, ConditionalLook>();
  for (const cell of data.cells) {
    if (cell.look) looks.set(`${cell.row}:${cell.column}`, cell.look);
    texts.set(`${cell.row}:${cell.column}`, { value: cell.text, text: cell.text, kind: cell.kind });
    if (cell.style) styles.set(`${cell.row}:${cell.column}`, cell.style);
  }
  const rowStyles = new Map(data.rowStyles.map(({ row, style }) => [row, style]));
  const columnStyles = new Map(data.columnStyles.map(({ column, style }) => [column, style]));
  const styleAt = (row: number, column: number) => {
    const key = `${row}:${column}`;
    return texts.has(key) ? styles.get(key) : (rowStyles.get(row) ?? columnStyles.get(column));
  };
  return { data, texts, looks, styleAt };
}

/**
 * The spreadsheet's first screen (docs/BROWSER.md "First screen"): while the collaboration session syncs the
 * whole document (seconds for a large file on a busy machine), the page asks the service for what the top of
 * the first sheet shows (`GET /sdk/v2/api/files/{fileId}/sheets/first-screen`, first-screen-request.ts, computed
 * from the document the service keeps decoded) and draws it read-only with the same toolbar, formula bar, grid and tabs as the
 * editor. A click on another tab asks the service the same way for that sheet's top and draws it in the same
 * grid; sheets already fetched are drawn again at once. The editor, once synced, takes its place within one
 * frame (`handOver`), on the sheet picked last. When the sync is done before the answer (a small file), nothing
 * is drawn: the editor is mounted at once, as without the first screen.
 */
export class FirstScreen {
  private root: HTMLElement | undefined;
  private grid: VirtualGrid | undefined;
  private area: HTMLElement | undefined;
  private tabs: HTMLElement | undefined;
  private toolbarItems: HTMLElement[] = [];
  /** every sheet the service answered for, by sheet id */
  private readonly fetched = new Map<string, ShownSheet>();
  /** the sheet drawn in the grid */
  private current: ShownSheet | undefined;
  /** the sheet whose tab the user picked last: drawn once its answer is in */
  private pickedId = '';
  private abandoned = false;

  constructor(private readonly context: EditorContext) {}

  /** Draws the first screen once the service's answer (requestFirstScreen) is in; resolves true once it is on screen, false when it was not drawn. */
  async show(answer: Promise<FirstScreenData | undefined>): Promise<boolean> {
    const data = await answer;
    if (!data || this.abandoned) return false;
    this.draw(data);
    await new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
    performance.mark(FIRST_SCREEN_MARK);
    return !this.abandoned;
  }

  /** Removes the first screen (if drawn) and answers what the editor needs to show the same; afterwards nothing is drawn. */
  handOver(): Handover | undefined {
    this.abandoned = true;
    const { grid, root, current } = this;
    if (!grid || !root || !current) return undefined;
    // a picked sheet whose answer has not come yet opens at its top-left corner, as a tab click in the editor does
    const onPicked = current.data.sheetId === this.pickedId;
    const focused = document.activeElement;
    const handover: Handover = {
      sheetId: this.pickedId,
      scroll: onPicked ? grid.scrollPosition : { top: 0, left: 0 },
      selection: onPicked ? grid.currentSelection : { active: { row: 0, column: 0 }, extent: { row: 0, column: 0 } },
      takeFocus: !document.hasFocus() || focused === document.body || grid.element.contains(focused) || this.tabs?.contains(focused) === true,
      shown: (sheetId, row, column) => this.fetched.get(sheetId)?.texts.get(`${row}:${column}`),
    };
    grid.destroy();
    root.remove();
    for (const item of this.toolbarItems) item.remove();
    this.grid = undefined;
    this.root = undefined;
    this.area = undefined;
    this.tabs = undefined;
    return handover;
  }

  private draw(data: FirstScreenData): void {
    const { shell, boot } = this.context;
    const sheet = shownSheet(data);
    this.fetched.set(data.sheetId, sheet);
    this.current = sheet;
    this.pickedId = data.sheetId;
    // the same controls as the editor's, disabled, so that the grid is where the editor's will be
    shell.showWriteMode(writeModeOf(boot.permissions, boot.fileType));
    const toolbar = spreadsheetToolbar({ undo: () => undefined, redo: () => undefined, shift: () => undefined, freeze: () => undefined, format: () => undefined, style: () => undefined, borders: () => undefined, autoSum: () => undefined, merge: () => undefined, sort: () => undefined, filter: () => undefined, validation: () => undefined, conditionalFormats: () => undefined, chart: () => undefined });
    toolbar.formatPicker.disabled = true;
    toolbar.styleBar.disabled = true;
    for (const item of toolbar.items) if (item instanceof HTMLButtonElement) item.disabled = true;
    this.toolbarItems = toolbar.items;
    shell.toolbar.append(...toolbar.items);

    const root = document.createElement('div');
    root.className = 'svc-sheet svc-sheet-first-screen';
    const { bar, nameBox, formulaInput: formula } = formulaBar();
    nameBox.readOnly = true;
    nameBox.value = 'A1';
    formula.readOnly = true;
    const area = gridArea();
    const tabs = sheetTabs();
    root.append(bar, area, tabs);
    shell.main.append(root);
    this.root = root;
    this.area = area;
    this.tabs = tabs;
    this.drawTabs(data.sheets);

    this.grid = new VirtualGrid(area, {
      label: t('grid.label', { name: data.name }),
      // the sheet drawn now: its answer's size, widths and cells (switchTo replaces it)
      rowCount: () => this.drawn.data.rowCount,
      columnCount: () => this.drawn.data.columnCount,
      columnWidth: (column) => this.drawn.data.columnWidths[column] ?? DEFAULT_COLUMN_WIDTH,
      columnHeader: columnLetters,
      rowHeader: (row) => String(row + 1),
      frozenRows: () => this.drawn.data.frozenRows,
      rowHeights: () => new Map(this.drawn.data.rowHeights.map(({ row, height }) => [row, height])),
      renderCell: (cell, row, column) => {
        const { data: shown, texts, looks, styleAt } = this.drawn;
        if (row >= shown.rows || column >= shown.columns) {
          // past what the service sent: known once the document is synced (what the element showed before goes:
          // the grid draws its elements again as the cells scrolled to)
          drawShown(cell, EMPTY_SHOWN, undefined);
          cell.classList.add('svc-sheet-pending');
          return;
        }
        // an empty cell of a styled row or column shows the line's style (a fill, borders); every cell is drawn,
        // as a reused row's element still shows what was drawn there before
        drawShown(cell, texts.get(`${row}:${column}`) ?? EMPTY_SHOWN, styleAt(row, column), { above: styleAt(row - 1, column), left: styleAt(row, column - 1) });
        drawConditionalLook(cell, looks.get(`${row}:${column}`));
      },
      // the formula bar stays empty: a cell's input (its formula) comes with the document
      onSelectionChange: (selection) => {
        nameBox.value = rangeText(normalizeRange(selection.active, selection.extent));
      },
    });
    this.grid.setReadOnly(true);
  }

  private get drawn(): ShownSheet {
    if (!this.current) throw new Error('the first screen has no sheet drawn');
    return this.current;
  }

  /** The tabs of the answer's sheets, the picked one selected; a click on another asks for its first screen. */
  private drawTabs(sheets: FirstScreenData['sheets']): void {
    this.tabs?.replaceChildren(
      ...sheets.map((sheet) => sheetTab(sheet.sheetId, sheet.name, sheet.sheetId === this.pickedId, () => void this.pick(sheet))),
    );
  }

  /** Shows the sheet of a clicked tab: at once if fetched before, else once the service has answered for it. */
  private async pick(sheet: { sheetId: string; name: string }): Promise<void> {
    if (this.abandoned || sheet.sheetId === this.pickedId) return;
    this.pickedId = sheet.sheetId;
    for (const tab of this.tabs?.children ?? []) if (tab instanceof HTMLElement) tab.setAttribute('aria-selected', String(tab.dataset.sheetId === sheet.sheetId));
    const known = this.fetched.get(sheet.sheetId);
    if (known) {
      this.root?.removeAttribute('aria-busy');
      this.switchTo(known);
      return;
    }
    // the grid is dimmed (spreadsheet.css) while it still shows another sheet than the picked one
    this.root?.setAttribute('aria-busy', 'true');
    const data = await requestFirstScreen(this.context.api, this.context.boot, this.area ?? this.context.shell.main, sheet.name);
    // another tab picked meanwhile, or the editor came: this answer is no longer wanted
    if (this.abandoned || this.pickedId !== sheet.sheetId) return;
    this.root?.removeAttribute('aria-busy');
    if (!data || data.sheetId !== sheet.sheetId) {
      // refused (renamed or deleted by someone meanwhile): the sheet drawn stays, its tab selected again
      const drawn = this.current;
      if (drawn) {
        this.pickedId = drawn.data.sheetId;
        this.drawTabs(drawn.data.sheets);
      }
      return;
    }
    const fetched = shownSheet(data);
    this.fetched.set(data.sheetId, fetched);
    this.drawTabs(data.sheets);
    this.switchTo(fetched);
  }

  /** Draws another sheet in the grid, from its top-left corner, as the editor's tabs do. */
  private switchTo(sheet: ShownSheet): void {
    this.current = sheet;
    const grid = this.grid;
    if (!grid) return;
    grid.element.setAttribute('aria-label', t('grid.label', { name: sheet.data.name }));
    grid.invalidateLayout();
    grid.scrollTo({ top: 0, left: 0 });
    grid.select({ row: 0, column: 0 });
  }
}
