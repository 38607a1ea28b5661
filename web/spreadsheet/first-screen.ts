import { columnLetters } from '../../src/model/sheets/a1.js';
import type { FirstScreen as FirstScreenData } from '../../src/model/sheets/first-screen.js';
import type { ShownValue } from '../../src/model/sheets/layout.js';
import { DEFAULT_COLUMN_WIDTH } from '../../src/model/sheets/sheet-model.js';
import type { EditorContext } from '../shared/editor-context.js';
import { normalizeRange, VirtualGrid, type GridSelection } from '../shared/grid/grid.js';
import type { CellStyle } from '../../src/model/sheets/cell-style.js';
import { drawShown, rangeText, spreadsheetToolbar } from './editor.js';
import { FIRST_SCREEN_MARK } from './marks.js';
import { t } from './messages.js';
import { formulaBar, gridArea, sheetTabs } from './sheet-parts.js';

/** What the editor takes over from the first screen so that nothing moves (same scroll, same selection). */
export interface Handover {
  scroll: { top: number; left: number };
  selection: GridSelection;
  /** false when the user put the focus elsewhere meanwhile (the name box, the host page): the editor leaves it there */
  takeFocus: boolean;
  /** what a cell of the first screen showed, for formula cells until the editor has computed them */
  shown(sheetId: string, row: number, column: number): ShownValue | undefined;
}

/**
 * The spreadsheet's first screen (docs/BROWSER.md "First screen"): while the collaboration session syncs the
 * whole document (seconds for a large file on a busy machine), the page asks the service for what the top of
 * the first sheet shows (`GET /sdk/v2/api/files/{fileId}/sheets/first-screen`, first-screen-request.ts, computed
 * from the document the service keeps decoded) and draws it read-only with the same toolbar, formula bar, grid and tabs as the
 * editor. The editor, once synced, takes its place within one frame (`handOver`). When the sync is done before
 * the answer (a small file), nothing is drawn: the editor is mounted at once, as without the first screen.
 */
export class FirstScreen {
  private root: HTMLElement | undefined;
  private grid: VirtualGrid | undefined;
  private toolbarItems: HTMLElement[] = [];
  private texts = new Map<string, ShownValue>();
  private readonly styles = new Map<string, CellStyle>();
  private sheetId = '';
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
    const grid = this.grid;
    if (!grid || !this.root) return undefined;
    const handover: Handover = {
      scroll: grid.scrollPosition,
      selection: grid.currentSelection,
      takeFocus: !document.hasFocus() || document.activeElement === document.body || grid.element.contains(document.activeElement),
      shown: (sheetId, row, column) => (sheetId === this.sheetId ? this.texts.get(`${row}:${column}`) : undefined),
    };
    grid.destroy();
    this.root.remove();
    for (const item of this.toolbarItems) item.remove();
    this.grid = undefined;
    this.root = undefined;
    return handover;
  }

  private draw(data: FirstScreenData): void {
    const { shell, boot } = this.context;
    this.sheetId = data.sheetId;
    for (const cell of data.cells) {
      this.texts.set(`${cell.row}:${cell.column}`, { value: cell.text, text: cell.text, kind: cell.kind });
      if (cell.style) this.styles.set(`${cell.row}:${cell.column}`, cell.style);
    }
    // the same controls as the editor's, disabled, so that the grid is where the editor's will be
    if (!boot.permissions.editable) shell.showReadOnly(true);
    const toolbar = spreadsheetToolbar({ undo: () => undefined, redo: () => undefined, shift: () => undefined, freeze: () => undefined, format: () => undefined, style: () => undefined, borders: () => undefined, autoSum: () => undefined, merge: () => undefined });
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
    tabs.append(
      ...data.sheets.map((sheet) => {
        const tab = document.createElement('button');
        tab.type = 'button';
        tab.className = 'svc-sheet-tab';
        tab.setAttribute('role', 'tab');
        tab.setAttribute('aria-selected', String(sheet.sheetId === data.sheetId));
        tab.dataset.sheetId = sheet.sheetId;
        tab.textContent = sheet.name;
        return tab;
      }),
    );
    root.append(bar, area, tabs);
    shell.main.append(root);
    this.root = root;

    this.grid = new VirtualGrid(area, {
      label: t('grid.label', { name: data.name }),
      rowCount: () => data.rowCount,
      columnCount: () => data.columnCount,
      columnWidth: (column) => data.columnWidths[column] ?? DEFAULT_COLUMN_WIDTH,
      columnHeader: columnLetters,
      rowHeader: (row) => String(row + 1),
      frozenRows: () => data.frozenRows,
      renderCell: (cell, row, column) => {
        if (row >= data.rows || column >= data.columns) {
          // past what the service sent: known once the document is synced
          cell.classList.add('svc-sheet-pending');
          return;
        }
        const shown = this.texts.get(`${row}:${column}`);
        if (shown) drawShown(cell, shown, this.styles.get(`${row}:${column}`), { above: this.styles.get(`${row - 1}:${column}`), left: this.styles.get(`${row}:${column - 1}`) });
      },
      // the formula bar stays empty: a cell's input (its formula) comes with the document
      onSelectionChange: (selection) => {
        nameBox.value = rangeText(normalizeRange(selection.active, selection.extent));
      },
    });
    this.grid.setReadOnly(true);
  }
}
