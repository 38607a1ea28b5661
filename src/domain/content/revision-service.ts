import { sql, type Selectable } from 'kysely';
import { revisionEvent } from '../../events/builders.js';
import { ApiError, Errors } from '../../errors.js';
import type { Storage } from '../../storage/database.js';
import type { ContentRevisionsTable } from '../../storage/schema.js';
import { BEHAVIOR_HISTORY_TYPE } from '../behavior-history/behavior-history-service.js';
import type { ContentActor } from './collaboration-context.js';
import { HistoryType, type ContentService, type EventSink } from './content-service.js';
import { docFromState, replaceContent, richTextOf } from '../../model/content.js';
import { compareDocuments, type Comparison } from '../../model/rich-text/compare.js';
import { toProseMirrorNodes } from '../../model/rich-text/schema.js';
import { replaceSheets } from '../../model/sheets/sheet-model.js';

/**
 * doc-sidebar-info `historyType` of the conversation activity rows (domain/conversations/activity.ts) listed beside edit
 * history (1-3, content-service.ts); the edit history's listing owns the numbering.
 */
export const CONVERSATION_HISTORY_TYPE = 4;

/** A named revision (contract notes 3, `GET …/revisions`). */
export interface Revision {
  id: string;
  label: string;
  title: string;
  docHistoryId: string;
  createdAt: string;
  updatedAt: string;
  user: { id: string; name: string };
}

/** One history entry (`GET …/doc-sidebar-info`). */
export interface HistoryEntry {
  id: string;
  content: string;
  createdAt: string;
  updatedAt: string;
  historyType: number;
  name: string;
  userId: string;
}

export interface HistoryPage {
  histories: HistoryEntry[];
  isLastPage: boolean;
  limit: number;
  /** user id -> display name of every user in the page */
  users: Record<string, string>;
}

const HISTORY_DESCRIPTION: Record<number, string> = {
  [HistoryType.edit]: 'edited',
  [HistoryType.restore]: 'restored a revision',
  [HistoryType.revision]: 'saved a revision',
};

function toRevision(row: Selectable<ContentRevisionsTable>): Revision {
  return {
    id: row.id,
    label: row.label,
    title: row.title,
    docHistoryId: row.history_id,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
    user: { id: row.user_id ?? '', name: row.user_name ?? row.user_id ?? '' },
  };
}

/**
 * Edit history and named revisions (docs/CONTENT-MODEL.md "Changes, versions, history"). A revision names a
 * history snapshot; restoring one makes its content the current content as a new change.
 */
export class RevisionService {
  constructor(
    private readonly storage: Storage,
    private readonly content: ContentService,
    private readonly outbox: EventSink,
  ) {}

