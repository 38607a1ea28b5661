import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases.js';
import { DEFAULT_USER } from '../support/integrator.js';
import { startService, type TestService } from '../support/service.js';
import { sheetModels } from '../../src/model/sheets/sheet-model.js';
import { locksOf, removeLock, setLock, type SheetLock } from '../../src/model/sheets/locks.js';
import { applyStructureEdit } from '../../src/model/sheets/sheet-model.js';
import { connectEditor, type Editor } from '../content/support.js';
import { storedCells } from './stored-cells.js';
import ExcelJS from 'exceljs';
import { importAndWait } from '../import/support.js';
import { exportFile, workbookOf } from '../export/support.js';

const FILE = 'payroll';
const API = `/sdk/v2/api/files/${FILE}`;
const ALICE = DEFAULT_USER.id;
const BOB = { id: 'bob', name: 'Bob', token: 'bob-token' };

/** Alice's lock on B2:C4: only she may edit there (visitors read). */
const LOCK: SheetLock = {
  id: 'lock-1',
  type: 'range',
  lockerId: ALICE,
  visitorPermission: 'readable',
  users: {},
  departments: { 'finance-team': 'editable' },
  groups: {},
  areas: [{ startRow: 1, endRow: 3, startColumn: 1, endColumn: 2 }],
};

/** An editor of the test, with the service's stateless messages it received and its first sheet. */
interface Client extends Editor {
  messages: Array<Record<string, unknown>>;
  sheet(): ReturnType<typeof sheetModels>[number];
}

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

