import { Type } from '@sinclair/typebox';
import { CREATABLE_TYPES } from '../../model/tables/fields/registry.js';
import { FILTER_OPERATORS, MAX_PAGE_SIZE, MAX_WINDOW_ROWS } from '../../domain/tables/row-window.js';
import { MAX_ROWS_PER_REQUEST } from '../../domain/tables/table-service.js';
import { MAX_SORT_LEVELS, VIEW_KINDS } from '../../model/tables/views.js';

/** Guids in paths: anything up to 128 characters; an unknown one is a 404 of its kind, not a 400. */
const Guid = Type.String({ minLength: 1, maxLength: 128 });

export const TableParams = Type.Object({ guid: Guid });
export const ColumnParams = Type.Object({ guid: Guid, colGuid: Guid });
export const RowParams = Type.Object({ guid: Guid, rowGuid: Guid });
export const ViewParams = Type.Object({ guid: Guid, viewGuid: Guid });

export const Props = Type.Record(Type.String(), Type.Unknown(), {
  description: 'settings of the column type (docs/TABLE-API.md "Column types and cell values"); null or absent: the defaults',
});
export const PropsInput = Type.Optional(Type.Union([Props, Type.Null()]));

export const ColumnName = Type.String({ minLength: 1, maxLength: 100, description: '1-100 characters, unique in the table' });
export const ColumnType = Type.String({ description: `one of ${CREATABLE_TYPES.join(', ')}; AutoNumber only as the first column of a new table` });

export const Column = Type.Object({
  guid: Type.String(),
  name: Type.String(),
  type: Type.String(),
  props: Props,
  isPrimary: Type.Boolean({ description: 'the first column of the table' }),
});

export const View = Type.Object({
  viewGuid: Type.String(),
  name: Type.String(),
  isDefault: Type.Boolean(),
});

const ColumnGuids = Type.Array(Type.String());

/** A saved view with its kind and settings (our extension; src/model/tables/views.ts). */
export const SavedView = Type.Object({
  viewGuid: Type.String(),
  name: Type.String(),
  isDefault: Type.Boolean({ description: 'the first view: a grid view that cannot be deleted' }),
  kind: Type.Union(VIEW_KINDS.map((kind) => Type.Literal(kind))),
  settings: Type.Union([
    Type.Object({
      hiddenColumns: ColumnGuids,
      columnOrder: ColumnGuids,
      sort: Type.Array(Type.Object({ columnGuid: Type.String(), descending: Type.Boolean() }), { maxItems: MAX_SORT_LEVELS }),
      groupBy: Type.Union([Type.String(), Type.Null()]),
    }, { title: 'grid' }),
    Type.Object({ groupBy: Type.Union([Type.String(), Type.Null()], { description: 'a SingleChoice column' }), cardFields: ColumnGuids }, { title: 'kanban' }),
    Type.Object({ cover: Type.Union([Type.String(), Type.Null()], { description: 'an Attachment column' }), cardFields: ColumnGuids }, { title: 'gallery' }),
    Type.Object({ fields: ColumnGuids, title: Type.String(), description: Type.String() }, { title: 'form' }),
  ]),
});

export const DataTable = Type.Object({
  guid: Type.String(),
  baseGuid: Type.String({ description: 'fileId of the base (a collaborative file of type table)' }),
  name: Type.String(),
  defaultViewGuid: Type.String({ description: 'the view used when a call names none' }),
  views: Type.Array(View),
  columns: Type.Array(Column, { description: 'in table order; the first is the primary column' }),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});

/**
 * Cell values keyed by column name. A plain `type: object` rather than `Type.Record`: the record form makes
 * the validator test a pattern against every key, 20,000 times for a full create-rows request.
 */
export const ValueMap = Type.Unsafe<Record<string, unknown>>({
  type: 'object',
  additionalProperties: true,
  description: 'cell values keyed by column name (docs/TABLE-API.md "Column types and cell values"); empty cells are absent on read',
});

export const Row = Type.Object({ guid: Type.String(), valueMap: ValueMap });

export const RowPage = Type.Object({
  rows: Type.Array(Row),
  offset: Type.Union([Type.String(), Type.Null()], { description: 'guid of the first row of the next page; null after the last page' }),
  viewGuid: Type.String(),
});

/** A query parameter as sent: once, or repeated (`?pageSize=1&pageSize=2`), when the first one counts. */
const QueryText = (description: string) => Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())], { description }));

export const RowsQuery = Type.Object({
  pageSize: QueryText(`rows per page, a whole number from 1 to ${MAX_PAGE_SIZE}; absent or empty: 10; anything else is refused (400 / 70000)`),
  offset: QueryText("guid of the first row of the page (the previous page's `offset`); absent: from the start"),
  viewGuid: QueryText('absent or empty: the default view'),
});

/** The value of a query parameter that may have been repeated: its first occurrence. */
export function firstOf(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

export const CreateRowsBody = Type.Object({
  rows: Type.Array(ValueMap, { minItems: 1, maxItems: MAX_ROWS_PER_REQUEST, description: `1-${MAX_ROWS_PER_REQUEST} value maps; all rows are created or none` }),
});

/** Highest window start: far beyond any table, and an offset every database takes. */
const MAX_WINDOW_START = 1_000_000_000;

export const RowWindowQuery = Type.Object({
  start: Type.Integer({ minimum: 0, maximum: MAX_WINDOW_START, default: 0, description: `index of the first row in the filtered, sorted order, 0-${MAX_WINDOW_START}` }),
  count: Type.Integer({ minimum: 1, maximum: MAX_WINDOW_ROWS, default: 100, description: `rows to answer, 1-${MAX_WINDOW_ROWS}` }),
  viewGuid: Type.Optional(Type.String({ description: 'absent or empty: the default view' })),
  sortColumn: Type.Optional(Type.String({ minLength: 1, description: 'guid of the column to sort by; empty cells come last, ties in creation order' })),
  sortOrder: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')], { default: 'asc' })),
  filterColumn: Type.Optional(Type.String({ minLength: 1, description: 'guid of the column to filter on' })),
  filterOperator: Type.Optional(
    Type.Union(
      FILTER_OPERATORS.map((operator) => Type.Literal(operator)),
      { description: '`contains` (case-insensitive) and `is` compare filterValue with the cell as text; `empty`, `notEmpty`', default: 'contains' },
    ),
  ),
  filterValue: Type.Optional(Type.String({ maxLength: 1000, default: '' })),
});

export const RowWindow = Type.Object({
  rows: Type.Array(Row),
  start: Type.Integer(),
  total: Type.Integer({ description: 'rows that pass the filter' }),
  viewGuid: Type.String(),
});
