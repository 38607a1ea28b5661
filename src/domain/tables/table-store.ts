import type { Selectable, Transaction } from 'kysely';
import { ApiError, Errors } from '../../errors.js';
import type { Db, Storage } from '../../storage/database.js';
import type { Database, TableColumnsTable } from '../../storage/schema.js';
import type { ColumnProps } from '../../model/tables/fields/field-type.js';
import { AUTO_NUMBER } from '../../model/tables/fields/registry.js';
import { isViewKind, readViewSettings, tableView, type TableView, type ViewSettings } from '../../model/tables/views.js';
import { jsonKeysOf, resolveColumns, type Cells, type ResolvedColumn } from './cells.js';
import { newRowGuids } from './guids.js';
import type { LinkIntegrity } from './link-integrity.js';

/** Tables whose columns and views are kept in memory (the oldest entry is dropped first). */
const SCHEMA_CACHE_ENTRIES = 1000;

export type { TableView };

interface TableSchema {
  version: number;
  columns: ResolvedColumn[];
  /** column names as JSON key text, by column guid */
  jsonKeys: ReadonlyMap<string, string>;
  views: TableView[];
}

/** A table as loaded for one request: its row, columns in order, views in order. */
export interface LoadedTable {
  guid: string;
  appId: string;
  fileId: string;
  name: string;
  createdAt: number;
  updatedAt: number;
  columns: ResolvedColumn[];
  jsonKeys: ReadonlyMap<string, string>;
  views: TableView[];
}

export function parseCells(text: string): Cells {
  return JSON.parse(text) as Cells;
}

/**
 * Where tables, their columns, views and rows are kept (tables `table_*`): loads a table with its schema
 * (cached by schema version), writes rows with their sequence numbers and Link index, and the column order.
 * No access checks and no events: the table service does those around it.
 */
export class TableStore {
  private readonly schemas = new Map<string, TableSchema>();

  constructor(
    private readonly storage: Storage,
    private readonly links: LinkIntegrity,
  ) {}

  get db(): Db {
    return this.storage.db;
  }

  isUniqueViolation(error: unknown): boolean {
    return this.storage.isUniqueViolation(error);
  }

  async loadTable(db: Db, appId: string, tableGuid: string): Promise<LoadedTable> {
    const row = await db
      .selectFrom('table_tables')
      .select(['guid', 'app_id', 'file_id', 'name', 'schema_version', 'created_at', 'updated_at'])
      .where('guid', '=', tableGuid)
      .where('app_id', '=', appId)
      .executeTakeFirst();
    if (!row) throw new ApiError(Errors.tableNotFound, `table ${tableGuid} not found`);
    const schema = await this.schemaOf(db, tableGuid, row.schema_version);
    return {
      guid: row.guid,
      appId: row.app_id,
      fileId: row.file_id,
      name: row.name,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      ...schema,
    };
  }

  /**
   * Columns and views of a table. They change rarely and every change bumps the table's schema_version in
   * the same transaction, so a copy cached under that version is exact, in this process or any other.
   */
  private async schemaOf(db: Db, tableGuid: string, version: number): Promise<TableSchema> {
    const cached = this.schemas.get(tableGuid);
    if (cached && cached.version === version) return cached;
    const [columns, views] = await Promise.all([
      db.selectFrom('table_columns').selectAll().where('table_guid', '=', tableGuid).orderBy('position').execute(),
      db.selectFrom('table_views').select(['guid', 'name', 'position', 'kind', 'settings']).where('table_guid', '=', tableGuid).orderBy('position').execute(),
    ]);
    const resolved = resolveColumns(columns.map(toColumnRecord));
    const viewColumns = resolved.map((column) => ({ guid: column.guid, type: column.typeName }));
    const schema: TableSchema = {
      version,
      columns: resolved,
      jsonKeys: jsonKeysOf(resolved),
      views: views.map((view, index) => {
        const kind = isViewKind(view.kind) ? view.kind : 'grid';
        // Settings are read leniently: a column deleted or retyped since they were saved drops out of them.
        const settings = readViewSettings(kind, JSON.parse(view.settings) as unknown, viewColumns, false);
        return tableView({ viewGuid: view.guid, name: view.name, isDefault: index === 0 }, kind, settings);
      }),
    };
    if (this.schemas.size >= SCHEMA_CACHE_ENTRIES) this.schemas.delete(this.schemas.keys().next().value as string);
    this.schemas.set(tableGuid, schema);
    return schema;
  }

