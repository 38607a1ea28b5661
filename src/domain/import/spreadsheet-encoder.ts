import * as Y from 'yjs';
import { MAX_COLUMNS, MAX_ROWS } from '../../model/sheets/a1.js';
import { DEFAULT_COLUMN_COUNT, DEFAULT_ROW_COUNT, newSheet, sheetsOf, type Cell } from '../../model/content.js';
import { DEFAULT_COLUMN_WIDTH, directEncoding, SheetModel, type CellArea } from '../../model/sheets/sheet-model.js';
import { ConversionError, importedColumnStyles, type ImportedColumns, type ImportedFrozenPane, type ImportedProtectedRange, type ReadCell, type WorkbookSink } from './conversion.js';
import { setHidden } from '../../model/sheets/hidden.js';
import { sheetOrder, uniqueNames } from './workbook.js';
import { applyImportedFilter, type ImportedFilter } from '../../model/sheets/filter.js';
import { applyImportedValidations, type ImportedValidation } from '../../model/sheets/data-validation.js';
import { applyImportedConditionalRules, type ConditionalRule } from '../../model/sheets/conditional-formats.js';
import { MAX_LOCKS_PER_SHEET, setLock, xlsxRangeLock, xlsxSheetLock } from '../../model/sheets/locks.js';
import { MAX_CHARTS_PER_SHEET, putChart, type SheetChart } from '../../model/sheets/charts.js';
import type { CellStyle } from '../../model/sheets/cell-style.js';

/**
 * A sheet's imported column widths and hidden columns, for its `columnCount` columns only: a file's `<col>` often
 * spans every column to the last (16,384) to give them one width, which the grid would never show. A width equal
 * to the default is not stored (the column has it anyway). Their styles are written by id, with the row styles.
 */
function applyImportedColumns(model: SheetModel, columns: readonly ImportedColumns[], columnCount: number): void {
  for (const { startColumn, endColumn, width, hidden } of columns) {
    const last = Math.min(endColumn, columnCount - 1);
    if (startColumn > last) continue;
    if (hidden) setHidden(model, 'columns', startColumn, last, true);
    if (width === undefined || width === DEFAULT_COLUMN_WIDTH) continue;
    for (let column = startColumn; column <= last; column++) model.setColumnWidth(column, width);
  }
}

/**
 * A sheet's rows hidden in the file, hidden by hand (docs/SHEETS.md "Hidden rows and columns"), except those its
 * filter hides: Excel marks both alike, and a row the model's filter hides must come back when the filter is
 * cleared. A filter the import kept no criterion of hides nothing, so its rows are hidden by hand, keeping the look.
 * Rows past the sheet's `rowCount` are left out, as columns past its columns are.
 */
function applyImportedHiddenRows(model: SheetModel, rows: readonly number[], rowCount: number, filter: ImportedFilter | undefined): void {
  const filtered = (row: number) => filter !== undefined && filter.columns.length > 0 && row > filter.area.startRow && row <= filter.area.endRow;
  for (const row of rows) if (row < rowCount && !filtered(row)) setHidden(model, 'rows', row, row, true);
}

/** Yjs' content references of ContentString and ContentAny (a JSON value), and the info bit saying a map key (parentSub) follows. */
const CONTENT_STRING = 4;
const CONTENT_ANY = 8;
const HAS_PARENT_SUB = 0b0010_0000;

/** A sheet's map as the spreadsheet stores it, with no rows or columns yet: the encoder writes them as one run each. */
function sheetMap(name: string): Y.Map<unknown> {
  return newSheet(name, undefined, 0, 0);
}

type Parents = ReturnType<typeof directEncoding.parents>;

/**
 * Where the n-th sheet inserted into a fresh document gets its rows, columns and blocks: clock `first + n ×
 * stride` of the document's client (each the same offset from the others). A sheet map's items do not depend on
 * its values (each key is one item of length one, the sequences empty), so the ids are known before the sheet's
 * name or size is; finish() checks them against the document it builds.
 */
const PARENT_CLOCKS = (() => {
  const doc = new Y.Doc();
  sheetsOf(doc).push([sheetMap('a')]);
  sheetsOf(doc).insert(0, [sheetMap('b')]);
  const first = directEncoding.parents(sheetsOf(doc).get(1));
  const stride = directEncoding.parents(sheetsOf(doc).get(0)).rows.clock - first.rows.clock;
  doc.destroy();
  return { rows: first.rows.clock, columns: first.columns.clock, blocks: first.blocks.clock, stride };
})();

function predictedParents(client: number, sheetIndex: number): Parents {
  const shift = sheetIndex * PARENT_CLOCKS.stride;
  return {
    rows: Y.createID(client, PARENT_CLOCKS.rows + shift),
    columns: Y.createID(client, PARENT_CLOCKS.columns + shift),
    blocks: Y.createID(client, PARENT_CLOCKS.blocks + shift),
  };
}

