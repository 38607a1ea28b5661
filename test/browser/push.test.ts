import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS, type ReferenceIntegrator } from '../../examples/integrator/integrator.js';
import type { App } from '../../src/apps/app.js';
import { call, clusterPrerequisites, startCluster, type Node, type TestCluster } from '../cluster/support.js';
import { testDatabases } from '../support/databases.js';
import { startTestIntegrator } from '../support/integrator.js';
import { startService } from '../support/service.js';
import { sign } from '../support/signing.js';
import { browserForThisFile } from './support/browser-per-file.js';
import { openInHost, recorded, startHostPage, type HostPage } from './support/host-page.js';
import { editorFrame } from './support/panels.js';

const browser = browserForThisFile();
const canCluster = await clusterPrerequisites();
const SCREENSHOTS = process.env.SCREENSHOT_DIR;

interface Pushed {
  pushId: string;
  fileId: string;
  message: unknown;
  sentAt: string;
}

const pushesOf = async (page: Page) => (await recorded<Pushed>(page, 'sdkEvents')).filter((event) => event.name === 'pushMessage').map((event) => event.payload!);

/** Opens `fileId` for the user of `token` through a host page of one node and waits for the editor to be ready. */
async function openOn(page: Page, host: HostPage, app: App, fileId: string, token: string, lang: 'en' | 'zh-CN' = 'en') {
  const result = await openInHost(page, host.url, { fileId, token, signature: await sign(app.id, app.secret), lang });
  if (!result.ok) throw new Error(`connect() failed: ${result.code} ${result.message}`);
  return editorFrame(page);
}

describe.skipIf(!canCluster)('push to open editors across two processes (PostgreSQL + Redis)', () => {
  let cluster: TestCluster;
  let integrator: ReferenceIntegrator;
  let app: App;
  const hosts: HostPage[] = [];
  const secrets = new Map<string, string>();

  beforeAll(async () => {
    integrator = await startTestIntegrator((appId) => secrets.get(appId));
    cluster = await startCluster(2);
    app = await cluster.createApp({ endpointUrl: integrator.url });
    secrets.set(app.id, app.secret);
    for (const node of cluster.nodes) hosts.push(await startHostPage(node.url));
  }, 120_000);
  afterAll(async () => {
    for (const host of hosts) await host.close();
    await cluster?.dispose();
    await integrator?.close();
  });

  const node = (index: number): Node => cluster.nodes[index]!;

  it('the integrator pushes: both host pages of the file get pushMessage within 1 s and the notice shows and is dismissed; a user push reaches that user\'s two files only', async () => {
    integrator.addUser({ id: 'user-2', name: '李雷', token: 'token-2' });
    const grants = { 'user-1': { ...ALL_PERMISSIONS }, 'user-2': { ...ALL_PERMISSIONS } };
    integrator.addFile({ id: 'contract', name: '采购合同', type: 'document', grants });
    integrator.addFile({ id: 'budget', name: 'Budget 2027', type: 'spreadsheet', grants });
    expect((await call(node(0), app, 'POST', '/sdk/v2/api/files', { type: 'document', fileId: 'contract' })).body.status).toBe(0);
    expect((await call(node(0), app, 'POST', '/sdk/v2/api/files', { type: 'spreadsheet', fileId: 'budget' })).body.status).toBe(0);

    const context = await browser().newContext({ viewport: { width: 1100, height: 640 } });
    try {
      const [ownerPage, colleaguePage, budgetPage] = await Promise.all([context.newPage(), context.newPage(), context.newPage()]);
      // the owner on process 0, a colleague on process 1, the owner's spreadsheet on process 1
      const owner = await openOn(ownerPage!, hosts[0]!, app, 'contract', 'user-token', 'zh-CN');
      const colleague = await openOn(colleaguePage!, hosts[1]!, app, 'contract', 'token-2');
      await openOn(budgetPage!, hosts[1]!, app, 'budget', 'user-token');
      await owner.locator('.ProseMirror').waitFor();
      await colleague.locator('.ProseMirror').waitFor();

      const message = { text: '合同已由法务批准，请在周五前签字。', level: 'info' };
      const started = Date.now();
      const sent = await call(node(1), app, 'POST', '/sdk/v2/api/files/contract/push', { message });
      expect(sent.body.status).toBe(0);
      const { pushId } = sent.body.data as { pushId: string };
      for (const page of [ownerPage!, colleaguePage!]) {
        await expect.poll(() => pushesOf(page), { timeout: 1000, interval: 50 }).toEqual([expect.objectContaining({ pushId, fileId: 'contract', message })]);
      }
      expect(Date.now() - started).toBeLessThan(1500);
      expect(await pushesOf(budgetPage!)).toEqual([]);

      // the notice: text, polite status role, a labelled close button (zh-CN page and en page)
      const ownerNotice = owner.getByRole('status').filter({ hasText: message.text });
      await ownerNotice.waitFor();
      const colleagueNotice = colleague.getByRole('status').filter({ hasText: message.text });
      await colleagueNotice.waitFor();
      if (SCREENSHOTS) await ownerPage!.screenshot({ path: `${SCREENSHOTS}/push-notice-zh.png` });
      await owner.getByRole('button', { name: '关闭通知' }).click();
      await expect.poll(() => ownerNotice.count()).toBe(0);
      await colleague.getByRole('button', { name: 'Close notice' }).click();
      await expect.poll(() => colleagueNotice.count()).toBe(0);

      // a message without a string text reaches the host page only
      await call(node(0), app, 'POST', '/sdk/v2/api/files/contract/push', { message: { kind: 'refresh-sidebar' } });
      await expect.poll(() => pushesOf(colleaguePage!).then((list) => list.length), { timeout: 1000, interval: 50 }).toBe(2);
      expect(await colleague.locator('.svc-push-notice').count()).toBe(0);

      // the owner's two files on two processes, and not the colleague
      const userPush = await call(node(0), app, 'POST', '/sdk/v2/api/users/user-1/push', { message: { text: 'Your approval is needed' } });
      expect(userPush.body).toMatchObject({ status: 0, data: { delivered: 2 } });
      const userPushId = (userPush.body.data as { pushId: string }).pushId;
      await expect.poll(() => pushesOf(ownerPage!).then((list) => list.map((entry) => entry.pushId)), { timeout: 1000, interval: 50 }).toContain(userPushId);
      await expect.poll(() => pushesOf(budgetPage!), { timeout: 1000, interval: 50 }).toEqual([expect.objectContaining({ pushId: userPushId, fileId: 'budget' })]);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect((await pushesOf(colleaguePage!)).map((entry) => entry.pushId)).not.toContain(userPushId);
      await budgetPage!.frameLocator('iframe').getByRole('status').filter({ hasText: 'Your approval is needed' }).waitFor();
      if (SCREENSHOTS) await budgetPage!.screenshot({ path: `${SCREENSHOTS}/push-notice-sheet-en.png` });

      // reported events cross processes too: a rename reported on process 1 retitles the editor on process 0; a
      // user's new name reported on process 0 reaches their page on process 1, whose awareness shows it on process 0
      expect((await call(node(1), app, 'POST', '/sdk/v2/api/events/report', { events: [{ type: 'file.renamed', fileId: 'contract', data: { name: '采购合同（终稿）' } }] })).body.status).toBe(0);
      await expect.poll(() => owner.locator('.svc-title').textContent(), { timeout: 1000, interval: 50 }).toBe('采购合同（终稿）');
      integrator.addUser({ id: 'user-2', name: 'Han Meimei', token: 'token-2' });
      expect((await call(node(0), app, 'POST', '/sdk/v2/api/events/report', { events: [{ type: 'user.updated', userId: 'user-2' }] })).body.status).toBe(0);
      await expect.poll(() => owner.locator('.svc-collaborator[data-user-id="user-2"]').getAttribute('title'), { timeout: 2000, interval: 50 }).toBe('Han Meimei');
    } finally {
      await context.close();
    }
  }, 120_000);
});

