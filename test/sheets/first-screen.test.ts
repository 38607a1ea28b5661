import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { sheetsOf } from '../../src/model/content.js';
import { testDatabases } from '../support/databases.js';
import { DEFAULT_USER } from '../support/integrator.js';
import { startService, type TestService } from '../support/service.js';
import { sheetModels } from '../../src/model/sheets/sheet-model.js';

const FILE = 'screen';
const FIRST_SCREEN = `/sdk/v2/api/files/${FILE}/sheets/first-screen`;

describe('GET /sdk/v2/api/files/{fileId}/sheets/first-screen', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startService(testDatabases()[0]!, { integrator: true });
    expect((await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'spreadsheet', fileId: FILE } })).status).toBe(200);
    const values = `/sdk/v2/api/files/${FILE}/sheets/values`;
    const written = await svc.call('POST', values, {
      body: { range: 'Sheet1!A1:D3', resource: { values: [['name', 'amount', 'paid', 'double'], ['rent', 1200.5, true, '=B2*2'], ['bad', 0, false, '=1/C3']] } },
    });
    expect(written.status, written.text).toBe(200);
    // far cells are outside the first screen; a second sheet only gives its name
    expect((await svc.call('POST', values, { body: { range: 'Sheet1!A500:Z500', resource: { values: [['far']] } } })).status).toBe(200);
    expect((await svc.call('POST', `/sdk/v2/api/files/${FILE}/sheets`, { body: { name: 'Notes' } })).status).toBe(200);
    expect((await svc.call('POST', `/sdk/v2/api/files/${FILE}/sheets/values`, { body: { range: 'Notes!A1', resource: { values: [['note']] } } })).status).toBe(200);
    // the editor's own layout fields: column B resized, the first row frozen
    await svc.services.content.change(svc.app.id, FILE, { userId: 'editor' }, (doc) => {
      const sheet = sheetsOf(doc).get(0);
      const widths = new Y.Map<number>();
      sheet.set('columnWidths', widths);
      widths.set('1', 180);
      sheet.set('frozenRows', 1);
      // row 3 of a height of its own, and one below the first screen
      const model = sheetModels(doc)[0]!;
      model.setRowHeight(2, 60);
      model.setRowHeight(300, 90);
      // a filled row and a bold column (as an xlsx import keeps them), and a column past the screen's
      model.setLineStyle('rows', 5, { bg: '#fff3bf' });
      model.setLineStyle('columns', 2, { b: true });
      model.setLineStyle('columns', 9, { i: true });
    });
  });
  afterAll(async () => svc.close());

  it('answers the sheets, the layout and the cells in view as they show, formulas computed', async () => {
    const response = await svc.call('GET', FIRST_SCREEN, { query: { rows: 40, width: 350 } });
    expect(response.status, response.text).toBe(200);
    const screen = response.body.data;
    expect(screen.sheets.map((sheet: { name: string }) => sheet.name)).toEqual(['Sheet1', 'Notes']);
    expect(screen).toMatchObject({ name: 'Sheet1', sheetId: screen.sheets[0].sheetId, rowCount: 1000, columnCount: 26, frozenRows: 1, rows: 40 });
    // 100 + 180 + 100 pixels reach past 350: three columns
    expect(screen.columnWidths).toEqual([100, 180, 100]);
    expect(screen.columns).toBe(3);
    expect(screen.rowHeights).toEqual([{ row: 2, height: 60 }]);
    expect(screen.rowStyles).toEqual([{ row: 5, style: { bg: '#fff3bf' } }]);
    expect(screen.columnStyles).toEqual([{ column: 2, style: { b: true } }]);
    // a listed cell's style is the one it shows: C1 is in the bold column
    expect(screen.cells.find((cell: { row: number; column: number }) => cell.row === 0 && cell.column === 2).style).toEqual({ b: true });
    const shown = Object.fromEntries(screen.cells.map((cell: { row: number; column: number; text: string; kind: string }) => [`${cell.row}:${cell.column}`, [cell.text, cell.kind]]));
    expect(shown).toEqual({
      '0:0': ['name', 'text'],
      '0:1': ['amount', 'text'],
      '0:2': ['paid', 'text'],
      '1:0': ['rent', 'text'],
      '1:1': ['1200.5', 'number'],
      '1:2': ['TRUE', 'boolean'],
      '2:0': ['bad', 'text'],
      '2:1': ['0', 'number'],
      '2:2': ['FALSE', 'boolean'],
    });
    const wide = (await svc.call('GET', FIRST_SCREEN, { query: { rows: 3, width: 3000 } })).body.data;
    // wider than the sheet: its 26 columns (2,680 pixels)
    expect(wide.columns).toBe(26);
    expect(wide.cells).toContainEqual({ row: 1, column: 3, text: '2401', kind: 'number' });
    expect(wide.cells).toContainEqual({ row: 2, column: 3, text: '#DIV/0!', kind: 'error' });
    expect(wide.cells.some((cell: { row: number }) => cell.row >= 3)).toBe(false);
    // another sheet by name, and the defaults of the query
    const notes = await svc.call('GET', FIRST_SCREEN, { query: { sheetName: 'Notes' } });
    expect(notes.body.data).toMatchObject({ name: 'Notes', frozenRows: 0, rows: 60, cells: [{ row: 0, column: 0, text: 'note', kind: 'text' }] });
  });

  it('shows numbers under their number formats, cells with their styles', async () => {
    const values = `/sdk/v2/api/files/${FILE}/sheets/values`;
    await svc.services.content.change(svc.app.id, FILE, { userId: 'editor' }, (doc) => {
      const notes = sheetModels(doc)[1]!;
      // malformed styles as a broken client might store them
      notes.setCell(1, 0, { v: 0.256, z: '0.00%', s: { b: true, c: '#C92A2A', junk: 1 } as { b: true } });
      notes.setCell(2, 0, { v: 45366, z: 'yyyy-mm-dd', s: { bg: 'red' } });
    });
    const formatted = (await svc.call('GET', values, { query: { range: 'Notes!A2:A3', valueRenderOption: 'FORMATTED_VALUE' } })).body.data.values;
    const screen = (await svc.call('GET', FIRST_SCREEN, { query: { sheetName: 'Notes', rows: 5 } })).body.data;
    expect(formatted).toEqual([['25.60%'], ['2024-03-15']]);
    expect(screen.cells.filter((cell: { row: number }) => cell.row > 0).map((cell: { text: string }) => cell.text)).toEqual(['25.60%', '2024-03-15']);
    // styles as the editor draws them: validated, so a fill that is not #rrggbb is no style at all
    expect(screen.cells.filter((cell: { row: number }) => cell.row > 0).map((cell: { style?: unknown }) => cell.style)).toEqual([{ b: true, c: '#c92a2a' }, undefined]);
  });

  it('refuses bad parameters, other files and other kinds with clear codes', async () => {
    const badQueries: Array<Record<string, string | number>> = [{ rows: 0 }, { rows: 501 }, { rows: 'many' }, { width: 0 }, { width: 20_001 }, { sheetName: '' }];
    for (const query of badQueries) {
      const response = await svc.call('GET', FIRST_SCREEN, { query });
      expect(response.status, JSON.stringify(query)).toBe(400);
      expect(response.body.status, JSON.stringify(query)).toBe(72000);
    }
    const unknownSheet = await svc.call('GET', FIRST_SCREEN, { query: { sheetName: 'Nope' } });
    expect(unknownSheet.status).toBe(404);
    expect(unknownSheet.body.status).toBe(72002);
    const missing = await svc.call('GET', '/sdk/v2/api/files/ghost/sheets/first-screen');
    expect(missing.status).toBe(404);
    expect(missing.body.status).toBe(70013);
    await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'document', fileId: 'memo' } });
    const wrongType = await svc.call('GET', '/sdk/v2/api/files/memo/sheets/first-screen');
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.status).toBe(72010);
  });

  it('needs the page\'s signature and token and the integrator\'s readable', async () => {
    const unsigned = await svc.call('GET', FIRST_SCREEN, { signature: null });
    expect(unsigned.status).toBe(401);
    const noToken = await svc.call('GET', FIRST_SCREEN, { token: null });
    expect(noToken.status).toBe(401);
    expect(noToken.body.status).toBe(30007);
    const other = await svc.createApp();
    const theirs = await svc.call('GET', FIRST_SCREEN, { signature: await svc.sign({}, other) });
    expect(theirs.status).toBe(404);

    svc.integrator.addUser({ id: 'reader', name: 'Reader', token: 'reader-token' });
    svc.integrator.addUser({ id: 'stranger', name: 'Stranger', token: 'stranger-token' });
    svc.integrator.addFile({
      id: FILE,
      type: 'spreadsheet',
      grants: { [DEFAULT_USER.id]: { readable: true, editable: true }, reader: { readable: true, editable: false }, stranger: { readable: false, editable: false } },
    });
    svc.services.access.forget();
    const asReader = await svc.call('GET', FIRST_SCREEN, { token: 'reader-token', query: { rows: 1 } });
    expect(asReader.status).toBe(200);
    expect(asReader.body.data.cells[0]).toEqual({ row: 0, column: 0, text: 'name', kind: 'text' });
    const stranger = await svc.call('GET', FIRST_SCREEN, { token: 'stranger-token' });
    expect(stranger.status).toBe(403);
    expect(stranger.body.status).toBe(40300);
    expect(stranger.body.data?.cells).toBeUndefined();
  });
});
