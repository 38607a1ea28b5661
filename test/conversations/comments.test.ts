import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { newTextBox, richTextOf, sheetsOf, slidesOf } from '../../src/model/content.js';
import { parseFragment, toYNodes } from '../../src/model/rich-text/schema.js';
import { connectEditor } from '../content/support.js';
import { testDatabases } from '../support/databases.js';
import { DEFAULT_USER, eventually } from '../support/integrator.js';
import { startService, type TestService } from '../support/service.js';
import { createBase, createTable, insertRows } from '../tables/helpers.js';
import { addPeople, conversationEvents, createFile, data, eventName, expectFailure, FAST_CONTENT, SECOND_USER, talk, THIRD_USER, waitForEvents } from './support.js';

const author = { userId: DEFAULT_USER.id, name: DEFAULT_USER.name };
const mention = (id: string) => ({ type: 'mention', attrs: { id } });
const text = (value: string) => ({ type: 'text', text: value });

for (const database of testDatabases()) {
  describe(`comments [${database.name}]`, () => {
    let svc: TestService;
    beforeEach(async () => {
      svc = await startService(database, { integrator: true, content: FAST_CONTENT });
      addPeople(svc);
    });
    afterEach(async () => {
      await svc.close();
    });

    /** A document whose only paragraph reads "The quick brown fox": "brown fox" is positions 11-20. */
    const quickFox = async (fileId: string, type = 'document') => {
      await createFile(svc, fileId, type);
      await svc.services.content.change(svc.app.id, fileId, author, (doc) => {
        richTextOf(doc).insert(0, toYNodes(parseFragment([{ type: 'paragraph', content: [text('The quick brown fox')] }])));
      });
    };

    it('documents: a thread from create to close, with exactly the events of spec 6', async () => {
      await quickFox('doc-1');
      const created = data(
        await talk(svc, 'POST', 'doc-1', 'comments', { body: { selection: { from: 11, to: 20 }, content: [text('Can '), mention('user-2'), text(' check?')] } }),
      );
      expect(created).toMatchObject({ replyTo: null, userId: 'user-1', content: 'Can @Second User check?', userIds: ['user-2'] });
      expect(created.nodes[1]).toMatchObject({ type: 'mention', attrs: { id: 'user-2', label: 'Second User' } });

      const [comment, mentionAt] = await waitForEvents(svc, 'doc-1', 2);
      const object = { guid: created.guid, selectionGuid: created.selectionGuid, content: 'Can @Second User check?', userIds: ['user-2'] };
      expect(comment!.eventClass).toBe('Comment');
      expect(comment!.token).toBe(DEFAULT_USER.token);
      expect(comment!.credentialType).toBe('0');
      expect(comment!.body).toEqual({ fileId: 'doc-1', userId: 'user-1', kind: 'comment', type: 'comment', action: 'create', comment: object });
      expect(mentionAt!.eventClass).toBe('MentionAt');
      expect(mentionAt!.body).toEqual({ fileId: 'doc-1', userId: 'user-1', kind: 'mention_at', type: 'comment', action: 'create', comment: object });

      // the second user replies (documents: no replyTo in the event), mentioning the author and themselves twice
      const reply = data(
        await talk(svc, 'POST', 'doc-1', `comments/${created.guid}/replies`, {
          token: SECOND_USER.token,
          body: { content: [text('Done, '), mention('user-1'), text(' '), mention('user-2'), mention('user-2')] },
        }),
      );
      expect(reply).toMatchObject({ replyTo: created.guid, selectionGuid: created.selectionGuid, userId: 'user-2', userIds: ['user-1', 'user-2'] });
      const afterReply = await waitForEvents(svc, 'doc-1', 4);
      expect(afterReply[2]!.body).toEqual({
        fileId: 'doc-1',
        userId: 'user-2',
        kind: 'comment',
        type: 'comment',
        action: 'create',
        comment: { guid: reply.guid, selectionGuid: created.selectionGuid, content: 'Done, @Test User @Second User@Second User', userIds: ['user-1', 'user-2'] },
      });
      expect(afterReply[3]!.body.comment).toMatchObject({ userIds: ['user-1', 'user-2'] });
      expect(afterReply[2]!.token).toBe(SECOND_USER.token);

      // editing: the update carries every mention, MentionAt only the newly mentioned user
      const edited = data(
        await talk(svc, 'PATCH', 'doc-1', `comments/${created.guid}`, { body: { content: [text('Can '), mention('user-2'), text(' or '), mention('user-3'), text('?')] } }),
      );
      expect(edited.userIds).toEqual(['user-2', 'user-3']);
      const afterEdit = await waitForEvents(svc, 'doc-1', 6);
      expect(afterEdit[4]!.body).toMatchObject({ action: 'update', comment: { guid: created.guid, content: 'Can @Second User or @Third User?', userIds: ['user-2', 'user-3'] } });
      expect(afterEdit[5]!.body).toMatchObject({ kind: 'mention_at', type: 'comment', comment: { guid: created.guid, userIds: ['user-3'] } });

      // the same mentions again: an update, no MentionAt
      data(await talk(svc, 'PATCH', 'doc-1', `comments/${created.guid}`, { body: { content: [mention('user-3'), text(' and '), mention('user-2')] } }));
      // deleting the reply, closing the thread (closeComments names the live comments), reopening (no event)
      expect(data(await talk(svc, 'DELETE', 'doc-1', `comments/${reply.guid}`, { token: SECOND_USER.token }))).toEqual({ deleted: [reply.guid] });
      const closed = data(await talk(svc, 'POST', 'doc-1', `comment-threads/${created.selectionGuid}/close`));
      expect(closed).toMatchObject({ status: 'closed', closedBy: 'user-1' });
      expect(data(await talk(svc, 'POST', 'doc-1', `comment-threads/${created.selectionGuid}/close`)).status).toBe('closed');
      expect(data(await talk(svc, 'POST', 'doc-1', `comment-threads/${created.selectionGuid}/reopen`)).status).toBe('open');
      const second = data(await talk(svc, 'POST', 'doc-1', 'comments', { body: { selection: { from: 1, to: 4 }, content: 'On "The"' } }));

      const all = await waitForEvents(svc, 'doc-1', 10);
      expect(all.map(eventName)).toEqual([
        'Comment/create',
        'MentionAt/comment',
        'Comment/create',
        'MentionAt/comment',
        'Comment/update',
        'MentionAt/comment',
        'Comment/update',
        'Comment/delete',
        'Comment/closeComments',
        'Comment/create',
      ]);
      expect(all[7]!.body).toEqual({ fileId: 'doc-1', userId: 'user-2', kind: 'comment', type: 'comment', action: 'delete', deleteComment: { guid: reply.guid, selectionGuid: created.selectionGuid } });
      expect(all[8]!.body).toEqual({
        fileId: 'doc-1',
        userId: 'user-1',
        kind: 'comment',
        type: 'comment',
        action: 'closeComments',
        closeComment: { selectionGuid: created.selectionGuid, guids: [created.guid] },
      });
      expect(all[9]!.body.comment).toEqual({ guid: second.guid, selectionGuid: second.selectionGuid, content: 'On "The"', userIds: [] });
    });

    it('documents: counts, lists, the sidebar and mention-at-list', async () => {
      await quickFox('doc-2');
      const first = data(await talk(svc, 'POST', 'doc-2', 'comments', { body: { selection: { from: 11, to: 20 }, content: [text('See '), mention('user-2')] } }));
      data(await talk(svc, 'POST', 'doc-2', `comments/${first.guid}/replies`, { body: { content: 'A reply' } }));
      const closedOne = data(await talk(svc, 'POST', 'doc-2', 'comments', { body: { selection: { from: 1, to: 4 }, content: 'Second thread' } }));
      data(await talk(svc, 'POST', 'doc-2', `comment-threads/${closedOne.selectionGuid}/close`));

      expect(data(await talk(svc, 'GET', 'doc-2', 'comment-count'))).toEqual({ count: 2 });
      expect(data(await talk(svc, 'GET', 'doc-2', 'comment-count', { query: { includeClosed: 'true' } }))).toEqual({ count: 3 });

      const batchCalls = () => svc.integrator.calls.filter((call) => call.method === 'POST' && call.path === '/users/batch/get').length;
      const batchesBefore = batchCalls();
      const list = data(await talk(svc, 'GET', 'doc-2', 'comment-list'));
      expect(list).toMatchObject({ total: 2, page: 1, pageSize: 20, isLastPage: true });
      // names come from one batched callback, then from the cache
      expect(batchCalls() - batchesBefore).toBeLessThanOrEqual(1);
      const batchesAfterList = batchCalls();
      data(await talk(svc, 'GET', 'doc-2', 'comment-list'));
      expect(batchCalls()).toBe(batchesAfterList);
      expect(list.threads.map((thread: { selectionGuid: string }) => thread.selectionGuid)).toEqual([closedOne.selectionGuid, first.selectionGuid]);
      const [newest, oldest] = list.threads;
      expect(newest).toMatchObject({ status: 'closed', kind: 'document', selection: { from: 1, to: 4, quote: 'The', detached: false } });
      expect(oldest).toMatchObject({ status: 'open', selection: { from: 11, to: 20, quote: 'brown fox', detached: false } });
      expect(oldest.comments.map((comment: { content: string }) => comment.content)).toEqual(['See @Second User', 'A reply']);
      expect(oldest.comments[1].replyTo).toBe(first.guid);
      expect(list.users).toEqual({
        'user-1': { id: 'user-1', name: 'Test User', avatar: '' },
        'user-2': { id: 'user-2', name: 'Second User', avatar: SECOND_USER.avatar },
      });
      const open = data(await talk(svc, 'GET', 'doc-2', 'comment-list', { query: { status: 'open', pageSize: 1 } }));
      expect(open).toMatchObject({ total: 1, isLastPage: true });
      const paged = data(await talk(svc, 'GET', 'doc-2', 'comment-list', { query: { pageSize: 1, page: 1 } }));
      expect(paged).toMatchObject({ total: 2, isLastPage: false });
      expect(paged.threads).toHaveLength(1);

      const sidebar = data(await talk(svc, 'GET', 'doc-2', 'doc-sidebar-info', { query: { historyType: 4 } }));
      expect(sidebar.histories.map((entry: { content: string }) => entry.content)).toEqual([
        'closed a comment thread',
        'commented: Second thread',
        'replied: A reply',
        'commented: See @Second User',
      ]);
      expect(sidebar.histories.every((entry: { historyType: number; name: string }) => entry.historyType === 4 && entry.name === 'Test User')).toBe(true);
      await svc.services.content.flush(svc.app.id, 'doc-2');
      const everything = data(await talk(svc, 'GET', 'doc-2', 'doc-sidebar-info'));
      expect(new Set(everything.histories.map((entry: { historyType: number }) => entry.historyType))).toEqual(new Set([1, 4]));

      const mentions = data(await talk(svc, 'GET', 'doc-2', 'mention-at-list'));
      expect(mentions.mentionAtList).toEqual([{ userId: 'user-2', atGuid: first.nodes[1].attrs.guid, source: 'comment', commentGuid: first.guid }]);

      // deleting the first comment takes its thread with it
      const removed = data(await talk(svc, 'DELETE', 'doc-2', `comments/${first.guid}`));
      expect(removed.deleted).toHaveLength(2);
      expect(data(await talk(svc, 'GET', 'doc-2', 'comment-count'))).toEqual({ count: 0 });
      expectFailure(await talk(svc, 'GET', 'doc-2', `comment-threads/${first.selectionGuid}`), 404, 74002);
      expect(data(await talk(svc, 'GET', 'doc-2', 'mention-at-list')).mentionAtList).toEqual([]);
    });

    it('documents: the anchor follows concurrent edits of an editor', async () => {
      await quickFox('doc-3');
      const created = data(await talk(svc, 'POST', 'doc-3', 'comments', { body: { selection: { from: 11, to: 20 }, content: 'the animal' } }));
      const editor = await connectEditor(svc, 'doc-3');
      try {
        const line = (editor.doc.getXmlFragment('default').get(0) as Y.XmlElement).get(0) as Y.XmlText;
        line.insert(0, 'Look: ');
        line.insert(22, 'dark '); // inside the range, before "fox"
        await editor.saved();
        const thread = data(await talk(svc, 'GET', 'doc-3', `comment-threads/${created.selectionGuid}`));
        expect(thread.selection).toMatchObject({ from: 17, to: 31, quote: 'brown dark fox', detached: false });
        line.delete(16, 14); // everything commented
        await editor.saved();
        const detached = data(await talk(svc, 'GET', 'doc-3', `comment-threads/${created.selectionGuid}`));
        expect(detached.selection).toMatchObject({ quote: '', detached: true });
      } finally {
        await editor.close();
      }
    });

    it('open editors are told of conversation changes (stateless messages)', async () => {
      await quickFox('doc-6');
      const editor = await connectEditor(svc, 'doc-6');
      const heard: Array<Record<string, unknown>> = [];
      editor.provider.on('stateless', ({ payload }: { payload: string }) => heard.push(JSON.parse(payload) as Record<string, unknown>));
      try {
        const created = data(await talk(svc, 'POST', 'doc-6', 'comments', { body: { selection: { from: 1, to: 4 }, content: 'hello' } }));
        data(await talk(svc, 'POST', 'doc-6', `comment-threads/${created.selectionGuid}/close`));
        const message = data(await talk(svc, 'POST', 'doc-6', 'discussions', { body: { content: 'chat' } }));
        await eventually(() => heard.length === 3, 'three conversation messages');
        expect(heard).toEqual([
          { type: 'svc:conversation', subject: 'comment', action: 'create', id: created.guid, selectionGuid: created.selectionGuid },
          { type: 'svc:conversation', subject: 'thread', action: 'close', id: created.selectionGuid },
          { type: 'svc:conversation', subject: 'discussion', action: 'create', id: message.id },
        ]);
      } finally {
        await editor.close();
      }
    });

    it('spreadsheets: selectionTitle is the sheet id, replies carry replyTo and replyComment', async () => {
      await createFile(svc, 'sheet-1', 'spreadsheet');
      const doc = await svc.services.content.read(svc.app.id, 'sheet-1');
      const sheetId = String(sheetsOf(doc).get(0).get('id'));
      if (!svc.services.content.isLive(doc)) doc.destroy();
      const created = data(await talk(svc, 'POST', 'sheet-1', 'comments', { body: { selection: { sheet: 'Sheet1', range: 'B2:C3' }, content: 'Check totals' } }));
      const reply = data(await talk(svc, 'POST', 'sheet-1', `comments/${created.guid}/replies`, { token: SECOND_USER.token, body: { content: [text('Fixed, '), mention('user-1')] } }));
      const events = await waitForEvents(svc, 'sheet-1', 3);
      expect(events.map(eventName)).toEqual(['Comment/create', 'Comment/create', 'MentionAt/comment']);
      expect(events[0]!.body.comment).toEqual({ guid: created.guid, selectionGuid: created.selectionGuid, selectionTitle: sheetId, content: 'Check totals', userIds: [] });
      const replyObject = {
        guid: reply.guid,
        selectionGuid: created.selectionGuid,
        selectionTitle: sheetId,
        content: 'Fixed, @Test User',
        userIds: ['user-1'],
        replyTo: created.guid,
        replyComment: { userId: 'user-1', commentGuid: created.guid, selectionTitle: sheetId, selectionGuid: created.selectionGuid },
      };
      expect(events[1]!.body).toEqual({ fileId: 'sheet-1', userId: 'user-2', kind: 'comment', type: 'comment', action: 'create', comment: replyObject });
      expect(events[2]!.body).toEqual({ fileId: 'sheet-1', userId: 'user-2', kind: 'mention_at', type: 'comment', action: 'create', comment: replyObject });
      const list = data(await talk(svc, 'GET', 'sheet-1', 'comment-list'));
      expect(list.threads[0]).toMatchObject({ kind: 'spreadsheet', selectionTitle: sheetId, selection: { sheetId, sheet: 'Sheet1', range: 'B2:C3', detached: false } });
      expectFailure(await talk(svc, 'POST', 'sheet-1', 'comments', { body: { selection: { sheet: 'Nope', range: 'A1' }, content: 'x' } }), 400, 74001);
      expectFailure(await talk(svc, 'POST', 'sheet-1', 'comments', { body: { selection: { sheet: 'Sheet1', range: 'A1:A5000' }, content: 'x' } }), 400, 74001);
      expectFailure(await talk(svc, 'POST', 'sheet-1', 'comments', { body: { selection: { from: 1, to: 2 }, content: 'x' } }), 400, 74001);
    });

    it('a thread whose stored anchor is damaged answers 74006 in its selection; the list and its comments still answer', async () => {
      await createFile(svc, 'sheet-2', 'spreadsheet');
      const guids: string[] = [];
      for (const range of ['A1', 'B2', 'C3', 'D4']) {
        guids.push(data(await talk(svc, 'POST', 'sheet-2', 'comments', { body: { selection: { sheet: 'Sheet1', range }, content: `on ${range}` } })).selectionGuid);
      }
      const damage = (guid: string, values: { anchor?: string; selection_kind?: string }) =>
        svc.services.storage.db.updateTable('comment_threads').set(values).where('id', '=', guid).execute();
      await damage(guids[0]!, { anchor: '{"sheetId": "s", "ran' }); // not JSON
      await damage(guids[1]!, { anchor: '{"sheetId": 7, "range": "B2"}' }); // not the spreadsheet shape
      await damage(guids[2]!, { anchor: '{"sheetId": "s", "range": "B2:"}' }); // a range that does not parse
      const damaged = { detached: true, damaged: { code: 74006, message: expect.stringContaining('cannot be read') } };

      const list = data(await talk(svc, 'GET', 'sheet-2', 'comment-list'));
      const bySelection = new Map(list.threads.map((thread: { selectionGuid: string }) => [thread.selectionGuid, thread]));
      for (const guid of guids.slice(0, 3)) expect(bySelection.get(guid)).toMatchObject({ selection: damaged, comments: [expect.objectContaining({ content: expect.stringMatching(/^on /) })] });
      expect(bySelection.get(guids[3]!)).toMatchObject({ selection: { range: 'D4', detached: false } });
      expect(data(await talk(svc, 'GET', 'sheet-2', `comment-threads/${guids[0]}`)).selection).toMatchObject(damaged);
      // a kind no module knows is damage too
      await damage(guids[3]!, { selection_kind: 'hologram' });
      expect(data(await talk(svc, 'GET', 'sheet-2', `comment-threads/${guids[3]}`)).selection).toMatchObject({ detached: true, damaged: { code: 74006 } });
    });

    it('tables: selectionTitle is the table guid and selectionContent the commented cell', async () => {
      const base = await createBase(svc, 'base-1');
      const table = await createTable(svc, base, [
        { name: 'Title', type: 'SingleLineText' },
        { name: 'Estimate', type: 'Number' },
      ]);
      const [row] = await insertRows(svc, table.guid, [{ Title: 'Ship it', Estimate: 3 }]);
      const estimate = table.columns.find((column) => column.name === 'Estimate')!;
      const created = data(
        await talk(svc, 'POST', base, 'comments', { body: { selection: { tableGuid: table.guid, rowGuid: row!.guid, columnGuid: estimate.guid }, content: [text('Too low? '), mention('user-2')] } }),
      );
      const onRow = data(await talk(svc, 'POST', base, 'comments', { body: { selection: { tableGuid: table.guid, rowGuid: row!.guid }, content: 'The whole task' } }));
      const events = await waitForEvents(svc, base, 3);
      expect(events[0]!.body.comment).toEqual({
        guid: created.guid,
        selectionGuid: created.selectionGuid,
        selectionTitle: table.guid,
        selectionContent: '3',
        content: 'Too low? @Second User',
        userIds: ['user-2'],
      });
      expect(events[1]!.body).toMatchObject({ kind: 'mention_at', type: 'comment', comment: { selectionTitle: table.guid, selectionContent: '3', userIds: ['user-2'] } });
      expect(events[2]!.body.comment).toMatchObject({ guid: onRow.guid, selectionContent: 'Ship it' });
      expectFailure(await talk(svc, 'POST', base, 'comments', { body: { selection: { tableGuid: table.guid, rowGuid: 'no-such-row' }, content: 'x' } }), 400, 74001);
      expectFailure(await talk(svc, 'POST', base, 'comments', { body: { selection: { tableGuid: 'no-such-table', rowGuid: row!.guid }, content: 'x' } }), 400, 74001);
      expectFailure(await talk(svc, 'POST', base, 'comments', { body: { selection: { tableGuid: 'x'.repeat(129), rowGuid: row!.guid }, content: 'x' } }), 400, 74000);
      expect(data(await talk(svc, 'GET', base, 'comment-count'))).toEqual({ count: 2 });
      expect(data(await talk(svc, 'GET', base, 'mention-at-list')).mentionAtList).toEqual([
        { userId: 'user-2', atGuid: created.nodes[1].attrs.guid, source: 'comment', commentGuid: created.guid },
      ]);
    });

    it('presentations: selectionTitle is the slide id', async () => {
      await createFile(svc, 'slides-1', 'presentation');
      const doc = await svc.services.content.read(svc.app.id, 'slides-1');
      const slideId = String(slidesOf(doc).get(0).get('id'));
      if (!svc.services.content.isLive(doc)) doc.destroy();
      const created = data(await talk(svc, 'POST', 'slides-1', 'comments', { body: { selection: { slideId }, content: 'Nice slide' } }));
      const [event] = await waitForEvents(svc, 'slides-1', 1);
      expect(event!.body.comment).toEqual({ guid: created.guid, selectionGuid: created.selectionGuid, selectionTitle: slideId, content: 'Nice slide', userIds: [] });
      expectFailure(await talk(svc, 'POST', 'slides-1', 'comments', { body: { selection: { slideId: 'nope' }, content: 'x' } }), 400, 74001);
    });

    it('presentations: a comment on a box mentions a person and a file; MentionAt names only the person', async () => {
      await createFile(svc, 'slides-2', 'presentation');
      const boxId = 'box-1';
      let slideId = '';
      await svc.services.content.change(svc.app.id, 'slides-2', author, (doc) => {
        const slide = slidesOf(doc).get(0);
        slideId = String(slide.get('id'));
        (slide.get('boxes') as Y.Array<Y.Map<unknown>>).push([newTextBox({ x: 10, y: 10, width: 200, height: 80 }, boxId)]);
      });
      const file = { type: 'fileMention', attrs: { fileId: 'plan-1', fileType: 'document', label: 'Q3 plan' } };
      const created = data(await talk(svc, 'POST', 'slides-2', 'comments', { body: { selection: { slideId, boxId }, content: [text('See '), file, text(' with '), mention(SECOND_USER.id)] } }));
      expect(created.content).toBe(`See Q3 plan with @${SECOND_USER.name}`);
      expect(created.nodes[1]).toEqual({ type: 'fileMention', attrs: { fileId: 'plan-1', fileType: 'document', label: 'Q3 plan', fullUrl: null } });
      expect(created.userIds).toEqual([SECOND_USER.id]);
      const events = await waitForEvents(svc, 'slides-2', 2);
      expect(events.map(eventName)).toEqual(['Comment/create', 'MentionAt/comment']);
      expect(events[1]!.body.comment).toMatchObject({ selectionTitle: slideId, userIds: [SECOND_USER.id] });
      const listed = data(await talk(svc, 'GET', 'slides-2', 'comment-list')).threads[0];
      expect(listed.selection).toEqual({ slideId, boxId, detached: false });
      // a file alone is content; a file mention needs its id, type and name, and an http(s) address if any
      expect(data(await talk(svc, 'POST', 'slides-2', 'comments', { body: { selection: { slideId }, content: [file] } })).content).toBe('Q3 plan');
      const post = (attrs: Record<string, unknown>) => talk(svc, 'POST', 'slides-2', 'comments', { body: { selection: { slideId }, content: [{ type: 'fileMention', attrs }] } });
      expectFailure(await post({ fileType: 'document', label: 'x' }), 400, 74000, /attrs\.fileId/);
      expectFailure(await post({ fileId: 'f', label: 'x' }), 400, 74000, /attrs\.fileType/);
      expectFailure(await post({ fileId: 'f', fileType: 'file', label: '  ' }), 400, 74000, /attrs\.label/);
      expectFailure(await post({ fileId: 'f', fileType: 'file', label: 'x', fullUrl: 'javascript:alert(1)' }), 400, 74000, /fullUrl/);
    });

    it('bad input gets a clear error and changes nothing', async () => {
      await quickFox('doc-4');
      const first = data(await talk(svc, 'POST', 'doc-4', 'comments', { body: { selection: { from: 11, to: 20 }, content: 'first' } }));
      const before = conversationEvents(svc, 'doc-4').length;
      await waitForEvents(svc, 'doc-4', 1);
      const post = (body: unknown, options = {}) => talk(svc, 'POST', 'doc-4', 'comments', { body, ...options });

      expectFailure(await post({ selection: { from: 11, to: 20 }, content: '   ' }), 400, 74000, /empty/);
      expectFailure(await post({ selection: { from: 11, to: 20 }, content: [] }), 400, 74000, /empty/);
      expectFailure(await post({ selection: { from: 11, to: 20 }, content: 'x'.repeat(10_001) }), 400, 74000);
      expectFailure(await post({ selection: { from: 11, to: 20 }, content: [{ type: 'image', attrs: { src: 'x' } }] }), 400, 74000, /unknown node type/);
      expectFailure(await post({ selection: { from: 11, to: 20 }, content: [{ type: 'mention', attrs: {} }] }), 400, 74000, /attrs\.id/);
      expectFailure(await post({ selection: { from: 11, to: 20 } }), 400, 74000);
      expectFailure(await post({ selection: { from: 11, to: 999 }, content: 'x' }), 400, 74001);
      expectFailure(await post({ selection: { from: 5, to: 5 }, content: 'x' }), 400, 74001);
      expectFailure(await post({ selection: { sheet: 'Sheet1', range: 'A1' }, content: 'x' }), 400, 74001);
      expectFailure(await post({ selection: { from: 11, to: 20 }, content: [mention('ghost')] }), 400, 74003, /ghost/);
      expectFailure(await talk(svc, 'POST', 'doc-4', 'comments', { rawBody: '{"selection":', headers: { 'content-type': 'application/json' } }), 400, 74000, /not valid JSON/);
      expectFailure(await talk(svc, 'POST', 'doc-4', `comments/no-such-comment/replies`, { body: { content: 'x' } }), 404, 74002);
      // the reference integrator grants everything unless told otherwise
      svc.integrator.grant('doc-4', SECOND_USER.id, { manageable: false });
      svc.integrator.grant('doc-4', THIRD_USER.id, { manageable: false });
      expectFailure(await talk(svc, 'PATCH', 'doc-4', `comments/${first.guid}`, { body: { content: 'not mine' }, token: SECOND_USER.token }), 403, 40300, /manageable/);
      expectFailure(await talk(svc, 'DELETE', 'doc-4', `comments/${first.guid}`, { token: THIRD_USER.token }), 403, 40300);

      // permissions: no comment without commentable, no reading without readable
      svc.integrator.grant('doc-4', SECOND_USER.id, { commentable: false });
      svc.integrator.grant('doc-4', THIRD_USER.id, { readable: false, commentable: false });
      svc.services.access.forget();
      expectFailure(await post({ selection: { from: 11, to: 20 }, content: 'x' }, { token: SECOND_USER.token }), 403, 40300, /comment on/);
      expectFailure(await talk(svc, 'GET', 'doc-4', 'comment-list', { token: THIRD_USER.token }), 403, 40300);
      expectFailure(await talk(svc, 'GET', 'doc-4', 'comment-count', { token: null }), 401, 30007);
      expectFailure(await talk(svc, 'GET', 'missing-file', 'comment-count'), 404, 70013);

      // a reply to a deleted comment, a reply in a closed thread
      const reply = data(await talk(svc, 'POST', 'doc-4', `comments/${first.guid}/replies`, { body: { content: 'reply' } }));
      data(await talk(svc, 'DELETE', 'doc-4', `comments/${reply.guid}`));
      expectFailure(await talk(svc, 'POST', 'doc-4', `comments/${reply.guid}/replies`, { body: { content: 'x' } }), 404, 74004);
      expectFailure(await talk(svc, 'DELETE', 'doc-4', `comments/${reply.guid}`), 404, 74002);
      data(await talk(svc, 'POST', 'doc-4', `comment-threads/${first.selectionGuid}/close`));
      expectFailure(await talk(svc, 'POST', 'doc-4', `comments/${first.guid}/replies`, { body: { content: 'x' } }), 409, 74005, /reopen/);

      const list = data(await talk(svc, 'GET', 'doc-4', 'comment-list'));
      expect(list.total).toBe(1);
      expect(list.threads[0].comments.map((comment: { content: string }) => comment.content)).toEqual(['first']);
      const events = await waitForEvents(svc, 'doc-4', before + 3);
      expect(events.map(eventName)).toEqual(['Comment/create', 'Comment/create', 'Comment/delete', 'Comment/closeComments']);
    });

    it('another app cannot see or touch this app\'s comments', async () => {
      await quickFox('doc-5');
      const created = data(await talk(svc, 'POST', 'doc-5', 'comments', { body: { selection: { from: 11, to: 20 }, content: 'mine' } }));
      const other = await svc.createApp({ name: 'Other', endpointUrl: svc.integrator.url });
      const signature = await svc.sign({}, other);
      await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'document', fileId: 'doc-5' }, signature });
      expectFailure(await talk(svc, 'DELETE', 'doc-5', `comments/${created.guid}`, { signature }), 404, 74002);
      expect(data(await talk(svc, 'GET', 'doc-5', 'comment-count', { signature }))).toEqual({ count: 0 });
      await eventually(() => conversationEvents(svc, 'doc-5').length === 1, 'the one event of this app');
    });
  });
}
