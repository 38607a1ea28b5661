import type { Db } from '../../storage/database.js';

/** A user mentioned at a place: `comment:{guid}`, `discussion:{id}`, `body:{atGuid}` or `body-user`. */
export interface MentionNotice {
  place: string;
  userId: string;
}

/** Notice places of comments and discussion messages (body places: body-mentions.ts). */
export const noticePlace = {
  comment: (guid: string) => `comment:${guid}`,
  discussion: (id: string) => `discussion:${id}`,
};

/** Rows per statement (SQLite allows 32766 parameters, PostgreSQL 65535; 5 per row). */
const CHUNK = 500;

function noticeKey(place: string, userId: string): string {
  return `${place}\n${userId}`;
}

/**
 * Records which (place, user) pairs a MentionAt event announces (docs/CONVERSATIONS.md "Events") and returns
 * the ones recorded for the first time, in the order given. The primary key decides: two writers racing on
 * one place never both get a pair, so a mention is announced once. Pairs already known are skipped with one
 * read first, and the rest are inserted in a stable order so concurrent inserters lock rows alike.
 */
export async function recordMentionNotices<T extends MentionNotice>(db: Db, appId: string, fileId: string, notices: readonly T[]): Promise<T[]> {
  if (notices.length === 0) return [];
  const places = [...new Set(notices.map((notice) => notice.place))];
  const known = new Set<string>();
  for (let start = 0; start < places.length; start += CHUNK) {
    const rows = await db
      .selectFrom('mention_notices')
      .select(['place', 'user_id'])
      .where('app_id', '=', appId)
      .where('file_id', '=', fileId)
      .where('place', 'in', places.slice(start, start + CHUNK))
      .execute();
    for (const row of rows) known.add(noticeKey(row.place, row.user_id));
  }
  const fresh = [...new Map(notices.map((notice) => [noticeKey(notice.place, notice.userId), notice])).entries()]
    .filter(([key]) => !known.has(key))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, notice]) => notice);
  const inserted = new Set<string>();
  const now = Date.now();
  for (let start = 0; start < fresh.length; start += CHUNK) {
    const rows = await db
      .insertInto('mention_notices')
      .values(fresh.slice(start, start + CHUNK).map((notice) => ({ app_id: appId, file_id: fileId, place: notice.place, user_id: notice.userId, created_at: now })))
      .onConflict((conflict) => conflict.columns(['app_id', 'file_id', 'place', 'user_id']).doNothing())
      .returning(['place', 'user_id'])
      .execute();
    for (const row of rows) inserted.add(noticeKey(row.place, row.user_id));
  }
  return notices.filter((notice) => inserted.delete(noticeKey(notice.place, notice.userId)));
}

/** The users of `userIds` announced at `place` for the first time. */
export async function newlyMentioned(db: Db, appId: string, fileId: string, place: string, userIds: readonly string[]): Promise<string[]> {
  const fresh = await recordMentionNotices(db, appId, fileId, userIds.map((userId) => ({ place, userId })));
  return fresh.map((notice) => notice.userId);
}
