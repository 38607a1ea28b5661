import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot, typescriptProcess } from '../support/processes.js';
import { launchBrowser } from './support/browser.js';
import { selectWord } from './support/panels.js';

/**
 * The two-minute tour of README "Try it", on what `npm run demo` starts (examples/integrator/demo.ts as its
 * own process, a fresh data folder, free ports): pick a colleague, create a document, open it through the
 * SDK, type, mention a colleague, comment, and see the events the integrator received in the page.
 */
interface RunningDemo {
  url: string;
  stop(): Promise<void>;
}

async function startDemo(dataDir: string): Promise<RunningDemo> {
  const child: ChildProcess = spawn(...typescriptProcess('examples/integrator/demo.ts'), {
    cwd: projectRoot,
    env: { ...process.env, SVC_DATA_DIR: dataDir, PORT: '0', DEMO_PORT: '0', DATABASE_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the demo did not start:\n${output}`)), 60_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const printed = /Svc demo intranet:\s+(http:\/\/\S+?)\/?\s/.exec(output);
      if (printed) {
        clearTimeout(timer);
        resolve(printed[1]!);
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => reject(new Error(`the demo exited with ${code}:\n${output}`)));
  });
  return {
    url,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

let browser: Browser;
let dataDir: string;
beforeAll(async () => {
  browser = await launchBrowser();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-demo-'));
});
afterAll(async () => {
  await browser?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('demo intranet (npm run demo)', () => {
  it('tour: pick a colleague, create a document, open it, type, mention a colleague, comment; the integrator receives the events and keeps the file across a restart', async () => {
    let demo = await startDemo(dataDir);
    const context = await browser.newContext({ viewport: { width: 1440, height: 860 } });
    try {
      const page = await context.newPage();
      const pageErrors: string[] = [];
      page.on('pageerror', (error) => pageErrors.push(error.message));
      await page.goto(`${demo.url}/`);

      // who are you? the picker lists the seeded colleagues
      await page.locator('#picker [data-user-id=bob]').click();
      await expect.poll(() => page.locator('#me-name').textContent()).toBe('Bob Martin');
      // the first run created a file of every kind
      await expect.poll(() => page.locator('#file-list .file').count()).toBe(5);

      // a name with markup is shown as text, never run
      const name = 'Tour notes <img src=x onerror="window.injected=1">';
      await page.locator('#new-name').fill(name);
      await page.locator('#create').click();
      const editor = page.frameLocator('#editor iframe').locator('.ProseMirror');
      await editor.click();
      await page.keyboard.type('Typed in the demo intranet, ask @Car');
      // the @ dropdown lists the integrator's colleagues; the mention reaches the integrator as MentionAt
      await page.frameLocator('#editor iframe').locator('.svc-mention-choice', { hasText: 'Carol Díaz' }).first().waitFor();
      await page.keyboard.press('Enter');
      // select a word and comment on it (the editor's comments panel)
      const frame = page.frameLocator('#editor iframe');
      await selectWord(frame, 'intranet');
      await frame.locator('.svc-comment-bubble').click();
      await frame.locator('.svc-comment-draft textarea').fill('Looks good to me');
      await frame.locator('.svc-comment-draft textarea').press('Enter');
      // one title bar: the editor's header shows the name and the save state, the intranet's bar neither
      expect(await frame.locator('.svc-title').textContent()).toBe(name);
      expect(await page.locator('#doc-bar').textContent()).not.toContain('Tour notes');
      expect(await page.locator('#file-list .file-name', { hasText: 'Tour notes' }).textContent()).toBe(name);
      await expect.poll(() => frame.locator('.svc-status').textContent(), { timeout: 10_000 }).toBe('All changes saved');

      // "notify everyone in this file": the intranet's back end pushes through the service; the open editor shows it
      await page.getByRole('button', { name: 'Notify everyone in this file' }).click();
      await page.locator('#notify-text').fill('Please review by Friday');
      await page.screenshot({ path: path.join(os.tmpdir(), 'demo-notify-dialog.png') });
      await page.getByRole('button', { name: 'Send notice' }).click();
      await frame.getByRole('status').filter({ hasText: 'Bob Martin: Please review by Friday' }).waitFor();
      expect(await page.locator('#notify-dialog').evaluate((dialog) => (dialog as HTMLDialogElement).open)).toBe(false);
      await page.screenshot({ path: path.join(os.tmpdir(), 'demo-notify.png') });
      // sharing the file with Dan writes it into the file's behavior history, which the editor's history panel shows
      await page.locator('#share-with').selectOption('dan');
      await expect.poll(() => page.locator('#share-status').textContent()).toBe("Shared with Dan Okafor: see the file's history");
      await frame.getByRole('button', { name: 'History' }).click();
      const shared = frame.locator('.svc-entry-list .svc-panel-item', { hasText: 'shared: with Dan Okafor' });
      await shared.waitFor();
      expect(await shared.locator('.svc-history-detail').textContent()).toMatch(/^Bob Martin · /);
      await page.screenshot({ path: path.join(os.tmpdir(), 'demo-shared.png') });

      // the service told the integrator: the page lists what it received, with names resolved
      const events = page.locator('#event-list .event');
      await expect
        .poll(() => events.filter({ hasText: 'Bob Martin opened “Tour notes' }).count(), { timeout: 15_000 })
        .toBe(1);
      await expect.poll(() => events.filter({ hasText: 'Bob Martin changed “Tour notes' }).count(), { timeout: 20_000 }).toBeGreaterThan(0);
      await expect.poll(() => events.filter({ hasText: 'Bob Martin mentioned Carol Díaz in “Tour notes' }).count(), { timeout: 20_000 }).toBe(1);
      await expect.poll(() => events.filter({ hasText: 'Bob Martin commented in “Tour notes' }).filter({ hasText: '“Looks good to me”' }).count(), { timeout: 20_000 }).toBe(1);
      expect(await page.evaluate(() => (window as unknown as { injected?: number }).injected)).toBeUndefined();

      // Carol, signed in in another window, finds the events so far, the one mentioning her marked
      const carol = await (await browser.newContext()).newPage();
      await carol.goto(`${demo.url}/`);
      await carol.locator('#picker [data-user-id=carol]').click();
      await expect.poll(() => carol.locator('#event-list .event.for-me').textContent()).toContain('Bob Martin mentioned Carol Díaz');
      await carol.context().close();
      expect(pageErrors).toEqual([]);
      await page.screenshot({ path: path.join(os.tmpdir(), 'demo-tour.png') });

      // bad input gets a clear answer from the intranet's back end
      const refused = await page.evaluate(async () => {
        const session = await (await fetch('/intranet/api/session', { method: 'POST', body: JSON.stringify({ userId: 'bob' }) })).json();
        const post = (body: unknown) =>
          fetch('/intranet/api/files', { method: 'POST', headers: { authorization: `Bearer ${session.token}` }, body: JSON.stringify(body) }).then(async (r) => ({ status: r.status, body: await r.json() }));
        return [await post({ name: 'x', type: 'novel' }), await post({ name: '', type: 'document' }), (await fetch('/intranet/api/files')).status];
      });
      expect(refused).toEqual([
        { status: 400, body: { error: 'type must be one of document, documentPro, spreadsheet, presentation, table' } },
        { status: 400, body: { error: 'a name of 1-120 characters is needed' } },
        401,
      ]);

      // a restart on the same data folder finds the file (and the content the service stored) again
      await context.close();
      await demo.stop();
      demo = await startDemo(dataDir);
      const again = await browser.newContext();
      const page2 = await again.newPage();
      await page2.goto(`${demo.url}/`);
      await page2.locator('#picker [data-user-id=alice]').click();
      await expect.poll(() => page2.locator('#file-list .file').count()).toBe(6);
      await page2.locator('#file-list .file', { hasText: 'Tour notes' }).click();
      await expect.poll(() => page2.frameLocator('#editor iframe').locator('.ProseMirror').textContent(), { timeout: 15_000 }).toContain('Typed in the demo intranet');
      await again.close();
    } finally {
      await demo.stop();
    }
  }, 240_000);
});
