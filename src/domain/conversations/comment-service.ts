import type { Selectable } from 'kysely';
import { ApiError, Errors } from '../../errors.js';
import { commentEvent, mentionAtEvent, type CommentObject } from '../../events/builders.js';
import type { PendingEvent } from '../../events/types.js';
import type { RequestAuth } from '../../auth/request-auth.js';
import type { FileAccess } from '../../integrator/types.js';
import type { Db } from '../../storage/database.js';
import type { CommentsTable, CommentThreadsTable } from '../../storage/schema.js';
import { recordActivity, type ActivityAction } from './activity.js';
import { mentionsOf, parseContent, type ContentInputValue, type ContentNode } from './content.js';
import { newlyMentioned, noticePlace } from './mention-notices.js';
import type { Participant } from './participants.js';
import { damagedSelection, type SelectionModules } from './selections/index.js';
import type { ResolvedSelection, SelectionModule } from './selections/selection-module.js';
import type { ConversationDeps } from './conversation-deps.js';

export interface CommentView {
  guid: string;
  selectionGuid: string;
  /** the comment a reply answers; null for a thread's first comment */
  replyTo: string | null;
  userId: string;
  /** text form: mentions as `@Name` */
  content: string;
  nodes: ContentNode[];
  /** mentioned users, once each */
  userIds: string[];
  createdAt: string;
  updatedAt: string;
}

export interface ThreadView {
  selectionGuid: string;
  /** the selection module: document, spreadsheet, presentation or table */
  kind: string;
  selection: ResolvedSelection;
  selectionTitle: string | null;
  selectionContent: string | null;
  status: 'open' | 'closed';
  closedBy: string | null;
  closedAt: string | null;
  createdBy: string;
  createdAt: string;
  comments: CommentView[];
}

/** One thread with the people it names. */
export type ThreadDetail = ThreadView & { users: Record<string, Participant> };

export interface ThreadPage {
  threads: ThreadView[];
  total: number;
  page: number;
  pageSize: number;
  isLastPage: boolean;
  users: Record<string, Participant>;
}

export type ThreadStatusFilter = 'open' | 'closed' | 'all';

type ThreadRow = Selectable<CommentThreadsTable>;
type CommentRow = Selectable<CommentsTable>;

const SUMMARY_LENGTH = 120;

/**
 * Comments on a selection of a file, in threads (docs/CONVERSATIONS.md). The integrator decides who may do
 * what; every write commits with its Comment / MentionAt events and its sidebar activity.
 */
export class CommentService {
  constructor(
    private readonly deps: ConversationDeps,
    private readonly selections: SelectionModules,
  ) {}

  /** Opens a thread on `selection` with its first comment. */
  async create(auth: RequestAuth, fileId: string, input: { selection: unknown; content: ContentInputValue }): Promise<CommentView> {
    const caller = await this.deps.people.authorize(auth, fileId, 'commentable');
    const file = await this.deps.files.get(auth.app.id, fileId);
    const parsed = parseContent(input.content);
    const module = this.selections.forFileType(file.type);
    const anchored = await module.anchor({ appId: auth.app.id, fileId, auth }, input.selection);
    const content = await this.deps.people.label(auth, parsed);
    const now = Date.now();
    const thread: ThreadRow = {
      id: crypto.randomUUID(),
      app_id: auth.app.id,
      file_id: fileId,
      selection_kind: module.name,
      anchor: JSON.stringify(anchored.anchor),
      title: anchored.title ?? null,
      selection_content: anchored.content ?? null,
      created_by: caller.user.id,
      created_at: now,
      closed_at: null,
      closed_by: null,
    };
    const comment = newComment(thread, caller, content, null, now);
    await this.deps.storage.db.transaction().execute(async (trx) => {
      await trx.insertInto('comment_threads').values(thread).execute();
      await this.insertComment(trx, auth, caller, thread, comment, null);
    });
    this.deps.changed(auth.app.id, fileId, { subject: 'comment', action: 'create', id: comment.id, selectionGuid: thread.id });
    return commentView(comment);
  }

