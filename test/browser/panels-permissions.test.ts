import { describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS } from '../../examples/integrator/integrator.js';
import { testDatabases } from '../support/databases.js';
import { startService } from '../support/service.js';
import { browserForThisFile } from './support/browser-per-file.js';
import { startHostPage } from './support/host-page.js';
import { openEditor, selectWord } from './support/panels.js';

const browser = browserForThisFile();

const [db] = testDatabases();
const HOSTILE_NAME = '<img src=x onerror="window.__pwned=1">Carol';
const HOSTILE_TEXT = '<img src=x onerror="window.__pwned=1"><b>not bold</b> & <script>window.__pwned=1</script>';

describe('panels and permissions in a browser', () => {
  it('a commenter who may not edit comments; a reader sees comments but cannot add any; hostile names and text stay text', async () => {
    const svc = await startService(db!, { integrator: true });
    const host = await startHostPage(svc.url);
    const contexts = await Promise.all([browser().newContext(), browser().newContext(), browser().newContext()]);
    try {
      svc.integrator.addUser({ id: 'user-2', name: HOSTILE_NAME, token: 'token-2' });
      svc.integrator.addUser({ id: 'user-3', name: 'Reader', token: 'token-3' });
      svc.integrator.addFile({
        id: 'doc-r',
        grants: {
          'user-1': { ...ALL_PERMISSIONS },
          'user-2': { readable: true, commentable: true, editable: false },
          'user-3': { readable: true, commentable: false, editable: false },
        },
      });
      await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'document', fileId: 'doc-r' } });
      const [ownerPage, commenterPage, readerPage] = await Promise.all(contexts.map((context) => context.newPage()));
      const owner = await openEditor(ownerPage!, host, svc, 'doc-r', 'user-token');
      await owner.locator('.ProseMirror').click();
      await ownerPage!.keyboard.type('Quarterly numbers look good');

      const commenter = await openEditor(commenterPage!, host, svc, 'doc-r', 'token-2');
      await expect.poll(() => commenter.locator('.ProseMirror').textContent()).toContain('Quarterly numbers look good');
      // the commenter cannot edit: what they type is a suggestion of theirs (docs/BROWSER.md "Suggestions"); they comment too
      await commenter.locator('.ProseMirror').click();
      await commenterPage!.keyboard.type('typed by a commenter');
      await expect.poll(() => commenter.locator('ins.svc-suggestion').allTextContents().then((texts) => texts.join('').replace(/\u200B/g, ''))).toContain('typed by a commenter');
      await selectWord(commenter, 'numbers');
      await commenter.locator('.svc-comment-bubble').click();
      await commenter.locator('.svc-comment-draft textarea').fill(HOSTILE_TEXT);
      await commenter.locator('.svc-comment-draft textarea').press('Enter');
      await expect
        .poll(() => svc.integrator.events.filter((event) => event.eventClass === 'Comment').map((event) => [event.body.userId, (event.body.comment as { content: string }).content]))
        .toEqual([['user-2', HOSTILE_TEXT]]);

      const reader = await openEditor(readerPage!, host, svc, 'doc-r', 'token-3');
      await reader.getByRole('button', { name: 'Comments' }).click();
      const body = reader.locator('.svc-comment-body');
      await expect.poll(() => body.textContent()).toBe(HOSTILE_TEXT);
      expect(await reader.locator('.svc-comment-author').textContent()).toBe(HOSTILE_NAME);
      expect(await reader.locator('.svc-panel-comments img, .svc-panel-comments script, .svc-panel-comments b').count()).toBe(0);
      expect(await reader.locator('.ProseMirror .svc-comment-anchor').textContent()).toBe('numbers');
      // a reader has no way to comment, reply, resolve or delete
      expect(await reader.locator('.svc-comment-add').isDisabled()).toBe(true);
      expect(await reader.locator('.svc-panel-comments textarea, .svc-thread-toggle, .svc-comment-delete').count()).toBe(0);
      await selectWord(reader, 'Quarterly');
      await readerPage!.waitForTimeout(100);
      expect(await reader.locator('.svc-comment-bubble').isVisible()).toBe(false);
      await readerPage!.screenshot({ path: '/tmp/panels-reader.png' });
      for (const page of [ownerPage!, commenterPage!, readerPage!]) {
        expect(await page.frames()[1]!.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
      }
      // and the service refuses the reader's comment anyway
      const refused = await svc.call('POST', '/sdk/v2/collab-files/doc-r/comments', { token: 'token-3', body: { selection: { from: 1, to: 5 }, content: 'sneaky' } });
      expect([refused.status, refused.body.status]).toEqual([403, 40300]);
    } finally {
      await Promise.all(contexts.map((context) => context.close()));
      await host.close();
      await svc.close();
    }
  });
});
