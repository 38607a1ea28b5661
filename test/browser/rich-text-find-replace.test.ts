import type { FrameLocator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS } from '../../examples/integrator/integrator.js';
import { browserForThisFile, serviceForThisFile } from './support/browser-per-file.js';
import { openInHost } from './support/host-page.js';

const browser = browserForThisFile();
const TEXT = 'Cat and cat: a concatenated cat.';

const running = serviceForThisFile([{ id: 'reader', name: 'Rita Reader', token: 'reader-token' }]);

async function newFile(fileId: string, type: 'document' | 'documentPro'): Promise<void> {
  running.svc.integrator.addFile({ id: fileId, type, grants: { 'user-1': { ...ALL_PERMISSIONS }, reader: { readable: true, editable: false, commentable: false } } });
  expect((await running.svc.call('POST', '/sdk/v2/api/files', { body: { type, fileId } })).status).toBe(200);
}

async function open(fileId: string, token: string, lang?: string): Promise<{ page: Page; frame: FrameLocator }> {
  const page = await (await browser().newContext()).newPage();
  expect(await openInHost(page, running.host.url, { fileId, token, signature: await running.svc.sign(), ...(lang ? { lang } : {}) })).toMatchObject({ ok: true });
  const frame = page.frameLocator('iframe');
  await frame.locator('.ProseMirror').waitFor();
  return { page, frame };
}

describe('find and replace in the rich-text editors', () => {
  it.each(['document', 'documentPro'] as const)('%s: Ctrl+F finds and steps, match case and whole word narrow, Ctrl+H replaces all in one undo step and one at a time', async (type) => {
    const fileId = `find-${type}`;
    await newFile(fileId, type);
    const { page, frame } = await open(fileId, 'user-token', 'en');
    const editor = frame.locator('.ProseMirror');
    await editor.click();
    await page.keyboard.type(TEXT);
    await expect.poll(() => running.plainText(fileId)).toBe(TEXT);

    await page.keyboard.press('Control+F');
    const bar = frame.getByRole('search', { name: 'Find in the document' });
    const query = bar.getByRole('textbox', { name: 'Find in the document' });
    const counter = bar.locator('.svc-find-count');
    await expect.poll(() => query.evaluate((input) => input === document.activeElement)).toBe(true);
    // a find-only bar: no replace field until Ctrl+H
    expect(await bar.getByRole('textbox', { name: 'Replace with' }).isVisible()).toBe(false);
    await query.fill('cat');
    await expect.poll(() => counter.textContent()).toBe('1 of 4');
    expect(await editor.locator('.svc-find-match').allTextContents()).toEqual(['Cat', 'cat', 'cat', 'cat']);
    expect(await editor.locator('.svc-find-current').count()).toBe(1);
    await query.press('Enter');
    await expect.poll(() => counter.textContent()).toBe('2 of 4');
    await query.press('Enter');
    await query.press('Shift+Enter');
    await query.press('Shift+Enter');
    await query.press('Shift+Enter');
    await expect.poll(() => counter.textContent()).toBe('4 of 4');
    await bar.getByRole('button', { name: /^Next match/ }).click();
    await expect.poll(() => counter.textContent()).toBe('1 of 4');

    await bar.getByRole('checkbox', { name: 'Match case' }).check();
    await expect.poll(() => counter.textContent()).toBe('1 of 3');
    await bar.getByRole('checkbox', { name: 'Whole word' }).check();
    await expect.poll(() => counter.textContent()).toBe('1 of 2');
    expect(await editor.locator('.svc-find-match').allTextContents()).toEqual(['cat', 'cat']);
    await page.screenshot({ path: `/tmp/find-bar-${type}.png` });

    // Ctrl+H from the find box shows the replace field; Replace all is one collaborative change and one undo step
    await page.keyboard.press('Control+H');
    const replacement = bar.getByRole('textbox', { name: 'Replace with' });
    await replacement.fill('dog');
    await bar.getByRole('button', { name: 'Replace all' }).click();
    await expect.poll(() => running.plainText(fileId)).toBe('Cat and dog: a concatenated dog.');
    await expect.poll(() => counter.textContent()).toBe('No matches');
    await page.screenshot({ path: `/tmp/replace-bar-${type}.png` });
    await query.press('Escape');
    expect(await bar.isVisible()).toBe(false);
    expect(await editor.evaluate((root) => root === document.activeElement)).toBe(true);
    await page.keyboard.press('Control+Z');
    await expect.poll(() => running.plainText(fileId)).toBe(TEXT);

    // Replace changes the current match only and goes on to the next
    await page.keyboard.press('Control+H');
    await query.fill('cat');
    await expect.poll(() => counter.textContent()).toBe('1 of 2');
    await replacement.fill('cats');
    await bar.getByRole('button', { name: 'Replace', exact: true }).click();
    await expect.poll(() => running.plainText(fileId)).toBe('Cat and cats: a concatenated cat.');
    await expect.poll(() => counter.textContent()).toBe('1 of 1');
    await page.context().close();
  });

  it('a reader finds in zh-CN but has no replace field', async () => {
    await newFile('find-reader', 'documentPro');
    const { page: ownerPage } = await open('find-reader', 'user-token', 'en');
    await ownerPage.frameLocator('iframe').locator('.ProseMirror').click();
    await ownerPage.keyboard.type(TEXT);
    await expect.poll(() => running.plainText('find-reader')).toBe(TEXT);

    const { page, frame } = await open('find-reader', 'reader-token');
    await expect.poll(() => frame.locator('.ProseMirror').textContent()).toContain(TEXT);
    await frame.locator('.ProseMirror').click();
    await page.keyboard.press('Control+H');
    const bar = frame.getByRole('search', { name: '在文档中查找' });
    await bar.getByRole('textbox', { name: '在文档中查找' }).fill('Cat');
    await bar.getByRole('checkbox', { name: '区分大小写' }).check();
    await expect.poll(() => bar.locator('.svc-find-count').textContent()).toBe('第 1 个，共 1 个');
    expect(await bar.getByRole('textbox', { name: '替换为' }).isVisible()).toBe(false);
    expect(await bar.getByRole('button', { name: '全部替换' }).isVisible()).toBe(false);
    // keyboard: Tab leaves the field for the labelled buttons, and a button works with the keyboard
    await bar.getByRole('checkbox', { name: '区分大小写' }).uncheck();
    await expect.poll(() => bar.locator('.svc-find-count').textContent()).toBe('第 1 个，共 4 个');
    await bar.getByRole('textbox', { name: '在文档中查找' }).press('Tab');
    await page.keyboard.press('Tab');
    expect(await frame.locator(':focus').getAttribute('aria-label')).toBe('下一个（Enter）');
    await page.keyboard.press('Enter');
    await expect.poll(() => bar.locator('.svc-find-count').textContent()).toBe('第 2 个，共 4 个');
    await page.screenshot({ path: '/tmp/find-bar-reader.png' });
    await page.context().close();
    await ownerPage.context().close();
    expect(await running.plainText('find-reader')).toBe(TEXT);
  });
});
