import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Storage } from '../../src/storage/database.js';
import { testDatabases } from '../support/databases.js';
import { startService, type TestService } from '../support/service.js';

const TABLE = 'tbl-bulk';

function rowsOf(count: number, from = 1) {
  return Array.from({ length: count }, (_, index) => {
    const seq = from + index;
    return { table_guid: TABLE, seq, guid: `row-${seq}`, cells: JSON.stringify({ n: seq, text: `"quoted" ${seq}` }), created_at: seq, updated_at: seq };
  });
}

for (const database of testDatabases()) {
  describe(`storage: insertMany [${database.name}]`, () => {
    let svc: TestService;
    let storage: Storage;
    beforeEach(async () => {
      svc = await startService(database);
      storage = svc.services.storage;
      const appId = svc.app.id;
      await storage.db.insertInto('files').values({ app_id: appId, file_id: 'base', type: 'table', content_key: null, created_by: null, created_at: 0, updated_at: 0 }).execute();
      await storage.db.insertInto('table_tables').values({ guid: TABLE, app_id: appId, file_id: 'base', name: 'T', created_at: 0, updated_at: 0 }).execute();
    });
    afterEach(async () => svc.close());

    const stored = () => storage.db.selectFrom('table_rows').selectAll().orderBy('seq').execute();

    // Counts around the engines' statement sizes: whole statements, a tail, both, and none at all.
    it.each([0, 1, 99, 100, 101, 2000, 2345, 11_000])('inserts %i rows with their values, in the transaction', async (count) => {
      const rows = rowsOf(count);
      await storage.db.transaction().execute((trx) => storage.insertMany(trx, 'table_rows', rows));
      expect(await stored()).toEqual(rows);
    });

    it('writes nothing when a row in the middle fails, or when the transaction fails after it', async () => {
      const rows = rowsOf(2000);
      rows[1234] = { ...rows[1234]!, guid: rows[10]!.guid };
      const failing = storage.db.transaction().execute((trx) => storage.insertMany(trx, 'table_rows', rows));
      await expect(failing).rejects.toSatisfy((error: unknown) => storage.isUniqueViolation(error));
      expect(await stored()).toEqual([]);

      const later = storage.db.transaction().execute(async (trx) => {
        await storage.insertMany(trx, 'table_rows', rowsOf(150));
        throw new Error('the rest of the transaction failed');
      });
      await expect(later).rejects.toThrow('the rest of the transaction failed');
      expect(await stored()).toEqual([]);
    });

    it('refuses to run outside a transaction', async () => {
      await expect(storage.insertMany(storage.db as never, 'table_rows', rowsOf(1))).rejects.toThrow('inside a transaction');
      expect(await stored()).toEqual([]);
    });

    it('sees earlier statements of its transaction, and the next transaction sees its rows', async () => {
      await storage.db.transaction().execute(async (trx) => {
        await trx.insertInto('table_rows').values(rowsOf(1)).execute();
        await storage.insertMany(trx, 'table_rows', rowsOf(150, 2));
        const count = await trx.selectFrom('table_rows').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
        expect(Number(count.n)).toBe(151);
      });
      expect((await stored()).map((row) => row.seq)).toEqual(Array.from({ length: 151 }, (_, index) => index + 1));
    });
  });
}
