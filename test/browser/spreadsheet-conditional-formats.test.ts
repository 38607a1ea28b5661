import { mkdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { spreadsheetSuite } from './support/spreadsheet.js';

const suite = spreadsheetSuite();

describe('conditional formatting in the spreadsheet editor', () => {
  it('adds "greater than 100 → red fill" and a 3-colour scale, follows typed values live, shows them to a collaborator, and removes a rule', { timeout: 180_000 }, async () => {
    const { svc } = suite;
    await suite.create('condfmt-1');
    const values = '/sdk/v2/api/files/condfmt-1/sheets/values';
    const table = [
      ['Region', 'Sales', 'Score'],
      ['North', 40, 10],
      ['South', 150, 50],
      ['East', 90, 90],
      ['West', 300, 30],
    ];
    expect((await svc.call('POST', values, { body: { range: 'A1:C5', resource: { values: table } } })).status).toBe(200);
    const { page, sheet, errors, close } = await suite.open('condfmt-1');
    await expect.poll(() => sheet.cell(1, 0).textContent()).toBe('North');
    // the fill a cell is drawn with ('' for none), whether or not the selection tints it
    const fill = (row: number, column: number, of = sheet) =>
      of.cell(row, column).evaluate((cell) => (cell.classList.contains('svc-sheet-filled') ? getComputedStyle(cell).getPropertyValue('--svc-cell-fill').trim() : ''));
    const tool = sheet.frame.getByRole('toolbar').getByRole('button', { name: 'Conditional formatting', exact: true });
    const dialog = sheet.frame.getByRole('dialog', { name: 'Conditional formatting' });

    // Sales > 100 → red fill, on B2:B5 selected
    await sheet.go('B2:B5');
    await tool.click();
    await expect.poll(() => dialog.getByRole('textbox', { name: 'Apply to' }).inputValue()).toBe('B2:B5');
    await expect.poll(() => dialog.getByText('This sheet has no rules yet.').count()).toBe(1);
    await dialog.getByRole('combobox', { name: 'Format cells if' }).selectOption('gt');
    await dialog.getByRole('textbox', { name: 'Value', exact: true }).fill('100');
    await dialog.getByRole('combobox', { name: 'Format', exact: true }).selectOption('redFill');
    await dialog.getByRole('button', { name: 'Add rule' }).click();
    await expect.poll(() => fill(2, 1)).toBe('#ff0000');
    expect(await fill(4, 1)).toBe('#ff0000');
    expect(await fill(1, 1)).toBe('');
    expect(await fill(3, 1)).toBe('');

    // a 3-colour scale on Score: lowest red, highest green, the median yellow
    await dialog.getByRole('textbox', { name: 'Apply to' }).fill('C2:C5');
    await dialog.getByRole('combobox', { name: 'Format cells if' }).selectOption('scale3');
    await expect.poll(() => dialog.getByRole('combobox', { name: 'Format', exact: true }).isVisible()).toBe(false);
    await dialog.getByRole('button', { name: 'Add rule' }).click();
    await expect.poll(() => fill(1, 2)).toBe('#f8696b');
    expect(await fill(3, 2)).toBe('#63be7b');
    await expect.poll(() => dialog.getByRole('listitem').allTextContents()).toEqual(['AaBb3-colour scale — C2:C5Remove', 'AaBbGreater than 100 — B2:B5Remove']);
    mkdirSync('docs/images', { recursive: true });
    await page.screenshot({ path: 'docs/images/spreadsheet-conditional-formatting-dialog.png' });
    // a range that is none is refused in words, and nothing is added
    await dialog.getByRole('textbox', { name: 'Apply to' }).fill('B2:');
    await dialog.getByRole('button', { name: 'Add rule' }).click();
    await expect.poll(() => dialog.getByRole('alert').textContent()).toContain('A1:B10');
    expect(await dialog.getByRole('listitem').count()).toBe(2);
    await dialog.getByRole('button', { name: 'Close' }).click();

    // typed values change the looks live: North's sales pass 100, East's score becomes the highest
    await sheet.type('B2', '120');
    await expect.poll(() => fill(1, 1)).toBe('#ff0000');
    await sheet.type('B5', '80');
    await expect.poll(() => fill(4, 1)).toBe('');
    await sheet.type('C2', '200');
    await expect.poll(() => fill(1, 2)).toBe('#63be7b');
    expect(await fill(4, 2)).toBe('#f8696b');
    await page.screenshot({ path: 'docs/images/spreadsheet-conditional-formatting.png' });
    // the looks are drawn, not written: the values API reads the cells as typed
    expect((await svc.call('GET', values, { query: { range: 'B2:C2' } })).body.data?.values).toEqual([[120, 200]]);

    // the rules are part of the document: a collaborator sees the same looks, and sees a rule removed
    svc.integrator.addUser({ id: 'colleague', name: 'Colin', token: 'colleague-token' });
    svc.integrator.grant('condfmt-1', 'colleague', { readable: true, editable: true });
    const second = await suite.open('condfmt-1', 'colleague-token');
    await expect.poll(() => fill(1, 1, second.sheet)).toBe('#ff0000');
    await expect.poll(() => fill(1, 2, second.sheet)).toBe('#63be7b');
    await tool.click();
    await dialog.getByRole('button', { name: 'Remove the rule Greater than 100 on B2:B5' }).click();
    await expect.poll(() => fill(1, 1, second.sheet)).toBe('');
    await expect.poll(() => fill(1, 1)).toBe('');
    // one undo step brings it back
    await dialog.getByRole('button', { name: 'Close' }).click();
    await sheet.grid.focus();
    await page.keyboard.press('Control+z');
    await expect.poll(() => fill(1, 1, second.sheet)).toBe('#ff0000');
    await second.close();
    expect(errors).toEqual([]);
    await close();
  });

  it('draws data bars as long as the values, and shows the dialog in Chinese', { timeout: 120_000 }, async () => {
    const { svc } = suite;
    await suite.create('condfmt-2');
    const values = '/sdk/v2/api/files/condfmt-2/sheets/values';
    expect((await svc.call('POST', values, { body: { range: 'A1:A4', resource: { values: [[10], [55], [100], ['n/a']] } } })).status).toBe(200);
    const { page, sheet, errors, close } = await suite.open('condfmt-2', 'user-token', 'zh-CN');
    await expect.poll(() => sheet.cell(0, 0).textContent()).toBe('10');
    await sheet.go('A1:A4');
    await sheet.frame.getByRole('toolbar').getByRole('button', { name: '条件格式', exact: true }).click();
    const dialog = sheet.frame.getByRole('dialog', { name: '条件格式' });
    await dialog.getByRole('combobox', { name: '单元格满足' }).selectOption('dataBar');
    await dialog.getByRole('button', { name: '添加规则' }).click();
    const bar = (row: number) => sheet.cell(row, 0).evaluate((cell) => {
      const found = cell.querySelector('.svc-sheet-databar');
      return found ? Math.round((found.getBoundingClientRect().width / cell.getBoundingClientRect().width) * 100) : null;
    });
    await expect.poll(() => bar(2)).toBeGreaterThan(95);
    expect(await bar(1)).toBeGreaterThan(45);
    expect(await bar(1)).toBeLessThan(55);
    expect(await bar(0)).toBeLessThan(5);
    // text takes no bar; the cell still shows its text over a bar
    expect(await bar(3)).toBeNull();
    expect(await sheet.cell(1, 0).textContent()).toBe('55');
    await page.screenshot({ path: '/tmp/condfmt-databar-zh.png' });
    expect(errors).toEqual([]);
    await close();
  });
});
