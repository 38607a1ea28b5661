import type { WebSocketRoute } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { sheetModels } from '../../src/model/sheets/sheet-model.js';
import { openInHost } from './support/host-page.js';
import { sheetIn, spreadsheetSuite } from './support/spreadsheet.js';

const suite = spreadsheetSuite();

/**
 * Holds the service's collaboration messages to the page until `release`: the page's document stays unsynced
 * as long as the test wants, as on a slow machine with a large file.
 */
function holdSync() {
  const held: Array<() => void> = [];
  let released = false;
  return {
    route(ws: WebSocketRoute): void {
      const server = ws.connectToServer();
      ws.onMessage((message) => server.send(message));
      server.onMessage((message) => {
        if (released) ws.send(message);
        else held.push(() => ws.send(message));
      });
    },
    release(): void {
      released = true;
      for (const send of held.splice(0)) send();
    },
  };
}

describe('spreadsheet first screen in a browser', () => {
  it('shows the first screen from the service before the sync, then the editor takes its place where the user was', async () => {
    const { svc } = suite;
    await suite.create('first-1');
    const values = '/sdk/v2/api/files/first-1/sheets/values';
    const rows = Array.from({ length: 300 }, (_, r) => [`item ${r + 1}`, r + 1, r % 2 === 0, `=B${r + 1}*2`]);
    expect((await svc.call('POST', values, { body: { range: 'Sheet1!A1:D300', resource: { values: rows } } })).status).toBe(200);
    expect((await svc.call('POST', '/sdk/v2/api/files/first-1/sheets', { body: { name: 'Notes' } })).status).toBe(200);
    await svc.services.content.change(svc.app.id, 'first-1', { userId: 'importer' }, (doc) => {
      const sheet = sheetModels(doc)[0]!;
      sheet.setCell(0, 4, { v: 0.256, z: '0.00%' });
      sheet.setColumnWidth(0, 160);
    });

    const context = await suite.browser.newContext();
    const sync = holdSync();
    await context.routeWebSocket(/\/collaboration/, (ws) => sync.route(ws));
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const opening = openInHost(page, suite.host.url, { fileId: 'first-1', token: 'user-token', signature: await svc.sign(), lang: 'en' });
    const sheet = sheetIn(page);
    const firstScreen = sheet.frame.locator('.svc-sheet-first-screen');

    // before the sync: the values as they show, formulas computed by the service, the number format applied
    await expect.poll(() => sheet.cell(0, 0).textContent()).toBe('item 1');
    expect(await firstScreen.count()).toBe(1);
    expect(await sheet.cell(0, 1).textContent()).toBe('1');
    expect(await sheet.cell(0, 2).textContent()).toBe('TRUE');
    expect(await sheet.cell(1, 3).textContent()).toBe('4');
    expect(await sheet.cell(0, 4).textContent()).toBe('25.60%');
    expect(await sheet.cell(0, 1).getAttribute('class')).toContain('svc-sheet-number');
    expect(await sheet.cell(0, 0).evaluate((cell) => cell.getBoundingClientRect().width)).toBe(160);
    expect(await sheet.frame.getByRole('tab').allTextContents()).toEqual(['Sheet1', 'Notes']);
    expect(await sheet.grid.getAttribute('aria-readonly')).toBe('true');
    await page.screenshot({ path: '/tmp/shots/spreadsheet-first-screen.png' });
    // the editor has not come: the page is still syncing, and typing changes nothing
    expect(await sheet.frame.locator('.svc-sheet').count()).toBe(1);
    await sheet.cell(2, 1).click();
    await page.keyboard.type('99');
    await page.keyboard.press('Enter');
    expect(await sheet.nameBox.inputValue()).toBe('B4');
    expect(await sheet.cell(2, 1).textContent()).toBe('3');
    await sheet.grid.locator('.svc-grid-viewport').evaluate((viewport) => {
      viewport.scrollTop = 240;
    });
    await expect.poll(() => sheet.cell(20, 0).textContent()).toBe('item 21');

    sync.release();
    expect(await opening).toMatchObject({ ok: true, fileType: 'spreadsheet' });
    await expect.poll(() => firstScreen.count()).toBe(0);
    // the editor keeps the scroll and the selection, and it edits
    expect(await sheet.grid.locator('.svc-grid-viewport').evaluate((viewport) => viewport.scrollTop)).toBe(240);
    expect(await sheet.nameBox.inputValue()).toBe('B4');
    expect(await sheet.formula.inputValue()).toBe('4');
    await expect.poll(() => sheet.cell(20, 3).textContent()).toBe('42');
    // the focus stayed on the grid: typing now goes into the selected cell B4
    await page.keyboard.type('7');
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await svc.call('GET', values, { query: { range: 'B4' } })).body.data?.values).toEqual([[7]]);
    await sheet.type('B4', '50');
    await expect.poll(() => sheet.cell(3, 3).textContent()).toBe('100');
    await expect.poll(async () => (await svc.call('GET', values, { query: { range: 'B4' } })).body.data?.values).toEqual([[50]]);
    await page.screenshot({ path: '/tmp/shots/spreadsheet-first-screen-editor.png' });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('when the first screen is refused, the page waits for the sync and the editor works', async () => {
    const { svc } = suite;
    await suite.create('first-2');
    expect((await svc.call('POST', '/sdk/v2/api/files/first-2/sheets/values', { body: { range: 'A1:B1', resource: { values: [['a', '=1+1']] } } })).status).toBe(200);
    const context = await suite.browser.newContext();
    const sync = holdSync();
    await context.routeWebSocket(/\/collaboration/, (ws) => sync.route(ws));
    // the first screen's request fails: the page waits for the sync as it did without it
    await context.route(/\/sheets\/first-screen/, (route) => route.fulfill({ status: 500, body: '{}' }));
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const opening = openInHost(page, suite.host.url, { fileId: 'first-2', token: 'user-token', signature: await svc.sign(), lang: 'en' });
    const sheet = sheetIn(page);
    await expect.poll(() => page.evaluate(() => document.querySelector('iframe') !== null)).toBe(true);
    sync.release();
    expect(await opening).toMatchObject({ ok: true });
    await expect.poll(() => sheet.cell(0, 1).textContent()).toBe('2');
    expect(await sheet.frame.locator('.svc-sheet-first-screen').count()).toBe(0);
    await sheet.type('A2', 'b');
    await expect.poll(async () => (await svc.call('GET', '/sdk/v2/api/files/first-2/sheets/values', { query: { range: 'A2' } })).body.data?.values).toEqual([['b']]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
