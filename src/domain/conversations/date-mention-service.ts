import type { Selectable } from 'kysely';
import { ApiError, Errors } from '../../errors.js';
import { dateMentionEvent, type DateMentionData } from '../../events/builders.js';
import type { RequestAuth } from '../../auth/request-auth.js';
import type { DateMentionsTable } from '../../storage/schema.js';
import type { ConversationDeps } from './conversation-deps.js';

export const MAX_REMIND_USERS = 50;
export const MAX_DATE_MENTION_CONTENT = 1000;

export interface DateMentionInput {
  content?: string | undefined;
  /** epoch milliseconds or ISO 8601 */
  remindAt?: number | string | undefined;
  remindUserIds?: string[] | undefined;
  positionId?: string | undefined;
}

export interface DateMentionView extends DateMentionData {
  authorId: string;
  /** remindAt as ISO 8601 */
  remindAtIso: string;
  createdAt: string;
  updatedAt: string;
}

type DateMentionRow = Selectable<DateMentionsTable>;

/**
 * Dates mentioned in a file with a reminder time and the users to remind (DateMention events). The service
 * keeps them and tells the integrator; reminding is the integrator's (spec 4.4 rule 6).
 */
export class DateMentionService {
  constructor(private readonly deps: ConversationDeps) {}

  /**
   * Creates a date mention; one whose `positionId` the file already has live (the service read it out of the
   * body first, body-date-mentions.ts) is updated instead, so a date is never mentioned twice.
   */
  async create(auth: RequestAuth, fileId: string, input: DateMentionInput & { content: string; remindAt: number | string }): Promise<DateMentionView> {
    const caller = await this.deps.people.authorize(auth, fileId, 'commentable');
    await this.deps.files.get(auth.app.id, fileId);
    if (input.positionId !== undefined) {
      const existing = await this.deps.storage.db
        .selectFrom('date_mentions')
        .select('id')
        .where('app_id', '=', auth.app.id)
        .where('file_id', '=', fileId)
        .where('position_id', '=', input.positionId)
        .where('removed_at', 'is', null)
        .executeTakeFirst();
      if (existing) return this.update(auth, fileId, existing.id, input);
    }
    const remindUserIds = uniqueUsers(input.remindUserIds ?? []);
    await this.deps.people.requireKnown(auth, remindUserIds, 'user to remind');
    const now = Date.now();
    const row: DateMentionRow = {
      id: crypto.randomUUID(),
      app_id: auth.app.id,
      file_id: fileId,
      author_id: caller.user.id,
      content: checkedContent(input.content),
      remind_at: parseRemindAt(input.remindAt),
      remind_user_ids: JSON.stringify(remindUserIds),
      position_id: input.positionId ?? crypto.randomUUID(),
      created_at: now,
      updated_at: now,
      removed_at: null,
    };
    await this.deps.storage.db.transaction().execute(async (trx) => {
      await trx.insertInto('date_mentions').values(row).execute();
      await this.deps.outbox.add(trx, dateMentionEvent({ appId: auth.app.id, fileId, userId: caller.user.id, userToken: auth.token, action: 'create', createData: eventData(row) }));
    });
    this.deps.changed(auth.app.id, fileId, { subject: 'dateMention', action: 'create', id: row.id });
    return view(row);
  }

  /** Changes the given fields; someone else's date mention needs `manageable`. */
  async update(auth: RequestAuth, fileId: string, id: string, input: DateMentionInput): Promise<DateMentionView> {
    const caller = await this.deps.people.authorize(auth, fileId, 'commentable');
    if (input.content === undefined && input.remindAt === undefined && input.remindUserIds === undefined && input.positionId === undefined) {
      throw new ApiError(Errors.invalidConversationParams, 'nothing to change: send content, remindAt, remindUserIds or positionId');
    }
    const existing = await this.live(auth.app.id, fileId, id);
    this.deps.people.requireOwnerOrManager(caller, existing.author_id, `date mention ${id}`);
    const remindUserIds = input.remindUserIds === undefined ? undefined : uniqueUsers(input.remindUserIds);
    if (remindUserIds) await this.deps.people.requireKnown(auth, remindUserIds, 'user to remind');
    const changes = {
      ...(input.content !== undefined ? { content: checkedContent(input.content) } : {}),
      ...(input.remindAt !== undefined ? { remind_at: parseRemindAt(input.remindAt) } : {}),
      ...(remindUserIds ? { remind_user_ids: JSON.stringify(remindUserIds) } : {}),
      ...(input.positionId !== undefined ? { position_id: input.positionId } : {}),
      updated_at: Date.now(),
    };
    const updated: DateMentionRow = { ...existing, ...changes };
    await this.deps.storage.db.transaction().execute(async (trx) => {
      const result = await trx.updateTable('date_mentions').set(changes).where('id', '=', id).where('removed_at', 'is', null).executeTakeFirst();
      if (result.numUpdatedRows === 0n) throw notFound(id);
      await this.deps.outbox.add(trx, dateMentionEvent({ appId: auth.app.id, fileId, userId: caller.user.id, userToken: auth.token, action: 'update', updateData: eventData(updated) }));
    });
    this.deps.changed(auth.app.id, fileId, { subject: 'dateMention', action: 'update', id });
    return view(updated);
  }

