import type { Db } from '../../storage/database.js';

/**
 * Which (place, user) pairs a MentionAt event already announced (docs/CONVERSATIONS.md "Events"). The
 * primary key decides: of the users given, only those this transaction records for the first time are
 * returned, so two writers racing on one place never announce a user twice.
 */
export async function recordMentionNotices(db: Db, appId: string, fileId: string, place: string, userIds: readonly string[]): Promise<string[]> {
  if (userIds.length === 0) return [];
  const now = Date.now();
  const inserted = await db
    .insertInto('mention_notices')
    .values(userIds.map((userId) => ({ app_id: appId, file_id: fileId, place, user_id: userId, created_at: now })))
    .onConflict((conflict) => conflict.doNothing())
    .returning('user_id')
    .execute();
  const fresh = new Set(inserted.map((row) => row.user_id));
  return userIds.filter((userId) => fresh.has(userId));
}

/** Notice places: one per comment, discussion message, or body mention guid. */
export const noticePlace = {
  comment: (guid: string) => `comment:${guid}`,
  discussion: (id: string) => `discussion:${id}`,
};
