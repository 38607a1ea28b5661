import { describe, expect, it } from 'vitest';
import { spreadsheetSuite } from './support/spreadsheet.js';


const suite = spreadsheetSuite();

describe('spreadsheet cell comments in a browser', () => {
  it('comments on a cell, replies and resolves through the spreadsheet selection; the cell is marked while open', async () => {
    const { svc } = suite;
    await suite.create('talk-1');
    const { page, sheet, errors } = await suite.open('talk-1');
    const sheetId = await sheet.call<string>('getActiveSheetId');
    await sheet.go('B2');
    await sheet.frame.getByRole('button', { name: 'Comments' }).click();
    const panel = sheet.frame.getByRole('region', { name: 'Comments' });
    await expect.poll(() => panel.getByRole('heading').textContent()).toBe('Comments on B2');
    await panel.getByRole('textbox', { name: 'Add a comment…' }).fill('Is this <b>right</b>?');
    await panel.getByRole('button', { name: 'Comment', exact: true }).click();
    await expect.poll(() => panel.locator('.svc-comment-body').first().textContent()).toBe('Is this <b>right</b>?');
    await expect.poll(() => sheet.cell(1, 1).getAttribute('class')).toContain('svc-sheet-commented');

    await panel.getByRole('textbox', { name: 'Reply…' }).fill('Yes, checked');
    await panel.getByRole('button', { name: 'Reply', exact: true }).click();
    await expect.poll(() => panel.locator('.svc-comment-body').allTextContents()).toEqual(['Is this <b>right</b>?', 'Yes, checked']);
    await page.screenshot({ path: '/tmp/shots/spreadsheet-comments.png' });

    const list = async () => (await svc.call('GET', '/sdk/v2/collab-files/talk-1/comment-list', { query: { status: 'all' }, signature: await svc.sign() })).body.data;
    const [thread] = (await list()).threads;
    expect(thread.selection).toMatchObject({ sheetId, sheet: 'Sheet1', range: 'B2', detached: false });
    expect(thread.comments.map((comment: { replyTo: string | null }) => comment.replyTo)).toEqual([null, thread.comments[0].guid]);

    await panel.getByRole('button', { name: 'Resolve' }).click();
    await expect.poll(async () => (await list()).threads[0].status).toBe('closed');
    await expect.poll(() => sheet.cell(1, 1).getAttribute('class')).not.toContain('svc-sheet-commented');
    await sheet.go('C3');
    await expect.poll(() => panel.getByText('No comments on this cell.').count()).toBe(1);
    expect(errors).toEqual([]);
  });
});
