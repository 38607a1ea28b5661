import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { testDatabases } from '../support/databases.js';
import { DEFAULT_USER } from '../support/integrator.js';
import { startService, type TestService } from '../support/service.js';
import { sheetModels } from '../../src/model/sheets/sheet-model.js';
import { storedCells } from './stored-cells.js';

const FILE = 'ledger';
const API = `/sdk/v2/api/files/${FILE}`;

for (const database of testDatabases()) {
  describe(`the kits' spreadsheet calls on rows, attributes and locks [${database.name}]`, () => {
    let svc: TestService;
    beforeEach(async () => {
      svc = await startService(database, { integrator: true });
      const created = await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'spreadsheet', fileId: FILE } });
      expect(created.status, created.text).toBe(200);
    });
    afterEach(async () => svc.close());

    const write = async (range: string, values: unknown[][]) => {
      const written = await svc.call('POST', `${API}/sheets/values`, { body: { range, resource: { values } } });
      expect(written.status, written.text).toBe(200);
    };
    const values = async (range: string, render = 'FORMULA') =>
      (await svc.call('GET', `${API}/sheets/values`, { query: { range, valueRenderOption: render } })).body.data.values as unknown[][];
    const cells = async () => storedCells(await svc.services.content.read(svc.app.id, FILE));
    const attrs = (range: string, attributes: Record<string, unknown>) => svc.call('POST', `${API}/sheets/attrs`, { body: { range, attrs: attributes } });
    /** how many changes the content engine has stored for the file */
    const version = async () =>
      (await svc.services.storage.db.selectFrom('content_docs').select('update_seq').where('app_id', '=', svc.app.id).where('file_id', '=', FILE).executeTakeFirstOrThrow()).update_seq;

    it('inserts rows before an index: cells, formats, styles and formulas on every sheet follow', async () => {
      await write('Sheet1!A1:B3', [['item', 'cost'], ['rent', 100], ['food', 30]]);
      await write('Sheet1!B4', [['=SUM(B2:B3)']]);
      expect((await attrs('Sheet1!B2', { bold: true, numberFormat: '0.00' })).status).toBe(200);
      expect((await svc.call('POST', `${API}/sheets`, { body: { name: 'Sum' } })).status).toBe(200);
      await write('Sum!A1', [['=Sheet1!B3*2']]);

      const inserted = await svc.call('POST', `${API}/sheets/Sheet1/rows/1`, { query: { count: 2 } });
      expect(inserted.status, inserted.text).toBe(200);
      expect(inserted.body.data).toEqual({ sheetName: 'Sheet1', insertedRows: 2, rowCount: 1002 });
      expect(await values('Sheet1!A1:B6')).toEqual([['item', 'cost'], [], [], ['rent', 100], ['food', 30], ['', '=SUM(B4:B5)']]);
      expect(await values('Sheet1!B6', 'UNFORMATTED_VALUE')).toEqual([[130]]);
      expect(await values('Sum!A1')).toEqual([['=Sheet1!B5*2']]);
      expect((await cells()).B4).toEqual({ v: 100, z: '0.00', s: { b: true } });

      // at the sheet's end (index = row count) rows are added after the last one
      const atEnd = await svc.call('POST', `${API}/sheets/Sheet1/rows/1002`);
      expect(atEnd.body.data).toEqual({ sheetName: 'Sheet1', insertedRows: 1, rowCount: 1003 });
    });

    it('refuses bad insert-rows calls clearly, changing nothing', async () => {
      await write('A1', [['kept']]);
      const before = await version();
      for (const [path, query, status, code] of [
        ['Nope/rows/0', {}, 404, 72002],
        ['Sheet1/rows/1001', {}, 400, 72009],
        ['Sheet1/rows/-1', {}, 400, 72000],
        ['Sheet1/rows/x', {}, 400, 72000],
        ['Sheet1/rows/0', { count: 0 }, 400, 72000],
        ['Sheet1/rows/0', { count: 1_048_576 }, 400, 72005],
      ] as const) {
        const refused = await svc.call('POST', `${API}/sheets/${path}`, { query });
        expect([refused.status, refused.body.status], `${path} ${JSON.stringify(query)}`).toEqual([status, code]);
      }
      expect(await version()).toBe(before);
      expect(await values('Sheet1')).toEqual([['kept']]);
    });

    it('sets attributes on a range in one change; null resets one, others stay', async () => {
      await write('A1:B2', [['a', 1], ['b', 2]]);
      const before = await version();
      const set = await attrs('Sheet1!A1:B2', { bold: true, italic: true, color: '#C92A2A', backgroundColor: '#fff3bf', horizontalAlign: 'center', numberFormat: '#,##0.00' });
      expect(set.status, set.text).toBe(200);
      expect(set.body.data).toEqual({ updatedRange: 'Sheet1!A1:B2', updatedCells: 4 });
      expect(await version()).toBe(before + 1);
      const style = { b: true, i: true, c: '#c92a2a', bg: '#fff3bf', a: 'center' };
      expect(await cells()).toEqual({
        A1: { v: 'a', z: '#,##0.00', s: style },
        B1: { v: 1, z: '#,##0.00', s: style },
        A2: { v: 'b', z: '#,##0.00', s: style },
        B2: { v: 2, z: '#,##0.00', s: style },
      });
      expect(await values('B1:B2', 'FORMATTED_VALUE')).toEqual([['1.00'], ['2.00']]);

      expect((await attrs('B2', { bold: false, color: null, numberFormat: 'General', horizontalAlign: null })).status).toBe(200);
      expect((await cells()).B2).toEqual({ v: 2, s: { i: true, bg: '#fff3bf' } });
      // whole columns stop at the sheet's size (1000 rows)
      expect((await attrs('C:C', { backgroundColor: '#d3f9d8' })).body.data).toEqual({ updatedRange: 'Sheet1!C1:C1000', updatedCells: 1000 });
      // a cell left with the default look is not stored
      expect((await attrs('C:C', { backgroundColor: null })).status).toBe(200);
      expect(Object.keys(await cells()).filter((address) => address.startsWith('C'))).toEqual([]);
    });

    it('refuses unknown attributes, bad values and too large ranges with a documented code, changing nothing', async () => {
      await write('A1', [['kept']]);
      const before = await version();
      for (const [body, status, code] of [
        [{ range: 'A1', attrs: { underline: true } }, 400, 126001],
        [{ range: 'A1', attrs: {} }, 400, 126001],
        [{ range: 'A1', attrs: { bold: 'yes' } }, 400, 126001],
        [{ range: 'A1', attrs: { color: 'red' } }, 400, 126001],
        [{ range: 'A1', attrs: { backgroundColor: '#fff' } }, 400, 126001],
        [{ range: 'A1', attrs: { horizontalAlign: 'justify' } }, 400, 126001],
        [{ range: 'A1', attrs: { numberFormat: '' } }, 400, 126001],
        [{ range: 'A1', attrs: { bold: true, numberFormat: 42 } }, 400, 126001],
        [{ range: 'A1:Z10000', attrs: { bold: true } }, 400, 126002],
        [{ range: 'A1:', attrs: { bold: true } }, 400, 72001],
        [{ range: 'Nope!A1', attrs: { bold: true } }, 404, 72002],
        [{ range: 'A1' }, 400, 72000],
        [{ range: 'A1', attrs: [] }, 400, 72000],
      ] as const) {
        const refused = await svc.call('POST', `${API}/sheets/attrs`, { body });
        expect([refused.status, refused.body.status], JSON.stringify(body)).toEqual([status, code]);
      }
      const english = await svc.call('POST', `${API}/sheets/attrs`, { body: { range: 'A1', attrs: { underline: true } } });
      expect(english.body.message).toContain('underline');
      expect(await version()).toBe(before);
      expect(await cells()).toEqual({ A1: { v: 'kept' } });
    });

    it('answers no locks and lockedStatus 0 for a spreadsheet without locks', async () => {
      const locks = await svc.call('GET', `${API}/sheets/locks`);
      expect([locks.status, locks.body.data]).toEqual([200, { locks: [] }]);
      const locked = await svc.call('GET', `${API}/judge-table-locked`);
      expect([locked.status, locked.body.data]).toEqual([200, { lockedStatus: 0 }]);
    });

    it('answers lockedStatus 2 when the stored content cannot be read', async () => {
      // no decoded copy kept between reads, so the next read decodes what is stored
      await svc.close();
      svc = await startService(database, { integrator: true, content: { ...loadConfig({}).content, cacheBytes: 0 } });
      expect((await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'spreadsheet', fileId: FILE } })).status).toBe(200);
      await write('A1', [['stored']]);
      // a snapshot that does not decode as a Yjs state (written by hand: the service never stores one)
      const corrupted = await svc.services.storage.db.updateTable('content_docs').set({ snapshot: Buffer.from([255, 255, 255, 255, 1, 2, 3]) }).where('app_id', '=', svc.app.id).where('file_id', '=', FILE).executeTakeFirst();
      expect(Number(corrupted.numUpdatedRows)).toBe(1);
      const locked = await svc.call('GET', `${API}/judge-table-locked`);
      expect([locked.status, locked.body.data]).toEqual([200, { lockedStatus: 2 }]);
    });

    it('checks the file, its type, the app and the permission on every call', async () => {
      svc.integrator.addUser({ id: 'reader', name: 'Reader', token: 'reader-token' });
      svc.integrator.addFile({ id: FILE, type: 'spreadsheet', grants: { [DEFAULT_USER.id]: { readable: true, editable: true }, reader: { readable: true, editable: false } } });
      svc.services.access.forget();
      const asReader = (method: string, path: string, body?: unknown) => svc.call(method, `${API}/${path}`, { token: 'reader-token', ...(body ? { body } : {}) });
      expect((await asReader('POST', 'sheets/Sheet1/rows/0')).status).toBe(403);
      expect((await asReader('POST', 'sheets/attrs', { range: 'A1', attrs: { bold: true } })).status).toBe(403);
      expect((await asReader('GET', 'sheets/locks')).status).toBe(200);
      expect((await asReader('GET', 'judge-table-locked')).status).toBe(200);

      await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'document', fileId: 'memo' } });
      for (const path of ['sheets/locks', 'judge-table-locked']) {
        const wrongType = await svc.call('GET', `/sdk/v2/api/files/memo/${path}`);
        expect([wrongType.status, wrongType.body.status]).toEqual([400, 72010]);
        const missing = await svc.call('GET', `/sdk/v2/api/files/ghost/${path}`);
        expect([missing.status, missing.body.status]).toEqual([404, 70013]);
      }
      const other = await svc.createApp();
      const theirs = await svc.call('POST', `${API}/sheets/Sheet1/rows/0`, { signature: await svc.sign({}, other) });
      expect([theirs.status, theirs.body.status]).toEqual([404, 70013]);
    });

    it('mention position: the cell of the comment holding a mention, following structure edits', async () => {
      const comment = await svc.call('POST', `/sdk/v2/collab-files/${FILE}/comments`, {
        body: {
          selection: { sheet: 'Sheet1', range: 'B3:C4' },
          content: [{ type: 'text', text: 'See ' }, { type: 'mention', attrs: { id: DEFAULT_USER.id, guid: 'at-sheet' } }],
        },
      });
      expect(comment.status, comment.text).toBe(200);
      const sheetId = sheetModels(await svc.services.content.read(svc.app.id, FILE))[0]!.id;
      const position = (atGuid: string, fileId = FILE) => svc.call('GET', `/sdk/v2/api/files/${fileId}/sheets/mention-at-position`, { query: { atGuid } });

      const first = await position('at-sheet');
      expect(first.status, first.text).toBe(200);
      expect(first.body.data).toEqual({ positionInfo: { sheetId, sheetName: 'Sheet1', row: 2, col: 1, position: 'B3' } });

      // two rows inserted above: the answer follows the cells
      expect((await svc.call('POST', `${API}/sheets/Sheet1/rows/0`, { query: { count: 2 } })).status).toBe(200);
      const moved = await position('at-sheet');
      expect(moved.status, moved.text).toBe(200);
      expect(moved.body.data.positionInfo).toEqual({ sheetId, sheetName: 'Sheet1', row: 4, col: 1, position: 'B5' });

      // its rows deleted: the mention points nowhere any more
      expect((await svc.call('DELETE', `${API}/sheets/Sheet1/rows/4`, { query: { count: 2 } })).status).toBe(200);

      const document = await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'document', fileId: 'letter' } });
      expect(document.status, document.text).toBe(200);
      for (const [answer, status, code] of [
        [await position('at-sheet'), 404, 126003],
        [await position('at-unknown'), 404, 126003],
        [await svc.call('GET', `${API}/sheets/mention-at-position`), 400, 72000],
        [await position('at-sheet', 'letter'), 400, 72010],
        [await position('at-sheet', 'nobody'), 404, 70013],
      ] as const) {
        expect(answer.status, answer.text).toBe(status);
        expect(answer.body.status, answer.text).toBe(code);
      }
    });

    it('describes the calls in the OpenAPI document', async () => {
      const paths = (await svc.call('GET', '/openapi.json')).body.paths as Record<string, Record<string, unknown>>;
      expect(Object.keys(paths['/sdk/v2/api/files/{fileId}/sheets/{sheetName}/rows/{index}'] ?? {}).sort()).toEqual(['delete', 'post']);
      expect(Object.keys(paths['/sdk/v2/api/files/{fileId}/sheets/attrs'] ?? {})).toEqual(['post']);
      expect(Object.keys(paths['/sdk/v2/api/files/{fileId}/sheets/locks'] ?? {})).toEqual(['get']);
      expect(Object.keys(paths['/sdk/v2/api/files/{fileId}/judge-table-locked'] ?? {})).toEqual(['get']);
      expect(Object.keys(paths['/sdk/v2/api/files/{fileId}/sheets/mention-at-position'] ?? {})).toEqual(['get']);
    });
  });
}
