import * as Y from 'yjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ContentActor } from '../../src/domain/content/collaboration-context.js';
import { HistoryType, type RecordContext } from '../../src/domain/content/content-service.js';
import { newTextBox, richTextOf, sheetsOf, slidesOf, type Cell } from '../../src/model/content.js';
import { parseFragment, toYNodes, type ProseMirrorNode } from '../../src/model/rich-text/schema.js';
import { testDatabases } from '../support/databases.js';
import { DEFAULT_USER, eventually } from '../support/integrator.js';
import { queuedPayloads } from '../support/outbox.js';
import { startService, type TestService } from '../support/service.js';
import { connectEditor, startPeer, type Editor } from '../content/support.js';
import { createFile as createTestFile, data, FAST_CONTENT, talk } from './support.js';
import { sheetModels } from '../../src/model/sheets/sheet-model.js';

const writer: ContentActor = { userId: DEFAULT_USER.id, name: DEFAULT_USER.name, token: DEFAULT_USER.token };

const text = (value: string): ProseMirrorNode => ({ type: 'text', text: value });
const paragraph = (...content: ProseMirrorNode[]): ProseMirrorNode => ({ type: 'paragraph', content });
const mention = (id: string, label: string, guid?: string): ProseMirrorNode => ({ type: 'mention', attrs: { id, label, ...(guid ? { guid } : {}) } });

/** A mention node as an editor (y-prosemirror) writes it. */
function mentionElement(id: string, label: string, guid: string): Y.XmlElement {
  const element = new Y.XmlElement('mention');
  element.setAttribute('id', id);
  element.setAttribute('label', label);
  element.setAttribute('guid', guid);
  return element;
}

