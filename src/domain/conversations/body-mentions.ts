import * as Y from 'yjs';
import { mentionAtEvent } from '../../events/builders.js';
import type { PendingEvent } from '../../events/types.js';
import type { RecordContext, RecordHook } from '../content/content-service.js';
import { MENTION_KINDS, mentionsOfContent } from '../content/mentions.js';
import { inlineText } from '../../model/rich-text/schema.js';
import { recordMentionNotices } from './mention-notices.js';

/**
 * User mentions in a file's body (docs/CONVERSATIONS.md "Events"): when a burst of edits is recorded, every
 * (place, user) not announced yet gets one MentionAt event, in the recording transaction.
 */

/** The place a body mention is remembered by in `mention_notices`: its guid, or the user alone without one. */
export function bodyMentionPlace(atGuid: string): string {
  return atGuid ? `body:${atGuid}` : 'body-user';
}

async function announceNewMentions({ db, appId, fileId, kind, doc, actor }: RecordContext): Promise<PendingEvent[]> {
  // Everything is read from the document before the first await: a live one keeps receiving updates.
  const candidates = new Map<string, { userId: string; atGuid: string; place: string; content: string }>();
  const texts = new Map<Y.XmlFragment, string>();
  for (const mention of mentionsOfContent(doc, kind)) {
    const place = bodyMentionPlace(mention.atGuid);
    const id = `${place}\n${mention.userId}`;
    if (candidates.has(id)) continue;
    let content = texts.get(mention.block);
    if (content === undefined) texts.set(mention.block, (content = inlineText(mention.block.toArray())));
    candidates.set(id, { userId: mention.userId, atGuid: mention.atGuid, place, content });
  }
  if (candidates.size === 0) return [];

  const fresh = await recordMentionNotices(db, appId, fileId, [...candidates.values()]);
  return fresh.map((candidate) =>
    mentionAtEvent({
      appId,
      fileId,
      userId: actor.userId,
      userToken: actor.token,
      type: 'mention_at',
      mentionAt: { atGuid: candidate.atGuid, userIds: [candidate.userId], content: candidate.content },
    }),
  );
}

/** The content engine's record hook announcing body mentions (wired in src/services.ts). */
export const bodyMentionsHook: RecordHook = { name: 'body-mentions', kinds: MENTION_KINDS, onRecord: announceNewMentions };
