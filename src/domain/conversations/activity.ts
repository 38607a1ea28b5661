import type { IntegratorUser } from '../../integrator/types.js';
import type { Db } from '../../storage/database.js';

export type ActivityAction = 'comment' | 'reply' | 'edit' | 'delete' | 'close' | 'reopen';

/** Writes one line of conversation activity in the transaction of the change it describes. */
export async function recordActivity(
  db: Db,
  entry: { appId: string; fileId: string; action: ActivityAction; subjectId: string; summary: string; user: IntegratorUser; at: number },
): Promise<void> {
  await db
    .insertInto('conversation_activity')
    .values({
      id: crypto.randomUUID(),
      app_id: entry.appId,
      file_id: entry.fileId,
      action: entry.action,
      subject_id: entry.subjectId,
      summary: entry.summary,
      user_id: entry.user.id,
      user_name: entry.user.name,
      created_at: entry.at,
    })
    .execute();
}
