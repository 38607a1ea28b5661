import type { BrowserContext, FrameLocator, Locator, Page } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases.js';
import { startService, type TestService } from '../support/service.js';
import { createBase, createTable, insertRows } from '../tables/helpers.js';
import { browserForThisFile } from './support/browser-per-file.js';
import { openInHost, startHostPage, type HostPage } from './support/host-page.js';
import { sheetIn } from './support/spreadsheet.js';
import { gridCell } from './support/table-editor.js';
import { selectWord } from './support/panels.js';

/**
 * The one conversation panel in each of the five editors (issue 26 point 1): the same steps in each — `@`
 * autocomplete of people and files, Shift+Enter breaks a line and Enter sends, the time, edit, resolve and
 * reopen, delete — against the editor's own anchor and marker, with the Comment and MentionAt events the
 * reference integrator receives.
 */

/** Browsers on a loaded 2-core machine: one test opens an editor and takes 20-60 s. */
const TEST_TIMEOUT_MS = 180_000;
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 20_000, interval: 150 });
const browser = browserForThisFile();
const [db] = testDatabases();

interface Opened {
  page: Page;
  frame: FrameLocator;
}

let svc: TestService;
let host: HostPage;
let context: BrowserContext;

beforeEach(async () => {
  svc = await startService(db!, { integrator: true });
  host = await startHostPage(svc.url);
  svc.integrator.addUser({ id: 'user-2', name: 'Bob', token: 'token-2' });
  context = await browser().newContext({ viewport: { width: 1280, height: 800 } });
});
afterEach(async () => {
  await context.close();
  await host.close();
  await svc.close();
});

async function open(fileId: string, fileType: string, lang: 'en' | 'zh-CN' = 'en'): Promise<Opened> {
  const page = await context.newPage();
  expect(await openInHost(page, host.url, { fileId, token: 'user-token', signature: await svc.sign(), lang })).toMatchObject({ ok: true, fileType });
  return { page, frame: page.frameLocator('iframe') };
}

const commentsRegion = (frame: FrameLocator) => frame.getByRole('region', { name: 'Comments' });

async function threads(fileId: string): Promise<Array<{ selectionGuid: string; status: string; selection: Record<string, unknown>; comments: Array<{ guid: string; content: string }> }>> {
  return (await svc.call('GET', `/sdk/v2/collab-files/${fileId}/comment-list`, { query: { status: 'all' } })).body.data.threads;
}

/**
 * Writes a comment mentioning Bob on what is selected, checks what the panel shows and what the integrator
 * received, then edits, resolves, reopens and deletes it; `marked` reads whether the editor marks the anchor.
 */
