import { describe, expect, it } from 'vitest';
import { spreadsheetSuite } from './support/spreadsheet.js';

const suite = spreadsheetSuite();
const VALUES = (fileId: string) => `/sdk/v2/api/files/${fileId}/sheets/values`;

describe('spreadsheet editor: SDK methods, clipboard, permissions', () => {
  it('answers the SDK spreadsheet methods', async () => {
    const { svc } = suite;
    await suite.create('sdk-1');
    await svc.call('POST', VALUES('sdk-1'), { body: { range: 'A1:C2', resource: { values: [['name', 'n', 'double'], ['a, "quoted"', 21, '=B2*2']] } } });
    await svc.call('POST', '/sdk/v2/api/files/sdk-1/sheets', { body: { name: 'Second' } });
    const { sheet, errors, close } = await suite.open('sdk-1');
    const list = await sheet.call<Array<{ sheetId: string; name: string; index: number }>>('getSheetList');
    expect(list.map(({ name, index }) => ({ name, index }))).toEqual([
      { name: 'Sheet1', index: 0 },
      { name: 'Second', index: 1 },
    ]);
    expect(await sheet.call('getSheetIds')).toEqual(list.map((entry) => entry.sheetId));
    expect(await sheet.call('getActiveSheetId')).toBe(list[0]!.sheetId);
    expect(await sheet.call('getCellValue', 'C2')).toBe(42);
    expect(await sheet.call('getCellValue', 'Sheet1!A1')).toBe('name');
    expect(await sheet.call('getRangeValues', 'A1:C2')).toEqual([
      ['name', 'n', 'double'],
      ['a, "quoted"', 21, 42],
    ]);
    expect(await sheet.call('getRowCount')).toBe(1000);
    expect(await sheet.call('getColumnCount', list[1]!.sheetId)).toBe(26);
    expect(await sheet.call('exportCsv')).toBe('name,n,double\r\n"a, ""quoted""",21,42');

    expect(await sheet.call('setContent', 'B2', [[5, '=B2+1']])).toEqual({ sheetId: list[0]!.sheetId, updatedRange: 'B2:C2' });
    await expect.poll(() => sheet.cell(1, 2).textContent()).toBe('6');
    expect(await sheet.call('getCellValue', 'C2')).toBe(6);
    await expect.poll(async () => (await svc.call('GET', VALUES('sdk-1'), { query: { range: 'B2:C2', valueRenderOption: 'FORMULA' } })).body.data?.values).toEqual([[5, '=B2+1']]);

    expect(await sheet.call('setActiveSheet', list[1]!.sheetId)).toEqual({ sheetId: list[1]!.sheetId });
    expect(await sheet.call('getActiveSheetId')).toBe(list[1]!.sheetId);
    await expect.poll(() => sheet.frame.getByRole('tab', { selected: true }).textContent()).toBe('Second');
    expect(await sheet.call('locateCell', 'Sheet1!B2:C3')).toEqual({ sheetId: list[0]!.sheetId, range: 'B2:C3' });
    expect(await sheet.nameBox.inputValue()).toBe('B2:C3');

    await expect(sheet.call('getCellValue', 'not a cell!')).rejects.toThrow(/not a range/);
    await expect(sheet.call('getCellValue', 42)).rejects.toThrow(/A1 reference/);
    await expect(sheet.call('setContent', 'A1', [[{ nested: true }]])).rejects.toThrow(/content must be/);
    expect(errors).toEqual([]);
    await close();
  });

  it('pastes TSV from other spreadsheet programs, grows the sheet to hold it, and copies ranges as TSV', async () => {
    const { svc } = suite;
    await suite.create('paste-1');
    const { page, sheet, errors, close } = await suite.open('paste-1');
    const writeClipboard = (text: string) => sheet.frame.locator('body').evaluate((_body, value) => navigator.clipboard.writeText(value), text);
    await sheet.go('Y1000');
    await writeClipboard('1\t"two\ttabs"\t=Y1000*2\r\n"multi\nline"\tx\t3\r\n');
    await page.keyboard.press('Control+V');
    await expect.poll(() => sheet.call('getRangeValues', 'Y1000:AA1001')).toEqual([
      [1, 'two\ttabs', 2],
      ['multi\nline', 'x', 3],
    ]);
    expect(await sheet.call('getRowCount')).toBe(1001);
    expect(await sheet.call('getColumnCount')).toBe(27);
    expect(await sheet.nameBox.inputValue()).toBe('Y1000:AA1001');

    await sheet.go('Y1000:Z1001');
    await page.keyboard.press('Control+C');
    expect(await sheet.frame.locator('body').evaluate(() => navigator.clipboard.readText())).toBe('1\t"two\ttabs"\n"multi\nline"\tx');

    // a block that would pass the grid's last row is refused with a message, and nothing of it is written
    await svc.call('POST', VALUES('paste-1'), { body: { range: 'B1048576', resource: { values: [['last row']] } } });
    await expect.poll(() => sheet.call('getRowCount')).toBe(1_048_576);
    await sheet.go('A1048575');
    await writeClipboard('a\nb\nc');
    await page.keyboard.press('Control+V');
    await expect.poll(() => sheet.frame.getByRole('alert').filter({ hasText: '1,048,576 rows' }).isVisible()).toBe(true);
    await page.screenshot({ path: '/tmp/shots/spreadsheet-paste.png' });
    expect(await sheet.call('getCellValue', 'A1048575')).toBe('');
    expect(errors).toEqual([]);
    await close();
  });

  it('a user without edit permission sees the sheet but cannot change a cell', async () => {
    const { svc } = suite;
    await suite.create('ro-1');
    await svc.call('POST', VALUES('ro-1'), { body: { range: 'A1', resource: { values: [['keep me']] } } });
    svc.integrator.addUser({ id: 'reader', name: 'Rita', token: 'reader-token' });
    svc.integrator.grant('ro-1', 'reader', { readable: true, editable: false });
    const { page, sheet, errors, close } = await suite.open('ro-1', 'reader-token');
    await expect.poll(() => sheet.cell(0, 0).textContent()).toBe('keep me');
    expect(await sheet.grid.getAttribute('aria-readonly')).toBe('true');
    await sheet.go('A1');
    await page.keyboard.type('changed');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Delete');
    expect(await sheet.frame.locator('.svc-grid-editor').count()).toBe(0);
    expect(await sheet.formula.getAttribute('readonly')).not.toBeNull();
    await expect(sheet.call('setContent', 'A1', 'changed')).rejects.toThrow(/may not edit/);
    expect(await sheet.frame.getByRole('button', { name: 'Add sheet' }).count()).toBe(0);
    expect(await sheet.cell(0, 0).textContent()).toBe('keep me');
    expect((await svc.call('GET', VALUES('ro-1'), { query: { range: 'A1' } })).body.data?.values).toEqual([['keep me']]);
    expect(errors).toEqual([]);
    await close();
  });
});