  /** Guids of a base's tables in creation order. */
  async tableGuidsOfBase(appId: string, fileId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('table_tables')
      .select('guid')
      .where('app_id', '=', appId)
      .where('file_id', '=', fileId)
      .orderBy('created_at')
      .orderBy('guid')
      .execute();
    return rows.map((row) => row.guid);
  }

  async tablesInBase(appId: string, fileId: string): Promise<Set<string>> {
    return new Set(await this.tableGuidsOfBase(appId, fileId));
  }

  /** The stored cells text of every row of a table in creation order, read `pageSize` rows at a time. */
  async allRowCells(tableGuid: string, pageSize: number): Promise<string[]> {
    const rows: string[] = [];
    let after = -1;
    for (;;) {
      const page = await this.db.selectFrom('table_rows').select(['seq', 'cells']).where('table_guid', '=', tableGuid).where('seq', '>', after).orderBy('seq').limit(pageSize).execute();
      for (const row of page) rows.push(row.cells);
      if (page.length < pageSize) return rows;
      after = page[page.length - 1]!.seq;
    }
  }

  /** A new table with its default view and columns, written in `trx`; a taken name is a unique violation. */
  async insertTable(
    trx: Transaction<Database>,
    table: { guid: string; appId: string; fileId: string; name: string; viewGuid: string; viewName: string; columns: readonly ResolvedColumn[] },
    now: number,
  ): Promise<void> {
    await trx.insertInto('table_tables').values({ guid: table.guid, app_id: table.appId, file_id: table.fileId, name: table.name, created_at: now, updated_at: now }).execute();
    await this.insertView(trx, table.guid, { viewGuid: table.viewGuid, name: table.viewName, kind: 'grid', settings: '{}' }, 0, now);
    if (table.columns.length > 0) {
      await trx.insertInto('table_columns').values(table.columns.map((column, position) => columnRecord(table.guid, column, position, now))).execute();
    }
  }

  /**
   * Inserts rows with the next sequence numbers of the table (AutoNumber cells take them too, in
   * `rowCells`), indexes their Link cells and returns their guids. Taking the numbers is an UPDATE of the
   * table's row, which also serialises concurrent inserts into one table.
   */
  async insertRows(trx: Transaction<Database>, tableGuid: string, columns: readonly ResolvedColumn[], rowCells: Cells[], now: number): Promise<string[]> {
    const counter = await trx
      .updateTable('table_tables')
      .set((eb) => ({ next_row_seq: eb('next_row_seq', '+', rowCells.length), updated_at: now }))
      .where('guid', '=', tableGuid)
      .returning('next_row_seq')
      .executeTakeFirstOrThrow();
    const firstSeq = Number(counter.next_row_seq) - rowCells.length + 1;
    const autoNumbers = columns.filter((column) => column.typeName === AUTO_NUMBER);
    const guids = newRowGuids(firstSeq, rowCells.length);
    const records = rowCells.map((cells, index) => {
      const seq = firstSeq + index;
      for (const column of autoNumbers) cells[column.guid] = seq;
      return { table_guid: tableGuid, seq, guid: guids[index] as string, cells: JSON.stringify(cells), created_at: now, updated_at: now };
    });
    await this.storage.insertMany(trx, 'table_rows', records);
    await this.links.indexNewRows(trx, columns, rowCells.map((cells, index) => ({ guid: guids[index] as string, cells })));
    return guids;
  }

  async findRow(db: Db, tableGuid: string, rowGuid: string): Promise<Cells> {
    const row = await db.selectFrom('table_rows').select('cells').where('guid', '=', rowGuid).where('table_guid', '=', tableGuid).executeTakeFirst();
    if (!row) throw new ApiError(Errors.rowNotFound, `row ${rowGuid} not found in table ${tableGuid}`);
    return parseCells(row.cells);
  }

