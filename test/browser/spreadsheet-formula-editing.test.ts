import { describe, expect, it } from 'vitest';
import { spreadsheetSuite } from './support/spreadsheet.js';

const suite = spreadsheetSuite();

/** The values API's read of a range: values (or formulas / formatted text with `render`). */
async function read(fileId: string, range: string, render?: 'FORMULA' | 'FORMATTED_VALUE'): Promise<unknown> {
  const query: Record<string, string> = { range };
  if (render) query.valueRenderOption = render;
  return (await suite.svc.call('GET', `/sdk/v2/api/files/${fileId}/sheets/values`, { query })).body.data?.values;
}

describe('editing formulas in the spreadsheet editor (issue 23 point 4)', () => {
  it('hints functions and their arguments while a formula is typed, and Tab puts the chosen function in', { timeout: 120_000 }, async () => {
    await suite.create('assist-1');
    const { page, sheet, errors } = await suite.open('assist-1');
    const list = sheet.frame.getByRole('listbox', { name: 'Functions' });
    await sheet.go('A1');
    await page.keyboard.type('=SU');
    await expect.poll(() => list.getByRole('option').allTextContents()).toContain('SUMIF(range, criteria, [sum_range])');
    expect(await list.getByRole('option').first().textContent()).toMatch(/^SUBSTITUTE/);
    await page.keyboard.type('MI');
    await expect.poll(() => list.getByRole('option').allTextContents()).toEqual(['SUMIF(range, criteria, [sum_range])', 'SUMIFS(sum_range, criteria_range1, criteria1, [criteria_range2, criteria2], …)']);
    await page.screenshot({ path: '/tmp/shots/spreadsheet-function-list.png' });
    // Tab puts SUMIF( in; the arguments show with the one being typed in bold
    await page.keyboard.press('Tab');
    const hint = sheet.frame.getByRole('tooltip');
    await expect.poll(() => hint.textContent()).toBe('SUMIF(range, criteria, [sum_range])');
    expect(await hint.locator('b').textContent()).toBe('range');
    await page.keyboard.type('B1:B3,">1",');
    await expect.poll(() => hint.locator('b').textContent()).toBe('[sum_range]');
    await page.screenshot({ path: '/tmp/shots/spreadsheet-argument-hint.png' });
    await page.keyboard.type('C1:C3)');
    await page.keyboard.press('Enter');
    expect(await read('assist-1', 'A1', 'FORMULA')).toEqual([['=SUMIF(B1:B3,">1",C1:C3)']]);
    // the formula bar hints too
    await sheet.go('A2');
    await sheet.formula.click();
    await page.keyboard.type('=ROUND(1.25,');
    await expect.poll(() => hint.locator('b').textContent()).toBe('num_digits');
    await page.keyboard.press('Escape');
    expect(errors).toEqual([]);
    // in a page in Chinese the arguments are named in Chinese
    const chinese = await suite.open('assist-1', undefined, 'zh-CN');
    await chinese.sheet.go('B5');
    await chinese.page.keyboard.type('=SUMIF(');
    const chineseHint = chinese.sheet.frame.getByRole('tooltip');
    await expect.poll(() => chineseHint.textContent()).toBe('SUMIF(区域, 条件, [求和区域])');
    expect(await chineseHint.locator('b').textContent()).toBe('区域');
    await chinese.page.screenshot({ path: '/tmp/shots/spreadsheet-argument-hint-zh.png' });
    await chinese.page.keyboard.press('Escape');
    expect(chinese.errors).toEqual([]);
    await chinese.close();
  });

  it('AutoSum sums the numbers above (Alt+=) or each selected column (the toolbar button)', { timeout: 120_000 }, async () => {
    await suite.create('autosum-1');
    const { page, sheet, errors } = await suite.open('autosum-1');
    for (const [address, value] of [['A1', '1'], ['A2', '2'], ['A3', '3'], ['B1', '10'], ['B2', '20'], ['B3', '30']] as const) await sheet.type(address, value);
    await sheet.go('A4');
    await page.keyboard.press('Alt+=');
    await expect.poll(() => sheet.frame.locator('.svc-grid-input').inputValue()).toBe('=SUM(A1:A3)');
    await page.keyboard.press('Enter');
    await expect.poll(() => sheet.cell(3, 0).textContent()).toBe('6');
    await sheet.go('A1:B3');
    await sheet.frame.getByRole('button', { name: 'AutoSum (Alt+=)' }).click();
    await expect.poll(() => sheet.cell(3, 1).textContent()).toBe('60');
    expect(await read('autosum-1', 'A4:B4', 'FORMULA')).toEqual([['=SUM(A1:A3)', '=SUM(B1:B3)']]);
    expect(errors).toEqual([]);
  });

  it('a pasted formula moves its relative references; Ctrl+D, Ctrl+R and the fill handle fill formulas and series', { timeout: 120_000 }, async () => {
    await suite.create('copy-1');
    const { page, sheet, errors } = await suite.open('copy-1');
    for (let row = 1; row <= 5; row++) await sheet.type(`A${row}`, String(row * 10));
    await sheet.type('B1', '=A1*2+$A$1');
    // copy B1, paste at B3: the relative reference follows, the anchored one stays
    await sheet.go('B1');
    await page.keyboard.press('Control+C');
    await sheet.go('B3');
    await page.keyboard.press('Control+V');
    await expect.poll(() => sheet.cell(2, 1).textContent()).toBe('70');
    await sheet.go('B3');
    expect(await sheet.formula.inputValue()).toBe('=A3*2+$A$1');
    // pasted one column right, the reference moves right too
    await sheet.go('C1');
    await page.keyboard.press('Control+V');
    await sheet.go('C1');
    expect(await sheet.formula.inputValue()).toBe('=B1*2+$A$1');

    // Ctrl+D fills the top row down the selection
    await sheet.go('B1:B2');
    await page.keyboard.press('Control+D');
    await expect.poll(() => sheet.cell(1, 1).textContent()).toBe('50');
    // Ctrl+R fills the left column right: D1 gets B1's formula moved two columns
    await sheet.go('B1:D1');
    await page.keyboard.press('Control+R');
    await sheet.go('D1');
    expect(await sheet.formula.inputValue()).toBe('=C1*2+$A$1');

    // the fill handle dragged from B1 down to B5
    await sheet.go('B1');
    const handle = sheet.frame.locator('.svc-grid-fill-handle');
    const from = (await handle.boundingBox())!;
    const to = (await sheet.cell(4, 1).boundingBox())!;
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 5 });
    await page.screenshot({ path: '/tmp/shots/spreadsheet-fill-handle.png' });
    await page.mouse.up();
    await expect.poll(() => read('copy-1', 'B1:B5', 'FORMULA')).toEqual([['=A1*2+$A$1'], ['=A2*2+$A$1'], ['=A3*2+$A$1'], ['=A4*2+$A$1'], ['=A5*2+$A$1']]);
    expect(await read('copy-1', 'B1:B5')).toEqual([[30], [50], [70], [90], [110]]);
    // a series of numbers continues: 1, 2 dragged right to F7
    await sheet.type('C7', '1');
    await sheet.type('D7', '2');
    await sheet.go('C7:D7');
    const seriesFrom = (await handle.boundingBox())!;
    const seriesTo = (await sheet.cell(6, 5).boundingBox())!;
    await page.mouse.move(seriesFrom.x + 3, seriesFrom.y + 3);
    await page.mouse.down();
    await page.mouse.move(seriesTo.x + 10, seriesTo.y + 10, { steps: 5 });
    await page.mouse.up();
    await expect.poll(() => read('copy-1', 'C7:F7')).toEqual([[1, 2, 3, 4]]);
    // one undo takes the whole fill back
    await page.keyboard.press('Control+Z');
    await expect.poll(() => read('copy-1', 'C7:F7')).toEqual([[1, 2]]);
    // text from elsewhere is pasted as typed
    await sheet.frame.locator('body').evaluate(() => navigator.clipboard.writeText('=A1+1'));
    await sheet.go('E1');
    await page.keyboard.press('Control+V');
    await expect.poll(() => sheet.cell(0, 4).textContent()).toBe('11');
    expect(errors).toEqual([]);
  });

  it("hides the ' that keeps text as text, and reads typed money and grouped numbers as formatted numbers", { timeout: 120_000 }, async () => {
    await suite.create('typed-1');
    const { sheet, errors } = await suite.open('typed-1');
    await sheet.type('A1', "'0012");
    await sheet.type('A2', '$1,234.50');
    await sheet.type('A3', '1,234,567');
    await sheet.type('A4', '(€80)');
    await sheet.type('A5', '=A2*2');
    await expect.poll(() => sheet.cell(0, 0).textContent()).toBe('0012');
    await expect.poll(() => sheet.cell(1, 0).textContent()).toBe('$1,234.50');
    await expect.poll(() => sheet.cell(4, 0).textContent()).toBe('2469');
    expect(await sheet.cell(2, 0).textContent()).toBe('1,234,567');
    expect(await sheet.cell(3, 0).textContent()).toBe('(€80)');
    await sheet.go('A1');
    expect(await sheet.formula.inputValue()).toBe("'0012");
    expect(await read('typed-1', 'A1:A4')).toEqual([['0012'], [1234.5], [1234567], [-80]]);
    expect(await read('typed-1', 'A1:A4', 'FORMATTED_VALUE')).toEqual([['0012'], ['$1,234.50'], ['1,234,567'], ['(€80)']]);
    expect(errors).toEqual([]);
  });

  it('the right-click menu merges, unmerges, inserts rows and clears', { timeout: 120_000 }, async () => {
    await suite.create('menu-1');
    const { page, sheet, errors } = await suite.open('menu-1');
    await sheet.type('A1', 'Title');
    await sheet.type('A2', 'x');
    await sheet.go('A1:C1');
    await sheet.cell(0, 1).click({ button: 'right' });
    const menu = sheet.frame.getByRole('menu', { name: 'Cell actions' });
    await expect.poll(() => menu.getByRole('menuitem').allTextContents()).toEqual([
      'CutCtrl+X',
      'CopyCtrl+C',
      'PasteCtrl+V',
      'Insert row above',
      'Insert column left',
      'Delete rows',
      'Delete columns',
      'Merge cells',
      'Sort A to Z',
      'Sort Z to A',
      'Filter',
      'Hide rows',
      'Hide columns',
      'Unhide rows',
      'Unhide columns',
      'Row height…',
      'Data validation…',
      'Conditional formatting…',
      'Clear contentsDelete',
      'Protect range…',
      'Protect sheet…',
      'Remove protection',
    ]);
    await page.screenshot({ path: '/tmp/shots/spreadsheet-context-menu.png' });
    await menu.getByRole('menuitem', { name: 'Merge cells' }).click();
    await expect.poll(() => sheet.frame.locator('.svc-grid-cell-merged').count()).toBe(1);
    // the merge is the model's: the export writes it
    await sheet.cell(0, 0).click({ button: 'right' });
    await menu.getByRole('menuitem', { name: 'Unmerge cells' }).click();
    await expect.poll(() => sheet.frame.locator('.svc-grid-cell-merged').count()).toBe(0);
    // a right click outside the selection selects that cell first
    await sheet.cell(1, 0).click({ button: 'right' });
    await menu.getByRole('menuitem', { name: 'Insert row above' }).click();
    await expect.poll(() => read('menu-1', 'A1:A3')).toEqual([['Title'], [], ['x']]);
    await sheet.cell(2, 0).click({ button: 'right' });
    await menu.getByRole('menuitem', { name: 'Clear contents' }).click();
    await expect.poll(() => read('menu-1', 'A1:A3')).toEqual([['Title']]);
    // Escape closes the menu and gives the keys back to the grid
    await sheet.cell(0, 0).click({ button: 'right' });
    await page.keyboard.press('Escape');
    expect(await menu.isVisible()).toBe(false);
    await page.keyboard.press('ArrowDown');
    expect(await sheet.nameBox.inputValue()).toBe('A2');
    expect(errors).toEqual([]);
  });
});
