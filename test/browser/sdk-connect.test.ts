import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases.js';
import { startService, type TestService } from '../support/service.js';
import { sign } from '../support/signing.js';
import { launchBrowser } from './support/browser.js';
import { openInHost, recorded, startHostPage, type HostPage } from './support/host-page.js';

type HostWindow = Window & Record<string, any>;

let browser: Browser;

describe.each(testDatabases().slice(0, 1))('JS SDK: connect, the iframe and the editor proxy ($name)', (db) => {
  let svc: TestService;
  let host: HostPage;
  let signature: string;
  let context: BrowserContext;
  beforeAll(async () => {
    browser = await launchBrowser();
    svc = await startService(db, { integrator: { autoFiles: false } });
    host = await startHostPage(svc.url);
    signature = await svc.sign();
    svc.integrator.addUser({ id: 'alice', name: 'Alice', token: 'alice-token' });
    svc.integrator.addUser({ id: 'outsider', name: 'Outsider', token: 'outsider-token' });
    svc.integrator.addFile({ id: 'doc', type: 'document', name: 'Plan', grants: { alice: { readable: true, editable: true, commentable: true } } });
    await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'document', fileId: 'doc' }, token: 'alice-token' });
  });
  afterAll(async () => {
    await browser?.close();
    await host?.close();
    await svc?.close();
  });
  beforeAll(async () => {
    context = await browser.newContext();
  });

  it("rejects connect() with the page's code: unknown file, forged signature, no permission to read", async () => {
    const page = await context.newPage();
    const forged = await sign(svc.app.id, 'not-the-secret');
    const cases = [
      { options: { fileId: 'missing', token: 'alice-token', signature }, code: 70013 },
      { options: { fileId: 'doc', token: 'alice-token', signature: forged }, code: 30003 },
      { options: { fileId: 'doc', token: 'alice-token', signature: await svc.sign({ expiresIn: -3600 }) }, code: 30004 },
      { options: { fileId: 'doc', token: 'outsider-token', signature }, code: 40300 },
    ];
    for (const { options, code } of cases) {
      const result = await openInHost(page, host, { ...options, lang: 'en' });
      expect({ fileId: options.fileId, ...result }).toMatchObject({ fileId: options.fileId, ok: false, code, readyState: 'failed' });
      const events = await recorded<{ code?: number; readyState?: string }>(page, 'sdkEvents');
      expect(events).toContainEqual(expect.objectContaining({ name: 'readyState', payload: expect.objectContaining({ readyState: 'failed' }) }));
      expect(events).toContainEqual({ name: 'error', payload: expect.objectContaining({ code }) });
      // the iframe shows the error page itself, in the page's language, with the code
      await expect.poll(() => page.frameLocator('iframe').locator('.svc-error-code').textContent()).toContain(String(code));
    }
    await page.close();
  });

  it('refuses a hostile smParams with 40000 and a clear page; a merely nasty one stays inert text', async () => {
    const page = await context.newPage();
    const tooLong = await openInHost(page, host, { fileId: 'doc', token: 'alice-token', signature, lang: 'en', smParams: { note: 'x'.repeat(5000) } });
    expect(tooLong).toMatchObject({ ok: false, code: 40000, message: expect.stringContaining('smParams') });
    await expect.poll(() => page.frameLocator('iframe').locator('.svc-error-page').textContent()).toContain('The link that opened this file is not valid.');
    const broken = await openInHost(page, host, { fileId: 'doc', token: 'alice-token', signature, smParams: '{"unterminated": ' });
    expect(broken).toMatchObject({ ok: false, code: 40000 });

    const nasty = '"></script><script>window.injected = 1</script><img src=x onerror="window.injected = 2">';
    const opened = await openInHost(page, host, { fileId: 'doc', token: 'alice-token', signature, smParams: { nasty } });
    expect(opened).toMatchObject({ ok: true, fileType: 'document' });
    const frame = page.frames().find((candidate) => candidate.url().includes('/collab-files/doc'))!;
    expect(await frame.evaluate(() => (window as HostWindow).injected)).toBeUndefined();
    const boot = await frame.evaluate(() => JSON.parse(document.getElementById('svc-boot')!.textContent!) as { smParams: string });
    expect(JSON.parse(boot.smParams)).toEqual({ nasty });
    await page.close();
  });

  it('builds the iframe as browser-sdk.md says and answers a method the editor lacks at once', async () => {
    const page = await context.newPage();
    const result = await openInHost(page, host, { fileId: 'doc', token: 'alice-token', signature, lang: 'en', smParams: 'from-intranet', showLoading: true });
    expect(result).toEqual({ ok: true, fileType: 'document', readyState: 'ready' });
    const frameInfo = await page.evaluate(() => {
      const { element } = (window as HostWindow).sdk;
      return { src: element.src as string, allow: element.allow as string, parent: element.parentElement.id as string };
    });
    const src = new URL(frameInfo.src);
    expect(src.origin).toBe(svc.url);
    expect(src.pathname).toBe('/sdk/v2/collab-files/doc');
    expect([...src.searchParams.keys()]).toEqual(['smParams', 'loadingEffect', 'lang', 'jsver', 'token', 'signature', 'uuid']);
    expect(src.searchParams.get('smParams')).toBe('from-intranet');
    expect(frameInfo.allow).toBe('fullscreen; clipboard-read; clipboard-write');
    expect(frameInfo.parent).toBe('editor');
    // viewport reports on the host's resizes are taken without complaint
    await page.setViewportSize({ width: 900, height: 700 });
    await page.waitForTimeout(300);
    expect((await recorded(page, 'sdkEvents')).filter((event) => event.name === 'error')).toEqual([]);
    // the loading screen is gone once the editor is ready
    await expect.poll(() => page.frameLocator('iframe').locator('#svc-loading').count()).toBe(0);

    const answers = await page.evaluate(async () => {
      const editor = (window as HostWindow).sdk.getEditor();
      const timed = async (call: () => Promise<unknown>) => {
        const started = performance.now();
        try {
          return { ok: true, value: await call(), ms: performance.now() - started };
        } catch (error) {
          return { ok: false, code: (error as { code?: unknown }).code, message: (error as Error).message, ms: performance.now() - started };
        }
      };
      return {
        missing: await timed(() => editor.startDemonstration()),
        nested: await timed(() => editor.comments.addThread({ text: 'hi' })),
        title: await timed(() => editor.getTitle()),
        setTitle: await timed(() => editor.setTitle(42)),
        collaborators: editor.getCollaborators(),
        awaitable: (await editor) === editor,
      };
    });
    expect(answers.missing).toMatchObject({ ok: false, code: 'METHOD_NOT_SUPPORTED', message: expect.stringContaining('startDemonstration') });
    expect(answers.nested).toMatchObject({ ok: false, code: 'METHOD_NOT_SUPPORTED', message: expect.stringContaining('comments.addThread') });
    expect(answers.missing.ms).toBeLessThan(2000);
    expect(answers.nested.ms).toBeLessThan(2000);
    expect(answers.title).toMatchObject({ ok: true, value: 'Plan' });
    expect(answers.setTitle).toMatchObject({ ok: false, code: 'INVALID_ARGUMENTS' });
    expect(answers.collaborators).toEqual([expect.objectContaining({ id: 'alice', name: 'Alice' })]);
    expect(answers.awaitable).toBe(true);

    // disconnect takes the iframe away and later calls fail at once
    const after = await page.evaluate(async () => {
      const { sdk } = window as HostWindow;
      sdk.disconnect();
      try {
        await sdk.getEditor().getTitle();
        return { ok: true };
      } catch (error) {
        return { ok: false, code: (error as { code?: unknown }).code, frames: document.querySelectorAll('iframe').length, readyState: sdk.readyState };
      }
    });
    expect(after).toEqual({ ok: false, code: 'DISCONNECTED', frames: 0, readyState: 'disconnected' });
    await page.close();
  });

  it('works as a <script> build: one global with connect, OfficeSDK and the enums', async () => {
    const page = await context.newPage();
    await page.goto(host.scriptUrl);
    await page.waitForFunction(() => (window as HostWindow).hostReady === true);
    const shape = await page.evaluate(() => {
      const sdk = (window as HostWindow).SvcJSSDK;
      return {
        connect: typeof sdk.connect,
        OfficeSDK: typeof sdk.OfficeSDK,
        FileType: sdk.FileType,
        ReadyState: sdk.ReadyState,
        Event: sdk.Event,
      };
    });
    expect(shape).toMatchObject({
      connect: 'function',
      OfficeSDK: 'function',
      FileType: { Document: 'document', DocumentPro: 'documentPro', Spreadsheet: 'spreadsheet', Presentation: 'presentation', Table: 'table' },
      ReadyState: { Loading: 'loading', LoadingEditor: 'loadingEditor', Ready: 'ready', Failed: 'failed', Disconnected: 'disconnected' },
      Event: { Error: 'error', ReadyState: 'readyState', EditorRendered: 'editorRendered' },
    });
    const connected = await page.evaluate(
      async ({ serviceUrl, signature }) => {
        const { connect } = (window as HostWindow).SvcJSSDK;
        const sdk = await connect({ container: document.getElementById('editor'), endpoint: `${serviceUrl}/sdk/v2`, fileId: 'doc', token: 'alice-token', signature });
        return { fileType: sdk.fileType as string, readyState: sdk.readyState as string, title: (await sdk.getEditor().getTitle()) as string };
      },
      { serviceUrl: svc.url, signature },
    );
    expect(connected).toEqual({ fileType: 'document', readyState: 'ready', title: 'Plan' });
    await page.close();
  });
});
