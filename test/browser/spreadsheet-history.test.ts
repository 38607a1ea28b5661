import { describe, expect, it } from 'vitest';
import { spreadsheetSuite } from './support/spreadsheet.js';

const VALUES = '/sdk/v2/api/files/history-1/sheets/values';

const suite = spreadsheetSuite();

describe('spreadsheet history in a browser', () => {
  it('saves a revision, shows it read-only as a grid with its tabs and formats, restores it; the SDK opens and closes the panel', async () => {
    const { svc } = suite;
    await suite.create('history-1');
    const { page, sheet, errors } = await suite.open('history-1');
    const values = async (range: string) => (await svc.call('GET', VALUES, { query: { range } })).body.data?.values;
    await sheet.type('A1', '1234.5');
    await sheet.type('A2', '=A1*2');
    await sheet.go('A1:A2');
    await sheet.frame.getByRole('combobox', { name: 'Number format' }).selectOption('number');
    await expect.poll(() => sheet.cell(1, 0).textContent()).toBe('2,469.00');
    await sheet.frame.getByRole('button', { name: 'Bold (Ctrl+B)' }).click();
    await expect.poll(() => sheet.cell(1, 0).evaluate((cell) => getComputedStyle(cell).fontWeight)).toBe('700');
    await sheet.frame.getByRole('button', { name: 'Add sheet' }).click();
    await sheet.type('A1', 'second sheet then');
    await expect.poll(() => sheet.call('getCellValue', 'Sheet2!A1')).toBe('second sheet then');
    await sheet.call('setActiveSheet', 'Sheet1');
    await expect.poll(() => values('A1:A2')).toEqual([[1234.5], [2469]]);

    const revision = await sheet.call<{ id: string; title: string }>('createRevision', 'Before the change');
    expect(revision.title).toBe('Before the change');
    await sheet.type('A1', '10');
    await sheet.call('setContent', 'Sheet2!A1', 'second sheet now');
    await expect.poll(() => sheet.cell(1, 0).textContent()).toBe('20.00');
    await expect.poll(() => values('A1:A2')).toEqual([[10], [20]]);

    // the SDK opens the panel, which lists the revision beside the comments' rail button
    await sheet.call('showHistory');
    const panel = sheet.frame.locator('.svc-panel-history');
    await expect.poll(() => panel.locator('.svc-revision-list .svc-panel-item').allTextContents()).toEqual([expect.stringContaining('Before the change')]);
    await expect.poll(() => sheet.frame.getByRole('button', { name: 'Comments' }).count()).toBe(1);

    // the old version: values as they were, computed and formatted, read-only, in place of the live grid
    await sheet.call('showRevision', revision.id);
    const old = sheet.frame.locator('.svc-old-version');
    const oldGrid = old.getByRole('grid');
    const oldCell = (row: number, column: number) => oldGrid.locator(`[role=gridcell][data-row="${row}"][data-column="${column}"]`);
    await expect.poll(() => oldCell(0, 0).textContent()).toBe('1,234.50');
    await expect.poll(() => oldCell(1, 0).textContent()).toBe('2,469.00');
    // and styled as they were (docs/SHEETS.md "Cell styles")
    await expect.poll(() => oldCell(1, 0).evaluate((cell) => getComputedStyle(cell).fontWeight)).toBe('700');
    await expect.poll(() => oldGrid.getAttribute('aria-readonly')).toBe('true');
    await expect.poll(() => sheet.frame.locator('.svc-sheet:not(.svc-old-sheet)').isVisible()).toBe(false);
    await expect.poll(() => old.getByRole('tab').allTextContents()).toEqual(['Sheet1', 'Sheet2']);
    // typing, deleting, cutting or pasting in the old grid changes nothing, there or in the file; copying copies what it shows
    const clipboard = sheet.frame.locator('body');
    await oldCell(0, 0).click();
    await page.keyboard.type('99');
    await page.keyboard.press('Enter');
    await oldCell(0, 0).click();
    await page.keyboard.press('Delete');
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Control+X');
    await expect.poll(() => clipboard.evaluate(() => navigator.clipboard.readText())).toBe('1,234.50\n2,469.00');
    await clipboard.evaluate(() => navigator.clipboard.writeText('pasted'));
    await page.keyboard.press('Control+V');
    await expect.poll(() => oldCell(0, 0).textContent()).toBe('1,234.50');
    await expect.poll(() => oldCell(1, 0).textContent()).toBe('2,469.00');
    await expect.poll(() => values('A1:A2')).toEqual([[10], [20]]);
    await old.getByRole('tab', { name: 'Sheet2' }).click();
    await expect.poll(() => oldCell(0, 0).textContent()).toBe('second sheet then');
    await old.getByRole('tab', { name: 'Sheet1' }).click();
    await expect.poll(() => oldCell(0, 0).textContent()).toBe('1,234.50');
    await page.screenshot({ path: '/tmp/shots/spreadsheet-history.png' });

    // restoring (a second click confirms) makes the old cells the file's again: the grid, the SDK and the values API
    const restore = old.locator('.svc-old-version-banner .svc-history-restore');
    await restore.click();
    await restore.click();
    await expect.poll(() => values('A1:A2')).toEqual([[1234.5], [2469]]);
    await expect.poll(() => old.isVisible()).toBe(false);
    await expect.poll(() => sheet.cell(0, 0).textContent()).toBe('1,234.50');
    await expect.poll(() => sheet.cell(1, 0).textContent()).toBe('2,469.00');
    await expect.poll(() => sheet.call('getRangeValues', 'A1:A2')).toEqual([[1234.5], [2469]]);
    await expect.poll(() => sheet.call('getCellValue', 'Sheet2!A1')).toBe('second sheet then');
    await panel.locator('.svc-entry-list .svc-panel-item', { hasText: 'Restored a version' }).first().waitFor();

    // hideHistory closes the panel; the comments panel opens in the same side area
    await sheet.call('hideHistory');
    await expect.poll(() => panel.count()).toBe(0);
    await sheet.call('showComments');
    await expect.poll(() => sheet.frame.getByRole('region', { name: 'Comments' }).isVisible()).toBe(true);
    await sheet.call('hideComments');
    await expect.poll(() => sheet.frame.getByRole('region', { name: 'Comments' }).count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('a reader views an old version but cannot save or restore one; hideRevision shows the live sheet again', async () => {
    const { svc } = suite;
    await suite.create('history-ro');
    const values = '/sdk/v2/api/files/history-ro/sheets/values';
    expect((await svc.call('POST', values, { body: { range: 'A1', resource: { values: [['then']] } } })).status).toBe(200);
    const revision = await svc.call('POST', '/sdk/v2/collab-files/history-ro/revisions', { body: { title: 'Kept' } });
    expect(revision.status).toBe(200);
    expect((await svc.call('POST', values, { body: { range: 'A1', resource: { values: [['now']] } } })).status).toBe(200);
    svc.integrator.addUser({ id: 'reader', name: 'Rita', token: 'reader-token' });
    svc.integrator.grant('history-ro', 'reader', { readable: true, editable: false });
    const { sheet, errors, close } = await suite.open('history-ro', 'reader-token');
    await expect.poll(() => sheet.cell(0, 0).textContent()).toBe('now');

    await sheet.frame.getByRole('button', { name: 'History' }).click();
    const panel = sheet.frame.locator('.svc-panel-history');
    await expect.poll(() => panel.locator('.svc-revision-list .svc-panel-item').allTextContents()).toEqual([expect.stringContaining('Kept')]);
    await expect.poll(() => panel.locator('.svc-revision-create').isVisible()).toBe(false);
    await expect.poll(() => panel.locator('.svc-history-restore').count()).toBe(0);

    await panel.locator('.svc-revision-list .svc-history-view').click();
    const old = sheet.frame.locator('.svc-old-version');
    await expect.poll(() => old.getByRole('gridcell').first().textContent()).toBe('then');
    await expect.poll(() => old.locator('.svc-history-restore').count()).toBe(0);
    await sheet.call('hideRevision');
    await expect.poll(() => old.isVisible()).toBe(false);
    await expect.poll(() => sheet.cell(0, 0).textContent()).toBe('now');
    expect(errors).toEqual([]);
    await close();
  });
});