async function converse(fileId: string, { page, frame }: Opened, options: { anchor: Record<string, unknown>; marked(): Promise<boolean>; screenshot: string }): Promise<void> {
  const panel = commentsRegion(frame);
  await panel.getByRole('button', { name: 'Comment', exact: true }).click();
  const box = panel.getByRole('textbox', { name: 'Write a comment…' });
  await poll(() => box.evaluate((element) => element === document.activeElement)).toBe(true);
  await page.keyboard.type('Please look, ');
  await page.keyboard.type('@Bo');
  const bob = panel.getByRole('option', { name: 'Bob' });
  await poll(() => bob.getAttribute('aria-selected')).toBe('true');
  await page.screenshot({ path: options.screenshot.replace('.png', '-mention.png') });
  await page.keyboard.press('Enter');
  await page.keyboard.type('first line');
  await page.keyboard.press('Shift+Enter');
  await page.keyboard.type('second line');
  expect(await box.inputValue()).toBe('Please look, @Bob first line\nsecond line');
  await page.keyboard.press('Enter');

  const thread = panel.locator('.svc-thread');
  await poll(() => thread.locator('.svc-comment-body').first().innerText()).toBe('Please look, @Bob first line\nsecond line');
  expect(await thread.locator('.svc-comment-body .svc-mention').textContent()).toBe('@Bob');
  expect(await thread.locator('time').getAttribute('datetime')).toMatch(/^\d{4}-\d\d-\d\dT/);
  expect((await thread.locator('time').textContent())?.trim()).not.toBe('');
  await poll(options.marked).toBe(true);
  const [created] = await threads(fileId);
  expect(created?.selection).toMatchObject({ ...options.anchor, detached: false });
  await poll(() => svc.integrator.events.filter((event) => event.eventClass === 'MentionAt').map((event) => ({ type: event.body.type, userIds: (event.body.comment as { userIds: string[] }).userIds })))
    .toEqual([{ type: 'comment', userIds: ['user-2'] }]);
  await page.screenshot({ path: options.screenshot });

  // edit: the mention stays a mention
  await thread.getByRole('button', { name: 'Edit' }).click();
  const editing = thread.getByRole('textbox', { name: 'Edit the comment…' });
  expect(await editing.inputValue()).toBe('Please look, @Bob first line\nsecond line');
  await editing.press('End');
  await page.keyboard.type(' (thanks)');
  await page.keyboard.press('Enter');
  await poll(() => thread.locator('.svc-comment-body').first().innerText()).toBe('Please look, @Bob first line\nsecond line (thanks)');
  expect(await thread.locator('.svc-comment-edited').textContent()).toBe('(edited)');
  expect(await thread.locator('.svc-comment-body .svc-mention').count()).toBe(1);

  // resolve takes the marker away; reopen brings it back
  await thread.getByRole('button', { name: 'Resolve' }).click();
  await poll(() => thread.getAttribute('data-status')).toBe('closed');
  await poll(options.marked).toBe(false);
  await thread.getByRole('button', { name: 'Reopen' }).click();
  await poll(() => thread.getAttribute('data-status')).toBe('open');
  await poll(options.marked).toBe(true);

  // delete asks for a second click
  const remove = thread.getByRole('button', { name: 'Delete' });
  await remove.click();
  await thread.getByRole('button', { name: 'Click again to delete with all replies' }).click();
  await poll(() => panel.locator('.svc-thread').count()).toBe(0);
  await poll(options.marked).toBe(false);
  expect(await threads(fileId)).toEqual([]);
  await poll(() => svc.integrator.events.filter((event) => event.eventClass === 'Comment').map((event) => event.body.action)).toEqual(['create', 'update', 'closeComments', 'delete']);
}

