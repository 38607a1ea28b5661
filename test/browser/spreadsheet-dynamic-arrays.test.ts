import { describe, expect, it } from 'vitest';
import { spreadsheetSuite } from './support/spreadsheet.js';

const VALUES = '/sdk/v2/api/files/spill-1/sheets/values';

const suite = spreadsheetSuite();

describe('dynamic arrays in the spreadsheet editor (issue 23)', () => {
  it('=SEQUENCE(4) spills 1..4 below, outlined while selected; a value typed in the way gives #SPILL!, cleared it spills again', async () => {
    const { svc } = suite;
    await suite.create('spill-1');
    const { page, sheet, errors } = await suite.open('spill-1');
    await sheet.type('A1', '=SEQUENCE(4)');
    for (const [row, shown] of ['1', '2', '3', '4'].entries()) await expect.poll(() => sheet.cell(row, 0).textContent(), { timeout: 20_000 }).toBe(shown);
    // the spilled cells hold no formula: the formula bar shows nothing there, the API reads their values
    await sheet.go('A3');
    expect(await sheet.formula.inputValue()).toBe('');
    expect((await svc.call('GET', VALUES, { query: { range: 'A1:A4' } })).body.data?.values).toEqual([[1], [2], [3], [4]]);
    // an array sorted from the spill, and its anchor selected: the array is outlined
    await sheet.type('C1', '=SORT(A1#,1,-1)');
    await expect.poll(() => sheet.cell(3, 2).textContent(), { timeout: 20_000 }).toBe('1');
    await sheet.go('A1');
    await expect.poll(() => sheet.frame.locator('.svc-sheet-spill').count(), { timeout: 20_000 }).toBe(4);
    await page.screenshot({ path: 'docs/images/spreadsheet-spill.png' });

    // a value typed inside the area blocks the array: #SPILL! in its cell, the other arrays follow
    await sheet.type('A3', 'x');
    await expect.poll(() => sheet.cell(0, 0).textContent(), { timeout: 20_000 }).toBe('#SPILL!');
    await expect.poll(() => sheet.cell(1, 0).textContent()).toBe('');
    await expect.poll(() => sheet.cell(0, 2).textContent()).toBe('#REF!');
    // the blocked cell says why, in the page's language
    await expect.poll(() => sheet.cell(0, 0).getAttribute('title')).toContain("can't spill");
    await page.screenshot({ path: 'docs/images/spreadsheet-spill-blocked.png' });
    // cleared, the array spills again
    await sheet.go('A3');
    await page.keyboard.press('Delete');
    await expect.poll(() => sheet.cell(3, 0).textContent(), { timeout: 20_000 }).toBe('4');
    await expect.poll(() => sheet.cell(0, 2).textContent()).toBe('4');
    expect(errors).toEqual([]);
  });
});