  /** Named revisions of the file, newest first. */
  async list(appId: string, fileId: string): Promise<Revision[]> {
    await this.content.kindOf(appId, fileId);
    const rows = await this.storage.db
      .selectFrom('content_revisions')
      .selectAll()
      .where('app_id', '=', appId)
      .where('file_id', '=', fileId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return rows.map(toRevision);
  }

  /**
   * Names a snapshot: `docHistoryId` when given (it must be this file's), else the current content (pending
   * edits are recorded first, then a snapshot is taken without a new version). Emits Revision `create`.
   */
  async create(appId: string, fileId: string, actor: ContentActor, input: { title: string; label?: string | undefined; docHistoryId?: string | undefined }): Promise<Revision> {
    await this.content.kindOf(appId, fileId);
    let historyId = input.docHistoryId;
    if (historyId !== undefined) {
      await this.history(appId, fileId, historyId);
    } else {
      await this.content.flush(appId, fileId);
      historyId = (await this.content.record(appId, fileId, HistoryType.revision, actor, [actor.userId], false)).historyId;
    }
    const now = Date.now();
    const row = {
      id: crypto.randomUUID(),
      app_id: appId,
      file_id: fileId,
      history_id: historyId,
      title: input.title,
      label: input.label ?? '',
      user_id: actor.userId,
      user_name: actor.name ?? null,
      created_at: now,
      updated_at: now,
    };
    await this.storage.db.transaction().execute(async (trx) => {
      await trx.insertInto('content_revisions').values(row).execute();
      await this.outbox.add(
        trx,
        revisionEvent({
          appId,
          fileId,
          userId: actor.userId,
          userToken: actor.token,
          action: 'create',
          revision: { revisionId: row.id, title: row.title, label: row.label, docHistoryId: historyId },
        }),
      );
    });
    return toRevision(row);
  }

  /**
   * Makes the revision's content the current content, as a change that merges with concurrent edits and
   * reaches connected editors at once; recorded at once as a `restore` history entry with a new version.
   * Emits Revision `update` (the revision was restored) after the FileContent event of the change.
   */
  async restore(appId: string, fileId: string, revisionId: string, actor: ContentActor): Promise<{ revision: Revision; version: number; docHistoryId: string }> {
    const kind = await this.content.kindOf(appId, fileId);
    const row = await this.storage.db
      .selectFrom('content_revisions')
      .selectAll()
      .where('app_id', '=', appId)
      .where('file_id', '=', fileId)
      .where('id', '=', revisionId)
      .executeTakeFirst();
    if (!row) throw new ApiError(Errors.revisionNotFound, `revision ${revisionId} not found in file ${fileId}`);
    const snapshot = await this.history(appId, fileId, row.history_id);
    const source = docFromState(snapshot);
    try {
      await this.content.change(appId, fileId, actor, (doc) => (kind === 'spreadsheet' ? replaceSheets(doc, source) : replaceContent(doc, source, kind)), HistoryType.restore);
    } finally {
      source.destroy();
    }
    const recorded = await this.content.flush(appId, fileId);
    const revision = toRevision(row);
    await this.outbox.add(
      this.storage.db,
      revisionEvent({
        appId,
        fileId,
        userId: actor.userId,
        userToken: actor.token,
        action: 'update',
        revision: { revisionId: row.id, title: row.title, label: row.label, docHistoryId: row.history_id },
      }),
    );
    return { revision, version: recorded?.version ?? (await this.currentVersion(appId, fileId)), docHistoryId: recorded?.historyId ?? row.history_id };
  }

  /**
   * Edit history, conversation activity (historyType 4, docs/CONVERSATIONS.md) and behavior history (historyType 5,
   * docs/BEHAVIOR-HISTORY.md), newest first: `limit`
   * entries after skipping `offset`, optionally of one `historyType`.
   */
  async histories(appId: string, fileId: string, page: { limit: number; offset: number; historyType?: number | undefined }): Promise<HistoryPage> {
    await this.content.kindOf(appId, fileId);
    const { db } = this.storage;
    const edits = db
      .selectFrom('content_history')
      .select((eb) => ['id', 'history_type', 'user_id', 'user_name', 'created_at', eb.ref('version').$castTo<number | null>().as('version'), sql<string | null>`null`.as('summary')])
      .where('app_id', '=', appId)
      .where('file_id', '=', fileId)
      .$if(page.historyType !== undefined, (query) => query.where('history_type', '=', page.historyType!));
    const activity = db
      .selectFrom('conversation_activity')
      .select([
        'id',
        sql<number>`${CONVERSATION_HISTORY_TYPE}`.as('history_type'),
        (eb) => eb.ref('user_id').$castTo<string | null>().as('user_id'),
        'user_name',
        'created_at',
        sql<number | null>`null`.as('version'),
        (eb) => eb.ref('summary').$castTo<string | null>().as('summary'),
      ])
      .where('app_id', '=', appId)
      .where('file_id', '=', fileId);
    const behavior = db
      .selectFrom('behavior_histories')
      .select([
        'id',
        sql<number>`${BEHAVIOR_HISTORY_TYPE}`.as('history_type'),
        (eb) => eb.ref('user_id').$castTo<string | null>().as('user_id'),
        (eb) => eb.ref('user_name').$castTo<string | null>().as('user_name'),
        'created_at',
        sql<number | null>`null`.as('version'),
        sql<string | null>`action || (case when content = '' then '' else ': ' || content end)`.as('summary'),
      ])
      .where('app_id', '=', appId)
      .where('file_id', '=', fileId);
    const entries: typeof edits =
      page.historyType === CONVERSATION_HISTORY_TYPE
        ? (activity as unknown as typeof edits)
        : page.historyType === BEHAVIOR_HISTORY_TYPE
          ? (behavior as unknown as typeof edits)
          : page.historyType === undefined
            ? edits.unionAll(activity).unionAll(behavior)
            : edits;
    const rows = await entries
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.limit + 1)
      .offset(page.offset)
      .execute();
    const shown = rows.slice(0, page.limit);
    const users: Record<string, string> = {};
    for (const row of shown) if (row.user_id) users[row.user_id] = row.user_name ?? users[row.user_id] ?? row.user_id;
    return {
      histories: shown.map((row) => ({
        id: row.id,
        content: row.summary ?? `${HISTORY_DESCRIPTION[row.history_type] ?? 'changed'} (version ${row.version})`,
        createdAt: new Date(Number(row.created_at)).toISOString(),
        updatedAt: new Date(Number(row.created_at)).toISOString(),
        historyType: Number(row.history_type),
        name: row.user_name ?? row.user_id ?? '',
        userId: row.user_id ?? '',
      })),
      isLastPage: rows.length <= page.limit,
      limit: page.limit,
      users,
    };
  }

