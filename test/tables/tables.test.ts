import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases.js';
import { startService, type TestService } from '../support/service.js';
import { API, createBase, createTable, expectTableError } from './helpers.js';

for (const database of testDatabases()) {
  describe(`table API: tables [${database.name}]`, () => {
    let svc: TestService;
    beforeEach(async () => {
      svc = await startService(database, { integrator: true });
    });
    afterEach(async () => svc.close());

    it('creates a table with its columns, a default view and three empty rows', async () => {
      const base = await createBase(svc);
      const response = await svc.call('POST', `${API}/tables`, {
        body: {
          baseGuid: base,
          name: 'Projects',
          cols: [
            { name: 'Title', type: 'SingleLineText' },
            { name: 'Budget', type: 'Number', props: { precision: 2 } },
            { name: 'Done', type: 'CheckBox', props: { type: 'star' } },
            { name: 'Stars', type: 'Rate', props: { count: 3, icon: 'heart' } },
          ],
        },
      });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ code: 0, msg: 'success' });
      const table = response.body.data;
      expect(table).toMatchObject({ baseGuid: base, name: 'Projects' });
      expect(table.guid).toMatch(/^tbl/);
      expect(table.views).toEqual([{ viewGuid: table.defaultViewGuid, name: 'Grid view', isDefault: true }]);
      expect(table.columns.map((c: { name: string; type: string; isPrimary: boolean }) => [c.name, c.type, c.isPrimary])).toEqual([
        ['Title', 'SingleLineText', true],
        ['Budget', 'Number', false],
        ['Done', 'CheckBox', false],
        ['Stars', 'Rate', false],
      ]);
      expect(table.columns[1].props).toEqual({ precision: 2 });
      expect(table.columns[2].props).toEqual({ type: 'star' });
      expect(table.columns[3].props).toEqual({ count: 3, icon: 'heart' });

      const rows = await svc.call('GET', `${API}/tables/${table.guid}/rows`);
      expect(rows.body.data.rows).toHaveLength(3);
      expect(rows.body.data.rows.every((row: { valueMap: object }) => Object.keys(row.valueMap).length === 0)).toBe(true);
      expect(rows.body.data.viewGuid).toBe(table.defaultViewGuid);
    });

    it('starts empty with withoutInitRows, and numbers rows with an AutoNumber primary column', async () => {
      const base = await createBase(svc);
      const empty = await createTable(svc, base, [{ name: 'Name', type: 'SingleLineText' }], { withoutInitRows: true, name: 'Empty' });
      expect((await svc.call('GET', `${API}/tables/${empty.guid}/rows`)).body.data).toMatchObject({ rows: [], offset: null });

      const numbered = await createTable(svc, base, [{ name: 'No', type: 'AutoNumber' }, { name: 'Name', type: 'SingleLineText' }], {
        withoutInitRows: false,
        name: 'Numbered',
      });
      const rows = (await svc.call('GET', `${API}/tables/${numbered.guid}/rows`)).body.data.rows;
      expect(rows.map((row: { valueMap: { No: number } }) => row.valueMap.No)).toEqual([1, 2, 3]);
    });

    it('lists the tables of a base, by baseGuid or base_guid, with views and columns', async () => {
      const base = await createBase(svc);
      const first = await createTable(svc, base, [{ name: 'A', type: 'SingleLineText' }], { name: 'First' });
      const second = await createTable(svc, base, [{ name: 'B', type: 'Number' }], { name: 'Second' });
      const other = await createBase(svc, 'base-2');
      await createTable(svc, other, [{ name: 'C', type: 'Date' }], { name: 'Elsewhere' });

      for (const key of ['baseGuid', 'base_guid']) {
        const list = await svc.call('GET', `${API}/tables`, { query: { [key]: base } });
        expect(list.status).toBe(200);
        expect(list.body.data.map((t: { guid: string }) => t.guid)).toEqual([first.guid, second.guid]);
        expect(list.body.data[0].defaultViewGuid).toBe(first.defaultViewGuid);
        expect(list.body.data[1].columns[0]).toMatchObject({ name: 'B', type: 'Number', isPrimary: true });
      }
      const none = await svc.call('GET', `${API}/tables`, { query: { baseGuid: await createBase(svc, 'base-3') } });
      expect(none.body.data).toEqual([]);
    });

    it('answers 70000 when baseGuid is missing or empty', async () => {
      expectTableError(await svc.call('GET', `${API}/tables`), 400, 70000, /baseGuid/);
      expectTableError(await svc.call('GET', `${API}/tables`, { query: { baseGuid: '' } }), 400, 70000);
      expectTableError(await svc.call('GET', `${API}/tables`, { query: { base_guid: '' } }), 400, 70000);
    });

    it('answers 70001 for a base that does not exist or is not a table', async () => {
      expectTableError(await svc.call('GET', `${API}/tables`, { query: { baseGuid: 'nope' } }), 404, 70001);
      await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'document', fileId: 'doc-1' } });
      expectTableError(await svc.call('GET', `${API}/tables`, { query: { baseGuid: 'doc-1' } }), 404, 70001, /not a table/);
      const create = await svc.call('POST', `${API}/tables`, { body: { baseGuid: 'doc-1', name: 'T', cols: [{ name: 'A', type: 'SingleLineText' }] } });
      expectTableError(create, 404, 70001);
      const missing = await svc.call('POST', `${API}/tables`, { body: { baseGuid: 'nope', name: 'T', cols: [{ name: 'A', type: 'SingleLineText' }] } });
      expectTableError(missing, 404, 70001);
    });

    it('validates create-table input with 70000 and writes nothing', async () => {
      const base = await createBase(svc);
      const col = { name: 'A', type: 'SingleLineText' };
      const cases: [unknown, RegExp?][] = [
        [{ name: 'T', cols: [col] }, /baseGuid/],
        [{ baseGuid: base, cols: [col] }, /name/],
        [{ baseGuid: base, name: '', cols: [col] }],
        [{ baseGuid: base, name: 'x'.repeat(32), cols: [col] }],
        [{ baseGuid: base, name: 'T' }, /cols/],
        [{ baseGuid: base, name: 'T', cols: [] }],
        [{ baseGuid: base, name: 'T', cols: [null] }],
        [{ baseGuid: base, name: 'T', cols: [col, null] }],
        [{ baseGuid: base, name: 'T', cols: [{ name: 'A', type: 'CheckBox' }] }, /primary/],
        [{ baseGuid: base, name: 'T', cols: [{ name: 'A', type: 'Rate' }] }, /primary/],
        [{ baseGuid: base, name: 'T', cols: [{ name: 'A', type: 'MultipleChoice' }] }, /primary/],
        [{ baseGuid: base, name: 'T', cols: [col, { name: 'B', type: 'CheckBox', props: { type: 'heart' } }] }, /check, star, close/],
        [{ baseGuid: base, name: 'T', cols: [col, { name: 'B', type: 'Rate', props: { count: 0 } }] }, /count/],
        [{ baseGuid: base, name: 'T', cols: [col, { name: 'B', type: 'Rate', props: { count: 11 } }] }, /count/],
        [{ baseGuid: base, name: 'T', cols: [col, { name: 'B', type: 'Rate', props: { count: 2.5 } }] }, /count/],
        [{ baseGuid: base, name: 'T', cols: [col, { name: 'B', type: 'Rate', props: { icon: 'moon' } }] }, /icon/],
        [{ baseGuid: base, name: 'T', cols: [col, { name: 'B', type: 'Number', props: { precision: -1 } }] }, /precision/],
        [{ baseGuid: base, name: 'T', cols: [col, { name: 'B', type: 'Blob' }] }, /Blob/],
        [{ baseGuid: base, name: 'T', cols: [col, { name: 'B', type: 'AutoNumber' }] }, /AutoNumber/],
        [{ baseGuid: base, name: 'T', cols: [col, { name: 'A', type: 'Number' }] }, /duplicate/],
        [{ baseGuid: base, name: 'T', cols: [col, { name: '', type: 'Number' }] }],
        [{ baseGuid: base, name: 'T', cols: [col, { name: 'x'.repeat(101), type: 'Number' }] }],
        [{ baseGuid: base, name: 'T', cols: [col, { name: 'S', type: 'SingleChoice', props: { options: [{ name: 'a' }, { name: 'a' }] } }] }, /duplicate/],
        [{ baseGuid: base, name: 'T', cols: [col, { name: 'L', type: 'Link', props: { tableGuid: 'tblNope' } }] }, /not a table of this base/],
        [{ baseGuid: base, name: 12, cols: [col] }],
        [{ baseGuid: base, name: 'T', withoutInitRows: 'yes', cols: [col] }],
        [[]],
      ];
      for (const [body, message] of cases) {
        const response = await svc.call('POST', `${API}/tables`, { body });
        expectTableError(response, 400, 70000, message);
      }
      expectTableError(await svc.call('POST', `${API}/tables`, { rawBody: '{"baseGuid": "base-1",' }), 400, 70000, /JSON/);
      expect((await svc.call('GET', `${API}/tables`, { query: { baseGuid: base } })).body.data).toEqual([]);
    });

    it('accepts names of exactly 31 and 100 characters, and refuses a second table of the same name', async () => {
      const base = await createBase(svc);
      await createTable(svc, base, [{ name: 'x'.repeat(100), type: 'SingleLineText' }], { name: 'n'.repeat(31) });
      const again = await svc.call('POST', `${API}/tables`, { body: { baseGuid: base, name: 'n'.repeat(31), cols: [{ name: 'A', type: 'Number' }] } });
      expectTableError(again, 400, 70000, /already exists/);
    });

    it('deletes the tables of a base with the base file', async () => {
      const base = await createBase(svc);
      const table = await createTable(svc, base, [{ name: 'A', type: 'SingleLineText' }], { withoutInitRows: false });
      expect((await svc.call('DELETE', `/sdk/v2/api/files/${base}`)).status).toBe(200);
      expectTableError(await svc.call('GET', `${API}/tables/${table.guid}/rows`), 404, 70002);
      expectTableError(await svc.call('GET', `${API}/tables`, { query: { baseGuid: base } }), 404, 70001);
      const left = await svc.services.storage.db.selectFrom('table_rows').select('guid').where('table_guid', '=', table.guid).execute();
      expect(left).toEqual([]);
    });

    it('documents every table endpoint in the OpenAPI document, with signature and token required', async () => {
      const spec = (await svc.call('GET', '/openapi.json', { signature: null, token: null })).body;
      const operations = Object.entries(spec.paths as Record<string, Record<string, { security?: unknown[] }>>)
        .filter(([path]) => path.startsWith(API))
        .flatMap(([path, methods]) => Object.entries(methods).map(([method, operation]) => ({ at: `${method.toUpperCase()} ${path.slice(API.length)}`, operation })));
      expect(operations.map((o) => o.at).sort()).toEqual(
        [
          'GET /tables',
          'POST /tables',
          'GET /tables/{guid}/columns',
          'POST /tables/{guid}/columns',
          'PUT /tables/{guid}/columns/{colGuid}',
          'DELETE /tables/{guid}/columns/{colGuid}',
          'GET /tables/{guid}/rows',
          'GET /tables/{guid}/row-window',
          'POST /tables/{guid}/rows',
          'GET /tables/{guid}/rows/{rowGuid}',
          'PATCH /tables/{guid}/rows/{rowGuid}',
          'DELETE /tables/{guid}/rows/{rowGuid}',
          'GET /tables/{guid}/views',
          'POST /tables/{guid}/views',
          'PUT /tables/{guid}/views/{viewGuid}',
          'DELETE /tables/{guid}/views/{viewGuid}',
        ].sort(),
      );
      for (const { operation } of operations) expect(operation.security).toEqual([{ signature: [], token: [] }]);
    });

    it('links tables of the same base, including itself', async () => {
      const base = await createBase(svc);
      const people = await createTable(svc, base, [{ name: 'Name', type: 'SingleLineText' }], { name: 'People' });
      const tasks = await createTable(svc, base, [{ name: 'Title', type: 'SingleLineText' }, { name: 'Owner', type: 'Link', props: { tableGuid: people.guid } }]);
      expect(tasks.columns[1]!.props).toEqual({ tableGuid: people.guid });
      const other = await createBase(svc, 'base-2');
      const foreign = await svc.call('POST', `${API}/tables`, {
        body: { baseGuid: other, name: 'X', cols: [{ name: 'A', type: 'SingleLineText' }, { name: 'L', type: 'Link', props: { tableGuid: people.guid } }] },
      });
      expectTableError(foreign, 400, 70000, /not a table of this base/);
    });
  });
}
