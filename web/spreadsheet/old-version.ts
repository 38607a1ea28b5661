import type * as Y from 'yjs';
import { columnLetters } from '../../src/model/sheets/a1.js';
import { upgradeSpreadsheet } from '../../src/model/sheets/sheet-model.js';
import { VirtualGrid } from '../shared/grid/grid.js';
import type { VersionRenderer } from '../shared/panels/history/old-version-view.js';
import { drawValue, shownTsv } from './editor.js';
import { t } from './messages.js';
import { gridArea, sheetTab, sheetTabs } from './sheet-parts.js';
import { SheetValues } from './values.js';
import { DEFAULT_COLUMN_WIDTH, Workbook, type Sheet } from './workbook.js';

/** Old versions of a spreadsheet, for the history panel's `OldVersionView`. */
export const spreadsheetVersions: VersionRenderer = (doc, page) => {
  // a revision stored before the grid model's current version is shown as the server converts it
  upgradeSpreadsheet(doc);
  return new OldWorkbookView(doc, page);
};

/**
 * A recorded workbook drawn read-only: the shared grid over its cells, with its sheet tabs, each cell showing
 * what it showed then (formulas computed by the shared engine over the old document, values under their
 * number formats), through the same model and value code as the live editor. The grid has no cell editor and
 * no paste, clear or resize callbacks, so nothing here writes (Ctrl+C copies what the cells show, as in the live
 * grid); the document is a copy the view owns.
 */
class OldWorkbookView {
  private readonly workbook: Workbook;
  private readonly values: SheetValues;
  private readonly grid: VirtualGrid;
  private readonly tabs: HTMLElement;
  private sheet: Sheet | undefined;

  constructor(doc: Y.Doc, page: HTMLElement) {
    // nothing is written: the origin only satisfies the model class
    this.workbook = new Workbook(doc, { editor: 'spreadsheet-old-version' });
    this.values = new SheetValues(this.workbook);
    this.values.compute();
    this.sheet = this.workbook.list()[0];
    const area = gridArea();
    this.tabs = sheetTabs();
    page.append(area, this.tabs);
    this.grid = new VirtualGrid(area, {
      label: this.label(),
      rowCount: () => (this.sheet ? this.workbook.rowCount(this.sheet) : 1),
      columnCount: () => (this.sheet ? this.workbook.columnCount(this.sheet) : 1),
      columnWidth: (column) => (this.sheet ? this.workbook.columnWidth(this.sheet, column) : DEFAULT_COLUMN_WIDTH),
      columnHeader: columnLetters,
      rowHeader: (row) => String(row + 1),
      frozenRows: () => (this.sheet ? this.workbook.frozenRows(this.sheet) : 0),
      drawing: (draw) => this.workbook.keepingReads(draw),
      renderCell: (cell, row, column) => {
        if (this.sheet) drawValue(cell, this.values, this.sheet, row, column);
      },
      // copying what the old cells showed is reading; cut's clearing half has no callback here
      onCopy: (range) => (this.sheet ? shownTsv(this.workbook, this.values, this.sheet, range) : ''),
    });
    this.grid.setReadOnly(true);
    this.renderTabs();
  }

  destroy(): void {
    this.grid.destroy();
    this.tabs.remove();
  }

  private label(): string {
    return t('grid.label', { name: this.sheet ? this.workbook.nameOf(this.sheet) : '' });
  }

  private activate(sheet: Sheet): void {
    this.sheet = sheet;
    this.grid.element.setAttribute('aria-label', this.label());
    this.grid.invalidateLayout();
    this.grid.select({ row: 0, column: 0 });
    this.renderTabs();
  }

  private renderTabs(): void {
    this.tabs.replaceChildren(
      ...this.workbook.list().map((sheet) =>
        sheetTab(this.workbook.idOf(sheet), this.workbook.nameOf(sheet), sheet === this.sheet, () => {
          if (sheet !== this.sheet) this.activate(sheet);
        }),
      ),
    );
  }
}
