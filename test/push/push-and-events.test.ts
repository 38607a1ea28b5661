import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS } from '../../examples/integrator/integrator.js';
import { appendParagraph, connectEditor, type Editor } from '../content/support.js';
import { testDatabases } from '../support/databases.js';
import { DEFAULT_USER, eventually } from '../support/integrator.js';
import { startService, type TestService } from '../support/service.js';

type Stateless = { type: string } & Record<string, unknown>;

/** An editor and every stateless message and close code it got, in order. */
interface Watched {
  editor: Editor;
  messages: Stateless[];
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const OTHER = { id: 'user-2', name: 'Other User', token: 'other-token' };

for (const database of testDatabases()) {
  describe(`push to open editors and reported events [${database.name}]`, () => {
    let svc: TestService;
    const editors: Editor[] = [];
    beforeEach(async () => {
      svc = await startService(database, { integrator: true });
      svc.integrator.addUser(OTHER);
    });
    afterEach(async () => {
      for (const editor of editors.splice(0)) await editor.close();
      await svc.close();
    });

    const createFile = async (fileId: string) => {
      expect((await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'document', fileId } })).body.status).toBe(0);
      svc.integrator.addFile({ id: fileId, grants: { [DEFAULT_USER.id]: { ...ALL_PERMISSIONS }, [OTHER.id]: { ...ALL_PERMISSIONS } } });
    };
    const open = async (fileId: string, token: string = DEFAULT_USER.token): Promise<Watched> => {
      const editor = await connectEditor(svc, fileId, { token });
      editors.push(editor);
      const messages: Stateless[] = [];
      editor.provider.on('stateless', ({ payload }: { payload: string }) => messages.push(JSON.parse(payload) as Stateless));
      return { editor, messages };
    };
    const pushes = (watched: Watched) => watched.messages.filter((message) => message.type === 'svc:push');

    it("a file push reaches every open editor of the file and no other file's; userIds narrows it", async () => {
      await createFile('contract');
      await createFile('elsewhere');
      const mine = await open('contract');
      const theirs = await open('contract', OTHER.token);
      const unrelated = await open('elsewhere');
      const message = { text: '合同已批准', level: 'info', nested: [1, 2, 3] };
      const sent = await svc.call('POST', '/sdk/v2/api/files/contract/push', { body: { message } });
      expect(sent.status).toBe(200);
      expect(sent.body.status).toBe(0);
      const { pushId } = sent.body.data as { pushId: string };
      expect(pushId).toMatch(/^[0-9a-f-]{36}$/);
      await eventually(() => pushes(mine).length === 1 && pushes(theirs).length === 1, 'both editors of the file got the push');
      const got = pushes(mine)[0]!;
      expect(got).toMatchObject({ type: 'svc:push', pushId, fileId: 'contract', message });
      expect(Date.now() - Date.parse(got.sentAt as string)).toBeLessThan(5000);

      const narrowed = await svc.call('POST', '/sdk/v2/api/files/contract/push', { body: { message: 'only you', userIds: [OTHER.id] } });
      expect(narrowed.body.status).toBe(0);
      await eventually(() => pushes(theirs).length === 2, 'the named user got the narrowed push');
      await pause(200);
      expect(pushes(mine)).toHaveLength(1);
      expect(pushes(unrelated)).toHaveLength(0);
    });

    it("a user push reaches that user's editors of every file, counts them, and reaches no one else", async () => {
      await createFile('first');
      await createFile('second');
      const first = await open('first');
      const second = await open('second');
      const other = await open('first', OTHER.token);
      const sent = await svc.call('POST', `/sdk/v2/api/users/${DEFAULT_USER.id}/push`, { body: { message: { text: 'hello' } } });
      expect(sent.body).toMatchObject({ status: 0, data: { delivered: 2 } });
      await eventually(() => pushes(first).length === 1 && pushes(second).length === 1, 'both files of the user got it');
      expect(pushes(first)[0]!.fileId).toBe('first');
      expect(pushes(second)[0]!.fileId).toBe('second');
      await pause(200);
      expect(pushes(other)).toHaveLength(0);
    });

