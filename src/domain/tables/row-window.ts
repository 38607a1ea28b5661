import { sql } from 'kysely';
import { ApiError, Errors } from '../../errors.js';
import type { Storage } from '../../storage/database.js';
import { valueMapJson, type ResolvedColumn } from './cells.js';
import type { LoadedTable, TableView } from './table-store.js';

export const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 100;
/** Filter operators of a row window: on the cell's text (option names, numbers as written, dates as ISO text). */
export const FILTER_OPERATORS = ['contains', 'is', 'empty', 'notEmpty'] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];
/** Rows one window may ask for: a screenful or two of a grid, a few times over. */
export const MAX_WINDOW_ROWS = 500;

/** A row whose value map is JSON text already, made from its stored text: a page carries thousands of cells. */
export interface EncodedRow {
  guid: string;
  valueMapJson: string;
}

export interface RowPage {
  rows: EncodedRow[];
  /** guid of the first row of the next page; null after the last page */
  offset: string | null;
  viewGuid: string;
}

export interface RowWindowQuery {
  start: number;
  count: number;
  viewGuid?: string | undefined;
  sort?: { columnGuid: string; descending: boolean } | undefined;
  filter?: { columnGuid: string; operator: FilterOperator; value: string } | undefined;
}

/** Rows `start`… of a view's filtered, sorted order, and how many rows pass the filter. */
export interface RowWindow {
  rows: EncodedRow[];
  start: number;
  total: number;
  viewGuid: string;
}

/** Types whose cells are JSON numbers: sorted as numbers, not as text. */
const NUMERIC_TYPES: ReadonlySet<string> = new Set(['Number', 'Percent', 'Rate', 'AutoNumber']);

/** `%`, `_` and the escape character itself taken literally in a LIKE pattern (escape `\`). */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

export function viewOf(table: LoadedTable, viewGuid: string | undefined): TableView {
  const view = viewGuid === undefined ? table.views[0] : table.views.find((candidate) => candidate.viewGuid === viewGuid);
  if (!view) {
    throw new ApiError(Errors.viewNotFound, viewGuid === undefined ? `table ${table.guid} has no default view` : `view ${viewGuid} not found in table ${table.guid}`);
  }
  return view;
}

/** The read queries of a table's rows: pages in creation order and windows of a filtered, sorted view. */
export class RowQueries {
  constructor(private readonly storage: Storage) {}

  /**
   * One page of rows in creation order. Paging input never fails: the caller's page size is already
   * clamped; an `offset` that names a deleted row resumes where that row was; one that never named a row of
   * this table yields an empty last page.
   */
  async page(table: LoadedTable, page: { pageSize: number; offset?: string | undefined; viewGuid?: string | undefined }): Promise<RowPage> {
    const tableGuid = table.guid;
    const view = viewOf(table, page.viewGuid);
    let query = this.storage.db
      .selectFrom('table_rows')
      .select(['guid', 'cells'])
      .where('table_guid', '=', tableGuid)
      .orderBy('seq')
      .limit(page.pageSize + 1);
    if (page.offset !== undefined && page.offset !== '') {
      const offset = page.offset;
      // The offset row's place, from the live row or, when deleted since, its tombstone; neither: no rows.
      query = query.where('seq', '>=', (eb) =>
        eb.fn.coalesce(
          eb.selectFrom('table_rows').select('seq').where('guid', '=', offset).where('table_guid', '=', tableGuid),
          eb.selectFrom('table_row_tombstones').select('seq').where('guid', '=', offset).where('table_guid', '=', tableGuid),
        ),
      );
    }
    const rows = await query.execute();
    const next = rows.length > page.pageSize ? rows.pop() : undefined;
    return {
      rows: rows.map((row) => ({ guid: row.guid, valueMapJson: valueMapJson(row.cells, table.columns, table.jsonKeys) })),
      offset: next ? next.guid : null,
      viewGuid: view.viewGuid,
    };
  }