  /** Replies to a comment, in its thread. */
  async reply(auth: RequestAuth, fileId: string, commentGuid: string, input: { content: ContentInputValue }): Promise<CommentView> {
    const caller = await this.deps.people.authorize(auth, fileId, 'commentable');
    const parsed = parseContent(input.content);
    const repliedTo = await this.comment(auth.app.id, fileId, commentGuid, { deleted: 'commentDeleted' });
    const thread = await this.thread(auth.app.id, fileId, repliedTo.thread_id);
    if (thread.closed_at !== null) throw new ApiError(Errors.threadClosed, `thread ${thread.id} is closed: reopen it before replying`);
    const content = await this.deps.people.label(auth, parsed);
    const now = Date.now();
    const reply = newComment(thread, caller, content, repliedTo.id, now);
    await this.deps.storage.db.transaction().execute(async (trx) => {
      // the thread may have been closed, or the comment deleted, since they were read: check again inside
      const still = await trx
        .selectFrom('comments')
        .innerJoin('comment_threads', 'comment_threads.id', 'comments.thread_id')
        .select(['comments.deleted_at', 'comment_threads.closed_at'])
        .where('comments.id', '=', repliedTo.id)
        .executeTakeFirst();
      if (!still || still.deleted_at !== null) throw new ApiError(Errors.commentDeleted, `comment ${commentGuid} was deleted: it takes no replies`);
      if (still.closed_at !== null) throw new ApiError(Errors.threadClosed, `thread ${thread.id} is closed: reopen it before replying`);
      await this.insertComment(trx, auth, caller, thread, reply, repliedTo);
    });
    this.deps.changed(auth.app.id, fileId, { subject: 'comment', action: 'create', id: reply.id, selectionGuid: thread.id });
    return commentView(reply);
  }

