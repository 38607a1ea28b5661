import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as Y from 'yjs';
import { docFromState } from '../../src/model/content.js';
import { sheetModels } from '../../src/model/sheets/sheet-model.js';
import { testDatabases } from '../support/databases.js';
import { DEFAULT_USER, eventually } from '../support/integrator.js';
import { startService, type TestService } from '../support/service.js';
import { connectEditor } from './editor-client.js';

const FILE = 'budget';
const VALUES = `/sdk/v2/api/files/${FILE}/sheets/values`;

for (const database of testDatabases()) {
  describe(`spreadsheet values API [${database.name}]`, () => {
    let svc: TestService;
    beforeEach(async () => {
      svc = await startService(database, { integrator: true, bodyLimitBytes: 1024 * 1024 });
      const created = await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'spreadsheet', fileId: FILE } });
      expect(created.status).toBe(200);
    });
    afterEach(async () => svc.close());

    const read = (range: string, query: Record<string, string> = {}) => svc.call('GET', VALUES, { query: { range, ...query } });
    const write = (range: string, values: unknown, extra: Record<string, unknown> = {}) =>
      svc.call('POST', VALUES, { body: { range, resource: { values }, ...extra } });
    const append = (range: string, values: unknown, extra: Record<string, unknown> = {}) =>
      svc.call('PUT', VALUES, { body: { range, resource: { values }, ...extra } });
    const valuesOf = async (range: string, query: Record<string, string> = {}) => {
      const response = await read(range, query);
      expect(response.status, response.text).toBe(200);
      return response.body.data.values as unknown[][];
    };
    /** how many changes the content engine has stored for the file (its update counter) */
    const version = async () =>
      (await svc.services.storage.db.selectFrom('content_docs').select('update_seq').where('app_id', '=', svc.app.id).where('file_id', '=', FILE).executeTakeFirstOrThrow()).update_seq;

    it('writes a range and reads it back in every A1 form, types kept, trailing empties trimmed', async () => {
      const written = await write('Sheet1!A1:D4', [['name', 'amount', 'paid'], ['rent', 1200.5, true], [], ['food', 300, false, '=B2+B4']]);
      expect(written.status, written.text).toBe(200);
      expect(written.body).toEqual({
        status: 0,
        message: 'success',
        data: { updatedRange: 'Sheet1!A1:D4', updatedRows: 4, updatedColumns: 4, updatedCells: 10 },
      });

      const full = await read('Sheet1!A1:C3');
      expect(full.body.data).toEqual({ range: 'Sheet1!A1:C3', values: [['name', 'amount', 'paid'], ['rent', 1200.5, true]] });
      expect(await valuesOf('B:C')).toEqual([['amount', 'paid'], [1200.5, true], [], [300, false]]);
      expect(await valuesOf('2:2')).toEqual([['rent', 1200.5, true]]);
      expect(await valuesOf('B2')).toEqual([[1200.5]]);
      // the formula =B2+B4 reads as computed
      expect(await valuesOf('Sheet1')).toEqual([['name', 'amount', 'paid'], ['rent', 1200.5, true], [], ['food', 300, false, 1500.5]]);
      expect((await read('Sheet1', { valueRenderOption: 'FORMULA' })).body.data.values[3]).toEqual(['food', 300, false, '=B2+B4']);
      expect(await valuesOf('A2:B')).toEqual([['rent', 1200.5], [], ['food', 300]]);
      expect((await read('E10:F20')).body.data).toEqual({ range: 'Sheet1!E10:F20', values: [] });
      // the range answered names the sheet as it is spelled in the file
      expect((await read('sheet1!b:c')).body.data.range).toBe('Sheet1!B:C');
    });

    it('addresses sheets whose names need quotes', async () => {
      const added = await svc.call('POST', `/sdk/v2/api/files/${FILE}/sheets`, { body: { name: "Q1!Plan's" } });
      expect(added.status, added.text).toBe(200);
      expect(added.body.data).toMatchObject({ name: "Q1!Plan's", index: 1, rowCount: 1000, columnCount: 26 });
      expect((await write("'Q1!Plan''s'!B2:C2", [['plan', 42]])).status).toBe(200);
      expect((await read("'Q1!Plan''s'!B2")).body.data).toEqual({ range: "'Q1!Plan''s'!B2", values: [['plan']] });
      expect((await read("'Q1!Plan''s'")).body.data).toEqual({ range: "'Q1!Plan''s'", values: [[], ['', 'plan', 42]] });
      // without a sheet name: the first sheet, which is still empty
      expect(await valuesOf('B2:C2')).toEqual([]);
    });

    it('a write is idempotent: the same call twice gives the same sheet and no second change', async () => {
      const body = [[1, 'two', true], [null, '=A1*2']];
      expect((await write('A1:C2', body)).status).toBe(200);
      const after = await version();
      expect(after).toBeGreaterThan(0);
      expect((await write('A1:C2', body)).status).toBe(200);
      expect(await valuesOf('Sheet1')).toEqual([[1, 'two', true], ['', 2]]);
      expect(await version()).toBe(after);
    });

    it('null and "" clear cells; cells of the range the values do not reach stay', async () => {
      await write('A1:C2', [[1, 2, 3], [4, 5, 6]]);
      await write('A1:C2', [[null, ''], [7]]);
      expect(await valuesOf('A1:C2')).toEqual([['', '', 3], [7, 5, 6]]);
    });

    it('refuses values larger than the range, and changes nothing', async () => {
      await write('A1', [['keep']]);
      const before = await version();
      for (const values of [[[1, 2, 3]], [[1], [2]], [[1, 2], [3]]]) {
        const response = await write('A1:B1', values);
        expect(response.status, JSON.stringify(values)).toBe(400);
        expect(response.body.status).toBe(72004);
        expect(response.body.data).toMatchObject({ rangeRows: 1, rangeColumns: 2 });
      }
      expect(await valuesOf('Sheet1')).toEqual([['keep']]);
      expect(await version()).toBe(before);
    });

    it('grows the sheet when writing past its size, up to XFD1048576', async () => {
      expect((await write('XFD1048576', [['corner']])).status).toBe(200);
      expect(await valuesOf('XFD1048576')).toEqual([['corner']]);
      const past = await write('XFE1', [['no']]);
      expect(past.status).toBe(400);
      expect(past.body.status).toBe(72001);
      expect(past.body.message).toMatch(/past the last column XFD/);
    });

    it('appends after the last non-empty row of the table; not idempotent without a request id', async () => {
      await write('A1:B2', [['item', 'qty'], ['pens', 3]]);
      const first = await append('A1:B1', [['paper', 10]]);
      expect(first.status, first.text).toBe(200);
      expect(first.body.data).toEqual({ updatedRange: 'Sheet1!A3:B3', updatedRows: 1, updatedColumns: 2, updatedCells: 2, alreadyApplied: false });
      const again = await append('A1:B1', [['paper', 10]]);
      expect(again.body.data.updatedRange).toBe('Sheet1!A4:B4');
      expect(await valuesOf('A:B')).toEqual([['item', 'qty'], ['pens', 3], ['paper', 10], ['paper', 10]]);
    });

    it('applies a retried append once when it carries a clientRequestId', async () => {
      await write('A1', [['log']]);
      const body = { clientRequestId: 'retry-1' };
      const first = await append('A:A', [['entry 1'], ['entry 2']], body);
      expect(first.body.data).toMatchObject({ updatedRange: 'Sheet1!A2:A3', alreadyApplied: false });
      const before = await version();
      const retry = await append('A:A', [['entry 1'], ['entry 2']], body);
      expect(retry.status).toBe(200);
      expect(retry.body.data).toEqual({ ...first.body.data, alreadyApplied: true });
      expect(await valuesOf('A:A')).toEqual([['log'], ['entry 1'], ['entry 2']]);
      expect(await version()).toBe(before);

      const reused = await append('A:A', [['something else']], body);
      expect(reused.status).toBe(409);
      expect(reused.body.status).toBe(72011);
      expect(await valuesOf('A:A')).toEqual([['log'], ['entry 1'], ['entry 2']]);

      const next = await append('A:A', [['entry 3']], { clientRequestId: 'retry-2' });
      expect(next.body.data).toMatchObject({ updatedRange: 'Sheet1!A4', alreadyApplied: false });
    });

    it('forgets a clientRequestId after 24 hours', async () => {
      await append('A:A', [['first']], { clientRequestId: 'daily' });
      vi.useFakeTimers({ toFake: ['Date'] });
      try {
        vi.setSystemTime(Date.now() + 23 * 60 * 60 * 1000);
        expect((await append('A:A', [['first']], { clientRequestId: 'daily' })).body.data.alreadyApplied).toBe(true);
        vi.setSystemTime(Date.now() + 2 * 60 * 60 * 1000);
        const later = await append('A:A', [['first']], { clientRequestId: 'daily' });
        expect(later.body.data).toMatchObject({ updatedRange: 'Sheet1!A2', alreadyApplied: false });
      } finally {
        vi.useRealTimers();
      }
      expect(await valuesOf('A:A')).toEqual([['first'], ['first']]);
    });

    it('concurrent appends each get their own rows, and concurrent retries of one id apply once', async () => {
      const appends = await Promise.all(Array.from({ length: 6 }, (_, i) => append('A:B', [[`row ${i}`, i]])));
      expect(appends.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
      const rows = await valuesOf('A:B');
      expect(rows).toHaveLength(6);
      expect(rows.map((row) => row[1]).sort()).toEqual([0, 1, 2, 3, 4, 5]);

      const retries = await Promise.all(Array.from({ length: 4 }, () => append('A:B', [['once', 99]], { clientRequestId: 'same' })));
      expect(retries.filter((r) => r.body.data.alreadyApplied === false)).toHaveLength(1);
      expect((await valuesOf('A:B')).filter((row) => row[0] === 'once')).toHaveLength(1);
    });

    it('deletes rows and shifts the rows below up', async () => {
      await write('A1:A6', [['r1'], ['r2'], ['r3'], ['r4'], ['r5'], ['r6']]);
      // zero-based index; the public client kits send Content-Type: application/json with no body
      const deleted = await svc.call('DELETE', `/sdk/v2/api/files/${FILE}/sheets/Sheet1/rows/1`, {
        query: { count: 2 },
        headers: { 'content-type': 'application/json' },
      });
      expect(deleted.status, deleted.text).toBe(200);
      expect(deleted.body.data).toEqual({ sheetName: 'Sheet1', deletedRows: 2, rowCount: 998 });
      expect(await valuesOf('A:A')).toEqual([['r1'], ['r4'], ['r5'], ['r6']]);
      // count defaults to 1
      expect((await svc.call('DELETE', `/sdk/v2/api/files/${FILE}/sheets/Sheet1/rows/0`)).body.data.deletedRows).toBe(1);
      expect(await valuesOf('A:A')).toEqual([['r4'], ['r5'], ['r6']]);
    });

    it('deletes rows of a sheet whose name needs encoding', async () => {
      await svc.call('POST', `/sdk/v2/api/files/${FILE}/sheets`, { body: { name: 'Plan 2025!' } });
      await write("'Plan 2025!'!A1:A3", [['a'], ['b'], ['c']]);
      const deleted = await svc.call('DELETE', `/sdk/v2/api/files/${FILE}/sheets/${encodeURIComponent('Plan 2025!')}/rows/0`);
      expect(deleted.status, deleted.text).toBe(200);
      expect(await valuesOf("'Plan 2025!'!A:A")).toEqual([['b'], ['c']]);
    });

    it('refuses bad delete-rows calls clearly', async () => {
      const cases: Array<[string, Record<string, string | number>, number, number]> = [
        ['Nope/rows/0', {}, 404, 72002],
        ['Sheet1/rows/1000', {}, 400, 72009],
        ['Sheet1/rows/-1', {}, 400, 72000],
        ['Sheet1/rows/x', {}, 400, 72000],
        ['Sheet1/rows/0', { count: 0 }, 400, 72000],
        ['Sheet1/rows/0', { count: 'many' }, 400, 72000],
      ];
      for (const [path, query, http, code] of cases) {
        const response = await svc.call('DELETE', `/sdk/v2/api/files/${FILE}/sheets/${path}`, { query });
        expect(response.status, path).toBe(http);
        expect(response.body.status, path).toBe(code);
      }
    });

    it('adds sheets; refuses duplicate and invalid names', async () => {
      const add = (body: unknown) => svc.call('POST', `/sdk/v2/api/files/${FILE}/sheets`, { body });
      const added = await add({ name: 'Summary' });
      expect(added.status).toBe(200);
      expect(added.body.data).toMatchObject({ name: 'Summary', index: 1 });
      expect(typeof added.body.data.sheetId).toBe('string');
      const duplicate = await add({ name: 'summary' });
      expect(duplicate.status).toBe(409);
      expect(duplicate.body.status).toBe(72008);
      for (const name of ['', 'a/b', 'x'.repeat(101), "'quoted'"]) {
        const response = await add({ name });
        expect(response.status, name).toBe(400);
        expect(response.body.status, name).toBe(72007);
      }
      for (const body of [{}, { name: 5 }, [], 'Summary']) {
        const response = await add(body);
        expect(response.status, JSON.stringify(body)).toBe(400);
        expect(response.body.status, JSON.stringify(body)).toBe(72000);
      }
      expect((await svc.call('POST', `/sdk/v2/api/files/${FILE}/sheets`, { rawBody: '{"name":' })).body.status).toBe(72000);
      expect(await valuesOf('Summary')).toEqual([]);
    });

    it('refuses malformed ranges, unknown sheets, ranges past the limits and bad value shapes, changing nothing', async () => {
      await write('A1', [['keep']]);
      const before = await version();
      const badRanges: Array<[string, number, RegExp]> = [
        ['Sheet1!', 72001, /nothing after/],
        ['A1:B2:C3', 72001, /neither a reference nor a sheet name/],
        ['Sheet1!A1:B2:C3', 72001, /not a cell or range/],
        ['Sheet1!A0', 72001, /start at 1/],
        ['A1048577', 72001, /past the last row/],
        ["'unterminated!A1", 72001, /unterminated/],
        ['Nope!A1', 72002, /no sheet named "Nope"/],
        ['Nope', 72002, /no sheet/],
      ];
      for (const [range, code, message] of badRanges) {
        for (const response of [await read(range), await write(range, [[1]]), await append(range, [[1]])]) {
          expect(response.status, range).toBe(code === 72002 ? 404 : 400);
          expect(response.body.status, range).toBe(code);
          expect(response.body.message, range).toMatch(message);
          expect(response.body.requestId).toBeTruthy();
        }
      }
      const badBodies: unknown[] = [
        {},
        { range: 'A1' },
        { range: 'A1', resource: {} },
        { range: 'A1', resource: { values: 'text' } },
        { range: 'A1', resource: { values: [1, 2] } },
        { range: 'A1', resource: { values: [[{ v: 1 }]] } },
        { range: 'A1', resource: { values: [[[1]]] } },
        { range: 5, resource: { values: [[1]] } },
        { range: '', resource: { values: [[1]] } },
      ];
      for (const body of badBodies) {
        for (const method of ['POST', 'PUT']) {
          const response = await svc.call(method, VALUES, { body });
          expect(response.status, `${method} ${JSON.stringify(body)}`).toBe(400);
          expect(response.body.status, `${method} ${JSON.stringify(body)}`).toBe(72000);
        }
      }
      for (const clientRequestId of ['has spaces', '', 'x'.repeat(129), 42]) {
        const response = await append('A1', [[1]], { clientRequestId });
        expect(response.status, String(clientRequestId)).toBe(400);
        expect(response.body.status, String(clientRequestId)).toBe(72000);
      }
      const huge = await svc.call('POST', VALUES, { rawBody: '{"range":"A1:A2","resource":{"values":[[1e400]]}}' });
      expect(huge.status).toBe(400);
      expect(huge.body.status).toBe(72003);
      const tooLong = await write('A1', [['x'.repeat(32_768)]]);
      expect(tooLong.body.status).toBe(72003);
      const malformed = await svc.call('POST', VALUES, { rawBody: '{"range": "A1", "resource": {"values": [[1]' });
      expect(malformed.status).toBe(400);
      expect(malformed.body.status).toBe(72000);
      expect(malformed.body.message).toMatch(/JSON/);
      const oversized = await write('A:A', Array.from({ length: 200_000 }, (_, i) => [i]));
      expect(oversized.status).toBe(413);
      expect(oversized.body.status).toBe(41300);
      const missingRange = await svc.call('GET', VALUES);
      expect(missingRange.status).toBe(400);
      expect(missingRange.body.status).toBe(72000);
      const badRender = await read('A1', { valueRenderOption: 'PRETTY' });
      expect(badRender.body.status).toBe(72000);

      expect(await valuesOf('Sheet1')).toEqual([['keep']]);
      expect(await version()).toBe(before);
    });

    it('refuses a read that would answer more than 2,000,000 cells, and reads it in parts', async () => {
      await write('A1', [['top left']]);
      await write('XFD1048576', [['bottom right']]);
      const whole = await read('Sheet1');
      expect(whole.status).toBe(400);
      expect(whole.body.status).toBe(72006);
      expect(whole.body.data).toMatchObject({ rows: 1_048_576, columns: 16_384, limit: 2_000_000 });
      expect(await valuesOf('A1:Z100')).toEqual([['top left']]);
      expect(await valuesOf('XFA1048570:XFD1048576')).toEqual([[], [], [], [], [], [], ['', '', '', 'bottom right']]);
    });

    it('describes every spreadsheet endpoint in the OpenAPI document', async () => {
      const openapi = await svc.call('GET', '/openapi.json');
      expect(openapi.status).toBe(200);
      const paths = openapi.body.paths as Record<string, Record<string, unknown>>;
      expect(Object.keys(paths['/sdk/v2/api/files/{fileId}/sheets/values'] ?? {}).sort()).toEqual(['get', 'post', 'put']);
      expect(Object.keys(paths['/sdk/v2/api/files/{fileId}/sheets/{sheetName}/rows/{index}'] ?? {}).sort()).toEqual(['delete', 'post']);
      expect(Object.keys(paths['/sdk/v2/api/files/{fileId}/sheets'] ?? {})).toEqual(['post']);
    });

    it('answers unknown files and files of other types clearly', async () => {
      const missing = await svc.call('GET', '/sdk/v2/api/files/ghost/sheets/values', { query: { range: 'A1' } });
      expect(missing.status).toBe(404);
      expect(missing.body.status).toBe(70013);
      await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'document', fileId: 'memo' } });
      const wrongType = await svc.call('POST', '/sdk/v2/api/files/memo/sheets/values', { body: { range: 'A1', resource: { values: [[1]] } } });
      expect(wrongType.status).toBe(400);
      expect(wrongType.body.status).toBe(72010);
      const unsigned = await svc.call('GET', VALUES, { query: { range: 'A1' }, signature: null });
      expect(unsigned.status).toBe(401);
      const noToken = await svc.call('GET', VALUES, { query: { range: 'A1' }, token: null });
      expect(noToken.status).toBe(401);
      expect(noToken.body.status).toBe(30007);
    });

    it('keeps applications apart', async () => {
      await write('A1', [['ours']]);
      const other = await svc.createApp();
      const theirs = await svc.call('GET', VALUES, { query: { range: 'A1' }, signature: await svc.sign({}, other) });
      expect(theirs.status).toBe(404);
      expect(theirs.body.status).toBe(70013);
    });

    it('reads need readable, writes need editable', async () => {
      await write('A1', [['secret']]);
      svc.integrator.addUser({ id: 'reader', name: 'Reader', token: 'reader-token' });
      svc.integrator.addUser({ id: 'stranger', name: 'Stranger', token: 'stranger-token' });
      svc.integrator.addFile({
        id: FILE,
        type: 'spreadsheet',
        grants: {
          [DEFAULT_USER.id]: { readable: true, editable: true },
          reader: { readable: true, editable: false },
          stranger: { readable: false, editable: false },
        },
      });
      svc.services.access.forget();

      const asReader = (method: string, body?: unknown) =>
        svc.call(method, VALUES, { token: 'reader-token', ...(method === 'GET' ? { query: { range: 'A1' } } : { body }) });
      expect((await asReader('GET')).body.data.values).toEqual([['secret']]);
      for (const [method, body] of [
        ['POST', { range: 'A1', resource: { values: [['changed']] } }],
        ['PUT', { range: 'A1', resource: { values: [['added']] } }],
      ] as const) {
        const refused = await asReader(method, body);
        expect(refused.status).toBe(403);
        expect(refused.body.status).toBe(40300);
      }
      const addSheet = await svc.call('POST', `/sdk/v2/api/files/${FILE}/sheets`, { token: 'reader-token', body: { name: 'Mine' } });
      expect(addSheet.status).toBe(403);
      const deleteRows = await svc.call('DELETE', `/sdk/v2/api/files/${FILE}/sheets/Sheet1/rows/0`, { token: 'reader-token' });
      expect(deleteRows.status).toBe(403);
      const stranger = await svc.call('GET', VALUES, { token: 'stranger-token', query: { range: 'A1' } });
      expect(stranger.status).toBe(403);
      expect(await valuesOf('Sheet1')).toEqual([['secret']]);
    });

    it('every write emits a coalesced FileContent event', async () => {
      await write('A1', [['first']]);
      await append('A:A', [['second']]);
      await eventually(
        () => svc.integrator.events.some((event) => event.body.kind === 'fileContent' && event.body.fileId === FILE),
        'a FileContent event for the spreadsheet',
      );
      const event = svc.integrator.events.find((e) => e.body.kind === 'fileContent');
      expect(event?.body).toMatchObject({ kind: 'fileContent', action: 'update', fileId: FILE, userId: DEFAULT_USER.id });
    });

    it('an edit through the API is seen live by a connected editor, and the editor\'s edits by the API', async () => {
      const editor = await connectEditor(svc, FILE);
      try {
        expect((await write('B2:C2', [['from api', 7]])).status).toBe(200);
        await eventually(() => JSON.stringify(editor.sheet().cell(1, 2)) === JSON.stringify({ v: 7 }), 'the editor to see the API write');
        expect(editor.sheet().cell(1, 1)).toEqual({ v: 'from api' });

        editor.doc.transact(() => {
          editor.sheet().setCell(3, 0, { v: 'typed in editor' });
          editor.sheet().setCell(3, 1, { f: '=C2*2', v: 14 });
        });
        await eventually(async () => JSON.stringify(await valuesOf('A4:B4')) === JSON.stringify([['typed in editor', 14]]), 'the API to see the edit');
        expect((await read('B4', { valueRenderOption: 'FORMULA' })).body.data.values).toEqual([['=C2*2']]);

        // an append and a row deletion also reach the editor
        await append('A:C', [['appended', 1, 2]]);
        await eventually(() => JSON.stringify(editor.sheet().cell(4, 0)) === JSON.stringify({ v: 'appended' }), 'the editor to see the append');
        await svc.call('DELETE', `/sdk/v2/api/files/${FILE}/sheets/Sheet1/rows/0`);
        await eventually(() => JSON.stringify(editor.sheet().cell(3, 0)) === JSON.stringify({ v: 'appended' }), 'the editor to see the rows move up');
        expect(editor.sheet().cell(4, 0)).toBeUndefined();
      } finally {
        editor.close();
      }
    });

    it('after the last editor left, reads answer from the document it had open, caught up with changes stored since', async () => {
      await write('A1:B1', [[2, '=A1*10']]);
      const editor = await connectEditor(svc, FILE);
      let open: Y.Doc;
      try {
        editor.sheet().setCell(0, 0, { v: 7 });
        await eventually(async () => JSON.stringify(await valuesOf('B1')) === '[[70]]', 'the API to see the edit');
        open = await svc.services.content.read(svc.app.id, FILE);
        expect(svc.services.content.isLive(open)).toBe(true);
      } finally {
        editor.close();
      }
      await eventually(() => !svc.services.content.isLive(open), 'the document to unload');
      // kept decoded, formulas computed: not rebuilt from storage
      expect(await svc.services.content.read(svc.app.id, FILE)).toBe(open);
      expect(await valuesOf('A1:B1')).toEqual([[7, 70]]);
      // another process's change stored after the unload reaches it; a write of the API goes into it
      const other = docFromState(Y.encodeStateAsUpdate(open));
      const before = Y.encodeStateVector(other);
      other.transact(() => sheetModels(other)[0]!.setCell(0, 0, { v: 8 }));
      await svc.services.content.store.append(svc.app.id, FILE, Y.encodeStateAsUpdate(other, before), null);
      expect(await valuesOf('A1:B1')).toEqual([[8, 80]]);
      expect((await write('C1', [['=B1+1']])).status).toBe(200);
      expect(await svc.services.content.read(svc.app.id, FILE)).toBe(open);
      expect(await valuesOf('A1:C1')).toEqual([[8, 80, 81]]);
    });

    it('a change checked first runs on the document itself; one that throws after writing anyway stores nothing, or what editors got', async () => {
      await write('A1', [['kept']]);
      const content = svc.services.content;
      const before = await version();
      const failing = (doc: Y.Doc) => {
        sheetModels(doc)[0]!.setCell(0, 0, { v: 'half written' });
        throw new Error('failed after writing');
      };
      // no editor: the decoded document it wrote to is dropped, nothing is stored
      await expect(content.change(svc.app.id, FILE, { userId: DEFAULT_USER.id }, failing, undefined, () => true)).rejects.toThrow('failed after writing');
      expect(await version()).toBe(before);
      expect(await valuesOf('A1')).toEqual([['kept']]);
      // an editor has it: it got the change as it was made, so the change is stored as its own updates are
      const editor = await connectEditor(svc, FILE);
      try {
        await expect(content.change(svc.app.id, FILE, { userId: DEFAULT_USER.id }, failing, undefined, () => true)).rejects.toThrow('failed after writing');
        await eventually(() => JSON.stringify(editor.sheet().cell(0, 0)) === JSON.stringify({ v: 'half written' }), 'the editor to get the change');
        expect(await version()).toBe(before + 1);
      } finally {
        editor.close();
      }
    });

    describe('formulas', () => {
      it('a formula written through the API reads back computed, and a write recomputes its dependants', async () => {
        expect((await write('A1:C2', [['price', 'qty', 'total'], [21, '=A2*2', '=A2*B2']])).status).toBe(200);
        expect(await valuesOf('A2:C2')).toEqual([[21, 42, 882]]);
        expect(await valuesOf('A2:C2', { valueRenderOption: 'FORMULA' })).toEqual([[21, '=A2*2', '=A2*B2']]);
        // a later write to the precedent: the dependants follow on the next read
        expect((await write('A2', [[5]])).status).toBe(200);
        expect(await valuesOf('A2:C2')).toEqual([[5, 10, 50]]);
        // the plain text export shows computed values too
        const plain = await svc.call('GET', `/sdk/v2/collab-files/${FILE}/plain-text`);
        expect(plain.status, plain.text).toBe(200);
        expect(plain.body.data.content).toBe('price\tqty\ttotal\n5\t10\t50');
      });

      it('functions, cross-sheet references and error values', async () => {
        expect((await svc.call('POST', `/sdk/v2/api/files/${FILE}/sheets`, { body: { name: 'Rates 2025' } })).status).toBe(200);
        expect((await write("'Rates 2025'!A1:B2", [['eur', 1.1], ['gbp', 1.3]])).status).toBe(200);
        expect(
          (
            await write('A1:A9', [
              ['=SUM(1,2,3)'],
              ["=VLOOKUP(\"gbp\",'Rates 2025'!A1:B2,2,FALSE)"],
              ['=1/0'],
              ['=NOPE(1)'],
              ['=SUM(1,{1,2})'],
              ['=A99999999'],
              ['=A8'],
              ['=A7'],
              ['=IF(A1>5,CONCAT("big ",A1),"small")'],
            ])
          ).status,
        ).toBe(200);
        expect(await valuesOf('A1:A9')).toEqual([[6], [1.3], ['#DIV/0!'], ['#NAME?'], [4], ['#REF!'], ['#REF!'], ['#REF!'], ['big 6']]);
      });

      it('a formula written into a General cell takes the format Excel gives its result: DATE, TODAY a date, a date\'s reference plus days a date', async () => {
        expect((await write('A1:D1', [['=DATE(2024,3,15)', '=A1+7', '=YEAR(A1)', '=6/8']])).status).toBe(200);
        expect(await valuesOf('A1:D1', { valueRenderOption: 'FORMATTED_VALUE' })).toEqual([['2024-03-15', '2024-03-22', '2024', '0.75']]);
        expect(await valuesOf('A1:D1')).toEqual([[45366, 45373, 2024, 0.75]]);
      });

      it('a formula that does not parse is refused with 128100, the reason given, and nothing is written', async () => {
        await write('A1', [['keep']]);
        const before = await version();
        for (const [formula, reason] of [['=SUM(1,', /ends too early/], ['=1+', /ends too early/], ['=#BOGUS!', /unknown error value/], ['={1,2;3}', /same number of values/]] as const) {
          const response = await write('A1:B1', [['overwritten?', formula]]);
          expect(response.status).toBe(400);
          expect(response.body.status).toBe(128100);
          expect(response.body.message).toMatch(reason);
          expect(response.body.data).toMatchObject({ row: 0, column: 1 });
        }
        expect(await version()).toBe(before);
        expect(await valuesOf('A1:B1')).toEqual([['keep']]);
      });

      it('an enormous formula is refused with 72012 and nothing is written', async () => {
        await write('A1', [['keep']]);
        const before = await version();
        const enormous = `=${'1+'.repeat(5000)}1`;
        const response = await write('A1:B1', [['overwritten?', enormous]]);
        expect(response.status).toBe(400);
        expect(response.body.status).toBe(72012);
        expect(response.body.message).toMatch(/at most 8192 characters/);
        expect(response.body.data).toMatchObject({ row: 0, column: 1, limit: 8192 });
        expect(await version()).toBe(before);
        expect(await valuesOf('A1:B1')).toEqual([['keep']]);
      });

      it('deleting rows moves the references of formulas; references to deleted rows become #REF!', async () => {
        await write('A1:B6', [[1, '=SUM(A1:A6)'], [2, '=A2'], [3], [4, '=A6*10'], [5], [6]]);
        expect(await valuesOf('B1:B4')).toEqual([[21], [2], [], [60]]);
        const deleted = await svc.call('DELETE', `/sdk/v2/api/files/${FILE}/sheets/Sheet1/rows/1`, { query: { count: 2 } });
        expect(deleted.status, deleted.text).toBe(200);
        expect(await valuesOf('A1:B4', { valueRenderOption: 'FORMULA' })).toEqual([[1, '=SUM(A1:A4)'], [4, '=A4*10'], [5], [6]]);
        expect(await valuesOf('B1:B2')).toEqual([[16], [60]]);
        await write('A1:A2', [['=A5'], ['=A2']]);
        const again = await svc.call('DELETE', `/sdk/v2/api/files/${FILE}/sheets/Sheet1/rows/3`);
        expect(again.status).toBe(200);
        expect(await valuesOf('A1:B1', { valueRenderOption: 'FORMULA' })).toEqual([['=A4', '=SUM(A1:A3)']]);
      });

      it("an editor's change reaches the API's computed values, with no value stored by the editor", async () => {
        await write('A1:B1', [[2, '=A1*10']]);
        expect(await valuesOf('B1')).toEqual([[20]]);
        const editor = await connectEditor(svc, FILE);
        try {
          editor.sheet().setCell(0, 0, { v: 7 });
          await eventually(async () => JSON.stringify(await valuesOf('B1')) === '[[70]]', 'the API to compute from the edit');
        } finally {
          editor.close();
        }
        // after the editor left, reads still see its edits
        expect(await valuesOf('A1:B1')).toEqual([[7, 70]]);
      });

      it('a read sees a change stored by another process (the cached document is brought up to date)', async () => {
        await write('A1:B1', [[1, '=A1+1']]);
        expect(await valuesOf('B1')).toEqual([[2]]);
        // another service process on the same database: its update is stored, this process never saw it
        const stored = await svc.services.content.store.load(svc.app.id, FILE);
        const other = docFromState(stored!.snapshot);
        for (const entry of stored!.updates) Y.applyUpdate(other, entry.update);
        const storeElsewhere = async (value: number) => {
          const before = Y.encodeStateVector(other);
          other.transact(() => sheetModels(other)[0]!.setCell(0, 0, { v: value }));
          await svc.services.content.store.append(svc.app.id, FILE, Y.encodeStateAsUpdate(other, before), null);
        };
        await storeElsewhere(41);
        expect(await valuesOf('A1:B1')).toEqual([[41, 42]]);
        // compacted past what this process has cached: the log no longer holds what it lacks, so it rebuilds
        await storeElsewhere(99);
        expect(await svc.services.content.compact(svc.app.id, FILE, 1)).toBe(true);
        expect(await valuesOf('A1:B1')).toEqual([[99, 100]]);
      });
    });
  });
}
