import * as Y from 'yjs';
import { suggestionEvent, type SuggestionObject } from '../../events/builders.js';
import type { PendingEvent } from '../../events/types.js';
import { SUGGESTION_KINDS, type SuggestionKind } from '../../model/rich-text/marks/suggestion.js';
import { RICH_TEXT_ROOT, SUGGESTIBLE_KINDS } from '../../model/content.js';
import type { RecordContext, RecordHook } from './content-service.js';

/**
 * Suggestion events (docs/PUSH-AND-EVENTS.md "Suggestion events"), sent by the service from what it records,
 * never taken from a browser's word: when a burst of edits is recorded, each insertion or deletion of the body
 * not announced yet is a `create`, and each announced one no longer in the body is an `accept` or a `reject`.
 * Which one is read from the document itself: the Yjs id of the suggestion's first character is kept with its
 * notice, and that character is deleted when an insertion is rejected or a deletion accepted, and kept (without
 * the mark) when an insertion is accepted or a deletion rejected. A suggestion its author takes back (deletes
 * their own insertion) therefore reads as rejected, by them.
 */

interface Found extends SuggestionObject {
  client: number;
  clock: number;
}

function isKind(name: string): name is SuggestionKind {
  return (SUGGESTION_KINDS as readonly string[]).includes(name);
}

/** What a suggestion mark's attribute holds, as stored by y-prosemirror (`{id, author, authorName, date}`). */
function textOf(value: unknown): string | null {
  return typeof value === 'string' && value ? value : typeof value === 'number' ? String(value) : null;
}

/**
 * The body's suggestions with the id of their first character, read from the Yjs items (y-prosemirror writes a
 * mark as formatting attributes of the text: a format item opens it, one with a null value closes it).
 */
export function suggestionsInContent(doc: Y.Doc): Map<string, Found> {
  const found = new Map<string, Found>();
  const visitText = (text: Y.XmlText) => {
    const open = new Map<string, unknown>();
    for (let item = text._start; item; item = item.right) {
      if (item.deleted) continue;
      if (item.content instanceof Y.ContentFormat) {
        if (item.content.value === null) open.delete(item.content.key);
        else open.set(item.content.key, item.content.value);
        continue;
      }
      if (!(item.content instanceof Y.ContentString)) continue;
      const chars = item.content.str;
      for (const [kind, value] of open) {
        if (!isKind(kind) || typeof value !== 'object' || value === null) continue;
        const attrs = value as Record<string, unknown>;
        const id = textOf(attrs.id);
        if (!id) continue;
        const key = `${kind}\n${id}`;
        const entry = found.get(key);
        const visible = chars.replace(/\u200B/g, '');
        if (entry) entry.text += visible;
        else found.set(key, { id, kind, text: visible, authorId: textOf(attrs.author), authorName: textOf(attrs.authorName), date: textOf(attrs.date), client: item.id.client, clock: item.id.clock });
      }
    }
  };
  const visit = (node: Y.XmlFragment | Y.XmlElement) => {
    for (const child of node.toArray()) {
      if (child instanceof Y.XmlText) visitText(child);
      else if (child instanceof Y.XmlElement) visit(child);
    }
  };
  visit(doc.getXmlFragment(RICH_TEXT_ROOT));
  return found;
}

async function announceSuggestions({ db, appId, fileId, doc, actor }: RecordContext): Promise<PendingEvent[]> {
  // read before the first await: a live document keeps receiving updates
  const present = suggestionsInContent(doc);
  const deletions = Y.snapshot(doc).ds;

  const known = await db.selectFrom('suggestion_notices').selectAll().where('app_id', '=', appId).where('file_id', '=', fileId).execute();
  const knownKeys = new Set(known.map((row) => `${row.kind}\n${row.suggestion_id}`));
  const events: PendingEvent[] = [];
  const base = { appId, fileId, userToken: actor.token };
  const now = Date.now();

  for (const [key, suggestion] of present) {
    if (knownKeys.has(key)) continue;
    const { client: _client, clock: _clock, ...object } = suggestion;
    const inserted = await db
      .insertInto('suggestion_notices')
      .values({ app_id: appId, file_id: fileId, kind: suggestion.kind, suggestion_id: suggestion.id, suggestion: JSON.stringify(object), item_client: suggestion.client, item_clock: suggestion.clock, decided: 0, created_at: now })
      .onConflict((conflict) => conflict.columns(['app_id', 'file_id', 'kind', 'suggestion_id']).doNothing())
      .returning('suggestion_id')
      .executeTakeFirst();
    // made by its author (an imported Word revision has none: whoever recorded the file)
    if (inserted) events.push(suggestionEvent({ ...base, userId: suggestion.authorId ?? actor.userId, action: 'create', suggestion: object }));
  }

  for (const row of known) {
    if (row.decided || present.has(`${row.kind}\n${row.suggestion_id}`) || !isKind(row.kind)) continue;
    const gone = Y.isDeleted(deletions, Y.createID(Number(row.item_client), Number(row.item_clock)));
    const accepted = row.kind === 'insertion' ? !gone : gone;
    const updated = await db
      .updateTable('suggestion_notices')
      .set({ decided: 1 })
      .where('app_id', '=', appId)
      .where('file_id', '=', fileId)
      .where('kind', '=', row.kind)
      .where('suggestion_id', '=', row.suggestion_id)
      .where('decided', '=', 0)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) continue;
    events.push(
      suggestionEvent({
        ...base,
        userId: actor.userId,
        action: accepted ? 'accept' : 'reject',
        suggestion: JSON.parse(row.suggestion) as SuggestionObject,
      }),
    );
  }
  return events;
}

/** The content engine's record hook announcing suggestions (wired in src/services.ts). */
export const suggestionEventsHook: RecordHook = { name: 'suggestion-events', kinds: SUGGESTIBLE_KINDS, onRecord: announceSuggestions };
