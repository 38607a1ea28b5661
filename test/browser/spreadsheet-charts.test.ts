import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { spreadsheetSuite } from './support/spreadsheet.js';

const suite = spreadsheetSuite();

/** The scripts the editor's frame has fetched so far (resource timing), to tell whether ECharts' chunk came. */
function fetchedScripts(page: Page): Promise<string[]> {
  const editor = page.frames().find((frame) => frame.url().includes('/collab-files/'));
  return editor!.evaluate(() => performance.getEntriesByType('resource').map((entry) => entry.name).filter((name) => name.endsWith('.js')));
}

const engineChunk = (names: string[]) => names.some((name) => /\/chart-engine-[^/]*\.js$/.test(name));

describe('charts in the spreadsheet editor', () => {
  it('inserts a column chart over A1:B5, redraws it as a cell changes, moves it, edits its title and deletes it, live for a second user', { timeout: 180_000 }, async () => {
    const { svc } = suite;
    await suite.create('charts-1');
    const values = '/sdk/v2/api/files/charts-1/sheets/values';
    const table = [
      ['Month', 'Sales'],
      ['Jan', 120],
      ['Feb', 180],
      ['Mar', 150],
      ['Apr', 210],
    ];
    expect((await svc.call('POST', values, { body: { range: 'A1:B5', resource: { values: table } } })).status).toBe(200);
    const { page, sheet, errors, close } = await suite.open('charts-1');
    await expect.poll(() => sheet.cell(4, 1).textContent(), { timeout: 20_000 }).toBe('210');
    // a sheet without charts never fetches the chart library
    expect(engineChunk(await fetchedScripts(page))).toBe(false);

    await sheet.go('A1:B5');
    await sheet.frame.getByRole('toolbar').getByRole('button', { name: 'Insert chart', exact: true }).click();
    await sheet.frame.getByRole('menuitem', { name: 'Column', exact: true }).click();
    const chart = sheet.frame.locator('.svc-sheet-chart');
    await expect.poll(() => chart.count(), { timeout: 20_000 }).toBe(1);
    expect(engineChunk(await fetchedScripts(page))).toBe(true);
    // ECharts' description for screen readers lists the data it draws: it names the series and its values
    const description = () => chart.locator('[aria-label]').first().getAttribute('aria-label');
    await expect.poll(description, { timeout: 20_000 }).toContain('210');
    expect(await chart.getAttribute('aria-label')).toBe('Sales');
    const pixels = () => chart.locator('canvas').evaluate((canvas) => (canvas as HTMLCanvasElement).toDataURL());
    const before = await pixels();

    // a value typed into the range redraws the chart
    await sheet.type('B5', '90');
    await expect.poll(description, { timeout: 20_000 }).toContain('90');
    expect(await description()).not.toContain('210');
    expect(await pixels()).not.toBe(before);

    // dragged down and right: it lands there, anchored to the cell under its corner
    const start = (await chart.boundingBox())!;
    await page.mouse.move(start.x + start.width / 2, start.y + start.height / 2);
    await page.mouse.down();
    await page.mouse.move(start.x + start.width / 2 + 60, start.y + start.height / 2 + 90, { steps: 5 });
    await page.mouse.up();
    await expect.poll(async () => Math.round((await chart.boundingBox())!.y - start.y)).toBe(90);
    expect(Math.round((await chart.boundingBox())!.x - start.x)).toBe(60);

    // the title, from the tools a selected chart shows
    await chart.getByRole('textbox', { name: 'Chart title' }).fill('Sales by month');
    await chart.getByRole('textbox', { name: 'Chart title' }).press('Enter');
    await expect.poll(() => chart.getAttribute('aria-label')).toBe('Sales by month');
    // the pointer off the chart (its hover highlight would show in the picture)
    await page.mouse.move(5, 600);
    await page.screenshot({ path: 'docs/images/spreadsheet-chart.png' });

    // a second user sees the chart where the first put it, with its title, and every later change live
    svc.integrator.addUser({ id: 'colleague', name: 'Colin', token: 'colleague-token' });
    svc.integrator.grant('charts-1', 'colleague', { readable: true, editable: true });
    const second = await suite.open('charts-1', 'colleague-token');
    const theirs = second.sheet.frame.locator('.svc-sheet-chart');
    await expect.poll(() => theirs.getAttribute('aria-label'), { timeout: 20_000 }).toBe('Sales by month');
    const position = (locator: typeof chart) => locator.evaluate((element) => [(element as HTMLElement).style.left, (element as HTMLElement).style.top, (element as HTMLElement).style.width]);
    expect(await position(theirs)).toEqual(await position(chart));
    await chart.getByRole('checkbox', { name: 'Legend' }).uncheck();
    await chart.getByRole('combobox', { name: 'Chart type' }).selectOption('line');
    await expect.poll(() => theirs.locator('[aria-label]').first().getAttribute('aria-label'), { timeout: 20_000 }).toMatch(/line/i);

    // resized from its corner handle
    await chart.focus();
    const frame = (await chart.boundingBox())!;
    await page.mouse.move(frame.x + frame.width - 1, frame.y + frame.height - 1);
    await page.mouse.down();
    await page.mouse.move(frame.x + frame.width + 99, frame.y + frame.height + 49, { steps: 5 });
    await page.mouse.up();
    await expect.poll(async () => Math.round((await theirs.boundingBox())!.width), { timeout: 20_000 }).toBe(Math.round(frame.width + 100));

    // Delete on the selected chart removes it for both; undo brings it back
    await chart.focus();
    await expect.poll(() => chart.evaluate((element) => element === document.activeElement)).toBe(true);
    await page.keyboard.press('Delete');
    await expect.poll(() => theirs.count(), { timeout: 20_000 }).toBe(0);
    // the cells under it were not cleared by that Delete
    expect(await sheet.cell(1, 1).textContent()).toBe('120');
    await sheet.grid.focus();
    await page.keyboard.press('Control+z');
    await expect.poll(() => theirs.count(), { timeout: 20_000 }).toBe(1);
    expect(errors).toEqual([]);
    expect(second.errors).toEqual([]);
    await second.close();
    await close();
  });
});
