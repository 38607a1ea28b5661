import { sql, type Selectable, type Transaction } from 'kysely';
import { ApiError, Errors } from '../../errors.js';
import type { RequestAuth } from '../../auth/request-auth.js';
import type { FileAccess, Permission } from '../../integrator/types.js';
import type { Db, Storage } from '../../storage/database.js';
import type { Database, TableColumnsTable } from '../../storage/schema.js';
import type { FileService } from '../files/file-service.js';
import { CellWriter, jsonKeysOf, LinkChecks, resolveColumns, toValueMap, valueMapJson, type Cells, type ResolvedColumn } from './cells.js';
import { FieldRuleError, type CellValue, type ColumnProps, type PropsContext } from '../../model/tables/fields/field-type.js';
import { AUTO_NUMBER, CREATABLE_TYPES, fieldType } from '../../model/tables/fields/registry.js';
import { newGuid, newRowGuids } from './guids.js';
import { MAX_COLUMNS } from './limits.js';
import type { TableChange } from './table-notices.js';

/** Rows a new table starts with unless `withoutInitRows` (what a user sees in a fresh grid). */
export const INITIAL_ROWS = 3;
export const DEFAULT_VIEW_NAME = 'Grid view';
export const MAX_ROWS_PER_REQUEST = 2000;
export const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 100;
export { MAX_COLUMNS };
/** Tables per base: bounded like the columns of a table (limits.ts). */
export const MAX_TABLES_PER_BASE = 500;
/** Row guids per query when checking Link cells: below either engine's limit on bound parameters. */
const MAX_STATEMENT_PARAMETERS = 30_000;
/** Tables whose columns and views are kept in memory (the oldest entry is dropped first). */
const SCHEMA_CACHE_ENTRIES = 1000;

export interface TableView {
  viewGuid: string;
  name: string;
  isDefault: boolean;
}

export interface TableColumn {
  guid: string;
  name: string;
  type: string;
  props: ColumnProps;
  isPrimary: boolean;
}

export interface DataTable {
  guid: string;
  baseGuid: string;
  name: string;
  defaultViewGuid: string;
  views: TableView[];
  columns: TableColumn[];
  createdAt: string;
  updatedAt: string;
}

export interface TableRow {
  guid: string;
  valueMap: Record<string, CellValue>;
}

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

/** Filter operators of a row window: on the cell's text (option names, numbers as written, dates as ISO text). */
export const FILTER_OPERATORS = ['contains', 'is', 'empty', 'notEmpty'] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];
/** Rows one window may ask for: a screenful or two of a grid, a few times over. */
export const MAX_WINDOW_ROWS = 500;

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

/**
 * New rows as answered, in the shape of a page. Value maps are objects here: stringifying the whole
 * answer at once costs less than making each row's JSON text from its stored text (as pages do).
 */
export interface CreatedRows {
  rows: TableRow[];
  offset: null;
  viewGuid: string;
}

export interface ColumnInput {
  name: string;
  type: string;
  props?: ColumnProps | undefined;
}

/** What the table domain needs from the integrator link and the event outbox. */
export interface TableDependencies {
  storage: Storage;
  files: FileService;
  /** Resolves the caller and checks one permission on the file (integrator callbacks). */
  authorize(auth: RequestAuth, fileId: string, permission: Permission): Promise<FileAccess>;
  /**
   * Records one change of a base's content inside the writing transaction: the file's new content version
   * and its FileContent event commit with the change, or not at all.
   */
  contentChanged(db: Db, change: { auth: RequestAuth; fileId: string; userId: string }): Promise<void>;
  /** Tells the base's open editors of a change after it committed; never throws. */
  tellEditors(appId: string, fileId: string, change: TableChange): void;
}

interface TableSchema {
  version: number;
  columns: ResolvedColumn[];
  /** column names as JSON key text, by column guid */
  jsonKeys: ReadonlyMap<string, string>;
  views: TableView[];
}

/** A table as loaded for one request: its row, columns in order, views in order. */
interface LoadedTable {
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

interface Caller {
  auth: RequestAuth;
  userId: string;
}

function invalid(message: string): ApiError {
  return new ApiError(Errors.invalidRequest, message);
}

function columnOut(column: Pick<ResolvedColumn, 'guid' | 'name' | 'typeName' | 'props'>, index: number): TableColumn {
  return { guid: column.guid, name: column.name, type: column.typeName, props: column.props, isPrimary: index === 0 };
}

function parseCells(text: string): Cells {
  return JSON.parse(text) as Cells;
}

/**
 * The table data API (spec 2.5, 4.4, 4.5): tables of a base, typed columns, rows and views. Every call is
 * authorised by the integrator (reads need `readable`, writes `editable`; a file with advanced permissions
 * refuses every call); every write commits with the base's new content version and one FileContent event.
 */
export class TableService {
  private readonly schemas = new Map<string, TableSchema>();