  /**
   * Rows `start`…`start + count - 1` of the view as the grid shows it: filtered to rows whose cell in
   * `filter.columnGuid` passes `filter.operator`, sorted by `sort.columnGuid` (empty cells last, then
   * creation order), or in creation order. `total` counts the rows that pass the filter, so that a
   * virtualised grid can size its scroll range and fetch only the rows near its viewport.
   */
  async window(table: LoadedTable, query: RowWindowQuery): Promise<RowWindow> {
    const tableGuid = table.guid;
    const storage = this.storage;
    const view = viewOf(table, query.viewGuid);
    const columnOf = (guid: string, what: string): ResolvedColumn => {
      const column = table.columns.find((candidate) => candidate.guid === guid);
      if (!column) throw new ApiError(Errors.invalidRequest, `${what} ${JSON.stringify(guid)} is not a column of table ${tableGuid}`);
      return column;
    };
    const member = (column: ResolvedColumn) => storage.jsonMember('cells', column.guid, NUMERIC_TYPES.has(column.typeName) ? 'number' : 'text');
    let filtered = storage.db.selectFrom('table_rows').where('table_guid', '=', tableGuid);
    if (query.filter) {
      const { operator, value } = query.filter;
      const text = storage.jsonMember('cells', columnOf(query.filter.columnGuid, 'filter.columnGuid').guid, 'text');
      if (operator === 'empty') filtered = filtered.where(sql<boolean>`${text} is null`);
      else if (operator === 'notEmpty') filtered = filtered.where(sql<boolean>`${text} is not null`);
      else if (operator === 'is') filtered = filtered.where(sql<boolean>`cast(${text} as text) = ${value}`);
      else filtered = filtered.where(sql<boolean>`lower(cast(${text} as text)) like ${`%${escapeLike(value.toLowerCase())}%`} escape '\\'`);
    }
    const countAll = () => filtered.select((eb) => eb.fn.countAll<number | string>().as('total')).executeTakeFirstOrThrow();
    // A sort in the query wins; without one, a grid view's saved sort levels apply (docs/TABLE-API.md "Views").
    const levels = query.sort ? [query.sort] : view.kind === 'grid' ? view.settings.sort : [];
    let rows: { guid: string; cells: string }[];
    let total: number;
    if (levels.length === 0 && !query.filter) {
      // In creation order the window starts at the `start`-th row's seq, found on the (table, seq) key alone:
      // an OFFSET on the full rows would read the cells of every row it skips (0.3 s at row 50,000).
      const first = filtered.select('seq').orderBy('seq').limit(1).offset(query.start);
      const [found, counted] = await Promise.all([filtered.select(['guid', 'cells']).where('seq', '>=', first).orderBy('seq').limit(query.count).execute(), countAll()]);
      rows = found;
      total = Number(counted.total);
    } else {
      // One pass picks the window's rows by their seq and counts the rows that pass (a window count): the
      // sort carries seq and the key, not the cells, and each row's JSON is read once. Then the cells of
      // the window's rows alone.
      let picking = filtered.select(['seq', sql<number | string>`count(*) over ()`.as('total')]);
      for (const level of levels) {
        const sorted = member(columnOf(level.columnGuid, 'sort.columnGuid'));
        picking = picking.orderBy(sql`${sorted} ${sql.raw(level.descending ? 'desc' : 'asc')} nulls last`);
      }
      const picked = await picking.orderBy('seq').limit(query.count).offset(query.start).execute();
      total = Number(picked[0]?.total ?? (await countAll()).total);
      const order = new Map(picked.map((row, index) => [String(row.seq), index]));
      const found = picked.length === 0 ? [] : await storage.db.selectFrom('table_rows').select(['seq', 'guid', 'cells']).where('table_guid', '=', tableGuid).where('seq', 'in', picked.map((row) => row.seq)).execute();
      rows = found.sort((a, b) => order.get(String(a.seq))! - order.get(String(b.seq))!);
    }
    return {
      rows: rows.map((row) => ({ guid: row.guid, valueMapJson: valueMapJson(row.cells, table.columns, table.jsonKeys) })),
      start: query.start,
      total,
      viewGuid: view.viewGuid,
    };
  }
}