/** The struct of a run of `length` rows or columns: one ContentString item, the sequence's first. */
function axisRun(parent: Y.ID, length: number): Uint8Array {
  const encoder = new Y.UpdateEncoderV1();
  encoder.writeInfo(CONTENT_STRING);
  encoder.writeParentInfo(false);
  encoder.writeLeftID(parent);
  encoder.writeString(directEncoding.axisCharacter.repeat(length));
  return encoder.toUint8Array();
}

/**
 * Block entries per chunk of encoded structs. Yjs' encoder doubles its buffer as it fills, so one encoder for a
 * whole sheet holds up to twice the sheet's bytes; chunks of a few MiB, each copied out exact when full, hold the
 * bytes once.
 */
const ENTRIES_PER_CHUNK = 64;

interface EncodedSheet {
  name: string;
  position: number;
  /** this sheet's `blocks` entries as ContentAny structs of a client of their own: full chunks, and the one being written */
  chunks: Uint8Array[];
  structs: Y.UpdateEncoderV1;
  /** clients of the sheet's rows, its columns and its blocks: row r's id is (rowClient, r), column c's (columnClient, c) */
  rowClient: number;
  columnClient: number;
  blockClient: number;
  /** block entries written */
  entries: number;
  /** the band of BLOCK_ROWS rows being read, per column its cells (written as one entry per column when the band is full) */
  band: number;
  bandCells: Array<Array<Cell | undefined>>;
  /** rows and columns in use (the last index + 1) */
  rows: number;
  columns: number;
  merges: readonly CellArea[];
  filter?: ImportedFilter;
  validations?: readonly ImportedValidation[];
  conditionalFormats?: readonly ConditionalRule[];
  /** the sheet was protected in the file: it gets a sheet lock */
  locked?: boolean;
  charts?: readonly SheetChart[];
  /** rows of a height set in the file, row → pixels */
  rowHeights?: ReadonlyMap<number, number>;
  /** columns of a width set in the file, or hidden, or styled */
  columnLayout?: readonly ImportedColumns[];
  /** whole-row styles, row → style */
  rowStyles?: ReadonlyMap<number, CellStyle>;
  /** the file's protected ranges: each gets a range lock */
  protectedRanges?: readonly ImportedProtectedRange[];
  /** rows hidden in the file, 0-based */
  hiddenRows?: readonly number[];
  frozenPane?: ImportedFrozenPane;
}

/**
 * Builds a spreadsheet's state (one Yjs update, format v1) from rows as they are read, written straight to Yjs'
 * encoder as the structs a Y.Doc would make: per sheet, its rows as one run (client of its own, row r's id is
 * (client, r)), its columns likewise, and its cells as `blocks` entries (one per column and band of BLOCK_ROWS
 * rows, a third client), so nothing per cell outlives its band. finish() adds the sheets themselves (names,
 * empty sequences and maps), made through a Y.Doc.
 */
export class SpreadsheetEncoder implements WorkbookSink {
  private readonly doc = new Y.Doc();
  private readonly sheets: EncodedSheet[] = [];

  beginSheet(name: string, position: number): void {
    const index = this.sheets.length;
    const client = (offset: number) => (this.doc.clientID + 1 + 3 * index + offset) % 0x1_0000_0000;
    this.sheets.push({
      name, position, chunks: [], structs: new Y.UpdateEncoderV1(), rowClient: client(0), columnClient: client(1), blockClient: client(2),
      entries: 0, band: 0, bandCells: [], rows: 0, columns: 0, merges: [],
    });
  }

  row(index: number, cells: ReadonlyArray<ReadCell | undefined>): void {
    const sheetIndex = this.sheets.length - 1;
    const sheet = this.sheets[sheetIndex];
    if (!sheet) throw new Error('a row came before its sheet');
    if (index < sheet.rows) throw new Error(`row ${index + 1} of sheet ${sheet.name} came after row ${sheet.rows}`);
    if (index >= MAX_ROWS || cells.length > MAX_COLUMNS) {
      throw new ConversionError('importContentTooComplex', `sheet ${sheet.name} is larger than ${MAX_ROWS} rows × ${MAX_COLUMNS} columns`);
    }
    const band = Math.floor(index / directEncoding.blockRows);
    if (band !== sheet.band) {
      this.flushBand(sheet, sheetIndex);
      sheet.band = band;
    }
    sheet.rows = index + 1;
    const offset = index - band * directEncoding.blockRows;
    for (let column = 0; column < cells.length; column++) {
      const cell = cells[column];
      if (!cell) continue;
      // a formula keeps a value only when the import kept Excel's for one the engine cannot read (docs/FORMULAS.md)
      const stored: Cell = cell.f !== undefined ? (cell.v !== undefined && cell.v !== null ? { f: cell.f, v: cell.v } : { f: cell.f }) : { v: cell.v ?? null };
      if (cell.z !== undefined) stored.z = cell.z;
      if (cell.s !== undefined) stored.s = cell.s;
      (sheet.bandCells[column] ??= [])[offset] = stored;
      if (column + 1 > sheet.columns) sheet.columns = column + 1;
    }
  }

