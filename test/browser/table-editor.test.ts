import { beforeEach, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases.js';
import type { TestService } from '../support/service.js';
import { API, insertRows, type CreatedTable } from '../tables/helpers.js';
import { browserForThisFile } from './support/browser-per-file.js';
import { gridCell as cell, openTableEditor, useTableEditor } from './support/table-editor.js';

const COLUMNS = [
  { name: 'Title', type: 'SingleLineText' },
  { name: 'Amount', type: 'Number', props: { precision: 2 } },
  { name: 'Share', type: 'Percent', props: { precision: 1 } },
  { name: 'Due', type: 'Date' },
  { name: 'Status', type: 'SingleChoice', props: { options: [{ name: 'Open', color: '#ffd8a8' }, { name: 'Done' }] } },
  { name: 'Done', type: 'CheckBox', props: { type: 'star' } },
  { name: 'Stars', type: 'Rate', props: { count: 5, icon: 'heart' } },
];

const browser = browserForThisFile();

describe.each(testDatabases().slice(0, 1))('table editor in a browser ($name)', (db) => {
  const fixture = useTableEditor(db, COLUMNS, [{ Title: 'First', Amount: 1.5, Status: 'Open' }, { Title: 'Second' }]);
  let svc: TestService;
  let table: CreatedTable;
  beforeEach(() => ({ svc, table } = fixture()));

  const openTable = async (token = 'user-token') => openTableEditor(await browser().newContext(), fixture(), { token });

  async function readRow(index: number): Promise<Record<string, unknown>> {
    const rows = await svc.call('GET', `${API}/tables/${table.guid}/rows`, { query: { pageSize: 100 } });
    return rows.body.data.rows[index].valueMap;
  }

  it('shows a row added through the table API within a second, without reloading', async () => {
    const { page, frame } = await openTable();
    await expect.poll(async () => (await cell(frame, 2, 'Title')).textContent()).toBe('Second');
    expect(await (await cell(frame, 1, 'Amount')).textContent()).toBe('1.50');
    // the page notes when the row is drawn (no polling delay of the test in the figure)
    const editorFrame = page.frames().find((candidate) => candidate.url().includes('/collab-files/'))!;
    await editorFrame.evaluate(() => {
      const seen = new Promise<number>((resolve) => {
        const observer = new MutationObserver(() => {
          if (![...document.querySelectorAll('[role=gridcell]')].some((gridCell) => gridCell.textContent === 'From the API')) return;
          observer.disconnect();
          resolve(Date.now());
        });
        observer.observe(document.body, { subtree: true, childList: true, characterData: true });
      });
      (globalThis as unknown as { rowSeen: Promise<number> }).rowSeen = seen;
    });
    await insertRows(svc, table.guid, [{ Title: 'From the API', Status: 'Done' }]);
    const added = Date.now();
    const seenAt = await editorFrame.evaluate(() => (globalThis as unknown as { rowSeen: Promise<number> }).rowSeen);
    expect(seenAt - added).toBeLessThan(1000);
    expect(await (await cell(frame, 3, 'Title')).textContent()).toBe('From the API');
    expect(await (await cell(frame, 3, 'Status')).textContent()).toBe('Done');
    await page.screenshot({ path: '/tmp/table-editor.png' });
    await page.context().close();
  });

  it('edits cells of several types and the table API reads them back', async () => {
    const { page, frame } = await openTable();
    const type = async (row: number, column: string, text: string) => {
      await (await cell(frame, row, column)).dblclick();
      await page.keyboard.type(text);
      await page.keyboard.press('Enter');
    };
    await type(2, 'Title', 'Renamed');
    await type(2, 'Amount', '12.345');
    await type(2, 'Share', '12.5%');
    // a date typed straight into the cell, as people write it
    await (await cell(frame, 2, 'Due')).click();
    await page.keyboard.type('2024/5/1');
    await page.keyboard.press('Enter');
    await expect.poll(() => readRow(1)).toEqual({ Title: 'SecondRenamed', Amount: 12.35, Share: 0.125, Due: '2024-05-01T00:00:00.000Z' });
    expect(await (await cell(frame, 2, 'Share')).textContent()).toBe('12.5%');
    // a choice from the option list, a star checkbox, three hearts
    await (await cell(frame, 2, 'Status')).dblclick();
    await frame.locator('.svc-table-popup').getByRole('option', { name: 'Done' }).click();
    await (await cell(frame, 2, 'Done')).dblclick();
    await (await cell(frame, 2, 'Stars')).dblclick();
    await frame.locator('.svc-table-popup').getByRole('button', { name: '3 of 5' }).click();
    await expect.poll(() => readRow(1)).toMatchObject({ Status: 'Done', Done: true, Stars: 3 });
    expect(await (await cell(frame, 2, 'Done')).textContent()).toBe('★');
    expect(await (await cell(frame, 2, 'Stars')).textContent()).toBe('♥♥♥');
    await page.screenshot({ path: '/tmp/table-editor-types.png' });
    await page.context().close();
  });

  it('shows an error in the cell for a value of the wrong type and writes nothing', async () => {
    const { page, frame } = await openTable();
    const amount = await cell(frame, 1, 'Amount');
    await amount.dblclick();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('lots');
    await page.keyboard.press('Enter');
    await expect.poll(() => amount.textContent()).toBe('⚠ Not saved: Enter a number, e.g. 1,234.5');
    const due = await cell(frame, 1, 'Due');
    await due.click();
    await page.keyboard.type('next week');
    await page.keyboard.press('Enter');
    await expect.poll(() => due.textContent()).toBe('⚠ Not saved: Enter a date, e.g. 2026-03-14');
    expect(await readRow(0)).toEqual({ Title: 'First', Amount: 1.5, Status: 'Open' });
    await page.screenshot({ path: '/tmp/table-editor-error.png' });
    await page.context().close();
  });

  it('adds a column through the form, filters the view and comments on a cell', async () => {
    const { page, frame } = await openTable();
    await frame.getByRole('button', { name: 'Add column' }).click();
    const form = frame.getByRole('form', { name: 'Add column' });
    await form.getByLabel('Name').fill('Score');
    await form.getByLabel('Type').selectOption('Number');
    await form.getByLabel('Decimal places').selectOption('1');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => frame.locator('[role=columnheader]').allTextContents()).toContain('Score');
    const columns = await svc.call('GET', `${API}/tables/${table.guid}/columns`);
    expect(columns.body.data.at(-1)).toMatchObject({ name: 'Score', type: 'Number', props: { precision: 1 } });

    await frame.getByRole('combobox', { name: 'Filter', exact: true }).selectOption({ label: 'Title' });
    await frame.getByRole('textbox', { name: 'Filter value' }).fill('sec');
    await expect.poll(() => frame.locator('.svc-table-count').textContent()).toBe('Rows: 1');
    expect(await (await cell(frame, 1, 'Title')).textContent()).toBe('Second');

    await (await cell(frame, 1, 'Title')).click();
    await frame.locator('.svc-table-viewbar').getByRole('button', { name: 'Comment', exact: true }).click();
    const comments = frame.getByRole('region', { name: 'Comments' });
    await comments.getByRole('button', { name: 'Comment', exact: true }).click();
    await comments.getByRole('textbox', { name: 'Write a comment…' }).fill('Check this row');
    await comments.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => comments.locator('.svc-comment-body').textContent()).toBe('Check this row');
    const threads = await svc.call('GET', '/sdk/v2/collab-files/base-1/comment-list');
    expect(threads.body.data.threads[0]).toMatchObject({ kind: 'table', selectionTitle: table.guid, selectionContent: 'Second' });
    await page.screenshot({ path: '/tmp/table-editor-view.png' });
    await page.context().close();
  });

  it('lets a read-only user see the table but not change a cell', async () => {
    svc.integrator.addUser({ id: 'user-2', name: 'Reader', token: 'token-2' });
    svc.integrator.grant('base-1', 'user-2', { editable: false });
    const { page, frame } = await openTable('token-2');
    await expect.poll(() => frame.locator('[role=grid]').getAttribute('aria-readonly')).toBe('true');
    const title = await cell(frame, 1, 'Title');
    await expect.poll(() => title.textContent()).toBe('First');
    await title.dblclick();
    await page.keyboard.type('changed');
    await page.keyboard.press('Enter');
    expect(await frame.locator('.svc-grid-editor').count()).toBe(0);
    expect(await title.textContent()).toBe('First');
    expect(await readRow(0)).toMatchObject({ Title: 'First' });
    await page.context().close();
  });
});
