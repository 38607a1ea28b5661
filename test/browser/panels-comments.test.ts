import { describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases.js';
import { startService, type TestService } from '../support/service.js';
import { browserForThisFile } from './support/browser-per-file.js';
import { startHostPage, type HostPage } from './support/host-page.js';
import { openEditor, typeAndSelect } from './support/panels.js';

const browser = browserForThisFile();

const [db] = testDatabases();

async function withService(run: (svc: TestService, host: HostPage) => Promise<void>): Promise<void> {
  const svc = await startService(db!, { integrator: true });
  const host = await startHostPage(svc.url);
  try {
    await run(svc, host);
  } finally {
    await host.close();
    await svc.close();
  }
}

describe('comments panel in a browser', () => {
  it('a comment made in the page reaches the integrator as an event, with its mention; a second user sees it live, replies and resolves', async () => {
    await withService(async (svc, host) => {
      svc.integrator.addUser({ id: 'user-2', name: 'Bob', token: 'token-2' });
      await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'document', fileId: 'doc-c' } });
      const alice = await browser().newContext();
      const bob = await browser().newContext();
      try {
        const pageA = await alice.newPage();
        const pageB = await bob.newPage();
        const frameA = await openEditor(pageA, host, svc, 'doc-c', 'user-token');
        const frameB = await openEditor(pageB, host, svc, 'doc-c', 'token-2');
        await frameB.getByRole('button', { name: 'Comments' }).click();

        await typeAndSelect(pageA, frameA, 'The budget needs review', 'budget');
        await frameA.locator('.svc-comment-bubble').click();
        const composer = frameA.locator('.svc-comment-draft textarea');
        await composer.fill('Please check ');
        await composer.pressSequentially('@Bo');
        await frameA.locator('.svc-mention-option', { hasText: 'Bob' }).click();
        await composer.pressSequentially('today');
        await composer.press('Enter');

        const thread = frameA.locator('.svc-thread');
        await expect.poll(() => thread.locator('.svc-comment-body').first().textContent()).toBe('Please check @Bob today');
        await expect.poll(() => thread.locator('.svc-thread-quote').textContent()).toBe('budget');
        await expect.poll(() => frameA.locator('.ProseMirror .svc-comment-anchor').textContent()).toBe('budget');

        await expect
          .poll(() => svc.integrator.events.filter((event) => event.eventClass === 'Comment').map((event) => event.body))
          .toEqual([expect.objectContaining({ kind: 'comment', action: 'create', userId: 'user-1', comment: expect.objectContaining({ content: 'Please check @Bob today', userIds: ['user-2'] }) })]);
        await expect
          .poll(() => svc.integrator.events.filter((event) => event.eventClass === 'MentionAt').map((event) => (event.body.comment as { userIds: string[] }).userIds))
          .toEqual([['user-2']]);

        // Bob sees it without reloading (svc:conversation), replies, and resolves the thread
        const threadB = frameB.locator('.svc-thread');
        await expect.poll(() => threadB.locator('.svc-comment-body').first().textContent(), { timeout: 10_000 }).toBe('Please check @Bob today');
        await expect.poll(() => frameB.locator('.ProseMirror .svc-comment-anchor').textContent()).toBe('budget');
        await threadB.locator('textarea').fill('Done, looks fine');
        await threadB.locator('textarea').press('Enter');
        await expect.poll(() => thread.locator('.svc-comment-body').allTextContents()).toEqual(['Please check @Bob today', 'Done, looks fine']);
        await pageA.screenshot({ path: '/tmp/panels-comments.png' });

        await threadB.getByRole('button', { name: 'Resolve' }).click();
        // resolved threads leave the list (the one Alice has open stays, marked resolved) and their text is no longer marked
        await expect.poll(() => thread.getAttribute('data-status')).toBe('closed');
        await expect.poll(() => frameB.locator('.svc-thread').count()).toBe(0);
        await expect.poll(() => frameA.locator('.ProseMirror .svc-comment-anchor').count()).toBe(0);
        const list = await svc.call('GET', '/sdk/v2/collab-files/doc-c/comment-list');
        expect(list.body.data.threads).toEqual([expect.objectContaining({ status: 'closed', closedBy: 'user-2' })]);
        await expect
          .poll(() => svc.integrator.events.filter((event) => event.eventClass === 'Comment').map((event) => event.body.action))
          .toEqual(['create', 'create', 'closeComments']);
      } finally {
        await alice.close();
        await bob.close();
      }
    });
  }, 120_000);

  it('a discussion message reaches the integrator and the other user live; its mention is announced', async () => {
    await withService(async (svc, host) => {
      svc.integrator.addUser({ id: 'user-2', name: 'Bob', token: 'token-2' });
      await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'document', fileId: 'doc-d' } });
      const alice = await browser().newContext();
      const bob = await browser().newContext();
      try {
        const frameA = await openEditor(await alice.newPage(), host, svc, 'doc-d', 'user-token');
        const frameB = await openEditor(await bob.newPage(), host, svc, 'doc-d', 'token-2');
        await frameB.getByRole('button', { name: 'Discussion' }).click();
        await frameA.getByRole('button', { name: 'Discussion' }).click();
        const composer = frameA.locator('.svc-panel-discussion textarea');
        await composer.fill('Hi ');
        await composer.pressSequentially('@B');
        await frameA.locator('.svc-mention-option', { hasText: 'Bob' }).click();
        await composer.pressSequentially('shall we meet?');
        await composer.press('Enter');
        await expect.poll(() => frameB.locator('.svc-discussion-message .svc-comment-body').allTextContents(), { timeout: 10_000 }).toEqual(['Hi @Bob shall we meet?']);
        expect(await frameB.locator('.svc-discussion-message .svc-comment-author').textContent()).toBe('Test User');
        await expect
          .poll(() => svc.integrator.events.filter((event) => event.eventClass === 'Discussion' || event.eventClass === 'MentionAt').map((event) => [event.eventClass, event.body.type]))
          .toEqual([
            ['Discussion', 'discussion'],
            ['MentionAt', 'discussion'],
          ]);
      } finally {
        await alice.close();
        await bob.close();
      }
    });
  }, 120_000);
});
