import { sql, type Transaction } from 'kysely';
import { ApiError, Errors } from '../../errors.js';
import type { Storage } from '../../storage/database.js';
import type { Database } from '../../storage/schema.js';
import type { Cells, LinkChecks, ResolvedColumn } from './cells.js';

/** Row guids per query when checking Link cells: below either engine's limit on bound parameters. */
const MAX_STATEMENT_PARAMETERS = 30_000;
const LINK_TYPE = 'Link';

/** A row as written: its guid and its cells by column guid. */
export interface WrittenRow {
  guid: string;
  cells: Cells;
}

/**
 * Link integrity: every guid a written Link cell names is a row of the linked table, and a deleted row leaves
 * no Link cell naming it. The `table_links` index (one row per linked guid, migration 0013) answers "which
 * cells name this row" by key; it is written in the same transaction as the cells it mirrors.
 */
export class LinkIntegrity {
  constructor(private readonly storage: Storage) {}

  /** Every row guid that a written Link cell names must be a row of the linked table (same app and base). */
  async check(appId: string, fileId: string, links: LinkChecks): Promise<void> {
    const db = this.storage.db;
    for (const [tableGuid, wanted] of links.byTable) {
      const table = await db
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
        const rows = await db.selectFrom('table_rows').select('guid').where('table_guid', '=', tableGuid).where('guid', 'in', guids.slice(start, start + chunk)).execute();
        for (const row of rows) found.add(row.guid);
      }
      for (const [guid, where] of wanted) {
        if (!found.has(guid)) throw new ApiError(Errors.invalidRequest, `${where} (Link): ${JSON.stringify(guid)} is not a row of the linked table ${tableGuid}`);
      }
    }
  }

  /** Indexes the Link cells of new rows (inserted in `trx` just before). */
  async indexNewRows(trx: Transaction<Database>, columns: readonly ResolvedColumn[], rows: readonly WrittenRow[]): Promise<void> {
    const linkColumns = columns.filter((column) => column.typeName === LINK_TYPE).map((column) => column.guid);
    if (linkColumns.length === 0) return;
    const records = rows.flatMap((row) => linkColumns.flatMap((columnGuid) => linkRecords(row.guid, columnGuid, row.cells[columnGuid])));
    if (records.length > 0) await this.storage.insertMany(trx, 'table_links', records);
  }

  /** Re-indexes the Link cells among `writtenColumns` of one row after an update wrote `cells`. */
  async reindexRow(trx: Transaction<Database>, columns: readonly ResolvedColumn[], writtenColumns: ReadonlySet<string>, row: WrittenRow): Promise<void> {
    const linkColumns = columns.filter((column) => column.typeName === LINK_TYPE && writtenColumns.has(column.guid)).map((column) => column.guid);
    if (linkColumns.length === 0) return;
    await trx.deleteFrom('table_links').where('row_guid', '=', row.guid).where('column_guid', 'in', linkColumns).execute();
    const records = linkColumns.flatMap((columnGuid) => linkRecords(row.guid, columnGuid, row.cells[columnGuid]));
    if (records.length > 0) await this.storage.insertMany(trx, 'table_links', records);
  }

  /**
   * A column's type changed to or from Link (or its linked table changed): its index entries are rebuilt from
   * the cells, which keep their values across a type change.
   */
  async reindexColumn(trx: Transaction<Database>, tableGuid: string, columnGuid: string, isLink: boolean): Promise<void> {
    await trx.deleteFrom('table_links').where('column_guid', '=', columnGuid).execute();
    if (!isLink) return;
    const member = this.storage.jsonMember('cells', columnGuid, 'text');
    const rows = await trx.selectFrom('table_rows').select(['guid', 'cells']).where('table_guid', '=', tableGuid).where(sql<boolean>`${member} is not null`).execute();
    const records = rows.flatMap((row) => linkRecords(row.guid, columnGuid, (JSON.parse(row.cells) as Cells)[columnGuid]));
    if (records.length > 0) await this.storage.insertMany(trx, 'table_links', records);
  }

  /**
   * Takes the deleted row `rowGuid` out of every Link cell that names it (in the deleting transaction, before
   * the row goes), so that no cell keeps a guid nothing answers. Returns the rows changed, by table.
   */
  async dropLinksTo(trx: Transaction<Database>, rowGuid: string, now: number): Promise<Map<string, string[]>> {
    const naming = await trx
      .selectFrom('table_links')
      .innerJoin('table_rows', 'table_rows.guid', 'table_links.row_guid')
      .innerJoin('table_columns', 'table_columns.guid', 'table_links.column_guid')
      .select(['table_rows.guid', 'table_rows.table_guid', 'table_rows.cells', 'table_links.column_guid'])
      .where('table_links.target_row_guid', '=', rowGuid)
      // The deleted row's own cells go with it.
      .where('table_links.row_guid', '!=', rowGuid)
      .where('table_columns.type', '=', LINK_TYPE)
      .orderBy('table_rows.table_guid')
      .orderBy('table_rows.seq')
      .execute();
    const changed = new Map<string, string[]>();
    // One row may name the deleted row in several columns: its cells are rewritten once, with all of them.
    const rewritten = new Map<string, { tableGuid: string; cells: Cells }>();
    for (const link of naming) {
      const entry = rewritten.get(link.guid) ?? { tableGuid: link.table_guid, cells: JSON.parse(link.cells) as Cells };
      rewritten.set(link.guid, entry);
      const linked = entry.cells[link.column_guid];
      if (!Array.isArray(linked)) continue;
      const kept = (linked as unknown[]).filter((guid) => guid !== rowGuid) as string[];
      // An empty Link cell is absent, as writing [] leaves it.
      if (kept.length > 0) entry.cells[link.column_guid] = kept;
      else delete entry.cells[link.column_guid];
    }
    for (const [guid, { tableGuid, cells }] of rewritten) {
      await trx.updateTable('table_rows').set({ cells: JSON.stringify(cells), updated_at: now }).where('guid', '=', guid).execute();
      changed.set(tableGuid, [...(changed.get(tableGuid) ?? []), guid]);
    }
    await trx.deleteFrom('table_links').where('target_row_guid', '=', rowGuid).execute();
    return changed;
  }
}

function linkRecords(rowGuid: string, columnGuid: string, cell: unknown): { row_guid: string; column_guid: string; target_row_guid: string }[] {
  if (!Array.isArray(cell)) return [];
  return cell.filter((guid): guid is string => typeof guid === 'string').map((guid) => ({ row_guid: rowGuid, column_guid: columnGuid, target_row_guid: guid }));
}