  /**
   * Applies `change` to one row's cells in `trx` and re-indexes the Link cells among `writtenColumns`. Writing
   * the row first takes its lock (PostgreSQL) before reading it: concurrent updates of one row apply one after
   * the other instead of losing each other's cells.
   */
  async updateRowCells(
    trx: Transaction<Database>,
    table: LoadedTable,
    rowGuid: string,
    writtenColumns: ReadonlySet<string>,
    change: (cells: Cells) => void,
    now: number,
  ): Promise<Cells> {
    const touched = await trx.updateTable('table_rows').set({ updated_at: now }).where('guid', '=', rowGuid).where('table_guid', '=', table.guid).executeTakeFirst();
    if (touched.numUpdatedRows === 0n) throw new ApiError(Errors.rowNotFound, `row ${rowGuid} not found in table ${table.guid}`);
    const cells = await this.findRow(trx, table.guid, rowGuid);
    change(cells);
    await trx.updateTable('table_rows').set({ cells: JSON.stringify(cells) }).where('guid', '=', rowGuid).where('table_guid', '=', table.guid).execute();
    await this.links.reindexRow(trx, table.columns, writtenColumns, { guid: rowGuid, cells });
    return cells;
  }

  /**
   * Deletes a row, leaving its tombstone (paging offsets that name it still resolve) and taking it out of
   * every Link cell that names it. Returns the linking rows changed, by table.
   */
  async deleteRow(trx: Transaction<Database>, tableGuid: string, rowGuid: string, now: number): Promise<Map<string, string[]>> {
    const unlinked = await this.links.dropLinksTo(trx, rowGuid, now);
    const removed = await trx.deleteFrom('table_rows').where('guid', '=', rowGuid).where('table_guid', '=', tableGuid).returning('seq').executeTakeFirst();
    if (!removed) throw new ApiError(Errors.rowNotFound, `row ${rowGuid} not found in table ${tableGuid}`);
    await trx.insertInto('table_row_tombstones').values({ guid: rowGuid, table_guid: tableGuid, seq: removed.seq, deleted_at: now }).execute();
    for (const linkingTable of new Set([tableGuid, ...unlinked.keys()])) await this.touchTable(trx, linkingTable, now);
    return unlinked;
  }

  /** Which of `rowGuids` are live rows of the table, in one query per 500 guids. */
  async liveRowGuids(tableGuid: string, rowGuids: readonly string[]): Promise<Set<string>> {
    const live = new Set<string>();
    const wanted = [...new Set(rowGuids)];
    for (let start = 0; start < wanted.length; start += 500) {
      const rows = await this.db.selectFrom('table_rows').select('guid').where('table_guid', '=', tableGuid).where('guid', 'in', wanted.slice(start, start + 500)).execute();
      for (const row of rows) live.add(row.guid);
    }
    return live;
  }

  private async touchTable(trx: Db, tableGuid: string, now: number): Promise<void> {
    await trx.updateTable('table_tables').set({ updated_at: now }).where('guid', '=', tableGuid).execute();
  }

  /**
   * Starts a change of the table's columns inside `trx`: bumps the schema version (cached schemas in every
   * process are stale from this commit on), which also locks the table's row so that concurrent column
   * changes of one table apply one after the other; then reads the column order as it is now.
   */
  async lockColumns(trx: Db, tableGuid: string, now: number): Promise<string[]> {
    await this.bumpSchema(trx, tableGuid, now);
    const rows = await trx.selectFrom('table_columns').select('guid').where('table_guid', '=', tableGuid).orderBy('position').execute();
    return rows.map((row) => row.guid);
  }

  /** Starts a change of the table's views inside `trx`, as lockColumns does for columns; answers the view order. */
  async lockViews(trx: Db, tableGuid: string, now: number): Promise<Array<{ guid: string; name: string }>> {
    await this.bumpSchema(trx, tableGuid, now);
    return trx.selectFrom('table_views').select(['guid', 'name']).where('table_guid', '=', tableGuid).orderBy('position').execute();
  }