// each test walks a whole conversation (mention, send, edit, resolve, delete) in a browser: minutes on a loaded two-core CI machine
describe('one conversation panel in every editor (browser)', { timeout: 120_000 }, () => {
  it.each([
    { kind: 'document', fileId: 'doc-1', text: 'The budget needs review', word: 'budget', shot: 'conversation-document' },
    { kind: 'documentPro', fileId: 'pro-1', text: 'Quarterly plan', word: 'plan', shot: 'conversation-document-pro' },
  ])('$kind: a comment on selected text; the text is highlighted', async ({ kind, fileId, text, word, shot }) => {
    await svc.call('POST', '/sdk/v2/api/files', { body: { type: kind, fileId } });
    const opened = await open(fileId, kind);
    await opened.frame.locator('.ProseMirror').click();
    await opened.page.keyboard.type(text);
    await opened.frame.getByRole('button', { name: 'Comments' }).click();
    await selectWord(opened.frame, word);
    const highlight = opened.frame.locator('.ProseMirror .svc-comment-anchor');
    await converse(fileId, opened, { anchor: { quote: word }, marked: async () => (await highlight.count()) === 1, screenshot: `/tmp/shots/${shot}.png` });
  }, TEST_TIMEOUT_MS);

  it('spreadsheet: a comment on the selected cells, marked with a corner; files are offered in the same @ list', async () => {
    svc.integrator.addFile({ id: 'plan-1', name: 'Budget plan', type: 'document', grants: { 'user-1': { read: true } } as never });
    await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'spreadsheet', fileId: 'sheet-1' } });
    const opened = await open('sheet-1', 'spreadsheet');
    const nameBox = opened.frame.getByRole('textbox', { name: 'Selected cell' });
    await nameBox.fill('B2');
    await nameBox.press('Enter');
    await opened.frame.getByRole('button', { name: 'Comments' }).click();
    const cell = opened.frame.locator('[role=gridcell][data-row="1"][data-column="1"]');
    await converse('sheet-1', opened, { anchor: { range: 'B2', sheet: 'Sheet1' }, marked: async () => ((await cell.getAttribute('class')) ?? '').includes('svc-sheet-commented'), screenshot: '/tmp/shots/conversation-spreadsheet.png' });

    // files come through the same @ list, in their own group, and are sent as fileMention nodes
    const panel = commentsRegion(opened.frame);
    await panel.getByRole('button', { name: 'Comment', exact: true }).click();
    // keys typed before the box has the focus go elsewhere on a loaded machine
    const box = panel.getByRole('textbox', { name: 'Write a comment…' });
    await poll(() => box.evaluate((element) => element === document.activeElement)).toBe(true);
    await opened.page.keyboard.type('See @Budg');
    await poll(() => panel.getByRole('option', { name: 'Budget plan' }).count()).toBe(1);
    expect(await panel.locator('.svc-mention-group').allTextContents()).toContain('Files');
    // a collaborator's comment redraws the panel while the list is open: the box keeps the focus and the list stays
    const sheetId = await sheetIn(opened.page).call<string>('getActiveSheetId');
    expect((await svc.call('POST', '/sdk/v2/collab-files/sheet-1/comments', { token: 'token-2', body: { selection: { sheetId, range: 'D4' }, content: 'Meanwhile' } })).status).toBe(200);
    await poll(() => panel.locator('.svc-thread').count()).toBe(1);
    await poll(() => box.evaluate((element) => element === document.activeElement)).toBe(true);
    expect(await panel.getByRole('option', { name: 'Budget plan' }).isVisible()).toBe(true);
    await opened.page.keyboard.press('Enter');
    await opened.page.keyboard.press('Enter');
    await poll(() => panel.locator('.svc-comment-body .svc-file-mention').textContent()).toBe('Budget plan');
    const [withFile] = await threads('sheet-1');
    expect(withFile?.comments[0]).toMatchObject({
      content: 'See Budget plan ',
      nodes: [{ type: 'text', text: 'See ' }, { type: 'fileMention', attrs: { fileId: 'plan-1', fileType: 'document', label: 'Budget plan', fullUrl: null } }, { type: 'text', text: ' ' }],
    });
  }, TEST_TIMEOUT_MS);

  it('presentation: a comment on the selected box of a slide; the slide and the box are marked, MentionAt reaches the integrator', async () => {
    await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'presentation', fileId: 'deck-1' } });
    const opened = await open('deck-1', 'presentation');
    await opened.frame.getByRole('toolbar').getByRole('button', { name: 'Text box' }).click();
    const text = opened.frame.locator('.svc-slide-editing .svc-box-text.ProseMirror').last();
    await poll(() => text.evaluate((element) => element === document.activeElement)).toBe(true);
    await opened.page.keyboard.type('Revenue');
    const boxId = await opened.frame.locator('.svc-slide-editing .svc-box.is-selected').getAttribute('data-box-id');
    await opened.frame.getByRole('button', { name: 'Comments' }).click();
    const badge = opened.frame.locator('.svc-slide-item .svc-slide-comments');
    const box = opened.frame.locator(`.svc-slide-editing .svc-box[data-box-id="${boxId}"]`);
    await converse('deck-1', opened, {
      anchor: { boxId },
      marked: async () => (await badge.first().isVisible()) && (await badge.first().textContent()) === '1' && ((await box.getAttribute('class')) ?? '').includes('svc-box-commented'),
      screenshot: '/tmp/shots/conversation-presentation.png',
    });
  }, TEST_TIMEOUT_MS);

  it('table: a comment on a cell and one on a whole row, each marked in the grid; MentionAt reaches the integrator', async () => {
    const base = await createBase(svc, 'base-1');
    const table = await createTable(svc, base, [{ name: 'Task', type: 'SingleLineText' }, { name: 'Owner', type: 'SingleLineText' }]);
    await insertRows(svc, table.guid, [{ Task: 'Draft', Owner: 'Ann' }, { Task: 'Review', Owner: 'Bob' }]);
    const opened = await open('base-1', 'table');
    await opened.frame.locator('[role=grid]').waitFor();
    const owner = await gridCell(opened.frame, 2, 'Owner');
    await owner.click();
    // the view bar's Comment (readers have it too) opens the panel in the side area
    await opened.frame.locator('.svc-table-viewbar').getByRole('button', { name: 'Comment', exact: true }).click();
    await converse('base-1', opened, {
      anchor: { tableGuid: table.guid, columnGuid: table.columns.find((column) => column.name === 'Owner')!.guid },
      marked: async () => ((await owner.getAttribute('class')) ?? '').includes('svc-table-commented'),
      screenshot: '/tmp/shots/conversation-table.png',
    });

    // a whole row selected: the comment is on the row, marked on its first cell
    const task = await gridCell(opened.frame, 1, 'Task');
    await task.click();
    await opened.page.keyboard.press('Shift+ArrowRight');
    const panel = commentsRegion(opened.frame);
    await panel.getByRole('button', { name: 'Comment', exact: true }).click();
    await poll(() => panel.locator('.svc-comment-draft .svc-thread-quote').textContent()).toBe('Row 1');
    await opened.page.keyboard.type('Whole row');
    await opened.page.keyboard.press('Enter');
    await poll(async () => ((await task.getAttribute('class')) ?? '').includes('svc-table-row-commented')).toBe(true);
    const [onRow] = await threads('base-1');
    expect(Object.keys(onRow!.selection).sort()).toEqual(['detached', 'rowGuid', 'tableGuid']);
  }, TEST_TIMEOUT_MS);

  it('in Chinese, by keyboard alone: the panel speaks the page\'s language, Comment and the box are reached with Tab, the focus is visible', async () => {
    await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'presentation', fileId: 'deck-zh' } });
    const { page, frame } = await open('deck-zh', 'presentation', 'zh-CN');
    await frame.getByRole('button', { name: '评论', exact: true }).first().click();
    const panel = frame.getByRole('region', { name: '评论' });
    const comment = panel.getByRole('button', { name: '评论', exact: true });
    await poll(() => comment.isEnabled()).toBe(true);
    // from the panel's close button, Tab reaches Comment; Enter opens the box on the open slide
    await frame.getByRole('button', { name: '关闭面板' }).focus();
    await page.keyboard.press('Tab');
    await poll(() => comment.evaluate((element) => element === document.activeElement)).toBe(true);
    expect(await comment.evaluate((element) => getComputedStyle(element).outlineStyle)).toBe('solid');
    await page.keyboard.press('Enter');
    const box = panel.getByRole('textbox', { name: '写评论…' });
    await poll(() => box.evaluate((element) => element === document.activeElement)).toBe(true);
    expect(await panel.locator('.svc-comment-draft .svc-thread-quote').textContent()).toBe('第 1 张幻灯片');
    expect(await box.getAttribute('title')).toBe('回车发送，Shift+回车换行，输入 @ 提及他人或文件');
    await page.keyboard.type('标题再大一点');
    await page.keyboard.press('Enter');
    await poll(() => panel.locator('.svc-comment-body').textContent()).toBe('标题再大一点');
    expect(await panel.getByRole('button', { name: '解决' }).count()).toBe(1);
    expect(await frame.locator('.svc-slide-comments').first().getAttribute('aria-label')).toBe('1 条未解决的评论');
  }, TEST_TIMEOUT_MS);
});
