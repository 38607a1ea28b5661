import * as Y from 'yjs';
import { MAX_COLUMNS, MAX_ROWS } from '../../model/sheets/a1.js';
import { DEFAULT_COLUMN_COUNT, DEFAULT_ROW_COUNT, newSheet, sheetsOf, type Cell } from '../../model/content.js';
import { directEncoding, SheetModel, type CellArea } from '../../model/sheets/sheet-model.js';
import { ConversionError, type ReadCell, type WorkbookSink } from './conversion.js';
import { sheetOrder, uniqueNames } from './workbook.js';

/** Yjs' content reference of ContentAny (a JSON value), and the info bit saying a map key (parentSub) follows. */
const CONTENT_ANY = 8;
const HAS_PARENT_SUB = 0b0010_0000;

/** A sheet's map as the spreadsheet stores it (the model's new sheet, sized to what it holds). */
function sheetMap(name: string, rows: number, columns: number): Y.Map<unknown> {
  const map = newSheet(name);
  map.set('rowCount', Math.max(DEFAULT_ROW_COUNT, rows));
  map.set('columnCount', Math.max(DEFAULT_COLUMN_COUNT, columns));
  return map;
}

/**
 * Where the n-th sheet inserted into a fresh document gets its `cells` map: clock `first + n × stride` of the
 * document's client. A sheet map's items do not depend on its values (each key is one item of length one), so the
 * ids are known before the sheet's name or size is; finish() checks them against the document it builds.
 */
const CELLS_CLOCK = (() => {
  const doc = new Y.Doc();
  sheetsOf(doc).push([sheetMap('a', 0, 0)]);
  sheetsOf(doc).insert(0, [sheetMap('b', 0, 0)]);
  const first = directEncoding.cellParent(sheetsOf(doc).get(1)).clock;
  const stride = directEncoding.cellParent(sheetsOf(doc).get(0)).clock - first;
  doc.destroy();
  return { first, stride };
})();

/**
 * Cells per block of encoded structs. Yjs' encoder doubles its buffer as it fills, so one encoder for a whole
 * sheet holds up to twice the sheet's bytes; blocks of about a MiB, each copied out exact when full, hold the
 * bytes once.
 */
const CELLS_PER_BLOCK = 32_768;

interface EncodedSheet {
  name: string;
  position: number;
  /** this sheet's cells as ContentAny structs of a client of their own: full blocks, and the one being written */
  blocks: Uint8Array[];
  structs: Y.UpdateEncoderV1;
  client: number;
  cells: number;
  /** rows and columns in use (the last index + 1) */
  rows: number;
  columns: number;
  merges: readonly CellArea[];
}

/**
 * Builds a spreadsheet's state (one Yjs update, format v1) from rows as they are read: each cell is written
 * straight to Yjs' encoder as the struct Y.Map#set would make (one ContentAny per cell in its sheet's `cells`
 * map, a client per sheet), so nothing per cell outlives its row. A million Y.Map#set calls would first create a
 * million Items (13 s and 300 MiB for 100,000 × 10), and a million cell objects held until the end cost about as
 * much again. finish() adds the sheets themselves (names, sizes, empty maps), made through a Y.Doc.
 */
export class SpreadsheetEncoder implements WorkbookSink {
  private readonly doc = new Y.Doc();
  private readonly sheets: EncodedSheet[] = [];

  beginSheet(name: string, position: number): void {
    const index = this.sheets.length;
    this.sheets.push({ name, position, blocks: [], structs: new Y.UpdateEncoderV1(), client: (this.doc.clientID + 1 + index) % 0x1_0000_0000, cells: 0, rows: 0, columns: 0, merges: [] });
  }