  /** Replaces a comment's content; someone else's needs `manageable`. Newly mentioned users are announced. */
  async edit(auth: RequestAuth, fileId: string, commentGuid: string, input: { content: ContentInputValue }): Promise<CommentView> {
    const caller = await this.deps.people.authorize(auth, fileId, 'commentable');
    const parsed = parseContent(input.content);
    const existing = await this.comment(auth.app.id, fileId, commentGuid);
    this.deps.people.requireOwnerOrManager(caller, existing.author_id, `comment ${commentGuid}`);
    const thread = await this.thread(auth.app.id, fileId, existing.thread_id);
    const content = await this.deps.people.label(auth, parsed);
    const now = Date.now();
    const edited: CommentRow = { ...existing, nodes: JSON.stringify(content.nodes), text: content.text, mentioned: JSON.stringify(content.mentioned), updated_at: now };
    await this.deps.storage.db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable('comments')
        .set({ nodes: edited.nodes, text: edited.text, mentioned: edited.mentioned, updated_at: now })
        .where('id', '=', existing.id)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      if (result.numUpdatedRows === 0n) throw notFound('comment', commentGuid);
      const repliedTo = existing.reply_to === null ? null : await this.comment(auth.app.id, fileId, existing.reply_to, { deleted: 'include' }, trx);
      await this.announce(trx, auth, caller, thread, edited, 'update', repliedTo);
      await recordActivity(trx, { appId: auth.app.id, fileId, action: 'edit', subjectId: existing.id, summary: `edited a comment: ${summary(content.text)}`, user: caller.user, at: now });
    });
    this.deps.changed(auth.app.id, fileId, { subject: 'comment', action: 'update', id: existing.id, selectionGuid: thread.id });
    return commentView(edited);
  }

  /**
   * Deletes a comment; the first comment of a thread takes the whole thread with it. Someone else's comment
   * (or a thread someone else opened) needs `manageable`. Answers the deleted guids.
   */
  async delete(auth: RequestAuth, fileId: string, commentGuid: string): Promise<{ deleted: string[] }> {
    const caller = await this.deps.people.authorize(auth, fileId, 'commentable');
    const target = await this.comment(auth.app.id, fileId, commentGuid);
    this.deps.people.requireOwnerOrManager(caller, target.author_id, `comment ${commentGuid}`);
    const wholeThread = target.reply_to === null;
    const now = Date.now();
    const result = await this.deps.storage.db.transaction().execute(async (trx) => {
      let query = trx
        .updateTable('comments')
        .set({ deleted_at: now, deleted_by: caller.user.id })
        .where('app_id', '=', auth.app.id)
        .where('deleted_at', 'is', null);
      query = wholeThread ? query.where('thread_id', '=', target.thread_id) : query.where('id', '=', target.id);
      const deleted = (await query.returning('id').execute()).map((row) => row.id);
      if (!deleted.includes(target.id)) throw notFound('comment', commentGuid);
      await this.deps.outbox.add(
        trx,
        deleted.map((guid) => commentEvent({ ...eventBase(auth, caller, fileId), action: 'delete', deleteComment: { guid, selectionGuid: target.thread_id } })),
      );
      await recordActivity(trx, {
        appId: auth.app.id,
        fileId,
        action: 'delete',
        subjectId: target.id,
        summary: wholeThread ? `deleted a comment thread (${deleted.length} comment${deleted.length === 1 ? '' : 's'})` : 'deleted a comment',
        user: caller.user,
        at: now,
      });
      return { deleted };
    });
    this.deps.changed(auth.app.id, fileId, wholeThread ? { subject: 'thread', action: 'delete', id: target.thread_id } : { subject: 'comment', action: 'delete', id: target.id, selectionGuid: target.thread_id });
    return result;
  }

  /** Closes (resolves) a thread; closing a closed thread changes nothing. */
  async close(auth: RequestAuth, fileId: string, selectionGuid: string): Promise<ThreadDetail> {
    return this.setClosed(auth, fileId, selectionGuid, true);
  }

  /** Reopens a closed thread; reopening an open thread changes nothing. Sends no event (spec 6 has none). */
  async reopen(auth: RequestAuth, fileId: string, selectionGuid: string): Promise<ThreadDetail> {
    return this.setClosed(auth, fileId, selectionGuid, false);
  }

  private async setClosed(auth: RequestAuth, fileId: string, selectionGuid: string, close: boolean): Promise<ThreadDetail> {
    const caller = await this.deps.people.authorize(auth, fileId, 'commentable');
    await this.liveThread(auth.app.id, fileId, selectionGuid);
    const now = Date.now();
    const changed = await this.deps.storage.db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable('comment_threads')
        .set(close ? { closed_at: now, closed_by: caller.user.id } : { closed_at: null, closed_by: null })
        .where('id', '=', selectionGuid)
        .where('closed_at', close ? 'is' : 'is not', null)
        .executeTakeFirst();
      if (result.numUpdatedRows === 0n) return false;
      if (close) {
        const guids = await trx.selectFrom('comments').select('id').where('thread_id', '=', selectionGuid).where('deleted_at', 'is', null).orderBy('created_at').orderBy('id').execute();
        await this.deps.outbox.add(trx, commentEvent({ ...eventBase(auth, caller, fileId), action: 'closeComments', closeComment: { selectionGuid, guids: guids.map((row) => row.id) } }));
      }
      const action: ActivityAction = close ? 'close' : 'reopen';
      await recordActivity(trx, { appId: auth.app.id, fileId, action, subjectId: selectionGuid, summary: close ? 'closed a comment thread' : 'reopened a comment thread', user: caller.user, at: now });
      return true;
    });
    if (changed) this.deps.changed(auth.app.id, fileId, { subject: 'thread', action: close ? 'close' : 'reopen', id: selectionGuid });
    return this.getThread(auth, fileId, selectionGuid, { authorized: true });
  }

  /** One thread with its live comments and its selection resolved now. */
  async getThread(auth: RequestAuth, fileId: string, selectionGuid: string, options: { authorized?: boolean } = {}): Promise<ThreadDetail> {
    if (!options.authorized) await this.deps.people.authorize(auth, fileId, 'readable');
    const thread = await this.liveThread(auth.app.id, fileId, selectionGuid);
    const [view] = await this.views(auth, fileId, [thread]);
    return { ...view!, users: await this.deps.people.directory(auth, participantsOf([view!])) };
  }

  /** comment-list: threads newest first, each with its comments oldest first. */
  async list(auth: RequestAuth, fileId: string, options: { page: number; pageSize: number; status: ThreadStatusFilter }): Promise<ThreadPage> {
    await this.deps.people.authorize(auth, fileId, 'readable');
    await this.deps.files.get(auth.app.id, fileId);
    let query = this.deps.storage.db
      .selectFrom('comment_threads')
      .where('comment_threads.app_id', '=', auth.app.id)
      .where('comment_threads.file_id', '=', fileId)
      .where((eb) => eb.exists(eb.selectFrom('comments').select('comments.id').whereRef('comments.thread_id', '=', 'comment_threads.id').where('comments.deleted_at', 'is', null)));
    if (options.status === 'open') query = query.where('comment_threads.closed_at', 'is', null);
    if (options.status === 'closed') query = query.where('comment_threads.closed_at', 'is not', null);
    const [counted, threads] = await Promise.all([
      query.select((eb) => eb.fn.countAll<number | string>().as('total')).executeTakeFirst(),
      query
        .selectAll('comment_threads')
        .orderBy('comment_threads.created_at', 'desc')
        .orderBy('comment_threads.id', 'desc')
        .limit(options.pageSize)
        .offset((options.page - 1) * options.pageSize)
        .execute(),
    ]);
    const total = Number(counted?.total ?? 0);
    const views = await this.views(auth, fileId, threads);
    return {
      threads: views,
      total,
      page: options.page,
      pageSize: options.pageSize,
      isLastPage: options.page * options.pageSize >= total,
      users: await this.deps.people.directory(auth, participantsOf(views)),
    };
  }

  /** comment-count: live comments of open threads (of every thread with `includeClosed`). */
  async count(auth: RequestAuth, fileId: string, includeClosed: boolean): Promise<number> {
    await this.deps.people.authorize(auth, fileId, 'readable');
    await this.deps.files.get(auth.app.id, fileId);
    let query = this.deps.storage.db
      .selectFrom('comments')
      .innerJoin('comment_threads', 'comment_threads.id', 'comments.thread_id')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('comments.app_id', '=', auth.app.id)
      .where('comments.file_id', '=', fileId)
      .where('comments.deleted_at', 'is', null);
    if (!includeClosed) query = query.where('comment_threads.closed_at', 'is', null);
    const row = await query.executeTakeFirst();
    return Number(row?.count ?? 0);
  }

  /** Mentions in live comments, for mention-at-list. */
  async mentions(appId: string, fileId: string): Promise<Array<{ userId: string; atGuid: string; commentGuid: string }>> {
    const rows = await this.deps.storage.db
      .selectFrom('comments')
      .select(['id', 'nodes'])
      .where('app_id', '=', appId)
      .where('file_id', '=', fileId)
      .where('deleted_at', 'is', null)
      .where('mentioned', '!=', '[]')
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.flatMap((row) => mentionsOf(JSON.parse(row.nodes) as ContentNode[]).map((mention) => ({ ...mention, commentGuid: row.id })));
  }

  /**
   * mention-at-position: the cells of the thread whose live comment holds the mention `atGuid`, resolved now
   * (rows and columns inserted or deleted since move them). Only spreadsheets (72010); 126003 when no live comment
   * of this file holds the mention, or when its cells were deleted.
   */
  async mentionCells(auth: RequestAuth, fileId: string, atGuid: string): Promise<{ sheetId: string; sheetName: string; range: string }> {
    const file = await this.deps.files.get(auth.app.id, fileId);
    if (file.type !== 'spreadsheet') throw new ApiError(Errors.notASpreadsheet, `file ${fileId} is a ${file.type}, not a spreadsheet`, { fileId, type: file.type });
    await this.deps.people.authorize(auth, fileId, 'readable');
    const mention = (await this.mentions(auth.app.id, fileId)).find((candidate) => candidate.atGuid === atGuid);
    const notFound = (why: string) => new ApiError(Errors.sheetMentionNotFound, `mention ${atGuid} ${why}`, { fileId, atGuid });
    if (!mention) throw notFound(`is in no comment of spreadsheet ${fileId}`);
    const comment = await this.comment(auth.app.id, fileId, mention.commentGuid);
    const [view] = await this.views(auth, fileId, [await this.thread(auth.app.id, fileId, comment.thread_id)]);
    const selection = view!.selection;
    if (selection.detached || typeof selection.sheet !== 'string' || typeof selection.sheetId !== 'string' || typeof selection.range !== 'string') {
      throw notFound('is on cells that were deleted');
    }
    return { sheetId: selection.sheetId, sheetName: selection.sheet, range: selection.range };
  }

  // -------------------------------------------------------------------------------------------------

  /** Stores a new comment (a reply when `repliedTo` is given) with its events and its sidebar line. */
  private async insertComment(trx: Db, auth: RequestAuth, caller: FileAccess, thread: ThreadRow, comment: CommentRow, repliedTo: CommentRow | null): Promise<void> {
    await trx.insertInto('comments').values(comment).execute();
    await this.announce(trx, auth, caller, thread, comment, 'create', repliedTo);
    const [action, verb] = repliedTo ? (['reply', 'replied'] as const) : (['comment', 'commented'] as const);
    await recordActivity(trx, { appId: comment.app_id, fileId: comment.file_id, action, subjectId: comment.id, summary: `${verb}: ${summary(comment.text)}`, user: caller.user, at: comment.created_at });
  }

  /**
   * Queues the Comment event of a written comment and, for users it mentions that were not announced for
   * this comment before, one MentionAt event naming just them.
   */
  private async announce(trx: Db, auth: RequestAuth, caller: FileAccess, thread: ThreadRow, comment: CommentRow, action: 'create' | 'update', repliedTo: CommentRow | null): Promise<void> {
    const object = commentObject(thread, comment, repliedTo);
    const base = eventBase(auth, caller, comment.file_id);
    const events: PendingEvent[] = [commentEvent({ ...base, action, comment: object })];
    const fresh = await newlyMentioned(trx, comment.app_id, comment.file_id, noticePlace.comment(comment.id), object.userIds);
    if (fresh.length > 0) events.push(mentionAtEvent({ ...base, type: 'comment', comment: { ...object, userIds: fresh } }));
    await this.deps.outbox.add(trx, events);
  }

  private async views(auth: RequestAuth, fileId: string, threads: readonly ThreadRow[]): Promise<ThreadView[]> {
    if (threads.length === 0) return [];
    const comments = await this.deps.storage.db
      .selectFrom('comments')
      .selectAll()
      .where('thread_id', 'in', threads.map((thread) => thread.id))
      .where('deleted_at', 'is', null)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    const byThread = new Map<string, CommentView[]>();
    for (const comment of comments) {
      const list = byThread.get(comment.thread_id) ?? [];
      list.push(commentView(comment));
      byThread.set(comment.thread_id, list);
    }
    const resolved = new Map<ThreadRow, ResolvedSelection>();
    const byModule = new Map<SelectionModule, ThreadRow[]>();
    for (const thread of threads) {
      const module = this.selections.byName(thread.selection_kind);
      if (!module) {
        resolved.set(thread, damagedSelection(thread.selection_kind));
        continue;
      }
      byModule.set(module, [...(byModule.get(module) ?? []), thread]);
    }
    for (const [module, group] of byModule) {
      const answers = await module.resolve({ appId: auth.app.id, fileId, auth }, group.map((thread) => storedAnchor(thread.anchor)));
      group.forEach((thread, index) => resolved.set(thread, answers[index] ?? { detached: true }));
    }
    return threads.map((thread) => ({
      selectionGuid: thread.id,
      kind: thread.selection_kind,
      selection: resolved.get(thread)!,
      selectionTitle: thread.title,
      selectionContent: thread.selection_content,
      status: thread.closed_at === null ? 'open' : 'closed',
      closedBy: thread.closed_by,
      closedAt: thread.closed_at === null ? null : new Date(thread.closed_at).toISOString(),
      createdBy: thread.created_by,
      createdAt: new Date(thread.created_at).toISOString(),
      comments: byThread.get(thread.id) ?? [],
    }));
  }

  /** A comment of this file; a deleted one is not found unless `deleted` says otherwise. */
  private async comment(appId: string, fileId: string, guid: string, options: { deleted?: 'notFound' | 'commentDeleted' | 'include' } = {}, db: Db = this.deps.storage.db): Promise<CommentRow> {
    const row = await db.selectFrom('comments').selectAll().where('id', '=', guid).where('app_id', '=', appId).where('file_id', '=', fileId).executeTakeFirst();
    if (!row) throw notFound('comment', guid);
    if (row.deleted_at !== null) {
      if (options.deleted === 'commentDeleted') throw new ApiError(Errors.commentDeleted, `comment ${guid} was deleted: it takes no replies`);
      if (options.deleted !== 'include') throw notFound('comment', guid);
    }
    return row;
  }

  private async thread(appId: string, fileId: string, id: string): Promise<ThreadRow> {
    const row = await this.deps.storage.db.selectFrom('comment_threads').selectAll().where('id', '=', id).where('app_id', '=', appId).where('file_id', '=', fileId).executeTakeFirst();
    if (!row) throw notFound('comment thread', id);
    return row;
  }

  /** A thread that still has a live comment (a deleted thread is not found). */
  private async liveThread(appId: string, fileId: string, id: string): Promise<ThreadRow> {
    const row = await this.thread(appId, fileId, id);
    const live = await this.deps.storage.db.selectFrom('comments').select('id').where('thread_id', '=', id).where('deleted_at', 'is', null).limit(1).executeTakeFirst();
    if (!live) throw notFound('comment thread', id);
    return row;
  }
}