  /** Writes the band's cells, one `blocks` entry per column holding any. */
  private flushBand(sheet: EncodedSheet, sheetIndex: number): void {
    const parent = predictedParents(this.doc.clientID, sheetIndex).blocks;
    const first = sheet.band * directEncoding.blockRows;
    sheet.bandCells.forEach((cells, column) => {
      if (!cells || cells.length === 0) return;
      if (sheet.entries > 0 && sheet.entries % ENTRIES_PER_CHUNK === 0) {
        sheet.chunks.push(sheet.structs.toUint8Array());
        sheet.structs = new Y.UpdateEncoderV1();
      }
      const encoder = sheet.structs;
      encoder.writeInfo(CONTENT_ANY | HAS_PARENT_SUB);
      encoder.writeParentInfo(false);
      encoder.writeLeftID(parent);
      encoder.writeString(directEncoding.blockEntry(sheet.columnClient, column, sheet.rowClient, first, cells.length));
      encoder.writeLen(1);
      encoder.writeAny(directEncoding.blockText(cells, first, column));
      sheet.entries++;
    });
    sheet.bandCells = [];
  }

  /** The sheet being read, which whatever follows its rows (`what`) belongs to. */
  private currentSheet(what: string): EncodedSheet {
    const sheet = this.sheets.at(-1);
    if (!sheet) throw new Error(`${what} came before the first sheet`);
    return sheet;
  }

  merges(areas: readonly CellArea[]): void {
    const sheet = this.currentSheet('merges');
    sheet.merges = areas;
    // the grid holds every merge whole
    for (const area of areas) {
      sheet.rows = Math.max(sheet.rows, area.endRow + 1);
      sheet.columns = Math.max(sheet.columns, area.endColumn + 1);
    }
  }

  filter(filter: ImportedFilter): void {
    const sheet = this.currentSheet('a filter');
    sheet.filter = filter;
    sheet.rows = Math.max(sheet.rows, filter.area.endRow + 1);
    sheet.columns = Math.max(sheet.columns, filter.area.endColumn + 1);
  }

  validations(rules: readonly ImportedValidation[]): void {
    this.currentSheet('data validation').validations = rules;
  }

  /** The sheet's rules keep their areas as the file gives them (whole columns too): the sheet does not grow for them. */
  conditionalFormats(rules: readonly ConditionalRule[]): void {
    this.currentSheet('conditional formats').conditionalFormats = rules;
  }

  protectedSheet(): void {
    this.currentSheet('a sheet protection').locked = true;
  }

  charts(charts: readonly SheetChart[]): void {
    this.currentSheet('charts').charts = charts;
  }

  rowHeights(heights: ReadonlyMap<number, number>): void {
    this.currentSheet('row heights').rowHeights = heights;
  }

  columns(columns: readonly ImportedColumns[]): void {
    this.currentSheet('columns').columnLayout = columns;
  }

  rowStyles(styles: ReadonlyMap<number, CellStyle>): void {
    this.currentSheet('row styles').rowStyles = styles;
  }

  protectedRanges(ranges: readonly ImportedProtectedRange[]): void {
    this.currentSheet('protected ranges').protectedRanges = ranges;
  }

  hiddenRows(rows: readonly number[]): void {
    this.currentSheet('hidden rows').hiddenRows = rows;
  }

  frozenPane(pane: ImportedFrozenPane): void {
    this.currentSheet('a frozen pane').frozenPane = pane;
  }

