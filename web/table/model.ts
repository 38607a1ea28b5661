/** The table API's objects as the table editor reads them (docs/TABLE-API.md); no browser code, so tests can use it. */

export type { TableView, ViewKind, ViewSettingsOf, SortLevel } from '../../src/model/tables/views.js';

/** A column as the table API answers it (docs/TABLE-API.md "Columns"). */
export interface Column {
  guid: string;
  name: string;
  type: string;
  props: Record<string, unknown>;
  isPrimary: boolean;
}

export interface DataTable {
  guid: string;
  name: string;
  defaultViewGuid: string;
  columns: Column[];
}

export type ValueMap = Record<string, unknown>;

export interface Row {
  guid: string;
  valueMap: ValueMap;
}

export interface RowWindow {
  rows: Row[];
  start: number;
  total: number;
}

export type FilterOperator = 'contains' | 'is' | 'empty' | 'notEmpty';

/** How the grid orders and narrows a table's rows (GET row-window). */
export interface ViewQuery {
  sort?: { columnGuid: string; descending: boolean } | undefined;
  filter?: { columnGuid: string; operator: FilterOperator; value: string } | undefined;
}
