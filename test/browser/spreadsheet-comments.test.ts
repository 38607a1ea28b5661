import { describe, expect, it } from 'vitest';
import { spreadsheetSuite } from './support/spreadsheet.js';


const suite = spreadsheetSuite();

describe('spreadsheet cell comments in a browser', () => {
  it('comments on a cell, replies and resolves through the spreadsheet selection; the cell is marked while open', async () => {
    const { svc } = suite;
    await suite.create('talk-1');
    const { page, sheet, errors } = await suite.open('talk-1');
    const sheetId = await sheet.call<string>('getActiveSheetId');
    const list = async () => (await svc.call('GET', '/sdk/v2/collab-files/talk-1/comment-list', { query: { status: 'all' }, signature: await svc.sign() })).body.data;
    const listThreads = async () =>
      (await list()).threads as Array<{ selectionGuid: string; status: string; selection: unknown; comments: Array<{ guid: string; content: string; replyTo: string | null }> }>;
    await sheet.go('B2');
    await sheet.frame.getByRole('button', { name: 'Comments' }).click();
    const panel = sheet.frame.getByRole('region', { name: 'Comments' });
    await panel.getByRole('button', { name: 'Comment', exact: true }).click();
    await expect.poll(() => panel.locator('.svc-comment-draft .svc-thread-quote').textContent()).toBe('Sheet1!B2');
    await panel.getByRole('textbox', { name: 'Write a comment…' }).fill('Is this <b>right</b>?');
    await panel.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => panel.locator('.svc-comment-body').first().textContent()).toBe('Is this <b>right</b>?');
    await expect.poll(() => sheet.cell(1, 1).getAttribute('class')).toContain('svc-sheet-commented');

    // a reply being typed keeps its text and the focus when a collaborator's comment redraws the panel
    const reply = panel.getByRole('textbox', { name: 'Reply…' });
    await reply.click();
    await page.keyboard.type('Yes, ');
    const other = await svc.call('POST', '/sdk/v2/collab-files/talk-1/comments', { body: { selection: { sheetId, range: 'B2:C3' }, content: 'Also C3' } });
    expect(other.status, other.text).toBe(200);
    await expect.poll(() => panel.locator('.svc-comment-body').allTextContents()).toEqual(['Also C3', 'Is this <b>right</b>?']);
    await page.keyboard.type('checked');
    const typing = panel.locator('textarea:focus');
    await expect.poll(() => typing.inputValue()).toBe('Yes, checked');
    await panel.locator('form:has(textarea:focus)').getByRole('button', { name: 'Reply', exact: true }).click();
    await expect.poll(() => panel.locator('.svc-comment-body').allTextContents()).toEqual(['Also C3', 'Is this <b>right</b>?', 'Yes, checked']);
    await page.screenshot({ path: '/tmp/shots/spreadsheet-comments.png' });

    const threads = await listThreads();
    const original = threads.find((entry) => entry.comments[0]?.content === 'Is this <b>right</b>?')!;
    const added = threads.find((entry) => entry.comments[0]?.content === 'Also C3')!;
    expect(original.selection).toMatchObject({ sheetId, sheet: 'Sheet1', range: 'B2', detached: false });
    expect(original.comments.map((comment) => comment.replyTo)).toEqual([null, original.comments[0]!.guid]);

    await panel.locator('.svc-thread', { hasText: 'Is this' }).getByRole('button', { name: 'Resolve' }).click();
    await expect.poll(async () => (await listThreads()).find((entry) => entry.selectionGuid === original.selectionGuid)?.status).toBe('closed');
    // B2 stays marked while the other thread on it is open
    expect(await sheet.cell(1, 1).getAttribute('class')).toContain('svc-sheet-commented');
    expect((await svc.call('POST', `/sdk/v2/collab-files/talk-1/comment-threads/${encodeURIComponent(added.selectionGuid)}/close`)).status).toBe(200);
    await expect.poll(() => sheet.cell(1, 1).getAttribute('class')).not.toContain('svc-sheet-commented');
    await sheet.go('D4');
    // threads elsewhere stay listed, no longer as the ones on the active cell
    await expect.poll(() => panel.locator('.svc-thread-here').count()).toBe(0);
    expect(errors).toEqual([]);
  }, 120_000);
});
