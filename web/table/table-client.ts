import type { ServiceApi } from '../shared/api.js';
import type { Column, DataTable, Row, RowWindow, TableView, ValueMap, ViewKind, ViewQuery } from './model.js';

/** The table API as the table editor uses it, with the page's credentials; refusals throw ApiCallError. */
export class TableClient {
  constructor(
    private readonly api: ServiceApi,
    readonly baseGuid: string,
  ) {}

  listTables(): Promise<DataTable[]> {
    return this.api.callTable(this.api.tablePath('tables'), { query: { baseGuid: this.baseGuid } });
  }

  createTable(name: string, columns: { name: string; type: string }[]): Promise<DataTable> {
    return this.api.callTable(this.api.tablePath('tables'), { method: 'POST', body: { baseGuid: this.baseGuid, name, cols: columns } });
  }

  listColumns(tableGuid: string): Promise<Column[]> {
    return this.api.callTable(this.tableRoute(tableGuid, 'columns'));
  }

  /** `viewGuid`: a grid view's saved sort applies when `view` sorts nothing. */
  rowWindow(tableGuid: string, start: number, count: number, view: ViewQuery, viewGuid?: string): Promise<RowWindow> {
    return this.api.callTable(this.tableRoute(tableGuid, 'row-window'), {
      query: {
        start,
        count,
        viewGuid,
        sortColumn: view.sort?.columnGuid,
        sortOrder: view.sort ? (view.sort.descending ? 'desc' : 'asc') : undefined,
        filterColumn: view.filter?.columnGuid,
        filterOperator: view.filter?.operator,
        filterValue: view.filter?.value,
      },
    });
  }

  getRow(tableGuid: string, rowGuid: string): Promise<Row> {
    return this.api.callTable(this.tableRoute(tableGuid, `rows/${encodeURIComponent(rowGuid)}`));
  }

  async createRows(tableGuid: string, valueMaps: ValueMap[]): Promise<Row[]> {
    const created = await this.api.callTable<{ rows: Row[] }>(this.tableRoute(tableGuid, 'rows'), { method: 'POST', body: { rows: valueMaps } });
    return created.rows;
  }

  updateRow(tableGuid: string, rowGuid: string, valueMap: ValueMap): Promise<Row> {
    return this.api.callTable(this.tableRoute(tableGuid, `rows/${encodeURIComponent(rowGuid)}`), { method: 'PATCH', body: { valueMap } });
  }

  deleteRow(tableGuid: string, rowGuid: string): Promise<null> {
    return this.api.callTable(this.tableRoute(tableGuid, `rows/${encodeURIComponent(rowGuid)}`), { method: 'DELETE' });
  }

  /** `targetGuid`: the new column goes right after that one; absent: last. */
  createColumn(tableGuid: string, viewGuid: string, column: { name: string; type: string; props?: Record<string, unknown>; targetGuid?: string | undefined }): Promise<Column> {
    return this.api.callTable(this.tableRoute(tableGuid, 'columns'), { method: 'POST', body: { ...column, viewGuid } });
  }

  updateColumn(tableGuid: string, columnGuid: string, change: { name?: string; type?: string; props?: Record<string, unknown> }): Promise<Column> {
    return this.api.callTable(this.tableRoute(tableGuid, `columns/${encodeURIComponent(columnGuid)}`), { method: 'PUT', body: change });
  }

  deleteColumn(tableGuid: string, columnGuid: string): Promise<null> {
    return this.api.callTable(this.tableRoute(tableGuid, `columns/${encodeURIComponent(columnGuid)}`), { method: 'DELETE' });
  }

  listViews(tableGuid: string): Promise<TableView[]> {
    return this.api.callTable(this.tableRoute(tableGuid, 'views'));
  }

  createView(tableGuid: string, view: { name: string; kind: ViewKind }): Promise<TableView> {
    return this.api.callTable(this.tableRoute(tableGuid, 'views'), { method: 'POST', body: view });
  }

  updateView(tableGuid: string, viewGuid: string, change: { name?: string; settings?: TableView['settings'] }): Promise<TableView> {
    return this.api.callTable(this.tableRoute(tableGuid, `views/${encodeURIComponent(viewGuid)}`), { method: 'PUT', body: change });
  }

  deleteView(tableGuid: string, viewGuid: string): Promise<null> {
    return this.api.callTable(this.tableRoute(tableGuid, `views/${encodeURIComponent(viewGuid)}`), { method: 'DELETE' });
  }

  private tableRoute(tableGuid: string, rest: string): string {
    return this.api.tablePath(`tables/${encodeURIComponent(tableGuid)}/${rest}`);
  }
}
