import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { testDatabases } from '../../support/databases.js';
import { startService, type TestService } from '../../support/service.js';
import { launchBrowser } from './browser.js';
import { openInHost, startHostPage, type HostPage } from './host-page.js';
import { sheetIn } from './sheet-page.js';

export { sheetIn } from './sheet-page.js';

/**
 * Opens a spreadsheet in a new browser context (its own user session, clipboard allowed) through the host
 * page; `errors` collects the page's uncaught errors, which a test expects to stay empty.
 */
export async function openSpreadsheet(browser: Browser, svc: TestService, host: HostPage, fileId: string, token = 'user-token', lang: 'en' | 'zh-CN' = 'en') {
  const context = await browser.newContext();
  for (const origin of [svc.url, new URL(host.url).origin]) await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  expect(await openInHost(page, host.url, { fileId, token, signature: await svc.sign(), lang })).toMatchObject({ ok: true, fileType: 'spreadsheet' });
  return { page, sheet: sheetIn(page), errors, close: () => context.close() };
}

/**
 * One browser, one service (SQLite, with the reference integrator) and one host page for a test file, started
 * before its tests and closed after them; each test uses files of its own.
 */
export function spreadsheetSuite() {
  const state: { browser?: Browser; svc?: TestService; host?: HostPage } = {};
  beforeAll(async () => {
    state.browser = await launchBrowser();
    state.svc = await startService(testDatabases()[0]!, { integrator: true });
    state.host = await startHostPage(state.svc.url);
  });
  afterAll(async () => {
    await state.host?.close();
    await state.svc?.close();
    await state.browser?.close();
  });
  return {
    get svc(): TestService {
      return state.svc!;
    },
    get browser(): Browser {
      return state.browser!;
    },
    get host(): HostPage {
      return state.host!;
    },
    /** creates a spreadsheet through the backend API */
    async create(fileId: string): Promise<void> {
      expect((await state.svc!.call('POST', '/sdk/v2/api/files', { body: { type: 'spreadsheet', fileId } })).status).toBe(200);
    },
    open: (fileId: string, token?: string, lang?: 'en' | 'zh-CN') => openSpreadsheet(state.browser!, state.svc!, state.host!, fileId, token, lang),
  };
}
