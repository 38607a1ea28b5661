import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases.js';
import { startService, type TestService } from '../support/service.js';
import { DEFAULT_USER } from '../support/integrator.js';
import { API, createBase, createTable, expectTableError, insertRows, type CreatedTable } from './helpers.js';

for (const database of testDatabases()) {
  describe(`table API: saved views [${database.name}]`, () => {
    let svc: TestService;
    let table: CreatedTable;
    let viewsPath: string;
    const guidOf = (name: string) => table.columns.find((column) => column.name === name)!.guid;
    beforeEach(async () => {
      svc = await startService(database, { integrator: true });
      const base = await createBase(svc);
      table = await createTable(svc, base, [
        { name: 'Title', type: 'SingleLineText' },
        { name: 'Status', type: 'SingleChoice', props: { options: [{ name: 'Todo' }, { name: 'Done' }] } },
        { name: 'Photo', type: 'SingleLineText' },
        { name: 'Done', type: 'CheckBox' },
        { name: 'Due', type: 'Date' },
      ]);
      viewsPath = `${API}/tables/${table.guid}/views`;
    });
    afterEach(async () => svc.close());

    const list = async () => (await svc.call('GET', viewsPath)).body.data as Array<Record<string, unknown>>;

    it('every table has its default grid view, listed with kind and settings', async () => {
      const response = await svc.call('GET', viewsPath);
      expect(response.status, response.text).toBe(200);
      expect(response.body.data).toEqual([
        { viewGuid: table.defaultViewGuid, name: 'Grid view', isDefault: true, kind: 'grid', settings: { hiddenColumns: [], columnOrder: [], sort: [], groupBy: null } },
      ]);
    });

    it('creates views of each kind with defaults that fit the columns, and keeps them in order', async () => {
      const kanban = await svc.call('POST', viewsPath, { body: { name: 'Board', kind: 'kanban' } });
      expect(kanban.status, kanban.text).toBe(200);
      expect(kanban.body.data).toMatchObject({ name: 'Board', kind: 'kanban', isDefault: false, settings: { groupBy: guidOf('Status') } });
      const gallery = await svc.call('POST', viewsPath, { body: { name: 'Cards', kind: 'gallery', settings: { cover: guidOf('Photo') } } });
      expect(gallery.body.data.settings).toEqual({ cover: guidOf('Photo'), cardFields: [] });
      const form = await svc.call('POST', viewsPath, { body: { name: 'Intake', kind: 'form', settings: { fields: [guidOf('Title'), guidOf('Due')], title: 'New task' } } });
      expect(form.body.data.settings).toEqual({ fields: [guidOf('Title'), guidOf('Due')], title: 'New task', description: '' });
      expect((await list()).map((view) => [view.name, view.kind])).toEqual([
        ['Grid view', 'grid'],
        ['Board', 'kanban'],
        ['Cards', 'gallery'],
        ['Intake', 'form'],
      ]);
      // the table object keeps the spec's view shape
      const tables = await svc.call('GET', `${API}/tables`, { query: { baseGuid: 'base-1' } });
      expect(tables.body.data[0].views[1]).toEqual({ viewGuid: kanban.body.data.viewGuid, name: 'Board', isDefault: false });
    });

    it('updates a grid view: multi-level sort, group by, hidden columns; renames it', async () => {
      const settings = {
        hiddenColumns: [guidOf('Photo')],
        columnOrder: [guidOf('Due')],
        sort: [{ columnGuid: guidOf('Status'), descending: false }, { columnGuid: guidOf('Due'), descending: true }],
        groupBy: guidOf('Status'),
      };
      const updated = await svc.call('PUT', `${viewsPath}/${table.defaultViewGuid}`, { body: { name: 'All tasks', settings } });
      expect(updated.status, updated.text).toBe(200);
      expect(updated.body.data).toMatchObject({ name: 'All tasks', kind: 'grid', isDefault: true, settings });
      expect((await list())[0]).toMatchObject({ name: 'All tasks', settings });
    });

    it("the row window of a grid view follows its saved sort levels; a sort in the query wins", async () => {
      await insertRows(svc, table.guid, [
        { Title: 'b', Status: 'Todo', Due: '2026-03-02' },
        { Title: 'a', Status: 'Done', Due: '2026-03-01' },
        { Title: 'c', Status: 'Todo', Due: '2026-03-03' },
        { Title: 'd', Status: 'Done', Due: '2026-03-04' },
        { Title: 'e' },
      ]);
      const sort = [{ columnGuid: guidOf('Status'), descending: false }, { columnGuid: guidOf('Due'), descending: true }];
      const view = (await svc.call('POST', viewsPath, { body: { name: 'Sorted', kind: 'grid', settings: { sort } } })).body.data;
      const titles = async (query: Record<string, string | number>) =>
        ((await svc.call('GET', `${API}/tables/${table.guid}/row-window`, { query: { start: 0, count: 10, ...query } })).body.data.rows as Array<{ valueMap: { Title: string } }>).map((row) => row.valueMap.Title);
      expect(await titles({ viewGuid: view.viewGuid })).toEqual(['d', 'a', 'c', 'b', 'e']);
      expect(await titles({ viewGuid: view.viewGuid, sortColumn: guidOf('Title'), sortOrder: 'desc' })).toEqual(['e', 'd', 'c', 'b', 'a']);
      expect(await titles({})).toEqual(['b', 'a', 'c', 'd', 'e']);
    });

    it('refuses settings that break a rule, with 1288xx codes, and writes nothing', async () => {
      const before = await list();
      const refusals: Array<[Record<string, unknown>, RegExp]> = [
        [{ name: 'B', kind: 'kanban', settings: { groupBy: guidOf('Title') } }, /SingleChoice/],
        [{ name: 'B', kind: 'gallery', settings: { cover: guidOf('Due') } }, /Attachment or SingleLineText/],
        [{ name: 'B', kind: 'grid', settings: { hiddenColumns: ['colNope'] } }, /not a column/],
        [{ name: 'B', kind: 'grid', settings: { sort: [{ columnGuid: guidOf('Due') }, { columnGuid: guidOf('Due'), descending: true }] } }, /sorted twice/],
        [{ name: 'B', kind: 'form', settings: { fields: [guidOf('Title'), guidOf('Title')] } }, /named twice/],
        [{ name: 'B', kind: 'form', settings: { title: 'x'.repeat(201) } }, /at most 200/],
        [{ name: 'B', kind: 'grid', settings: [] }, /must be an object/],
      ];
      for (const [body, message] of refusals) expectTableError(await svc.call('POST', viewsPath, { body }), 400, 128800, message);
      expectTableError(await svc.call('POST', viewsPath, { body: { name: 'B', kind: 'calendar' } }), 400, 70000);
      expectTableError(await svc.call('POST', viewsPath, { body: { name: 'Grid view', kind: 'form' } }), 409, 128801, /already exists/);
      expect(await list()).toEqual(before);
    });

    it('deletes views but never the default one; an unknown view is 70003', async () => {
      const board = (await svc.call('POST', viewsPath, { body: { name: 'Board', kind: 'kanban' } })).body.data;
      const cards = (await svc.call('POST', viewsPath, { body: { name: 'Cards', kind: 'gallery' } })).body.data;
      expectTableError(await svc.call('DELETE', `${viewsPath}/${table.defaultViewGuid}`), 409, 128802, /default view/);
      expect((await svc.call('DELETE', `${viewsPath}/${board.viewGuid}`)).status).toBe(200);
      expect((await list()).map((view) => view.viewGuid)).toEqual([table.defaultViewGuid, cards.viewGuid]);
      expectTableError(await svc.call('DELETE', `${viewsPath}/${board.viewGuid}`), 404, 70003);
      expectTableError(await svc.call('PUT', `${viewsPath}/${board.viewGuid}`, { body: { name: 'X' } }), 404, 70003);
      // a later view takes the freed position: creating one still succeeds and comes last
      const again = await svc.call('POST', viewsPath, { body: { name: 'Board', kind: 'kanban' } });
      expect((await list()).map((view) => view.viewGuid)).toEqual([table.defaultViewGuid, cards.viewGuid, again.body.data.viewGuid]);
    });

    it('a deleted or retyped column drops out of the views that named it', async () => {
      const board = (await svc.call('POST', viewsPath, { body: { name: 'Board', kind: 'kanban', settings: { groupBy: guidOf('Status'), cardFields: [guidOf('Due')] } } })).body.data;
      expect((await svc.call('DELETE', `${API}/tables/${table.guid}/columns/${guidOf('Due')}`)).status).toBe(200);
      expect((await svc.call('PUT', `${API}/tables/${table.guid}/columns/${guidOf('Status')}`, { body: { type: 'SingleLineText' } })).status).toBe(200);
      const [, after] = await list();
      expect(after).toEqual({ ...board, settings: { groupBy: null, cardFields: [] } });
    });

    it('readers list views; writes need editable', async () => {
      svc.integrator.grant('base-1', DEFAULT_USER.id, { readable: true, editable: false });
      svc.services.access.forget();
      expect((await svc.call('GET', viewsPath)).status).toBe(200);
      expectTableError(await svc.call('POST', viewsPath, { body: { name: 'B', kind: 'grid' } }), 403, 20000);
    });
  });
}
