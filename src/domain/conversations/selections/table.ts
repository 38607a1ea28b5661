import { Type } from '@sinclair/typebox';
import { ApiError, Errors, type ErrorSpec } from '../../../errors.js';
import type { CellValue } from '../../../model/tables/fields/field-type.js';
import type { DataTable, TableService } from '../../tables/table-service.js';
import type { ResolvedSelection, SelectionContext, SelectionModule } from './selection-module.js';
import { defineSelectionModule, selectionNotFound } from './shared.js';

export const TableSelectionSchema = Type.Object(
  {
    tableGuid: Type.String({ minLength: 1, maxLength: 128, description: 'a table of this base' }),
    rowGuid: Type.String({ minLength: 1, maxLength: 128, description: 'a live row of that table' }),
    columnGuid: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: 'a column of that table, when the comment is about one cell; without it, the row' })),
  },
  { additionalProperties: false, title: 'TableSelection', description: 'table: a row of a table of this base, or one cell of it' },
);

const TableAnchor = Type.Object({ tableGuid: Type.String(), rowGuid: Type.String(), columnGuid: Type.Optional(Type.String()) });

/** What a table selection answers when listed. */
export interface ResolvedTableSelection extends ResolvedSelection {
  tableGuid: string;
  rowGuid: string;
  columnGuid?: string;
}

/** A cell's value as one line of text: arrays (choices, links, cascades) joined with ", ", empty as "". */
export function cellText(value: CellValue | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map(cellText).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

const NOT_FOUND = new Set<ErrorSpec>([Errors.tableNotFound, Errors.rowNotFound, Errors.columnNotFound]);

/** The table service's answer, with "no such table, row or column" turned into "no such selection". */
async function lookUp<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ApiError && NOT_FOUND.has(error.spec)) throw selectionNotFound(error.message);
    throw error;
  }
}

/** The base's tables by guid (the file is the base); authorises `readable` through the table service. */
async function tablesOfBase(tables: TableService, context: SelectionContext): Promise<Map<string, DataTable>> {
  const list = await lookUp(() => tables.listTables(context.auth, context.fileId));
  return new Map(list.map((table) => [table.guid, table]));
}

/** Comments on a row of a table, or on one of its cells. */
export function tableSelections(tables: TableService): SelectionModule {
  return defineSelectionModule({
    name: 'table',
    fileTypes: ['table'],
    schema: TableSelectionSchema,
    expected: '{tableGuid, rowGuid} or {tableGuid, rowGuid, columnGuid}',
    anchorSchema: TableAnchor,
    anchor: async (context, input) => {
      const table = (await tablesOfBase(tables, context)).get(input.tableGuid);
      if (!table) throw selectionNotFound(`table ${input.tableGuid} is not a table of this base`);
      // Without a column the comment is about the row, which reads as its primary (first) column.
      const column = input.columnGuid === undefined ? table.columns[0] : table.columns.find((candidate) => candidate.guid === input.columnGuid);
      if (!column && input.columnGuid !== undefined) throw selectionNotFound(`column ${input.columnGuid} not found in table ${input.tableGuid}`);
      const row = await lookUp(() => tables.getRow(context.auth, input.tableGuid, input.rowGuid));
      const value = column && Object.hasOwn(row.valueMap, column.name) ? row.valueMap[column.name] : undefined;
      const anchor = input.columnGuid === undefined ? { tableGuid: table.guid, rowGuid: row.guid } : { tableGuid: table.guid, rowGuid: row.guid, columnGuid: input.columnGuid };
      return { anchor, title: table.guid, content: cellText(value) };
    },
    resolve: async (context, anchors) => {
      if (anchors.length === 0) return [];
      const live = await tablesOfBase(tables, context);
      const rowsByTable = new Map<string, string[]>();
      for (const anchor of anchors) {
        if (!live.has(anchor.tableGuid)) continue;
        const rows = rowsByTable.get(anchor.tableGuid) ?? [];
        rows.push(anchor.rowGuid);
        rowsByTable.set(anchor.tableGuid, rows);
      }
      const liveRows = new Map<string, Set<string>>();
      await Promise.all(
        [...rowsByTable].map(async ([tableGuid, rowGuids]) => {
          liveRows.set(tableGuid, await tables.liveRowGuids(context.auth, tableGuid, rowGuids).catch((error: unknown) => {
            // A table deleted between the two reads: its rows are gone with it.
            if (error instanceof ApiError && error.spec === Errors.tableNotFound) return new Set<string>();
            throw error;
          }));
        }),
      );
      return anchors.map((anchor): ResolvedTableSelection => {
        const detached = liveRows.get(anchor.tableGuid)?.has(anchor.rowGuid) !== true;
        const { tableGuid, rowGuid, columnGuid } = anchor;
        return columnGuid === undefined ? { tableGuid, rowGuid, detached } : { tableGuid, rowGuid, columnGuid, detached };
      });
    },
  });
}
