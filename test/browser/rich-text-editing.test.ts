import type { Browser, BrowserContext, FrameLocator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS, type Permissions } from '../../examples/integrator/integrator.js';
import { loadConfig } from '../../src/config.js';
import { testDatabases } from '../support/databases.js';
import { DEFAULT_USER, eventually } from '../support/integrator.js';
import { startService, type TestService } from '../support/service.js';
import { launchBrowser } from './support/browser.js';
import { openInHost, recorded, startHostPage, type HostPage } from './support/host-page.js';
import { caretToEnd } from './support/panels.js';

/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
/** Smallest upload the service allows; a PNG padded past it is refused as too large. */
const UPLOAD_LIMIT = 1024;
const HOSTILE = '<img src=x onerror="window.__pwned=1">';

/** A Word clipboard payload (Word 16 on Windows, trimmed): heading, bold/italic, link, bulleted and numbered lists, a table. */
const WORD_HTML = `<html xmlns:o="urn:schemas-microsoft-com:office:office" xmlns:w="urn:schemas-microsoft-com:office:word"><head><meta name=Generator content="Microsoft Word 15"><style><!-- p.MsoNormal {margin:0cm;} --></style></head>
<body lang=EN-US style='tab-interval:36.0pt'><!--StartFragment-->
<h1><span lang=EN-US>Quarterly report<o:p></o:p></span></h1>
<p class=MsoNormal><b><span lang=EN-US>Revenue</span></b><span lang=EN-US> grew, <i>mostly</i> abroad; see <a href="https://example.com/q3">the figures</a>.<o:p></o:p></span></p>
<p class=MsoListParagraphCxSpFirst style='text-indent:-18.0pt;mso-list:l0 level1 lfo1'><![if !supportLists]><span style='font-family:Symbol'><span style='mso-list:Ignore'>·<span style='font:7.0pt "Times New Roman"'>&nbsp;&nbsp;&nbsp; </span></span></span><![endif]><span lang=EN-US>Europe<o:p></o:p></span></p>
<p class=MsoListParagraphCxSpMiddle style='margin-left:72.0pt;text-indent:-18.0pt;mso-list:l0 level2 lfo1'><![if !supportLists]><span style='font-family:"Courier New"'><span style='mso-list:Ignore'>o<span style='font:7.0pt "Times New Roman"'>&nbsp; </span></span></span><![endif]><span lang=EN-US>France<o:p></o:p></span></p>
<p class=MsoListParagraphCxSpLast style='text-indent:-18.0pt;mso-list:l0 level1 lfo1'><![if !supportLists]><span style='font-family:Symbol'><span style='mso-list:Ignore'>·<span style='font:7.0pt "Times New Roman"'>&nbsp;&nbsp;&nbsp; </span></span></span><![endif]><span lang=EN-US>Asia<o:p></o:p></span></p>
<p class=MsoListParagraphCxSpFirst style='text-indent:-18.0pt;mso-list:l1 level1 lfo2'><![if !supportLists]><span><span style='mso-list:Ignore'>1.<span style='font:7.0pt "Times New Roman"'>&nbsp;&nbsp; </span></span></span><![endif]><span lang=EN-US>Hire<o:p></o:p></span></p>
<p class=MsoListParagraphCxSpLast style='text-indent:-18.0pt;mso-list:l1 level1 lfo2'><![if !supportLists]><span><span style='mso-list:Ignore'>2.<span style='font:7.0pt "Times New Roman"'>&nbsp;&nbsp; </span></span></span><![endif]><span lang=EN-US>Build<o:p></o:p></span></p>
<table class=MsoTableGrid border=1 cellspacing=0 cellpadding=0 style='border-collapse:collapse;border:none'>
 <tr><td width=301 valign=top style='width:225.4pt;border:solid windowtext 1.0pt'><p class=MsoNormal><b><span lang=EN-US>Region<o:p></o:p></span></b></p></td>
  <td width=301 valign=top style='width:225.4pt;border:solid windowtext 1.0pt'><p class=MsoNormal><b><span lang=EN-US>Sales<o:p></o:p></span></b></p></td></tr>
 <tr><td width=301 valign=top><p class=MsoNormal><span lang=EN-US>Europe<o:p></o:p></span></p></td>
  <td width=301 valign=top><p class=MsoNormal><span lang=EN-US>42<o:p></o:p></span></p></td></tr>
</table>
<!--EndFragment--></body></html>`;

