import * as Y from 'yjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ContentActor } from '../../src/domain/content/collaboration-context.js';
import { richTextOf } from '../../src/model/content.js';
import { parseFragment, toYNodes, type ProseMirrorNode } from '../../src/model/rich-text/schema.js';
import { createFile, FAST_CONTENT, SECOND_USER } from '../conversations/support.js';
import { testDatabases } from '../support/databases.js';
import { DEFAULT_USER } from '../support/integrator.js';
import { queuedPayloads } from '../support/outbox.js';
import { startService, type TestService } from '../support/service.js';

/**
 * Suggestion events (docs/PUSH-AND-EVENTS.md "Suggestion events") as the recorder sends them: each suggestion
 * once when recorded, and once accepted or rejected, read from whether its text stayed in the Yjs document.
 */

const alice: ContentActor = { userId: DEFAULT_USER.id, name: DEFAULT_USER.name, token: DEFAULT_USER.token };
const bob: ContentActor = { userId: SECOND_USER.id, name: SECOND_USER.name, token: SECOND_USER.token };
const by = { author: alice.userId, authorName: 'Alice', date: '2026-11-27T09:00:00.000Z' };

const suggested = (text: string, kind: 'insertion' | 'deletion', id: string): ProseMirrorNode => ({ type: 'text', text, marks: [{ type: kind, attrs: { id, ...by } }] });

/** The characters of a Y.XmlText (its toString() writes the formatting as XML). */
function plain(text: Y.XmlText): string {
  return (text.toDelta() as { insert: unknown }[]).map((run) => (typeof run.insert === 'string' ? run.insert : '')).join('');
}

/** The paragraph's text runs as y-prosemirror holds them. */
function textOf(doc: Y.Doc): Y.XmlText {
  return (richTextOf(doc).get(0) as Y.XmlElement).get(0) as Y.XmlText;
}

for (const database of testDatabases()) {
  describe(`Suggestion events [${database.name}]`, () => {
    let svc: TestService;
    beforeEach(async () => {
      svc = await startService(database, { integrator: true, content: FAST_CONTENT });
    });
    afterEach(async () => {
      await svc.close();
    });

    const changeAndRecord = async (fileId: string, actor: ContentActor, mutate: (doc: Y.Doc) => void) => {
      await svc.services.content.change(svc.app.id, fileId, actor, mutate);
      // recorded now, unless the coalescing timer (100 ms here) already did
      await svc.services.content.flush(svc.app.id, fileId);
    };
    /** `action kind id text by user` of each Suggestion event queued for a file, in order. */
    const queued = async (fileId: string) =>
      (await queuedPayloads<{ action: string; userId: string; suggestion: { kind: string; id: string; text: string; authorId: string } }>(svc, fileId, 'Suggestion')).map(
        (payload) => `${payload.action} ${payload.suggestion.kind} ${payload.suggestion.id} "${payload.suggestion.text}" by ${payload.userId} (author ${payload.suggestion.authorId})`,
      );

    it('announces each suggestion once, then its acceptance or rejection as the text shows it', async () => {
      await createFile(svc, 'doc', 'document');
      const paragraph: ProseMirrorNode = {
        type: 'paragraph',
        content: [{ type: 'text', text: 'A ' }, suggested('kept', 'insertion', 'i1'), suggested('gone', 'insertion', 'i2'), { type: 'text', text: ' B ' }, suggested('struck', 'deletion', 'd1'), suggested('saved', 'deletion', 'd2')],
      };
      await changeAndRecord('doc', alice, (doc) => richTextOf(doc).insert(0, toYNodes(parseFragment([paragraph]))));
      const created = [
        'create insertion i1 "kept" by user-1 (author user-1)',
        'create insertion i2 "gone" by user-1 (author user-1)',
        'create deletion d1 "struck" by user-1 (author user-1)',
        'create deletion d2 "saved" by user-1 (author user-1)',
      ];
      await expect.poll(async () => (await queued('doc')).sort()).toEqual([...created].sort());

      // an unrelated edit announces nothing more
      await changeAndRecord('doc', alice, (doc) => textOf(doc).insert(0, 'Z'));
      expect(await queued('doc')).toHaveLength(4);

      // Bob: accepts i1 (mark removed, text kept), rejects i2 (text deleted), accepts d1 (text deleted), rejects d2 (mark removed)
      await changeAndRecord('doc', bob, (doc) => {
        const text = textOf(doc);
        const at = (part: string) => plain(text).indexOf(part);
        text.format(at('kept'), 'kept'.length, { insertion: null });
        text.delete(at('gone'), 'gone'.length);
        text.delete(at('struck'), 'struck'.length);
        text.format(at('saved'), 'saved'.length, { deletion: null });
      });
      await expect.poll(async () => (await queued('doc')).slice(4).sort()).toEqual(
        [
          'accept insertion i1 "kept" by user-2 (author user-1)',
          'reject insertion i2 "gone" by user-2 (author user-1)',
          'accept deletion d1 "struck" by user-2 (author user-1)',
          'reject deletion d2 "saved" by user-2 (author user-1)',
        ].sort(),
      );
      expect(plain(textOf(await svc.services.content.read(svc.app.id, 'doc')))).toBe('ZA kept B saved');

      // once decided, never again
      await changeAndRecord('doc', bob, (doc) => textOf(doc).insert(0, 'Y'));
      expect(await queued('doc')).toHaveLength(8);
    });
  });
}