    it('refuses bad pushes with their documented codes and sends nothing', async () => {
      await createFile('doc');
      const watched = await open('doc');
      const other = await svc.createApp({ endpointUrl: svc.app.endpointUrl });
      const cases: Array<[string, object, number, number]> = [
        ['/sdk/v2/api/files/doc/push', { message: { text: 'x'.repeat(64 * 1024) } }, 413, 124002],
        ['/sdk/v2/api/files/doc/push', {}, 400, 124001],
        ['/sdk/v2/api/files/doc/push', { message: 1, userIds: 'user-1' }, 400, 124001],
        ['/sdk/v2/api/files/doc/push', { message: 1, userIds: [] }, 400, 124001],
        ['/sdk/v2/api/files/missing/push', { message: 1 }, 404, 70013],
        [`/sdk/v2/api/users/${DEFAULT_USER.id}/push`, { message: 'y'.repeat(70_000) }, 413, 124002],
        ['/sdk/v2/api/users/nobody-open/push', { message: 1 }, 404, 124003],
      ];
      for (const [path, body, http, code] of cases) {
        const answer = await svc.call('POST', path, { body });
        expect({ path, http: answer.status, code: answer.body.status }).toEqual({ path, http, code });
        expect(answer.body.message).toBeTruthy();
      }
      // another app's file is as unknown as a missing one, and its editors get nothing
      const foreign = await svc.call('POST', '/sdk/v2/api/files/doc/push', { body: { message: 1 }, signature: await svc.sign({}, other) });
      expect([foreign.status, foreign.body.status]).toEqual([404, 70013]);
      const noOne = await svc.call('POST', `/sdk/v2/api/users/${DEFAULT_USER.id}/push`, { body: { message: 1 }, signature: await svc.sign({}, other) });
      expect([noOne.status, noOne.body.status, noOne.body.data.delivered]).toEqual([404, 124003, 0]);
      await pause(200);
      expect(pushes(watched)).toHaveLength(0);
      // no token: the backend API's token rule
      expect((await svc.call('POST', '/sdk/v2/api/files/doc/push', { body: { message: 1 }, token: null })).status).toBe(401);
    });

    it('file.renamed tells open editors the new title; file.permissionChanged downgrades them at once', async () => {
      await createFile('report');
      const watched = await open('report');
      const renamed = await svc.call('POST', '/sdk/v2/api/events/report', { body: { events: [{ type: 'file.renamed', fileId: 'report', data: { name: '季度报告' } }] } });
      expect(renamed.body).toMatchObject({ status: 0, data: { applied: 1 } });
      await eventually(() => watched.messages.some((message) => message.type === 'svc:file-renamed' && message.name === '季度报告'), 'the new title');

      svc.integrator.grant('report', DEFAULT_USER.id, { editable: false });
      const started = Date.now();
      const changed = await svc.call('POST', '/sdk/v2/api/events/report', { body: { events: [{ type: 'file.permissionChanged', fileId: 'report' }] } });
      expect(changed.body.status).toBe(0);
      await eventually(() => watched.messages.some((message) => message.type === 'svc:access'), 'read-only');
      expect(Date.now() - started).toBeLessThan(1000);
      expect(watched.messages.find((message) => message.type === 'svc:access')!.permissions).toMatchObject({ editable: false, readable: true });
    });

    it('user.updated drops the cached name and tells open editors the new one', async () => {
      await createFile('names');
      const watched = await open('names');
      // the service has the old name cached from the editor's admission
      svc.integrator.addUser({ ...DEFAULT_USER, name: 'Renamed User', avatar: 'https://example.com/a.png' });
      const reported = await svc.call('POST', '/sdk/v2/api/events/report', { body: { events: [{ type: 'user.updated', userId: DEFAULT_USER.id }] } });
      expect(reported.body.status).toBe(0);
      await eventually(() => watched.messages.some((message) => message.type === 'svc:user-updated'), 'user-updated');
      expect(watched.messages.find((message) => message.type === 'svc:user-updated')).toEqual({
        type: 'svc:user-updated',
        userId: DEFAULT_USER.id,
        user: { id: DEFAULT_USER.id, name: 'Renamed User', avatar: 'https://example.com/a.png' },
      });
    });