let browser: Browser;
let svc: TestService;
let host: HostPage;
let signature: string;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
  const defaults = loadConfig({});
  svc = await startService(testDatabases()[0]!, {
    integrator: true,
    uploadLimitBytes: UPLOAD_LIMIT,
    integratorLink: { ...defaults.integratorLink, permissionCacheMs: 0 },
    content: { ...defaults.content, coalesceMs: 100, coalesceMaxMs: 500, permissionRecheckMs: 200 },
  });
  host = await startHostPage(svc.url);
  signature = await svc.sign();
  svc.integrator.addUser({ id: 'bob', name: 'Bob', email: 'bob@example.com', token: 'bob-token' });
  svc.integrator.addUser({ id: 'reader', name: 'Rita Reader', token: 'reader-token' });
  svc.integrator.addUser({ id: 'eve', name: `${HOSTILE}Eve`, token: 'eve-token' });
}, 60_000);

afterAll(async () => {
  for (const context of contexts) await context.close();
  await host?.close();
  await svc?.close();
  await browser?.close();
});

const NO_PERMISSIONS: Required<Permissions> = { readable: false, editable: false, commentable: false, copyable: false, exportable: false, manageable: false };

let fileCount = 0;
/**
 * A new document known to the integrator and the service: the default user may do everything, the users in
 * `grants` exactly what is given (the test integrator grants everything not said otherwise).
 */
async function newDocument(grants: Record<string, Permissions> = {}, type = 'document'): Promise<string> {
  const fileId = `rich-${++fileCount}`;
  const given = Object.fromEntries(Object.entries(grants).map(([userId, permissions]) => [userId, { ...NO_PERMISSIONS, ...permissions }]));
  svc.integrator.addFile({ id: fileId, name: `Plan ${fileCount}`, type, grants: { [DEFAULT_USER.id]: { ...ALL_PERMISSIONS }, ...given } });
  const created = await svc.call('POST', '/sdk/v2/api/files', { body: { type, fileId } });
  expect(created.status).toBe(200);
  return fileId;
}

interface Opened {
  page: Page;
  frame: FrameLocator;
}

async function open(fileId: string, token: string = DEFAULT_USER.token): Promise<Opened> {
  const context = await browser.newContext();
  contexts.push(context);
  const page = await context.newPage();
  expect(await openInHost(page, host.url, { fileId, token, signature, lang: 'en' })).toMatchObject({ ok: true });
  const frame = page.frameLocator('iframe');
  await frame.locator('.ProseMirror').waitFor();
  return { page, frame };
}

async function plainText(fileId: string): Promise<string | undefined> {
  return (await svc.call('GET', `/sdk/v2/collab-files/${fileId}/plain-text`)).body.data?.content;
}

const hostCalls = (page: Page) => recorded(page, 'hostCalls');