  /**
   * The content of one history entry (an edit, a restore or a revision snapshot: doc-sidebar-info ids of
   * historyType 1-3, a revision's docHistoryId) as the encoded Yjs state it was recorded with, for an editor
   * to show read-only. 60011 when it is not a history entry of this file (comment activity, historyType 4,
   * has no content); 70004 for a table file.
   */
  async historyContent(appId: string, fileId: string, historyId: string): Promise<Uint8Array> {
    await this.content.kindOf(appId, fileId);
    return this.history(appId, fileId, historyId);
  }

  /**
   * What changed from one history entry to another of a document or documentPro file (ids as historyContent
   * takes them; `older` need not be the older one: the comparison reads from the first to the second), as
   * compareDocuments answers it. 70004 for other kinds (their versions are not text to compare).
   */
  async compare(appId: string, fileId: string, fromId: string, toId: string): Promise<Comparison> {
    const kind = await this.content.kindOf(appId, fileId);
    if (kind !== 'document' && kind !== 'documentPro') {
      throw new ApiError(Errors.fileTypeUnsupported, `file ${fileId} is a ${kind}: versions are compared for document and documentPro files`);
    }
    const [from, to] = await Promise.all([this.history(appId, fileId, fromId), this.history(appId, fileId, toId)]);
    return compareDocuments(documentNodes(from), documentNodes(to));
  }

  private async history(appId: string, fileId: string, historyId: string): Promise<Uint8Array> {
    const row = await this.storage.db
      .selectFrom('content_history')
      .select('snapshot')
      .where('app_id', '=', appId)
      .where('file_id', '=', fileId)
      .where('id', '=', historyId)
      .executeTakeFirst();
    if (!row) throw new ApiError(Errors.historyNotFound, `history entry ${historyId} not found in file ${fileId}`);
    if (row.snapshot.length === 0) {
      throw new ApiError(Errors.historyContentNotKept, `history entry ${historyId} is older than the history entries whose content is kept (README "History retention"); name a revision to keep a version`);
    }
    return row.snapshot;
  }

  private async currentVersion(appId: string, fileId: string): Promise<number> {
    const row = await this.storage.db.selectFrom('files').select('version').where('app_id', '=', appId).where('file_id', '=', fileId).executeTakeFirst();
    return row?.version ?? 0;
  }
}

/** A rich-text file's content state as its document nodes. */
function documentNodes(state: Uint8Array) {
  const doc = docFromState(state);
  try {
    return toProseMirrorNodes(richTextOf(doc));
  } finally {
    doc.destroy();
  }
}
