import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { testDatabases } from '../support/databases.js';
import { startService, type TestService } from '../support/service.js';
import { launchBrowser } from './support/browser.js';
import { openInHost, recorded, startHostPage, type HostPage } from './support/host-page.js';

type HostWindow = Window & Record<string, any>;

interface CollaboratorsChanged {
  type: string;
  collaborators: Array<{ id: string; name: string; avatar: string }>;
  enterUsers?: Array<{ id: string; name: string }>;
  leaveUsers?: Array<{ id: string; name: string }>;
}

const AVATAR = 'data:image/svg+xml,%3Csvg xmlns="http://www.w3.org/2000/svg" width="8" height="8"%3E%3Crect width="8" height="8" fill="%23f00"/%3E%3C/svg%3E';

let browser: Browser;

/** The editor events of one name the host page received. */
async function events<T>(page: Page, name: string): Promise<T[]> {
  return (await recorded<T>(page, 'editorEvents')).filter((event) => event.name === name).map((event) => event.payload as T);
}

describe.each(testDatabases().slice(0, 1))('JS SDK: events and host callbacks across origins ($name)', (db) => {
  let svc: TestService;
  let host: HostPage;
  let signature: string;
  beforeAll(async () => {
    browser = await launchBrowser();
    const defaults = loadConfig({});
    svc = await startService(db, { integrator: { autoFiles: false }, content: { ...defaults.content, permissionRecheckMs: 200 } });
    host = await startHostPage(svc.url);
    signature = await svc.sign();
    svc.integrator.addUser({ id: 'alice', name: 'Alice Liddell', avatar: AVATAR, token: 'alice-token' });
    svc.integrator.addUser({ id: 'bob', name: 'Bob <b>Builder</b>', token: 'bob-token' });
    svc.integrator.addFile({
      id: 'doc',
      type: 'document',
      name: 'Plan',
      grants: { alice: { readable: true, editable: true, commentable: true }, bob: { readable: true, editable: true, commentable: true } },
    });
    await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'document', fileId: 'doc' }, token: 'alice-token' });
  });
  afterAll(async () => {
    await browser?.close();
    await host?.close();
    await svc?.close();
  });

  it('tells the host of save status and collaborators, with the names and avatars the integrator gave', async () => {
    const alice = await browser.newContext();
    const bob = await browser.newContext();
    const pageA = await alice.newPage();
    const pageB = await bob.newPage();
    expect(await openInHost(pageA, host, { fileId: 'doc', token: 'alice-token', signature })).toMatchObject({ ok: true });
    const first = await events<CollaboratorsChanged>(pageA, 'collaboratorsChanged');
    expect(first[0]).toEqual({ type: 'snapshot', collaborators: [{ id: 'alice', name: 'Alice Liddell', avatar: AVATAR, color: expect.any(String) }] });

    expect(await openInHost(pageB, host, { fileId: 'doc', token: 'bob-token', signature })).toMatchObject({ ok: true });
    await expect.poll(async () => (await events<CollaboratorsChanged>(pageA, 'collaboratorsChanged')).find((event) => event.type === 'enter')).toMatchObject({
      type: 'enter',
      enterUsers: [{ id: 'bob', name: 'Bob <b>Builder</b>', avatar: '' }],
      collaborators: [{ id: 'alice' }, { id: 'bob' }],
    });
    expect(await pageA.evaluate(() => (window as HostWindow).sdk.getEditor().getCollaborators().map((person: { name: string }) => person.name))).toEqual([
      'Alice Liddell',
      'Bob <b>Builder</b>',
    ]);
    // the header lists both, the names as text
    const badges = pageA.frameLocator('iframe').locator('.svc-collaborator');
    await expect.poll(() => badges.count()).toBe(2);
    expect(await badges.nth(1).getAttribute('title')).toBe('Bob <b>Builder</b>');
    expect(await badges.nth(0).locator('img.svc-avatar').getAttribute('src')).toBe(AVATAR);

    await pageA.frameLocator('iframe').locator('.ProseMirror').click();
    await pageA.keyboard.type('Saved through the SDK');
    await expect.poll(async () => (await events<{ status: string }>(pageA, 'saveStatusChanged')).map((event) => event.status)).toEqual(expect.arrayContaining(['saving', 'saved']));
    await pageA.screenshot({ path: '/tmp/sdk-collaborators.png' });

    await bob.close();
    await expect.poll(async () => (await events<CollaboratorsChanged>(pageA, 'collaboratorsChanged')).find((event) => event.type === 'leave'), { timeout: 20_000 }).toMatchObject({
      type: 'leave',
      leaveUsers: [{ id: 'bob' }],
      collaborators: [{ id: 'alice' }],
    });
    await alice.close();
  });

  it("opens clicked links through the host's openLink, never in the iframe", async () => {
    const alice = await browser.newContext();
    const page = await alice.newPage();
    expect(await openInHost(page, host, { fileId: 'doc', token: 'alice-token', signature })).toMatchObject({ ok: true });
    const editor = page.frameLocator('iframe').locator('.ProseMirror');
    await editor.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('see https://intranet.example/wiki?page=1 ');
    const link = editor.locator('a[href="https://intranet.example/wiki?page=1"]');
    await expect.poll(() => link.count()).toBe(1);
    // a plain click in editable text places the caret; a Ctrl+click opens the link, once
    await link.click();
    await link.click({ modifiers: ['Control'] });
    const opened = { name: 'openLink', args: ['https://intranet.example/wiki?page=1', '_blank'] };
    await expect.poll(async () => (await recorded(page, 'hostCalls')).filter((call) => call.name === 'openLink')).toEqual([opened]);
    // a reader's click (read-only content) opens it once too
    svc.integrator.grant('doc', 'bob', { editable: false, commentable: false });
    svc.services.access.forget();
    const reader = await browser.newContext();
    const readerPage = await reader.newPage();
    expect(await openInHost(readerPage, host, { fileId: 'doc', token: 'bob-token', signature })).toMatchObject({ ok: true });
    await readerPage.frameLocator('iframe').locator('.ProseMirror a[href="https://intranet.example/wiki?page=1"]').click();
    await expect.poll(async () => (await recorded(readerPage, 'hostCalls')).filter((call) => call.name === 'openLink')).toEqual([opened]);
    await readerPage.waitForTimeout(500);
    expect((await recorded(readerPage, 'hostCalls')).filter((call) => call.name === 'openLink')).toEqual([opened]);
    svc.integrator.grant('doc', 'bob', { editable: true });
    await reader.close();
    expect(page.frames().some((frame) => frame.url().startsWith('https://intranet.example'))).toBe(false);
    await alice.close();
  });

  it('renews expiring credentials through getCredentials and keeps working; setCredentials is checked', async () => {
    const alice = await browser.newContext();
    const page = await alice.newPage();
    let renewals = 0;
    await page.exposeFunction('freshCredentials', async () => {
      renewals += 1;
      return { token: 'alice-token', signature: await svc.sign({ expiresIn: 3600 }) };
    });
    // 3 s of validity (+5 s of clock tolerance on the service): the page must ask for more before then
    const shortLived = await svc.sign({ expiresIn: 3 });
    expect(await openInHost(page, host, { fileId: 'doc', token: 'alice-token', signature: shortLived })).toMatchObject({ ok: true });
    await expect.poll(() => renewals, { timeout: 6000 }).toBe(1);
    expect((await recorded(page, 'hostCalls')).filter((call) => call.name === 'getCredentials')).toHaveLength(1);
    // past the first signature's life: a call of the page's own uses the renewed credentials
    await page.waitForTimeout(9000 - 3000);
    const created = await page.evaluate(() =>
      (window as HostWindow).sdk
        .getEditor()
        .createRevision('After renewal')
        .then(
          () => ({ ok: true }),
          (error: { code?: unknown; message?: string }) => ({ ok: false, code: error.code, message: error.message }),
        ),
    );
    expect(created).toEqual({ ok: true });
    const revisions = await svc.call('GET', '/sdk/v2/collab-files/doc/revisions', { token: 'alice-token' });
    expect(revisions.body.data.map((revision: { title: string }) => revision.title)).toContain('After renewal');

    const refused = await page.evaluate(() =>
      (window as HostWindow).sdk.setCredentials({ token: '', signature: 'x' }).then(
        () => 'accepted',
        (error: Error) => error.name,
      ),
    );
    expect(refused).toBe('TypeError');
    const pushed = await page.evaluate((fresh) => (window as HostWindow).sdk.setCredentials({ token: 'alice-token', signature: fresh }).then(() => 'applied'), await svc.sign());
    expect(pushed).toBe('applied');
    await alice.close();
  }, 40_000);

  it('renews credentials when the service refuses a call as expired, then sends the call again', async () => {
    const alice = await browser.newContext();
    const page = await alice.newPage();
    // no fresh credentials at first: the renewal before expiry fails and the signature runs out
    const shortLived = await svc.sign({ expiresIn: 2 });
    expect(await openInHost(page, host, { fileId: 'doc', token: 'alice-token', signature: shortLived })).toMatchObject({ ok: true });
    // asked at once (the signature is nearly spent), but under CI load the bridge's round trip can take seconds
    await expect.poll(async () => (await recorded(page, 'hostCalls')).filter((call) => call.name === 'getCredentials').length).toBe(1);
    await page.waitForTimeout(6000);
    const fresh = await svc.sign();
    await page.evaluate((signature) => {
      (window as HostWindow).freshCredentials = () => ({ token: 'alice-token', signature });
    }, fresh);
    const created = await page.evaluate(() =>
      (window as HostWindow).sdk
        .getEditor()
        .createRevision('After a refusal')
        .then(
          () => ({ ok: true }),
          (error: { code?: unknown; message?: string }) => ({ ok: false, code: error.code, message: error.message }),
        ),
    );
    expect(created).toEqual({ ok: true });
    expect((await recorded(page, 'hostCalls')).filter((call) => call.name === 'getCredentials')).toHaveLength(2);
    const revisions = await svc.call('GET', '/sdk/v2/collab-files/doc/revisions', { token: 'alice-token' });
    expect(revisions.body.data.map((revision: { title: string }) => revision.title)).toContain('After a refusal');
    await alice.close();
  }, 40_000);

  it('tells the host when the user confirms that editing was taken away', async () => {
    const bob = await browser.newContext();
    const page = await bob.newPage();
    expect(await openInHost(page, host, { fileId: 'doc', token: 'bob-token', signature, lang: 'en' })).toMatchObject({ ok: true });
    svc.integrator.grant('doc', 'bob', { editable: false, commentable: false });
    svc.services.access.forget();
    const confirm = page.frameLocator('iframe').locator('.svc-notice-confirm');
    await expect.poll(() => confirm.count(), { timeout: 10_000 }).toBe(1);
    expect(await page.frameLocator('iframe').locator('.svc-notice').textContent()).toContain('You can no longer edit this file.');
    expect(await events(page, 'editForbiddenConfirmed')).toEqual([]);
    await confirm.click();
    await expect.poll(() => events(page, 'editForbiddenConfirmed')).toEqual([{ reason: 'STATUS_FORBIDDEN' }]);
    svc.integrator.grant('doc', 'bob', { readable: true, editable: true, commentable: true });
    await bob.close();
  });
});
