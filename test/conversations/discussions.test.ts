import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases.js';
import { DEFAULT_USER } from '../support/integrator.js';
import { startService, type TestService } from '../support/service.js';
import { addPeople, createFile, data, eventName, expectFailure, FAST_CONTENT, SECOND_USER, talk, THIRD_USER, waitForEvents } from './support.js';

for (const database of testDatabases()) {
  describe(`discussions and date mentions [${database.name}]`, () => {
    let svc: TestService;
    beforeEach(async () => {
      svc = await startService(database, { integrator: true, content: FAST_CONTENT });
      addPeople(svc);
      await createFile(svc, 'doc-1', 'document');
    });
    afterEach(async () => {
      await svc.close();
    });

    it('a discussion message sends Discussion and, with mentions, MentionAt', async () => {
      const before = Date.now() * 1000;
      const plain = data(await talk(svc, 'POST', 'doc-1', 'discussions', { body: { content: 'Hello all' } }));
      const mentioning = data(
        await talk(svc, 'POST', 'doc-1', 'discussions', {
          token: SECOND_USER.token,
          body: { content: [{ type: 'text', text: 'Ping ' }, { type: 'mention', attrs: { id: 'user-1' } }, { type: 'mention', attrs: { id: 'user-1' } }] },
        }),
      );
      expect(plain.unixus).toBeGreaterThanOrEqual(before);
      expect(plain.unixus).toBeLessThanOrEqual(Date.now() * 1000);
      expect(mentioning.unixus).toBeGreaterThan(plain.unixus);
      const events = await waitForEvents(svc, 'doc-1', 3);
      expect(events.map(eventName)).toEqual(['Discussion/create', 'Discussion/create', 'MentionAt/discussion']);
      expect(events[0]!.body).toEqual({
        fileId: 'doc-1',
        userId: 'user-1',
        kind: 'discussion',
        type: 'discussion',
        action: 'create',
        discussion: { id: plain.id, unixus: plain.unixus, content: 'Hello all' },
      });
      expect(events[2]!.body).toEqual({
        fileId: 'doc-1',
        userId: 'user-2',
        kind: 'mention_at',
        type: 'discussion',
        action: 'create',
        discussion: { id: mentioning.id, unixus: mentioning.unixus, content: 'Ping @Test User@Test User', userIds: ['user-1'] },
      });
      expect(events[2]!.token).toBe(SECOND_USER.token);

      const page = data(await talk(svc, 'GET', 'doc-1', 'discussions', { query: { pageSize: 1 } }));
      expect(page.messages.map((message: { id: string }) => message.id)).toEqual([mentioning.id]);
      expect(page.isLastPage).toBe(false);
      const older = data(await talk(svc, 'GET', 'doc-1', 'discussions', { query: { pageSize: 1, before: mentioning.unixus } }));
      expect(older.messages.map((message: { id: string }) => message.id)).toEqual([plain.id]);
      expect(older.isLastPage).toBe(true);
      expect(page.users['user-2']).toEqual({ id: 'user-2', name: 'Second User', avatar: SECOND_USER.avatar });

      const mentions = data(await talk(svc, 'GET', 'doc-1', 'mention-at-list'));
      expect(mentions.mentionAtList).toEqual([
        { userId: 'user-1', atGuid: mentioning.nodes[1].attrs.guid, source: 'discussion', discussionId: mentioning.id },
        { userId: 'user-1', atGuid: mentioning.nodes[2].attrs.guid, source: 'discussion', discussionId: mentioning.id },
      ]);

      expectFailure(await talk(svc, 'POST', 'doc-1', 'discussions', { body: { content: '' } }), 400, 74000);
      expectFailure(await talk(svc, 'GET', 'doc-1', 'discussions', { query: { before: '99999999999999999999' } }), 400, 74000);
      expectFailure(await talk(svc, 'POST', 'doc-1', 'discussions', { body: { content: [{ type: 'mention', attrs: { id: 'nobody' } }] } }), 400, 74003);
      svc.integrator.grant('doc-1', THIRD_USER.id, { commentable: false });
      expectFailure(await talk(svc, 'POST', 'doc-1', 'discussions', { token: THIRD_USER.token, body: { content: 'hi' } }), 403, 40300);
      expect(data(await talk(svc, 'GET', 'doc-1', 'discussions')).messages).toHaveLength(2);
    });

    it('date mentions: create, update and remove, each with its DateMention event', async () => {
      const created = data(
        await talk(svc, 'POST', 'doc-1', 'date-mentions', {
          body: { content: '1 December', remindAt: '2026-12-01T09:00:00Z', remindUserIds: ['user-2', 'user-2'], positionId: 'node-7' },
        }),
      );
      const remindAt = Date.parse('2026-12-01T09:00:00Z');
      expect(created).toMatchObject({ content: '1 December', remindAt, remindAtIso: '2026-12-01T09:00:00.000Z', remindUserIds: ['user-2'], positionId: 'node-7', authorId: 'user-1' });
      const updated = data(await talk(svc, 'PATCH', 'doc-1', `date-mentions/${created.id}`, { body: { remindAt: remindAt + 3_600_000, remindUserIds: ['user-2', 'user-3'] } }));
      expect(updated).toMatchObject({ content: '1 December', remindAt: remindAt + 3_600_000, remindUserIds: ['user-2', 'user-3'] });
      expect(data(await talk(svc, 'GET', 'doc-1', 'date-mentions')).map((mention: { id: string }) => mention.id)).toEqual([created.id]);
      expect(data(await talk(svc, 'DELETE', 'doc-1', `date-mentions/${created.id}`))).toEqual({ id: created.id });

      const events = await waitForEvents(svc, 'doc-1', 3);
      expect(events.map((event) => event.eventClass)).toEqual(['DateMention', 'DateMention', 'DateMention']);
      expect(events[0]!.body).toEqual({
        fileId: 'doc-1',
        userId: DEFAULT_USER.id,
        kind: 'mention',
        type: 'date_mention',
        action: 'create',
        createData: { id: created.id, fileId: 'doc-1', authorId: 'user-1', content: '1 December', remindUserIds: ['user-2'], remindAt, positionId: 'node-7' },
      });
      expect(events[1]!.body).toEqual({
        fileId: 'doc-1',
        userId: DEFAULT_USER.id,
        kind: 'mention',
        type: 'date_mention',
        action: 'update',
        updateData: { id: created.id, content: '1 December', remindUserIds: ['user-2', 'user-3'], remindAt: remindAt + 3_600_000, positionId: 'node-7' },
      });
      expect(events[2]!.body).toEqual({ fileId: 'doc-1', userId: DEFAULT_USER.id, kind: 'mention', type: 'date_mention', action: 'remove', removeData: { id: created.id } });

      // refusals change nothing
      expectFailure(await talk(svc, 'DELETE', 'doc-1', `date-mentions/${created.id}`), 404, 74002);
      expectFailure(await talk(svc, 'POST', 'doc-1', 'date-mentions', { body: { content: 'soon', remindAt: 'next week' } }), 400, 74000, /remindAt/);
      expectFailure(await talk(svc, 'POST', 'doc-1', 'date-mentions', { body: { content: 'soon', remindAt: 1, remindUserIds: ['ghost'] } }), 400, 74003);
      expectFailure(await talk(svc, 'POST', 'doc-1', 'date-mentions', { body: { content: '  ', remindAt: 1 } }), 400, 74000);
      const another = data(await talk(svc, 'POST', 'doc-1', 'date-mentions', { body: { content: 'Friday', remindAt: 1_800_000_000_000 } }));
      expect(another.positionId).toMatch(/^[0-9a-f-]{36}$/);
      expectFailure(await talk(svc, 'PATCH', 'doc-1', `date-mentions/${another.id}`, { body: {} }), 400, 74000, /nothing to change/);
      svc.integrator.grant('doc-1', SECOND_USER.id, { manageable: false });
      expectFailure(await talk(svc, 'PATCH', 'doc-1', `date-mentions/${another.id}`, { token: SECOND_USER.token, body: { content: 'Saturday' } }), 403, 40300);
      expect(data(await talk(svc, 'GET', 'doc-1', 'date-mentions'))).toMatchObject([{ id: another.id, content: 'Friday' }]);
      const all = await waitForEvents(svc, 'doc-1', 4);
      expect(all).toHaveLength(4);
    });
  });
}
