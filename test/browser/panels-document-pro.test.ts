import fs from 'node:fs';
import JSZip from 'jszip';
import { extractText, getDocumentProxy } from 'unpdf';
import { exportFile } from '../export/support.js';
import { describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases.js';
import { startService } from '../support/service.js';
import { browserForThisFile } from './support/browser-per-file.js';
import { startHostPage } from './support/host-page.js';
import { openEditor } from './support/panels.js';

const browser = browserForThisFile();

const [db] = testDatabases();

describe('documentPro panels in a browser', () => {
  it('a bookmark inserted in the page is read by bookmark_content; renamed and removed, the backend follows', async () => {
    const svc = await startService(db!, { integrator: true });
    const host = await startHostPage(svc.url);
    const context = await browser().newContext();
    try {
      await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'documentPro', fileId: 'pro-b' } });
      const page = await context.newPage();
      const frame = await openEditor(page, host, svc, 'pro-b', 'user-token');
      const bookmarks = (query?: Record<string, string>) => svc.call('GET', '/sdk/v2/api/files/pro-b/documentpro/bookmark_content', { query });
      await frame.locator('.ProseMirror').click();
      await page.keyboard.type('Introduction');
      await page.keyboard.press('Enter');
      await page.keyboard.type('Contract terms apply');

      await frame.getByRole('button', { name: 'Bookmarks' }).click();
      await frame.locator('.svc-bookmark-insert input').fill('terms');
      await frame.locator('.svc-bookmark-insert button').click();
      await frame.locator('.svc-bookmark[data-bookmark="terms"]').waitFor();
      await expect.poll(async () => (await bookmarks({ bookmarks: 'terms' })).body.data).toEqual([{ bookmark: 'terms', content: 'Contract terms apply' }]);
      await page.screenshot({ path: '/tmp/panels-bookmarks.png' });

      // a name in use is refused in the page, nothing changes
      await frame.locator('.ProseMirror p', { hasText: 'Introduction' }).click();
      await frame.locator('.svc-bookmark-insert input').fill('terms');
      await frame.locator('.svc-bookmark-insert button').click();
      await expect.poll(() => frame.locator('.svc-panel-bookmarks .svc-panel-notice').textContent()).toContain('already exists');
      expect(await frame.locator('.svc-bookmark').count()).toBe(1);

      await frame.locator('.svc-bookmark-rename').click();
      await frame.locator('.svc-bookmark-rename-form input').fill('conditions');
      await frame.locator('.svc-bookmark-rename-form button').click();
      await expect.poll(async () => (await bookmarks()).body.data).toEqual([{ bookmark: 'conditions', content: 'Contract terms apply' }]);
      expect((await bookmarks({ bookmarks: 'terms' })).body.status).toBe(70014);

      await frame.locator('.svc-bookmark-remove').click();
      await expect.poll(async () => (await bookmarks()).body.data).toEqual([]);
      expect((await svc.call('GET', '/sdk/v2/collab-files/pro-b/plain-text')).body.data.content).toBe('Introduction\nContract terms apply');
    } finally {
      await context.close();
      await host.close();
      await svc.close();
    }
  });

  it('Ctrl+Enter puts a page break: what follows starts the next page, here and in a second browser; the toolbar button adds another', async () => {
    const svc = await startService(db!, { integrator: true });
    const host = await startHostPage(svc.url);
    const writerContext = await browser().newContext({ viewport: { width: 1280, height: 900 } });
    const readerContext = await browser().newContext({ viewport: { width: 1280, height: 900 } });
    try {
      await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'documentPro', fileId: 'pro-break' } });
      const writer = await writerContext.newPage();
      const frame = await openEditor(writer, host, svc, 'pro-break', 'user-token');
      await frame.locator('.ProseMirror').click();
      await writer.keyboard.type('Chapter one');
      await writer.keyboard.press('Control+Enter');
      await writer.keyboard.type('Chapter two');
      await expect.poll(async () => (await svc.call('GET', '/sdk/v2/collab-files/pro-break/plain-text')).body.data.content).toBe('Chapter one\n\f\nChapter two');

      const reader = await readerContext.newPage();
      const seen = await openEditor(reader, host, svc, 'pro-break', 'user-token');
      /** The sheet (1-based) the top of the paragraph saying `text` lies on, inside its margins, or 0 (its text nodes only: a collaborator's caret label sits inside). */
      const sheetOf = (editor: typeof frame, text: string) =>
        editor.locator('.svc-paged').evaluate((paged, wanted) => {
          const zoom = Number((paged as HTMLElement).style.zoom || 1);
          const block = [...paged.querySelectorAll('.ProseMirror > p')].find((element) => [...element.childNodes].filter((node) => node.nodeType === Node.TEXT_NODE).map((node) => node.textContent).join('') === wanted);
          if (!block) return 0;
          const top = block.getBoundingClientRect().top / zoom;
          const sheets = [...paged.querySelectorAll('.svc-page-sheet')].map((sheet) => sheet.getBoundingClientRect());
          return sheets.findIndex((sheet) => top >= sheet.top / zoom + 96 - 2 && top <= sheet.bottom / zoom - 96) + 1;
        }, text);
      for (const editor of [frame, seen]) {
        await expect.poll(() => editor.locator('.ProseMirror .page-break').count()).toBe(1);
        await expect.poll(() => sheetOf(editor, 'Chapter one')).toBe(1);
        await expect.poll(() => sheetOf(editor, 'Chapter two')).toBe(2);
        await expect.poll(() => editor.locator('.svc-page-sheet').count()).toBe(2);
      }
      await reader.screenshot({ path: '/tmp/document-pro-page-break.png' });

      await writer.keyboard.press('Enter');
      await writer.keyboard.type('Chapter three');
      await frame.locator('.svc-tool[data-tool="pageBreak"]').click();
      await writer.keyboard.type('Appendix');
      await expect.poll(() => sheetOf(seen, 'Appendix')).toBe(3);
      await expect.poll(() => sheetOf(seen, 'Chapter three')).toBe(2);
      await expect.poll(async () => (await svc.call('GET', '/sdk/v2/collab-files/pro-break/plain-text')).body.data.content).toBe('Chapter one\n\f\nChapter two\nChapter three\n\f\nAppendix');
    } finally {
      await writerContext.close();
      await readerContext.close();
      await host.close();
      await svc.close();
    }
  });

  it('lays the text out on A4 pages with numbers and zoom, and the table of contents scrolls to a heading', { timeout: 120_000 }, async () => {
    const svc = await startService(db!, { integrator: true });
    const host = await startHostPage(svc.url);
    const context = await browser().newContext({ viewport: { width: 1280, height: 900 } });
    try {
      await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'documentPro', fileId: 'pro-p' } });
      const page = await context.newPage();
      const frame = await openEditor(page, host, svc, 'pro-p', 'user-token');
      const body = Array.from({ length: 45 }, (_, index) => `Paragraph ${index + 1} of the report, long enough to be a real line of text.`).join('\n\n');
      const markdown = `# Overview\n\n${body}\n\n# Conclusion\n\nThe end.`;
      await page.evaluate((text) => (window as unknown as { sdk: { getEditor(): { insertMarkdown(m: string): Promise<unknown> } } }).sdk.getEditor().insertMarkdown(text), markdown);
      const sheets = frame.locator('.svc-page-sheet');
      await expect.poll(() => sheets.count()).toBeGreaterThanOrEqual(2);
      const callEditor = (method: string, ...args: unknown[]) =>
        page.evaluate(([name, values]) => (window as unknown as { sdk: { getEditor(): Record<string, (...a: unknown[]) => Promise<unknown>> } }).sdk.getEditor()[name as string]!(...(values as unknown[])), [method, args] as const);
      expect(await callEditor('getPageCount')).toBe(await sheets.count());
      expect(await frame.locator('.svc-page-number').allTextContents()).toEqual(Array.from({ length: await sheets.count() }, (_, index) => String(index + 1)));

      /** Every block lies inside the text area of one sheet (between its margins), at the current zoom. */
      const blocksOutsidePages = () =>
        frame.locator('.svc-paged').evaluate((paged) => {
          const zoom = Number((paged as HTMLElement).style.zoom || 1);
          const origin = paged.getBoundingClientRect().top;
          const sheetBoxes = [...paged.querySelectorAll('.svc-page-sheet')].map((sheet) => {
            const rect = sheet.getBoundingClientRect();
            return { top: (rect.top - origin) / zoom + 96 - 2, bottom: (rect.bottom - origin) / zoom - 96 + 2 };
          });
          return [...paged.querySelectorAll('.ProseMirror > :not(.svc-page-gap)')]
            .map((block) => {
              const rect = block.getBoundingClientRect();
              return { text: block.textContent, top: (rect.top - origin) / zoom, bottom: (rect.bottom - origin) / zoom };
            })
            .filter((block) => !sheetBoxes.some((sheet) => block.top >= sheet.top && block.bottom <= sheet.bottom))
            .map((block) => block.text);
        });
      await expect.poll(blocksOutsidePages).toEqual([]);
      await page.screenshot({ path: '/tmp/panels-pages.png' });

      expect(await callEditor('zoom', 75)).toBe(75);
      await expect.poll(blocksOutsidePages).toEqual([]);
      expect(await frame.locator('.svc-page-zoom').textContent()).toBe('75%');
      // page numbers are the file's page setup: the docx export follows them (its footer holds the PAGE field)
      const docxFooter = async () => {
        const { bytes } = await exportFile(svc, 'pro-p', 'docx');
        const zip = await JSZip.loadAsync(bytes);
        const footer = Object.keys(zip.files).find((name) => /^word\/footer\d*\.xml$/.test(name));
        return footer ? /PAGE/.test(await zip.file(footer)!.async('string')) : false;
      };
      expect(await docxFooter()).toBe(true);
      await callEditor('removeAllPageNums');
      // the numbers follow at the next layout pass (an animation frame, late under load)
      await expect.poll(() => frame.locator('.svc-page-number').first().isVisible()).toBe(false);
      await expect.poll(docxFooter, { timeout: 20_000 }).toBe(false);
      await callEditor('addPageNum');
      await expect.poll(() => frame.locator('.svc-page-number').first().isVisible()).toBe(true);
      await expect.poll(docxFooter, { timeout: 20_000 }).toBe(true);
      // a revision keeps its page setup: restoring one made with numbers brings them back to the open page
      const numbered = await svc.call('POST', '/sdk/v2/collab-files/pro-p/revisions', { body: { title: 'Numbered' } });
      expect(numbered.status, numbered.text).toBe(200);
      await callEditor('removeAllPageNums');
      await expect.poll(docxFooter, { timeout: 20_000 }).toBe(false);
      const restored = await svc.call('POST', `/sdk/v2/collab-files/pro-p/revisions/${numbered.body.data.id}/restore`);
      expect(restored.status, restored.text).toBe(200);
      await expect.poll(() => frame.locator('.svc-page-number').first().isVisible()).toBe(true);
      // the restore replaced every block with an equal one (the text is as it was): the pages are laid out again
      await expect.poll(blocksOutsidePages).toEqual([]);
      await page.screenshot({ path: '/tmp/shots-page-setup/restored-numbers.png' });
      await callEditor('removeAllPageNums');
      await callEditor('zoom', 100);

      await callEditor('showToc');
      const toc = frame.locator('.svc-toc-link');
      await expect.poll(() => toc.allTextContents()).toEqual(['Overview', 'Conclusion']);
      await toc.nth(1).click();
      const heading = frame.locator('.ProseMirror h1', { hasText: 'Conclusion' });
      await expect.poll(() => heading.evaluate((element) => {
        const rect = element.getBoundingClientRect();
        return rect.top >= 0 && rect.bottom <= window.innerHeight;
      })).toBe(true);
      await callEditor('goToPage', 1);
      await expect.poll(() => frame.locator('.svc-page-position').textContent()).toBe(`Page 1 of ${await sheets.count()}`);
      await expect(callEditor('goToPage', 99)).rejects.toThrow(/page must be between/);
    } finally {
      await context.close();
      await host.close();
      await svc.close();
    }
  });

  it('the Page setup dialog sets Letter landscape with a header holding the page number: every page shows it, so does a second user, and the pdf is landscape', { timeout: 180_000 }, async () => {
    const svc = await startService(db!, { integrator: true });
    const host = await startHostPage(svc.url);
    const writerContext = await browser().newContext({ viewport: { width: 1440, height: 900 } });
    const readerContext = await browser().newContext({ viewport: { width: 1440, height: 900 } });
    try {
      await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'documentPro', fileId: 'pro-setup' } });
      const writer = await writerContext.newPage();
      const frame = await openEditor(writer, host, svc, 'pro-setup', 'user-token');
      const body = Array.from({ length: 30 }, (_, index) => `Paragraph ${index + 1} of the quarterly report, long enough to be a real line of text.`).join('\n\n');
      await writer.evaluate((text) => (window as unknown as { sdk: { getEditor(): { insertMarkdown(m: string): Promise<unknown> } } }).sdk.getEditor().insertMarkdown(text), `# Quarterly report\n\n${body}`);

      await frame.getByRole('button', { name: 'Page setup' }).click();
      const dialog = frame.getByRole('dialog', { name: 'Page setup' });
      await expect.poll(() => dialog.getByLabel('Size', { exact: true }).evaluate((element) => element === document.activeElement)).toBe(true);
      await dialog.getByLabel('Size', { exact: true }).selectOption('Letter');
      await dialog.getByLabel('Orientation', { exact: true }).selectOption('landscape');
      // a margin past the limits is refused in the dialog, in words
      await dialog.getByRole('group', { name: 'Margins (mm)' }).getByLabel('Left').fill('200');
      await dialog.getByRole('button', { name: 'Apply' }).click();
      await expect.poll(() => dialog.getByRole('alert').textContent()).toMatch(/from 0 to 127/);
      await dialog.getByLabel('Preset', { exact: true }).selectOption('narrow');
      const header = dialog.getByRole('group', { name: 'Header' });
      await header.getByLabel('Left').fill('Acme quarterly');
      await header.getByLabel('Right').fill('Page ');
      await header.getByLabel('Right').press('End');
      await dialog.getByRole('button', { name: 'Page number' }).click();
      await dialog.getByRole('button', { name: 'Apply' }).click();
      await expect.poll(() => dialog.isVisible()).toBe(false);

      const reader = await readerContext.newPage();
      const seen = await openEditor(reader, host, svc, 'pro-setup', 'user-token');
      for (const editor of [frame, seen]) {
        const sheets = editor.locator('.svc-page-sheet');
        // Letter landscape, 11 in at 96 px per inch
        await expect.poll(() => sheets.first().evaluate((sheet) => Math.round(sheet.getBoundingClientRect().width / Number((sheet.closest('.svc-paged') as HTMLElement).style.zoom || 1)))).toBe(1056);
        await expect.poll(() => sheets.count()).toBeGreaterThanOrEqual(2);
        const count = await sheets.count();
        await expect.poll(() => editor.locator('.svc-page-header').allTextContents()).toEqual(Array.from({ length: count }, (_, index) => `Acme quarterlyPage ${index + 1}`));
      }
      expect(await writer.evaluate(() => (window as unknown as { sdk: { getEditor(): { getPageSetup(): Promise<unknown> } } }).sdk.getEditor().getPageSetup())).toMatchObject({
        size: 'Letter',
        orientation: 'landscape',
        margins: { top: 12.7, bottom: 12.7, left: 12.7, right: 12.7 },
        header: { left: 'Acme quarterly', center: '', right: 'Page {page}' },
      });
      await writer.screenshot({ path: 'docs/images/document-pro-page-setup.png' });
      // every tool on one row at 1440 px (the row of 28-px buttons is 36 px tall; a second row doubles it)
      expect(await frame.locator('.svc-toolbar').evaluate((toolbar) => toolbar.getBoundingClientRect().height)).toBeLessThan(50);

      const { bytes } = await exportFile(svc, 'pro-setup', 'pdf');
      const pdf = await getDocumentProxy(new Uint8Array(bytes));
      const viewport = (await pdf.getPage(1)).getViewport({ scale: 1 });
      expect(viewport.width).toBeGreaterThan(viewport.height);
      const { text: pages } = await extractText(pdf, { mergePages: false });
      (pages as string[]).forEach((page, index) => expect(page).toContain(`Page ${index + 1}`));
      fs.writeFileSync('/tmp/document-pro-page-setup.pdf', bytes);
    } finally {
      await writerContext.close();
      await readerContext.close();
      await host.close();
      await svc.close();
    }
  });
});
