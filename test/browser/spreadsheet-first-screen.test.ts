import { readFileSync } from 'node:fs';
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

/** The built chunk that holds numfmt (the editor loads it while the first screen shows, web/spreadsheet/number-format-loader.ts). */
function numberFormatChunk(): string {
  const manifest = JSON.parse(readFileSync(new URL('../../dist/public/editor/.vite/manifest.json', import.meta.url), 'utf8')) as Record<string, { file: string }>;
  const entry = Object.entries(manifest).find(([source]) => source.includes('node_modules/numfmt/'));
  if (!entry) throw new Error('numfmt is not a chunk of its own in the editor build');
  return entry[1].file;
}

describe('spreadsheet first screen in a browser', () => {
  it('shows the first screen of each tab picked before the sync, then the editor takes its place where the user was', { timeout: 120_000 }, async () => {
    const { svc } = suite;
    await suite.create('first-1');
    const values = '/sdk/v2/api/files/first-1/sheets/values';
    const rows = Array.from({ length: 300 }, (_, r) => [`item ${r + 1}`, r + 1, r % 2 === 0, `=B${r + 1}*2`]);
    expect((await svc.call('POST', values, { body: { range: 'Sheet1!A1:D300', resource: { values: rows } } })).status).toBe(200);
    expect((await svc.call('POST', '/sdk/v2/api/files/first-1/sheets', { body: { name: 'Notes' } })).status).toBe(200);
    const notes = Array.from({ length: 60 }, (_, r) => [`note ${r + 1}`, `=ROW()*10`]);
    expect((await svc.call('POST', values, { body: { range: 'Notes!A1:B60', resource: { values: notes } } })).status).toBe(200);
    await svc.services.content.change(svc.app.id, 'first-1', { userId: 'importer' }, (doc) => {
      const [sheet, notesSheet] = sheetModels(doc);
      sheet!.setCell(0, 4, { v: 0.256, z: '0.00%' });
      sheet!.setCell(20, 4, { v: 2.5, z: '# ?/?' });
      sheet!.setColumnWidth(0, 160);
      // a filled column (as an xlsx import keeps one): its empty cells show the fill before the sync too
      sheet!.setLineStyle('columns', 5, { bg: '#fff3bf' });
      notesSheet!.setCell(20, 2, { v: 3.5, z: '# ?/?' });
      notesSheet!.setColumnWidth(0, 120);
    });

    const context = await suite.browser.newContext();
    const sync = holdSync();
    await context.routeWebSocket(/\/collaboration/, (ws) => sync.route(ws));
    // numfmt is fetched after the page's own scripts, and the editor waits for it: held here until the end
    const numberFormats = numberFormatChunk();
    let releaseNumberFormats = () => {};
    const numberFormatsHeld = new Promise<void>((resolve) => (releaseNumberFormats = resolve));
    let numberFormatsAsked = false;
    await context.route(`**/${numberFormats}`, async (route) => {
      numberFormatsAsked = true;
      await numberFormatsHeld;
      await route.continue();
    });
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
    expect(await sheet.cell(3, 5).evaluate((cell) => getComputedStyle(cell).backgroundColor)).toBe('rgb(255, 243, 191)');
    expect(await sheet.cell(3, 6).evaluate((cell) => getComputedStyle(cell).backgroundColor)).not.toBe('rgb(255, 243, 191)');
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
    const viewport = sheet.grid.locator('.svc-grid-viewport');
    await viewport.evaluate((element) => {
      element.scrollTop = 240;
    });
    await expect.poll(() => sheet.cell(20, 0).textContent()).toBe('item 21');
    expect(await sheet.cell(20, 4).textContent()).toBe('2 1/2');
    // far past the rows the service sent: the elements the grid draws there again (the rows of items that left the
    // view) show nothing of what they showed before
    await viewport.evaluate((element) => {
      element.scrollTop = 400 * 24;
    });
    await expect.poll(() => sheet.cell(400, 0).getAttribute('class')).toContain('svc-sheet-pending');
    expect(await sheet.grid.locator('.svc-grid-body [role=gridcell]').evaluateAll((cells) => cells.map((cell) => cell.textContent).filter((text) => text !== ''))).toEqual([]);
    await viewport.evaluate((element) => {
      element.scrollTop = 240;
    });
    await expect.poll(() => sheet.cell(20, 0).textContent()).toBe('item 21');

    const tab = (name: string) => sheet.frame.getByRole('tab', { name });
    // another tab before the sync whose first screen is refused (renamed meanwhile, say): the sheet drawn stays
    const notesPattern = /\/sheets\/first-screen\?.*sheetName=Notes/;
    await context.route(notesPattern, (route) => route.fulfill({ status: 500, body: '{}' }));
    await tab('Notes').click();
    await expect.poll(() => tab('Sheet1').getAttribute('aria-selected')).toBe('true');
    expect(await tab('Notes').getAttribute('aria-selected')).toBe('false');
    expect(await firstScreen.getAttribute('aria-busy')).toBeNull();
    expect(await sheet.cell(20, 0).textContent()).toBe('item 21');
    await context.unroute(notesPattern);

    // another tab before the sync: the page asks the service for that sheet's first screen (held here a moment)
    let releaseNotes = () => {};
    const notesHeld = new Promise<void>((resolve) => (releaseNotes = resolve));
    const notesAsked: string[] = [];
    await context.route(notesPattern, async (route) => {
      notesAsked.push(route.request().url());
      await notesHeld;
      await route.continue();
    });
    await tab('Notes').click();
    await expect.poll(() => notesAsked.length).toBe(1);
    // meanwhile the tab is picked and the sheet still drawn is dimmed, not passed off as the picked one
    expect(await tab('Notes').getAttribute('aria-selected')).toBe('true');
    expect(await tab('Sheet1').getAttribute('aria-selected')).toBe('false');
    expect(await firstScreen.getAttribute('aria-busy')).toBe('true');
    await page.screenshot({ path: '/tmp/shots/spreadsheet-first-screen-tab-asked.png' });
    releaseNotes();
    await expect.poll(() => sheet.cell(0, 0).textContent()).toBe('note 1');
    expect(await firstScreen.getAttribute('aria-busy')).toBeNull();
    expect(await sheet.cell(0, 1).textContent()).toBe('10');
    expect(await sheet.cell(0, 0).evaluate((cell) => cell.getBoundingClientRect().width)).toBe(120);
    expect(await sheet.grid.getAttribute('aria-label')).toContain('Notes');
    // from its top-left corner, as the editor's tabs do
    expect(await viewport.evaluate((element) => element.scrollTop)).toBe(0);
    expect(await sheet.nameBox.inputValue()).toBe('A1');
    await page.screenshot({ path: '/tmp/shots/spreadsheet-first-screen-tab.png' });
    // a sheet already fetched comes back at once, without asking again
    await tab('Sheet1').click();
    expect(await sheet.cell(0, 0).textContent()).toBe('item 1');
    await tab('Notes').click();
    expect(await sheet.cell(0, 0).textContent()).toBe('note 1');
    expect(notesAsked).toHaveLength(1);
    // the user goes on in Notes: the editor will open there
    await sheet.cell(2, 1).click();
    expect(await sheet.nameBox.inputValue()).toBe('B3');
    await viewport.evaluate((element) => {
      element.scrollTop = 240;
    });
    await expect.poll(() => sheet.cell(20, 0).textContent()).toBe('note 21');
    expect(await sheet.cell(20, 2).textContent()).toBe('3 1/2');

    // the page preloads its scripts, not numfmt, which it asks for while the first screen shows
    expect(await sheet.frame.locator(`link[href$="${numberFormats}"]`).count()).toBe(0);
    await expect.poll(() => numberFormatsAsked).toBe(true);
    sync.release();
    // synced, the editor still waits for numfmt: the first screen stays
    await page.waitForTimeout(500);
    expect(await firstScreen.count()).toBe(1);
    releaseNumberFormats();
    expect(await opening).toMatchObject({ ok: true, fileType: 'spreadsheet' });
    await expect.poll(() => firstScreen.count()).toBe(0);
    // the editor opens on the tab picked, and draws the cell with numfmt now
    expect(await tab('Notes').getAttribute('aria-selected')).toBe('true');
    expect(await sheet.cell(20, 2).textContent()).toBe('3 1/2');
    // the editor keeps the scroll and the selection, and it edits
    expect(await viewport.evaluate((element) => element.scrollTop)).toBe(240);
    expect(await sheet.nameBox.inputValue()).toBe('B3');
    expect(await sheet.formula.inputValue()).toBe('=ROW()*10');
    await expect.poll(() => sheet.cell(20, 1).textContent()).toBe('210');
    await page.screenshot({ path: '/tmp/shots/spreadsheet-first-screen-editor-tab.png' });
    // the focus stayed on the grid: typing now goes into the selected cell Notes!B3
    await page.keyboard.type('7');
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await svc.call('GET', values, { query: { range: 'Notes!B3' } })).body.data?.values).toEqual([[7]]);
    await tab('Sheet1').click();
    expect(await sheet.cell(0, 0).textContent()).toBe('item 1');
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
