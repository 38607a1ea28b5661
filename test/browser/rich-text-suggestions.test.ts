import JSZip from 'jszip';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS } from '../../examples/integrator/integrator.js';
import { exportFile } from '../export/support.js';
import { browserForThisFile, serviceForThisFile } from './support/browser-per-file.js';
import { openEditor, selectWord } from './support/panels.js';

/** Suggestion mode (issue 25, point 2): one user suggests, another accepts and rejects, live. */
const browser = browserForThisFile();
const running = serviceForThisFile([{ id: 'alice', name: 'Alice Chen', token: 'alice-token' }, { id: 'bob', name: 'Bob Li', token: 'bob-token' }]);

async function open(fileId: string, token: string): Promise<{ page: Page; frame: FrameLocator; editor: Locator }> {
  const context = await browser().newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const frame = await openEditor(page, running.host, running.svc, fileId, token);
  return { page, frame, editor: frame.locator('.ProseMirror') };
}

/** The Suggestion events the integrator received about a file: action, kind, the user who caused it. */
function suggestionEvents(fileId: string) {
  return running.svc.integrator.events
    .filter((event) => event.eventClass === 'Suggestion' && event.body.fileId === fileId)
    .map((event) => {
      const suggestion = event.body.suggestion as { kind: string; authorId: string | null };
      return `${String(event.body.action)} ${suggestion.kind} by ${String(event.body.userId)} (author ${String(suggestion.authorId)})`;
    })
    .sort();
}

async function focused(editor: Locator): Promise<void> {
  await expect.poll(() => editor.evaluate((root) => root === document.activeElement || root.contains(document.activeElement)), { timeout: 20_000 }).toBe(true);
}

