import type { FrameLocator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEFAULT_USER } from '../support/integrator.js';
import { browserForThisFile, serviceForThisFile } from './support/browser-per-file.js';
import { openEditor, selectWord } from './support/panels.js';
import JSZip from 'jszip';
import { exportFile } from '../export/support.js';

/** The bugs a new user met in the document editors (issue 25), each with the test that would have caught it. */
const browser = browserForThisFile();
const running = serviceForThisFile();

let fileCount = 0;
async function open(type: 'document' | 'documentPro' = 'document', width = 1440): Promise<{ page: Page; frame: FrameLocator; fileId: string }> {
  const fileId = `newcomer-${++fileCount}`;
  expect((await running.svc.call('POST', '/sdk/v2/api/files', { body: { type, fileId } })).status).toBe(200);
  const context = await browser().newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  const frame = await openEditor(page, running.host, running.svc, fileId, DEFAULT_USER.token);
  return { page, frame, fileId };
}

async function exportedDocumentXml(fileId: string): Promise<string> {
  const { bytes } = await exportFile(running.svc, fileId, 'docx');
  return (await JSZip.loadAsync(bytes)).file('word/document.xml')!.async('string');
}

describe('formatting as office users expect (issue 25, point 1)', () => {
  it('formats text with each control, and the API export carries it', { timeout: 120_000 }, async () => {
    const { page, frame, fileId } = await open();
    const editor = frame.locator('.ProseMirror');
    // an empty document says where to type
    expect(await editor.locator('p.is-editor-empty').getAttribute('data-placeholder')).toMatch(/Start typing/);
    await editor.click();
    await page.keyboard.type('Quarterly report for the board');
    const editorFocused = () => editor.evaluate((root) => root.ownerDocument.activeElement === root);

    await selectWord(frame, 'report');
    await frame.locator('select[data-tool="fontFamily"]').selectOption('Georgia');
    await selectWord(frame, 'report');
    await frame.locator('select[data-tool="fontSize"]').selectOption('18pt');
    await selectWord(frame, 'report');
    await frame.locator('button[data-tool="textColor"]').click();
    await frame.locator('[data-menu="textColor"] [data-color="#c00000"]').click();
    await selectWord(frame, 'board');
    await frame.locator('button[data-tool="highlight"]').click();
    await frame.locator('[data-menu="highlight"] [data-color="#00ff00"]').click();
    await frame.locator('button[data-tool="alignCenter"]').click();
    await frame.locator('select[data-tool="lineHeight"]').selectOption('1.5');
    await frame.locator('button[data-tool="indent"]').click();
    await expect.poll(() => frame.locator('button[data-tool="alignCenter"]').getAttribute('aria-pressed')).toBe('true');
    // tooltips name the shortcut
    expect(await frame.locator('button[data-tool="bold"]').getAttribute('title')).toMatch(/^Bold \((Ctrl\+B|⌘B)\)$/);
    expect(await frame.locator('button[data-tool="alignCenter"] svg').count()).toBe(1);

    const paragraph = editor.locator('p').first();
    // Tiptap joins the attributes' styles with a trailing `;`
    const styleOf = async (element: typeof paragraph) => (await element.getAttribute('style'))?.replace(/;\s*$/, '') ?? null;
    await expect.poll(() => styleOf(paragraph)).toBe('text-align: center; line-height: 1.5; margin-left: 36pt');
    const report = paragraph.locator('span', { hasText: 'report' });
    // as the browser spells the inline style
    expect(await report.evaluate((span) => [span.style.fontFamily, span.style.fontSize, span.style.color])).toEqual(['Georgia, serif', '18pt', 'rgb(192, 0, 0)']);
    expect(await paragraph.locator('mark').textContent()).toBe('board');
    expect(await paragraph.locator('mark').getAttribute('data-color')).toBe('#00ff00');

    // a link through the popover; the popover opens by itself when the caret stands in a link
    await selectWord(frame, 'Quarterly');
    await page.keyboard.press('Control+k');
    await frame.locator('.svc-link-popover input').fill('https://example.com/q3');
    await frame.locator('.svc-link-popover input').press('Enter');
    await expect.poll(() => editor.locator('a').getAttribute('href')).toBe('https://example.com/q3');
    await expect.poll(editorFocused).toBe(true);
    await page.screenshot({ path: '/tmp/shots-doc-editor/formatting.png' });
    await editor.locator('a').click();
    await expect.poll(() => frame.locator('.svc-link-popover').isVisible()).toBe(true);
    expect(await frame.locator('.svc-link-popover input').inputValue()).toBe('https://example.com/q3');
    await page.screenshot({ path: '/tmp/shots-doc-editor/link-popover.png' });

    // through the API: the docx export holds every choice
    await expect.poll(() => running.plainText(fileId)).toBe('Quarterly report for the board');
    const xml = await exportedDocumentXml(fileId);
    expect(xml).toContain('<w:jc w:val="center"/>');
    expect(xml).toMatch(/<w:spacing w:line="360" w:lineRule="auto"\/>/);
    expect(xml).toMatch(/<w:ind w:left="720"\/>/);
    expect(xml).toMatch(/<w:rFonts w:ascii="Georgia"[^>]*\/>.*?<w:color w:val="c00000"\/>.*?<w:sz w:val="36"\/>.*?<w:t[^>]*>report<\/w:t>/s);
    expect(xml).toMatch(/<w:highlight w:val="green"\/>.*?<w:t[^>]*>board<\/w:t>/s);
    expect(xml).toContain('<w:hyperlink');

    // clear formatting takes it all off again, the link aside
    await editor.evaluate((root) => {
      const selection = window.getSelection()!;
      selection.selectAllChildren(root);
      (root as HTMLElement).focus();
    });
    await frame.locator('button[data-tool="clearFormatting"]').click();
    await expect.poll(() => styleOf(paragraph)).toBe(null);
    expect(await paragraph.locator('span[style], mark').count()).toBe(0);
    expect(await editor.locator('a').getAttribute('href')).toBe('https://example.com/q3');
    const cleared = await exportedDocumentXml(fileId);
    expect(cleared).not.toContain('w:highlight');
    expect(cleared).not.toContain('w:jc');
    await page.context().close();
  });
});

