import { describe, expect, it } from 'vitest';
import { spreadsheetSuite } from './support/spreadsheet.js';

const suite = spreadsheetSuite();
const VALUES = (fileId: string) => `/sdk/v2/api/files/${fileId}/sheets/values`;

describe('spreadsheet find: the find bar and the SDK', () => {
  it('finds cells by what they show, on every sheet, and steps through them; the SDK answers the same', async () => {
    const { svc } = suite;
    await suite.create('find-1');
    await svc.call('POST', VALUES('find-1'), { body: { range: 'A1:C3', resource: { values: [['Apple', 'pear', '=A1&" pie"'], ['APPLE', 12, 'banana'], [null, '=B2*2', 'apple']] } } });
    await svc.call('POST', '/sdk/v2/api/files/find-1/sheets', { body: { name: 'More' } });
    await svc.call('POST', VALUES('find-1'), { body: { range: 'More!B5', resource: { values: [['crab apple']] } } });
    const { page, sheet, errors, close } = await suite.open('find-1');
    const [first, second] = await sheet.call<string[]>('getSheetIds');

    // the SDK: case ignored, computed values searched (C1 shows "Apple pie"), sheets in tab order; the first is selected
    expect(await sheet.call('search', 'apple')).toEqual([
      { sheetId: first, range: 'A1' },
      { sheetId: first, range: 'C1' },
      { sheetId: first, range: 'A2' },
      { sheetId: first, range: 'C3' },
      { sheetId: second, range: 'B5' },
    ]);
    expect(await sheet.call('getSelections')).toEqual([{ sheetId: first, range: 'A1' }]);
    expect(await sheet.call('search', 'APPLE', { matchCase: true })).toEqual([{ sheetId: first, range: 'A2' }]);
    expect(await sheet.call('search', 'apple', { wholeCell: true })).toEqual([
      { sheetId: first, range: 'A1' },
      { sheetId: first, range: 'A2' },
      { sheetId: first, range: 'C3' },
    ]);
    // a formula is found by its value, not its text
    expect(await sheet.call('search', '24')).toEqual([{ sheetId: first, range: 'B3' }]);
    expect(await sheet.call('search', 'B2')).toEqual([]);
    await expect(sheet.call('search', '')).rejects.toThrow(/text to find/);
    await expect(sheet.call('search', 'x', 'loose')).rejects.toThrow(/options must be an object/);

    // the find bar: Ctrl+F, Enter steps forward and shows where it is, Shift+Enter back, Escape closes
    await sheet.go('B2');
    await page.keyboard.press('Control+F');
    const box = sheet.frame.getByRole('searchbox', { name: 'Find in the spreadsheet' });
    await expect.poll(() => box.isVisible()).toBe(true);
    await box.fill('apple');
    await box.press('Enter');
    await expect.poll(() => sheet.nameBox.inputValue()).toBe('A1');
    await box.press('Enter');
    await expect.poll(() => sheet.nameBox.inputValue()).toBe('C1');
    expect(await sheet.frame.locator('.svc-sheet-find-count').textContent()).toBe('2 of 5');
    await box.press('Shift+Enter');
    await box.press('Shift+Enter');
    // from the first match back to the last one, on the other sheet
    await expect.poll(() => sheet.call('getSelections')).toEqual([{ sheetId: second, range: 'B5' }]);
    await expect.poll(() => sheet.frame.getByRole('tab', { selected: true }).textContent()).toBe('More');
    await page.screenshot({ path: '/tmp/shots/spreadsheet-find.png' });
    await box.fill('nothing like it');
    await box.press('Enter');
    await expect.poll(() => sheet.frame.locator('.svc-sheet-find-count').textContent()).toBe('No matches');
    await box.press('Escape');
    await expect.poll(() => box.isVisible()).toBe(false);
    expect(errors).toEqual([]);
    await close();
  });
});