  row(index: number, cells: ReadonlyArray<ReadCell | undefined>): void {
    const sheetIndex = this.sheets.length - 1;
    const sheet = this.sheets[sheetIndex];
    if (!sheet) throw new Error('a row came before its sheet');
    if (index < sheet.rows) throw new Error(`row ${index + 1} of sheet ${sheet.name} came after row ${sheet.rows}`);
    if (index >= MAX_ROWS || cells.length > MAX_COLUMNS) {
      throw new ConversionError('importContentTooComplex', `sheet ${sheet.name} is larger than ${MAX_ROWS} rows × ${MAX_COLUMNS} columns`);
    }
    sheet.rows = index + 1;
    const parent = Y.createID(this.doc.clientID, CELLS_CLOCK.first + sheetIndex * CELLS_CLOCK.stride);
    for (let column = 0; column < cells.length; column++) {
      const cell = cells[column];
      if (!cell) continue;
      if (sheet.cells > 0 && sheet.cells % CELLS_PER_BLOCK === 0) {
        sheet.blocks.push(sheet.structs.toUint8Array());
        sheet.structs = new Y.UpdateEncoderV1();
      }
      const encoder = sheet.structs;
      encoder.writeInfo(CONTENT_ANY | HAS_PARENT_SUB);
      encoder.writeParentInfo(false);
      encoder.writeLeftID(parent);
      encoder.writeString(directEncoding.cellEntry(index, column));
      encoder.writeLen(1);
      const stored: Cell = cell.f !== undefined ? { f: cell.f } : { v: cell.v ?? null };
      if (cell.z !== undefined) stored.z = cell.z;
      if (cell.s !== undefined) stored.s = cell.s;
      encoder.writeAny(stored);
      sheet.cells++;
      if (column + 1 > sheet.columns) sheet.columns = column + 1;
    }
  }

  merges(areas: readonly CellArea[]): void {
    const sheet = this.sheets.at(-1);
    if (!sheet) throw new Error('merges came before their sheet');
    sheet.merges = areas;
    // the grid holds every merge whole
    for (const area of areas) {
      sheet.rows = Math.max(sheet.rows, area.endRow + 1);
      sheet.columns = Math.max(sheet.columns, area.endColumn + 1);
    }
  }

  /**
   * The state: `[clients][each sheet's cells: count, client, clock 0, structs][the sheets' own client and
   * the delete set]`, the last part taken from the update of a Y.Doc holding the sheets (one client, nothing
   * deleted). Sheets are inserted in the order they came, each at its place by position, so that the n-th
   * one's `cells` map has the id its cells were written with. Answers the state in parts (joinParts makes it
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
    this.doc.transact(() => {
      this.sheets.forEach((sheet, index) => {
        const place = placeOf.get(index)!;
        const at = inserted.filter((other) => other < place).length;
        sheetsOf(this.doc).insert(at, [sheetMap(names[place]!, sheet.rows, sheet.columns)]);
        inserted.push(place);
        const id = directEncoding.cellParent(sheetsOf(this.doc).get(at));
        if (id.client !== this.doc.clientID || id.clock !== CELLS_CLOCK.first + index * CELLS_CLOCK.stride) throw new Error('a sheet\'s cells map is not where its cells were encoded');
      });
      // after every sheet is in: a merge's items would otherwise move the next sheets' cells maps off CELLS_CLOCK
      this.sheets.forEach((sheet, index) => {
        const model = SheetModel.of(sheetsOf(this.doc).get(placeOf.get(index)!) as Y.Map<unknown>);
        for (const area of sheet.merges) model.addMerge(area);
      });
    });
    const base = Y.encodeStateAsUpdate(this.doc);
    this.doc.destroy();
    // [clients = 1][the client's structs][delete set: no clients]
    if (base[0] !== 1 || base[base.length - 1] !== 0) throw new Error('unexpected shape of a fresh spreadsheet update');
    const header = new Y.UpdateEncoderV1();
    header.writeLen(1 + this.sheets.length);
    const parts: Uint8Array[] = [header.toUint8Array()];
    for (const sheet of this.sheets) {
      const sheetHeader = new Y.UpdateEncoderV1();
      sheetHeader.writeLen(sheet.cells);
      sheetHeader.writeClient(sheet.client);
      sheetHeader.writeLen(0); // from clock 0
      parts.push(sheetHeader.toUint8Array(), ...sheet.blocks, sheet.structs.toUint8Array());
    }
    parts.push(base.subarray(1)); // the sheets' client structs and the empty delete set
    this.sheets.length = 0;
    return parts;
  }
}
