import type { Transaction } from 'kysely';
import { ApiError, Errors } from '../../errors.js';
import type { RequestAuth } from '../../auth/request-auth.js';
import type { FileAccess, Permission } from '../../integrator/types.js';
import type { Db, Storage } from '../../storage/database.js';
import type { Database } from '../../storage/schema.js';
import type { FileService } from '../files/file-service.js';
import { CellWriter, jsonKeysOf, toValueMap, type Cells, type ResolvedColumn } from './cells.js';
import { FieldRuleError, type CellValue, type ColumnProps, type PropsContext } from '../../model/tables/fields/field-type.js';
import { AUTO_NUMBER, CREATABLE_TYPES, fieldType } from '../../model/tables/fields/registry.js';
import { newGuid } from './guids.js';
import { defaultViewSettings, MAX_VIEWS_PER_TABLE, readViewSettings, tableView, ViewRuleError, type ViewKind, type ViewSettings } from '../../model/tables/views.js';
import { MAX_COLUMNS } from './limits.js';
import { LinkIntegrity } from './link-integrity.js';
import { RowQueries, type RowPage, type RowWindow, type RowWindowQuery } from './row-window.js';
import { TableStore, type LoadedTable, type TableView } from './table-store.js';
import type { TableChange } from './table-notices.js';

/** Rows a new table starts with unless `withoutInitRows` (what a user sees in a fresh grid). */
export const INITIAL_ROWS = 3;
export const DEFAULT_VIEW_NAME = 'Grid view';
export const MAX_ROWS_PER_REQUEST = 2000;
export { MAX_COLUMNS };
/** Tables per base: bounded like the columns of a table (limits.ts). */
export const MAX_TABLES_PER_BASE = 500;

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
  /** the spec's view objects; kinds and settings are our extension, at GET /tables/{guid}/views */
  views: Array<Pick<TableView, 'viewGuid' | 'name' | 'isDefault'>>;
  columns: TableColumn[];
  createdAt: string;
  updatedAt: string;
}

export interface TableRow {
  guid: string;
  valueMap: Record<string, CellValue>;
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

/**
 * The table data API (spec 2.5, 4.4, 4.5): tables of a base, typed columns, rows and views. Every call is
 * authorised by the integrator (reads need `readable`, writes `editable`; a file with advanced permissions
 * refuses every call); every write commits with the base's new content version and one FileContent event.
 */
export class TableService {
  private readonly links: LinkIntegrity;
  private readonly store: TableStore;
  private readonly rows: RowQueries;

  constructor(private readonly deps: TableDependencies) {
    this.links = new LinkIntegrity(deps.storage);
    this.store = new TableStore(deps.storage, this.links);
    this.rows = new RowQueries(deps.storage);
  }

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
    const table = await this.store.loadTable(this.db, auth.app.id, tableGuid);
    const caller = await this.authorize(auth, table.fileId, permission);
    return { caller, table };
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
    const guids = await this.store.tableGuidsOfBase(auth.app.id, baseGuid);
    const tables = await Promise.all(guids.map((guid) => this.store.loadTable(this.db, auth.app.id, guid)));
    return tables.map(tableOut);
  }

  /**
   * Every table of a base with its columns and all its rows in creation order, each row its stored cells' JSON
   * text (an object keyed by column guid, parsed by the reader, off the event loop), read in pages: what an
   * export writes. No permission check: the caller authorised the export.
   */
  async *baseContent(appId: string, baseGuid: string, pageSize = 5000): AsyncGenerator<{ name: string; columns: TableColumn[]; rows: string[] }> {
    for (const guid of await this.store.tableGuidsOfBase(appId, baseGuid)) {
      const table = await this.store.loadTable(this.db, appId, guid);
      yield { name: table.name, columns: table.columns.map(columnOut), rows: await this.store.allRowCells(guid, pageSize) };
    }
  }

