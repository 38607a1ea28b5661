import * as Y from 'yjs';
import { mentionAtEvent } from '../../events/builders.js';
import type { PendingEvent } from '../../events/types.js';
import type { RecordContext, RecordHook } from '../content/content-service.js';
import { richTextOf, slidesOf, type ContentKind } from '../content/model.js';
import { inlineText, mentionsIn } from '../content/rich-text.js';

/**
 * User mentions in a file's body (docs/CONVERSATIONS.md "Events"): when a burst of edits is recorded, every
 * (place, user) not announced yet gets one MentionAt event, in the recording transaction.
 */

/** File kinds whose content holds rich text, hence mentions. */
export const MENTION_KINDS: readonly ContentKind[] = ['document', 'documentPro', 'presentation'];

/** A `mention` node of a file's content. */
export interface ContentMention {
  userId: string;
  /** the mention's `guid`; '' when the node has none */
  atGuid: string;
  /** the textblock holding the mention (its text is the mention's context) */
  block: Y.XmlFragment;
}

/** The rich text of a file's content: the document, or every text box of every slide, in reading order. */
function richTextsOf(doc: Y.Doc, kind: ContentKind): Y.XmlFragment[] {
  switch (kind) {
    case 'document':
    case 'documentPro':
      return [richTextOf(doc)];
    case 'presentation':
      return slidesOf(doc)
        .toArray()
        .flatMap((slide) => {
          const boxes = slide.get('boxes');
          return boxes instanceof Y.Array ? (boxes.toArray() as unknown[]) : [];
        })
        .flatMap((box) => (box instanceof Y.Map && box.get('content') instanceof Y.XmlFragment ? [box.get('content') as Y.XmlFragment] : []));
    case 'spreadsheet':
      return [];
  }
}

/** Whether the node's children are inline content (text runs, mentions): a textblock. */
function holdsInline(node: Y.XmlFragment): boolean {
  return node.toArray().some((child) => child instanceof Y.XmlText || (child instanceof Y.XmlElement && child.nodeName === 'mention'));
}

function collect(node: Y.XmlFragment, found: ContentMention[]): void {
  if (holdsInline(node)) {
    for (const mention of mentionsIn(node)) found.push({ ...mention, block: node });
    return;
  }
  for (const child of node.toArray()) if (child instanceof Y.XmlElement) collect(child, found);
}

/**
 * The users mentioned in a file's content (documents, and presentation text boxes), in reading order, each
 * with the textblock holding it: one walk of the content. Spreadsheets have none.
 */
export function mentionsOfContent(doc: Y.Doc, kind: ContentKind): ContentMention[] {
  const found: ContentMention[] = [];
  for (const fragment of richTextsOf(doc, kind)) collect(fragment, found);
  return found;
}

/** The place a body mention is remembered by in `mention_notices`: its guid, or the user alone without one. */
export function bodyMentionPlace(atGuid: string): string {
  return atGuid ? `body:${atGuid}` : 'body-user';
}

/** Rows per statement (SQLite allows 32766 parameters, PostgreSQL 65535; 5 per row). */
const CHUNK = 500;

/**
 * Announces the mentions of the recorded content that were never announced: each (place, user) is inserted
 * into `mention_notices` only if absent, and only the rows this transaction inserted give an event, so two
 * processes recording the same file at once announce each mention once (the primary key decides).
 */
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

  const places = [...new Set([...candidates.values()].map((candidate) => candidate.place))];
  const known = new Set<string>();
  for (let start = 0; start < places.length; start += CHUNK) {
    const rows = await db
      .selectFrom('mention_notices')
      .select(['place', 'user_id'])
      .where('app_id', '=', appId)
      .where('file_id', '=', fileId)
      .where('place', 'in', places.slice(start, start + CHUNK))
      .execute();
    for (const row of rows) known.add(`${row.place}\n${row.user_id}`);
  }
  // a stable order (the key's) so that concurrent inserters take row locks in the same order
  const fresh = [...candidates.keys()].filter((id) => !known.has(id)).sort();
  if (fresh.length === 0) return [];

  const inserted = new Set<string>();
  const now = Date.now();
  for (let start = 0; start < fresh.length; start += CHUNK) {
    const rows = await db
      .insertInto('mention_notices')
      .values(
        fresh.slice(start, start + CHUNK).map((id) => {
          const candidate = candidates.get(id)!;
          return { app_id: appId, file_id: fileId, place: candidate.place, user_id: candidate.userId, created_at: now };
        }),
      )
      .onConflict((conflict) => conflict.columns(['app_id', 'file_id', 'place', 'user_id']).doNothing())
      .returning(['place', 'user_id'])
      .execute();
    for (const row of rows) inserted.add(`${row.place}\n${row.user_id}`);
  }

  const events: PendingEvent[] = [];
  for (const [id, candidate] of candidates) {
    if (!inserted.has(id)) continue;
    events.push(
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
  return events;
}

/** The content engine's record hook announcing body mentions (wired in src/services.ts). */
export const bodyMentionsHook: RecordHook = { name: 'body-mentions', kinds: MENTION_KINDS, onRecord: announceNewMentions };