  constructor(private readonly deps: TableDependencies) {}

  private get db(): Db {
    return this.deps.storage.db;
  }

  // ---- access ---------------------------------------------------------------------------------------

  /** The base must be a collaborative file of type `table` in the caller's app, and the caller allowed. */
  private async enterBase(auth: RequestAuth, baseGuid: string, permission: Permission): Promise<Caller> {
    const file = await this.deps.files.find(auth.app.id, baseGuid);
    if (!file || file.type !== 'table') {
      throw new ApiError(Errors.fileNotFound, file ? `file ${baseGuid} is a ${file.type}, not a table base` : `base ${baseGuid} not found`);
    }
    return this.authorize(auth, baseGuid, permission);
  }

  private async authorize(auth: RequestAuth, fileId: string, permission: Permission): Promise<Caller> {
    const access = await this.deps.authorize(auth, fileId, permission);
    if (access.file.advancedPermissions === true) {
      throw new ApiError(Errors.permissionDenied, `file ${fileId} has advanced permissions enabled: the table API is not available for it`);
    }
    return { auth, userId: access.user.id };
  }

  /** Loads a table of the caller's app and checks the permission on its base. */
  private async enterTable(auth: RequestAuth, tableGuid: string, permission: Permission): Promise<{ caller: Caller; table: LoadedTable }> {
    const table = await this.loadTable(this.db, auth.app.id, tableGuid);
    const caller = await this.authorize(auth, table.fileId, permission);
    return { caller, table };
  }

