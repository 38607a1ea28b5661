import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addPeople, createFile, data, expectFailure, SECOND_USER } from '../conversations/support.js';
import { testDatabases } from '../support/databases.js';
import { DEFAULT_USER } from '../support/integrator.js';
import { startService, type TestService } from '../support/service.js';

const entries = (fileId: string) => `/sdk/v2/api/files/${encodeURIComponent(fileId)}/behavior-histories`;
const sidebar = (fileId: string) => `/sdk/v2/collab-files/${encodeURIComponent(fileId)}/doc-sidebar-info`;

for (const database of testDatabases()) {
  describe(`behavior history [${database.name}]`, () => {
    let svc: TestService;
    beforeEach(async () => {
      svc = await startService(database, { integrator: true });
      addPeople(svc);
    });
    afterEach(async () => {
      await svc.close();
    });

    it('writes, lists (paged, newest first), shows in doc-sidebar-info as historyType 5 and removes', async () => {
      await createFile(svc, 'doc-1', 'document');
      const shared = data(await svc.call('POST', entries('doc-1'), { body: { userId: SECOND_USER.id, action: 'shared', content: 'sent to legal', createdAt: 1_700_000_000_000 } }));
      expect(shared).toMatchObject({ fileId: 'doc-1', userId: SECOND_USER.id, name: SECOND_USER.name, action: 'shared', content: 'sent to legal', createdAt: new Date(1_700_000_000_000).toISOString() });
      const approved = data(await svc.call('POST', entries('doc-1'), { body: { userId: DEFAULT_USER.id, action: 'approved' } }));
      expect(approved).toMatchObject({ name: DEFAULT_USER.name, content: '' });
      expect(Date.now() - Date.parse(approved.createdAt)).toBeLessThan(60_000);

      const firstPage = data(await svc.call('GET', entries('doc-1'), { query: { pageSize: 1 } }));
      expect(firstPage).toMatchObject({ isLastPage: false, total: 2 });
      expect(firstPage.histories.map((entry: { id: string }) => entry.id)).toEqual([approved.id]);
      const secondPage = data(await svc.call('GET', entries('doc-1'), { query: { pageSize: 1, page: 2 } }));
      expect(secondPage).toEqual({ histories: [shared], isLastPage: true, total: 2 });

      const behavior = data(await svc.call('GET', sidebar('doc-1'), { query: { historyType: 5 } }));
      expect(behavior.histories).toEqual([
        expect.objectContaining({ id: approved.id, historyType: 5, content: 'approved', userId: DEFAULT_USER.id, name: DEFAULT_USER.name }),
        expect.objectContaining({ id: shared.id, historyType: 5, content: 'shared: sent to legal', name: SECOND_USER.name }),
      ]);
      expect(behavior.users).toEqual({ [DEFAULT_USER.id]: DEFAULT_USER.name, [SECOND_USER.id]: SECOND_USER.name });
      expectFailure(await svc.call('GET', `/sdk/v2/collab-files/doc-1/history/${shared.id}/content`), 404, 60011);
      const all = data(await svc.call('GET', sidebar('doc-1')));
      expect(all.histories.filter((entry: { historyType: number }) => entry.historyType === 5)).toHaveLength(2);
      const edits = data(await svc.call('GET', sidebar('doc-1'), { query: { historyType: 1 } }));
      expect(edits.histories.some((entry: { historyType: number }) => entry.historyType === 5)).toBe(false);

      expect(data(await svc.call('DELETE', `${entries('doc-1')}/${shared.id}`))).toEqual({ deleted: true });
      expectFailure(await svc.call('DELETE', `${entries('doc-1')}/${shared.id}`), 404, 125001);
      expect(data(await svc.call('GET', entries('doc-1'))).histories.map((entry: { id: string }) => entry.id)).toEqual([approved.id]);
    });

    it('refuses cross-file and cross-app requests and leaves the entries as they were', async () => {
      await createFile(svc, 'doc-1', 'document');
      await createFile(svc, 'doc-2', 'document');
      const entry = data(await svc.call('POST', entries('doc-1'), { body: { userId: DEFAULT_USER.id, action: 'shared' } }));
      expectFailure(await svc.call('DELETE', `${entries('doc-2')}/${entry.id}`), 404, 125001);

      const other = await svc.createApp({ name: 'Other app' });
      const asOther = { signature: await svc.sign({}, other) };
      expectFailure(await svc.call('GET', entries('doc-1'), asOther), 404, 70013);
      expectFailure(await svc.call('POST', entries('doc-1'), { ...asOther, body: { userId: DEFAULT_USER.id, action: 'archived' } }), 404, 70013);
      expectFailure(await svc.call('DELETE', `${entries('doc-1')}/${entry.id}`, asOther), 404, 70013);
      expect(data(await svc.call('GET', entries('doc-1'))).histories).toEqual([entry]);
      expect(data(await svc.call('GET', entries('doc-2'))).histories).toEqual([]);
    });

    it('refuses bad input with 125000 / 125002 and writes nothing', async () => {
      await createFile(svc, 'doc-1', 'document');
      const bad = [
        {},
        { userId: DEFAULT_USER.id },
        { userId: '', action: 'shared' },
        { userId: DEFAULT_USER.id, action: '' },
        { userId: DEFAULT_USER.id, action: '   ' },
        { userId: DEFAULT_USER.id, action: 'x'.repeat(65) },
        { userId: DEFAULT_USER.id, action: 'shared', content: 'x'.repeat(1001) },
        { userId: DEFAULT_USER.id, action: 'shared', createdAt: 1.5 },
        { userId: DEFAULT_USER.id, action: 'shared', createdAt: '2024-01-01' },
        { userId: 42, action: 'shared' },
      ];
      for (const body of bad) expectFailure(await svc.call('POST', entries('doc-1'), { body }), 400, 125000);
      expectFailure(await svc.call('GET', entries('doc-1'), { query: { pageSize: 101 } }), 400, 125000);
      const unknown = await svc.call('POST', entries('doc-1'), { body: { userId: 'nobody', action: 'shared' } });
      expectFailure(unknown, 400, 125002);
      expect(unknown.body.data).toEqual({ userId: 'nobody' });
      expectFailure(await svc.call('POST', entries('missing'), { body: { userId: DEFAULT_USER.id, action: 'shared' } }), 404, 70013);
      expect(data(await svc.call('GET', entries('doc-1')))).toEqual({ histories: [], isLastPage: true, total: 0 });
      expect(data(await svc.call('POST', entries('doc-1'), { body: { userId: DEFAULT_USER.id, action: 'shared', content: 'x'.repeat(1000) } })).content).toHaveLength(1000);
    });

    it('needs readable to write and list, manageable to remove', async () => {
      svc.integrator.addFile({ id: 'doc-1', grants: { [SECOND_USER.id]: { readable: true, manageable: false }, 'user-3': { readable: false } } });
      await createFile(svc, 'doc-1', 'document');
      const entry = data(await svc.call('POST', entries('doc-1'), { token: SECOND_USER.token, body: { userId: SECOND_USER.id, action: 'viewed' } }));
      expectFailure(await svc.call('DELETE', `${entries('doc-1')}/${entry.id}`, { token: SECOND_USER.token }), 403, 40300);
      expectFailure(await svc.call('GET', entries('doc-1'), { token: 'token-3' }), 403, 40300);
      expect(data(await svc.call('DELETE', `${entries('doc-1')}/${entry.id}`))).toEqual({ deleted: true });
    });
  });
}
