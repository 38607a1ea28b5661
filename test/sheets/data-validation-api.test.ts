import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases.js';
import { startService, type TestService } from '../support/service.js';

/**
 * Data validation through the real server (docs/SHEETS.md "Data validation"): rules set and read over HTTP, values API
 * writes and appends refused whole (128400) when a value breaks a `stop` rule, accepted under warning.
 */

const VALUES = (fileId: string) => `/sdk/v2/api/files/${fileId}/sheets/values`;
const RULES = (fileId: string) => `/sdk/v2/api/files/${fileId}/sheets/data-validation`;

for (const database of testDatabases()) {
  describe(`data validation through the server [${database.name}]`, () => {
    let svc: TestService;
    beforeAll(async () => {
      svc = await startService(database, { integrator: true });
    });
    afterAll(async () => svc.close());

    const create = async (fileId: string) => expect((await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'spreadsheet', fileId } })).status).toBe(200);
    const write = (fileId: string, range: string, values: unknown[][]) => svc.call('POST', VALUES(fileId), { body: { range, resource: { values } } });
    const read = async (fileId: string, range: string) => (await svc.call('GET', VALUES(fileId), { query: { range } })).body.data?.values;
    const setRule = (fileId: string, range: string, rule: unknown) => svc.call('PUT', RULES(fileId), { body: { range, rule } });

    it('refuses a write breaking a stop rule whole, with the rule\'s message, and writes nothing of it', async () => {
      await create('dv-stop');
      expect((await write('dv-stop', 'E1:E3', [['North'], ['South'], ['East']])).status).toBe(200);
      const list = await setRule('dv-stop', 'Sheet1!A2:A100', { type: 'list', formula: '=$E$1:$E$3', errorMessage: 'Pick a region from the list.' });
      expect(list.status, list.text).toBe(200);
      expect(list.body.data).toMatchObject({ range: 'Sheet1!A2:A100', rule: { type: 'list', formula: '$E$1:$E$3', ranges: ['A2:A100'], errorStyle: 'stop', allowBlank: true } });
      expect((await setRule('dv-stop', 'B2:B100', { type: 'whole', operator: 'between', value1: 1, value2: '=$F$1' })).status).toBe(200);
      expect((await write('dv-stop', 'F1', [[10]])).status).toBe(200);

      // a valid write goes through (list compared ignoring case; a formula checked by its value)
      const fine = await write('dv-stop', 'A2:B3', [['north', 3], ['East', '=2*5']]);
      expect(fine.status, fine.text).toBe(200);
      // one bad cell among good ones: the whole call is refused, nothing written
      const refused = await write('dv-stop', 'A4:B5', [['South', 4], ['West', 5]]);
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ status: 128400, data: { sheetName: 'Sheet1', cell: 'A5', row: 4, column: 0, errorMessage: 'Pick a region from the list.' } });
      expect(refused.body.message).toContain('A5: Pick a region from the list.');
      expect(await read('dv-stop', 'A4:B5')).toEqual([]);
      // a number past a bound given as a formula, a decimal where whole numbers are asked, text where numbers are
      for (const value of [11, 2.5, 'seven', '=F1+1']) {
        const bad = await write('dv-stop', 'B6', [[value]]);
        expect(bad.body.status, String(value)).toBe(128400);
        expect(bad.body.data.errorMessage).toBeUndefined();
      }
      expect(await read('dv-stop', 'B6')).toEqual([]);
      // appends are checked where the rows land
      const append = await svc.call('PUT', VALUES('dv-stop'), { body: { range: 'A1:B1', resource: { values: [['South', 0]] } } });
      expect(append.body).toMatchObject({ status: 128400, data: { cell: 'B4' } });
      // blanks pass by default; clearing is a write of blanks
      expect((await write('dv-stop', 'A2', [[null]])).status).toBe(200);
      // the rules as the API answers them
      const rules = await svc.call('GET', RULES('dv-stop'));
      expect(rules.status).toBe(200);
      expect(rules.body.data.rules.map((rule: { type: string; ranges: string[] }) => [rule.type, rule.ranges])).toEqual(
        expect.arrayContaining([['list', ['A2:A100']], ['whole', ['B2:B100']]]),
      );
    });

    it('refuses a sort that moves a value into a cell whose stop rule refuses it, and sorts what the rules allow', async () => {
      await create('dv-sort');
      expect((await write('dv-sort', 'A1:B4', [['Name', 'Score'], ['Ann', 30], ['Bob', 10], ['Cy', 20]])).status).toBe(200);
      // B2 alone must stay above 25: sorting ascending by score would move 10 there
      expect((await setRule('dv-sort', 'B2', { type: 'whole', operator: 'gt', value1: 25, errorMessage: 'The leader scores over 25.' })).status).toBe(200);
      const sort = (descending: boolean) => svc.call('POST', `/sdk/v2/api/files/dv-sort/sheets/sort`, { body: { range: 'A1:B4', keys: [{ column: 'B', descending }], header: true } });
      const refused = await sort(false);
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ status: 128400, data: { sheetName: 'Sheet1', cell: 'B2', errorMessage: 'The leader scores over 25.' } });
      expect(await read('dv-sort', 'A2:B4')).toEqual([['Ann', 30], ['Bob', 10], ['Cy', 20]]);
      const sorted = await sort(true);
      expect(sorted.status, sorted.text).toBe(200);
      expect(await read('dv-sort', 'A2:B4')).toEqual([['Ann', 30], ['Cy', 20], ['Bob', 10]]);
    });

    it('accepts what warning and information rules warn about, and takes rules off a range', async () => {
      await create('dv-warn');
      expect((await setRule('dv-warn', 'A1:A10', { type: 'textLength', operator: 'le', value1: 5, errorStyle: 'warning' })).status).toBe(200);
      expect((await write('dv-warn', 'A1', [['far too long']])).status).toBe(200);
      expect((await setRule('dv-warn', 'C1:C10', { type: 'custom', formula: '=C1>B1', allowBlank: false })).status).toBe(200);
      expect((await write('dv-warn', 'B2', [[5]])).status).toBe(200);
      expect((await write('dv-warn', 'C2', [[4]])).body.status).toBe(128400);
      expect((await write('dv-warn', 'C2', [[6]])).status).toBe(200);
      expect((await write('dv-warn', 'C3', [[null]])).body.status).toBe(128400);
      // taking the rule off the middle of its range keeps it on the rest, each cell reading its own row
      const removed = await setRule('dv-warn', 'C2:C5', null);
      expect(removed.body.data).toEqual({ range: 'Sheet1!C2:C5', rule: null });
      expect((await write('dv-warn', 'C3', [[-1]])).status).toBe(200);
      expect((await write('dv-warn', 'B7', [[9]])).status).toBe(200);
      expect((await write('dv-warn', 'C7', [[8]])).body.status).toBe(128400);
      const rules = (await svc.call('GET', RULES('dv-warn'), { query: { sheetName: 'sheet1' } })).body.data.rules as Array<{ type: string; ranges: string[]; formula?: string }>;
      expect(rules.find((rule) => rule.type === 'custom')).toMatchObject({ ranges: ['C1', 'C6:C10'] });
    });

    it('refuses rules that cannot be kept, with the reason', async () => {
      await create('dv-bad');
      for (const [rule, reason] of [
        [{ type: 'whole', operator: 'between', value1: 1 }, 'value2'],
        [{ type: 'list', values: [] }, 'values'],
        [{ type: 'custom', formula: '=SUM(1,' }, 'formula'],
        [{ type: 'sometimes' }, 'type'],
      ] as const) {
        const answer = await setRule('dv-bad', 'A1:A3', rule);
        expect(answer.status).toBe(400);
        expect(answer.body.status).toBe(128401);
        expect(answer.body.message).toContain(reason);
      }
      expect((await setRule('dv-bad', 'Nope!A1', { type: 'decimal', operator: 'gt', value1: 0 })).body.status).toBe(72002);
      expect((await setRule('dv-bad', 'A0', { type: 'decimal', operator: 'gt', value1: 0 })).body.status).toBe(72001);
    });
  });
}