describe('suggestion mode in the document editors', () => {
  it.each(['document', 'documentPro'] as const)('%s: Alice suggests an insertion and a deletion, Bob sees them marked, accepts one and rejects the other', { timeout: 180_000 }, async (type) => {
    const fileId = `suggest-${type}`;
    running.svc.integrator.addFile({ id: fileId, type, grants: { alice: { ...ALL_PERMISSIONS }, bob: { ...ALL_PERMISSIONS } } });
    expect((await running.svc.call('POST', '/sdk/v2/api/files', { body: { type, fileId } })).status).toBe(200);

    const alice = await open(fileId, 'alice-token');
    await alice.editor.click();
    await focused(alice.editor);
    await alice.page.keyboard.type('The plan is good.');
    await expect.poll(() => running.plainText(fileId), { timeout: 20_000 }).toBe('The plan is good.');

    // Suggesting on: typed text is an insertion, deleted text stays, struck through
    const toggle = alice.frame.locator('[data-tool="suggesting"]');
    await toggle.click();
    await expect.poll(() => toggle.getAttribute('aria-pressed')).toBe('true');
    await focused(alice.editor);
    await alice.page.keyboard.press('End');
    await alice.page.keyboard.type(' Cheap too.');
    await expect.poll(() => alice.editor.locator('ins.svc-suggestion').count(), { timeout: 20_000 }).toBeGreaterThan(0);
    await selectWord(alice.frame, 'good');
    await expect.poll(() => alice.frame.locator('body').evaluate(() => window.getSelection()?.toString())).toBe('good');
    await alice.page.keyboard.press('Backspace');
    await expect.poll(() => alice.editor.locator('del.svc-suggestion').allTextContents(), { timeout: 20_000 }).toEqual(['good']);
    // the caret leaves the struck word (its selection would tint it on Bob's screen)
    await alice.page.keyboard.press('End');
    // one suggestion typed letter by letter is one run, with the time of its first letter
    expect((await alice.editor.locator('ins.svc-suggestion').allTextContents()).map((text) => text.replace(/\u200B/g, ''))).toEqual([' Cheap too.']);

    // the service announces them to the integrator once recorded
    await expect.poll(() => suggestionEvents(fileId), { timeout: 30_000 }).toEqual(['create deletion by alice (author alice)', 'create insertion by alice (author alice)']);

    // Bob sees both, in Alice's colour, with her name as the tooltip
    const bob = await open(fileId, 'bob-token');
    await expect.poll(() => bob.editor.locator('del.svc-suggestion').allTextContents(), { timeout: 20_000 }).toEqual(['good']);
    expect(await bob.editor.locator('del.svc-suggestion [title]').getAttribute('title')).toMatch(/^Deletion · Alice Chen · /);
    expect(await bob.editor.locator('ins.svc-suggestion [title]').first().getAttribute('title')).toMatch(/^Insertion · Alice Chen · /);
    expect(await bob.frame.locator('[data-tool="suggesting"]').getAttribute('aria-pressed')).toBe('false');
    await bob.frame.getByRole('button', { name: 'Suggestions' }).click();
    const items = bob.frame.locator('.svc-suggestion-item');
    await expect.poll(() => items.count(), { timeout: 20_000 }).toBe(2);
    expect(await items.locator('.svc-suggestion-what').allTextContents()).toEqual(['Deletion', 'Insertion']);
    expect(await items.locator('.svc-suggestion-byline').first().textContent()).toMatch(/^Alice Chen · /);
    if (type === 'document') await bob.page.screenshot({ path: 'docs/images/suggestions.png' });
    // clearing formatting over them leaves them suggestions (it used to remove every mark but links)
    await bob.editor.click();
    await focused(bob.editor);
    await bob.page.keyboard.press('Control+A');
    await bob.frame.locator('[data-tool="clearFormatting"]').click();
    expect(await bob.editor.locator('.svc-suggestion').count()).toBe(2);
    expect(await items.count()).toBe(2);

    // Bob accepts the insertion and rejects the deletion; Alice sees the result live
    if (type === 'documentPro') {
      // from the text: the caret in the insertion shows who made it, with Accept and Reject
      await bob.editor.locator('ins.svc-suggestion').getByText('Cheap too.').click();
      const popover = bob.frame.locator('.svc-suggestion-popover');
      await expect.poll(() => popover.isVisible(), { timeout: 20_000 }).toBe(true);
      expect(await popover.textContent()).toMatch(/^Insertion · Alice Chen · .*AcceptReject$/);
      await bob.page.screenshot({ path: '/tmp/suggestion-popover.png' });
      await popover.locator('[data-suggestion-action="accept"]').click();
    } else await bob.frame.locator('.svc-suggestion-item[data-kind="insertion"] [data-suggestion-action="accept"]').click();
    await expect.poll(() => items.count(), { timeout: 20_000 }).toBe(1);
    await bob.frame.locator('.svc-suggestion-item[data-kind="deletion"] [data-suggestion-action="reject"]').click();
    await expect.poll(() => bob.editor.locator('.svc-suggestion').count(), { timeout: 20_000 }).toBe(0);
    await expect.poll(() => alice.editor.locator('.svc-suggestion').count(), { timeout: 20_000 }).toBe(0);
    await expect.poll(() => items.count()).toBe(0);
    await expect.poll(() => running.plainText(fileId), { timeout: 20_000 }).toBe('The plan is good. Cheap too.');

    await expect
      .poll(() => suggestionEvents(fileId), { timeout: 30_000 })
      .toEqual(['accept insertion by bob (author alice)', 'create deletion by alice (author alice)', 'create insertion by alice (author alice)', 'reject deletion by bob (author alice)']);

    // the export through the API has the result, no revision left
    const { bytes } = await exportFile(running.svc, fileId, 'docx');
    const xml = await (await JSZip.loadAsync(bytes)).file('word/document.xml')!.async('string');
    expect(xml).not.toMatch(/<w:(ins|del)\b/);
    expect(xml.replace(/<[^>]+>/g, '')).toContain('The plan is good. Cheap too.');
    await alice.page.context().close();
    await bob.page.context().close();
  });

  it('a user who may comment but not edit suggests by typing; the editor accepts it', { timeout: 180_000 }, async () => {
    const fileId = 'suggest-commenter';
    running.svc.integrator.addFile({ id: fileId, type: 'document', grants: { alice: { ...ALL_PERMISSIONS }, bob: { readable: true, editable: false, commentable: true } } });
    expect((await running.svc.call('POST', '/sdk/v2/api/files', { body: { type: 'document', fileId } })).status).toBe(200);
    const alice = await open(fileId, 'alice-token');
    await alice.editor.click();
    await focused(alice.editor);
    await alice.page.keyboard.type('Budget approved.');
    await expect.poll(() => running.plainText(fileId), { timeout: 20_000 }).toBe('Budget approved.');

    // Bob's page says he is suggesting; what he types and deletes is marked as his, live for Alice and stored
    const bob = await open(fileId, 'bob-token');
    await expect.poll(() => bob.frame.locator('.svc-mode').textContent(), { timeout: 20_000 }).toBe('Suggesting');
    await expect.poll(() => bob.editor.textContent(), { timeout: 20_000 }).toContain('Budget approved.');
    await bob.editor.click();
    await focused(bob.editor);
    await bob.page.keyboard.press('End');
    await bob.page.keyboard.type(' Next week.');
    await expect.poll(() => alice.editor.locator('ins.svc-suggestion').allTextContents(), { timeout: 20_000 }).toEqual([' Next week.']);
    expect(await alice.editor.locator('ins.svc-suggestion [title]').first().getAttribute('title')).toMatch(/^Insertion · Bob Li · /);
    await expect.poll(() => running.plainText(fileId), { timeout: 20_000 }).toBe('Budget approved. Next week.');
    // no Accept / Reject for him, at the caret or in the panel
    await bob.frame.getByRole('button', { name: 'Suggestions' }).click();
    await expect.poll(() => bob.frame.locator('.svc-suggestion-item').count(), { timeout: 20_000 }).toBe(1);
    expect(await bob.frame.locator('.svc-suggestion-item [data-suggestion-action]').count()).toBe(0);
    expect(await bob.frame.getByRole('button', { name: 'Accept all' }).isVisible()).toBe(false);
    expect(await bob.frame.locator('.svc-suggestion-popover').isVisible()).toBe(false);
    await bob.page.screenshot({ path: 'docs/images/suggestions-commenter.png' });

    // Alice accepts it; Bob's session was never closed
    await alice.frame.getByRole('button', { name: 'Suggestions' }).click();
    await alice.frame.locator('.svc-suggestion-item[data-kind="insertion"] [data-suggestion-action="accept"]').click();
    await expect.poll(() => bob.editor.locator('.svc-suggestion').count(), { timeout: 20_000 }).toBe(0);
    expect(await bob.editor.textContent()).toContain('Budget approved. Next week.');
    await expect.poll(() => running.plainText(fileId), { timeout: 20_000 }).toBe('Budget approved. Next week.');
    await alice.page.context().close();
    await bob.page.context().close();
  });
});
