import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases.js';
import { startService, type TestService } from '../support/service.js';
import { allRows, API, createBase, createTable, expectTableError, insertRows, type CreatedTable } from './helpers.js';

for (const database of testDatabases()) {
  describe(`table API: columns [${database.name}]`, () => {
    let svc: TestService;
    let base: string;
    let table: CreatedTable;
    let columnsPath: string;
    beforeEach(async () => {
      svc = await startService(database, { integrator: true });
      base = await createBase(svc);
      table = await createTable(svc, base, [
        { name: 'Title', type: 'SingleLineText' },
        { name: 'Budget', type: 'Number' },
      ]);
      columnsPath = `${API}/tables/${table.guid}/columns`;
    });
    afterEach(async () => svc.close());

    const names = async () => (await svc.call('GET', columnsPath)).body.data.map((c: { name: string }) => c.name);
    const create = (body: Record<string, unknown>) => svc.call('POST', columnsPath, { body: { viewGuid: table.defaultViewGuid, ...body } });

    it('lists columns in order with the primary column first', async () => {
      const response = await svc.call('GET', columnsPath);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ code: 0, msg: 'success' });
      expect(response.body.data).toEqual(table.columns);
    });

    it('adds a column last, after targetGuid, or first (primary) with targetGuid ""', async () => {
      const last = await create({ name: 'Notes', type: 'LongText' });
      expect(last.status).toBe(200);
      expect(last.body.data).toMatchObject({ name: 'Notes', type: 'LongText', props: {}, isPrimary: false });
      expect(last.body.data.guid).toMatch(/^col/);
      await create({ name: 'Due', type: 'Date', targetGuid: table.columns[0]!.guid });
      const first = await create({ name: 'Code', type: 'Number', targetGuid: '' });
      expect(first.body.data.isPrimary).toBe(true);
      expect(await names()).toEqual(['Code', 'Title', 'Due', 'Budget', 'Notes']);
      const columns = (await svc.call('GET', columnsPath)).body.data;
      expect(columns.map((c: { isPrimary: boolean }) => c.isPrimary)).toEqual([true, false, false, false, false]);
    });

    it('leaves existing rows empty in a new column, and takes values for it at once', async () => {
      await insertRows(svc, table.guid, [{ Title: 'old' }]);
      await create({ name: 'Stars', type: 'Rate', props: { count: 3 } });
      await insertRows(svc, table.guid, [{ Title: 'new', Stars: 3 }]);
      expect((await allRows(svc, table.guid)).map((row) => row.valueMap)).toEqual([{ Title: 'old' }, { Title: 'new', Stars: 3 }]);
    });

    it('validates create-column input with 70000', async () => {
      const cases: [Record<string, unknown>, RegExp?][] = [
        [{ name: 'A', type: 'Blob' }, /Blob/],
        [{ name: 'A', type: 'AutoNumber' }, /AutoNumber/],
        [{ name: 'A', type: 'Attachment' }],
        [{ name: 'A', type: 'CheckBox', targetGuid: '' }, /primary/],
        [{ name: 'A', type: 'Link', props: { tableGuid: table.guid }, targetGuid: '' }, /primary/],
        [{ name: 'A', type: 'CheckBox', props: { type: 'tick' } }, /check, star, close/],
        [{ name: 'A', type: 'Rate', props: { count: 11 } }, /count/],
        [{ name: 'A', type: 'Rate', props: { icon: 'sun' } }, /icon/],
        [{ name: 'A', type: 'Number', props: { precision: 'two' } }, /precision/],
        [{ name: 'A', type: 'MultipleChoice', props: { options: [{ name: 'x' }, { name: 'x' }] } }, /duplicate/],
        [{ name: 'A', type: 'SingleChoice', props: { options: 'x' } }, /options/],
        [{ name: 'A', type: 'Cascade', props: { options: [{ name: 'a', children: [{ name: 'b' }, { name: 'b' }] }] } }, /duplicate/],
        [{ name: 'A', type: 'Link', props: {} }, /tableGuid/],
        [{ name: 'A', type: 'Link', props: { tableGuid: 'tblElsewhere' } }, /not a table of this base/],
        [{ name: '', type: 'Number' }],
        [{ name: 'x'.repeat(101), type: 'Number' }],
        [{ name: 'Title', type: 'Number' }, /already exists/],
        [{ name: 'A', type: 'Number', targetGuid: 'colNope' }, /targetGuid/],
        [{ type: 'Number' }, /name/],
        [{ name: 'A' }, /type/],
      ];
      for (const [body, message] of cases) expectTableError(await create(body), 400, 70000, message);
      expectTableError(await svc.call('POST', columnsPath, { body: { name: 'A', type: 'Number' } }), 400, 70000, /viewGuid/);
      expectTableError(await svc.call('POST', columnsPath, { rawBody: '{"name":' }), 400, 70000, /JSON/);
      expect(await names()).toEqual(['Title', 'Budget']);
    });

    it('answers an unknown viewGuid with 404 / 70003', async () => {
      expectTableError(await svc.call('POST', columnsPath, { body: { name: 'A', type: 'Number', viewGuid: 'viwNope' } }), 404, 70003);
    });

    it('accepts a name of 100 characters and every creatable type with its props', async () => {
      const other = await createTable(svc, base, [{ name: 'Name', type: 'SingleLineText' }], { name: 'Other' });
      const specs = [
        { name: 'x'.repeat(100), type: 'SingleLineText' },
        { name: 'Long', type: 'LongText' },
        { name: 'Num', type: 'Number', props: { precision: 3 } },
        { name: 'Pct', type: 'Percent', props: { precision: 1 } },
        { name: 'When', type: 'Date', props: { format: 'datetime' } },
        { name: 'One', type: 'SingleChoice', props: { options: [{ name: 'a', color: 'red' }, { name: 'b' }] } },
        { name: 'Many', type: 'MultipleChoice', props: { options: [{ name: 'a' }] } },
        { name: 'Box', type: 'CheckBox', props: { type: 'close' } },
        { name: 'Stars', type: 'Rate', props: { count: 10, icon: 'stone' } },
        { name: 'Ref', type: 'Link', props: { tableGuid: other.guid } },
        { name: 'Place', type: 'Cascade', props: { options: [{ name: 'EU', children: [{ name: 'FR' }] }] } },
      ];
      for (const spec of specs) {
        const response = await create(spec);
        expect(response.status, `${spec.type}: ${response.text}`).toBe(200);
        expect(response.body.data).toMatchObject({ name: spec.name, type: spec.type, props: spec.props ?? {} });
      }
      const defaults = await create({ name: 'Defaults', type: 'Rate' });
      expect(defaults.body.data.props).toEqual({ count: 5, icon: 'star' });
    });

    it('renames a column without touching its values, and changes type and props without converting them', async () => {
      const [row] = await insertRows(svc, table.guid, [{ Title: 'a', Budget: 12.345 }]);
      const budget = table.columns[1]!;
      const renamed = await svc.call('PUT', `${columnsPath}/${budget.guid}`, { body: { name: 'Cost' } });
      expect(renamed.status).toBe(200);
      expect(renamed.body.data).toMatchObject({ guid: budget.guid, name: 'Cost', type: 'Number' });
      expect((await svc.call('GET', `${API}/tables/${table.guid}/rows/${row!.guid}`)).body.data.valueMap).toEqual({ Title: 'a', Cost: 12.345 });

      const retyped = await svc.call('PUT', `${columnsPath}/${budget.guid}`, { body: { type: 'Rate', props: { count: 4 } } });
      expect(retyped.body.data).toMatchObject({ name: 'Cost', type: 'Rate', props: { count: 4, icon: 'star' } });
      // the old value stays as it was stored until the caller PATCHes it (spec 4.4 rule 3)
      expect((await svc.call('GET', `${API}/tables/${table.guid}/rows/${row!.guid}`)).body.data.valueMap.Cost).toBe(12.345);
      const precision = await svc.call('PUT', `${columnsPath}/${budget.guid}`, { body: { type: 'Number', props: { precision: 1 } } });
      expect(precision.body.data.props).toEqual({ precision: 1 });
      expect((await svc.call('GET', `${API}/tables/${table.guid}/rows/${row!.guid}`)).body.data.valueMap.Cost).toBe(12.345);
    });

    it('re-reads the old props under a new type when only the type changes', async () => {
      const rate = await create({ name: 'R', type: 'Rate', props: { count: 7, icon: 'heart' } });
      const number = await svc.call('PUT', `${columnsPath}/${rate.body.data.guid}`, { body: { type: 'Number' } });
      expect(number.body.data.props).toEqual({});
      const back = await svc.call('PUT', `${columnsPath}/${rate.body.data.guid}`, { body: { type: 'Rate' } });
      expect(back.body.data.props).toEqual({ count: 5, icon: 'star' });
    });

    it('validates updates with 70000 and 70004', async () => {
      const title = table.columns[0]!;
      const budget = table.columns[1]!;
      const cases: [string, Record<string, unknown>, RegExp?][] = [
        [budget.guid, {}, /at least one/],
        [budget.guid, { unknown: 1 }, /at least one/],
        [budget.guid, { type: 'Blob' }],
        [budget.guid, { type: 'AutoNumber' }],
        [budget.guid, { name: '' }],
        [budget.guid, { name: 'x'.repeat(101) }],
        [budget.guid, { name: 'Title' }, /already exists/],
        [budget.guid, { type: 'Rate', props: { count: 20 } }, /count/],
        [budget.guid, { type: 'CheckBox', props: { type: 'x' } }],
        [budget.guid, { props: { precision: 11 } }, /precision/],
        [budget.guid, { props: null }],
        [title.guid, { type: 'CheckBox' }, /primary/],
        [title.guid, { type: 'MultipleChoice' }, /primary/],
        [title.guid, { type: 'Rate' }, /primary/],
      ];
      for (const [guid, body, message] of cases) {
        expectTableError(await svc.call('PUT', `${columnsPath}/${guid}`, { body }), 400, 70000, message);
      }
      expectTableError(await svc.call('PUT', `${columnsPath}/${budget.guid}`, { rawBody: '{' }), 400, 70000, /JSON/);
      expectTableError(await svc.call('PUT', `${columnsPath}/colNope`, { body: { name: 'x' } }), 400, 70004);
      const primaryOk = await svc.call('PUT', `${columnsPath}/${title.guid}`, { body: { type: 'Date' } });
      expect(primaryOk.status).toBe(200);
      expect((await svc.call('GET', columnsPath)).body.data.map((c: { name: string; type: string }) => `${c.name}:${c.type}`)).toEqual(['Title:Date', 'Budget:Number']);
    });

    it('keeps column positions dense and unique under concurrent column changes', async () => {
      const results = await Promise.all([
        ...Array.from({ length: 4 }, (_, i) => create({ name: `Last${i}`, type: 'Number' })),
        ...Array.from({ length: 3 }, (_, i) => create({ name: `First${i}`, type: 'Number', targetGuid: '' })),
        ...Array.from({ length: 3 }, (_, i) => create({ name: `After${i}`, type: 'Number', targetGuid: table.columns[0]!.guid })),
        svc.call('DELETE', `${columnsPath}/${table.columns[1]!.guid}`),
      ]);
      for (const result of results) expect(result.status, result.text).toBe(200);
      const rows = await svc.services.storage.db.selectFrom('table_columns').select(['name', 'position']).where('table_guid', '=', table.guid).orderBy('position').execute();
      expect(rows.map((row) => row.position)).toEqual(rows.map((_, i) => i));
      expect(rows.map((row) => row.name)).toEqual(await names());
      expect(rows).toHaveLength(2 - 1 + 10);
      expect((await svc.call('GET', columnsPath)).body.data.filter((c: { isPrimary: boolean }) => c.isPrimary)).toHaveLength(1);
    });

    it('deletes a column without rewriting rows; the primary column stays', async () => {
      const [row] = await insertRows(svc, table.guid, [{ Title: 'a', Budget: 5 }]);
      const budget = table.columns[1]!;
      const removed = await svc.call('DELETE', `${columnsPath}/${budget.guid}`);
      expect(removed.status).toBe(200);
      expect(removed.body).toEqual({ code: 0, msg: 'success', data: null });
      expect(await names()).toEqual(['Title']);
      expect((await svc.call('GET', `${API}/tables/${table.guid}/rows/${row!.guid}`)).body.data.valueMap).toEqual({ Title: 'a' });
      // a new column of the same name starts empty: the old cells belonged to the deleted column
      await create({ name: 'Budget', type: 'Number' });
      expect((await svc.call('GET', `${API}/tables/${table.guid}/rows/${row!.guid}`)).body.data.valueMap).toEqual({ Title: 'a' });

      expectTableError(await svc.call('DELETE', `${columnsPath}/${budget.guid}`), 400, 70004);
      expectTableError(await svc.call('DELETE', `${columnsPath}/${table.columns[0]!.guid}`), 400, 70000, /primary/);
    });
  });
}
