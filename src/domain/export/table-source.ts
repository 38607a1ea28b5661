import type { Cells } from '../tables/cells.js';
import type { CellValue } from '../../model/tables/fields/field-type.js';
import type { TableColumn } from '../tables/table-service.js';
import type { WorkbookCell, WorkbookSheet, WorkbookSource } from './source.js';

/**
 * A table base (the table API's data) as a workbook: one sheet per table, the column names as a frozen
 * header row, one row per record in creation order. Numbers, check boxes and ratings stay typed, dates are
 * dates, choices and links read as their names joined by ", ".
 */

const TYPED_COLUMNS = new Set(['Number', 'Percent', 'Rate', 'AutoNumber', 'CheckBox']);

/** A cell's text when it is not a plain value: option names, linked rows, attachment file names. */
function textOf(value: CellValue): string {
  if (Array.isArray(value)) return value.map(textOf).join(', ');
  if (typeof value === 'object' && value !== null) {
    for (const key of ['name', 'text', 'title', 'filename', 'guid']) {
      const part = value[key];
      if (typeof part === 'string') return part;
    }
    return JSON.stringify(value);
  }
  return String(value);
}

function cellOf(column: TableColumn, value: CellValue, row: number, index: number): WorkbookCell {
  if (column.type === 'Date' && typeof value === 'string') return { row, column: index, value, date: true };
  if (TYPED_COLUMNS.has(column.type) && (typeof value === 'number' || typeof value === 'boolean')) return { row, column: index, value };
  return { row, column: index, value: textOf(value) };
}

/** A table as read for an export: its columns and each row's stored cells as JSON text (keyed by column guid). */
export interface StoredTable {
  name: string;
  columns: TableColumn[];
  rows: string[];
}

export function tableSheet(table: StoredTable): WorkbookSheet {
  // the column names: a bold header row, frozen
  const cells: WorkbookCell[] = table.columns.map((column, index) => ({ row: 0, column: index, value: column.name, style: { b: true } }));
  table.rows.forEach((text, rowIndex) => {
    const row = JSON.parse(text) as Cells;
    table.columns.forEach((column, index) => {
      const value = row[column.guid];
      if (value !== undefined && value !== null) cells.push(cellOf(column, value, rowIndex + 1, index));
    });
  });
  return { name: table.name, cells, rowCount: table.rows.length + 1, columnCount: table.columns.length, columnWidths: {}, rowHeights: {}, frozenRows: 1, merges: [] };
}

export function tableWorkbook(title: string, tables: readonly StoredTable[]): WorkbookSource {
  return { kind: 'workbook', title, sheets: tables.map(tableSheet) };
}
