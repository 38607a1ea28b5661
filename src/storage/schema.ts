import type { Generated } from 'kysely';

/**
 * Row types of every table, as Kysely sees them. Timestamps are epoch milliseconds
 * (bigint columns read back as numbers on both dialects); JSON is stored as text.
 */
export interface Database {
  apps: AppsTable;
  seats: SeatsTable;
  files: FilesTable;
  event_streams: EventStreamsTable;
  event_outbox: EventOutboxTable;
  content_docs: ContentDocsTable;
  content_updates: ContentUpdatesTable;
  content_history: ContentHistoryTable;
  content_revisions: ContentRevisionsTable;
  table_tables: TableTablesTable;
  table_views: TableViewsTable;
  table_columns: TableColumnsTable;
  table_rows: TableRowsTable;
  table_row_tombstones: TableRowTombstonesTable;
}

export interface AppsTable {
  id: string;
  name: string;
  secret: string;
  available_file_types: string;
  premium_file_types: string;
  member_limit: number;
  valid_from: number;
  valid_until: number | null;
  endpoint_url: string | null;
  qps_limit: number | null;
  created_at: number;
  updated_at: number;
}

export interface SeatsTable {
  app_id: string;
  user_id: string;
  status: number;
  created_at: number;
  updated_at: number;
}

export interface FilesTable {
  app_id: string;
  file_id: string;
  type: string;
  content_key: string | null;
  created_by: string | null;
  /** content version: grows by one with each change of the file's content (FileContent events carry it) */
  version: Generated<number>;
  created_at: number;
  updated_at: number;
}

/** Table data API: a data table inside a base (a collaborative file of type `table`). */
export interface TableTablesTable {
  guid: string;
  app_id: string;
  file_id: string;
  name: string;
  /** last row sequence number handed out; rows take the next ones */
  next_row_seq: Generated<number>;
  /** grows with every change of the table's columns or views: cached metadata is valid while it matches */
  schema_version: Generated<number>;
  created_at: number;
  updated_at: number;
}

export interface TableViewsTable {
  guid: string;
  table_guid: string;
  name: string;
  /** 0 is the default view */
  position: number;
  created_at: number;
}

export interface TableColumnsTable {
  guid: string;
  table_guid: string;
  name: string;
  type: string;
  /** JSON: the type's normalised props */
  props: string;
  /** 0 is the primary column */
  position: number;
  created_at: number;
  updated_at: number;
}

export interface TableRowsTable {
  table_guid: string;
  seq: number;
  guid: string;
  /** JSON object: column guid -> cell value in its read form */
  cells: string;
  created_at: number;
  updated_at: number;
}

export interface TableRowTombstonesTable {
  guid: string;
  table_guid: string;
  seq: number;
  deleted_at: number;
}

/** Content engine (docs/CONTENT-MODEL.md "Storage"); Yjs binary columns are Buffers on both engines. */
export interface ContentDocsTable {
  app_id: string;
  file_id: string;
  /** compacted Yjs state covering every update with seq <= snapshot_seq */
  snapshot: Buffer;
  snapshot_seq: number;
  /** last sequence number handed out to an update of this file */
  update_seq: number;
  updated_at: number;
}

export interface ContentUpdatesTable {
  app_id: string;
  file_id: string;
  seq: number;
  update: Buffer;
  user_id: string | null;
  created_at: number;
}

export interface ContentHistoryTable {
  id: string;
  app_id: string;
  file_id: string;
  version: number;
  /** 1 = edits, 2 = restore of a revision, 3 = snapshot taken to create a revision */
  history_type: number;
  snapshot: Buffer;
  user_id: string | null;
  user_name: string | null;
  /** JSON array of every user who changed the file in this history entry */
  user_ids: string;
  created_at: number;
}

export interface ContentRevisionsTable {
  id: string;
  app_id: string;
  file_id: string;
  history_id: string;
  title: string;
  label: string;
  user_id: string | null;
  user_name: string | null;
  created_at: number;
  updated_at: number;
}

/** Per (app, stream) event sequence; a stream is one file's events (contract: ordered per file). */
export interface EventStreamsTable {
  app_id: string;
  stream_key: string;
  last_seq: number;
}

export type EventDeliveryStatus = 'pending' | 'delivered' | 'failed';

/** One event to the integrator, from the transaction that caused it until it is delivered or failed. */
export interface EventOutboxTable {
  /** the stable event id sent as X-Svc-Event-Id */
  id: string;
  app_id: string;
  stream_key: string;
  seq: number;
  file_id: string | null;
  event_class: string;
  /** JSON body */
  payload: string;
  user_token: string | null;
  status: EventDeliveryStatus;
  attempts: Generated<number>;
  next_attempt_at: number;
  /** a worker owns the event until then (crash recovery: an expired lease is claimable again) */
  lease_until: number | null;
  /** the worker holding the lease; completion only counts while it still holds it */
  lease_owner: string | null;
  last_attempt_at: number | null;
  last_status: number | null;
  last_error: string | null;
  delivered_at: number | null;
  created_at: number;
}