describe('rich-text editor in a browser', () => {
  it('two users converge, each sees the other\'s caret with their name, the backend reads what they wrote', async () => {
    const fileId = await newDocument({ bob: { ...ALL_PERMISSIONS } });
    const alice = await open(fileId);
    const bob = await open(fileId, 'bob-token');
    await alice.frame.locator('.ProseMirror').click();
    await alice.page.keyboard.type('Alice writes.');
    await expect.poll(() => bob.frame.locator('.ProseMirror').textContent()).toContain('Alice writes.');
    await caretToEnd(bob.page, bob.frame.locator('.ProseMirror'));
    await bob.page.keyboard.press('Enter');
    await bob.page.keyboard.type('Bob answers.');
    await expect.poll(() => alice.frame.locator('.ProseMirror').textContent()).toContain('Bob answers.');
    await expect.poll(() => alice.frame.locator('.collaboration-carets__label').allTextContents()).toContain('Bob');
    await expect.poll(() => bob.frame.locator('.collaboration-carets__label').allTextContents()).toContain(DEFAULT_USER.name);
    await alice.page.screenshot({ path: '/tmp/rich-text-carets.png' });
    await expect.poll(() => plainText(fileId)).toBe('Alice writes.\nBob answers.');
  });

  it('a read-only user sees the content and carets but cannot type', async () => {
    const fileId = await newDocument({ reader: { readable: true } });
    const alice = await open(fileId);
    await alice.frame.locator('.ProseMirror').click();
    await alice.page.keyboard.type('Only Alice edits.');
    const reader = await open(fileId, 'reader-token');
    const editor = reader.frame.locator('.ProseMirror');
    await expect.poll(() => editor.textContent()).toContain('Only Alice edits.');
    expect(await editor.getAttribute('contenteditable')).toBe('false');
    await expect.poll(() => reader.frame.locator('.collaboration-carets__label').allTextContents()).toContain(DEFAULT_USER.name);
    expect(await reader.frame.locator('.svc-toolbar').isVisible()).toBe(false);
    await editor.click();
    await reader.page.keyboard.type('Reader was here');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await editor.textContent()).not.toContain('Reader was here');
    expect(await alice.frame.locator('.ProseMirror').textContent()).not.toContain('Reader was here');
    await expect.poll(() => plainText(fileId)).toBe('Only Alice edits.');
  });

  it('@ offers users and files; a user becomes a mention whose MentionAt reaches the integrator; file mentions and links open through the host', async () => {
    svc.integrator.addFile({ id: 'ext-report', name: 'Report.pdf', type: 'file', grants: { [DEFAULT_USER.id]: { readable: true } } });
    const budget = await newDocument({}, 'spreadsheet');
    const fileId = await newDocument({ bob: { readable: true, editable: true } });
    const alice = await open(fileId);
    const editor = alice.frame.locator('.ProseMirror');
    await editor.click();
    await alice.page.keyboard.type('Ask @');
    const menu = alice.frame.locator('.svc-mention-menu');
    await menu.locator('.svc-mention-choice', { hasText: 'Bob' }).waitFor();
    await alice.page.screenshot({ path: '/tmp/rich-text-mention-menu.png' });
    // what follows the @ searches; the keyboard picks
    await alice.page.keyboard.type('Bo');
    await expect.poll(() => menu.locator('.svc-mention-choice').allTextContents()).toEqual(['Bobbob@example.com']);
    await alice.page.keyboard.press('Enter');
    await alice.page.keyboard.type('to read @Repo');
    await menu.locator('.svc-mention-choice', { hasText: 'Report.pdf' }).click();
    await alice.page.keyboard.type('and @');
    await menu.locator('.svc-mention-choice', { hasText: 'Plan' }).first().waitFor();
    await menu.locator('.svc-mention-choice[data-kind="file"]', { hasText: `Plan ${fileCount - 1}` }).click();
    await expect.poll(() => plainText(fileId)).toBe(`Ask @Bob to read Report.pdf and Plan ${fileCount - 1} `);
    await eventually(() => svc.integrator.events.some((event) => event.eventClass === 'MentionAt' && event.body.fileId === fileId), 'the MentionAt event');
    const mentionAt = svc.integrator.events.find((event) => event.eventClass === 'MentionAt' && event.body.fileId === fileId)!;
    expect(mentionAt.body).toMatchObject({ action: 'create', mentionAt: { userIds: ['bob'] } });

    await editor.locator('.file-mention', { hasText: 'Report.pdf' }).click();
    await expect.poll(() => hostCalls(alice.page)).toContainEqual({ name: 'openLink', args: [expect.stringContaining('/files/ext-report'), '_blank'] });
    await editor.locator('.file-mention', { hasText: `Plan ${fileCount - 1}` }).click();
    await expect.poll(() => hostCalls(alice.page)).toContainEqual(expect.objectContaining({ name: 'generateUrl', args: expect.arrayContaining([budget]) }));
    await expect.poll(() => hostCalls(alice.page)).toContainEqual({ name: 'openLink', args: [`http://localhost/files/${budget}`, '_blank'] });

    await alice.page.evaluate(() => (window as unknown as { sdk: { getEditor(): { insertLink(o: unknown): Promise<unknown> } } }).sdk.getEditor().insertLink({ url: 'https://example.com/spec', text: 'the spec' }));
    // while editing, a plain click places the caret and Ctrl-click opens (web/shared/links.ts)
    await editor.locator('a', { hasText: 'the spec' }).click({ modifiers: ['Control'] });
    await expect.poll(() => hostCalls(alice.page)).toContainEqual({ name: 'openLink', args: ['https://example.com/spec', '_blank'] });
  });

  it('uploads an image and shows it from the attachment route; a non-image and an oversized file are refused with a clear message', async () => {
    const fileId = await newDocument();
    const alice = await open(fileId);
    await alice.frame.locator('.ProseMirror').click();
    const picker = alice.frame.locator('input[type="file"]');
    await picker.setInputFiles({ name: 'dot.png', mimeType: 'image/png', buffer: PNG });
    const image = alice.frame.locator('.ProseMirror img[alt="dot.png"]');
    await image.waitFor();
    // the page's session ticket, never the integrator's token or signature (docs/SDK.md "Sessions without tokens in URLs")
    const src = (await image.getAttribute('src'))!;
    expect(src).toMatch(/^\/sdk\/v2\/attachments\/[^?]+\?sessionToken=svs_/);
    expect(src).not.toMatch(/signature=|[?&]token=/);
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);

    await picker.setInputFiles({ name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('just text, not a picture') });
    await expect.poll(() => alice.frame.locator('.svc-editor-alert').allTextContents()).toContainEqual(expect.stringContaining('"notes.png" is not an image the editor accepts'));
    await picker.setInputFiles({ name: 'huge.png', mimeType: 'image/png', buffer: Buffer.concat([PNG, Buffer.alloc(UPLOAD_LIMIT * 2)]) });
    await expect.poll(() => alice.frame.locator('.svc-editor-alert').allTextContents()).toContainEqual(expect.stringContaining('"huge.png" is larger than the service accepts'));
    await picker.setInputFiles({ name: 'page.html', mimeType: 'text/html', buffer: Buffer.from('<p>hi</p>') });
    await expect.poll(() => alice.frame.locator('.svc-editor-alert').allTextContents()).toContainEqual(expect.stringContaining('"page.html" is not an image'));
    await alice.page.screenshot({ path: '/tmp/rich-text-upload.png' });
    expect(await alice.frame.locator('.ProseMirror img[src*="/attachments/"]').count()).toBe(1);
  });

  it('pasting from Word keeps the heading, lists, table, bold, italic and link', async () => {
    const fileId = await newDocument();
    const alice = await open(fileId);
    const editor = alice.frame.locator('.ProseMirror');
    await editor.click();
    await editor.evaluate((element, html) => {
      const data = new DataTransfer();
      data.setData('text/html', html);
      data.setData('text/plain', 'Quarterly report');
      element.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    }, WORD_HTML);
    await expect.poll(() => editor.locator('h1').textContent()).toBe('Quarterly report');
    expect(await editor.locator('strong').first().textContent()).toBe('Revenue');
    expect(await editor.locator('em').textContent()).toBe('mostly');
    expect(await editor.locator('a').getAttribute('href')).toBe('https://example.com/q3');
    expect(await editor.locator('ul > li').evaluateAll((items) => items.map((li) => li.firstElementChild?.textContent))).toEqual(['Europe', 'France', 'Asia']);
    expect(await editor.locator('ul ul > li').textContent()).toBe('France');
    expect(await editor.locator('ol > li').allTextContents()).toEqual(['Hire', 'Build']);
    expect(await editor.locator('table tr').count()).toBe(2);
    await alice.page.screenshot({ path: '/tmp/rich-text-word-paste.png' });
    await expect
      .poll(() => plainText(fileId))
      .toBe(['Quarterly report', 'Revenue grew, mostly abroad; see the figures.', 'Europe', 'France', 'Asia', 'Hire', 'Build', 'Region\tSales', 'Europe\t42'].join('\n'));
  });

  it('a permission taken away mid-session is applied at once', async () => {
    const fileId = await newDocument({ bob: { readable: true, editable: true } });
    const bob = await open(fileId, 'bob-token');
    const editor = bob.frame.locator('.ProseMirror');
    await editor.click();
    await bob.page.keyboard.type('Before.');
    await expect.poll(() => plainText(fileId)).toBe('Before.');
    svc.integrator.grant(fileId, 'bob', { editable: false });
    await expect.poll(() => editor.getAttribute('contenteditable'), { timeout: 5000 }).toBe('false');
    expect(await bob.frame.locator('.svc-toolbar').isVisible()).toBe(false);
    await expect.poll(() => bob.frame.locator('.svc-notice').textContent()).toContain('You can no longer edit this file.');
    await bob.page.keyboard.type(' After.');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await editor.textContent()).toBe('Before.');
    svc.integrator.grant(fileId, 'bob', { editable: true });
    await expect.poll(() => editor.getAttribute('contenteditable'), { timeout: 5000 }).toBe('true');
  });

  it('the toolbar formats the selection and shows what applies there', async () => {
    const fileId = await newDocument();
    const alice = await open(fileId);
    const editor = alice.frame.locator('.ProseMirror');
    const button = (label: string) => alice.frame.locator(`button[aria-label="${label}"]`);
    await editor.click();
    await alice.frame.locator('select[aria-label="Text style"]').selectOption('2');
    await alice.page.keyboard.type('Agenda');
    await alice.page.keyboard.press('Enter');
    await button('Bold').click();
    await expect.poll(() => button('Bold').getAttribute('aria-pressed')).toBe('true');
    await alice.page.keyboard.type('Loud');
    await button('Bold').click();
    await alice.page.keyboard.type(' quiet');
    await expect.poll(() => button('Bold').getAttribute('aria-pressed')).toBe('false');
    await alice.page.keyboard.press('Enter');
    await button('Bulleted list').click();
    await alice.page.keyboard.type('item');
    await expect.poll(() => button('Bulleted list').getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => button('Add row below').isDisabled()).toBe(true);
    await button('Insert table').click();
    await expect.poll(() => button('Add row below').isDisabled()).toBe(false);
    await editor.locator('h2').click();
    await expect.poll(() => alice.frame.locator('select[aria-label="Text style"]').inputValue()).toBe('2');
    await expect.poll(() => editor.locator('strong').textContent()).toBe('Loud');
    await expect.poll(() => editor.locator('table tr').count()).toBe(3);
    await alice.page.screenshot({ path: '/tmp/rich-text-toolbar.png' });
    await expect.poll(() => plainText(fileId)).toMatch(/^Agenda\nLoud quiet\nitem\n/);
  });

  it('a callout comes from the toolbar or from typing !> at the start of a line, and is stored as one', async () => {
    const fileId = await newDocument();
    const alice = await open(fileId);
    const editor = alice.frame.locator('.ProseMirror');
    const callout = alice.frame.locator('button[aria-label^="Callout"]');
    await editor.click();
    await alice.page.keyboard.type('Plan');
    await alice.page.keyboard.press('Enter');
    await callout.click();
    await alice.page.keyboard.type('Mind the gap.');
    await expect.poll(() => callout.getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => editor.locator('div.callout').textContent()).toBe('Mind the gap.');
    // leave it (Enter on an empty last line), then start a second one by typing
    await alice.page.keyboard.press('Enter');
    await alice.page.keyboard.press('Enter');
    await alice.page.keyboard.press('Enter');
    await alice.page.keyboard.type('!> Second note');
    await expect.poll(() => editor.locator('div.callout').count()).toBe(2);
    await alice.page.screenshot({ path: '/tmp/rich-text-callout.png' });
    await expect.poll(() => plainText(fileId)).toMatch(/^Plan\nMind the gap\.\n.*Second note$/s);
  });

  it('undo takes back only this user\'s own changes', async () => {
    const fileId = await newDocument({ bob: { ...ALL_PERMISSIONS } });
    const alice = await open(fileId);
    const bob = await open(fileId, 'bob-token');
    await alice.frame.locator('.ProseMirror').click();
    // one input, so one undo step whatever the machine's load (typed key by key, a pause past the undo manager's
    // capture time splits it in two, and one Undo then takes back only the second half)
    await alice.page.keyboard.insertText('Alice line.');
    await expect.poll(() => plainText(fileId)).toBe('Alice line.');
    await caretToEnd(bob.page, bob.frame.locator('.ProseMirror'));
    await bob.page.keyboard.press('Enter');
    await bob.page.keyboard.type('Bob line.');
    await expect.poll(() => alice.frame.locator('.ProseMirror').textContent()).toContain('Bob line.');
    await alice.frame.locator('button[aria-label="Undo"]').click();
    // Alice's paragraph goes with her text; Bob's stays
    await expect.poll(() => plainText(fileId)).toBe('Bob line.');
    await alice.frame.locator('button[aria-label="Redo"]').click();
    await expect.poll(() => plainText(fileId)).toBe('Alice line.\nBob line.');
  });

  it('a typed date becomes a date mention registered with the service (DateMention event)', async () => {
    const fileId = await newDocument();
    const alice = await open(fileId);
    await alice.frame.locator('.ProseMirror').click();
    await alice.page.keyboard.type('Launch on @2026-12-01 sharp');
    const date = alice.frame.locator('.ProseMirror time.date-mention');
    await expect.poll(() => date.textContent()).toBe('2026-12-01');
    await expect.poll(() => plainText(fileId)).toBe('Launch on 2026-12-01 sharp');
    await eventually(() => svc.integrator.events.some((event) => event.eventClass === 'DateMention' && event.body.fileId === fileId), 'the DateMention event');
    const listed = await svc.call('GET', `/sdk/v2/collab-files/${fileId}/date-mentions`);
    expect(listed.body.data).toEqual([expect.objectContaining({ positionId: await date.getAttribute('data-guid'), remindAtIso: new Date('2026-12-01T00:00:00').toISOString() })]);
  });

  it('the SDK\'s document methods reach the editor; changes are refused while read-only', async () => {
    const fileId = await newDocument({ reader: { readable: true } });
    const alice = await open(fileId);
    type Sdk = { sdk: { getEditor(): Record<string, (...args: unknown[]) => Promise<unknown>> } };
    const call = (page: Page, method: string, ...args: unknown[]) =>
      page.evaluate(
        async ([name, values]) => {
          try {
            return { data: await (window as unknown as Sdk).sdk.getEditor()[name as string]!(...(values as unknown[])) };
          } catch (error) {
            return { code: (error as { code?: unknown }).code };
          }
        },
        [method, args] as const,
      );
    await alice.frame.locator('.ProseMirror').click();
    expect(await call(alice.page, 'insertMarkdown', '# Title\n\nSome **bold** text\n\n- one\n- two')).toEqual({ data: true });
    await expect.poll(() => plainText(fileId)).toBe('Title\nSome bold text\none\ntwo');
    expect(await alice.frame.locator('.ProseMirror h1').textContent()).toBe('Title');
    expect(await call(alice.page, 'getTitle')).toEqual({ data: `Plan ${fileCount}` });
    await alice.frame.locator('.ProseMirror p', { hasText: 'Some bold text' }).click({ clickCount: 3 });
    expect(await call(alice.page, 'getSelectedText')).toEqual({ data: 'Some bold text' });
    expect(await call(alice.page, 'getMarkdownFromSelection')).toEqual({ data: expect.stringContaining('Some **bold** text') });
    expect(await call(alice.page, 'setItalic')).toEqual({ data: true });
    await expect.poll(async () => (await alice.frame.locator('.ProseMirror em').allTextContents()).join('')).toBe('Some bold text');
    expect(await call(alice.page, 'insertLink', 'javascript:alert(1)', 'bad')).toEqual({ code: 'INVALID_ARGUMENTS' });
    expect(await call(alice.page, 'goToTop')).toEqual({});

    const reader = await open(fileId, 'reader-token');
    expect(await call(reader.page, 'insertMarkdown', 'nope')).toEqual({ code: 'INVALID_ARGUMENTS' });
    expect(await call(reader.page, 'getTitle')).toEqual({ data: `Plan ${fileCount}` });
    expect(await call(reader.page, 'showRevisionDiff')).toEqual({ code: 'METHOD_NOT_SUPPORTED' });
  });

  it('hostile user and file names are shown as text, never run', async () => {
    svc.integrator.addFile({ id: 'ext-hostile', name: `${HOSTILE}.pdf`, type: 'file', grants: { eve: { readable: true }, [DEFAULT_USER.id]: { readable: true } } });
    const fileId = await newDocument({ eve: { ...ALL_PERMISSIONS } });
    const alice = await open(fileId);
    const eve = await open(fileId, 'eve-token');
    await eve.frame.locator('.ProseMirror').click();
    await eve.page.keyboard.type('Hi ');
    await caretToEnd(alice.page, alice.frame.locator('.ProseMirror'));
    await alice.page.keyboard.type('@');
    const menu = alice.frame.locator('.svc-mention-menu');
    await menu.locator('.svc-mention-choice').first().waitFor();
    await alice.page.screenshot({ path: '/tmp/rich-text-hostile-menu.png' });
    await menu.locator('.svc-mention-choice', { hasText: `${HOSTILE}Eve` }).click({ timeout: 5000 });
    await alice.page.keyboard.type('@pdf');
    await menu.locator('.svc-mention-choice', { hasText: `${HOSTILE}.pdf` }).click({ timeout: 5000 });
    await expect.poll(() => alice.frame.locator('.collaboration-carets__label').allTextContents()).toContain(`${HOSTILE}Eve`);
    await expect.poll(() => eve.frame.locator('.ProseMirror').textContent()).toContain(`@${HOSTILE}Eve`);
    expect(await eve.frame.locator('.file-mention').textContent()).toBe(`${HOSTILE}.pdf`);
    await alice.page.screenshot({ path: '/tmp/rich-text-hostile.png' });
    for (const page of [alice.page, eve.page]) {
      const frame = page.frames().find((candidate) => candidate !== page.mainFrame())!;
      expect(await frame.evaluate(() => document.querySelectorAll('img[src="x"]').length)).toBe(0);
      expect(await frame.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    }
  });
});
