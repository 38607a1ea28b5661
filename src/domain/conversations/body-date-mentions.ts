import type { Insertable } from 'kysely';
import { dateMentionEvent } from '../../events/builders.js';
import type { PendingEvent } from '../../events/types.js';
import type { DateMentionsTable } from '../../storage/schema.js';
import type { RecordContext, RecordHook } from '../content/content-service.js';
import { dateMentionsOfContent, MENTION_KINDS } from '../content/mentions.js';
import { inlineText } from '../../model/rich-text/schema.js';
import { MAX_DATE_MENTION_CONTENT } from './date-mention-service.js';

/** Longest `guid` of a body date mention taken as its positionId (an editor makes UUIDs). */
const MAX_POSITION_ID = 128;

/**
 * Date mentions written in a file's body (docs/CONVERSATIONS.md "Date mentions in the body"): when a burst of
 * edits is recorded, every `dateMention` node whose guid no date mention of the file has (live or removed)
 * becomes one, as if its writer had declared it: positionId = the guid, remindAt = the date at 00:00 UTC,
 * content = the text around it, no users to remind; a DateMention `create` event goes out in the recording
 * transaction. The editor declares the dates typed in it at once (POST date-mentions); this reads the ones
 * that arrive otherwise (a body replaced through the API, a restored revision, another client).
 */
async function readBodyDates({ db, appId, fileId, kind, doc, actor }: RecordContext): Promise<PendingEvent[]> {
  // Everything is read from the document before the first await: a live one keeps receiving updates.
  const written = new Map<string, { date: string; content: string }>();
  for (const mention of dateMentionsOfContent(doc, kind)) {
    if (mention.guid.length > MAX_POSITION_ID || written.has(mention.guid)) continue;
    const context = inlineText(mention.block.toArray()).trim().slice(0, MAX_DATE_MENTION_CONTENT);
    written.set(mention.guid, { date: mention.date, content: context || mention.date });
  }
  if (written.size === 0) return [];

  const known = await db
    .selectFrom('date_mentions')
    .select('position_id')
    .where('app_id', '=', appId)
    .where('file_id', '=', fileId)
    .where('position_id', 'in', [...written.keys()])
    .execute();
  for (const row of known) written.delete(row.position_id);
  if (written.size === 0) return [];

  const now = Date.now();
  const rows: Insertable<DateMentionsTable>[] = [...written].map(([guid, { date, content }]) => ({
    id: crypto.randomUUID(),
    app_id: appId,
    file_id: fileId,
    author_id: actor.userId,
    content,
    remind_at: Date.parse(`${date}T00:00:00Z`),
    remind_user_ids: '[]',
    position_id: guid,
    created_at: now,
    updated_at: now,
    removed_at: null,
  }));
  await db.insertInto('date_mentions').values(rows).execute();
  return rows.map((row) =>
    dateMentionEvent({
      appId,
      fileId,
      userId: actor.userId,
      userToken: actor.token,
      action: 'create',
      createData: { id: row.id, content: row.content, remindUserIds: [], remindAt: row.remind_at, positionId: row.position_id },
    }),
  );
}

/** The content engine's record hook reading date mentions out of the body (wired in src/services.ts). */
export const bodyDateMentionsHook: RecordHook = { name: 'body-date-mentions', kinds: MENTION_KINDS, onRecord: readBodyDates };
