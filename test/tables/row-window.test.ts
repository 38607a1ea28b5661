import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases.js';
import { startService, type TestService } from '../support/service.js';
import { API, createBase, createTable, expectTableError, insertRows, type CreatedTable } from './helpers.js';

const COLUMNS = [
  { name: 'Title', type: 'SingleLineText' },
  { name: 'Amount', type: 'Number' },
  { name: 'Status', type: 'SingleChoice', props: { options: [{ name: 'Open' }, { name: 'Done' }] } },
];

for (const database of testDatabases()) {
  describe(`table API: row window [${database.name}]`, () => {
    let svc: TestService;
    let table: CreatedTable;
    let windowPath: string;
    const column = (name: string) => table.columns.find((candidate) => candidate.name === name)!.guid;
    const titles = (response: { body: { data: { rows: { valueMap: Record<string, unknown> }[] } } }) =>
      response.body.data.rows.map((row) => row.valueMap.Title);

    beforeEach(async () => {
      svc = await startService(database, { integrator: true });
      const base = await createBase(svc);
      table = await createTable(svc, base, COLUMNS);
      windowPath = `${API}/tables/${table.guid}/row-window`;
      await insertRows(
        svc,
        table.guid,
        Array.from({ length: 25 }, (_, index) => ({ Title: `Row ${index}`, Amount: (index * 7) % 10, Status: index % 3 === 0 ? 'Done' : 'Open' })),
      );
      await insertRows(svc, table.guid, [{ Title: 'No amount 100% _x_' }]);
    });
    afterEach(async () => svc.close());

    it('answers rows by position in creation order, with the total', async () => {
      const response = await svc.call('GET', windowPath, { query: { start: 20, count: 10 } });
      expect(response.status, response.text).toBe(200);
      expect(response.body.data.total).toBe(26);
      expect(response.body.data.start).toBe(20);
      expect(response.body.data.viewGuid).toBe(table.defaultViewGuid);
      expect(titles(response)).toEqual(['Row 20', 'Row 21', 'Row 22', 'Row 23', 'Row 24', 'No amount 100% _x_']);
      const past = await svc.call('GET', windowPath, { query: { start: 100 } });
      expect(past.body.data.rows).toEqual([]);
      expect(past.body.data.total).toBe(26);
    });

    it('sorts numbers as numbers with empty cells last, ties in creation order', async () => {
      const response = await svc.call('GET', windowPath, { query: { start: 0, count: 500, sortColumn: column('Amount'), sortOrder: 'desc' } });
      expect(response.status, response.text).toBe(200);
      const amounts = response.body.data.rows.map((row: { valueMap: Record<string, unknown> }) => row.valueMap.Amount);
      expect(amounts.slice(0, 3)).toEqual([9, 9, 8]);
      expect(amounts.at(-1)).toBeUndefined();
      expect(titles(response).slice(0, 2)).toEqual(['Row 7', 'Row 17']);
    });

    it('filters on a column: contains (literal, case-insensitive), is, empty, not empty', async () => {
      const count = async (query: Record<string, string | number>) => {
        const response = await svc.call('GET', windowPath, { query });
        expect(response.status, response.text).toBe(200);
        expect(response.body.data.rows.length).toBe(Math.min(100, response.body.data.total));
        return response.body.data.total as number;
      };
      expect(await count({ filterColumn: column('Title'), filterValue: 'row 1' })).toBe(11);
      expect(await count({ filterColumn: column('Title'), filterValue: '100%' })).toBe(1);
      expect(await count({ filterColumn: column('Title'), filterValue: '_x_' })).toBe(1);
      expect(await count({ filterColumn: column('Title'), filterValue: '0%' })).toBe(1);
      expect(await count({ filterColumn: column('Status'), filterOperator: 'is', filterValue: 'Done' })).toBe(9);
      expect(await count({ filterColumn: column('Amount'), filterOperator: 'empty' })).toBe(1);
      expect(await count({ filterColumn: column('Amount'), filterOperator: 'notEmpty' })).toBe(25);
      expect(await count({ filterColumn: column('Amount'), filterOperator: 'is', filterValue: '7' })).toBe(3);
      const past = await svc.call('GET', windowPath, { query: { filterColumn: column('Title'), filterValue: 'row 1', start: 50 } });
      expect(past.body.data).toMatchObject({ rows: [], start: 50, total: 11 });
      const sortedFiltered = await svc.call('GET', windowPath, {
        query: { filterColumn: column('Status'), filterOperator: 'is', filterValue: 'Done', sortColumn: column('Amount'), start: 1, count: 3 },
      });
      expect(sortedFiltered.body.data.total).toBe(9);
      expect(sortedFiltered.body.data.rows.map((row: { valueMap: { Amount: number } }) => row.valueMap.Amount)).toEqual([1, 2, 3]);
    });

    it('refuses unknown columns, bad positions and unknown views, and answers 70002 for an unknown table', async () => {
      expectTableError(await svc.call('GET', windowPath, { query: { sortColumn: 'colNope' } }), 400, 70000, /sort.columnGuid "colNope"/);
      expectTableError(await svc.call('GET', windowPath, { query: { filterColumn: 'colNope' } }), 400, 70000, /filter.columnGuid/);
      expectTableError(await svc.call('GET', windowPath, { query: { start: -1 } }), 400, 70000);
      expectTableError(await svc.call('GET', windowPath, { query: { count: 501 } }), 400, 70000);
      expectTableError(await svc.call('GET', windowPath, { query: { filterColumn: column('Title'), filterOperator: 'regex' } }), 400, 70000);
      expectTableError(await svc.call('GET', windowPath, { query: { viewGuid: 'viwNope' } }), 404, 70003);
      expectTableError(await svc.call('GET', `${API}/tables/tblNope/row-window`), 404, 70002);
    });
  });
}
