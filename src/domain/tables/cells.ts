import { ApiError, Errors } from '../../errors.js';
import { FieldRuleError, type CellContext, type CellValue, type ColumnProps, type FieldType } from '../../model/tables/fields/field-type.js';
import { fieldType } from '../../model/tables/fields/registry.js';

/** A column as the row code needs it: its type module resolved once per request. */
export interface ResolvedColumn {
  guid: string;
  name: string;
  type: FieldType | undefined;
  typeName: string;
  props: ColumnProps;
}

export type Cells = Record<string, CellValue>;

/** Row guids that written Link cells name, grouped by linked table, with where each was asked for. */
export class LinkChecks {
  readonly byTable = new Map<string, Map<string, string>>();

  add(tableGuid: string, rowGuids: readonly string[], where: string): void {
    let wanted = this.byTable.get(tableGuid);
    if (!wanted) this.byTable.set(tableGuid, (wanted = new Map()));
    for (const guid of rowGuids) if (!wanted.has(guid)) wanted.set(guid, where);
  }
}

export function resolveColumns(columns: readonly { guid: string; name: string; type: string; props: ColumnProps }[]): ResolvedColumn[] {
  return columns.map((column) => ({ ...column, typeName: column.type, type: fieldType(column.type) }));
}

/**
 * Applies written value maps (keyed by column name) to cells (keyed by column guid) for one request, and
 * collects the row guids their Link cells name (`links`). One writer and one cell context serve every row
 * of the request: a bulk insert converts 20,000 cells.
 */
export class CellWriter {
  readonly links = new LinkChecks();
  private where = '';
  private cellName = '';
  private readonly context: CellContext = {
    requireRows: (tableGuid, rowGuids) => this.links.add(tableGuid, rowGuids, `${this.where}, column ${JSON.stringify(this.cellName)}`),
  };

  constructor(private readonly columnsByName: ReadonlyMap<string, ResolvedColumn>) {}

  /**
   * `null` clears a cell. Any unknown column, read-only column or value of the wrong shape is a 400 naming
   * the column and `where` (the row); nothing is stored by the caller in that case.
   */
  apply(cells: Cells, valueMap: Record<string, unknown>, where: string): void {
    this.where = where;
    for (const name of Object.keys(valueMap)) {
      const column = this.columnsByName.get(name);
      if (!column) throw new ApiError(Errors.invalidRequest, `${where}: unknown column ${JSON.stringify(name)}`);
      const type = column.type;
      if (!type || type.readOnly) {
        throw new ApiError(Errors.invalidRequest, `${where}, column ${JSON.stringify(name)}: ${column.typeName} cells are read-only`);
      }
      const value = valueMap[name];
      if (value === null) {
        delete cells[column.guid];
        continue;
      }
      this.cellName = name;
      let stored: CellValue | undefined;
      try {
        stored = type.write(value, column.props, this.context);
      } catch (error) {
        if (error instanceof FieldRuleError) {
          throw new ApiError(Errors.invalidRequest, `${where}, column ${JSON.stringify(name)} (${type.name}): ${error.message}`);
        }
        throw error;
      }
      if (stored === undefined) delete cells[column.guid];
      else cells[column.guid] = stored;
    }
  }
}

/**
 * The value map of a stored row, keyed by column name in column order. Cells of deleted columns are left
 * out; empty cells are absent. A plain object (fast to build and to stringify), where a column named
 * `__proto__` is defined as an own key rather than assigned, which would set the prototype instead.
 */
export function toValueMap(cells: Cells, columns: readonly ResolvedColumn[]): Record<string, CellValue> {
  const valueMap: Record<string, CellValue> = {};
  for (const column of columns) {
    const value = cells[column.guid];
    if (value === undefined) continue;
    if (column.name === '__proto__') Object.defineProperty(valueMap, column.name, { value, enumerable: true, writable: true, configurable: true });
    else valueMap[column.name] = value;
  }
  return valueMap;
}

/** Column guids as they appear as keys in stored cells text (`{"col…":`, `,"col…":`). */
const STORED_KEY = /([{,])"(col[A-Za-z0-9_-]{16})":/g;

/** Each column's name as JSON key text (`"Name"`), by column guid. */
export function jsonKeysOf(columns: readonly ResolvedColumn[]): ReadonlyMap<string, string> {
  return new Map(columns.map((column) => [column.guid, JSON.stringify(column.name)]));
}

/**
 * The JSON text of a row's value map, made from the JSON text of its stored cells by renaming keys: no
 * parse, no objects, no stringify for the thousands of cells of a page. This is exact
 * because the text is JSON.stringify output of a flat object keyed by column guid: inside strings every
 * `"` is escaped, so `{"col…":` and `,"col…":` occur only where a key starts. Cells of a deleted column
 * (a guid with no key) take the slow path, which leaves them out.
 */
export function valueMapJson(cellsJson: string, columns: readonly ResolvedColumn[], keys: ReadonlyMap<string, string>): string {
  let complete = true;
  const renamed = cellsJson.replace(STORED_KEY, (match: string, lead: string, guid: string) => {
    const key = keys.get(guid);
    if (key === undefined) {
      complete = false;
      return match;
    }
    return `${lead}${key}:`;
  });
  return complete ? renamed : JSON.stringify(toValueMap(JSON.parse(cellsJson) as Cells, columns));
}
