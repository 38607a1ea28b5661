import * as Y from 'yjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases.js';
import { DEFAULT_USER, eventually } from '../support/integrator.js';
import { startService, type TestService } from '../support/service.js';
import { appendParagraph, collaborationUrl, connectEditor, plainText, rawCollaborationClient, refusedUpgrade, startPeer, type Editor } from './support.js';

const FAST_CONTENT = { coalesceMs: 300, coalesceMaxMs: 3000, pollMs: 50, compactAfter: 500, permissionRecheckMs: 60_000 };

for (const database of testDatabases()) {
  describe(`collaboration endpoint [${database.name}]`, () => {
    let svc: TestService;
    const editors: Editor[] = [];
    beforeEach(async () => {
      svc = await startService(database, { integrator: true, content: FAST_CONTENT });
      svc.integrator.addUser({ id: 'user-2', name: 'Second User', token: 'token-2' });
    });
    afterEach(async () => {
      for (const editor of editors.splice(0)) await editor.close();
      await svc.close();
    });
    const open = async (fileId: string, token?: string) => {
      const editor = await connectEditor(svc, fileId, token ? { token } : {});
      editors.push(editor);
      return editor;
    };
    const createFile = async (fileId: string, type = 'document') => {
      const created = await svc.call('POST', '/sdk/v2/api/files', { body: { type, fileId } });
      expect(created.status).toBe(200);
    };

    it('two editors see each other at once; the backend reads the merged content; one FileContent event per burst', async () => {
      await createFile('doc-1');
      const first = await open('doc-1');
      const second = await open('doc-1', 'token-2');
      expect(first.readOnly).toBe(false);

      const contentEvents = () => svc.integrator.events.filter((event) => event.eventClass === 'FileContent');
      appendParagraph(first.doc, 'Hello from one');
      await eventually(() => second.doc.getXmlFragment('default').length === 1, 'second editor sees the first edit');
      await first.saved();
      await eventually(() => contentEvents().length === 1, 'FileContent event of the first edit');
      expect(contentEvents()[0]!.body).toMatchObject({ kind: 'fileContent', action: 'update', fileId: 'doc-1', userId: DEFAULT_USER.id, fileContent: { version: 1 } });
      expect(contentEvents()[0]!.credentialType).toBe('3');

      // a burst of keystrokes from the second editor: one event, not one per keystroke
      const paragraph = second.doc.getXmlFragment('default').get(0) as Y.XmlElement;
      const text = paragraph.get(0) as Y.XmlText;
      for (const char of ' and two') text.insert(text.length, char);
      await second.saved();
      await eventually(() => first.doc.getXmlFragment('default').toString().includes('and two'), 'first editor sees the burst');
      expect(await plainText(svc, 'doc-1')).toBe('Hello from one and two');
      await eventually(() => contentEvents().length === 2, 'FileContent event of the burst');
      await new Promise((resolve) => setTimeout(resolve, 3 * FAST_CONTENT.coalesceMs));
      expect(contentEvents()).toHaveLength(2);
      expect(contentEvents()[1]!.body).toMatchObject({ userId: 'user-2', fileContent: { version: 2 } });

      const history = await svc.call('GET', '/sdk/v2/collab-files/doc-1/doc-sidebar-info');
      expect(history.body.data.histories.map((entry: { userId: string }) => entry.userId)).toEqual(['user-2', DEFAULT_USER.id]);
      expect(history.body.data.users).toEqual({ 'user-2': 'Second User', [DEFAULT_USER.id]: DEFAULT_USER.name });
    });

    it('announces collaborators entering and leaving', async () => {
      await createFile('doc-c');
      const editor = await open('doc-c');
      await eventually(() => svc.integrator.events.some((event) => event.eventClass === 'Collaborator'), 'enter event');
      const enter = svc.integrator.events.find((event) => event.eventClass === 'Collaborator')!;
      expect(enter.body).toMatchObject({ kind: 'collaborator', action: 'enter', fileId: 'doc-c', userId: DEFAULT_USER.id });
      const clientId = (enter.body.collaboratorChanged as { clientId: string }).clientId;
      expect(typeof clientId).toBe('string');
      expect(typeof enter.body.timestamp).toBe('number');
      await editors.splice(0)[0]!.close();
      void editor;
      await eventually(() => svc.integrator.events.some((event) => event.eventClass === 'Collaborator' && event.body.action === 'leave'), 'leave event');
      const leave = svc.integrator.events.find((event) => event.body.action === 'leave')!;
      expect(leave.body).toMatchObject({ kind: 'collaborator', fileId: 'doc-c', collaboratorChanged: { clientId } });
    });

    it('gives a read-only session to a reader and refuses one who may not read', async () => {
      await createFile('doc-r');
      svc.integrator.addUser({ id: 'user-3', name: 'Outsider', token: 'token-3' });
      svc.integrator.addFile({
        id: 'doc-r',
        type: 'document',
        grants: { [DEFAULT_USER.id]: { readable: true, editable: true }, 'user-2': { readable: true, editable: false, commentable: false }, 'user-3': { readable: false } },
      });

      const writer = await open('doc-r');
      appendParagraph(writer.doc, 'written');
      await writer.saved();
      const reader = await open('doc-r', 'token-2');
      expect(reader.readOnly).toBe(true);
      expect(reader.doc.getXmlFragment('default').length).toBe(1);
      appendParagraph(reader.doc, 'sneaky');
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(writer.doc.getXmlFragment('default').length).toBe(1);
      expect(await plainText(svc, 'doc-r')).toBe('written');

      const refused = await refusedUpgrade(await collaborationUrl(svc, 'doc-r', 'token-3'));
      expect(refused.status).toBe(403);
      const unsigned = await refusedUpgrade(await collaborationUrl(svc, 'doc-r', 'user-token', 'not-a-jwt'));
      expect(unsigned.status).toBe(401);
      expect(unsigned.body.status).toBe(30002);
      const plainHttp = await svc.call('GET', '/sdk/v2/collab-files/doc-r/collaboration');
      expect(plainHttp.status).toBe(426);
      expect(plainHttp.body.status).toBe(42600);
      const missing = await refusedUpgrade(await collaborationUrl(svc, 'no-such-file'));
      expect(missing.status).toBe(404);
    });

    it('lets a user who may comment but not edit suggest, and refuses anything more from them whole', async () => {
      await createFile('doc-s');
      svc.integrator.addFile({ id: 'doc-s', type: 'document', grants: { [DEFAULT_USER.id]: { readable: true, editable: true }, 'user-2': { readable: true, editable: false, commentable: true } } });
      const writer = await open('doc-s');
      appendParagraph(writer.doc, 'Hello world');
      await writer.saved();
      const commenter = await open('doc-s', 'token-2');
      expect(commenter.readOnly).toBe(false);
      const textOf = (doc: Y.Doc) => (doc.getXmlFragment('default').get(0) as Y.XmlElement).get(0) as Y.XmlText;
      const by = (author: string) => ({ id: `s-${author}`, author, authorName: author, date: '2026-11-27T12:00:00.000Z' });

      // a suggested insertion of their own goes through, live and stored
      textOf(commenter.doc).insert(6, 'big ', { insertion: by('user-2') });
      await commenter.saved();
      await eventually(() => textOf(writer.doc).toString().includes('big '), 'the writer sees the suggestion');
      expect(await plainText(svc, 'doc-s')).toBe('Hello big world');

      // a direct edit is refused whole: the connection closes, nothing is stored or sent on
      textOf(commenter.doc).insert(0, 'X');
      await eventually(() => commenter.closes.includes(4400), 'the commenter is closed with 4400');
      await commenter.close();
      expect(await plainText(svc, 'doc-s')).toBe('Hello big world');
      expect(textOf(writer.doc).toString()).not.toContain('X');

      // so is a suggestion made in someone else's name
      const again = await open('doc-s', 'token-2');
      textOf(again.doc).insert(0, 'Y', { insertion: by(DEFAULT_USER.id) });
      await eventually(() => again.closes.includes(4400), 'a suggestion in another name is refused');
      expect(await plainText(svc, 'doc-s')).toBe('Hello big world');
    });

    it('gives a table base a presence-only session that hears of every table change', async () => {
      svc.integrator.addFile({ id: 'tbl', type: 'table', grants: {} });
      await createFile('tbl', 'table');
      const editor = await open('tbl');
      // the base's data lives in the table API: the session never takes content
      expect(editor.readOnly).toBe(true);
      const notices: Record<string, unknown>[] = [];
      editor.provider.on('stateless', ({ payload }: { payload: string }) => notices.push(JSON.parse(payload) as Record<string, unknown>));
      const api = '/sdk/v2/api/table-api/openapi/v1';
      const table = await svc.call('POST', `${api}/tables`, { body: { baseGuid: 'tbl', name: 'Tasks', withoutInitRows: true, cols: [{ name: 'Title', type: 'SingleLineText' }] } });
      const tableGuid = table.body.data.guid as string;
      const rows = await svc.call('POST', `${api}/tables/${tableGuid}/rows`, { body: { rows: [{ Title: 'a' }, { Title: 'b' }] } });
      const rowGuids = rows.body.data.rows.map((row: { guid: string }) => row.guid);
      await svc.call('PATCH', `${api}/tables/${tableGuid}/rows/${rowGuids[0]}`, { body: { valueMap: { Title: 'c' } } });
      await svc.call('POST', `${api}/tables/${tableGuid}/columns`, { body: { name: 'Due', type: 'Date', viewGuid: table.body.data.defaultViewGuid } });
      await svc.call('DELETE', `${api}/tables/${tableGuid}/rows/${rowGuids[1]}`);
      const refused = await svc.call('PATCH', `${api}/tables/${tableGuid}/rows/${rowGuids[0]}`, { body: { valueMap: { Title: 5 } } });
      expect(refused.status).toBe(400);
      await eventually(() => notices.length >= 5, 'five table notices');
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(notices).toEqual([
        { type: 'svc:table', tableGuid, subject: 'table', action: 'create' },
        { type: 'svc:table', tableGuid, subject: 'rows', action: 'create', rowGuids },
        { type: 'svc:table', tableGuid, subject: 'rows', action: 'update', rowGuids: [rowGuids[0]] },
        { type: 'svc:table', tableGuid, subject: 'columns', action: 'create' },
        { type: 'svc:table', tableGuid, subject: 'rows', action: 'delete', rowGuids: [rowGuids[1]] },
      ]);
    });

    it('checks permissions of open sessions again: edit taken away, then read', async () => {
      await svc.close();
      svc = await startService(database, { integrator: true, content: { ...FAST_CONTENT, permissionRecheckMs: 200 } });
      await createFile('doc-g');
      svc.integrator.addFile({ id: 'doc-g', type: 'document', grants: { [DEFAULT_USER.id]: { readable: true, editable: true } } });
      const editor = await open('doc-g');
      expect(editor.readOnly).toBe(false);
      appendParagraph(editor.doc, 'while allowed');
      await editor.saved();

      svc.integrator.grant('doc-g', DEFAULT_USER.id, { readable: true, editable: false, commentable: false });
      svc.services.access.forget();
      await new Promise((resolve) => setTimeout(resolve, 800));
      appendParagraph(editor.doc, 'after edit was revoked');
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await plainText(svc, 'doc-g')).toBe('while allowed');

      svc.integrator.grant('doc-g', DEFAULT_USER.id, { readable: false });
      svc.services.access.forget();
      await eventually(() => editor.closes[0] === 4403, 'session closed with 4403');
    });

    it('rejects a malformed update without touching the stored document', async () => {
      await createFile('doc-m');
      const editor = await open('doc-m');
      appendParagraph(editor.doc, 'intact');
      await editor.saved();

      const client = await rawCollaborationClient(svc, 'doc-m');
      // a sync "update" message whose payload is garbage
      client.send([0, 2, 6, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]);
      expect(await client.closed).toBe(4400);

      expect(await plainText(svc, 'doc-m')).toBe('intact');
      appendParagraph(editor.doc, 'still editing');
      await editor.saved();
      expect(await plainText(svc, 'doc-m')).toBe('intact\nstill editing');
    });

    it('ends the sessions of a file deleted while open', async () => {
      await createFile('doc-d');
      const editor = await open('doc-d');
      expect((await svc.call('DELETE', '/sdk/v2/api/files/doc-d')).body.data).toEqual({ deleted: true });
      appendParagraph(editor.doc, 'too late');
      await eventually(() => editor.closes[0] === 4404, 'session closed with 4404');
      expect((await svc.call('GET', '/sdk/v2/collab-files/doc-d/plain-text')).status).toBe(404);
    });

    it('merges offline edits when an editor reconnects', async () => {
      await createFile('doc-o');
      const first = await open('doc-o');
      appendParagraph(first.doc, 'base');
      await first.saved();
      const offlineDoc = new Y.Doc();
      Y.applyUpdate(offlineDoc, Y.encodeStateAsUpdate(first.doc));
      appendParagraph(offlineDoc, 'written offline');
      appendParagraph(first.doc, 'written online');
      await first.saved();

      const back = await connectEditor(svc, 'doc-o', { doc: offlineDoc });
      editors.push(back);
      await back.saved();
      const text = await plainText(svc, 'doc-o');
      expect(text.split('\n').sort()).toEqual(['base', 'written offline', 'written online']);
      await eventually(() => first.doc.getXmlFragment('default').length === 3, 'online editor receives the offline edits');
    });

    it('records changes that a stopped process stored but never recorded', async () => {
      await createFile('doc-lost');
      const update = (() => {
        const doc = new Y.Doc();
        appendParagraph(doc, 'stored, then the process died');
        return Y.encodeStateAsUpdate(doc);
      })();
      // what a process that stops abruptly leaves behind: an acknowledged update, no history entry, no event
      await svc.services.content.initialize(svc.services.storage.db, svc.app.id, 'doc-lost', 'document');
      await svc.services.content.store.append(svc.app.id, 'doc-lost', update, 'user-2');
      await svc.services.storage.db.updateTable('content_updates').set({ created_at: Date.now() - 60_000 }).where('file_id', '=', 'doc-lost').execute();

      const peer = await startPeer(svc);
      try {
        expect(await plainText(svc, 'doc-lost', peer.url)).toBe('stored, then the process died');
        await eventually(() => svc.integrator.events.some((event) => event.eventClass === 'FileContent' && event.body.fileId === 'doc-lost'), 'recovered FileContent event');
        const event = svc.integrator.events.find((candidate) => candidate.eventClass === 'FileContent' && candidate.body.fileId === 'doc-lost')!;
        expect(event.body).toMatchObject({ userId: 'user-2', fileContent: { version: 1 } });
      } finally {
        await peer.close();
      }
    });

    it('loses nothing acknowledged: a second process on the same database sees and shares every update', async () => {
      await createFile('doc-p');
      const first = await open('doc-p');
      for (let i = 0; i < 20; i++) appendParagraph(first.doc, `line ${i}`);
      await first.saved();

      // a second process starts on the same database: it only has what was stored
      const peer = await startPeer(svc);
      try {
        expect((await plainText(svc, 'doc-p', peer.url)).split('\n')).toHaveLength(20);
        const other = await connectEditor(peer, 'doc-p');
        editors.push(other);
        appendParagraph(other.doc, 'from the peer');
        await other.saved();
        appendParagraph(first.doc, 'from the first');
        await first.saved();
        // each process's editors see the other's edits (open documents catch up with the shared log)
        await eventually(() => first.doc.getXmlFragment('default').length === 22, 'first process editor sees the peer');
        await eventually(() => other.doc.getXmlFragment('default').length === 22, 'peer editor sees the first');
        expect(await plainText(svc, 'doc-p')).toContain('from the peer');
        expect(await plainText(svc, 'doc-p', peer.url)).toContain('from the first');
        await other.close();
        await first.close();
        editors.splice(0);
      } finally {
        await peer.close();
      }
      // after both unloaded (and compacted), a fresh process still has all 22 lines
      const third = await startPeer(svc);
      try {
        expect((await plainText(svc, 'doc-p', third.url)).split('\n')).toHaveLength(22);
      } finally {
        await third.close();
      }
    });
  });
}