  async remove(auth: RequestAuth, fileId: string, id: string): Promise<{ id: string }> {
    const caller = await this.deps.people.authorize(auth, fileId, 'commentable');
    const existing = await this.live(auth.app.id, fileId, id);
    this.deps.people.requireOwnerOrManager(caller, existing.author_id, `date mention ${id}`);
    await this.deps.storage.db.transaction().execute(async (trx) => {
      const result = await trx.updateTable('date_mentions').set({ removed_at: Date.now() }).where('id', '=', id).where('removed_at', 'is', null).executeTakeFirst();
      if (result.numUpdatedRows === 0n) throw notFound(id);
      await this.deps.outbox.add(trx, dateMentionEvent({ appId: auth.app.id, fileId, userId: caller.user.id, userToken: auth.token, action: 'remove', removeData: { id } }));
    });
    this.deps.changed(auth.app.id, fileId, { subject: 'dateMention', action: 'delete', id });
    return { id };
  }

  /** The file's live date mentions, soonest reminder first. */
  async list(auth: RequestAuth, fileId: string): Promise<DateMentionView[]> {
    await this.deps.people.authorize(auth, fileId, 'readable');
    await this.deps.files.get(auth.app.id, fileId);
    const rows = await this.deps.storage.db
      .selectFrom('date_mentions')
      .selectAll()
      .where('app_id', '=', auth.app.id)
      .where('file_id', '=', fileId)
      .where('removed_at', 'is', null)
      .orderBy('remind_at')
      .orderBy('id')
      .execute();
    return rows.map(view);
  }

  private async live(appId: string, fileId: string, id: string): Promise<DateMentionRow> {
    const row = await this.deps.storage.db
      .selectFrom('date_mentions')
      .selectAll()
      .where('id', '=', id)
      .where('app_id', '=', appId)
      .where('file_id', '=', fileId)
      .where('removed_at', 'is', null)
      .executeTakeFirst();
    if (!row) throw notFound(id);
    return row;
  }
}

function notFound(id: string): ApiError {
  return new ApiError(Errors.conversationItemNotFound, `date mention ${id} not found in this file`);
}

function checkedContent(content: string): string {
  if (content.trim().length === 0) throw new ApiError(Errors.invalidConversationParams, 'content of a date mention is empty');
  if (content.length > MAX_DATE_MENTION_CONTENT) throw new ApiError(Errors.invalidConversationParams, `content of a date mention is over ${MAX_DATE_MENTION_CONTENT} characters`);
  return content;
}

function uniqueUsers(ids: readonly string[]): string[] {
  const unique = [...new Set(ids)];
  if (unique.length > MAX_REMIND_USERS) throw new ApiError(Errors.invalidConversationParams, `at most ${MAX_REMIND_USERS} users to remind`);
  return unique;
}

/** Epoch milliseconds from a number or an ISO 8601 text with a date; 74000 otherwise. */
export function parseRemindAt(value: number | string): number {
  const millis = typeof value === 'number' ? value : /^\d{4}-\d{2}-\d{2}/.test(value) ? Date.parse(value) : Number.NaN;
  if (!Number.isSafeInteger(millis) || millis < 0 || millis > 253_402_300_799_999) {
    throw new ApiError(Errors.invalidConversationParams, `remindAt ${JSON.stringify(value)} is not a time: send epoch milliseconds or ISO 8601 (2026-12-01T09:00:00Z)`);
  }
  return millis;
}

function eventData(row: DateMentionRow): DateMentionData {
  return { id: row.id, content: row.content, remindUserIds: JSON.parse(row.remind_user_ids) as string[], remindAt: Number(row.remind_at), positionId: row.position_id };
}

function view(row: DateMentionRow): DateMentionView {
  return {
    ...eventData(row),
    authorId: row.author_id,
    remindAtIso: new Date(Number(row.remind_at)).toISOString(),
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}