for (const database of testDatabases()) {
  describe(`mentions in the document body [${database.name}]`, () => {
    let svc: TestService;
    const editors: Editor[] = [];
    beforeEach(async () => {
      svc = await startService(database, { integrator: true, content: FAST_CONTENT });
    });
    afterEach(async () => {
      for (const editor of editors.splice(0)) await editor.close();
      await svc.close();
    });

    const createFile = (fileId: string, type: string) => createTestFile(svc, fileId, type);
    /** Changes the content and records the burst at once (as the coalescing timer would). */
    const changeAndRecord = async (fileId: string, mutate: (doc: Y.Doc) => void, actor: ContentActor = writer) => {
      await svc.services.content.change(svc.app.id, fileId, actor, mutate);
      const recorded = await svc.services.content.flush(svc.app.id, fileId);
      expect(recorded).toBeDefined();
      return recorded!;
    };
    const appendRichText = (fileId: string, nodes: ProseMirrorNode[], actor?: ContentActor) =>
      changeAndRecord(
        fileId,
        (doc) => {
          const root = richTextOf(doc);
          root.insert(root.length, toYNodes(parseFragment(nodes)));
        },
        actor,
      );
    /** MentionAt events of a file as committed to the outbox, in order. */
    const queued = async (fileId: string) =>
      (await queuedPayloads<{ mentionAt: { atGuid: string; userIds: string[]; content: string } }>(svc, fileId, 'MentionAt')).map((payload) => payload.mentionAt);
    const versionOf = async (fileId: string) =>
      (await svc.services.storage.db.selectFrom('files').select('version').where('app_id', '=', svc.app.id).where('file_id', '=', fileId).executeTakeFirstOrThrow()).version;
    const received = (fileId: string) => svc.integrator.events.filter((event) => event.eventClass === 'MentionAt' && event.body.fileId === fileId);
    const receivedMentions = async (fileId: string, count: number) => {
      await eventually(() => received(fileId).length >= count, `${count} MentionAt events of ${fileId}`);
      return received(fileId).map((event) => event.body.mentionAt);
    };

    it('announces each new mention once, to the integrator, with the text of its paragraph', async () => {
      await createFile('doc', 'document');
      const { version } = await appendRichText('doc', [
        paragraph(text('Intro without mentions')),
        paragraph(text('Ask '), mention('user-2', 'Second User', 'at-1'), text(' and '), mention('user-3', 'Cy', 'at-2'), text(' about it.')),
      ]);
      expect(version).toBe(1);
      await eventually(() => received('doc').length === 2, 'two MentionAt events');
      const [first, second] = received('doc');
      expect(first).toMatchObject({ eventClass: 'MentionAt', credentialType: '0', token: DEFAULT_USER.token });
      expect(first?.claims).toMatchObject({ fileId: 'doc', userId: DEFAULT_USER.id });
      expect(first?.body).toEqual({
        fileId: 'doc',
        userId: DEFAULT_USER.id,
        kind: 'mention_at',
        type: 'mention_at',
        action: 'create',
        mentionAt: { atGuid: 'at-1', userIds: ['user-2'], content: 'Ask @Second User and @Cy about it.' },
      });
      expect(second).toMatchObject({ eventClass: 'MentionAt', credentialType: '0', token: DEFAULT_USER.token });
      expect(second?.body).toEqual({
        fileId: 'doc',
        userId: DEFAULT_USER.id,
        kind: 'mention_at',
        type: 'mention_at',
        action: 'create',
        mentionAt: { atGuid: 'at-2', userIds: ['user-3'], content: 'Ask @Second User and @Cy about it.' },
      });
      // committed with the version's FileContent event, after it
      const classes = await svc.services.storage.db.selectFrom('event_outbox').select('event_class').where('file_id', '=', 'doc').orderBy('seq').execute();
      expect(classes.map((row) => row.event_class)).toEqual(['FileContent', 'MentionAt', 'MentionAt']);
    });

    it('never announces a mention again: not on later edits, not after removing and re-adding it; a new guid of the same user is new', async () => {
      await createFile('doc', 'documentPro');
      await appendRichText('doc', [
        { type: 'bookmark', attrs: { name: 'greeting' }, content: [paragraph(text('Dear '), mention('user-2', 'Second User', 'at-1'), text(','))] },
      ]);
      expect(await queued('doc')).toEqual([{ atGuid: 'at-1', userIds: ['user-2'], content: 'Dear @Second User,' }]);
      const holder = (doc: Y.Doc) => (richTextOf(doc).get(0) as Y.XmlElement).get(0) as Y.XmlElement;

      // the text around the mention changes
      await changeAndRecord('doc', (doc) => (holder(doc).get(0) as Y.XmlText).insert(0, 'My '));
      // another paragraph is written
      await appendRichText('doc', [paragraph(text('More text'))]);
      expect(await queued('doc')).toHaveLength(1);

      // removed, recorded without it, then added back with the same guid
      await changeAndRecord('doc', (doc) => holder(doc).delete(1, 1));
      await changeAndRecord('doc', (doc) => holder(doc).insert(1, [mentionElement('user-2', 'Second User', 'at-1')]));
      expect(await queued('doc')).toHaveLength(1);

      // a new mention of the same user: announced
      const { version } = await appendRichText('doc', [paragraph(text('Again '), mention('user-2', 'Second User', 'at-3'))]);
      expect(version).toBe(6);
      expect(await queued('doc')).toEqual([
        { atGuid: 'at-1', userIds: ['user-2'], content: 'Dear @Second User,' },
        { atGuid: 'at-3', userIds: ['user-2'], content: 'Again @Second User' },
      ]);
      expect(await receivedMentions('doc', 2)).toEqual(await queued('doc'));
      const rows = await svc.services.storage.db.selectFrom('mention_notices').select(['place', 'user_id']).where('file_id', '=', 'doc').orderBy('place').execute();
      expect(rows).toEqual([
        { place: 'body:at-1', user_id: 'user-2' },
        { place: 'body:at-3', user_id: 'user-2' },
      ]);
    });

    it('a mention without a guid announces its user once per file', async () => {
      await createFile('doc', 'document');
      const system: ContentActor = { userId: 'user-9' };
      await appendRichText('doc', [paragraph(text('Hello '), mention('user-4', 'Dee')), paragraph(mention('user-4', 'Dee'), text(' again'))], system);
      await appendRichText('doc', [paragraph(text('Still '), mention('user-4', 'Dee'))]);
      // the same user with a guid is another place; another user without a guid is another user
      await appendRichText('doc', [paragraph(mention('user-4', 'Dee', 'at-4'), text(' and '), mention('user-5', 'Eve'))]);
      expect(await queued('doc')).toEqual([
        { atGuid: '', userIds: ['user-4'], content: 'Hello @Dee' },
        { atGuid: 'at-4', userIds: ['user-4'], content: '@Dee and @Eve' },
        { atGuid: '', userIds: ['user-5'], content: '@Dee and @Eve' },
      ]);
      await eventually(() => received('doc').length === 3, 'three MentionAt events');
      // attributed to the burst's last editor; without a token it is sent as a system call
      expect(received('doc')[0]).toMatchObject({ eventClass: 'MentionAt', credentialType: '3', token: undefined, body: { userId: 'user-9' } });
      expect(received('doc')[1]).toMatchObject({ credentialType: '0', token: DEFAULT_USER.token, body: { userId: DEFAULT_USER.id } });
    });

    it('announces mentions in presentation text boxes, slide by slide', async () => {
      await createFile('deck', 'presentation');
      await changeAndRecord('deck', (doc) => {
        const slides = slidesOf(doc);
        const title = newTextBox({ x: 10, y: 10, width: 600, height: 80 });
        (slides.get(0).get('boxes') as Y.Array<Y.Map<unknown>>).push([title]);
        (title.get('content') as Y.XmlFragment).insert(0, toYNodes([paragraph(text('Owner: '), mention('user-2', 'Second User', 'at-s1'))]));
        const second = new Y.Map<unknown>();
        second.set('id', 'slide-2');
        const boxes = new Y.Array<Y.Map<unknown>>();
        second.set('boxes', boxes);
        slides.push([second]);
        const closing = newTextBox({ x: 0, y: 0, width: 100, height: 100 });
        boxes.push([closing]);
        (closing.get('content') as Y.XmlFragment).insert(0, toYNodes([paragraph(text('Thanks '), mention('user-3', 'Cy', 'at-s2'))]));
      });
      expect(await receivedMentions('deck', 2)).toEqual([
        { atGuid: 'at-s1', userIds: ['user-2'], content: 'Owner: @Second User' },
        { atGuid: 'at-s2', userIds: ['user-3'], content: 'Thanks @Cy' },
      ]);
      // moving on in the deck announces nothing again
      await changeAndRecord('deck', (doc) => slidesOf(doc).delete(0, 1));
      expect(await queued('deck')).toHaveLength(2);
    });

    it('announces a mention typed by an editor over the collaboration endpoint, once', async () => {
      await createFile('live', 'document');
      const editor = await connectEditor(svc, 'live');
      editors.push(editor);
      const paragraphNode = new Y.XmlElement('paragraph');
      editor.doc.transact(() => {
        paragraphNode.insert(0, [new Y.XmlText('Hi '), mentionElement('user-2', 'Second User', 'at-live'), new Y.XmlText('!')]);
        editor.doc.getXmlFragment('default').insert(0, [paragraphNode]);
      });
      await editor.saved();
      const [event] = await (async () => {
        await eventually(() => received('live').length === 1, 'the MentionAt event of the editor');
        return received('live');
      })();
      expect(event).toMatchObject({ eventClass: 'MentionAt', credentialType: '0', token: DEFAULT_USER.token });
      expect(event?.body).toEqual({
        fileId: 'live',
        userId: DEFAULT_USER.id,
        kind: 'mention_at',
        type: 'mention_at',
        action: 'create',
        mentionAt: { atGuid: 'at-live', userIds: ['user-2'], content: 'Hi @Second User!' },
      });

      // the editor keeps typing: a new version, no new announcement
      (paragraphNode.get(2) as Y.XmlText).insert(1, ' See you');
      await editor.saved();
      await eventually(
        () => svc.integrator.events.some((candidate) => candidate.eventClass === 'FileContent' && candidate.body.fileId === 'live' && (candidate.body.fileContent as { version: number }).version === 2),
        'FileContent of the second burst',
      );
      expect(await queued('live')).toHaveLength(1);
    });

    it('reads date mentions written in the body: each new guid once, as a date mention of the file with its event', async () => {
      await createFile('dated', 'document');
      const date = (value: string, guid: string): ProseMirrorNode => ({ type: 'dateMention', attrs: { date: value, guid } });
      await appendRichText('dated', [
        paragraph(text('Ship it on '), date('2026-12-01', 'pos-1'), text(' latest')),
        paragraph(text('Not a day: '), date('2026-02-30', 'pos-bad'), text(', no guid: '), { type: 'dateMention', attrs: { date: '2026-12-02' } }),
      ]);
      const listed = async () => data(await talk(svc, 'GET', 'dated', 'date-mentions')) as Array<Record<string, unknown>>;
      expect(await listed()).toEqual([
        expect.objectContaining({ positionId: 'pos-1', remindAt: Date.parse('2026-12-01T00:00:00Z'), content: 'Ship it on 2026-12-01 latest', remindUserIds: [], authorId: DEFAULT_USER.id }),
      ]);
      await eventually(() => svc.integrator.events.some((event) => event.eventClass === 'DateMention' && event.body.fileId === 'dated'), 'the DateMention event');
      const event = svc.integrator.events.find((candidate) => candidate.eventClass === 'DateMention')!;
      expect(event.body).toMatchObject({ action: 'create', createData: { positionId: 'pos-1', remindAt: Date.parse('2026-12-01T00:00:00Z'), fileId: 'dated' } });

      // recording again reads nothing new; the editor declaring the same positionId updates it instead of adding one
      await appendRichText('dated', [paragraph(text('more text'))]);
      const declared = data(await talk(svc, 'POST', 'dated', 'date-mentions', { body: { content: 'Ship date', remindAt: '2026-12-01T09:00:00Z', remindUserIds: [], positionId: 'pos-1' } }));
      expect(await listed()).toEqual([expect.objectContaining({ id: declared.id, positionId: 'pos-1', content: 'Ship date', remindAtIso: '2026-12-01T09:00:00.000Z' })]);
      // one removed through the API stays removed although its node is still in the body
      await talk(svc, 'DELETE', 'dated', `date-mentions/${declared.id}`);
      await appendRichText('dated', [paragraph(text('and more'))]);
      expect(await listed()).toEqual([]);
    });

    it('sends no MentionAt for a spreadsheet, and its record hooks are not even called', async () => {
      const called: string[] = [];
      svc.services.content.addRecordHook({
        name: 'spy',
        kinds: ['document', 'documentPro', 'presentation'],
        onRecord: async (context: RecordContext) => {
          called.push(`${context.kind} v${context.version}`);
          return [];
        },
      });
      await createFile('sheet', 'spreadsheet');
      await changeAndRecord('sheet', (doc) => sheetModels(doc)[0]!.setCell(0, 0, { v: '@user-2' }));
      await createFile('doc', 'document');
      await appendRichText('doc', [paragraph(text('Text'))]);
      expect(called).toEqual(['document v1']);
      const classes = await svc.services.storage.db.selectFrom('event_outbox').select('event_class').where('file_id', '=', 'sheet').execute();
      expect(classes.map((row) => row.event_class)).toEqual(['FileContent']);
    });

    it('a record hook that fails rolls the whole record back', async () => {
      svc.services.content.addRecordHook({
        name: 'failing',
        kinds: ['document'],
        onRecord: async () => {
          throw new Error('hook failed');
        },
      });
      await createFile('doc', 'document');
      await svc.services.content.change(svc.app.id, 'doc', writer, (doc) => richTextOf(doc).insert(0, toYNodes(parseFragment([paragraph(mention('user-2', 'Second User', 'at-x'))]))));
      await expect(svc.services.content.record(svc.app.id, 'doc', HistoryType.edit, writer, [writer.userId], true)).rejects.toThrow('hook failed');
      const events = await svc.services.storage.db.selectFrom('event_outbox').select('event_class').where('file_id', '=', 'doc').execute();
      expect(events).toEqual([]);
      expect(await svc.services.storage.db.selectFrom('mention_notices').selectAll().execute()).toEqual([]);
      expect(await versionOf('doc')).toBe(0);
    });

    it('two service processes recording the same file announce each mention once', async () => {
      const peer = await startPeer(svc);
      try {
        for (let round = 0; round < 4; round++) {
          const fileId = `race-${round}`;
          await createFile(fileId, 'document');
          await svc.services.content.change(svc.app.id, fileId, writer, (doc) =>
            richTextOf(doc).insert(0, toYNodes(parseFragment([paragraph(mention('user-2', 'Second User', `at-${round}`), text(' and '), mention('user-3', 'Cy'))]))),
          );
          const peerRecord = () => peer.services.content.record(svc.app.id, fileId, HistoryType.edit, writer, [writer.userId], true);
          // SQLite serialises writers and two in-process connections cannot overlap a write transaction
          // (the waiting one blocks the thread): there the records take turns; PostgreSQL runs them at once.
          if (database.name === 'postgres') await Promise.all([svc.services.content.flush(svc.app.id, fileId), peerRecord()]);
          else await svc.services.content.flush(svc.app.id, fileId).then(peerRecord);
          expect(await queued(fileId)).toEqual([
            { atGuid: `at-${round}`, userIds: ['user-2'], content: '@Second User and @Cy' },
            { atGuid: '', userIds: ['user-3'], content: '@Second User and @Cy' },
          ]);
          // the second record finds the updates recorded already: one version, not two (each edit recorded once)
          expect(await versionOf(fileId)).toBe(1);
        }
      } finally {
        await peer.close();
      }
    });
  });
}