  private async loadTable(db: Db, appId: string, tableGuid: string): Promise<LoadedTable> {
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
      db.selectFrom('table_views').select(['guid', 'name', 'position']).where('table_guid', '=', tableGuid).orderBy('position').execute(),
    ]);
    const resolved = resolveColumns(columns.map(toColumnRecord));
    const schema: TableSchema = {
      version,
      columns: resolved,
      jsonKeys: jsonKeysOf(resolved),
      views: views.map((view, index) => ({ viewGuid: view.guid, name: view.name, isDefault: index === 0 })),
    };
    if (this.schemas.size >= SCHEMA_CACHE_ENTRIES) this.schemas.delete(this.schemas.keys().next().value as string);
    this.schemas.set(tableGuid, schema);
    return schema;
  }

  private async tablesInBase(db: Db, appId: string, fileId: string): Promise<Set<string>> {
    const rows = await db.selectFrom('table_tables').select('guid').where('app_id', '=', appId).where('file_id', '=', fileId).execute();
    return new Set(rows.map((row) => row.guid));
  }

  /**
   * Runs a write in one transaction that also records the base's content change, then tells the base's
   * open editors what changed (`change` may depend on the result, e.g. the guids of new rows).
   */
  private async write<T>(
    caller: Caller,
    fileId: string,
    work: (trx: Transaction<Database>) => Promise<T>,
    change: (result: T) => TableChange | TableChange[],
  ): Promise<T> {
    const result = await this.db.transaction().execute(async (trx) => {
      const done = await work(trx);
      await this.deps.contentChanged(trx, { auth: caller.auth, fileId, userId: caller.userId });
      return done;
    });
    for (const told of [change(result)].flat()) this.deps.tellEditors(caller.auth.app.id, fileId, told);
    return result;
  }

  // ---- tables ---------------------------------------------------------------------------------------

  async listTables(auth: RequestAuth, baseGuid: string): Promise<DataTable[]> {
    await this.enterBase(auth, baseGuid, 'readable');
    const rows = await this.db
      .selectFrom('table_tables')
      .select('guid')
      .where('app_id', '=', auth.app.id)
      .where('file_id', '=', baseGuid)
      .orderBy('created_at')
      .orderBy('guid')
      .execute();
    const tables = await Promise.all(rows.map((row) => this.loadTable(this.db, auth.app.id, row.guid)));
    return tables.map(tableOut);
  }

  /**
   * Every table of a base with its columns and all its rows in creation order, each row its stored cells' JSON
   * text (an object keyed by column guid, parsed by the reader, off the event loop), read in pages: what an
   * export writes. No permission check: the caller authorised the export.
   */
  async *baseContent(appId: string, baseGuid: string, pageSize = 5000): AsyncGenerator<{ name: string; columns: TableColumn[]; rows: string[] }> {
    const tables = await this.db
      .selectFrom('table_tables')
      .select('guid')
      .where('app_id', '=', appId)
      .where('file_id', '=', baseGuid)
      .orderBy('created_at')
      .orderBy('guid')
      .execute();
    for (const { guid } of tables) {
      const table = await this.loadTable(this.db, appId, guid);
      const rows: string[] = [];
      let after = -1;
      for (;;) {
        const page = await this.db.selectFrom('table_rows').select(['seq', 'cells']).where('table_guid', '=', guid).where('seq', '>', after).orderBy('seq').limit(pageSize).execute();
        for (const row of page) rows.push(row.cells);
        if (page.length < pageSize) break;
        after = page[page.length - 1]!.seq;
      }
      yield { name: table.name, columns: table.columns.map(columnOut), rows };
    }
  }

  async createTable(
    auth: RequestAuth,
    input: { baseGuid: string; name: string; withoutInitRows: boolean; cols: ColumnInput[] },
  ): Promise<DataTable> {
    const caller = await this.enterBase(auth, input.baseGuid, 'editable');
    const tableGuid = newGuid('tbl');
    const existing = await this.tablesInBase(this.db, auth.app.id, input.baseGuid);
    if (existing.size >= MAX_TABLES_PER_BASE) throw invalid(`a base holds at most ${MAX_TABLES_PER_BASE} tables`);
    if (input.cols.length > MAX_COLUMNS) throw invalid(`a table holds at most ${MAX_COLUMNS} columns`);
    const propsContext: PropsContext = { tablesInBase: new Set([...existing, tableGuid]) };
    const names = new Set<string>();
    const columns = input.cols.map((col, index): ResolvedColumn => {
      const where = `cols[${index}]`;
      if (names.has(col.name)) throw invalid(`${where}.name ${JSON.stringify(col.name)} is a duplicate: column names are unique in a table`);
      names.add(col.name);
      assertTypeAllowed(col.type, index === 0, true, `${where}.`);
      return { guid: newGuid('col'), name: col.name, typeName: col.type, type: fieldType(col.type), props: parseProps(col.type, col.props ?? {}, propsContext, `${where}.`) };
    });

    const now = Date.now();
    const viewGuid = newGuid('viw');
    await this.write(caller, input.baseGuid, async (trx) => {
      try {
        await trx
          .insertInto('table_tables')
          .values({ guid: tableGuid, app_id: auth.app.id, file_id: input.baseGuid, name: input.name, created_at: now, updated_at: now })
          .execute();
      } catch (error) {
        if (this.deps.storage.isUniqueViolation(error)) throw invalid(`a table named ${JSON.stringify(input.name)} already exists in this base`);
        throw error;
      }
      await trx.insertInto('table_views').values({ guid: viewGuid, table_guid: tableGuid, name: DEFAULT_VIEW_NAME, position: 0, created_at: now }).execute();
      await trx
        .insertInto('table_columns')
        .values(columns.map((column, position) => columnRecord(tableGuid, column, position, now)))
        .execute();
      if (!input.withoutInitRows) await this.insertRows(trx, tableGuid, columns, Array.from({ length: INITIAL_ROWS }, () => ({})), now);
    }, () => ({ tableGuid, subject: 'table', action: 'create' }));
    return tableOut({
      guid: tableGuid,
      appId: auth.app.id,
      fileId: input.baseGuid,
      name: input.name,
      createdAt: now,
      updatedAt: now,
      columns,
      jsonKeys: jsonKeysOf(columns),
      views: [{ viewGuid, name: DEFAULT_VIEW_NAME, isDefault: true }],
    });
  }

  /**
   * Fills a base that an import is creating (file row already written in `trx`): its tables, columns and rows,
   * every value checked by its column type as the API checks it. No authorisation (the import was authorised
   * when accepted) and no FileContent event: the file is new. Rows go in batches of MAX_ROWS_PER_REQUEST.
   */
  async importTables(
    trx: Transaction<Database>,
    appId: string,
    fileId: string,
    tables: ReadonlyArray<{ name: string; columns: ColumnInput[]; rows: Array<Record<string, unknown>> }>,
  ): Promise<void> {
    if (tables.length > MAX_TABLES_PER_BASE) throw invalid(`a base holds at most ${MAX_TABLES_PER_BASE} tables`);
    const guids = tables.map(() => newGuid('tbl'));
    const now = Date.now();
    for (const [index, table] of tables.entries()) {
      const tableGuid = guids[index]!;
      if (table.columns.length > MAX_COLUMNS) throw invalid(`a table holds at most ${MAX_COLUMNS} columns`);
      const context: PropsContext = { tablesInBase: new Set(guids) };
      const columns = table.columns.map((col, position): ResolvedColumn => {
        assertTypeAllowed(col.type, position === 0, true, `table ${table.name}, column ${position + 1}: `);
        return { guid: newGuid('col'), name: col.name, typeName: col.type, type: fieldType(col.type), props: parseProps(col.type, col.props ?? {}, context, `table ${table.name}: `) };
      });
      await trx.insertInto('table_tables').values({ guid: tableGuid, app_id: appId, file_id: fileId, name: table.name, created_at: now, updated_at: now }).execute();
      await trx.insertInto('table_views').values({ guid: newGuid('viw'), table_guid: tableGuid, name: DEFAULT_VIEW_NAME, position: 0, created_at: now }).execute();
      if (columns.length > 0) await trx.insertInto('table_columns').values(columns.map((column, position) => columnRecord(tableGuid, column, position, now))).execute();
      const writer = new CellWriter(new Map(columns.map((column) => [column.name, column])));
      for (let start = 0; start < table.rows.length; start += MAX_ROWS_PER_REQUEST) {
        const rowCells = table.rows.slice(start, start + MAX_ROWS_PER_REQUEST).map((valueMap, offset) => {
          const cells: Cells = {};
          writer.apply(cells, valueMap, `table ${table.name}, row ${start + offset + 2}`);
          return cells;
        });
        await this.insertRows(trx, tableGuid, columns, rowCells, now);
      }
    }
  }

  // ---- columns --------------------------------------------------------------------------------------

  async listColumns(auth: RequestAuth, tableGuid: string): Promise<TableColumn[]> {
    const { table } = await this.enterTable(auth, tableGuid, 'readable');
    return table.columns.map(columnOut);
  }

  async createColumn(
    auth: RequestAuth,
    tableGuid: string,
    input: ColumnInput & { viewGuid: string; targetGuid?: string | undefined },
  ): Promise<TableColumn> {
    const { caller, table } = await this.enterTable(auth, tableGuid, 'editable');
    if (!table.views.some((view) => view.viewGuid === input.viewGuid)) {
      throw new ApiError(Errors.viewNotFound, `view ${input.viewGuid} not found in table ${tableGuid}`);
    }
    const first = input.targetGuid === '';
    assertTypeAllowed(input.type, first, false);
    this.assertNameFree(table, input.name, undefined);
    const tablesInBase = await this.tablesInBase(this.db, auth.app.id, table.fileId);
    const column: ResolvedColumn = {
      guid: newGuid('col'),
      name: input.name,
      typeName: input.type,
      type: fieldType(input.type),
      props: parseProps(input.type, input.props ?? {}, { tablesInBase }, ''),
    };
    const now = Date.now();
    const position = await this.write(caller, table.fileId, async (trx) => {
      const order = await this.lockColumns(trx, tableGuid, now);
      if (order.length >= MAX_COLUMNS) throw invalid(`a table holds at most ${MAX_COLUMNS} columns`);
      let at = order.length;
      if (first) at = 0;
      else if (input.targetGuid !== undefined) {
        const target = order.indexOf(input.targetGuid);
        if (target < 0) throw invalid(`targetGuid ${input.targetGuid} is not a column of table ${tableGuid}`);
        at = target + 1;
      }
      // Positions are dense (0 = primary); make room at `at`.
      await trx
        .updateTable('table_columns')
        .set((eb) => ({ position: eb('position', '+', 1) }))
        .where('table_guid', '=', tableGuid)
        .where('position', '>=', at)
        .execute();
      await this.insertColumnChecked(trx, columnRecord(tableGuid, column, at, now));
      return at;
    }, () => ({ tableGuid, subject: 'columns', action: 'create' }));
    return columnOut(column, position);
  }

  async updateColumn(
    auth: RequestAuth,
    tableGuid: string,
    columnGuid: string,
    input: { name?: string | undefined; type?: string | undefined; props?: ColumnProps | undefined },
  ): Promise<TableColumn> {
    const { caller, table } = await this.enterTable(auth, tableGuid, 'editable');
    const column = table.columns.find((candidate) => candidate.guid === columnGuid);
    if (!column) throw new ApiError(Errors.columnNotFound, `column ${columnGuid} not found in table ${tableGuid}`);
    if (input.name === undefined && input.type === undefined && input.props === undefined) {
      throw invalid('nothing to update: send at least one of name, type, props');
    }
    const name = input.name ?? column.name;
    if (name !== column.name) this.assertNameFree(table, name, column.guid);
    const typeName = input.type ?? column.typeName;
    const typeChanged = typeName !== column.typeName;
    if (typeChanged) assertTypeAllowed(typeName, table.columns[0]?.guid === columnGuid, false);
    let props = column.props;
    if (input.props !== undefined || typeChanged) {
      const tablesInBase = await this.tablesInBase(this.db, auth.app.id, table.fileId);
      // A new type re-reads the old props (unknown settings dropped, missing ones defaulted).
      props = parseProps(typeName, input.props ?? column.props, { tablesInBase }, '');
    }
    const now = Date.now();
    const position = await this.write(caller, table.fileId, async (trx) => {
      const order = await this.lockColumns(trx, tableGuid, now);
      const at = order.indexOf(columnGuid);
      if (at < 0) throw new ApiError(Errors.columnNotFound, `column ${columnGuid} not found in table ${tableGuid}`);
      // Checked again under the lock: another request may have made this column primary meanwhile.
      if (typeChanged) assertTypeAllowed(typeName, at === 0, false);
      try {
        await trx
          .updateTable('table_columns')
          .set({ name, type: typeName, props: JSON.stringify(props), updated_at: now })
          .where('guid', '=', columnGuid)
          .where('table_guid', '=', tableGuid)
          .execute();
      } catch (error) {
        if (this.deps.storage.isUniqueViolation(error)) throw duplicateName(name);
        throw error;
      }
      return at;
    }, () => ({ tableGuid, subject: 'columns', action: 'update' }));
    return columnOut({ guid: column.guid, name, typeName, props }, position);
  }

  async deleteColumn(auth: RequestAuth, tableGuid: string, columnGuid: string): Promise<void> {
    const { caller, table } = await this.enterTable(auth, tableGuid, 'editable');
    if (!table.columns.some((candidate) => candidate.guid === columnGuid)) {
      throw new ApiError(Errors.columnNotFound, `column ${columnGuid} not found in table ${tableGuid}`);
    }
    const now = Date.now();
    // Cells of the column stay in the rows, unreachable (spec 4.5 rule 3: deleting a column rewrites no row).
    await this.write(caller, table.fileId, async (trx) => {
      const order = await this.lockColumns(trx, tableGuid, now);
      const position = order.indexOf(columnGuid);
      if (position < 0) throw new ApiError(Errors.columnNotFound, `column ${columnGuid} not found in table ${tableGuid}`);
      if (position === 0) {
        throw invalid('the primary column cannot be deleted; add another primary column first (create column with targetGuid "")');
      }
      await trx.deleteFrom('table_columns').where('guid', '=', columnGuid).where('table_guid', '=', tableGuid).execute();
      await trx
        .updateTable('table_columns')
        .set((eb) => ({ position: eb('position', '-', 1) }))
        .where('table_guid', '=', tableGuid)
        .where('position', '>', position)
        .execute();
    }, () => ({ tableGuid, subject: 'columns', action: 'delete' }));
  }

  private assertNameFree(table: LoadedTable, name: string, except: string | undefined): void {
    if (table.columns.some((column) => column.name === name && column.guid !== except)) throw duplicateName(name);
  }

  private async insertColumnChecked(trx: Db, record: Selectable<TableColumnsTable>): Promise<void> {
    try {
      await trx.insertInto('table_columns').values(record).execute();
    } catch (error) {
      if (this.deps.storage.isUniqueViolation(error)) throw duplicateName(record.name);
      throw error;
    }
  }

  private async touchTable(trx: Db, tableGuid: string, now: number): Promise<void> {
    await trx.updateTable('table_tables').set({ updated_at: now }).where('guid', '=', tableGuid).execute();
  }

  /**
   * Starts a change of the table's columns inside `trx`: bumps the schema version (cached schemas in every
   * process are stale from this commit on), which also locks the table's row so that concurrent column
   * changes of one table apply one after the other; then reads the column order as it is now.
   */
  private async lockColumns(trx: Db, tableGuid: string, now: number): Promise<string[]> {
    await trx
      .updateTable('table_tables')
      .set((eb) => ({ updated_at: now, schema_version: eb('schema_version', '+', 1) }))
      .where('guid', '=', tableGuid)
      .execute();
    const rows = await trx.selectFrom('table_columns').select('guid').where('table_guid', '=', tableGuid).orderBy('position').execute();
    return rows.map((row) => row.guid);
  }

  // ---- rows -----------------------------------------------------------------------------------------

  /**
   * One page of rows in creation order. Paging input never fails: the caller's page size is already
   * clamped; an `offset` that names a deleted row resumes where that row was; one that never named a row of
   * this table yields an empty last page.
   */
  async listRows(auth: RequestAuth, tableGuid: string, page: { pageSize: number; offset?: string | undefined; viewGuid?: string | undefined }): Promise<RowPage> {
    const { table } = await this.enterTable(auth, tableGuid, 'readable');
    const view = this.viewOf(table, page.viewGuid);
    let query = this.db
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
  async rowWindow(auth: RequestAuth, tableGuid: string, query: RowWindowQuery): Promise<RowWindow> {
    const { table } = await this.enterTable(auth, tableGuid, 'readable');
    const view = this.viewOf(table, query.viewGuid);
    const columnOf = (guid: string, what: string): ResolvedColumn => {
      const column = table.columns.find((candidate) => candidate.guid === guid);
      if (!column) throw invalid(`${what} ${JSON.stringify(guid)} is not a column of table ${tableGuid}`);
      return column;
    };
    const storage = this.deps.storage;
    const member = (column: ResolvedColumn) => storage.jsonMember('cells', column.guid, NUMERIC_TYPES.has(column.typeName) ? 'number' : 'text');
    let filtered = this.db.selectFrom('table_rows').where('table_guid', '=', tableGuid);
    if (query.filter) {
      const { operator, value } = query.filter;
      const text = storage.jsonMember('cells', columnOf(query.filter.columnGuid, 'filter.columnGuid').guid, 'text');
      if (operator === 'empty') filtered = filtered.where(sql<boolean>`${text} is null`);
      else if (operator === 'notEmpty') filtered = filtered.where(sql<boolean>`${text} is not null`);
      else if (operator === 'is') filtered = filtered.where(sql<boolean>`cast(${text} as text) = ${value}`);
      else filtered = filtered.where(sql<boolean>`lower(cast(${text} as text)) like ${`%${escapeLike(value.toLowerCase())}%`} escape '\\'`);
    }
    const countAll = () => filtered.select((eb) => eb.fn.countAll<number | string>().as('total')).executeTakeFirstOrThrow();
    let rows: { guid: string; cells: string }[];
    let total: number;
    if (!query.sort && !query.filter) {
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
      if (query.sort) {
        const sorted = member(columnOf(query.sort.columnGuid, 'sort.columnGuid'));
        picking = picking.orderBy(sql`${sorted} ${sql.raw(query.sort.descending ? 'desc' : 'asc')} nulls last`);
      }
      const picked = await picking.orderBy('seq').limit(query.count).offset(query.start).execute();
      total = Number(picked[0]?.total ?? (await countAll()).total);
      const order = new Map(picked.map((row, index) => [String(row.seq), index]));
      const found = picked.length === 0 ? [] : await this.db.selectFrom('table_rows').select(['seq', 'guid', 'cells']).where('table_guid', '=', tableGuid).where('seq', 'in', picked.map((row) => row.seq)).execute();
      rows = found.sort((a, b) => order.get(String(a.seq))! - order.get(String(b.seq))!);
    }
    return {
      rows: rows.map((row) => ({ guid: row.guid, valueMapJson: valueMapJson(row.cells, table.columns, table.jsonKeys) })),
      start: query.start,
      total,
      viewGuid: view.viewGuid,
    };
  }

  private viewOf(table: LoadedTable, viewGuid: string | undefined): TableView {
    const view = viewGuid === undefined ? table.views[0] : table.views.find((candidate) => candidate.viewGuid === viewGuid);
    if (!view) {
      throw new ApiError(Errors.viewNotFound, viewGuid === undefined ? `table ${table.guid} has no default view` : `view ${viewGuid} not found in table ${table.guid}`);
    }
    return view;
  }

  async getRow(auth: RequestAuth, tableGuid: string, rowGuid: string): Promise<TableRow> {
    const { table } = await this.enterTable(auth, tableGuid, 'readable');
    const row = await this.findRow(this.db, tableGuid, rowGuid);
    return { guid: rowGuid, valueMap: toValueMap(row.cells, table.columns) };
  }

  /** Which of `rowGuids` are live rows of the table, in one query per 500 guids (callers checking many rows at once). */
  async liveRowGuids(auth: RequestAuth, tableGuid: string, rowGuids: readonly string[]): Promise<Set<string>> {
    await this.enterTable(auth, tableGuid, 'readable');
    const live = new Set<string>();
    const wanted = [...new Set(rowGuids)];
    for (let start = 0; start < wanted.length; start += 500) {
      const rows = await this.db.selectFrom('table_rows').select('guid').where('table_guid', '=', tableGuid).where('guid', 'in', wanted.slice(start, start + 500)).execute();
      for (const row of rows) live.add(row.guid);
    }
    return live;
  }

  private async findRow(db: Db, tableGuid: string, rowGuid: string): Promise<{ cells: Cells }> {
    const row = await db.selectFrom('table_rows').select('cells').where('guid', '=', rowGuid).where('table_guid', '=', tableGuid).executeTakeFirst();
    if (!row) throw new ApiError(Errors.rowNotFound, `row ${rowGuid} not found in table ${tableGuid}`);
    return { cells: parseCells(row.cells) };
  }

  /** Creates 1-2000 rows atomically: every value is checked before anything is written. */
  async createRows(auth: RequestAuth, tableGuid: string, valueMaps: Record<string, unknown>[]): Promise<CreatedRows> {
    const { caller, table } = await this.enterTable(auth, tableGuid, 'editable');
    const columnsByName = new Map(table.columns.map((column) => [column.name, column]));
    const writer = new CellWriter(columnsByName);
    const rowCells = valueMaps.map((valueMap, index) => {
      const cells: Cells = {};
      writer.apply(cells, valueMap, `rows[${index}]`);
      return cells;
    });
    await this.checkLinks(auth.app.id, table.fileId, writer.links);
    const now = Date.now();
    const guids = await this.write(
      caller,
      table.fileId,
      (trx) => this.insertRows(trx, tableGuid, table.columns, rowCells, now),
      (rowGuids) => ({ tableGuid, subject: 'rows', action: 'create', rowGuids }),
    );
    return {
      rows: guids.map((guid, index) => ({ guid, valueMap: toValueMap(rowCells[index] as Cells, table.columns) })),
      offset: null,
      viewGuid: table.views[0]?.viewGuid ?? '',
    };
  }

  /**
   * Inserts rows with the next sequence numbers of the table (AutoNumber cells take them too, in
   * `rowCells`) and returns their guids. Taking the numbers is an UPDATE of the table's row, which also
   * serialises concurrent inserts into one table.
   */
  private async insertRows(trx: Transaction<Database>, tableGuid: string, columns: readonly ResolvedColumn[], rowCells: Cells[], now: number): Promise<string[]> {
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
    await this.deps.storage.insertMany(trx, 'table_rows', records);
    return guids;
  }

  /** Updates the named cells of one row; omitted columns keep their values, `null` clears. */
  async updateRow(auth: RequestAuth, tableGuid: string, rowGuid: string, valueMap: Record<string, unknown>): Promise<TableRow> {
    const { caller, table } = await this.enterTable(auth, tableGuid, 'editable');
    const columnsByName = new Map(table.columns.map((column) => [column.name, column]));
    const writer = new CellWriter(columnsByName);
    // Validate before touching storage, against an empty row: the outcome of a cell never depends on others.
    writer.apply({}, valueMap, `row ${rowGuid}`);
    await this.checkLinks(auth.app.id, table.fileId, writer.links);
    const now = Date.now();
    const cells = await this.write(caller, table.fileId, async (trx) => {
      // Writing the row first takes its lock (PostgreSQL) before reading it: concurrent PATCHes of one row
      // apply one after the other instead of losing each other's cells.
      const touched = await trx.updateTable('table_rows').set({ updated_at: now }).where('guid', '=', rowGuid).where('table_guid', '=', tableGuid).executeTakeFirst();
      if (touched.numUpdatedRows === 0n) throw new ApiError(Errors.rowNotFound, `row ${rowGuid} not found in table ${tableGuid}`);
      const current = (await this.findRow(trx, tableGuid, rowGuid)).cells;
      writer.apply(current, valueMap, `row ${rowGuid}`);
      await trx.updateTable('table_rows').set({ cells: JSON.stringify(current) }).where('guid', '=', rowGuid).where('table_guid', '=', tableGuid).execute();
      return current;
    }, () => ({ tableGuid, subject: 'rows', action: 'update', rowGuids: [rowGuid] }));
    return { guid: rowGuid, valueMap: toValueMap(cells, table.columns) };
  }

  async deleteRow(auth: RequestAuth, tableGuid: string, rowGuid: string): Promise<void> {
    const { caller, table } = await this.enterTable(auth, tableGuid, 'editable');
    const now = Date.now();
    await this.write(caller, table.fileId, async (trx) => {
      const removed = await trx
        .deleteFrom('table_rows')
        .where('guid', '=', rowGuid)
        .where('table_guid', '=', tableGuid)
        .returning('seq')
        .executeTakeFirst();
      if (!removed) throw new ApiError(Errors.rowNotFound, `row ${rowGuid} not found in table ${tableGuid}`);
      await trx.insertInto('table_row_tombstones').values({ guid: rowGuid, table_guid: tableGuid, seq: removed.seq, deleted_at: now }).execute();
      await this.touchTable(trx, tableGuid, now);
      return this.dropLinksTo(trx, table.fileId, tableGuid, rowGuid, now);
    }, (unlinked) => [
      { tableGuid, subject: 'rows', action: 'delete', rowGuids: [rowGuid] },
      ...[...unlinked].map(([linkingTable, rowGuids]): TableChange => ({ tableGuid: linkingTable, subject: 'rows', action: 'update', rowGuids })),
    ]);
  }

  /**
   * Takes the deleted row `rowGuid` of `tableGuid` out of every Link cell of the base that names it (in the
   * deleting transaction), so that no cell keeps a guid nothing answers. Returns the rows changed, by table.
   */
  private async dropLinksTo(trx: Transaction<Database>, fileId: string, tableGuid: string, rowGuid: string, now: number): Promise<Map<string, string[]>> {
    const linkColumns = (
      await trx
        .selectFrom('table_columns')
        .innerJoin('table_tables', 'table_tables.guid', 'table_columns.table_guid')
        .select(['table_columns.guid', 'table_columns.table_guid', 'table_columns.props'])
        .where('table_tables.file_id', '=', fileId)
        .where('table_columns.type', '=', 'Link')
        .execute()
    ).filter((column) => (JSON.parse(column.props) as { tableGuid?: unknown }).tableGuid === tableGuid);
    const changed = new Map<string, string[]>();
    for (const column of linkColumns) {
      // A cell holds the guids as a JSON array: rows whose text names the guid are the only candidates.
      const cell = this.deps.storage.jsonMember('cells', column.guid, 'text');
      const candidates = await trx
        .selectFrom('table_rows')
        .select(['guid', 'cells'])
        .where('table_guid', '=', column.table_guid)
        .where(sql<boolean>`cast(${cell} as text) like ${`%${escapeLike(JSON.stringify(rowGuid))}%`} escape '\\'`)
        .execute();
      for (const row of candidates) {
        const cells = JSON.parse(row.cells) as Record<string, unknown>;
        const linked = cells[column.guid];
        if (!Array.isArray(linked) || !linked.includes(rowGuid)) continue;
        const kept = linked.filter((guid) => guid !== rowGuid);
        // An empty Link cell is absent, as writing [] leaves it.
        if (kept.length > 0) cells[column.guid] = kept;
        else delete cells[column.guid];
        await trx.updateTable('table_rows').set({ cells: JSON.stringify(cells), updated_at: now }).where('table_guid', '=', column.table_guid).where('guid', '=', row.guid).execute();
        changed.set(column.table_guid, [...(changed.get(column.table_guid) ?? []), row.guid]);
      }
      if (candidates.length > 0 && column.table_guid !== tableGuid) await this.touchTable(trx, column.table_guid, now);
    }
    return changed;
  }

  /** Every row guid that a written Link cell names must be a row of the linked table (same app and base). */
  private async checkLinks(appId: string, fileId: string, links: LinkChecks): Promise<void> {
    for (const [tableGuid, wanted] of links.byTable) {
      const table = await this.db
        .selectFrom('table_tables')
        .select('guid')
        .where('guid', '=', tableGuid)
        .where('app_id', '=', appId)
        .where('file_id', '=', fileId)
        .executeTakeFirst();
      const found = new Set<string>();
      const guids = [...wanted.keys()];
      const chunk = MAX_STATEMENT_PARAMETERS - 1;
      for (let start = 0; table && start < guids.length; start += chunk) {
        const rows = await this.db
          .selectFrom('table_rows')
          .select('guid')
          .where('table_guid', '=', tableGuid)
          .where('guid', 'in', guids.slice(start, start + chunk))
          .execute();
        for (const row of rows) found.add(row.guid);
      }
      for (const [guid, where] of wanted) {
        if (!found.has(guid)) throw invalid(`${where} (Link): ${JSON.stringify(guid)} is not a row of the linked table ${tableGuid}`);
      }
    }
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

function tableOut(table: LoadedTable): DataTable {
  return {
    guid: table.guid,
    baseGuid: table.fileId,
    name: table.name,
    defaultViewGuid: table.views[0]?.viewGuid ?? '',
    views: table.views,
    columns: table.columns.map(columnOut),
    createdAt: new Date(table.createdAt).toISOString(),
    updatedAt: new Date(table.updatedAt).toISOString(),
  };
}

/** Types allowed as the primary column: at table creation AutoNumber too (spec 4.4 rules 1-3). */
export function primaryTypes(atCreation: boolean): string[] {
  return [...CREATABLE_TYPES, AUTO_NUMBER].filter((name) => fieldType(name)?.primary && (atCreation || name !== AUTO_NUMBER));
}

/** A type a caller may give a column: any creatable type, and for the primary column one of primaryTypes. */
function assertTypeAllowed(type: string, primary: boolean, atCreation: boolean, where = ''): void {
  const allowed = primary ? primaryTypes(atCreation) : CREATABLE_TYPES;
  if (!allowed.includes(type)) {
    throw invalid(`${where}type ${JSON.stringify(type)} is not allowed${primary ? ' for the primary column' : ''}; use one of ${allowed.join(', ')}`);
  }
}

function parseProps(type: string, raw: ColumnProps, context: PropsContext, where: string): ColumnProps {
  const module = fieldType(type);
  if (!module) throw invalid(`${where}type ${JSON.stringify(type)} is not a column type`);
  try {
    return module.parseProps(raw, context);
  } catch (error) {
    if (error instanceof FieldRuleError) throw invalid(`${where}${error.message} (${type})`);
    throw error;
  }
}

/** Types whose cells are JSON numbers: sorted as numbers, not as text. */
const NUMERIC_TYPES: ReadonlySet<string> = new Set(['Number', 'Percent', 'Rate', 'AutoNumber']);

/** `%`, `_` and the escape character itself taken literally in a LIKE pattern (escape `\`). */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

function duplicateName(name: string): ApiError {
  return invalid(`a column named ${JSON.stringify(name)} already exists in this table`);
}
