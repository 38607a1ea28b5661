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

describe('sort and filter in the spreadsheet editor', () => {
  it('sorts a table under its header as one undo step, filters rows by values and a condition for every collaborator, and hides rows and columns', { timeout: 120_000 }, async () => {
    const { svc } = suite;
    await suite.create('sort-filter-1');
    const values = '/sdk/v2/api/files/sort-filter-1/sheets/values';
    const table = [
      ['Name', 'Dept', 'Salary'],
      ['Ada', 'Sales', 4200],
      ['Ben', 'Ops', 6100],
      ['Cleo', 'Sales', 7300],
      ['Dan', 'Finance', 5100],
      ['Eve', 'Ops', 3900],
    ];
    expect((await svc.call('POST', values, { body: { range: 'A1:C6', resource: { values: table } } })).status).toBe(200);
    const read = async () => (await svc.call('GET', values, { query: { range: 'A1:C6' } })).body.data?.values;
    const { page, sheet, errors, close } = await suite.open('sort-filter-1');
    const tool = (name: string) => sheet.frame.getByRole('toolbar').getByRole('button', { name, exact: true });
    await expect.poll(() => sheet.cell(1, 0).textContent()).toBe('Ada');

    // Sort Z to A from one cell of the Salary column: the table around it is sorted, its header row stays on top
    await sheet.go('C3');
    await tool('Sort Z to A').click();
    await expect.poll(read).toEqual([table[0], table[3], table[2], table[4], table[1], table[5]]);
    await sheet.grid.focus();
    await page.keyboard.press('Control+z');
    await expect.poll(read).toEqual(table);

    // Filter: ▾ buttons on the header; the Dept column keeps Ops and Finance, then Salary > 5000
    await sheet.go('B2');
    await tool('Filter').click();
    // the toolbar's Filter stays pressed while the sheet has a filter, as in Excel
    await expect.poll(() => tool('Filter').getAttribute('aria-pressed')).toBe('true');
    const filterButton = (column: string) => sheet.frame.getByRole('button', { name: `Filter column ${column}` });
    await filterButton('B').click();
    const panel = sheet.frame.getByRole('dialog', { name: 'Filter column B' });
    await panel.getByRole('checkbox', { name: 'Sales' }).uncheck();
    // some values kept, not all: "(Select all)" shows mixed, as in Excel
    expect(await panel.getByRole('checkbox', { name: '(Select all)' }).evaluate((box) => [(box as HTMLInputElement).checked, (box as HTMLInputElement).indeterminate])).toEqual([false, true]);
    await page.screenshot({ path: '/tmp/shots-sheet-features/filter-panel.png' });
    await panel.getByRole('button', { name: 'OK' }).click();
    const shownRows = () => sheet.grid.locator('[role=gridcell][data-column="0"]').evaluateAll((cells) => cells.map((cell) => cell.textContent).filter((text) => text !== ''));
    await expect.poll(shownRows).toEqual(['Name', 'Ben', 'Dan', 'Eve']);
    await filterButton('C').click();
    const salary = sheet.frame.getByRole('dialog', { name: 'Filter column C' });
    await salary.getByRole('combobox', { name: 'Condition' }).selectOption('gt');
    await salary.getByRole('textbox', { name: 'Condition value' }).fill('5000');
    await salary.getByRole('button', { name: 'OK' }).click();
    await expect.poll(shownRows).toEqual(['Name', 'Ben', 'Dan']);
    // the arrow keys step over hidden rows; the values API still reads every row
    await sheet.go('A3');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => sheet.nameBox.inputValue()).toBe('A5');
    expect(await read()).toEqual(table);
    await page.screenshot({ path: '/tmp/shots-sheet-features/filtered.png' });

    // the filter is part of the document: a second user sees the same rows
    svc.integrator.addUser({ id: 'colleague', name: 'Colin', token: 'colleague-token' });
    svc.integrator.grant('sort-filter-1', 'colleague', { readable: true, editable: true });
    const second = await suite.open('sort-filter-1', 'colleague-token');
    await expect.poll(() => second.sheet.grid.locator('[role=gridcell][data-column="0"]').evaluateAll((cells) => cells.map((cell) => cell.textContent).filter((text) => text !== ''))).toEqual(['Name', 'Ben', 'Dan']);
    await second.close();

    // Clear filter on B, then the toolbar's Filter takes the filter away
    await filterButton('B').click();
    await sheet.frame.getByRole('dialog', { name: 'Filter column B' }).getByRole('button', { name: 'Clear filter' }).click();
    await expect.poll(shownRows).toEqual(['Name', 'Ben', 'Cleo', 'Dan']);
    await tool('Filter').click();
    await expect.poll(shownRows).toEqual(['Name', 'Ada', 'Ben', 'Cleo', 'Dan', 'Eve']);
    expect(await filterButton('B').count()).toBe(0);
    expect(await tool('Filter').getAttribute('aria-pressed')).toBe('false');

    // Hide rows and columns from the right-click menu; selecting across them unhides them
    const menuItem = (name: string) => sheet.frame.getByRole('menuitem', { name, exact: true });
    await sheet.cell(2, 0).click({ button: 'right' });
    await menuItem('Hide rows').click();
    await expect.poll(shownRows).toEqual(['Name', 'Ada', 'Cleo', 'Dan', 'Eve']);
    await sheet.cell(0, 1).click({ button: 'right' });
    await menuItem('Hide columns').click();
    const headers = () => sheet.grid.locator('[role=columnheader]').evaluateAll((cells) => cells.slice(0, 3).map((cell) => cell.textContent));
    await expect.poll(headers).toEqual(['A', 'C', 'D']);
    await sheet.go('A1');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => sheet.nameBox.inputValue()).toBe('C1');
    await page.screenshot({ path: '/tmp/shots-sheet-features/hidden.png' });
    await sheet.go('A2:C4');
    await page.keyboard.press('Shift+F10');
    await menuItem('Unhide rows').click();
    await expect.poll(shownRows).toEqual(['Name', 'Ada', 'Ben', 'Cleo', 'Dan', 'Eve']);
    await sheet.go('A2:C4');
    await page.keyboard.press('Shift+F10');
    await menuItem('Unhide columns').click();
    await expect.poll(headers).toEqual(['A', 'B', 'C']);
    expect(await read()).toEqual(table);
    expect(errors).toEqual([]);
    await close();
  });
});
