import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { spreadsheetSuite } from './support/spreadsheet.js';

const suite = spreadsheetSuite();

function box(locator: Locator): Promise<{ width: number; height: number }> {
  return locator.evaluate((element) => ({ width: element.getBoundingClientRect().width, height: element.getBoundingClientRect().height }));
}

describe('merged cells in the spreadsheet editor', () => {
  it('draws a merge as one cell showing its top-left content, and the selection snaps to it', async () => {
    const { svc } = suite;
    await suite.create('merges-1');
    const { page, sheet } = await suite.open('merges-1');
    await sheet.type('B2', 'Quarterly total');
    await sheet.type('C2', 'hidden');
    await sheet.type('E2', 'beside');
    const single = await box(sheet.cell(1, 1));

    // merged through the API while the editor is open: it redraws at once
    const merged = await svc.call('POST', '/sdk/v2/api/files/merges-1/sheets/merge-cells', { body: { sheetName: 'Sheet1', cell: 'B2', rowspan: 2, colSpan: 3 } });
    expect(merged.status, merged.text).toBe(200);
    await expect.poll(() => sheet.cell(1, 1).getAttribute('class')).toContain('svc-grid-cell-merged');
    const whole = await box(sheet.cell(1, 1));
    expect(whole.width).toBeCloseTo(single.width * 3, 0);
    expect(whole.height).toBeCloseTo(single.height * 2, 0);
    expect(await sheet.cell(1, 1).textContent()).toBe('Quarterly total');
    // the covered cells (C2 among them, whose text stays stored) are not drawn
    for (const [row, column] of [[1, 2], [2, 1], [2, 3]] as const) {
      expect(await sheet.cell(row, column).evaluate((element) => getComputedStyle(element).visibility)).toBe('hidden');
    }
    expect(await sheet.cell(1, 4).textContent()).toBe('beside');

    // a click on the merge's lower right selects the merge, its top-left cell active
    const grid = await sheet.cell(1, 1).boundingBox();
    await page.mouse.click(grid!.x + grid!.width - 10, grid!.y + grid!.height - 5);
    await expect.poll(() => sheet.nameBox.inputValue()).toBe('B2');
    await expect.poll(() => sheet.formula.inputValue()).toBe('Quarterly total');
    const selection = sheet.frame.locator('.svc-grid-selection');
    expect((await box(selection)).width).toBeCloseTo(whole.width, -1);
    // moving right steps out of the merge from its right edge; moving left comes back to it
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => sheet.nameBox.inputValue()).toBe('E2');
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => sheet.nameBox.inputValue()).toBe('B2');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => sheet.nameBox.inputValue()).toBe('B4');
    // a range touching the merge covers it whole
    await sheet.go('A3:B3');
    await expect.poll(async () => Math.round((await box(selection)).height / single.height)).toBe(2);
    await sheet.go('B2');
    await page.screenshot({ path: '/tmp/shots/spreadsheet-merges.png' });
  });
});
