import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { spreadsheetSuite } from './support/spreadsheet.js';

const suite = spreadsheetSuite();

/** The drawn height of a locator's element, pixels. */
async function heightOf(locator: Locator): Promise<number> {
  return (await locator.boundingBox())?.height ?? -1;
}

describe('spreadsheet row heights and column auto-fit in a browser', () => {
  it('wrap grows a row, a dragged row edge and the Row height dialog set heights a collaborator sees, double-clicks fit rows and columns', { timeout: 240_000 }, async () => {
    const { svc } = suite;
    svc.integrator.addUser({ id: 'user-2', name: 'Bob', token: 'token-2' });
    await suite.create('rows-1');
    const alice = await suite.open('rows-1');
    const bob = await suite.open('rows-1', 'token-2');
    const [a, b] = [alice.sheet, bob.sheet];
    const rowHeader = (sheet: typeof a, row: number) => sheet.grid.locator(`[role=rowheader][data-row="${row}"]`);
    await expect.poll(() => heightOf(rowHeader(b, 1))).toBe(24);

    // wrapped text grows its row for both users (each measures what it draws); rows around it keep the default
    await a.type('A2', 'A long line of text that wraps over several lines in a column of the default width');
    await a.go('A2');
    await a.frame.getByRole('button', { name: 'Wrap text' }).click();
    await expect.poll(() => heightOf(rowHeader(a, 1))).toBeGreaterThan(48);
    await expect.poll(() => heightOf(rowHeader(b, 1))).toBeGreaterThan(48);
    expect(await heightOf(rowHeader(b, 2))).toBe(24);
    const wrapped = await a.cell(1, 0).evaluate((cell) => ({ scroll: cell.scrollHeight, client: cell.clientHeight }));
    expect(wrapped.scroll).toBeLessThanOrEqual(wrapped.client + 1);

    // dragging row 4's bottom edge down by 30 pixels: a height of its own, live for Bob
    const edge = a.grid.locator('[role=rowheader][data-row="3"] .svc-grid-row-resize');
    const box = (await edge.boundingBox())!;
    await alice.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await alice.page.mouse.down();
    await alice.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2 + 15, { steps: 3 });
    await alice.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2 + 30, { steps: 3 });
    await alice.page.mouse.up();
    await expect.poll(() => heightOf(rowHeader(b, 3))).toBe(54);
    // the rows below moved down with it
    const below = async () => ((await rowHeader(b, 4).boundingBox())?.y ?? 0) - ((await rowHeader(b, 3).boundingBox())?.y ?? 0);
    await expect.poll(below).toBe(54);

    // a height of its own sticks over the content: wrapping text in that row leaves it at 54
    await a.type('B4', 'More wrapped text here that would need a taller row than this one');
    await a.go('B4');
    await a.frame.getByRole('button', { name: 'Wrap text' }).click();
    await expect.poll(() => a.cell(3, 1).evaluate((cell) => getComputedStyle(cell).whiteSpace)).toBe('pre-wrap');
    expect(await heightOf(rowHeader(a, 3))).toBe(54);
    // double-clicking the edge gives the row back to its content: the wrapped text's height
    await edge.dblclick();
    await expect.poll(() => heightOf(rowHeader(b, 3))).toBeGreaterThan(54);

    // the Row height dialog: a wrong height is refused in the dialog, a right one set for the selected rows
    await a.go('A6:A7');
    await rowHeader(a, 5).click({ button: 'right' });
    await a.frame.getByRole('menuitem', { name: 'Row height…' }).click();
    const dialog = a.frame.getByRole('dialog', { name: 'Row height' });
    const field = dialog.getByRole('textbox', { name: 'Height (pixels)' });
    await expect.poll(() => field.evaluate((input) => input === document.activeElement)).toBe(true);
    await field.fill('tall');
    await dialog.getByRole('button', { name: 'OK' }).click();
    await expect.poll(() => dialog.getByRole('alert').textContent()).toBe('Type a whole number of pixels from 4 to 545.');
    await field.fill('40');
    await field.press('Enter');
    await expect.poll(() => dialog.isHidden()).toBe(true);
    await expect.poll(() => heightOf(rowHeader(b, 5))).toBe(40);
    await expect.poll(() => heightOf(rowHeader(b, 6))).toBe(40);

    // double-clicking column D's right edge fits it to its widest value
    await a.type('D1', 'short');
    await a.type('D3', 'A considerably longer value than a default column shows');
    const header = a.grid.locator('[role=columnheader][data-column="3"]');
    expect(await (await header.boundingBox())!.width).toBe(100);
    await header.locator('.svc-grid-resize').dblclick();
    await expect.poll(async () => (await header.boundingBox())!.width).toBeGreaterThan(200);
    await expect.poll(async () => (await b.grid.locator('[role=columnheader][data-column="3"]').boundingBox())!.width).toBeGreaterThan(200);
    const fitted = await a.cell(2, 3).evaluate((cell) => ({ scroll: cell.scrollWidth, client: cell.clientWidth }));
    expect(fitted.scroll).toBeLessThanOrEqual(fitted.client);

    await a.go('F8');
    await alice.page.screenshot({ path: 'docs/images/spreadsheet-row-heights.png' });
    expect(alice.errors).toEqual([]);
    expect(bob.errors).toEqual([]);
    await alice.close();
    await bob.close();
  });
});
