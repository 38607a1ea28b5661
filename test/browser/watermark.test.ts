import type { FrameLocator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS } from '../../examples/integrator/integrator.js';
import { testDatabases } from '../support/databases.js';
import { startService } from '../support/service.js';
import { browserForThisFile } from './support/browser-per-file.js';
import { openInHost, startHostPage } from './support/host-page.js';
import { editorFrame, openEditor } from './support/panels.js';

const browser = browserForThisFile();
const [db] = testDatabases();

/** A user whose integrator asks for a watermark (examples/integrator answers `watermark` per user). */
const MARKED = { id: 'marked-user', name: 'Marked Reader', token: 'marked-token', watermark: ['Marked Reader 审阅', '2026-11-27 CONFIDENTIAL'] };

/** The text of every copy of the watermark the page draws (its layer's shadow root is open to tests). */
function watermarkTexts(frame: FrameLocator): Promise<string[]> {
  return frame.locator('[data-svc-watermark] .copy span').allTextContents();
}

describe('watermark over the editors', { timeout: 240_000 }, () => {
  it('a user whose integrator asks for a watermark sees it tiled over every editor kind, and it comes back when removed; another user sees none', async () => {
    const svc = await startService(db!, { integrator: true });
    const host = await startHostPage(svc.url);
    const context = await browser().newContext({ viewport: { width: 1280, height: 800 } });
    try {
      svc.integrator.addUser(MARKED);
      const kinds = ['document', 'documentPro', 'spreadsheet', 'presentation', 'table'] as const;
      for (const kind of kinds) {
        svc.integrator.addFile({ id: `wm-${kind}`, name: `Plan ${kind}`, type: kind, grants: { 'user-1': { ...ALL_PERMISSIONS }, [MARKED.id]: { readable: true, editable: true } } });
        const created = await svc.call('POST', '/sdk/v2/api/files', { body: { type: kind, fileId: `wm-${kind}` } });
        expect(created.status, created.text).toBe(200);
      }

      const page = await context.newPage();
      const frame = await openEditor(page, host, svc, 'wm-document', MARKED.token);
      await expect.poll(() => watermarkTexts(frame), { timeout: 20_000 }).toContain('2026-11-27 CONFIDENTIAL');
      const texts = await watermarkTexts(frame);
      // tiled: many copies over a 1280 × 800 window, each both lines
      expect(texts.filter((line) => line === 'Marked Reader 审阅').length).toBeGreaterThanOrEqual(12);
      // the layer lets the user work: typing into the document under it still works
      await frame.locator('.ProseMirror').click();
      await expect.poll(() => frame.locator('.ProseMirror').evaluate((element) => element === document.activeElement || element.contains(document.activeElement)), { timeout: 20_000 }).toBe(true);
      await page.keyboard.type('Typed under the watermark');
      await expect.poll(async () => (await svc.call('GET', '/sdk/v2/collab-files/wm-document/plain-text')).body.data.content, { timeout: 20_000 }).toContain('Typed under the watermark');
      await page.screenshot({ path: 'docs/images/watermark-editor.png' });

      // taken out, hidden or restyled from the page: it is drawn again at once
      await frame.locator('body').evaluate(() => document.querySelector('[data-svc-watermark]')!.remove());
      await expect.poll(() => watermarkTexts(frame), { timeout: 20_000 }).toContain('2026-11-27 CONFIDENTIAL');
      await frame.locator('body').evaluate(() => ((document.querySelector('[data-svc-watermark]') as HTMLElement).style.display = 'none'));
      await expect.poll(() => frame.locator('[data-svc-watermark]').evaluate((element) => getComputedStyle(element).display), { timeout: 20_000 }).toBe('block');
      await frame.locator('body').evaluate(() => document.querySelector('[data-svc-watermark]')!.shadowRoot!.replaceChildren());
      await expect.poll(() => watermarkTexts(frame), { timeout: 20_000 }).toContain('Marked Reader 审阅');

      // every other editor kind carries it too
      for (const kind of kinds.slice(1)) {
        const opened = await openInHost(page, host, { fileId: `wm-${kind}`, token: MARKED.token, signature: await svc.sign(), lang: 'en' });
        expect(opened, kind).toMatchObject({ ok: true });
        await expect.poll(() => watermarkTexts(editorFrame(page)), { timeout: 20_000 }).toContain('2026-11-27 CONFIDENTIAL');
        if (kind === 'spreadsheet') await page.screenshot({ path: 'docs/images/watermark-spreadsheet.png' });
      }

      // the default user has no watermark: no layer at all
      const plain = await openEditor(page, host, svc, 'wm-document', 'user-token');
      await expect.poll(() => plain.locator('.ProseMirror').textContent(), { timeout: 20_000 }).toContain('Typed under the watermark');
      expect(await plain.locator('[data-svc-watermark]').count()).toBe(0);
    } finally {
      await context.close();
      await host.close();
      await svc.close();
    }
  });
});
