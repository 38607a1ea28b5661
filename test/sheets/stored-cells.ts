import type * as Y from 'yjs';
import type { Cell } from '../../src/model/content.js';
import { formatA1, parseA1 } from '../../src/model/sheets/a1.js';
import { sheetModels, type SheetModel } from '../../src/model/sheets/sheet-model.js';

/**
 * Tests read and write stored cells through the sheet model (src/model/sheets/sheet-model.ts), never through its
 * storage, and name them by A1 address.
 */

/** One cell's A1 address (`B2`) from zero-based row and column. */
export function addressOf(row: number, column: number): string {
  return formatA1({ sheetName: null, startRow: row, endRow: row, startColumn: column, endColumn: column });
}

function sheetAt(doc: Y.Doc, sheet: number): SheetModel {
  const model = sheetModels(doc)[sheet];
  if (!model) throw new Error(`the document has no sheet ${sheet}`);
  return model;
}

/** The stored cells of a sheet (format- and style-only cells included), by A1 address. */
export function storedCells(doc: Y.Doc, sheet = 0): Record<string, Cell> {
  const cells: Record<string, Cell> = {};
  sheetAt(doc, sheet).forEachCell((row, column, cell) => (cells[addressOf(row, column)] = cell));
  return cells;
}

/** Stores cells given by A1 address (null removes one); call it inside a change of the document. */
export function putCells(doc: Y.Doc, cells: Record<string, Cell | null>, sheet = 0): void {
  const model = sheetAt(doc, sheet);
  for (const [address, cell] of Object.entries(cells)) {
    const { startRow, startColumn } = parseA1(address);
    model.setCell(startRow, startColumn, cell);
  }
}
