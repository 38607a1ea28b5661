/**
 * A committed change of a base's tables, told to the open table editors of the base so that they show it
 * within a second without polling (docs/BROWSER.md "Table"). The editor refetches what it names.
 */
export interface TableChange {
  tableGuid: string;
  /** `rows`: the rows named in `rowGuids` were created, updated or deleted; `columns`/`views`/`table`: the schema changed */
  subject: 'table' | 'columns' | 'views' | 'rows';
  action: 'create' | 'update' | 'delete';
  rowGuids?: string[];
}

/** The stateless message editors receive: `{"type": "svc:table", tableGuid, subject, action, rowGuids?}`. */
export const TABLE_MESSAGE_TYPE = 'svc:table';

/** Row guids named in one message at most; a bigger change says only that rows changed (the editor refetches its window). */
export const MAX_NOTICE_ROW_GUIDS = 200;

export function tableMessage(change: TableChange): string {
  const { rowGuids, ...rest } = change;
  const named = rowGuids && rowGuids.length <= MAX_NOTICE_ROW_GUIDS ? { rowGuids } : {};
  return JSON.stringify({ type: TABLE_MESSAGE_TYPE, ...rest, ...named });
}
