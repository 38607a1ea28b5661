import { describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases.js';
import { startService } from '../support/service.js';
import { browserForThisFile } from './support/browser-per-file.js';
import { openInHost, startHostPage } from './support/host-page.js';

const browser = browserForThisFile();

describe.each(testDatabases().slice(0, 1))('document editor in a browser ($name)', (db) => {
  it('two users edit one document and converge; the backend reads what they wrote', async () => {
    const svc = await startService(db, { integrator: true });
    const host = await startHostPage(svc.url);
    try {
      svc.integrator.addUser({ id: 'user-2', name: 'Bob', token: 'token-2' });
      await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'document', fileId: 'doc-1' } });
      const signature = await svc.sign();
      const alice = await browser().newContext();
      const bob = await browser().newContext();
      const pageA = await alice.newPage();
      const pageB = await bob.newPage();
      expect(await openInHost(pageA, host, { fileId: 'doc-1', token: 'user-token', signature })).toMatchObject({ ok: true, fileType: 'document' });
      expect(await openInHost(pageB, host, { fileId: 'doc-1', token: 'token-2', signature })).toMatchObject({ ok: true, fileType: 'document' });
      const editorA = pageA.frameLocator('iframe').locator('.ProseMirror');
      const editorB = pageB.frameLocator('iframe').locator('.ProseMirror');
      await editorA.click();
      await pageA.keyboard.type('Hello from Alice');
      await expect.poll(() => editorB.textContent()).toContain('Hello from Alice');
      await pageA.screenshot({ path: '/tmp/editor-a.png' });
      await expect.poll(async () => (await svc.call('GET', '/sdk/v2/collab-files/doc-1/plain-text')).body.data?.content).toBe('Hello from Alice');
      await alice.close();
      await bob.close();
    } finally {
      await host.close();
      await svc.close();
    }
  });
});