function notFound(what: string, id: string): ApiError {
  return new ApiError(Errors.conversationItemNotFound, `${what} ${id} not found in this file`);
}

function newComment(thread: ThreadRow, caller: FileAccess, content: { nodes: ContentNode[]; text: string; mentioned: string[] }, replyTo: string | null, now: number): CommentRow {
  return {
    id: crypto.randomUUID(),
    app_id: thread.app_id,
    file_id: thread.file_id,
    thread_id: thread.id,
    reply_to: replyTo,
    author_id: caller.user.id,
    nodes: JSON.stringify(content.nodes),
    text: content.text,
    mentioned: JSON.stringify(content.mentioned),
    created_at: now,
    updated_at: now,
    deleted_at: null,
    deleted_by: null,
  };
}

function eventBase(auth: RequestAuth, caller: FileAccess, fileId: string) {
  return { appId: auth.app.id, fileId, userId: caller.user.id, userToken: auth.token };
}

/**
 * The spec 6 `comment` object: spreadsheets, presentations and tables name the selection (`selectionTitle`),
 * tables add the commented content, spreadsheet replies name the comment they answer.
 */
function commentObject(thread: ThreadRow, comment: CommentRow, repliedTo: CommentRow | null): CommentObject {
  const object: CommentObject = { guid: comment.id, selectionGuid: thread.id, content: comment.text, userIds: JSON.parse(comment.mentioned) as string[] };
  if (thread.title !== null) object.selectionTitle = thread.title;
  if (thread.selection_kind === 'table') object.selectionContent = thread.selection_content ?? '';
  if (thread.selection_kind === 'spreadsheet' && repliedTo) {
    object.replyTo = repliedTo.id;
    object.replyComment = { userId: repliedTo.author_id, commentGuid: repliedTo.id, selectionGuid: thread.id, ...(thread.title !== null ? { selectionTitle: thread.title } : {}) };
  }
  return object;
}

function commentView(row: CommentRow): CommentView {
  return {
    guid: row.id,
    selectionGuid: row.thread_id,
    replyTo: row.reply_to,
    userId: row.author_id,
    content: row.text,
    nodes: JSON.parse(row.nodes) as ContentNode[],
    userIds: JSON.parse(row.mentioned) as string[],
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

function participantsOf(threads: readonly ThreadView[]): string[] {
  return threads.flatMap((thread) => [thread.createdBy, ...thread.comments.flatMap((comment) => [comment.userId, ...comment.userIds])]);
}

function summary(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > SUMMARY_LENGTH ? `${line.slice(0, SUMMARY_LENGTH - 1)}…` : line;
}

/** A thread's stored anchor; undefined when it is not JSON (damaged), which its module answers as 74006. */
function storedAnchor(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
