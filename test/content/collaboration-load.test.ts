import { IncomingMessage, MessageType } from '@hocuspocus/server';
import * as Y from 'yjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyStored } from '../../src/storage/content-store.js';
import { testDatabases } from '../support/databases.js';
import { DEFAULT_USER, eventually } from '../support/integrator.js';
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

/** Whether a message the server sent is a sync "update" (a broadcast change, not a sync answer or an acknowledgement). */
function isBroadcastUpdate(message: Uint8Array): boolean {
  const incoming = new IncomingMessage(message);
  incoming.readVarString();
  return incoming.readVarUint() === MessageType.Sync && incoming.readVarUint() === 2;
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

    it('50 editors converge after bursts sent to them coalesced, and a read-only editor still cannot write', async () => {
      await createFile('doc-fanout');
      svc.integrator.addUser({ id: 'reader', name: 'Reader', token: 'reader-token' });
      svc.integrator.addUser({ id: 'writer-2', name: 'Second writer', token: 'writer-2-token' });
      const editable = { readable: true, editable: true };
      svc.integrator.addFile({ id: 'doc-fanout', type: 'document', grants: { [DEFAULT_USER.id]: editable, 'writer-2': editable, reader: { readable: true, editable: false, commentable: false } } });
      // two users: one user may hold 50 sockets (SVC_COLLAB_SOCKETS_PER_USER), and the observer below is a 51st
      const writers = await Promise.all(Array.from({ length: 50 }, (_, i) => connectEditor(svc, 'doc-fanout', i % 2 === 0 ? {} : { token: 'writer-2-token' })));
      const reader = await connectEditor(svc, 'doc-fanout', { token: 'reader-token' });
      editors.push(...writers, reader);
      expect(reader.readOnly).toBe(true);
      const observer = await rawCollaborationClient(svc, 'doc-fanout');
      const seenBefore = observer.received.length;
      // the first writer's own changes, one undo step per transaction: undoing must still reach everyone
      const undo = new Y.UndoManager(writers[0]!.doc.getXmlFragment('default'), { captureTimeout: 0 });

      // each round: every writer sends 3 updates (3 transactions) and moves its cursor, all in one tick, as a
      // loaded server reads them: what it received in one round of input goes out as one merged frame
      const rounds = 4;
      const perWriter = 3;
      for (let round = 0; round < rounds; round++) {
        writers.forEach((writer, index) => {
          for (let i = 0; i < perWriter; i++) appendParagraph(writer.doc, `${index}-${round}-${i}`);
          writer.provider.setAwarenessField('cursor', { index, round });
        });
        if (round === 1) appendParagraph(reader.doc, 'not allowed');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await Promise.all(writers.map((writer) => writer.saved()));

      const sent = writers.length * rounds * perWriter;
      const written = (doc: Y.Doc) => paragraphs(doc).filter((text) => text !== 'not allowed').sort();
      await eventually(() => [...writers, reader].every((editor) => written(editor.doc).length === sent), 'every editor has every update', 20_000);
      const reference = written(writers[0]!.doc);
      const vector = Y.encodeStateVector(writers[0]!.doc);
      for (const writer of writers) {
        expect(written(writer.doc)).toEqual(reference);
        expect(paragraphs(writer.doc)).not.toContain('not allowed');
        expect(Y.encodeStateVector(writer.doc)).toEqual(vector);
      }
      expect(written(reader.doc)).toEqual(reference);
      expect(paragraphs(await stored('doc-fanout'))).toEqual(paragraphs(writers[0]!.doc));
      // awareness converges too: everyone sees every writer's last cursor
      const lastCursors = (editor: Editor) => [...editor.provider.awareness!.getStates().values()].filter((state) => (state.cursor as { round?: number } | undefined)?.round === rounds - 1).length;
      await eventually(() => [...writers, reader].every((editor) => lastCursors(editor) === writers.length), 'every cursor seen by everyone');

      // undoing the first writer's last round (3 updates) reaches every editor, coalesced as well
      for (let i = 0; i < perWriter; i++) undo.undo();
      const undone = (doc: Y.Doc) => written(doc).filter((text) => !text.startsWith(`0-${rounds - 1}-`));
      await eventually(() => writers.every((writer) => written(writer.doc).length === sent - perWriter), 'the undo reached every editor');
      for (const writer of writers) expect(written(writer.doc)).toEqual(undone(writers[1]!.doc));

      // one frame per update would be `sent` frames; each round of input went out as a handful
      const broadcastFrames = observer.received.slice(seenBefore).filter(isBroadcastUpdate).length;
      expect(broadcastFrames).toBeGreaterThan(0);
      expect(broadcastFrames).toBeLessThan(sent / 5);
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
