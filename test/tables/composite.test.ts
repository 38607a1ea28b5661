import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases.js';
import { DEFAULT_USER, eventually } from '../support/integrator.js';
import { startService, type TestService } from '../support/service.js';
import { allRows, API, createBase, createTable, insertRows } from './helpers.js';

for (const database of testDatabases()) {
  describe(`table API: FileContent events and the composite operations of spec 4.5 [${database.name}]`, () => {
    let svc: TestService;
    let base: string;
    beforeEach(async () => {
      svc = await startService(database, { integrator: true });
      base = await createBase(svc);
    });
    afterEach(async () => svc.close());

    const contentEvents = () => svc.integrator.events.filter((event) => event.eventClass === 'FileContent' && event.body.fileId === base);

    it('emits one FileContent event per write request (not per row), with the growing version; reads emit none', async () => {
      const table = await createTable(svc, base, [{ name: 'Name', type: 'SingleLineText' }, { name: 'N', type: 'Number' }]);
      const t = `${API}/tables/${table.guid}`;
      const rows = await insertRows(svc, table.guid, Array.from({ length: 500 }, (_, i) => ({ Name: `r${i}` })));
      await svc.call('PATCH', `${t}/rows/${rows[0]!.guid}`, { body: { valueMap: { N: 1 } } });
      await svc.call('DELETE', `${t}/rows/${rows[1]!.guid}`);
      const column = await svc.call('POST', `${t}/columns`, { body: { name: 'C', type: 'Number', viewGuid: table.defaultViewGuid } });
      await svc.call('PUT', `${t}/columns/${column.body.data.guid}`, { body: { name: 'D' } });
      await svc.call('DELETE', `${t}/columns/${column.body.data.guid}`);
      // reads and refused writes change nothing
      await svc.call('GET', `${t}/rows`);
      await svc.call('GET', `${t}/columns`);
      await svc.call('GET', `${API}/tables`, { query: { baseGuid: base } });
      await svc.call('POST', `${t}/rows`, { body: { rows: [{ N: 'bad' }] } });

      const writes = 7; // create table, insert, patch, delete row, create/update/delete column
      await eventually(() => contentEvents().length >= writes, `${writes} FileContent events`);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const events = contentEvents();
      expect(events).toHaveLength(writes);
      expect(events.map((event) => (event.body.fileContent as { version: number }).version)).toEqual([1, 2, 3, 4, 5, 6, 7]);
      for (const event of events) {
        expect(event.body).toMatchObject({ kind: 'fileContent', action: 'update', fileId: base, userId: DEFAULT_USER.id });
        expect(event.credentialType).toBe('3');
      }
    });

    it('column type conversion (4.5 rule 1): GET columns and rows, PUT the column, PATCH each row', async () => {
      const table = await createTable(svc, base, [{ name: 'Name', type: 'SingleLineText' }, { name: 'Level', type: 'SingleLineText' }]);
      const t = `${API}/tables/${table.guid}`;
      await insertRows(svc, table.guid, [{ Name: 'a', Level: '3' }, { Name: 'b', Level: '5' }, { Name: 'c' }]);

      const columns = (await svc.call('GET', `${t}/columns`)).body.data;
      const level = columns.find((column: { name: string }) => column.name === 'Level');
      const rows = await allRows(svc, table.guid);
      const converted = rows.filter((row) => typeof row.valueMap.Level === 'string').map((row) => ({ guid: row.guid, value: Number(row.valueMap.Level) }));
      expect((await svc.call('PUT', `${t}/columns/${level.guid}`, { body: { type: 'Rate', props: { count: 5 } } })).status).toBe(200);
      // until PATCHed, the old text values are still there, unconverted
      expect((await allRows(svc, table.guid)).map((row) => row.valueMap.Level)).toEqual(['3', '5', undefined]);
      for (const { guid, value } of converted) {
        expect((await svc.call('PATCH', `${t}/rows/${guid}`, { body: { valueMap: { Level: value } } })).status).toBe(200);
      }
      expect((await allRows(svc, table.guid)).map((row) => row.valueMap.Level)).toEqual([3, 5, undefined]);
    });

    it('props change that invalidates values (4.5 rule 2): delete an option, then PATCH only the affected rows', async () => {
      const table = await createTable(svc, base, [
        { name: 'Name', type: 'SingleLineText' },
        { name: 'Tags', type: 'MultipleChoice', props: { options: [{ name: 'keep' }, { name: 'drop' }] } },
      ]);
      const t = `${API}/tables/${table.guid}`;
      await insertRows(svc, table.guid, [{ Name: 'a', Tags: ['keep', 'drop'] }, { Name: 'b', Tags: ['keep'] }, { Name: 'c', Tags: ['drop'] }]);
      const affected = (await allRows(svc, table.guid)).filter((row) => (row.valueMap.Tags as string[] | undefined)?.includes('drop'));
      const tags = table.columns[1]!;
      await svc.call('PUT', `${t}/columns/${tags.guid}`, { body: { props: { options: [{ name: 'keep' }] } } });
      // the stale option is still stored; writing it again is refused
      expect((await svc.call('PATCH', `${t}/rows/${affected[0]!.guid}`, { body: { valueMap: { Tags: ['drop'] } } })).status).toBe(400);
      for (const row of affected) {
        const fixed = (row.valueMap.Tags as string[]).filter((tag) => tag !== 'drop');
        await svc.call('PATCH', `${t}/rows/${row.guid}`, { body: { valueMap: { Tags: fixed.length ? fixed : null } } });
      }
      expect((await allRows(svc, table.guid)).map((row) => row.valueMap.Tags)).toEqual([['keep'], ['keep'], undefined]);
    });

    it('delete column (rule 3), delete rows children first (rule 4), clear a cell (rule 5), add column and row with values (rule 6)', async () => {
      const parents = await createTable(svc, base, [{ name: 'Name', type: 'SingleLineText' }], { name: 'Parents' });
      const children = await createTable(svc, base, [
        { name: 'Name', type: 'SingleLineText' },
        { name: 'Parent', type: 'Link', props: { tableGuid: parents.guid } },
        { name: 'Note', type: 'LongText' },
      ], { name: 'Children' });
      const [parent] = await insertRows(svc, parents.guid, [{ Name: 'P' }]);
      const kids = await insertRows(svc, children.guid, [
        { Name: 'c1', Parent: [parent!.guid], Note: 'x' },
        { Name: 'c2', Parent: [parent!.guid] },
      ]);
      const c = `${API}/tables/${children.guid}`;

      // rule 5: clear one cell with null
      expect((await svc.call('PATCH', `${c}/rows/${kids[0]!.guid}`, { body: { valueMap: { Note: null } } })).body.data.valueMap).toEqual({ Name: 'c1', Parent: [parent!.guid] });
      // rule 3: one call, no row updates
      const before = await allRows(svc, children.guid);
      expect((await svc.call('DELETE', `${c}/columns/${children.columns[2]!.guid}`)).status).toBe(200);
      expect(await allRows(svc, children.guid)).toEqual(before);
      // rule 6: a new column and a row carrying its value, two calls
      await svc.call('POST', `${c}/columns`, { body: { name: 'Age', type: 'Number', viewGuid: children.defaultViewGuid } });
      const [c3] = await insertRows(svc, children.guid, [{ Name: 'c3', Age: 4, Parent: [parent!.guid] }]);
      expect(c3!.valueMap).toEqual({ Name: 'c3', Parent: [parent!.guid], Age: 4 });
      // rule 4: children first, then the parent, one call per row
      for (const kid of [...kids, c3!]) expect((await svc.call('DELETE', `${c}/rows/${kid.guid}`)).status).toBe(200);
      expect((await svc.call('DELETE', `${API}/tables/${parents.guid}/rows/${parent!.guid}`)).status).toBe(200);
      expect(await allRows(svc, children.guid)).toEqual([]);
      expect(await allRows(svc, parents.guid)).toEqual([]);
    });

    it('keeps concurrent PATCHes of one row: every cell written survives', async () => {
      const names = Array.from({ length: 8 }, (_, i) => `C${i}`);
      const table = await createTable(svc, base, [{ name: 'Name', type: 'SingleLineText' }, ...names.map((name) => ({ name, type: 'Number' }))]);
      const [row] = await insertRows(svc, table.guid, [{ Name: 'x' }]);
      await Promise.all(names.map((name, i) => svc.call('PATCH', `${API}/tables/${table.guid}/rows/${row!.guid}`, { body: { valueMap: { [name]: i } } })));
      const read = (await svc.call('GET', `${API}/tables/${table.guid}/rows/${row!.guid}`)).body.data.valueMap;
      expect(read).toEqual({ Name: 'x', ...Object.fromEntries(names.map((name, i) => [name, i])) });
    });

    it('treats a column named __proto__ as an ordinary name', async () => {
      const table = await createTable(svc, base, [{ name: 'Name', type: 'SingleLineText' }, { name: 'constructor', type: 'Number' }]);
      const [row] = await insertRows(svc, table.guid, [{ Name: 'a', constructor: 2 }]);
      expect(row!.valueMap).toEqual({ Name: 'a', constructor: 2 });
      await svc.call('PUT', `${API}/tables/${table.guid}/columns/${table.columns[1]!.guid}`, { body: { name: '__proto__' } });
      const read = await svc.call('GET', `${API}/tables/${table.guid}/rows/${row!.guid}`);
      expect(read.text).toContain('"__proto__":2');
      // and it is written like any other column, by PATCH and by create rows
      const headers = { 'content-type': 'application/json' };
      const patched = await svc.call('PATCH', `${API}/tables/${table.guid}/rows/${row!.guid}`, { rawBody: '{"valueMap": {"__proto__": 5}}', headers });
      expect(patched.status, patched.text).toBe(200);
      expect(patched.text).toContain('"__proto__":5');
      const created = await svc.call('POST', `${API}/tables/${table.guid}/rows`, { rawBody: '{"rows": [{"Name": "b", "__proto__": 7}]}', headers });
      expect(created.status, created.text).toBe(200);
      expect(created.text).toContain('"__proto__":7');
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      const polluting = await svc.call('POST', `${API}/tables/${table.guid}/rows`, { rawBody: '{"rows": [{"constructor": {"prototype": {"x": 1}}}]}', headers });
      expect(polluting.status).toBe(400);
      expect(polluting.body.code).toBe(70000);
    });
  });
}
