import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases.js';
import { startService, type TestService } from '../support/service.js';
import { launchBrowser } from './support/browser.js';
import { startHostPage, type HostPage } from './support/host-page.js';

/** What a page's own fetch of the service came to: the answer it could read, or the browser's refusal. */
type Outcome = { ok: true; status: number; body: unknown; requestId: string | null } | { ok: false; error: string };

describe.each(testDatabases().slice(0, 1))('CORS as a real browser enforces it ($name)', (db) => {
  let browser: Browser;
  let svc: TestService;
  let host: HostPage;
  let page: Page;
  beforeAll(async () => {
    browser = await launchBrowser();
    svc = await startService(db, { integrator: true });
    host = await startHostPage(svc.url);
    await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'document', fileId: 'doc' } });
    page = await (await browser.newContext()).newPage();
    await page.goto(host.url);
  });
  afterAll(async () => {
    await browser?.close();
    await host?.close();
    await svc?.close();
  });

  /** fetch() from the host page (http://localhost:…) to the service (http://127.0.0.1:…). */
  const fromPage = (path: string, init: { method?: string; headers?: Record<string, string>; json?: unknown } = {}): Promise<Outcome> =>
    page.evaluate(
      async ({ url, init }) => {
        try {
          const headers = { ...init.headers, ...(init.json === undefined ? {} : { 'content-type': 'application/json' }) };
          const response = await fetch(url, { method: init.method ?? 'GET', headers, body: init.json === undefined ? undefined : JSON.stringify(init.json) });
          return { ok: true as const, status: response.status, body: await response.json(), requestId: response.headers.get('x-request-id') };
        } catch (error) {
          return { ok: false as const, error: String(error) };
        }
      },
      { url: `${svc.url}${path}`, init },
    );

  it('refuses the page until its origin is on the list, then lets it call in a user context, never a licence call', async () => {
    const credentials = { 'x-svc-signature': await svc.sign(), 'x-svc-token': 'user-token' };
    expect(await fromPage('/sdk/v2/collab-files/doc/plain-text', { headers: credentials })).toMatchObject({ ok: false, error: expect.stringMatching(/Failed to fetch/) });

    await svc.services.apps.update(svc.app.id, { frameOrigins: [host.url] });
    const read = await fromPage('/sdk/v2/collab-files/doc/plain-text', { headers: credentials });
    expect(read).toMatchObject({ ok: true, status: 200, body: { status: 0, data: { content: '' } }, requestId: expect.any(String) });
    // a preflighted write, and a refusal the page can read
    const write = await fromPage('/sdk/v2/api/files/doc/sheets/values', { method: 'POST', headers: credentials, json: { range: 'A1', resource: { values: [[1]] } } });
    expect(write).toMatchObject({ ok: true, status: 400, body: { status: 72010 } });

    const licence = await fromPage(`/sdk/v2/api/license/apps/${svc.app.id}`, { headers: { 'x-svc-signature': await svc.signLicense() } });
    expect(licence).toMatchObject({ ok: false });
  });
});
