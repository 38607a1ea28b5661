import type { FrameLocator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS } from '../../examples/integrator/integrator.js';
import type { ProseMirrorNode } from '../../src/model/rich-text/schema.js';
import { exportFile, paragraph, text, writeRichText } from '../export/support.js';
import { browserForThisFile, serviceForThisFile } from './support/browser-per-file.js';
import { openEditor } from './support/panels.js';

/**
 * Footnotes in the editors (web/rich-text/footnotes.ts): Ctrl+Alt+F inserts one and takes the caret to its note,
 * numbers follow document order as notes are inserted before others, a collaborator sees the same, and the file's
 * Markdown export (read through the API) carries them. documentPro shows each note at the bottom of its
 * reference's page (web/rich-text/panels/pages/paged-layout.ts): under the page's last line of text, above the
 * footer; a note that grows pushes the text it no longer leaves room for to the next page, live for a collaborator.
 */

const browser = browserForThisFile();

const running = serviceForThisFile([{ id: 'reader', name: 'Rita Reader', token: 'reader-token' }, { id: 'bob', name: 'Bob Builder', token: 'bob-token' }]);

async function newFile(fileId: string, type: 'document' | 'documentPro'): Promise<void> {
  running.svc.integrator.addFile({ id: fileId, type, grants: { 'user-1': { ...ALL_PERMISSIONS }, reader: { readable: true, editable: false, commentable: false, exportable: true } } });
  expect((await running.svc.call('POST', '/sdk/v2/api/files', { body: { type, fileId } })).status).toBe(200);
}

