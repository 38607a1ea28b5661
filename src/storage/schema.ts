import type { Generated } from 'kysely';

/**
 * Row types of every table, as Kysely sees them. Timestamps are epoch milliseconds
 * (bigint columns read back as numbers on both dialects); JSON is stored as text.
 */
export interface Database {
  apps: AppsTable;
  seats: SeatsTable;
  files: FilesTable;
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