describe('print from inside the frame (issue 25, point 4)', () => {
  it('Ctrl+P and the SDK print the frame alone, as pages without the editor chrome, in document and documentPro', { timeout: 120_000 }, async () => {
    for (const kind of ['document', 'documentPro'] as const) {
      const { page, frame } = await open(kind);
      const editor = frame.locator('.ProseMirror');
      await editor.click();
      await page.keyboard.type('First page');
      await frame.locator('button[data-tool="alignCenter"]').click();
      await page.screenshot({ path: `/tmp/shots-doc-editor/editor-${kind}.png` });
      await page.keyboard.press('Control+Enter');
      await page.keyboard.type('Second page');
      await expect.poll(() => editor.locator('[data-page-break]').count()).toBe(1);
      // the frame's own print (the host page is on another origin: the test host's port is not the service's)
      await frame.locator('body').evaluate(() => {
        const counted = window as unknown as { printed: number };
        counted.printed = 0;
        window.print = () => void counted.printed++;
      });
      const printed = () => frame.locator('body').evaluate(() => (window as unknown as { printed: number }).printed);
      await page.keyboard.press('Control+p');
      await expect.poll(printed).toBe(1);
      await page.evaluate(() => (window as unknown as { sdk: { getEditor(): { print(): Promise<unknown> } } }).sdk.getEditor().print());
      await expect.poll(printed).toBe(2);

      await page.emulateMedia({ media: 'print' });
      for (const chrome of ['.svc-header', '.svc-toolbar', '.svc-panel-rail', '.svc-page-status', '.svc-page-sheets']) {
        const shown = await frame.locator(chrome).evaluateAll((elements) => elements.some((element) => element.getBoundingClientRect().height > 0));
        expect(shown, `${kind}: ${chrome} on paper`).toBe(false);
      }
      expect(await editor.isVisible()).toBe(true);
      expect(await editor.locator('[data-page-break]').evaluate((element) => getComputedStyle(element).breakAfter)).toBe('page');
      // the text starts at the paper's margin, not at the editor's own padding
      expect(await editor.evaluate((element) => getComputedStyle(element).paddingLeft)).toBe('0px');
      await page.screenshot({ path: `/tmp/shots-doc-editor/print-${kind}.png` });
      await page.context().close();
    }
  });
});

describe('newcomer bugs of the document editor', () => {
  it('text typed right after a link at the end of a paragraph is not part of the link', async () => {
    const { page, frame, fileId } = await open();
    const editor = frame.locator('.ProseMirror');
    await editor.click();
    await page.keyboard.type('Read the guide');
    await selectWord(frame, 'guide');
    // the link popover, not a prompt
    await frame.locator('button[data-tool="link"]').click();
    await frame.locator('.svc-link-popover input').fill('https://example.com/guide');
    await frame.locator('.svc-link-popover input').press('Enter');
    await expect.poll(() => editor.locator('a').textContent()).toBe('guide');
    await page.keyboard.press('End');
    await page.keyboard.type(' today');
    await expect.poll(() => running.plainText(fileId)).toBe('Read the guide today');
    expect(await editor.locator('a').textContent()).toBe('guide');
    expect(await editor.locator('a').getAttribute('href')).toBe('https://example.com/guide');
    await page.context().close();
  });

  it('Ctrl+End reaches the end of a document that ends with a table, or with a list', async () => {
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
    await expect.poll(() => running.plainText(fileId)).toMatch(/\nAfter the table$/);

    await frame.locator('button[data-tool="bulletList"]').click();
    await expect.poll(() => editor.evaluate((root) => root.lastElementChild?.tagName)).toBe('UL');
    await expect.poll(editorFocused).toBe(true);
    // through the locator: Playwright gives the editor the focus before each key, should anything have taken it
    await editor.press('Control+Home');
    await editor.press('Control+End');
    await editor.pressSequentially(' and more');
    await expect.poll(() => editor.evaluate((root) => root.lastElementChild?.textContent)).toBe('After the table and more');
    expect(await editor.evaluate((root) => root.lastElementChild?.tagName)).toBe('UL');
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
