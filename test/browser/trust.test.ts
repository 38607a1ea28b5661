import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachmentGuidOf } from '../../src/domain/attachments/attachment-service.js';
import { imageReferencesOf } from '../../src/domain/content/image-references.js';
import { richTextOf } from '../../src/model/content.js';
import { parseFragment, toYNodes } from '../../src/model/rich-text/schema.js';
import { connectEditor } from '../content/support.js';
import { FAST_CONTENT } from '../conversations/support.js';
import { testDatabases } from '../support/databases.js';
import { startHitCounter, type HitCounter } from '../support/hit-counter.js';
import { eventually } from '../support/integrator.js';
import { startService, type TestService } from '../support/service.js';
import { launchBrowser } from './support/browser.js';
import { openInHost, startHostPage, type HostPage } from './support/host-page.js';

/**
 * Issue 27 points 1 and 2 in a real browser: a reader's page loads images from the service alone (an outside
 * address in the document, written over the socket, gets no request from the browser), and after load neither
 * the integrator's token nor the signature is in any address the page uses, any request it makes, or a Referer.
 */
describe.each(testDatabases().slice(0, 1))('trust in the browser ($name)', { timeout: 120_000 }, (db) => {
  let browser: Browser;
  let svc: TestService;
  let host: HostPage;
  let pixel: HitCounter;
  let tracker: HitCounter;
  let signature: string;

  beforeAll(async () => {
    browser = await launchBrowser();
    svc = await startService(db, { integrator: { autoFiles: false }, content: FAST_CONTENT });
    host = await startHostPage(svc.url);
    // one address answers an image (the service stores it), the other something that is not one (it stays outside)
    pixel = await startHitCounter();
    tracker = await startHitCounter({ type: 'image/png', body: Buffer.from('not an image') });
    signature = await svc.sign();
    svc.integrator.addUser({ id: 'alice', name: 'Alice', token: 'alice-token' });
    svc.integrator.addUser({ id: 'reader', name: 'Reader', token: 'reader-token' });
    svc.integrator.addFile({ id: 'doc', type: 'document', name: 'Plan', grants: { alice: { readable: true, editable: true }, reader: { readable: true } } });
    await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'document', fileId: 'doc' }, token: 'alice-token' });
  });
  afterAll(async () => {
    await browser?.close();
    await host?.close();
    await svc?.close();
    await pixel?.close();
    await tracker?.close();
  });

  it("a reader's browser makes no request to an image address written over the socket; the stored one comes from the service", async () => {
    const writer = await connectEditor(svc, 'doc', { token: 'alice-token' });
    writer.doc.transact(() =>
      richTextOf(writer.doc).insert(
        0,
        toYNodes(
          parseFragment([
            { type: 'paragraph', content: [{ type: 'text', text: 'Two pictures' }] },
            { type: 'image', attrs: { src: `${tracker.origin}/pixel.gif?who=reader`, alt: 'tracker' } },
            { type: 'image', attrs: { src: `${pixel.origin}/chart.png`, alt: 'chart' } },
          ]),
        ),
      ),
    );
    await writer.saved();
    await writer.close();
    await eventually(async () => {
      const sources = imageReferencesOf(await svc.services.content.read(svc.app.id, 'doc'), 'document').map((reference) => reference.src);
      return sources.some((src) => attachmentGuidOf(src) !== undefined);
    }, 'the chart stored as an attachment');
    await svc.services.outsideImages.settled();
    // the service itself asked each address once (through the outbound policy)
    expect([tracker.connections(), pixel.connections()]).toEqual([1, 1]);

    const context = await browser.newContext();
    const page = await context.newPage();
    expect(await openInHost(page, host, { fileId: 'doc', token: 'reader-token', signature, lang: 'en' })).toMatchObject({ ok: true });
    const frame = page.frameLocator('iframe');
    const chart = frame.locator('.ProseMirror img[alt="chart"]').first();
    const outside = frame.locator('.ProseMirror img[alt="tracker"]').first();
    await expect.poll(() => outside.count()).toBe(1);
    await expect.poll(() => chart.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);
    expect(await chart.getAttribute('src')).toMatch(/^\/sdk\/v2\/attachments\/[\w-]+\?sessionToken=svs_/);
    // the outside one is in the page, and its address was never asked by the browser
    expect(await outside.getAttribute('src')).toContain(tracker.origin);
    expect([tracker.connections(), pixel.connections()]).toEqual([1, 1]);
    await context.close();
  });

  it('after load, no address, request, socket or Referer of the page carries the token or the signature', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const requests: Array<{ url: string; referer: string }> = [];
    page.on('request', (request) => requests.push({ url: request.url(), referer: request.headers()['referer'] ?? '' }));
    const sockets: string[] = [];
    page.on('websocket', (socket) => sockets.push(socket.url()));
    expect(await openInHost(page, host, { fileId: 'doc', token: 'alice-token', signature, lang: 'en' })).toMatchObject({ ok: true });
    const editorFrame = page.frames().find((frame) => frame.url().includes('/sdk/v2/collab-files/doc'))!;
    await editorFrame.locator('.ProseMirror').click();
    await page.keyboard.type('typed after load ');
    await eventually(async () => (await svc.call('GET', '/sdk/v2/collab-files/doc/plain-text', { token: 'alice-token' })).body.data.content.includes('typed after load'), 'typed text stored');

    const secrets = ['alice-token', signature, encodeURIComponent(signature)];
    const carrying = (text: string) => secrets.some((secret) => text.includes(secret));
    expect(carrying(editorFrame.url())).toBe(false);
    expect(await editorFrame.evaluate(() => window.location.search)).not.toMatch(/token=|signature=/);
    // the SDK's iframe address is the only request that carries them (the public SDK contract); nothing after it
    const editorPage = requests.findIndex((request) => request.url.includes('/sdk/v2/collab-files/doc?'));
    expect(editorPage).toBeGreaterThanOrEqual(0);
    expect(requests.slice(editorPage + 1).filter((request) => carrying(request.url) || carrying(request.referer))).toEqual([]);
    expect(sockets.length).toBeGreaterThan(0);
    // the socket's address names only the editor's grid model version (docs/CONTENT-MODEL.md), never a credential
    for (const url of sockets) expect([...new URL(url).searchParams.keys()].filter((name) => name !== 'gridModel')).toEqual([]);
    const html = await editorFrame.content();
    expect(carrying(html)).toBe(false);
    await context.close();
  });
});
