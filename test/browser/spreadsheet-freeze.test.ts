import { mkdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { spreadsheetSuite } from './support/spreadsheet.js';

const suite = spreadsheetSuite();

/**
 * Freeze (docs/SHEETS.md "Frozen rows"): the rows above the selection stay in view as the sheet scrolls, for every
 * collaborator, as Excel's Freeze Panes keeps them; pressed again, the sheet scrolls whole.
 */
describe('spreadsheet frozen rows in a browser', () => {
  it('freezes the rows above the selection, keeps them in view while scrolling, and lets go of them', { timeout: 240_000 }, async () => {
    const { svc } = suite;
    svc.integrator.addUser({ id: 'user-2', name: 'Bob', token: 'token-2' });
    await suite.create('freeze-1');
    const values = Array.from({ length: 80 }, (_, row) => [row < 3 ? `Header ${row + 1}` : `Row ${row + 1}`, row * 10]);
    expect((await svc.call('POST', '/sdk/v2/api/files/freeze-1/sheets/values', { body: { range: 'A1:B80', resource: { values } } })).status).toBe(200);
    const alice = await suite.open('freeze-1');
    const bob = await suite.open('freeze-1', 'token-2');
    const [a, b] = [alice.sheet, bob.sheet];
    const freeze = a.frame.getByRole('button', { name: 'Freeze rows above the selection' });
    const frozenRows = (sheet: typeof a) => sheet.grid.locator('.svc-grid-frozen [role=rowheader]').count();
    await expect.poll(() => a.cell(2, 0).textContent()).toBe('Header 3');

    // B4 selected: rows 1-3 freeze, for Bob too
    await a.go('B4');
    await freeze.click();
    await expect.poll(() => freeze.getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => frozenRows(a)).toBe(3);
    await expect.poll(() => frozenRows(b)).toBe(3);

    // scrolled down, the three rows stay under the column headers and row 40 shows right below them
    await a.grid.locator('.svc-grid-viewport').evaluate((element) => {
      element.scrollTop = 36 * 24;
    });
    await expect.poll(() => a.cell(39, 0).textContent()).toBe('Row 40');
    const top = async (row: number) => (await a.cell(row, 0).boundingBox())?.y ?? -1;
    const header = (await a.grid.locator('[role=columnheader][data-column="0"]').boundingBox())!;
    // (a cell's box starts at its one-pixel grid line)
    await expect.poll(async () => Math.abs((await top(0)) - (header.y + header.height))).toBeLessThanOrEqual(1);
    await expect.poll(async () => (await top(2)) + 24).toBeLessThanOrEqual(await top(39));
    expect(await a.cell(2, 0).isVisible()).toBe(true);
    mkdirSync('/tmp/shots', { recursive: true });
    await alice.page.screenshot({ path: '/tmp/shots/spreadsheet-freeze-scrolled.png' });

    // pressed again: nothing frozen, for both
    await freeze.click();
    await expect.poll(() => freeze.getAttribute('aria-pressed')).toBe('false');
    await expect.poll(() => frozenRows(b)).toBe(0);

    // with the selection in row 1, the first row freezes (as the button did before it followed the selection)
    await a.go('C1');
    await freeze.click();
    await expect.poll(() => frozenRows(b)).toBe(1);
    await bob.page.screenshot({ path: '/tmp/shots/spreadsheet-freeze-first-row.png' });
    expect([...alice.errors, ...bob.errors]).toEqual([]);
    await alice.close();
    await bob.close();
  });
});