for (const database of testDatabases()) {
  describe(`spreadsheet locks enforced by the service [${database.name}]`, () => {
    let svc: TestService;
    const clients: Client[] = [];
    beforeEach(async () => {
      svc = await startService(database, { integrator: true });
      svc.integrator.addUser({ ...BOB });
      svc.integrator.addFile({
        id: FILE,
        type: 'spreadsheet',
        grants: { [ALICE]: { readable: true, editable: true, manageable: true }, [BOB.id]: { readable: true, editable: true, manageable: false } },
      });
      const created = await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'spreadsheet', fileId: FILE } });
      expect(created.status, created.text).toBe(200);
    });
    afterEach(async () => {
      for (const client of clients.splice(0)) await client.close();
      await svc.close();
    });
    const connect = async (token: string): Promise<Client> => {
      const editor = await connectEditor(svc, FILE, { token });
      const messages: Array<Record<string, unknown>> = [];
      editor.provider.on('stateless', ({ payload }: { payload: string }) => messages.push(JSON.parse(payload) as Record<string, unknown>));
      const client = { ...editor, messages, sheet: () => sheetModels(editor.doc)[0]! };
      clients.push(client);
      return client;
    };
    /** waits until the service closes the client's session for a lock (4423), then closes it as the editor does */
    const refused = async (client: Client, what: string) => {
      await until(() => client.closes.includes(4423), what);
      await client.close();
    };
    const stored = async () => storedCells(await svc.services.content.read(svc.app.id, FILE));
    const storedLocks = async () => locksOf(sheetModels(await svc.services.content.read(svc.app.id, FILE))[0]!);

    it('refuses a collaboration update touching a locked range whole, and lets the same user edit elsewhere', async () => {
      const alice = await connect(DEFAULT_USER.token);
      alice.doc.transact(() => setLock(alice.sheet(), LOCK));
      await alice.saved();
      expect(await storedLocks()).toEqual([LOCK]);

      const bob = await connect(BOB.token);
      await until(() => locksOf(bob.sheet()).length === 1, 'Bob to see the lock');
      // one update with a cell outside the lock and one inside: refused whole
      bob.doc.transact(() => {
        bob.sheet().setCell(0, 0, { v: 'outside' });
        bob.sheet().setCell(2, 1, { v: 'inside' });
      });
      await refused(bob, 'the service to close Bob\'s session with 4423');
      expect(bob.messages).toContainEqual({ type: 'svc:locked', reason: 'locked', sheetName: 'Sheet1', range: 'Sheet1!B2:C4' });
      expect(await stored()).toEqual({});

      // Bob's editor opens the file afresh: his edit outside the lock lands, and Alice's inside it too
      const bobAgain = await connect(BOB.token);
      bobAgain.doc.transact(() => bobAgain.sheet().setCell(0, 0, { v: 'outside' }));
      await bobAgain.saved();
      alice.doc.transact(() => alice.sheet().setCell(2, 1, { v: 'by Alice' }));
      await alice.saved();
      expect(await stored()).toEqual({ A1: { v: 'outside' }, B3: { v: 'by Alice' } });
      expect(bobAgain.closes).toEqual([]);
    });

    it('lets only a manageable user change locks; a row inserted above moves them', async () => {
      const alice = await connect(DEFAULT_USER.token);
      alice.doc.transact(() => setLock(alice.sheet(), LOCK));
      await alice.saved();

      const bob = await connect(BOB.token);
      await until(() => locksOf(bob.sheet()).length === 1, 'Bob to see the lock');
      bob.doc.transact(() => removeLock(bob.sheet(), LOCK.id));
      await refused(bob, 'Bob\'s lock removal to be refused');
      expect(bob.messages.at(-1)).toMatchObject({ type: 'svc:locked', reason: 'locksChanged' });
      expect(await storedLocks()).toEqual([LOCK]);

      // a row inserted above the lock by Bob moves it (a change to the locks he may make), one inside it does not
      const bobAgain = await connect(BOB.token);
      bobAgain.doc.transact(() => applyStructureEdit(bobAgain.doc, bobAgain.sheet(), { kind: 'insert', axis: 'rows', index: 0, count: 1 }));
      await bobAgain.saved();
      expect((await storedLocks())[0]!.areas).toEqual([{ startRow: 2, endRow: 4, startColumn: 1, endColumn: 2 }]);
      bobAgain.doc.transact(() => applyStructureEdit(bobAgain.doc, bobAgain.sheet(), { kind: 'delete', axis: 'rows', index: 3, count: 1 }));
      await refused(bobAgain, 'Bob\'s row deletion inside the lock to be refused');
      expect((await storedLocks())[0]!.areas).toEqual([{ startRow: 2, endRow: 4, startColumn: 1, endColumn: 2 }]);

      // Alice (manageable) removes it; then Bob may write there
      alice.doc.transact(() => removeLock(alice.sheet(), LOCK.id));
      await alice.saved();
      const bobThird = await connect(BOB.token);
      bobThird.doc.transact(() => bobThird.sheet().setCell(3, 1, { v: 'free now' }));
      await bobThird.saved();
      expect((await stored()).B4).toEqual({ v: 'free now' });
    });

    it('answers the locks to the kits and refuses values API writes inside them (403 / 128300, nothing written)', async () => {
      expect((await svc.call('GET', `${API}/judge-table-locked`)).body.data).toEqual({ lockedStatus: 0 });
      const alice = await connect(DEFAULT_USER.token);
      alice.doc.transact(() => {
        setLock(alice.sheet(), LOCK);
        setLock(alice.sheet(), { ...LOCK, id: 'lock-2', type: 'sheet', lockerId: '42', areas: [], users: { [BOB.id]: 'editable', [ALICE]: 'editable' } });
      });
      await alice.saved();
      const sheetId = alice.sheet().id;
      const listed = await svc.call('GET', `${API}/sheets/locks`);
      expect([listed.status, listed.body.data]).toEqual([
        200,
        {
          locks: [
            {
              sheetId,
              sheetName: 'Sheet1',
              locks: [
                { id: 'lock-1', type: 'range', lockerId: ALICE, visitorPermission: 'readable', users: {}, departments: { 'finance-team': 'editable' }, groups: {}, ranges: ['B2:C4'] },
                { id: 'lock-2', type: 'sheet', lockerId: 42, visitorPermission: 'readable', users: { bob: 'editable', [ALICE]: 'editable' }, departments: { 'finance-team': 'editable' }, groups: {}, ranges: [] },
              ],
            },
          ],
        },
      ]);
      expect((await svc.call('GET', `${API}/judge-table-locked`)).body.data).toEqual({ lockedStatus: 1 });

      const asBob = (range: string, values: unknown[][]) => svc.call('POST', `${API}/sheets/values`, { token: BOB.token, body: { range, resource: { values } } });
      // A1:B2 reaches into the lock: the whole write is refused
      const refused = await asBob('Sheet1!A1:B2', [['a', 'b'], ['c', 'd']]);
      expect([refused.status, refused.body.status, refused.body.data]).toEqual([403, 128300, { range: 'Sheet1!B2:C4', reason: 'locked' }]);
      expect(await stored()).toEqual({});
      // the sheet lock lets Bob edit; the range lock does not reach A1
      expect((await asBob('Sheet1!A1', [['mine']])).status).toBe(200);
      // rows inserted inside the lock through the API are refused too
      const inserted = await svc.call('POST', `${API}/sheets/Sheet1/rows/2`, { token: BOB.token });
      expect([inserted.status, inserted.body.status]).toEqual([403, 128300]);
      // Alice, the locker, writes inside it
      expect((await svc.call('POST', `${API}/sheets/values`, { body: { range: 'Sheet1!B2', resource: { values: [['hers']] } } })).status).toBe(200);
      expect(await stored()).toEqual({ A1: { v: 'mine' }, B2: { v: 'hers' } });
    });

    it('imports an xlsx sheet protection as a sheet lock that lets nobody edit, and exports it back as the worksheet\'s protection', { timeout: 120_000 }, async () => {
      const made = new ExcelJS.Workbook();
      const payroll = made.addWorksheet('Payroll');
      payroll.getCell('A1').value = 'Salary';
      payroll.getCell('B1').value = 5000;
      await payroll.protect('', {});
      made.addWorksheet('Notes').getCell('A1').value = 'free';
      const data = new Uint8Array(await made.xlsx.writeBuffer());
      const imported = await importAndWait(svc, { fileId: 'protected', type: 'spreadsheet' }, { name: 'protected.xlsx', data });
      expect(imported.status, imported.text).toBe(200);

      const listed = (await svc.call('GET', '/sdk/v2/api/files/protected/sheets/locks')).body.data.locks as Array<{ sheetName: string; locks: unknown[] }>;
      expect(listed.map((entry) => [entry.sheetName, entry.locks])).toEqual([
        ['Payroll', [{ id: 'xlsx-sheet-protection', type: 'sheet', lockerId: 'xlsx-sheet-protection', visitorPermission: 'readable', users: {}, departments: {}, groups: {}, ranges: [] }]],
      ]);
      // nobody edits a protected sheet until someone with manageable removes the lock (Unprotect Sheet)
      const refused = await svc.call('POST', '/sdk/v2/api/files/protected/sheets/values', { body: { range: 'Payroll!B1', resource: { values: [[6000]] } } });
      expect([refused.status, refused.body.status]).toEqual([403, 128300]);
      expect((await svc.call('POST', '/sdk/v2/api/files/protected/sheets/values', { body: { range: 'Notes!A2', resource: { values: [['still free']] } } })).status).toBe(200);

      const { bytes } = await exportFile(svc, 'protected', 'xlsx');
      const exported = await workbookOf(bytes);
      // exceljs reads `<sheetProtection>` into a field its typings leave out
      const protection = (name: string) => (exported.getWorksheet(name) as unknown as { sheetProtection?: { sheet?: boolean } | null }).sheetProtection ?? null;
      expect(protection('Payroll')).toMatchObject({ sheet: true });
      expect(protection('Notes')).toBeNull();
      expect(exported.getWorksheet('Payroll')!.getCell('B1').value).toBe(5000);
    });
  });
}