  async createTable(
    auth: RequestAuth,
    input: { baseGuid: string; name: string; withoutInitRows: boolean; cols: ColumnInput[] },
  ): Promise<DataTable> {
    const caller = await this.enterBase(auth, input.baseGuid, 'editable');
    const tableGuid = newGuid('tbl');
    const existing = await this.store.tablesInBase(auth.app.id, input.baseGuid);
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
        await this.store.insertTable(trx, { guid: tableGuid, appId: auth.app.id, fileId: input.baseGuid, name: input.name, viewGuid, viewName: DEFAULT_VIEW_NAME, columns }, now);
      } catch (error) {
        if (this.store.isUniqueViolation(error)) throw invalid(`a table named ${JSON.stringify(input.name)} already exists in this base`);
        throw error;
      }
      if (!input.withoutInitRows) await this.store.insertRows(trx, tableGuid, columns, Array.from({ length: INITIAL_ROWS }, () => ({})), now);
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
      views: [tableView({ viewGuid, name: DEFAULT_VIEW_NAME, isDefault: true }, 'grid', defaultViewSettings('grid', []))],
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
      await this.store.insertTable(trx, { guid: tableGuid, appId, fileId, name: table.name, viewGuid: newGuid('viw'), viewName: DEFAULT_VIEW_NAME, columns }, now);
      const writer = new CellWriter(new Map(columns.map((column) => [column.name, column])));
      for (let start = 0; start < table.rows.length; start += MAX_ROWS_PER_REQUEST) {
        const rowCells = table.rows.slice(start, start + MAX_ROWS_PER_REQUEST).map((valueMap, offset) => {
          const cells: Cells = {};
          writer.apply(cells, valueMap, `table ${table.name}, row ${start + offset + 2}`);
          return cells;
        });
        await this.store.insertRows(trx, tableGuid, columns, rowCells, now);
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
    const tablesInBase = await this.store.tablesInBase(auth.app.id, table.fileId);
    const column: ResolvedColumn = {
      guid: newGuid('col'),
      name: input.name,
      typeName: input.type,
      type: fieldType(input.type),
      props: parseProps(input.type, input.props ?? {}, { tablesInBase }, ''),
    };
    const now = Date.now();
    const position = await this.write(caller, table.fileId, async (trx) => {
      const order = await this.store.lockColumns(trx, tableGuid, now);
      if (order.length >= MAX_COLUMNS) throw invalid(`a table holds at most ${MAX_COLUMNS} columns`);
      let at = order.length;
      if (first) at = 0;
      else if (input.targetGuid !== undefined) {
        const target = order.indexOf(input.targetGuid);
        if (target < 0) throw invalid(`targetGuid ${input.targetGuid} is not a column of table ${tableGuid}`);
        at = target + 1;
      }
      await this.uniqueName(input.name, () => this.store.insertColumn(trx, tableGuid, column, at, now));
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
      const tablesInBase = await this.store.tablesInBase(auth.app.id, table.fileId);
      // A new type re-reads the old props (unknown settings dropped, missing ones defaulted).
      props = parseProps(typeName, input.props ?? column.props, { tablesInBase }, '');
    }
    const now = Date.now();
    const position = await this.write(caller, table.fileId, async (trx) => {
      const order = await this.store.lockColumns(trx, tableGuid, now);
      const at = order.indexOf(columnGuid);
      if (at < 0) throw new ApiError(Errors.columnNotFound, `column ${columnGuid} not found in table ${tableGuid}`);
      // Checked again under the lock: another request may have made this column primary meanwhile.
      if (typeChanged) assertTypeAllowed(typeName, at === 0, false);
      await this.uniqueName(name, () => this.store.updateColumn(trx, tableGuid, column, { guid: columnGuid, name, typeName, props }, now));
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
      const order = await this.store.lockColumns(trx, tableGuid, now);
      const position = order.indexOf(columnGuid);
      if (position < 0) throw new ApiError(Errors.columnNotFound, `column ${columnGuid} not found in table ${tableGuid}`);
      if (position === 0) {
        throw invalid('the primary column cannot be deleted; add another primary column first (create column with targetGuid "")');
      }
      await this.store.deleteColumn(trx, tableGuid, columnGuid, position);
    }, () => ({ tableGuid, subject: 'columns', action: 'delete' }));
  }

  private assertNameFree(table: LoadedTable, name: string, except: string | undefined): void {
    if (table.columns.some((column) => column.name === name && column.guid !== except)) throw duplicateName(name);
  }

  /** Runs a column write; a concurrent request that took the name meanwhile makes it the duplicate-name error. */
  private async uniqueName(name: string, write: () => Promise<void>): Promise<void> {
    try {
      await write();
    } catch (error) {
      if (this.store.isUniqueViolation(error)) throw duplicateName(name);
      throw error;
    }
  }

  // ---- views ----------------------------------------------------------------------------------------

  /** The table's saved views in order, the default grid view first (docs/TABLE-API.md "Views"). */
  async listViews(auth: RequestAuth, tableGuid: string): Promise<TableView[]> {
    const { table } = await this.enterTable(auth, tableGuid, 'readable');
    return table.views;
  }

  /** Adds a view at the end; absent settings are the kind's defaults for the table's columns. */
  async createView(auth: RequestAuth, tableGuid: string, input: { name: string; kind: ViewKind; settings?: unknown }): Promise<TableView> {
    const { caller, table } = await this.enterTable(auth, tableGuid, 'editable');
    const columns = viewColumnsOf(table);
    const settings = input.settings === undefined ? defaultViewSettings(input.kind, columns) : viewSettings(input.kind, input.settings, columns);
    const viewGuid = newGuid('viw');
    const now = Date.now();
    await this.write(caller, table.fileId, async (trx) => {
      const views = await this.store.lockViews(trx, tableGuid, now);
      if (views.length >= MAX_VIEWS_PER_TABLE) throw new ApiError(Errors.viewLimitReached, `a table holds at most ${MAX_VIEWS_PER_TABLE} views`);
      assertViewNameFree(views, input.name, undefined);
      await this.store.insertView(trx, tableGuid, { viewGuid, name: input.name, kind: input.kind, settings: JSON.stringify(settings) }, views.length, now);
    }, () => ({ tableGuid, subject: 'views', action: 'create' }));
    return tableView({ viewGuid, name: input.name, isDefault: false }, input.kind, settings);
  }

  /** Renames a view and/or replaces its settings (sent settings replace the stored ones whole). */
  async updateView(auth: RequestAuth, tableGuid: string, viewGuid: string, input: { name?: string | undefined; settings?: unknown }): Promise<TableView> {
    const { caller, table } = await this.enterTable(auth, tableGuid, 'editable');
    const view = findView(table, viewGuid);
    if (input.name === undefined && input.settings === undefined) throw new ApiError(Errors.invalidViewParams, 'nothing to update: send name, settings or both');
    const name = input.name ?? view.name;
    const settings = input.settings === undefined ? view.settings : viewSettings(view.kind, input.settings, viewColumnsOf(table));
    const now = Date.now();
    await this.write(caller, table.fileId, async (trx) => {
      const views = await this.store.lockViews(trx, tableGuid, now);
      if (!views.some((candidate) => candidate.guid === viewGuid)) throw viewMissing(tableGuid, viewGuid);
      assertViewNameFree(views, name, viewGuid);
      await this.store.updateView(trx, tableGuid, viewGuid, { name, settings });
    }, () => ({ tableGuid, subject: 'views', action: 'update' }));
    return tableView({ viewGuid, name, isDefault: view.isDefault }, view.kind, settings);
  }

  async deleteView(auth: RequestAuth, tableGuid: string, viewGuid: string): Promise<void> {
    const { caller, table } = await this.enterTable(auth, tableGuid, 'editable');
    findView(table, viewGuid);
    const now = Date.now();
    await this.write(caller, table.fileId, async (trx) => {
      const views = await this.store.lockViews(trx, tableGuid, now);
      const position = views.findIndex((candidate) => candidate.guid === viewGuid);
      if (position < 0) throw viewMissing(tableGuid, viewGuid);
      if (position === 0) throw new ApiError(Errors.defaultViewKept, 'the default view cannot be deleted (every table keeps its default grid view)');
      await this.store.deleteView(trx, tableGuid, viewGuid, position);
    }, () => ({ tableGuid, subject: 'views', action: 'delete' }));
  }

  // ---- rows -----------------------------------------------------------------------------------------

  /** One page of rows in creation order (row-window.ts). */
  async listRows(auth: RequestAuth, tableGuid: string, page: { pageSize: number; offset?: string | undefined; viewGuid?: string | undefined }): Promise<RowPage> {
    const { table } = await this.enterTable(auth, tableGuid, 'readable');
    return this.rows.page(table, page);
  }

  /** Rows of a view's filtered, sorted order as a virtualised grid asks for them (row-window.ts). */
  async rowWindow(auth: RequestAuth, tableGuid: string, query: RowWindowQuery): Promise<RowWindow> {
    const { table } = await this.enterTable(auth, tableGuid, 'readable');
    return this.rows.window(table, query);
  }

  async getRow(auth: RequestAuth, tableGuid: string, rowGuid: string): Promise<TableRow> {
    const { table } = await this.enterTable(auth, tableGuid, 'readable');
    const cells = await this.store.findRow(this.db, tableGuid, rowGuid);
    return { guid: rowGuid, valueMap: toValueMap(cells, table.columns) };
  }

  /** Which of `rowGuids` are live rows of the table (callers checking many rows at once). */
  async liveRowGuids(auth: RequestAuth, tableGuid: string, rowGuids: readonly string[]): Promise<Set<string>> {
    await this.enterTable(auth, tableGuid, 'readable');
    return this.store.liveRowGuids(tableGuid, rowGuids);
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
    await this.links.check(auth.app.id, table.fileId, writer.links);
    const now = Date.now();
    const guids = await this.write(
      caller,
      table.fileId,
      (trx) => this.store.insertRows(trx, tableGuid, table.columns, rowCells, now),
      (rowGuids) => ({ tableGuid, subject: 'rows', action: 'create', rowGuids }),
    );
    return {
      rows: guids.map((guid, index) => ({ guid, valueMap: toValueMap(rowCells[index] as Cells, table.columns) })),
      offset: null,
      viewGuid: table.views[0]?.viewGuid ?? '',
    };
  }

  /** Updates the named cells of one row; omitted columns keep their values, `null` clears. */
  async updateRow(auth: RequestAuth, tableGuid: string, rowGuid: string, valueMap: Record<string, unknown>): Promise<TableRow> {
    const { caller, table } = await this.enterTable(auth, tableGuid, 'editable');
    const columnsByName = new Map(table.columns.map((column) => [column.name, column]));
    const writer = new CellWriter(columnsByName);
    // Validate before touching storage, against an empty row: the outcome of a cell never depends on others.
    writer.apply({}, valueMap, `row ${rowGuid}`);
    await this.links.check(auth.app.id, table.fileId, writer.links);
    const written = new Set(Object.keys(valueMap).map((name) => columnsByName.get(name)!.guid));
    const now = Date.now();
    const cells = await this.write(
      caller,
      table.fileId,
      (trx) => this.store.updateRowCells(trx, table, rowGuid, written, (current) => writer.apply(current, valueMap, `row ${rowGuid}`), now),
      () => ({ tableGuid, subject: 'rows', action: 'update', rowGuids: [rowGuid] }),
    );
    return { guid: rowGuid, valueMap: toValueMap(cells, table.columns) };
  }

  async deleteRow(auth: RequestAuth, tableGuid: string, rowGuid: string): Promise<void> {
    const { caller, table } = await this.enterTable(auth, tableGuid, 'editable');
    const now = Date.now();
    await this.write(caller, table.fileId, (trx) => this.store.deleteRow(trx, tableGuid, rowGuid, now), (unlinked) => [
      { tableGuid, subject: 'rows', action: 'delete', rowGuids: [rowGuid] },
      ...[...unlinked].map(([linkingTable, rowGuids]): TableChange => ({ tableGuid: linkingTable, subject: 'rows', action: 'update', rowGuids })),
    ]);
  }
}

function tableOut(table: LoadedTable): DataTable {
  return {
    guid: table.guid,
    baseGuid: table.fileId,
    name: table.name,
    defaultViewGuid: table.views[0]?.viewGuid ?? '',
    views: table.views.map((view) => ({ viewGuid: view.viewGuid, name: view.name, isDefault: view.isDefault })),
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

function viewColumnsOf(table: LoadedTable): Array<{ guid: string; type: string }> {
  return table.columns.map((column) => ({ guid: column.guid, type: column.typeName }));
}

function viewSettings(kind: ViewKind, raw: unknown, columns: ReadonlyArray<{ guid: string; type: string }>): ViewSettings {
  try {
    return readViewSettings(kind, raw, columns, true);
  } catch (error) {
    if (error instanceof ViewRuleError) throw new ApiError(Errors.invalidViewParams, `${error.message} (${kind} view)`);
    throw error;
  }
}

function viewMissing(tableGuid: string, viewGuid: string): ApiError {
  return new ApiError(Errors.viewNotFound, `view ${viewGuid} not found in table ${tableGuid}`);
}

function findView(table: LoadedTable, viewGuid: string): TableView {
  const view = table.views.find((candidate) => candidate.viewGuid === viewGuid);
  if (!view) throw viewMissing(table.guid, viewGuid);
  return view;
}

/** View names are unique in a table, as column names are (a person picks a view by its name). */
function assertViewNameFree(views: ReadonlyArray<{ guid: string; name: string }>, name: string, except: string | undefined): void {
  if (views.some((view) => view.name === name && view.guid !== except)) throw new ApiError(Errors.viewNameTaken, `a view named ${JSON.stringify(name)} already exists in this table`);
}

function duplicateName(name: string): ApiError {
  return invalid(`a column named ${JSON.stringify(name)} already exists in this table`);
}
