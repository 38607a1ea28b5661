import type { Generated } from 'kysely';

/**
 * Row types of every table, as Kysely sees them. Timestamps are epoch milliseconds
 * (bigint columns read back as numbers on both dialects); JSON is stored as text.
 */
export interface Database {
  apps: AppsTable;
  seats: SeatsTable;
  files: FilesTable;
  content_docs: ContentDocsTable;
  content_updates: ContentUpdatesTable;
  content_history: ContentHistoryTable;
  content_revisions: ContentRevisionsTable;
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
