import { describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases.js';
import { startService } from '../support/service.js';
import { browserForThisFile } from './support/browser-per-file.js';
import { startHostPage } from './support/host-page.js';
import { openEditor } from './support/panels.js';

const browser = browserForThisFile();

const [db] = testDatabases();

describe('history panel in a browser', () => {
  it('saves a revision, shows it read-only beside newer edits, and restores it', async () => {
    const svc = await startService(db!, { integrator: true });
    const host = await startHostPage(svc.url);
    const context = await browser().newContext();
    try {
      await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'document', fileId: 'doc-h' } });
      const page = await context.newPage();
      const frame = await openEditor(page, host, svc, 'doc-h', 'user-token');
      const plainText = async () => (await svc.call('GET', '/sdk/v2/collab-files/doc-h/plain-text')).body.data?.content;
      await frame.locator('.ProseMirror').click();
      await page.keyboard.type('First draft');
      await expect.poll(plainText).toBe('First draft');

      await frame.getByRole('button', { name: 'History' }).click();
      await frame.locator('.svc-revision-create input').fill('Draft one');
      await frame.locator('.svc-revision-create button').click();
      const revision = frame.locator('.svc-revision-list .svc-panel-item', { hasText: 'Draft one' });
      await revision.waitFor();
      expect((await svc.call('GET', '/sdk/v2/collab-files/doc-h/revisions')).body.data).toEqual([expect.objectContaining({ title: 'Draft one' })]);

      await frame.locator('.ProseMirror').first().click();
      await page.keyboard.press('End');
      await page.keyboard.type(' and more');
      await expect.poll(plainText).toBe('First draft and more');

      await revision.locator('.svc-history-view').click();
      const old = frame.locator('.svc-old-version .ProseMirror');
      await expect.poll(() => old.textContent()).toBe('First draft');
      expect(await old.getAttribute('contenteditable')).toBe('false');
      expect(await frame.locator('.svc-document:not(.svc-old-version-page)').first().isVisible()).toBe(false);
      // the toolbar would format the live document hidden behind the old version: it is inert while this shows
      const toolbar = frame.locator('.svc-toolbar');
      expect(await toolbar.evaluate((row) => (row as HTMLElement).inert)).toBe(true);
      expect(await toolbar.getAttribute('aria-disabled')).toBe('true');
      await page.screenshot({ path: '/tmp/panels-history.png' });

      const restore = frame.locator('.svc-old-version-banner .svc-history-restore');
      await restore.click();
      await restore.click();
      await expect.poll(plainText).toBe('First draft');
      await expect.poll(() => frame.locator('.svc-document .ProseMirror').first().textContent()).toBe('First draft');
      expect(await frame.locator('.svc-old-version').isVisible()).toBe(false);
      expect(await toolbar.evaluate((row) => (row as HTMLElement).inert)).toBe(false);
      await expect
        .poll(() => svc.integrator.events.filter((event) => event.eventClass === 'Revision').map((event) => event.body.action))
        .toEqual(['create', 'update']);
      await frame.locator('.svc-entry-list .svc-panel-item', { hasText: 'Restored a version' }).waitFor();
    } finally {
      await context.close();
      await host.close();
      await svc.close();
    }
  });

  it('shows the behavior history the integrator wrote, with the user\'s name, beside the edits', async () => {
    const svc = await startService(db!, { integrator: true });
    const host = await startHostPage(svc.url);
    const context = await browser().newContext();
    try {
      svc.integrator.addUser({ id: 'user-legal', name: 'Lena Legal', token: 'token-legal' });
      await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'document', fileId: 'doc-b' } });
      const written = await svc.call('POST', '/sdk/v2/api/files/doc-b/behavior-histories', { body: { userId: 'user-legal', action: 'approved', content: 'contract signed off' } });
      expect(written.status, written.text).toBe(200);
      const page = await context.newPage();
      const frame = await openEditor(page, host, svc, 'doc-b', 'user-token');
      await frame.getByRole('button', { name: 'History' }).click();
      const entry = frame.locator('.svc-entry-list .svc-panel-item', { hasText: 'approved: contract signed off' });
      await entry.waitFor();
      expect(await entry.locator('.svc-history-detail').textContent()).toMatch(/^Lena Legal · /);
      // what happened outside the editor has no content to view or restore
      expect(await entry.locator('button').count()).toBe(0);
      await page.screenshot({ path: '/tmp/panels-behavior-history.png' });
    } finally {
      await context.close();
      await host.close();
      await svc.close();
    }
  });
});