  private async bumpSchema(trx: Db, tableGuid: string, now: number): Promise<void> {
    await trx
      .updateTable('table_tables')
      .set((eb) => ({ updated_at: now, schema_version: eb('schema_version', '+', 1) }))
      .where('guid', '=', tableGuid)
      .execute();
  }

  /** Inserts a view at `position` (the last one: views are added at the end). `settings` is JSON text. */
  async insertView(trx: Db, tableGuid: string, view: { viewGuid: string; name: string; kind: string; settings: string }, position: number, now: number): Promise<void> {
    await trx
      .insertInto('table_views')
      .values({ guid: view.viewGuid, table_guid: tableGuid, name: view.name, position, kind: view.kind, settings: view.settings, created_at: now })
      .execute();
  }

  async updateView(trx: Db, tableGuid: string, viewGuid: string, change: { name: string; settings: ViewSettings }): Promise<void> {
    await trx
      .updateTable('table_views')
      .set({ name: change.name, settings: JSON.stringify(change.settings) })
      .where('guid', '=', viewGuid)
      .where('table_guid', '=', tableGuid)
      .execute();
  }

  /** Deletes a view and closes the gap in the positions. */
  async deleteView(trx: Db, tableGuid: string, viewGuid: string, position: number): Promise<void> {
    await trx.deleteFrom('table_views').where('guid', '=', viewGuid).where('table_guid', '=', tableGuid).execute();
    await trx
      .updateTable('table_views')
      .set((eb) => ({ position: eb('position', '-', 1) }))
      .where('table_guid', '=', tableGuid)
      .where('position', '>', position)
      .execute();
  }

  /** Inserts a column at `position` (dense positions, 0 = primary), moving the later ones right. */
  async insertColumn(trx: Db, tableGuid: string, column: ResolvedColumn, position: number, now: number): Promise<void> {
    await trx
      .updateTable('table_columns')
      .set((eb) => ({ position: eb('position', '+', 1) }))
      .where('table_guid', '=', tableGuid)
      .where('position', '>=', position)
      .execute();
    await trx.insertInto('table_columns').values(columnRecord(tableGuid, column, position, now)).execute();
  }

  /** Writes a column's name, type and props; its Link index follows a change to or from a Link type. */
  async updateColumn(trx: Transaction<Database>, tableGuid: string, before: ResolvedColumn, after: Omit<ResolvedColumn, 'type'>, now: number): Promise<void> {
    await trx
      .updateTable('table_columns')
      .set({ name: after.name, type: after.typeName, props: JSON.stringify(after.props), updated_at: now })
      .where('guid', '=', before.guid)
      .where('table_guid', '=', tableGuid)
      .execute();
    const wasLink = before.typeName === 'Link';
    const isLink = after.typeName === 'Link';
    if (wasLink !== isLink || (isLink && before.props.tableGuid !== after.props.tableGuid)) {
      await this.links.reindexColumn(trx, tableGuid, before.guid, isLink);
    }
  }

  /** Deletes a column (its Link index goes with it) and closes the gap in the positions. */
  async deleteColumn(trx: Db, tableGuid: string, columnGuid: string, position: number): Promise<void> {
    await trx.deleteFrom('table_columns').where('guid', '=', columnGuid).where('table_guid', '=', tableGuid).execute();
    await trx
      .updateTable('table_columns')
      .set((eb) => ({ position: eb('position', '-', 1) }))
      .where('table_guid', '=', tableGuid)
      .where('position', '>', position)
      .execute();
  }
}

function toColumnRecord(row: Selectable<TableColumnsTable>): { guid: string; name: string; type: string; props: ColumnProps } {
  return { guid: row.guid, name: row.name, type: row.type, props: JSON.parse(row.props) as ColumnProps };
}

function columnRecord(tableGuid: string, column: ResolvedColumn, position: number, now: number): Selectable<TableColumnsTable> {
  return {
    guid: column.guid,
    table_guid: tableGuid,
    name: column.name,
    type: column.typeName,
    props: JSON.stringify(column.props),
    position,
    created_at: now,
    updated_at: now,
  };
}
