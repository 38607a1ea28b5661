import { describe, expect, it } from 'vitest';
import { richTextOf } from '../../src/model/content.js';
import { parseFragment, toYNodes, type ProseMirrorNode } from '../../src/model/rich-text/schema.js';
import { testDatabases } from '../support/databases.js';
import { DEFAULT_USER } from '../support/integrator.js';
import { startService, type TestService } from '../support/service.js';
import { browserForThisFile } from './support/browser-per-file.js';
import { startHostPage } from './support/host-page.js';
import { openEditor } from './support/panels.js';

const browser = browserForThisFile();
const [db] = testDatabases();

const paragraph = (text: string): ProseMirrorNode => ({ type: 'paragraph', content: [{ type: 'text', text }] });
const heading = (text: string): ProseMirrorNode => ({ type: 'heading', attrs: { level: 1 }, content: [{ type: 'text', text }] });

/** Replaces the document's content (as another client would) and names it as a revision. */
async function version(svc: TestService, fileId: string, title: string, nodes: ProseMirrorNode[]): Promise<void> {
  await svc.services.content.change(svc.app.id, fileId, { userId: DEFAULT_USER.id, name: DEFAULT_USER.name }, (doc) => {
    const root = richTextOf(doc);
    root.delete(0, root.length);
    root.insert(0, toYNodes(parseFragment(nodes)));
  });
  const created = await svc.call('POST', `/sdk/v2/collab-files/${fileId}/revisions`, { body: { title } });
  expect(created.status, created.text).toBe(200);
}

describe('comparing versions in the history panel', { timeout: 180_000 }, () => {
  it('"Compare with previous" shows the insertions and deletions read-only; any two ticked versions compare too', async () => {
    const svc = await startService(db!, { integrator: true });
    const host = await startHostPage(svc.url);
    const context = await browser().newContext({ viewport: { width: 1280, height: 800 } });
    try {
      await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'document', fileId: 'doc-c' } });
      await version(svc, 'doc-c', 'Draft', [heading('Launch plan'), paragraph('We ship on Monday with two teams.'), paragraph('Risks are unknown.')]);
      await version(svc, 'doc-c', 'Review', [heading('Launch plan'), paragraph('We ship on Friday with two teams.'), paragraph('Marketing starts a week before.')]);
      await version(svc, 'doc-c', 'Final', [heading('Launch plan'), paragraph('We ship on Friday with three teams.'), paragraph('Marketing starts a week before.'), paragraph('Sign-off by Ann.')]);

      const page = await context.newPage();
      const frame = await openEditor(page, host, svc, 'doc-c', 'user-token');
      await expect.poll(() => frame.locator('.ProseMirror').first().textContent(), { timeout: 20_000 }).toContain('Sign-off by Ann.');
      await frame.getByRole('button', { name: 'History' }).click();
      const review = frame.locator('.svc-revision-list .svc-panel-item', { hasText: 'Review' });
      await review.locator('.svc-history-compare').click();

      const shown = frame.locator('.svc-old-version .svc-compare-document');
      await expect.poll(() => shown.locator('del').allTextContents(), { timeout: 20_000 }).toEqual(['Monday', 'Risks are unknown.']);
      expect(await shown.locator('ins').allTextContents()).toEqual(['Friday', 'Marketing starts a week before.']);
      expect(await shown.locator('h1').textContent()).toBe('Launch plan');
      expect(await frame.locator('.svc-old-version-banner').textContent()).toContain('characters inserted');
      // read-only, in place of the editor, with the toolbar inert
      expect(await shown.locator('[contenteditable="true"]').count()).toBe(0);
      expect(await frame.locator('.svc-toolbar').evaluate((row) => (row as HTMLElement).inert)).toBe(true);
      await page.screenshot({ path: 'docs/images/history-compare.png' });

      // any two: tick Draft and Final
      await frame.locator('.svc-revision-list .svc-panel-item', { hasText: 'Draft' }).locator('.svc-history-choose-box').check();
      await frame.locator('.svc-revision-list .svc-panel-item', { hasText: 'Final' }).locator('.svc-history-choose-box').check();
      await frame.locator('.svc-history-compare-chosen').click();
      await expect.poll(() => shown.locator('ins').allTextContents(), { timeout: 20_000 }).toEqual(['Friday', 'three', 'Marketing starts a week before.', 'Sign-off by Ann.']);
      expect(await shown.locator('del').allTextContents()).toEqual(['Monday', 'two', 'Risks are unknown.']);

      await frame.locator('.svc-old-version-close').click();
      expect(await frame.locator('.svc-old-version').isVisible()).toBe(false);
      expect(await frame.locator('.svc-toolbar').evaluate((row) => (row as HTMLElement).inert)).toBe(false);
    } finally {
      await context.close();
      await host.close();
      await svc.close();
    }
  });
});
