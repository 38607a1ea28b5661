import type { FrameLocator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases.js';
import { DEFAULT_USER } from '../support/integrator.js';
import { startService, type TestService } from '../support/service.js';
import { browserForThisFile } from './support/browser-per-file.js';
import { startHostPage, type HostPage } from './support/host-page.js';
import { openEditor, selectWord } from './support/panels.js';

/** The bugs a new user met in the document editors (issue 25), each with the test that would have caught it. */
const browser = browserForThisFile();
let svc: TestService;
let host: HostPage;

beforeAll(async () => {
  svc = await startService(testDatabases()[0]!, { integrator: true });
  host = await startHostPage(svc.url);
}, 60_000);

afterAll(async () => {
  await host?.close();
  await svc?.close();
});

let fileCount = 0;
async function open(type: 'document' | 'documentPro' = 'document', width = 1440): Promise<{ page: Page; frame: FrameLocator; fileId: string }> {
  const fileId = `newcomer-${++fileCount}`;
  expect((await svc.call('POST', '/sdk/v2/api/files', { body: { type, fileId } })).status).toBe(200);
  const context = await browser().newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  const frame = await openEditor(page, host, svc, fileId, DEFAULT_USER.token);
  return { page, frame, fileId };
}

async function plainText(fileId: string): Promise<string | undefined> {
  return (await svc.call('GET', `/sdk/v2/collab-files/${fileId}/plain-text`)).body.data?.content;
}

describe('newcomer bugs of the document editor', () => {
  it('text typed right after a link at the end of a paragraph is not part of the link', async () => {
    const { page, frame, fileId } = await open();
    const editor = frame.locator('.ProseMirror');
    await editor.click();
    await page.keyboard.type('Read the guide');
    await selectWord(frame, 'guide');
    page.once('dialog', (dialog) => void dialog.accept('https://example.com/guide'));
    await frame.locator('button[data-tool="link"]').click();
    await expect.poll(() => editor.locator('a').textContent()).toBe('guide');
    await page.keyboard.press('End');
    await page.keyboard.type(' today');
    await expect.poll(() => plainText(fileId)).toBe('Read the guide today');
    expect(await editor.locator('a').textContent()).toBe('guide');
    expect(await editor.locator('a').getAttribute('href')).toBe('https://example.com/guide');
    await page.context().close();
  });

  it('Ctrl+End reaches the end of a document that ends with a table', async () => {
    const { page, frame, fileId } = await open();
    const editor = frame.locator('.ProseMirror');
    await editor.click();
    await page.keyboard.type('Intro');
    await frame.locator('button[data-tool="table"]').click();
    await expect.poll(() => editor.locator('table').count()).toBe(1);
    // keys go where the focus is: wait until the toolbar's click has handed it back to the editor
    const editorFocused = () => editor.evaluate((root) => root.ownerDocument.activeElement === root);
    await expect.poll(editorFocused).toBe(true);
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('Control+End');
    await page.keyboard.type('After the table');
    // a new paragraph below the table, not text in its last cell
    await expect.poll(() => editor.evaluate((root) => root.lastElementChild?.outerHTML)).toBe('<p>After the table</p>');
    await expect.poll(() => plainText(fileId)).toMatch(/\nAfter the table$/);

    await page.context().close();
  });

  it('the toolbar keeps its height and the page stays put when the caret enters a table', async () => {
    // a laptop-wide frame, where a row of extra table tools used to wrap the toolbar onto a second line
    const { page, frame } = await open('document', 900);
    const editor = frame.locator('.ProseMirror');
    await editor.click();
    await page.keyboard.type('Above');
    await frame.locator('button[data-tool="table"]').click();
    await page.keyboard.press('Control+Home');
    const toolbar = frame.locator('.svc-toolbar');
    const outside = { toolbar: (await toolbar.boundingBox())!, page: (await editor.boundingBox())! };
    expect(await frame.locator('button[data-tool="addRow"]').isDisabled()).toBe(true);
    await editor.locator('td').first().click();
    await expect.poll(() => frame.locator('button[data-tool="addRow"]').isDisabled()).toBe(false);
    const inside = { toolbar: (await toolbar.boundingBox())!, page: (await editor.boundingBox())! };
    expect(inside.toolbar.height).toBe(outside.toolbar.height);
    expect(inside.page.y).toBe(outside.page.y);
    await page.context().close();
  });

  it('documentPro at 100 % on a 1440-px screen shows the A4 page with its edges, and a side panel never clips it', async () => {
    const { page, frame } = await open('documentPro');
    await frame.locator('.svc-page-sheet').first().waitFor();
    const main = frame.locator('.svc-main');
    const sheet = frame.locator('.svc-page-sheet').first();
    const margins = async () => {
      const [pane, paper] = [(await main.boundingBox())!, (await sheet.boundingBox())!];
      return { left: paper.x - pane.x, right: pane.x + pane.width - (paper.x + paper.width) };
    };
    const wide = await margins();
    expect(wide.left).toBeGreaterThanOrEqual(24);
    expect(wide.right).toBeGreaterThanOrEqual(24);
    await page.screenshot({ path: '/tmp/newcomer-document-pro.png' });

    // an intranet page narrower than the page and a side panel together (its own menu takes the rest)
    await page.setViewportSize({ width: 1000, height: 900 });
    await frame.getByRole('button', { name: 'Bookmarks' }).click();
    await frame.locator('.svc-side').waitFor();
    // the page keeps its size; where it no longer fits, the pane scrolls sideways to its right edge
    expect((await sheet.boundingBox())!.width).toBe(794);
    await main.evaluate((pane) => pane.scrollTo({ left: pane.scrollWidth }));
    const narrow = await margins();
    // the page's right edge and some grey beyond it: the edge shows (sizes are CSS pixels, the pane's scrollbar aside)
    expect(narrow.right).toBeGreaterThanOrEqual(16);
    await main.evaluate((pane) => pane.scrollTo({ left: 0 }));
    expect((await margins()).left).toBeGreaterThanOrEqual(16);
    await page.screenshot({ path: '/tmp/newcomer-document-pro-panel.png' });
    await page.context().close();
  });
});
