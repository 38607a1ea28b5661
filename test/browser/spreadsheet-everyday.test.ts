import { describe, expect, it } from 'vitest';
import { openInHost } from './support/host-page.js';
import { sheetIn, spreadsheetSuite } from './support/spreadsheet.js';

const suite = spreadsheetSuite();

/** What a person sees at a point of the editor's frame: the topmost element there (overlays letting clicks through are skipped). */
function topmostAt(sheet: ReturnType<typeof sheetIn>, point: { x: number; y: number }): Promise<{ role: string | null; text: string | null } | undefined> {
  return sheet.frame.locator('body').evaluate((_body, at) => {
    const hit = document.elementFromPoint(at.x, at.y);
    return hit ? { role: hit.getAttribute('role'), text: hit.textContent } : undefined;
  }, point);
}

describe('spreadsheet editor everyday behaviour in a browser', () => {
  it('Tab … Enter goes to the next row of the column the run started in; Escape restores the formula bar', async () => {
    await suite.create('everyday-keys');
    const { page, sheet, errors, close } = await suite.open('everyday-keys');
    await sheet.go('B2');
    for (const line of [['Name', 'Qty', 'Price'], ['Tea', '2', '3.5']]) {
      await page.keyboard.type(line[0]!);
      for (const value of line.slice(1)) {
        await page.keyboard.press('Tab');
        await page.keyboard.type(value);
      }
      await page.keyboard.press('Enter');
    }
    await expect.poll(() => sheet.nameBox.inputValue()).toBe('B4');
    expect(await sheet.cell(2, 1).textContent()).toBe('Tea');
    expect(await sheet.cell(2, 3).textContent()).toBe('3.5');
    // a move of its own ends the run: Enter then goes straight down
    await sheet.go('B6');
    await page.keyboard.press('Tab');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.type('x');
    await page.keyboard.press('Enter');
    await expect.poll(() => sheet.nameBox.inputValue()).toBe('D7');

    await sheet.go('B2');
    await page.keyboard.type('Changed');
    await expect.poll(() => sheet.formula.inputValue()).toBe('Changed');
    await page.keyboard.press('Escape');
    expect(await sheet.formula.inputValue()).toBe('Name');
    expect(await sheet.cell(1, 1).textContent()).toBe('Name');
    expect(errors).toEqual([]);
    await close();
  });

  it('scrolled right, the first column shown starts at the row numbers, and no selection shows over them', async () => {
    await suite.create('everyday-scroll');
    const { page, sheet, errors, close } = await suite.open('everyday-scroll');
    await page.setViewportSize({ width: 1000, height: 500 });
    await sheet.go('A1');
    for (let step = 0; step < 13; step++) await page.keyboard.press('ArrowRight');
    await expect.poll(() => sheet.nameBox.inputValue()).toBe('N1');
    const numbersEdge = async () => {
      const box = (await sheet.grid.getByRole('rowheader').first().boundingBox())!;
      return box.x + box.width;
    };
    const edge = await numbersEdge();
    // every column header is either wholly under the row numbers or starts at their edge or right of it
    const headers = await sheet.grid.getByRole('columnheader').evaluateAll((nodes) => nodes.map((node) => node.getBoundingClientRect()).map(({ left, right }) => ({ left, right })));
    const slivers = headers.filter(({ left, right }) => right > edge + 1 && left < edge - 1);
    expect(slivers).toEqual([]);
    await page.screenshot({ path: '/tmp/shots/spreadsheet-scrolled.png' });

    // a selection scrolled under the row numbers stays under them
    await sheet.go('A1');
    await sheet.cell(5, 4).hover();
    await page.mouse.wheel(60, 0);
    await expect.poll(() => sheet.frame.locator('.svc-grid-viewport').evaluate((viewport) => viewport.scrollLeft)).toBeGreaterThan(20);
    const rowNumber = (await sheet.grid.getByRole('rowheader', { name: '1', exact: true }).boundingBox())!;
    expect((await topmostAt(sheet, { x: rowNumber.x + rowNumber.width - 3, y: rowNumber.y + rowNumber.height / 2 }))?.role).toBe('rowheader');
    expect(errors).toEqual([]);
    await close();
  });

  it("a collaborator's name shows for a moment when their selection moves and on hover, never hiding a cell", async () => {
    const { svc } = suite;
    svc.integrator.addUser({ id: 'user-label', name: 'Bob', token: 'token-label' });
    await suite.create('everyday-label');
    const alice = await suite.open('everyday-label');
    const bob = await suite.open('everyday-label', 'token-label');
    await bob.sheet.type('C2', 'above');
    await alice.sheet.go('C3');
    const label = bob.sheet.frame.locator('.svc-grid-highlight-label', { hasText: 'Test User' });
    await expect.poll(() => label.isVisible()).toBe(true);
    await bob.page.screenshot({ path: '/tmp/shots/spreadsheet-label-moved.png' });
    // a moment later it is gone: the cell above shows whole again
    await expect.poll(() => label.isVisible(), { timeout: 6000 }).toBe(false);
    const above = (await bob.sheet.cell(1, 2).boundingBox())!;
    expect((await topmostAt(bob.sheet, { x: above.x + 12, y: above.y + above.height / 2 }))?.text).toBe('above');
    // pointing at Alice's cell names her
    await bob.sheet.cell(2, 2).hover();
    await expect.poll(() => label.isVisible()).toBe(true);
    await bob.sheet.cell(5, 5).hover();
    await expect.poll(() => label.isVisible()).toBe(false);
    expect([...alice.errors, ...bob.errors]).toEqual([]);
    await alice.close();
    await bob.close();
  });

  it("the status bar sums, averages and counts the selection's numbers as the cells show them, live", async () => {
    const { svc } = suite;
    await suite.create('everyday-status');
    const { page, sheet, errors, close } = await suite.open('everyday-status');
    await sheet.type('A1', '10');
    await sheet.type('A2', '20');
    await sheet.type('A3', 'Tea');
    await sheet.type('A4', '=A1*3');
    const status = sheet.frame.getByRole('status', { name: 'Selection summary' });
    await sheet.go('A1:A5');
    await expect.poll(() => status.locator('span').allTextContents()).toEqual(['Sum: 60', 'Average: 20', 'Count: 3']);
    // a change made elsewhere (here through the values API) updates it, the formula's value with it
    const written = await svc.call('POST', '/sdk/v2/api/files/everyday-status/sheets/values', { body: { range: 'A1', resource: { values: [[11]] } } });
    expect(written.status, written.text).toBe(200);
    await expect.poll(() => status.locator('span').allTextContents()).toEqual(['Sum: 64', 'Average: 21.33333333', 'Count: 3']);
    // in the cells' number format
    await sheet.frame.getByRole('combobox', { name: 'Number format' }).selectOption('number');
    await expect.poll(() => status.locator('span').allTextContents()).toEqual(['Sum: 64.00', 'Average: 21.33', 'Count: 3']);
    // (a comment on A3 for the picture: the marker beside the status bar's figures)
    const sheetId = await sheet.call<string>('getActiveSheetId');
    expect((await svc.call('POST', '/sdk/v2/collab-files/everyday-status/comments', { body: { selection: { sheetId, range: 'A3' }, content: 'Which tea?' } })).status).toBe(200);
    await expect.poll(() => sheet.cell(2, 0).getAttribute('class')).toContain('svc-sheet-commented');
    await page.screenshot({ path: '/tmp/shots/spreadsheet-status.png' });
    // the whole sheet (Ctrl+A) sums the same numbers
    await page.keyboard.press('Control+a');
    await expect.poll(() => sheet.nameBox.inputValue()).toBe('A1:Z1000');
    expect(await status.locator('span').allTextContents()).toEqual(['Sum: 64.00', 'Average: 21.33', 'Count: 3']);
    // one cell, or no numbers: nothing to sum
    await sheet.go('A2');
    await expect.poll(() => status.textContent()).toBe('');
    await sheet.go('A3:B3');
    await expect.poll(() => status.textContent()).toBe('');
    expect(errors).toEqual([]);
    await close();
  });

  it('a cell with an open comment thread shows a triangle in its top-right corner, selected or not', async () => {
    const { svc } = suite;
    await suite.create('everyday-marker');
    const { page, sheet, errors, close } = await suite.open('everyday-marker');
    const sheetId = await sheet.call<string>('getActiveSheetId');
    const thread = await svc.call('POST', '/sdk/v2/collab-files/everyday-marker/comments', { body: { selection: { sheetId, range: 'B2' }, content: 'Check this' } });
    expect(thread.status, thread.text).toBe(200);
    await expect.poll(() => sheet.cell(1, 1).getAttribute('class')).toContain('svc-sheet-commented');
    expect(await sheet.cell(1, 2).getAttribute('class')).not.toContain('svc-sheet-commented');
    for (const selected of [false, true]) {
      await sheet.go(selected ? 'B2' : 'D5');
      const clip = (await sheet.cell(1, 1).boundingBox())!;
      await page.screenshot({ path: `/tmp/shots/spreadsheet-marker-${selected ? 'selected' : 'plain'}.png`, clip: { x: clip.x - 10, y: clip.y - 10, width: clip.width + 20, height: clip.height + 20 } });
      // the marker is an orange triangle in the corner, painted over the selection box (which would hide most of it)
      const marker = await sheet.cell(1, 1).evaluate((cell) => {
        const style = getComputedStyle(cell, '::after');
        const selectionBox = cell.closest('[role=grid]')!.querySelector('.svc-grid-selection')!;
        return { top: style.top, right: style.right, colour: style.borderRightColor, above: Number(style.zIndex) > Number(getComputedStyle(selectionBox).zIndex) };
      });
      expect(marker).toEqual({ top: '0px', right: '0px', colour: 'rgb(240, 140, 0)', above: true });
    }
    expect(errors).toEqual([]);
    await close();
  });

  it("the status bar speaks the page's language (zh-CN by default)", async () => {
    const { svc } = suite;
    await suite.create('everyday-status-zh');
    const context = await suite.browser.newContext();
    const page = await context.newPage();
    expect(await openInHost(page, suite.host.url, { fileId: 'everyday-status-zh', token: 'user-token', signature: await svc.sign() })).toMatchObject({ ok: true });
    const sheet = sheetIn(page);
    await sheet.type('A1', '1.5');
    await sheet.type('A2', '2');
    await sheet.go('A1:A2');
    const status = sheet.frame.getByRole('status', { name: '所选区域统计' });
    await expect.poll(() => status.locator('span').allTextContents()).toEqual(['求和：3.5', '平均值：1.75', '计数：2']);
    await context.close();
  });
});
