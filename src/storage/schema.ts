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
  table_links: TableLinksTable;
  comment_threads: CommentThreadsTable;
  comments: CommentsTable;
  discussion_messages: DiscussionMessagesTable;
  date_mentions: DateMentionsTable;
  mention_notices: MentionNoticesTable;
  conversation_activity: ConversationActivityTable;
  attachments: AttachmentsTable;
  tasks: TasksTable;
  process_instances: ProcessInstancesTable;
  task_blobs: TaskBlobsTable;
  export_files: ExportFilesTable;
  behavior_histories: BehaviorHistoriesTable;
  editor_sessions: EditorSessionsTable;
  suggestion_notices: SuggestionNoticesTable;
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
  /** JSON array of allowed host origins (apps/frame-origins.ts); '[]': any origin */
  frame_origins: Generated<string>;
  /** 'open' | 'auto' | 'strict' (apps/seat-policy.ts) */
  seat_policy: Generated<string>;
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
  /** grid, kanban, gallery or form (src/model/tables/views.ts) */
  kind: string;
  /** the kind's settings, JSON text */
  settings: string;
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

/** One row guid that a Link cell names: `row_guid`'s cell in `column_guid` links to `target_row_guid`. */
export interface TableLinksTable {
  row_guid: string;
  column_guid: string;
  target_row_guid: string;
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
  /** every update with seq <= recorded_seq is in a recorded version (history entry, FileContent event) */
  recorded_seq: Generated<number>;
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

/** A comment thread: one selection (spec `selectionGuid` = id) of a file, anchored per editor kind. */
export interface CommentThreadsTable {
  id: string;
  app_id: string;
  file_id: string;
  /** the selection module that anchored it (document, spreadsheet, presentation, table) */
  selection_kind: string;
  /** JSON: the module's stored anchor */
  anchor: string;
  /** `selectionTitle` of events (sheet id, slide id, table guid); null for documents */
  title: string | null;
  /** `selectionContent` of table comments: the commented cell's text when the thread opened */
  selection_content: string | null;
  created_by: string;
  created_at: number;
  closed_at: number | null;
  closed_by: string | null;
}

export interface CommentsTable {
  id: string;
  app_id: string;
  file_id: string;
  thread_id: string;
  /** the comment a reply answers; null for the thread's first comment */
  reply_to: string | null;
  author_id: string;
  /** JSON: the inline content nodes (docs/CONVERSATIONS.md "Content") */
  nodes: string;
  /** the text form: mentions as `@Name` */
  text: string;
  /** JSON array: mentioned user ids, once each, in order */
  mentioned: string;
  created_at: number;
  updated_at: number;
  deleted_at: number | null;
  deleted_by: string | null;
}

export interface DiscussionMessagesTable {
  id: string;
  app_id: string;
  file_id: string;
  author_id: string;
  nodes: string;
  text: string;
  mentioned: string;
  /** send time, microseconds since the epoch (spec `unixus`) */
  unixus: number;
}

export interface DateMentionsTable {
  id: string;
  app_id: string;
  file_id: string;
  author_id: string;
  content: string;
  remind_at: number;
  /** JSON array of user ids */
  remind_user_ids: string;
  position_id: string;
  created_at: number;
  updated_at: number;
  removed_at: number | null;
}

/** A (place, user) a MentionAt event announced: `comment:{guid}`, `discussion:{id}`, `body:{atGuid}` or `body-user`. */
export interface MentionNoticesTable {
  app_id: string;
  file_id: string;
  place: string;
  user_id: string;
  created_at: number;
}

/** A suggestion of a document announced by a Suggestion event (migration 0017). */
export interface SuggestionNoticesTable {
  app_id: string;
  file_id: string;
  kind: string;
  suggestion_id: string;
  /** the announced suggestion object, JSON (SuggestionObject) */
  suggestion: string;
  /** the Yjs id of its first character when announced */
  item_client: number;
  item_clock: number;
  /** 1 once its acceptance or rejection was announced */
  decided: number;
  created_at: number;
}

/** Conversation activity shown in doc-sidebar-info (historyType 4). */
export interface ConversationActivityTable {
  id: string;
  app_id: string;
  file_id: string;
  /** comment, reply, edit, delete, close, reopen */
  action: string;
  /** the comment guid or thread selectionGuid it concerns */
  subject_id: string;
  /** one line for the sidebar, e.g. `commented: Looks good` */
  summary: string;
  user_id: string;
  user_name: string | null;
  created_at: number;
}

/** An uploaded image or attachment of a file (docs/ATTACHMENTS.md); the bytes are in `data`. */
export interface AttachmentsTable {
  app_id: string;
  guid: string;
  file_id: string;
  /** who uploaded it (the user the access token was issued to) */
  user_id: string;
  /** `images` (PNG, JPEG, GIF, WebP only) or `attachments` (anything, served as a download unless an image) */
  bucket: string;
  /** display name, sanitized: no path, no control characters */
  filename: string;
  /** sniffed from the bytes, never the client's declared type */
  mime_type: string;
  size: number;
  /** pixels, images only */
  width: number | null;
  height: number | null;
  data: Buffer;
  created_at: number;
  /** the A1 range (`Sheet1!B2`) a spreadsheet attachment was attached to (files/{fileId}/attach); null otherwise */
  cell_range: Generated<string | null>;
}

/** An asynchronous task (docs/TASKS.md): import, export, preview cache. */
/** A running process that runs tasks: the owner named in the leases it takes (migration 0015). */
export interface ProcessInstancesTable {
  id: string;
  host: string;
  pid: number;
  started_at: number;
  heartbeat_at: number;
}

export interface TasksTable {
  id: string;
  app_id: string;
  kind: string;
  file_id: string;
  /** queued | running | succeeded | failed */
  state: string;
  /** 0-100; 100 only once succeeded */
  progress: Generated<number>;
  /** JSON: the kind's parameters */
  input: string;
  /** JSON: what the kind's handler produced, once succeeded */
  result: string | null;
  error_code: number | null;
  error_message: string | null;
  /** times a process took the task up (a crash while running leaves it to be taken up again) */
  attempts: Generated<number>;
  lease_owner: string | null;
  lease_until: number | null;
  /** when a running task is failed as timed out */
  deadline_at: number | null;
  created_at: number;
  updated_at: number;
  started_at: number | null;
  finished_at: number | null;
}

/** Bytes a task reads or produces (an uploaded file, an export), removed with the task. */
export interface TaskBlobsTable {
  task_id: string;
  role: string;
  data: Buffer;
  created_at: number;
}

/** A file an export made, served through its signed download link until `expires_at` (docs/IMPORT-EXPORT.md). */
export interface ExportFilesTable {
  /** the download id in the link: random, unguessable */
  id: string;
  app_id: string;
  file_id: string;
  task_id: string;
  file_name: string;
  mime_type: string;
  size: number;
  data: Buffer;
  expires_at: number;
  created_at: number;
}

/** What happened to a file outside the editor, told by the integrator (docs/BEHAVIOR-HISTORY.md). */
export interface BehaviorHistoriesTable {
  id: string;
  app_id: string;
  file_id: string;
  user_id: string;
  /** the user's name as the integrator answered it when the entry was written */
  user_name: string;
  /** a short word such as `shared`, `approved` */
  action: string;
  /** free text, up to 1,000 characters; empty when none was given */
  content: string;
  /** when it happened (the integrator's `createdAt`, default the time it was written) */
  created_at: number;
  /** when the service wrote it */
  recorded_at: number;
}

/** Editor session tickets (migration 0016): the ticket itself is never stored, only its SHA-256. */
export interface EditorSessionsTable {
  ticket_hash: string;
  app_id: string;
  file_id: string;
  user_id: string;
  /** the integrator's user token the page was opened with: callbacks made for the session forward it */
  token: string;
  /** the signature's claims, JSON */
  claims: string;
  expires_at: number;
  /** when the signature the session was opened with expires: no renewal reaches past it */
  signature_expires_at: number;
  created_at: number;
}
