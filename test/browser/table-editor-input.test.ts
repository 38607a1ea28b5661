import type { FrameLocator, Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases.js';
import type { TestService } from '../support/service.js';
import { API, type CreatedTable } from '../tables/helpers.js';
import { browserForThisFile } from './support/browser-per-file.js';
import { gridCell as cell, openTableEditor, useTableEditor } from './support/table-editor.js';

const COLUMNS = [
  { name: 'Title', type: 'SingleLineText' },
  { name: 'Amount', type: 'Number' },
  { name: 'Due', type: 'Date' },
  { name: 'Status', type: 'SingleChoice', props: { options: [{ name: 'Open' }] } },
];

const browser = browserForThisFile();

describe.each(testDatabases().slice(0, 1))('table editor input in a browser ($name)', (db) => {
  const fixture = useTableEditor(db, COLUMNS, [{ Title: 'First' }]);
  let svc: TestService;
  let table: CreatedTable;
  beforeEach(() => ({ svc, table } = fixture()));

  async function openTable(options: { lang?: 'en' | 'zh-CN'; locale?: string } = {}): Promise<{ page: Page; frame: FrameLocator }> {
    return openTableEditor(await browser().newContext({ locale: options.locale ?? 'en-US' }), fixture(), { lang: options.lang ?? 'en' });
  }

  async function firstRow(): Promise<Record<string, unknown>> {
    const rows = await svc.call('GET', `${API}/tables/${table.guid}/rows`, { query: { pageSize: 1 } });
    return rows.body.data.rows[0].valueMap;
  }

  async function typeInto(page: Page, frame: FrameLocator, column: string, text: string): Promise<void> {
    await (await cell(frame, 1, column)).click();
    await page.keyboard.type(text);
    await page.keyboard.press('Enter');
  }

  it('picks a date with the date picker, by keyboard, and clears it', async () => {
    const { page, frame } = await openTable();
    const due = await cell(frame, 1, 'Due');
    await due.click();
    await page.keyboard.press('Enter');
    const picker = frame.getByRole('dialog', { name: 'Due' });
    const input = picker.getByLabel('Due');
    await expect.poll(() => input.evaluate((node) => (node as HTMLInputElement).type)).toBe('date');
    expect(await input.evaluate((node) => node === document.activeElement)).toBe(true);
    await input.fill('2026-03-14');
    await page.screenshot({ path: 'docs/images/table-date-picker.png' });
    await picker.getByRole('button', { name: 'Done' }).click();
    await expect.poll(firstRow).toMatchObject({ Due: '2026-03-14T00:00:00.000Z' });
    await expect.poll(() => due.textContent()).toBe('2026-03-14');
    await due.dblclick();
    await frame.getByRole('dialog', { name: 'Due' }).getByRole('button', { name: 'Clear' }).click();
    await expect.poll(firstRow).toEqual({ Title: 'First' });
    await page.context().close();
  });

  it('reads numbers in the user\'s locale and explains refusals in the page\'s language', async () => {
    const german = await openTable({ locale: 'de-DE' });
    await typeInto(german.page, german.frame, 'Amount', '1.234,5');
    await expect.poll(firstRow).toMatchObject({ Amount: 1234.5 });
    await german.page.context().close();

    const english = await openTable({ locale: 'en-US' });
    await typeInto(english.page, english.frame, 'Amount', '2,500.25');
    await expect.poll(firstRow).toMatchObject({ Amount: 2500.25 });
    // "1,5" groups no thousands: a number in de, a refusal in en (never 15)
    await typeInto(english.page, english.frame, 'Amount', '1,5');
    await expect.poll(async () => (await cell(english.frame, 1, 'Amount')).textContent()).toBe('⚠ Not saved: Enter a number, e.g. 1,234.5');
    await english.page.context().close();

    const chinese = await openTable({ lang: 'zh-CN', locale: 'zh-CN' });
    await typeInto(chinese.page, chinese.frame, 'Due', 'soon');
    await expect.poll(async () => (await cell(chinese.frame, 1, 'Due')).textContent()).toBe('⚠ 未保存：请输入日期，例如 2026-03-14');
    await chinese.page.screenshot({ path: 'docs/images/table-refusal-zh.png' });
    // the first key opens the cell's text editor; an input method then writes the rest
    await (await cell(chinese.frame, 1, 'Due')).click();
    await chinese.page.keyboard.type('2');
    await chinese.page.keyboard.insertText('026年3月14日');
    await chinese.page.keyboard.press('Enter');
    await expect.poll(firstRow).toMatchObject({ Due: '2026-03-14T00:00:00.000Z' });
    expect(await firstRow()).toMatchObject({ Amount: 2500.25 });
    await chinese.page.context().close();
  });

  it('adds an option from a choice cell, and will not save a single-choice column without options', async () => {
    const { page, frame } = await openTable();
    const status = await cell(frame, 1, 'Status');
    await status.dblclick();
    const popup = frame.getByRole('dialog', { name: 'Status' });
    await popup.getByRole('textbox', { name: 'Find an option' }).fill('Blocked');
    await popup.getByRole('button', { name: 'Add option “Blocked”' }).click();
    await expect.poll(firstRow).toMatchObject({ Status: 'Blocked' });
    const columns = await svc.call('GET', `${API}/tables/${table.guid}/columns`);
    expect(columns.body.data[3].props.options.map((option: { name: string }) => option.name)).toEqual(['Open', 'Blocked']);

    await frame.getByRole('button', { name: 'Add column' }).click();
    const form = frame.getByRole('form', { name: 'Add column' });
    await form.getByLabel('Name').fill('Phase');
    await form.getByLabel('Type').selectOption('SingleChoice');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => form.getByRole('alert').textContent()).toBe('Add at least one option: a single-choice cell can only hold one of them');
    await page.screenshot({ path: 'docs/images/table-choice-needs-options.png' });
    expect((await svc.call('GET', `${API}/tables/${table.guid}/columns`)).body.data).toHaveLength(4);
    await page.context().close();
  });

  it('undoes and redoes cell edits, row adds and deletes and column changes, by keys and buttons', async () => {
    const { page, frame } = await openTable();
    const rows = async () => (await svc.call('GET', `${API}/tables/${table.guid}/rows`, { query: { pageSize: 100 } })).body.data.rows.map((row: { valueMap: Record<string, unknown> }) => row.valueMap);
    const undo = frame.getByRole('button', { name: 'Undo' });
    const redo = frame.getByRole('button', { name: 'Redo' });
    expect(await undo.isDisabled()).toBe(true);

    await typeInto(page, frame, 'Title', 'Changed');
    await expect.poll(rows).toEqual([{ Title: 'Changed' }]);
    await page.keyboard.press('Control+Z');
    await expect.poll(rows).toEqual([{ Title: 'First' }]);
    await page.keyboard.press('Control+Shift+Z');
    await expect.poll(rows).toEqual([{ Title: 'Changed' }]);

    await frame.getByRole('button', { name: 'Add row' }).click();
    await expect.poll(async () => (await rows()).length).toBe(2);
    await undo.click();
    await expect.poll(async () => (await rows()).length).toBe(1);
    await redo.click();
    await expect.poll(async () => (await rows()).length).toBe(2);

    // deleting the first row, then undoing, brings its values back
    await (await cell(frame, 1, 'Title')).click();
    await frame.getByRole('button', { name: 'Delete rows' }).click();
    await expect.poll(rows).toEqual([{}]);
    await undo.click();
    await expect.poll(rows).toEqual([{}, { Title: 'Changed' }]);

    // a column renamed, then the rename undone; the cell edit before it still undoes through the new name
    await (await cell(frame, 1, 'Amount')).click();
    await frame.getByRole('button', { name: 'Column settings' }).click();
    const form = frame.getByRole('form', { name: 'Column settings' });
    await form.getByLabel('Name').fill('Price');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => frame.locator('[role=columnheader]').allTextContents()).toContain('Price');
    await (await cell(frame, 1, 'Title')).click();
    await page.keyboard.press('Control+Z');
    await expect.poll(() => frame.locator('[role=columnheader]').allTextContents()).toContain('Amount');
    expect((await svc.call('GET', `${API}/tables/${table.guid}/columns`)).body.data.map((column: { name: string }) => column.name)).toEqual(['Title', 'Amount', 'Due', 'Status']);
    await page.screenshot({ path: 'docs/images/table-undo.png' });
    await page.context().close();
  });
});
