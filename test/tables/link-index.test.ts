import type { Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tableLinks } from '../../src/storage/migrations/0014-table-links.js';
import { testDatabases } from '../support/databases.js';
import { startService, type TestService } from '../support/service.js';
import { allRows, API, createBase, createTable, insertRows, type CreatedTable } from './helpers.js';

/** The Link index as stored: "row -> column -> target" triples, sorted. */
async function indexed(svc: TestService): Promise<string[]> {
  const rows = await svc.services.storage.db.selectFrom('table_links').selectAll().execute();
  return rows.map((row) => `${row.row_guid} ${row.column_guid} ${row.target_row_guid}`).sort();
}

for (const database of testDatabases()) {
  describe(`table API: the Link index [${database.name}]`, () => {
    let svc: TestService;
    let people: CreatedTable;
    let tasks: CreatedTable;
    let owner: string;
    let bob: string;
    let ann: string;
    beforeEach(async () => {
      svc = await startService(database, { integrator: true });
      const base = await createBase(svc);
      people = await createTable(svc, base, [{ name: 'Name', type: 'SingleLineText' }], { name: 'People' });
      tasks = await createTable(svc, base, [{ name: 'Title', type: 'SingleLineText' }], { name: 'Tasks' });
      const added = await svc.call('POST', `${API}/tables/${tasks.guid}/columns`, { body: { name: 'Owner', type: 'Link', props: { tableGuid: people.guid }, viewGuid: tasks.defaultViewGuid } });
      expect(added.status, added.text).toBe(200);
      owner = added.body.data.guid;
      [bob, ann] = (await insertRows(svc, people.guid, [{ Name: 'Bob' }, { Name: 'Ann' }])).map((row) => row.guid) as [string, string];
    });
    afterEach(async () => {
      await svc.close();
    });

    it('follows inserts and updates of Link cells, and a deleted linking row takes its entries along', async () => {
      const [first, second] = await insertRows(svc, tasks.guid, [{ Title: 'a', Owner: [bob, ann] }, { Title: 'b', Owner: [bob] }]);
      expect(await indexed(svc)).toEqual([`${first!.guid} ${owner} ${ann}`, `${first!.guid} ${owner} ${bob}`, `${second!.guid} ${owner} ${bob}`].sort());
      await svc.call('PATCH', `${API}/tables/${tasks.guid}/rows/${first!.guid}`, { body: { valueMap: { Owner: [ann] } } });
      await svc.call('PATCH', `${API}/tables/${tasks.guid}/rows/${second!.guid}`, { body: { valueMap: { Owner: null } } });
      expect(await indexed(svc)).toEqual([`${first!.guid} ${owner} ${ann}`]);
      // A PATCH of other cells leaves the row's Link entries as they are.
      await svc.call('PATCH', `${API}/tables/${tasks.guid}/rows/${first!.guid}`, { body: { valueMap: { Title: 'renamed' } } });
      expect(await indexed(svc)).toEqual([`${first!.guid} ${owner} ${ann}`]);
      // Bob is named by no cell now: deleting him changes no task.
      expect((await svc.call('DELETE', `${API}/tables/${people.guid}/rows/${bob}`)).status).toBe(200);
      expect((await allRows(svc, tasks.guid)).map((row) => row.valueMap)).toEqual([{ Title: 'renamed', Owner: [ann] }, { Title: 'b' }]);
      expect((await svc.call('DELETE', `${API}/tables/${tasks.guid}/rows/${first!.guid}`)).status).toBe(200);
      expect(await indexed(svc)).toEqual([]);
    });

    it('a row that links to itself goes with its own cells; the rows it named lose nothing', async () => {
      const buddy = await svc.call('POST', `${API}/tables/${people.guid}/columns`, { body: { name: 'Buddy', type: 'Link', props: { tableGuid: people.guid }, viewGuid: people.defaultViewGuid } });
      expect(buddy.status, buddy.text).toBe(200);
      await svc.call('PATCH', `${API}/tables/${people.guid}/rows/${bob}`, { body: { valueMap: { Buddy: [bob, ann] } } });
      await svc.call('PATCH', `${API}/tables/${people.guid}/rows/${ann}`, { body: { valueMap: { Buddy: [bob] } } });
      expect((await svc.call('DELETE', `${API}/tables/${people.guid}/rows/${bob}`)).status).toBe(200);
      expect((await allRows(svc, people.guid)).map((row) => row.valueMap)).toEqual([{ Name: 'Ann' }]);
      expect(await indexed(svc)).toEqual([]);
    });

    it('a column leaving the Link type leaves the index; coming back indexes its cells again', async () => {
      const [task] = await insertRows(svc, tasks.guid, [{ Title: 'a', Owner: [bob] }]);
      const columnPath = `${API}/tables/${tasks.guid}/columns/${owner}`;
      expect((await svc.call('PUT', columnPath, { body: { type: 'SingleLineText' } })).status).toBe(200);
      expect(await indexed(svc)).toEqual([]);
      expect((await svc.call('PUT', columnPath, { body: { type: 'Link', props: { tableGuid: people.guid } } })).status).toBe(200);
      expect(await indexed(svc)).toEqual([`${task!.guid} ${owner} ${bob}`]);
      expect((await svc.call('DELETE', `${API}/tables/${people.guid}/rows/${bob}`)).status).toBe(200);
      expect((await allRows(svc, tasks.guid)).map((row) => row.valueMap)).toEqual([{ Title: 'a' }]);
      // A deleted column's entries go with it (its cells stay in the rows, unreachable).
      await svc.call('PATCH', `${API}/tables/${tasks.guid}/rows/${task!.guid}`, { body: { valueMap: { Owner: [ann] } } });
      expect((await svc.call('DELETE', columnPath)).status).toBe(200);
      expect(await indexed(svc)).toEqual([]);
    });

    it('the migration indexes the Link cells already stored', async () => {
      const [first, second] = await insertRows(svc, tasks.guid, [{ Title: 'a', Owner: [bob, ann] }, { Title: 'b', Owner: [ann] }]);
      const before = await indexed(svc);
      expect(before).toHaveLength(3);
      const db = svc.services.storage.db as unknown as Kysely<unknown>;
      await tableLinks.down!(db);
      await tableLinks.up(db);
      expect(await indexed(svc)).toEqual(before);
      expect((await svc.call('DELETE', `${API}/tables/${people.guid}/rows/${ann}`)).status).toBe(200);
      const rows = new Map((await allRows(svc, tasks.guid)).map((row) => [row.guid, row.valueMap]));
      expect(rows.get(first!.guid)).toEqual({ Title: 'a', Owner: [bob] });
      expect(rows.get(second!.guid)).toEqual({ Title: 'b' });
    });
  });
}