async function open(fileId: string, token: string, lang: string): Promise<{ page: Page; frame: FrameLocator }> {
  const page = await (await browser().newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  return { page, frame: await openEditor(page, running.host, running.svc, fileId, token, lang) };
}

/** The numbers the references show, in the order they stand in the text. */
function referenceNumbers(frame: FrameLocator): Promise<Array<string | null>> {
  return frame.locator('.ProseMirror sup.footnote-ref').evaluateAll((references) => references.map((reference) => reference.getAttribute('data-number')));
}

describe('footnotes in the rich-text editors', () => {
  it.each(['document', 'documentPro'] as const)('%s: insert a footnote, type its note, insert one before it and see both renumbered, for a second user too', async (type) => {
    const fileId = `footnotes-${type}`;
    await newFile(fileId, type);
    const { page, frame } = await open(fileId, 'user-token', 'en');
    const editor = frame.locator('.ProseMirror');
    /** Clicks into the text and waits for the editor to have the keyboard (under load the focus comes late: keys went elsewhere). */
    const caretInText = async () => {
      await editor.locator('p').first().click();
      await expect.poll(() => editor.evaluate((root) => root.ownerDocument.activeElement === root)).toBe(true);
    };
    /**
     * The paragraph's text before the caret, with " (after an element)" when the caret follows no character (a
     * reference's element, or the paragraph's start); 'elsewhere' when the editor has no caret.
     */
    const textBeforeCaret = () =>
      editor.evaluate((root) => {
        const selection = root.ownerDocument.getSelection();
        if (root.ownerDocument.activeElement !== root || !selection?.isCollapsed || !selection.anchorNode) return 'elsewhere';
        const before = root.ownerDocument.createRange();
        before.setStart(root.querySelector('p')!, 0);
        before.setEnd(selection.anchorNode, selection.anchorOffset);
        const afterCharacter = selection.anchorNode.nodeType === Node.TEXT_NODE && selection.anchorOffset > 0;
        return afterCharacter ? before.toString() : `${before.toString()} (after an element)`;
      });
    /**
     * The caret right after "Sales" (before a reference standing there), checked before the next key is pressed:
     * in a loaded CI run the Delete that follows once found the caret elsewhere (no reference deleted).
     */
    const caretAfterSales = async () => {
      await editor.locator('p').first().click({ position: { x: 2, y: 8 } });
      await expect.poll(() => editor.evaluate((root) => root.ownerDocument.activeElement === root)).toBe(true);
      await page.keyboard.press('Home');
      for (let step = 0; step < 'Sales'.length; step += 1) await page.keyboard.press('ArrowRight');
      await expect.poll(textBeforeCaret).toBe('Sales');
    };
    await caretInText();
    await page.keyboard.type('Sales rose sharply.');
    await expect.poll(() => running.plainText(fileId)).toBe('Sales rose sharply.');

    // Ctrl+Alt+F as in Word: the reference goes at the caret, the caret into its note
    await page.keyboard.press('Control+Alt+F');
    const first = frame.getByRole('textbox', { name: 'Footnote 1' });
    await expect.poll(() => first.evaluate((field) => field === document.activeElement)).toBe(true);
    await page.keyboard.type('Source: the 2025 ledger.');
    expect(await referenceNumbers(frame)).toEqual(['1']);

    // a second footnote before the first, from the toolbar: it becomes 1, the first 2
    await caretAfterSales();
    await frame.getByRole('button', { name: /^Insert footnote/ }).click();
    const inserted = frame.getByRole('textbox', { name: 'Footnote 1' });
    await expect.poll(() => inserted.evaluate((field) => field === document.activeElement)).toBe(true);
    await page.keyboard.type('Sales of the northern region.');
    expect(await referenceNumbers(frame)).toEqual(['1', '2']);
    await expect.poll(() => frame.getByRole('textbox', { name: 'Footnote 2' }).inputValue()).toBe('Source: the 2025 ledger.');
    expect(await inserted.inputValue()).toBe('Sales of the northern region.');
    // a click on a reference goes to its note
    await editor.locator('sup.footnote-ref').nth(1).click();
    await expect.poll(() => frame.getByRole('textbox', { name: 'Footnote 2' }).evaluate((field) => field === document.activeElement)).toBe(true);
    await page.screenshot({ path: `/tmp/footnotes-${type}.png` });

    // a second user (read-only) sees the same numbers and notes
    const second = await open(fileId, 'reader-token', 'zh-CN');
    await expect.poll(() => referenceNumbers(second.frame)).toEqual(['1', '2']);
    const readerNote = second.frame.getByRole('textbox', { name: '脚注 2' });
    await expect.poll(() => readerNote.inputValue()).toBe('Source: the 2025 ledger.');
    expect(await readerNote.evaluate((field) => (field as HTMLTextAreaElement).readOnly)).toBe(true);

    // the stored document carries them: its Markdown export numbers them in document order
    await expect
      .poll(async () => (await exportFile(running.svc, fileId, 'md')).bytes.toString('utf8'))
      .toBe('Sales[^1] rose sharply.[^2]\n\n[^1]: Sales of the northern region.\n[^2]: Source: the 2025 ledger.\n');

    // deleting the first reference renumbers the other, for both users
    await caretAfterSales();
    await page.keyboard.press('Delete');
    await expect.poll(() => referenceNumbers(frame)).toEqual(['1']);
    await expect.poll(() => referenceNumbers(second.frame)).toEqual(['1']);
    await expect.poll(() => second.frame.getByRole('textbox', { name: '脚注 1' }).inputValue()).toBe('Source: the 2025 ledger.');
    await second.page.screenshot({ path: `/tmp/footnotes-${type}-reader.png` });
    await second.page.context().close();

    // a co-editor typing a note keeps typing into it while a note is inserted before it elsewhere
    const coEditor = await open(fileId, 'user-token', 'en');
    const typed = coEditor.frame.getByRole('textbox', { name: 'Footnote 1' });
    await expect.poll(() => typed.inputValue()).toBe('Source: the 2025 ledger.');
    await typed.focus();
    await coEditor.page.keyboard.press('End');
    await coEditor.page.keyboard.type(' Audited');
    await expect.poll(() => frame.getByRole('textbox', { name: 'Footnote 1' }).inputValue()).toBe('Source: the 2025 ledger. Audited');
    // the caret at the paragraph's start, checked by the text before it (an offset 0 can be in the text after
    // "Sales", where a CI run once inserted the note): clicked and Home pressed again until it stands there
    const atStart = ' (after an element)';
    await expect
      .poll(async () => {
        const before = await textBeforeCaret();
        if (before !== atStart) {
          await editor.locator('p').first().click({ position: { x: 2, y: 8 } });
          await page.keyboard.press('Home');
        }
        return before;
      })
      .toBe(atStart);
    await page.keyboard.press('Control+Alt+F');
    await expect.poll(() => frame.getByRole('textbox', { name: 'Footnote 1' }).evaluate((field) => field === document.activeElement)).toBe(true);
    await page.keyboard.type('Opening note.');
    const moved = coEditor.frame.getByRole('textbox', { name: 'Footnote 2' });
    await expect.poll(() => moved.inputValue()).toBe('Source: the 2025 ledger. Audited');
    expect(await moved.evaluate((field) => field === document.activeElement)).toBe(true);
    await coEditor.page.keyboard.type(' twice.');
    await expect
      .poll(async () => (await exportFile(running.svc, fileId, 'md')).bytes.toString('utf8'))
      .toBe('[^1]Sales rose sharply.[^2]\n\n[^1]: Opening note.\n[^2]: Source: the 2025 ledger. Audited twice.\n');

    // Backspace after a reference deletes it with its note, as Delete before one did
    await caretInText();
    await page.keyboard.press('End');
    await page.keyboard.press('Backspace');
    await expect.poll(() => referenceNumbers(coEditor.frame)).toEqual(['1']);
    await expect.poll(async () => (await exportFile(running.svc, fileId, 'md')).bytes.toString('utf8')).toBe('[^1]Sales rose sharply.\n\n[^1]: Opening note.\n');
    await coEditor.page.context().close();
    await page.context().close();
  }, 180_000);
});

/** Where each note's field stands: its page's number (from the box it is in) and whether it is under the page's text. */
function notePlaces(frame: FrameLocator): Promise<Array<{ name: string | null; page: string | undefined; underText: boolean; aboveFooter: boolean }>> {
  return frame.locator('.svc-paged').evaluate((paged) => {
    const zoom = Number((paged as HTMLElement).style.zoom || 1);
    const sheets = [...paged.querySelectorAll<HTMLElement>('.svc-page-sheet')];
    const blocks = [...paged.querySelectorAll<HTMLElement>('.ProseMirror > p')];
    return [...paged.querySelectorAll<HTMLElement>('.svc-page-notes')].flatMap((box) => {
      const sheet = sheets[Number(box.dataset.page) - 1]!.getBoundingClientRect();
      const list = box.querySelector('ol')!.getBoundingClientRect();
      const footer = sheets[Number(box.dataset.page) - 1]!.querySelector('.svc-page-footer')?.getBoundingClientRect();
      // every block on this sheet ends above the notes' rule
      const onSheet = blocks.filter((block) => {
        const rect = block.getBoundingClientRect();
        return rect.top >= sheet.top && rect.top < sheet.bottom;
      });
      const underText = onSheet.every((block) => block.getBoundingClientRect().bottom <= list.top + 1 / zoom);
      return [...box.querySelectorAll('textarea')].map((field) => ({
        name: field.getAttribute('aria-label'),
        page: box.dataset.page,
        underText,
        aboveFooter: !footer || field.getBoundingClientRect().bottom <= footer.top,
      }));
    });
  });
}

describe('documentPro: footnotes at the bottom of their page', () => {
  it('each note on its reference page under the text, for two users; a longer note moves text to the next page, live', { timeout: 240_000 }, async () => {
    const fileId = 'pro-note-pages';
    running.svc.integrator.addFile({ id: fileId, type: 'documentPro', grants: { 'user-1': { ...ALL_PERMISSIONS }, bob: { ...ALL_PERMISSIONS } } });
    expect((await running.svc.call('POST', '/sdk/v2/api/files', { body: { type: 'documentPro', fileId } })).status).toBe(200);
    const notes: Record<number, string> = { 2: 'Note one: the 2025 ledger.', 9: 'Note two: audited figures.', 20: 'Note three: the northern region.' };
    const blocks: ProseMirrorNode[] = Array.from({ length: 24 }, (_, index) => {
      const body = text(`Paragraph ${index + 1} of the quarterly report, long enough to fill a line of the page and a bit more.`);
      const note = notes[index + 1];
      return note ? paragraph(body, { type: 'footnote', attrs: { note } }) : paragraph(body);
    });
    await writeRichText(running.svc, fileId, blocks);

    const pages: Page[] = [];
    const frames: FrameLocator[] = [];
    for (const token of ['user-token', 'bob-token']) {
      const page = await (await browser().newContext({ viewport: { width: 1440, height: 900 } })).newPage();
      pages.push(page);
      frames.push(await openEditor(page, running.host, running.svc, fileId, token));
    }
    try {
      for (const frame of frames) {
        await expect.poll(() => frame.getByRole('textbox', { name: 'Footnote 3' }).inputValue()).toBe('Note three: the northern region.');
        await expect
          .poll(() => notePlaces(frame))
          .toEqual([
            { name: 'Footnote 1', page: '1', underText: true, aboveFooter: true },
            { name: 'Footnote 2', page: '1', underText: true, aboveFooter: true },
            { name: 'Footnote 3', page: '2', underText: true, aboveFooter: true },
          ]);
        // the notes' list after the pages is gone: the notes are on the pages
        expect(await frame.locator('.svc-footnotes').isVisible()).toBe(false);
      }
      // page 1's bottom in view: its notes above the footer, page 2's top below
      await frames[0]!.locator('.svc-page-notes[data-page="1"] ol').evaluate((list) => list.scrollIntoView({ block: 'center' }));
      await pages[0]!.screenshot({ path: 'docs/images/footnotes-document-pro-pages.png' });

      // the first user makes note 2 long: it takes lines at the page's bottom, so the last paragraphs of page 1 move on
      const [frame, other] = [frames[0]!, frames[1]!];
      const lastOnPage1 = () =>
        frame.locator('.svc-paged').evaluate((paged) => {
          const sheet = paged.querySelector('.svc-page-sheet')!.getBoundingClientRect();
          return [...paged.querySelectorAll('.ProseMirror > p')].filter((block) => block.getBoundingClientRect().top < sheet.bottom).length;
        });
      const before = await lastOnPage1();
      const field = frame.getByRole('textbox', { name: 'Footnote 2' });
      await field.click();
      await expect.poll(() => field.evaluate((element) => element === document.activeElement)).toBe(true);
      await pages[0]!.keyboard.press('End');
      // a few keys typed, then a long passage pasted in one go (as insertText does)
      await pages[0]!.keyboard.type(' Checked.');
      const longer = ` Checked.${' It was checked line by line against the bank statements of every month, and the differences were explained.'.repeat(3)}`;
      await pages[0]!.keyboard.insertText(longer.slice(' Checked.'.length));
      await expect.poll(lastOnPage1).toBeLessThan(before);
      // typing kept the focus in the note all along
      expect(await field.evaluate((element) => element === document.activeElement)).toBe(true);
      for (const seen of [frame, other]) {
        await expect.poll(() => seen.getByRole('textbox', { name: 'Footnote 2' }).inputValue()).toBe(`Note two: audited figures.${longer}`);
        await expect.poll(async () => (await notePlaces(seen)).every((place) => place.underText && place.aboveFooter)).toBe(true);
        expect((await notePlaces(seen)).map((place) => place.page)).toEqual(['1', '1', '2']);
      }
    } finally {
      for (const page of pages) await page.context().close();
    }
  });
});
