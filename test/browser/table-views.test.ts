import type { FrameLocator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases.js';
import { allRows, API } from '../tables/helpers.js';
import { browserForThisFile } from './support/browser-per-file.js';
import { openTableEditor, useTableEditor } from './support/table-editor.js';

const COLUMNS = [
  { name: 'Task', type: 'SingleLineText' },
  { name: 'Status', type: 'SingleChoice', props: { options: [{ name: 'Todo' }, { name: 'Doing' }, { name: 'Done' }] } },
  { name: 'Owner', type: 'SingleLineText' },
  { name: 'Due', type: 'Date' },
  { name: 'Picture', type: 'SingleLineText' },
];

/** A small picture as a data: address (the editor page loads data: images; outside ones only when allowed). */
function picture(color: string): string {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="320" height="180"><rect width="320" height="180" fill="${color}"/><circle cx="250" cy="50" r="28" fill="#fff" opacity="0.7"/></svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

const ROWS = [
  { Task: 'Write the release notes', Status: 'Todo', Owner: 'Alice', Due: '2026-03-02', Picture: picture('#4c6ef5') },
  { Task: 'Fix the login bug', Status: 'Doing', Owner: 'Bob', Due: '2026-03-01', Picture: picture('#12b886') },
  { Task: 'Plan the offsite', Status: 'Todo', Owner: 'Carol', Due: '2026-03-09', Picture: picture('#fab005') },
  { Task: 'Ship 2.4', Status: 'Done', Owner: 'Alice', Due: '2026-02-20', Picture: picture('#fa5252') },
  { Task: 'Collect feedback', Owner: 'Dan', Picture: picture('#7950f2') },
];

const browser = browserForThisFile();

describe.each(testDatabases().slice(0, 1))('table views in a browser ($name)', { timeout: 90_000 }, (db) => {
  const fixture = useTableEditor(db, COLUMNS, ROWS);
  const guidOf = (name: string) => fixture().table.columns.find((column) => column.name === name)!.guid;
  const statusOf = async (task: string) => (await allRows(fixture().svc, fixture().table.guid)).find((row) => row.valueMap.Task === task)?.valueMap.Status;

  async function open(lang: 'en' | 'zh-CN' = 'en'): Promise<{ page: Page; frame: FrameLocator }> {
    const context = await browser().newContext({ viewport: { width: 1280, height: 760 } });
    return openTableEditor(context, fixture(), { lang });
  }

  async function createView(body: Record<string, unknown>): Promise<void> {
    const { svc, table } = fixture();
    const response = await svc.call('POST', `${API}/tables/${table.guid}/views`, { body });
    expect(response.status, response.text).toBe(200);
  }

  it('adds a kanban view from the view bar; dragging a card or Alt+Left changes its cell, undo puts it back; a card opens its row', async () => {
    const { page, frame } = await open();
    await frame.getByRole('combobox', { name: 'Add view' }).selectOption('kanban');
    await frame.getByRole('tab', { name: 'Kanban', selected: true }).waitFor();
    const lane = (name: string) => frame.locator('.svc-table-kanban-lane', { has: frame.getByRole('heading', { name: new RegExp(`^${name}`) }) });
    await expect.poll(() => lane('Todo').getByRole('article').count(), { timeout: 20_000 }).toBe(2);
    expect(await lane('No value').getByRole('article').count()).toBe(1);
    expect(await frame.locator('.svc-table-kanban-lane').evaluateAll((lanes) => lanes.map((node) => node.getAttribute('aria-label')))).toEqual([
      'No value, cards: 1',
      'Todo, cards: 2',
      'Doing, cards: 1',
      'Done, cards: 1',
    ]);
    await page.screenshot({ path: 'docs/images/table-kanban.png' });

    await frame.getByRole('article', { name: 'Plan the offsite' }).dragTo(lane('Done').locator('.svc-table-kanban-cards'));
    await expect.poll(() => statusOf('Plan the offsite'), { timeout: 20_000 }).toBe('Done');
    // keyboard: Alt+Left moves a focused card one column left
    const card = frame.getByRole('article', { name: 'Fix the login bug' });
    await card.focus();
    await expect.poll(() => card.evaluate((node) => node === document.activeElement), { timeout: 20_000 }).toBe(true);
    await card.press('Alt+ArrowLeft');
    await expect.poll(() => statusOf('Fix the login bug'), { timeout: 20_000 }).toBe('Todo');
    // undo goes through the same row history as the grid
    await frame.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => statusOf('Fix the login bug'), { timeout: 20_000 }).toBe('Doing');
    await expect.poll(() => lane('Doing').getByRole('article').count(), { timeout: 20_000 }).toBe(1);
    // a card opens its row in the record view
    await frame.getByRole('article', { name: 'Ship 2.4' }).click();
    await frame.getByRole('region', { name: /^Row / }).waitFor();
    await page.context().close();
  });

  it('shows a gallery of cards with their cover pictures and fields', async () => {
    await createView({ name: 'Pictures', kind: 'gallery', settings: { cover: guidOf('Picture'), cardFields: [guidOf('Status'), guidOf('Owner'), guidOf('Due')] } });
    const { page, frame } = await open();
    await frame.getByRole('tab', { name: 'Pictures' }).click();
    const gallery = frame.locator('.svc-table-gallery');
    await expect.poll(() => gallery.getByRole('article').count(), { timeout: 20_000 }).toBe(5);
    const cover = gallery.getByRole('img', { name: 'Cover of Fix the login bug' });
    await expect.poll(() => cover.evaluate((node) => (node as HTMLImageElement).complete && (node as HTMLImageElement).naturalWidth), { timeout: 20_000 }).toBe(320);
    expect(await gallery.getByRole('article', { name: 'Ship 2.4' }).locator('dd').allTextContents()).toEqual(['Done', 'Alice', '2026-02-20']);
    await page.screenshot({ path: 'docs/images/table-gallery.png' });
    await page.context().close();
  });

  it('Add card under a kanban column adds a row holding its value, and one in a gallery an empty row; undo takes it back', async () => {
    const { svc, table } = fixture();
    const rows = () => allRows(svc, table.guid);
    await createView({ name: 'Board', kind: 'kanban', settings: { groupBy: guidOf('Status'), cardFields: [guidOf('Owner')] } });
    await createView({ name: 'Pictures', kind: 'gallery', settings: { cover: guidOf('Picture'), cardFields: [guidOf('Status')] } });
    const { page, frame } = await open();
    await frame.getByRole('tab', { name: 'Board' }).click();
    const lane = (name: string) => frame.locator('.svc-table-kanban-lane', { has: frame.getByRole('heading', { name: new RegExp(`^${name}`) }) });
    await expect.poll(() => lane('Doing').getByRole('article').count(), { timeout: 20_000 }).toBe(1);
    await frame.getByRole('button', { name: 'Add a card to Doing' }).click();
    // the API has the row, with the column's value; the board shows it under Doing and opens it to be filled in
    await expect.poll(async () => (await rows()).filter((row) => row.valueMap.Status === 'Doing').length, { timeout: 20_000 }).toBe(2);
    expect(await rows()).toHaveLength(6);
    await expect.poll(() => lane('Doing').getByRole('article').count(), { timeout: 20_000 }).toBe(2);
    await frame.getByRole('region', { name: /^Row / }).waitFor();
    await page.screenshot({ path: 'docs/images/table-kanban-add-card.png' });
    // "No value": a row without a Status
    await frame.getByRole('button', { name: 'Add a card to No value' }).click();
    await expect.poll(async () => (await rows()).length, { timeout: 20_000 }).toBe(7);
    expect((await rows()).filter((row) => row.valueMap.Status === undefined || row.valueMap.Status === null)).toHaveLength(2);
    // undo takes the last card back, as it takes back a row added in the grid
    await frame.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(async () => (await rows()).length, { timeout: 20_000 }).toBe(6);

    await frame.getByRole('tab', { name: 'Pictures' }).click();
    const gallery = frame.locator('.svc-table-gallery');
    await expect.poll(() => gallery.getByRole('article').count(), { timeout: 20_000 }).toBe(6);
    await gallery.getByRole('button', { name: 'Add a card to the gallery' }).click();
    await expect.poll(async () => (await rows()).length, { timeout: 20_000 }).toBe(7);
    await expect.poll(() => gallery.getByRole('article').count(), { timeout: 20_000 }).toBe(7);
    // the toolbar's Add row adds a card here too (it did nothing outside the grid)
    await frame.getByRole('button', { name: 'Add row', exact: true }).click();
    await expect.poll(async () => (await rows()).length, { timeout: 20_000 }).toBe(8);
    await expect.poll(() => gallery.getByRole('article').count(), { timeout: 20_000 }).toBe(8);
    await page.context().close();
  });

  it('a form view adds a row the API reads; wrong input is explained in the page language and nothing is sent', async () => {
    await createView({ name: 'Request', kind: 'form', settings: { title: 'Ask for a task', description: 'The team picks it up on Monday.', fields: [guidOf('Task'), guidOf('Status'), guidOf('Due')] } });
    const { page, frame } = await open('zh-CN');
    await frame.getByRole('tab', { name: 'Request' }).click();
    const form = frame.getByRole('form', { name: 'Ask for a task' });
    const task = form.getByLabel('Task');
    await task.focus();
    await expect.poll(() => task.evaluate((node) => node === document.activeElement), { timeout: 20_000 }).toBe(true);
    await task.fill('Book the venue');
    await form.getByLabel('Status').selectOption('Doing');
    await form.getByLabel('Due').fill('next friday');
    await form.getByRole('button', { name: '提交' }).click();
    await expect.poll(() => form.getByRole('alert').allTextContents(), { timeout: 20_000 }).toContain('请输入日期，例如 2026-03-14');
    expect((await allRows(fixture().svc, fixture().table.guid)).length).toBe(ROWS.length);
    await page.screenshot({ path: 'docs/images/table-form.png' });
    await form.getByLabel('Due').fill('2026-04-03');
    await form.getByRole('button', { name: '提交' }).click();
    await expect.poll(() => form.getByRole('status').textContent(), { timeout: 20_000 }).toBe('谢谢：已添加一行。');
    const added = (await allRows(fixture().svc, fixture().table.guid)).find((row) => row.valueMap.Task === 'Book the venue');
    expect(added?.valueMap).toEqual({ Task: 'Book the venue', Status: 'Doing', Due: '2026-04-03T00:00:00.000Z' });
    await page.context().close();
  });

  it('groups the grid by a column with collapsible headers and counts, sorted on two levels', async () => {
    const { page, frame } = await open();
    await frame.getByRole('button', { name: 'View settings' }).click();
    const panel = frame.getByRole('region', { name: 'Settings of Grid view (for everyone)' });
    await panel.getByLabel('Group rows by').selectOption({ label: 'Status' });
    await panel.getByRole('combobox', { name: 'Sort level 1', exact: true }).selectOption({ label: 'Status' });
    await panel.getByRole('button', { name: 'Add sort level' }).click();
    await panel.getByRole('combobox', { name: 'Sort level 2', exact: true }).selectOption({ label: 'Due' });
    await panel.getByRole('combobox', { name: 'Order of sort level 2' }).selectOption('desc');
    await panel.getByRole('button', { name: 'Save' }).click();
    const headers = frame.locator('.svc-table-group-header');
    await expect.poll(() => headers.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('aria-label'))), { timeout: 20_000 }).toEqual([
      'Status: Doing, rows: 1',
      'Status: Done, rows: 1',
      'Status: Todo, rows: 2',
      'Status: No value, rows: 1',
    ]);
    // inside a group the second level orders the rows: latest due first
    const todo = frame.locator('.svc-table-group', { has: frame.getByRole('button', { name: 'Status: Todo, rows: 2' }) });
    expect(await todo.locator('tbody tr td:first-child').allTextContents()).toEqual(['Plan the offsite', 'Write the release notes']);
    await page.screenshot({ path: 'docs/images/table-grouped-grid.png' });
    await frame.getByRole('button', { name: 'Status: Done, rows: 1' }).click();
    await expect.poll(() => frame.getByRole('button', { name: 'Status: Done, rows: 1' }).getAttribute('aria-expanded'), { timeout: 20_000 }).toBe('false');
    expect(await frame.locator('.svc-table-group-rows').count()).toBe(3);
    // the settings are the view's, stored by the service
    const views = await fixture().svc.call('GET', `${API}/tables/${fixture().table.guid}/views`);
    expect(views.body.data[0].settings).toMatchObject({ groupBy: guidOf('Status'), sort: [{ columnGuid: guidOf('Status'), descending: false }, { columnGuid: guidOf('Due'), descending: true }] });
    await page.context().close();
  });
});