const [db] = testDatabases();

describe('reported events change open editors', () => {
  it('file.renamed sets the title (titleChange), file.permissionChanged makes it read-only within 1 s, file.deleted closes it with a notice', async () => {
    const svc = await startService(db!, { integrator: true });
    const host = await startHostPage(svc.url);
    const context = await browser().newContext({ viewport: { width: 1000, height: 600 } });
    try {
      svc.integrator.addFile({ id: 'plan', name: 'Plan', grants: { 'user-1': { ...ALL_PERMISSIONS } } });
      expect((await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'document', fileId: 'plan' } })).body.status).toBe(0);
      const page = await context.newPage();
      const result = await openInHost(page, host.url, { fileId: 'plan', token: 'user-token', signature: await svc.sign(), lang: 'en' });
      expect(result.ok).toBe(true);
      const frame = editorFrame(page);
      await frame.locator('.ProseMirror').waitFor();
      const report = (events: unknown[]) => svc.call('POST', '/sdk/v2/api/events/report', { body: { events } });

      // a pushed text is shown as text, never as markup
      const hostile = '<img src=x onerror="window.__pwned=1"><b>urgent</b>';
      expect((await svc.call('POST', '/sdk/v2/api/files/plan/push', { body: { message: { text: hostile } } })).body.status).toBe(0);
      await expect.poll(() => frame.locator('.svc-push-text').textContent(), { timeout: 1000, interval: 50 }).toBe(hostile);
      expect(await frame.locator('.svc-push-notices img, .svc-push-notices b').count()).toBe(0);
      await frame.getByRole('button', { name: 'Close notice' }).click();

      expect((await report([{ type: 'file.renamed', fileId: 'plan', data: { name: 'Plan for 2027' } }])).body.status).toBe(0);
      await expect.poll(() => frame.locator('.svc-title').textContent(), { timeout: 1000, interval: 50 }).toBe('Plan for 2027');
      await expect.poll(async () => (await recorded(page, 'editorEvents')).filter((event) => event.name === 'titleChange').map((event) => event.payload)).toEqual(['Plan for 2027']);

      svc.integrator.grant('plan', 'user-1', { editable: false, commentable: false });
      const started = Date.now();
      expect((await report([{ type: 'file.permissionChanged', fileId: 'plan' }])).body.status).toBe(0);
      await expect.poll(() => frame.locator('.svc-status').getAttribute('data-status'), { timeout: 1000, interval: 50 }).toBe('readOnly');
      expect(Date.now() - started).toBeLessThan(1500);

      expect((await report([{ type: 'file.deleted', fileId: 'plan' }])).body.status).toBe(0);
      await frame.getByRole('alert').filter({ hasText: 'This file was deleted.' }).waitFor({ timeout: 2000 });
      await expect.poll(async () => (await recorded<{ readyState: string }>(page, 'sdkEvents')).some((event) => event.name === 'readyState' && event.payload?.readyState === 'disconnected')).toBe(true);
      if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/file-deleted-en.png` });
    } finally {
      await context.close();
      await host.close();
      await svc.close();
    }
  }, 90_000);
});
