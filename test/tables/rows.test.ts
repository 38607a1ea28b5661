import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases.js';
import { startService, type TestService } from '../support/service.js';
import { allRows, API, createBase, createTable, expectTableError, insertRows, type CreatedTable } from './helpers.js';

const COLUMNS = [
  { name: 'Title', type: 'SingleLineText' },
  { name: 'Notes', type: 'LongText' },
  { name: 'Amount', type: 'Number', props: { precision: 2 } },
  { name: 'Share', type: 'Percent', props: { precision: 1 } },
  { name: 'Due', type: 'Date' },
  { name: 'Status', type: 'SingleChoice', props: { options: [{ name: 'Open' }, { name: 'Done' }] } },
  { name: 'Tags', type: 'MultipleChoice', props: { options: [{ name: 'red' }, { name: 'blue' }] } },
  { name: 'Checked', type: 'CheckBox' },
  { name: 'Stars', type: 'Rate', props: { count: 3 } },
  { name: 'Place', type: 'Cascade', props: { options: [{ name: 'Europe', children: [{ name: 'France', children: [{ name: 'Paris' }] }] }] } },
];

for (const database of testDatabases()) {
  describe(`table API: rows [${database.name}]`, () => {
    let svc: TestService;
    let base: string;
    let table: CreatedTable;
    let rowsPath: string;
    beforeEach(async () => {
      svc = await startService(database, { integrator: true });
      base = await createBase(svc);
      table = await createTable(svc, base, COLUMNS);
      rowsPath = `${API}/tables/${table.guid}/rows`;
    });
    afterEach(async () => svc.close());

    it('stores a value of every type and reads it back in its documented form', async () => {
      const people = await createTable(svc, base, [{ name: 'Name', type: 'SingleLineText' }], { name: 'People' });
      const [alice] = await insertRows(svc, people.guid, [{ Name: 'Alice' }]);
      await svc.call('POST', `${API}/tables/${table.guid}/columns`, {
        body: { name: 'Owner', type: 'Link', props: { tableGuid: people.guid }, viewGuid: table.defaultViewGuid },
      });
      const created = await svc.call('POST', rowsPath, {
        body: {
          rows: [
            {
              Title: 'First',
              Notes: 'line 1\nline 2',
              Amount: 12.345,
              Share: 0.12345,
              Due: '2024-05-01T08:30:00+02:00',
              Status: 'Open',
              Tags: ['red', 'blue', 'red'],
              Checked: true,
              Stars: 3,
              Place: ['Europe', 'France'],
              Owner: [alice!.guid],
            },
            { Title: 'Second', Due: 1714545000000, Amount: -0.004, Checked: false, Tags: [], Stars: 0 },
          ],
        },
      });
      expect(created.status, created.text).toBe(200);
      expect(created.body.code).toBe(0);
      const [first, second] = created.body.data.rows;
      expect(created.body.data).toMatchObject({ offset: null, viewGuid: table.defaultViewGuid });
      expect(first.guid).toMatch(/^row/);
      expect(first.valueMap).toEqual({
        Title: 'First',
        Notes: 'line 1\nline 2',
        Amount: 12.35,
        Share: 0.123,
        Due: '2024-05-01T06:30:00.000Z',
        Status: 'Open',
        Tags: ['red', 'blue'],
        Checked: true,
        Stars: 3,
        Place: ['Europe', 'France'],
        Owner: [alice!.guid],
      });
      expect(second.valueMap).toEqual({ Title: 'Second', Due: '2024-05-01T06:30:00.000Z', Amount: 0, Stars: 0 });
      const read = await svc.call('GET', `${rowsPath}/${first.guid}`);
      expect(read.body).toEqual({ code: 0, msg: 'success', data: first });
    });

    it('reads back text that looks like stored JSON keys exactly, and leaves out cells of deleted columns', async () => {
      const guid = table.columns[1]!.guid;
      const tricky = [
        `x","${guid}":1,"`,
        `{"${guid}":"y"}`,
        `\\",{"${guid}":`,
        '\u0022 "quoted" \\ back\\slash \u2028 \u00e9 \ud83d\ude00',
        `,"${table.columns[0]!.guid}":`,
      ];
      const expected = (withNotes: boolean) => tricky.map((text) => (withNotes ? { Title: text, Notes: text, Tags: ['red'] } : { Title: text, Tags: ['red'] }));
      const created = await insertRows(svc, table.guid, tricky.map((text) => ({ Title: text, Notes: text, Tags: ['red'] })));
      expect(created.map((row) => row.valueMap)).toEqual(expected(true));
      expect((await allRows(svc, table.guid)).map((row) => row.valueMap)).toEqual(expected(true));

      await svc.call('DELETE', `${API}/tables/${table.guid}/columns/${guid}`);
      expect((await allRows(svc, table.guid)).map((row) => row.valueMap)).toEqual(expected(false));
    });

    it('refuses a bad value with 70000 naming the row index and the column, and writes nothing of the request', async () => {
      const cases: [Record<string, unknown>, RegExp][] = [
        [{ Title: 5 }, /column "Title".*string/],
        [{ Notes: ['x'] }, /column "Notes"/],
        [{ Amount: '12' }, /column "Amount".*finite number/],
        [{ Share: true }, /column "Share"/],
        [{ Due: '2024-02-30' }, /column "Due".*ISO 8601/],
        [{ Due: 'yesterday' }, /column "Due"/],
        [{ Due: 1.5 }, /column "Due"/],
        [{ Status: 'Closed' }, /column "Status".*unknown option "Closed"/],
        [{ Status: ['Open'] }, /column "Status"/],
        [{ Tags: 'red' }, /column "Tags".*array/],
        [{ Tags: ['green'] }, /column "Tags".*unknown option "green"/],
        [{ Checked: 'yes' }, /column "Checked".*true or false/],
        [{ Stars: 4 }, /column "Stars".*0 to 3/],
        [{ Stars: 1.5 }, /column "Stars"/],
        [{ Stars: -1 }, /column "Stars"/],
        [{ Place: ['France'] }, /column "Place".*not an option at the top level/],
        [{ Place: ['Europe', 'Spain'] }, /column "Place".*under "Europe"/],
        [{ Place: 'Europe' }, /column "Place"/],
        [{ Nope: 1 }, /unknown column "Nope"/],
        [{ Title: 'x'.repeat(10_001) }, /at most 10000/],
      ];
      for (const [bad, message] of cases) {
        const response = await svc.call('POST', rowsPath, { body: { rows: [{ Title: 'fine' }, { Title: 'fine too' }, bad] } });
        expectTableError(response, 400, 70000, /rows\[2\]/);
        expect(response.body.message, JSON.stringify(bad)).toMatch(message);
      }
      expect(await allRows(svc, table.guid)).toEqual([]);
    });

    it('refuses writes to read-only AutoNumber and Attachment cells, null included', async () => {
      const numbered = await createTable(svc, base, [{ name: 'No', type: 'AutoNumber' }, { name: 'Name', type: 'SingleLineText' }], { name: 'Numbered' });
      const path = `${API}/tables/${numbered.guid}/rows`;
      expectTableError(await svc.call('POST', path, { body: { rows: [{ No: 5 }] } }), 400, 70000, /rows\[0\], column "No".*read-only/);
      expectTableError(await svc.call('POST', path, { body: { rows: [{ No: null }] } }), 400, 70000, /read-only/);
      const [row] = await insertRows(svc, numbered.guid, [{ Name: 'a' }]);
      expect(row!.valueMap).toEqual({ No: 1, Name: 'a' });
      expectTableError(await svc.call('PATCH', `${path}/${row!.guid}`, { body: { valueMap: { No: 2 } } }), 400, 70000, /read-only/);
      // Attachment columns are filled by the editors only; the API can neither create nor write them.
      await svc.services.storage.db.updateTable('table_columns').set({ type: 'Attachment' }).where('name', '=', 'Name').execute();
      await svc.services.storage.db.updateTable('table_tables').set((eb) => ({ schema_version: eb('schema_version', '+', 1) })).execute();
      expectTableError(await svc.call('POST', path, { body: { rows: [{ Name: [] }] } }), 400, 70000, /Attachment.*read-only/);
    });

    it('checks that Link cells name rows of the linked table', async () => {
      const people = await createTable(svc, base, [{ name: 'Name', type: 'SingleLineText' }], { name: 'People' });
      const [bob] = await insertRows(svc, people.guid, [{ Name: 'Bob' }]);
      const [task] = await insertRows(svc, table.guid, [{ Title: 'task' }]);
      await svc.call('POST', `${API}/tables/${table.guid}/columns`, {
        body: { name: 'Owner', type: 'Link', props: { tableGuid: people.guid }, viewGuid: table.defaultViewGuid },
      });
      const wrongTable = await svc.call('POST', rowsPath, { body: { rows: [{ Owner: [bob!.guid] }, { Owner: [task!.guid] }] } });
      expectTableError(wrongTable, 400, 70000, /rows\[1\], column "Owner".*not a row of the linked table/);
      expectTableError(await svc.call('POST', rowsPath, { body: { rows: [{ Owner: 'x' }] } }), 400, 70000, /array of row guids/);
      expect((await allRows(svc, table.guid)).length).toBe(1);
      const patched = await svc.call('PATCH', `${rowsPath}/${task!.guid}`, { body: { valueMap: { Owner: [bob!.guid] } } });
      expect(patched.body.data.valueMap).toEqual({ Title: 'task', Owner: [bob!.guid] });
    });

    it('a deleted row leaves every Link cell that named it (other tables and its own), and only it', async () => {
      const people = await createTable(svc, base, [{ name: 'Name', type: 'SingleLineText' }], { name: 'People' });
      const [bob, ann] = await insertRows(svc, people.guid, [{ Name: 'Bob' }, { Name: 'Ann' }]);
      for (const [tableGuid, viewGuid, name] of [[table.guid, table.defaultViewGuid, 'Owner'], [people.guid, people.defaultViewGuid, 'Buddy']] as const) {
        const added = await svc.call('POST', `${API}/tables/${tableGuid}/columns`, { body: { name, type: 'Link', props: { tableGuid: people.guid }, viewGuid } });
        expect(added.status, added.text).toBe(200);
      }
      const [both, onlyBob, other] = await insertRows(svc, table.guid, [{ Title: 'both', Owner: [bob!.guid, ann!.guid] }, { Title: 'bob', Owner: [bob!.guid] }, { Title: 'ann', Owner: [ann!.guid] }]);
      await svc.call('PATCH', `${API}/tables/${people.guid}/rows/${ann!.guid}`, { body: { valueMap: { Buddy: [bob!.guid] } } });

      const deleted = await svc.call('DELETE', `${API}/tables/${people.guid}/rows/${bob!.guid}`);
      expect(deleted.status, deleted.text).toBe(200);
      const tasks = new Map((await allRows(svc, table.guid)).map((row) => [row.guid, row.valueMap]));
      expect(tasks.get(both!.guid)).toEqual({ Title: 'both', Owner: [ann!.guid] });
      expect(tasks.get(onlyBob!.guid)).toEqual({ Title: 'bob' }); // an emptied Link cell is empty, as writing [] leaves it
      expect(tasks.get(other!.guid)).toEqual({ Title: 'ann', Owner: [ann!.guid] });
      expect((await allRows(svc, people.guid)).map((row) => row.valueMap)).toEqual([{ Name: 'Ann' }]);
      // the emptied cells can be written again with live rows
      const patched = await svc.call('PATCH', `${rowsPath}/${onlyBob!.guid}`, { body: { valueMap: { Owner: [ann!.guid] } } });
      expect(patched.body.data.valueMap).toEqual({ Title: 'bob', Owner: [ann!.guid] });
    });

    it('validates the create-rows body: rows required, 1-2000 of them, each an object', async () => {
      for (const body of [{}, { rows: [] }, { rows: 'x' }, { rows: [1] }, { rows: [null] }, { rows: Array.from({ length: 2001 }, () => ({})) }]) {
        expectTableError(await svc.call('POST', rowsPath, { body }), 400, 70000);
      }
      expectTableError(await svc.call('POST', rowsPath, { rawBody: '{"rows": [' }), 400, 70000, /JSON/);
      expect(await allRows(svc, table.guid)).toEqual([]);
    });

    it('creates 2000 rows in one request, in order', async () => {
      const rows = Array.from({ length: 2000 }, (_, i) => ({ Title: `row ${i}`, Amount: i, Status: i % 2 ? 'Open' : 'Done' }));
      const created = await insertRows(svc, table.guid, rows);
      expect(created).toHaveLength(2000);
      expect(new Set(created.map((row) => row.guid)).size).toBe(2000);
      const read = await allRows(svc, table.guid);
      expect(read.map((row) => row.valueMap.Title)).toEqual(rows.map((row) => row.Title));
      expect(read.map((row) => row.guid)).toEqual(created.map((row) => row.guid));
    });

    it('answers a full insert of every type, AutoNumber and an odd column name as the rows read back', async () => {
      const odd = 'say "hi" \\ é';
      const cols = [{ name: 'No', type: 'AutoNumber' }, ...COLUMNS, { name: odd, type: 'SingleLineText' }];
      const wide = await createTable(svc, base, cols, { name: 'Wide' });
      const rows = Array.from({ length: 2000 }, (_, i) => ({
        Title: `row ${i} "quoted"`,
        Amount: i / 3,
        Due: 1_700_000_000_000 + i,
        Tags: i % 2 ? ['red', 'blue'] : [],
        Checked: i % 3 === 0,
        Place: i % 5 ? ['Europe'] : ['Europe', 'France', 'Paris'],
        [odd]: `${i}`,
      }));
      const answered = await insertRows(svc, wide.guid, rows);
      expect(answered).toHaveLength(2000);
      expect(answered.map((row) => row.valueMap.No)).toEqual(rows.map((_, i) => i + 1));
      expect(answered[7]!.valueMap).toEqual({ No: 8, Title: 'row 7 "quoted"', Amount: 2.33, Due: '2023-11-14T22:13:20.007Z', Tags: ['red', 'blue'], Place: ['Europe'], [odd]: '7' });
      expect(answered[0]!.valueMap).toEqual({ No: 1, Title: 'row 0 "quoted"', Amount: 0, Due: '2023-11-14T22:13:20.000Z', Checked: true, Place: ['Europe', 'France', 'Paris'], [odd]: '0' });
      expect(await allRows(svc, wide.guid)).toEqual(answered);
    });

    it('refuses a 2000-row request whose row 1500 is bad, naming it, and writes nothing of it', async () => {
      const rows: Record<string, unknown>[] = Array.from({ length: 2000 }, (_, i) => ({ Title: `row ${i}`, Status: 'Open' }));
      rows[1500] = { Title: 'bad', Status: 'Closed' };
      expectTableError(await svc.call('POST', rowsPath, { body: { rows } }), 400, 70000, /rows\[1500\], column "Status".*unknown option "Closed"/);
      expect(await allRows(svc, table.guid)).toEqual([]);
    });

    it('updates only the named cells; null clears one; the answer is the whole row', async () => {
      const [row] = await insertRows(svc, table.guid, [{ Title: 'a', Amount: 1, Status: 'Open', Tags: ['red'] }]);
      const path = `${rowsPath}/${row!.guid}`;
      const patched = await svc.call('PATCH', path, { body: { valueMap: { Amount: 2.5, Status: null, Stars: 1 } } });
      expect(patched.status).toBe(200);
      expect(patched.body).toEqual({ code: 0, msg: 'success', data: { guid: row!.guid, valueMap: { Title: 'a', Amount: 2.5, Tags: ['red'], Stars: 1 } } });
      expect((await svc.call('PATCH', path, { body: { valueMap: {} } })).body.data.valueMap).toEqual(patched.body.data.valueMap);
      expect((await svc.call('GET', path)).body.data).toEqual(patched.body.data);
    });

    it('validates PATCH bodies with 70000 and changes nothing', async () => {
      const [row] = await insertRows(svc, table.guid, [{ Title: 'a', Stars: 2 }]);
      const path = `${rowsPath}/${row!.guid}`;
      for (const body of [{}, { valueMap: 'x' }, { valueMap: null }, { valueMap: [] }]) expectTableError(await svc.call('PATCH', path, { body }), 400, 70000);
      expectTableError(await svc.call('PATCH', path, { body: { valueMap: { Title: 'b', Stars: 9 } } }), 400, 70000, /column "Stars"/);
      expectTableError(await svc.call('PATCH', path, { body: { valueMap: { Ghost: 1 } } }), 400, 70000, /unknown column "Ghost"/);
      expectTableError(await svc.call('PATCH', path, { rawBody: '{"valueMap":' }), 400, 70000, /JSON/);
      expect((await svc.call('GET', path)).body.data.valueMap).toEqual({ Title: 'a', Stars: 2 });
    });

    it('deletes a row once; after that the row is 70005', async () => {
      const [keep, drop] = await insertRows(svc, table.guid, [{ Title: 'keep' }, { Title: 'drop' }]);
      const removed = await svc.call('DELETE', `${rowsPath}/${drop!.guid}`);
      expect(removed.body).toEqual({ code: 0, msg: 'success', data: null });
      expectTableError(await svc.call('DELETE', `${rowsPath}/${drop!.guid}`), 404, 70005);
      expectTableError(await svc.call('GET', `${rowsPath}/${drop!.guid}`), 404, 70005);
      // client kits send a JSON content type on DELETE too, with no body
      const [other] = await insertRows(svc, table.guid, [{ Title: 'other' }]);
      const typed = await svc.call('DELETE', `${rowsPath}/${other!.guid}`, { headers: { 'content-type': 'application/json' } });
      expect(typed.status, typed.text).toBe(200);
      expect((await allRows(svc, table.guid)).map((row) => row.guid)).toEqual([keep!.guid]);
    });

    it('pages by a pageSize from 1 to 100 (default 10) and refuses every other one instead of replacing it', async () => {
      await insertRows(svc, table.guid, Array.from({ length: 150 }, (_, i) => ({ Amount: i })));
      const size = async (pageSize?: string) =>
        (await svc.call('GET', rowsPath, pageSize === undefined ? {} : { query: { pageSize } })).body.data.rows.length;
      expect(await size()).toBe(10);
      expect(await size('')).toBe(10);
      expect(await size('1')).toBe(1);
      expect(await size('100')).toBe(100);
      for (const refused of ['101', '100000000000000000000', '0', '-5', 'abc', '2.5', '1e9', ' 7', '0x10']) {
        expectTableError(await svc.call('GET', rowsPath, { query: { pageSize: refused } }), 400, 70000);
      }
      // a repeated parameter counts once, with its first value
      const repeated = await svc.call('GET', `${rowsPath}?pageSize=3&pageSize=50&offset=&offset=x`);
      expect(repeated.status).toBe(200);
      expect(repeated.body.data.rows).toHaveLength(3);
    });

    it('pages with offset = guid of the first row of the next page, null after the last', async () => {
      const created = await insertRows(svc, table.guid, Array.from({ length: 25 }, (_, i) => ({ Amount: i })));
      const first = (await svc.call('GET', rowsPath, { query: { pageSize: 10 } })).body.data;
      expect(first.offset).toBe(created[10]!.guid);
      const second = (await svc.call('GET', rowsPath, { query: { pageSize: 10, offset: first.offset } })).body.data;
      expect(second.rows[0].guid).toBe(created[10]!.guid);
      const third = (await svc.call('GET', rowsPath, { query: { pageSize: 10, offset: second.offset } })).body.data;
      expect(third.rows).toHaveLength(5);
      expect(third.offset).toBeNull();
      const exact = (await svc.call('GET', rowsPath, { query: { pageSize: 25 } })).body.data;
      expect(exact.offset).toBeNull();
      expect((await allRows(svc, table.guid, 7)).map((row) => row.guid)).toEqual(created.map((row) => row.guid));
    });

    it('resumes at a deleted offset row, and ends at an offset that was never a row of the table', async () => {
      const created = await insertRows(svc, table.guid, Array.from({ length: 6 }, (_, i) => ({ Amount: i })));
      await svc.call('DELETE', `${rowsPath}/${created[3]!.guid}`);
      const resumed = (await svc.call('GET', rowsPath, { query: { offset: created[3]!.guid } })).body.data;
      expect(resumed.rows.map((row: { guid: string }) => row.guid)).toEqual([created[4]!.guid, created[5]!.guid]);
      const other = await createTable(svc, base, [{ name: 'X', type: 'SingleLineText' }], { name: 'Other', withoutInitRows: false });
      const foreignRow = (await svc.call('GET', `${API}/tables/${other.guid}/rows`)).body.data.rows[0].guid;
      for (const offset of ['rowNeverExisted', foreignRow]) {
        const page = await svc.call('GET', rowsPath, { query: { offset } });
        expect(page.status).toBe(200);
        expect(page.body.data).toEqual({ rows: [], offset: null, viewGuid: table.defaultViewGuid });
      }
    });

    it('reads through the default view or a named one; an unknown view is 70003', async () => {
      await insertRows(svc, table.guid, [{ Title: 'a' }]);
      const named = await svc.call('GET', rowsPath, { query: { viewGuid: table.defaultViewGuid } });
      expect(named.body.data.viewGuid).toBe(table.defaultViewGuid);
      expect(named.body.data.rows).toHaveLength(1);
      expectTableError(await svc.call('GET', rowsPath, { query: { viewGuid: 'viwNope' } }), 404, 70003);
    });

    it('never repeats or skips a row that exists throughout paging while rows are inserted and deleted', async () => {
      const stable = await insertRows(svc, table.guid, Array.from({ length: 120 }, (_, i) => ({ Title: `stable ${i}` })));
      const doomed = await insertRows(svc, table.guid, Array.from({ length: 60 }, (_, i) => ({ Title: `doomed ${i}` })));
      // interleave: the doomed rows sit between stable ones in creation order
      const moreStable = await insertRows(svc, table.guid, Array.from({ length: 120 }, (_, i) => ({ Title: `stable ${120 + i}` })));
      const expected = [...stable, ...moreStable].map((row) => row.guid);

      const seen: string[] = [];
      let offset: string | null = '';
      let step = 0;
      while (offset !== null) {
        const query: Record<string, string | number> = { pageSize: 7 };
        if (offset) query.offset = offset;
        const [page] = await Promise.all([
          svc.call('GET', rowsPath, { query }),
          // concurrent writers: new rows at the end, deletes of doomed rows (including future offsets)
          svc.call('POST', rowsPath, { body: { rows: [{ Title: `new ${step}` }] } }),
          step < doomed.length ? svc.call('DELETE', `${rowsPath}/${doomed[step]!.guid}`) : Promise.resolve(undefined),
        ]);
        expect(page.status).toBe(200);
        seen.push(...page.body.data.rows.map((row: { guid: string }) => row.guid));
        offset = page.body.data.offset;
        step++;
      }
      const seenStable = seen.filter((guid) => expected.includes(guid));
      expect(seenStable).toEqual(expected);
      expect(new Set(seen).size).toBe(seen.length);
    });
  });
}