    it('file.deleted deletes the file, closes its editors with a notice and later calls answer 70013', async () => {
      await createFile('gone');
      const watched = await open('gone');
      appendParagraph(watched.editor.doc, 'before');
      await watched.editor.saved();
      const reported = await svc.call('POST', '/sdk/v2/api/events/report', { body: { events: [{ type: 'file.deleted', fileId: 'gone' }] } });
      expect(reported.body.status).toBe(0);
      await eventually(() => watched.editor.closes.includes(4404), 'closed as deleted');
      expect(watched.messages.map((message) => message.type)).toContain('svc:file-deleted');
      const later = await svc.call('GET', '/sdk/v2/collab-files/gone/plain-text');
      expect([later.status, later.body.status]).toEqual([404, 70013]);
    });

    it('DELETE files/{fileId} closes its open editors at once, as file.deleted does', async () => {
      await createFile('removed');
      const watched = await open('removed');
      expect((await svc.call('DELETE', '/sdk/v2/api/files/removed')).body.data).toEqual({ deleted: true });
      await eventually(() => watched.editor.closes.includes(4404), 'closed as deleted without any edit');
      expect(watched.messages.map((message) => message.type)).toContain('svc:file-deleted');
    });

    it('a report is all or nothing: one bad event of many applies none', async () => {
      await createFile('keep-1');
      await createFile('keep-2');
      const watched = await open('keep-1');
      const deleteBoth = [
        { type: 'file.deleted', fileId: 'keep-1' },
        { type: 'file.renamed', fileId: 'keep-2', data: { name: 'new' } },
      ];
      const other = await svc.createApp({ endpointUrl: svc.app.endpointUrl });
      const cases: Array<[unknown[], number, number, Record<string, unknown> | null]> = [
        [Array.from({ length: 101 }, () => ({ type: 'file.deleted', fileId: 'keep-1' })), 400, 124011, { limit: 100 }],
        [[...deleteBoth, { type: 'file.moved', fileId: 'keep-2' }], 400, 124012, { index: 2 }],
        [[...deleteBoth, { type: 'file.renamed', data: { name: 'x' } }], 400, 124013, { index: 2, field: 'fileId' }],
        [[...deleteBoth, { type: 'file.renamed', fileId: 'keep-2' }], 400, 124013, { index: 2, field: 'data.name' }],
        [[...deleteBoth, { type: 'user.updated' }], 400, 124013, { index: 2, field: 'userId' }],
        [[...deleteBoth, { type: 'file.deleted', fileId: 'never-created' }], 404, 70013, { index: 2, fileId: 'never-created' }],
        [[...deleteBoth, { fileId: 'keep-2' }], 400, 124010, null],
        [[...deleteBoth, { type: 'file.deleted', fileId: 7 }], 400, 124010, null],
      ];
      for (const [events, http, code, data] of cases) {
        const answer = await svc.call('POST', '/sdk/v2/api/events/report', { body: { events } });
        expect({ http: answer.status, code: answer.body.status }).toEqual({ http, code });
        if (data) expect(answer.body.data).toMatchObject(data);
      }
      // another app's files are unknown to it
      const foreign = await svc.call('POST', '/sdk/v2/api/events/report', { body: { events: deleteBoth }, signature: await svc.sign({}, other) });
      expect([foreign.status, foreign.body.status]).toEqual([404, 70013]);
      await pause(200);
      expect(watched.messages.filter((message) => message.type !== 'svc:access')).toEqual([]);
      expect(watched.editor.closes).toEqual([]);
      for (const fileId of ['keep-1', 'keep-2']) expect((await svc.call('GET', `/sdk/v2/collab-files/${fileId}/plain-text`)).status).toBe(200);
    });

    it('the three calls are in /openapi.json with their bodies', async () => {
      const spec = (await svc.call('GET', '/openapi.json', { signature: null, token: null })).body as { paths: Record<string, unknown> };
      for (const path of ['/sdk/v2/api/files/{fileId}/push', '/sdk/v2/api/users/{userId}/push', '/sdk/v2/api/events/report']) expect(spec.paths[path]).toHaveProperty('post');
    });
  });
}
