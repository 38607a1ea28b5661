import type { FrameLocator, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { TestService } from '../../support/service.js';
import type { HostPage } from './host-page.js';
import { openInHost } from './host-page.js';

/** The editor inside the host page's iframe. */
export function editorFrame(page: Page): FrameLocator {
  return page.frameLocator('iframe');
}

/** Opens `fileId` for the user of `token` in a new browser page and waits for the editor. */
export async function openEditor(page: Page, host: HostPage, svc: TestService, fileId: string, token: string, lang = 'en'): Promise<FrameLocator> {
  const result = await openInHost(page, host.url, { fileId, token, signature: await svc.sign(), lang });
  if (!result.ok) throw new Error(`connect() failed: ${result.code} ${result.message}`);
  const frame = editorFrame(page);
  await frame.locator('.ProseMirror').waitFor();
  return frame;
}

/** Types `text` in the editor (a new paragraph at the caret) and selects the word `word` in it. */
export async function typeAndSelect(page: Page, frame: FrameLocator, text: string, word: string): Promise<void> {
  await frame.locator('.ProseMirror').click();
  await page.keyboard.type(text);
  await selectWord(frame, word);
}

/** Selects the first occurrence of `word` in the editor's text, as a user dragging over it would. */
export async function selectWord(frame: FrameLocator, word: string): Promise<void> {
  await frame.locator('.ProseMirror').getByText(word).first().waitFor();
  await frame.locator('.ProseMirror').evaluate((root, wanted) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const start = node.textContent!.indexOf(wanted);
      if (start < 0) continue;
      const range = document.createRange();
      range.setStart(node, start);
      range.setEnd(node, start + wanted.length);
      (root as HTMLElement).focus();
      const selection = window.getSelection()!;
      selection.removeAllRanges();
      selection.addRange(range);
      return;
    }
    throw new Error(`"${wanted}" is not in the editor`);
  }, word);
}

/**
 * Clicks into `editable` and puts the caret at the end of the line, as a user pressing End until it is there. One
 * press is not enough when a collaborator's caret arrives between the click and the key: the editor redraws and
 * puts back the selection it had before it read the click's.
 */
export async function caretToEnd(page: Page, editable: Locator): Promise<void> {
  await editable.click();
  await expect
    .poll(async () => {
      await page.keyboard.press('End');
      return editable.evaluate((root) => {
        const selection = root.ownerDocument.getSelection();
        const node = selection?.focusNode;
        return !!node && root.contains(node) && selection!.isCollapsed && selection!.focusOffset === (node.nodeType === Node.TEXT_NODE ? node.textContent!.length : node.childNodes.length);
      });
    })
    .toBe(true);
}