  /**
   * The state: `[clients][per sheet: its rows' client (one run), its columns' client (one run), its blocks'
   * client (the entries)][the sheets' own client and the delete set]`, the last part taken from the update of a
   * Y.Doc holding the sheets (one client, nothing deleted). Sheets are inserted in the order they came, each at
   * its place by position, so that the n-th one's sequences and blocks map have the ids its structs were
   * written with. Answers the state in parts (joinParts makes it
   * one array): the thread that encoded it need not hold it twice.
   */
  finish(): Uint8Array[] {
    const order = sheetOrder(this.sheets.map((sheet) => sheet.position));
    const names = uniqueNames(
      order.map((index) => this.sheets[index]!.name),
      (place) => `Sheet${place + 1}`,
    );
    const placeOf = new Map(order.map((index, place) => [index, place]));
    const inserted: number[] = [];
    this.sheets.forEach((sheet, index) => this.flushBand(sheet, index));
    this.doc.transact(() => {
      this.sheets.forEach((sheet, index) => {
        const place = placeOf.get(index)!;
        const at = inserted.filter((other) => other < place).length;
        sheetsOf(this.doc).insert(at, [sheetMap(names[place]!)]);
        inserted.push(place);
        const found = directEncoding.parents(sheetsOf(this.doc).get(at));
        const predicted = predictedParents(this.doc.clientID, index);
        if (!Y.compareIDs(found.rows, predicted.rows) || !Y.compareIDs(found.columns, predicted.columns) || !Y.compareIDs(found.blocks, predicted.blocks)) {
          throw new Error('a sheet\'s rows, columns or blocks are not where its cells were encoded');
        }
      });
      // after every sheet is in: a merge's items would otherwise move the next sheets' cells maps off CELLS_CLOCK
      this.sheets.forEach((sheet, index) => {
        const sheetMap = sheetsOf(this.doc).get(placeOf.get(index)!) as Y.Map<unknown>;
        const model = SheetModel.of(sheetMap);
        for (const area of sheet.merges) model.addMerge(area);
        if (sheet.filter) applyImportedFilter(model, sheet.filter);
        if (sheet.validations) applyImportedValidations(model, sheet.validations);
        if (sheet.conditionalFormats) applyImportedConditionalRules(model, sheet.conditionalFormats);
        if (sheet.locked) setLock(model, xlsxSheetLock());
        for (const { name, areas } of (sheet.protectedRanges ?? []).slice(0, MAX_LOCKS_PER_SHEET - 1)) setLock(model, xlsxRangeLock(name, areas));
        for (const chart of (sheet.charts ?? []).slice(0, MAX_CHARTS_PER_SHEET)) putChart(model, chart);
        // the rows are encoded beside this document (row r's id is (rowClient, r)): their heights are keyed so
        if (sheet.rowHeights) directEncoding.setRowHeights(sheetMap, sheet.rowClient, sheet.rowHeights);
        if (sheet.rowStyles) directEncoding.setLineStyles(sheetMap, 'rows', sheet.rowClient, sheet.rowStyles);
        const columnCount = Math.max(DEFAULT_COLUMN_COUNT, sheet.columns);
        applyImportedColumns(model, sheet.columnLayout ?? [], columnCount);
        // the columns too are encoded beside this document (column c's id is (columnClient, c)); styles past the
        // sheet's columns are left out, as widths are
        const columnStyles = importedColumnStyles(sheet.columnLayout ?? [], columnCount);
        if (columnStyles.size > 0) directEncoding.setLineStyles(sheetMap, 'columns', sheet.columnClient, columnStyles);
        const rowCount = Math.max(DEFAULT_ROW_COUNT, sheet.rows);
        applyImportedHiddenRows(model, sheet.hiddenRows ?? [], rowCount, sheet.filter);
        if (sheet.frozenPane && sheet.frozenPane.rows > 0) model.setFrozenRows(Math.min(sheet.frozenPane.rows, rowCount));
      });
    });
    const base = Y.encodeStateAsUpdate(this.doc);
    this.doc.destroy();
    // [clients = 1][the client's structs][delete set: no clients]
    if (base[0] !== 1 || base[base.length - 1] !== 0) throw new Error('unexpected shape of a fresh spreadsheet update');
    const header = new Y.UpdateEncoderV1();
    header.writeLen(1 + 3 * this.sheets.length);
    const parts: Uint8Array[] = [header.toUint8Array()];
    const clientHeader = (structs: number, client: number) => {
      const encoder = new Y.UpdateEncoderV1();
      encoder.writeLen(structs);
      encoder.writeClient(client);
      encoder.writeLen(0); // from clock 0
      return encoder.toUint8Array();
    };
    this.sheets.forEach((sheet, index) => {
      const parents = predictedParents(this.doc.clientID, index);
      parts.push(clientHeader(1, sheet.rowClient), axisRun(parents.rows, Math.max(DEFAULT_ROW_COUNT, sheet.rows)));
      parts.push(clientHeader(1, sheet.columnClient), axisRun(parents.columns, Math.max(DEFAULT_COLUMN_COUNT, sheet.columns)));
      parts.push(clientHeader(sheet.entries, sheet.blockClient), ...sheet.chunks, sheet.structs.toUint8Array());
    });
    parts.push(base.subarray(1)); // the sheets' client structs and the empty delete set
    this.sheets.length = 0;
    return parts;
  }
}
