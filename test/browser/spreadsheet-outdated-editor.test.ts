import { describe, expect, it } from 'vitest';
import { SHEET_MODEL_VERSION } from '../../src/model/content.js';
import { openInHost } from './support/host-page.js';
import { spreadsheetSuite } from './support/spreadsheet.js';

const suite = spreadsheetSuite();

/**
 * An editor page older than the spreadsheet's grid model (docs/CONTENT-MODEL.md "Grid model versions") is closed
 * with 4426 by the service (test/editor-page/sessions.test.ts); here the page's side: the socket's URL states the
 * current model, and on 4426 the page says in its language that it must be reloaded.
 */
describe('an outdated spreadsheet editor page', () => {
  it('states its grid model when it connects, and on 4426 asks the user to reload', async () => {
    const { svc, browser } = suite;
    await suite.create('outdated-1');
    const context = await browser.newContext();
    const urls: string[] = [];
    // the service's answer to a page of an older model, played by a stand-in for the collaboration endpoint
    await context.routeWebSocket(/\/collaboration/, (socket) => {
      urls.push(socket.url());
      socket.onMessage(() => socket.close({ code: 4426, reason: 'this editor writes an older spreadsheet grid model' }));
    });
    const page = await context.newPage();
    try {
      void openInHost(page, suite.host, { fileId: 'outdated-1', token: 'user-token', signature: await svc.sign(), lang: 'en' }).catch(() => undefined);
      const frame = page.frameLocator('iframe');
      await frame.getByRole('alert').filter({ hasText: 'This spreadsheet was updated; reload the page.' }).waitFor({ timeout: 15_000 });
      expect(urls.length).toBeGreaterThan(0);
      expect(new URL(urls[0]!).searchParams.get('gridModel')).toBe(String(SHEET_MODEL_VERSION));
      // nothing was typed: the page does not claim that changes were lost
      expect(await frame.locator('.svc-status').textContent()).not.toBe('Changes could not be saved');
    } finally {
      await context.close();
    }
  });
});
