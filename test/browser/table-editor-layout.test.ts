import type { BrowserContext, FrameLocator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases.js';
import { browserForThisFile } from './support/browser-per-file.js';
import { openTableEditor, useTableEditor } from './support/table-editor.js';

/** Twelve columns: wider than the page, so the grid scrolls sideways. */
const COLUMNS = [
  { name: 'Title', type: 'SingleLineText' },
  ...Array.from({ length: 10 }, (_, index) => ({ name: `Field ${index + 1}`, type: 'SingleLineText' })),
  { name: 'Last', type: 'Number' },
];

const browser = browserForThisFile();

describe.each(testDatabases().slice(0, 1))('table editor layout in a browser ($name)', (db) => {
  const fixture = useTableEditor(db, COLUMNS, [{ Title: 'First', 'Field 1': 'one', Last: 42 }, { Title: 'Second', Last: 7 }]);

  async function open(context: BrowserContext): Promise<{ page: Page; frame: FrameLocator }> {
    return openTableEditor(context, fixture());
  }

  const headers = (frame: FrameLocator) => frame.locator('[role=columnheader]').allTextContents();

  it('scrolls sideways to the last column, and hides, moves and sizes columns by menu and by drag, per user', async () => {
    const context = await browser().newContext();
    let { page, frame } = await open(context);
    // the last column can be scrolled fully into view
    const viewport = frame.locator('.svc-grid-viewport');
    await viewport.evaluate((node) => node.scrollTo({ left: node.scrollWidth }));
    const last = frame.locator('[role=columnheader]', { hasText: 'Last' });
    await last.waitFor();
    const [lastBox, viewportBox] = [await last.boundingBox(), await viewport.boundingBox()];
    expect(lastBox!.x + lastBox!.width).toBeLessThanOrEqual(viewportBox!.x + viewportBox!.width + 1);
    await page.screenshot({ path: 'docs/images/table-scrolled-right.png' });
    // the scrolling box (whose bottom edge carries the horizontal scrollbar) ends inside the page
    expect(await viewport.evaluate((node) => node.scrollWidth > node.clientWidth)).toBe(true);
    expect(viewportBox!.y + viewportBox!.height).toBeLessThanOrEqual(page.viewportSize()!.height);
    expect(viewportBox!.x + viewportBox!.width).toBeLessThanOrEqual(page.viewportSize()!.width);
    await viewport.evaluate((node) => node.scrollTo({ left: 0 }));

    await frame.getByRole('button', { name: 'Columns', exact: true }).click();
    const panel = frame.getByRole('region', { name: 'Columns of this grid (only for you)' });
    expect(await panel.getByRole('checkbox', { name: 'Show Title' }).isDisabled()).toBe(true);
    await panel.getByRole('checkbox', { name: 'Show Field 2' }).uncheck();
    await panel.getByRole('button', { name: 'Move Last left' }).click();
    await panel.getByRole('spinbutton', { name: 'Width of Field 1 (pixels)' }).fill('240');
    await panel.getByRole('spinbutton', { name: 'Width of Field 1 (pixels)' }).press('Enter');
    await expect.poll(async () => (await headers(frame)).includes('Field 2')).toBe(false);
    // drag in the list: Field 10 before Field 1
    await panel.locator('li', { hasText: 'Field 10' }).dragTo(panel.locator('li', { hasText: 'Field 1' }).first());
    await page.screenshot({ path: 'docs/images/table-columns-panel.png' });
    const order = await panel.locator('.svc-table-column-name').allTextContents();
    expect(order.slice(0, 3)).toEqual(['Title', 'Field 10', 'Field 1']);
    const field1 = frame.locator('[role=columnheader]', { hasText: /^Field 1$/ });
    expect(Math.round((await field1.boundingBox())!.width)).toBe(240);
    // the header's edge dragged: 100 pixels narrower
    const edge = (await field1.locator('.svc-grid-resize').boundingBox())!;
    await page.mouse.move(edge.x + 1, edge.y + edge.height / 2);
    await page.mouse.down();
    await page.mouse.move(edge.x - 99, edge.y + edge.height / 2, { steps: 5 });
    await page.mouse.up();
    await expect.poll(async () => Math.round((await field1.boundingBox())!.width)).toBe(140);

    // the layout is this user's, kept for the next visit
    await page.close();
    ({ page, frame } = await open(context));
    const visible = await headers(frame);
    expect(visible.slice(0, 3)).toEqual(['Title', 'Field 10', 'Field 1']);
    expect(visible).not.toContain('Field 2');
    await page.context().close();
    // another user (another browser) sees the table as it is
    const other = await browser().newContext();
    const { frame: otherFrame } = await open(other);
    expect((await headers(otherFrame)).slice(0, 3)).toEqual(['Title', 'Field 1', 'Field 2']);
    await other.close();
  });

  it('opens a row as a record, edits it there and steps to the next row', async () => {
    const { page, frame } = await open(await browser().newContext());
    await frame.locator('[role=gridcell]', { hasText: 'First' }).click();
    await frame.getByRole('button', { name: 'Open row' }).click();
    const record = frame.getByRole('region', { name: 'Row 1' });
    expect(await record.getByRole('textbox', { name: 'Title' }).inputValue()).toBe('First');
    expect(await record.getByRole('textbox', { name: 'Title' }).evaluate((node) => node === document.activeElement)).toBe(true);
    await record.getByRole('textbox', { name: 'Last' }).fill('many');
    await record.getByRole('textbox', { name: 'Last' }).press('Tab');
    await expect.poll(() => record.getByRole('alert').first().textContent()).toBe('Not saved: Enter a number, e.g. 1,234.5');
    await record.getByRole('textbox', { name: 'Field 3' }).fill('three');
    await record.getByRole('textbox', { name: 'Field 3' }).press('Tab');
    await expect.poll(async () => (await fixture().svc.call('GET', `/sdk/v2/api/table-api/openapi/v1/tables/${fixture().table.guid}/rows`, { query: { pageSize: 1 } })).body.data.rows[0].valueMap).toEqual({ Title: 'First', 'Field 1': 'one', 'Field 3': 'three', Last: 42 });
    await page.screenshot({ path: 'docs/images/table-record.png' });
    await record.getByRole('button', { name: 'Next row' }).click();
    const next = frame.getByRole('region', { name: 'Row 2' });
    expect(await next.getByRole('textbox', { name: 'Title' }).inputValue()).toBe('Second');
    expect(await next.getByRole('button', { name: 'Next row' }).isDisabled()).toBe(true);
    await page.context().close();
  });
});
