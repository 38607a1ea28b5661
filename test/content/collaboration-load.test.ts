import * as Y from 'yjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyStored } from '../../src/storage/content-store.js';
import { testDatabases } from '../support/databases.js';
import { eventually } from '../support/integrator.js';
import { startService, type TestService } from '../support/service.js';
import { appendParagraph, connectEditor, rawCollaborationClient, type Editor } from './support.js';

const FAST_CONTENT = { coalesceMs: 200, coalesceMaxMs: 2000, pollMs: 50, compactAfter: 40, permissionRecheckMs: 60_000 };

/** varUint of the Yjs/lib0 encoding */
function varUint(value: number): number[] {
  const bytes: number[] = [];
  while (value > 0x7f) {
    bytes.push((value & 0x7f) | 0x80);
    value = Math.floor(value / 128);
  }
  bytes.push(value);
  return bytes;
}

/** A Hocuspocus sync "update" message (Sync, update, varUint8Array) without the document name. */
function syncUpdate(update: Uint8Array): Buffer {
  return Buffer.concat([Buffer.from([0, 2, ...varUint(update.length)]), Buffer.from(update)]);
}

function paragraphs(doc: Y.Doc): string[] {
  return doc
    .getXmlFragment('default')
    .toArray()
    .map((node) => (node as Y.XmlElement).toArray().map((text) => (text as Y.XmlText).toString()).join(''));
}

for (const database of testDatabases()) {
  describe(`collaboration under load [${database.name}]`, () => {
    let svc: TestService;
    const editors: Editor[] = [];
    beforeEach(async () => {
      svc = await startService(database, { integrator: true, content: FAST_CONTENT });
    });
    afterEach(async () => {
      for (const editor of editors.splice(0)) await editor.close();
      await svc.close();
    });
    const createFile = async (fileId: string) => {
      expect((await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'document', fileId } })).status).toBe(200);
    };
    /** What a process that loads the file from storage now would see. */
    const stored = async (fileId: string) => {
      const content = await svc.services.content.store.load(svc.app.id, fileId);
      const doc = new Y.Doc();
      applyStored(doc, content!, null, () => undefined);
      return doc;
    };

    it('every acknowledged keystroke of fast concurrent typists reaches every editor and storage', async () => {
      await createFile('doc-load');
      const typists = await Promise.all(Array.from({ length: 4 }, () => connectEditor(svc, 'doc-load')));
      const watchers = await Promise.all(Array.from({ length: 30 }, () => connectEditor(svc, 'doc-load')));
      editors.push(...typists, ...watchers);
      appendParagraph(typists[0]!.doc, '');
      await typists[0]!.saved();
      await eventually(() => typists.every((typist) => typist.doc.getXmlFragment('default').length === 1), 'typists see the paragraph');

      // 4 typists × 150 keystrokes into one paragraph, as fast as the event loop lets them, while the
      // watchers keep adding paragraphs and moving their cursors (awareness)
      const keystrokes = 150;
      const typing = typists.map(async (typist, index) => {
        const text = (typist.doc.getXmlFragment('default').get(0) as Y.XmlElement).get(0) as Y.XmlText;
        for (let i = 0; i < keystrokes; i++) {
          text.insert(text.length, String.fromCharCode(97 + index));
          if (i % 10 === 0) await new Promise((resolve) => setImmediate(resolve));
        }
      });
      const watching = watchers.map(async (watcher, index) => {
        for (let round = 0; round < 3; round++) {
          appendParagraph(watcher.doc, `w${index}-${round}`);
          watcher.provider.setAwarenessField('cursor', { index, round });
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      });
      await Promise.all([...typing, ...watching]);
      await Promise.all(editors.map((editor) => editor.saved()));

      const expected = (doc: Y.Doc) => {
        const [typed, ...rest] = paragraphs(doc);
        return { counts: [...'abcd'].map((letter) => [...(typed ?? '')].filter((char) => char === letter).length), paragraphs: rest.length };
      };
      const complete = { counts: [keystrokes, keystrokes, keystrokes, keystrokes], paragraphs: watchers.length * 3 };
      await eventually(() => editors.every((editor) => JSON.stringify(expected(editor.doc)) === JSON.stringify(complete)), 'every editor has every keystroke', 20_000);
      const reference = Y.encodeStateVector(typists[0]!.doc);
      for (const editor of editors) expect(Y.encodeStateVector(editor.doc)).toEqual(reference);
      expect(expected(await stored('doc-load'))).toEqual(complete);
      expect(paragraphs(await stored('doc-load'))).toEqual(paragraphs(typists[0]!.doc));
    });

    it('stores every acknowledged update, also those that wait for a missing earlier one', async () => {
      await createFile('doc-gap');
      const author = new Y.Doc();
      const updates: Uint8Array[] = [];
      author.on('update', (update: Uint8Array) => updates.push(update));
      const root = author.getXmlFragment('default');
      appendParagraph(author, 'one');
      const text = (root.get(0) as Y.XmlElement).get(0) as Y.XmlText;
      text.insert(3, ' two');
      text.insert(7, ' three');
      expect(updates).toHaveLength(3);

      // the later updates arrive before the one they build on (a client resending after a reconnect, another
      // process's log): the server must keep all three, not only the ones that changed its document at once
      const client = await rawCollaborationClient(svc, 'doc-gap');
      for (const update of [updates[2]!, updates[1]!, updates[0]!]) client.send(syncUpdate(update));
      const watcher = await connectEditor(svc, 'doc-gap');
      editors.push(watcher);
      await eventually(() => paragraphs(watcher.doc).join() === 'one two three', 'the live document has every update');
      await eventually(async () => paragraphs(await stored('doc-gap')).join() === 'one two three', 'storage has every update', 3000);
    });

    it('stores an update that the database failed to take at first, and acknowledges it only then', async () => {
      await createFile('doc-retry');
      const editor = await connectEditor(svc, 'doc-retry');
      const watcher = await connectEditor(svc, 'doc-retry');
      editors.push(editor, watcher);
      const store = svc.services.content.store;
      const append = store.append.bind(store);
      let failures = 2;
      store.append = async (...args) => {
        if (failures > 0) {
          failures -= 1;
          throw new Error('database is locked');
        }
        return append(...args);
      };
      appendParagraph(editor.doc, 'kept');
      // the other editor sees it at once (the live document has it); the writer's acknowledgement waits for storage
      await eventually(() => paragraphs(watcher.doc).join() === 'kept', 'the other editor sees the update');
      await editor.saved();
      expect(failures).toBe(0);
      expect(paragraphs(await stored('doc-retry'))).toEqual(['kept']);
      expect(editor.closes).toEqual([]);
    });
  });
}
