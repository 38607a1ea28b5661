import type { BrowserContext, FrameLocator, Locator, Page } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { png } from '../attachments/images.js';
import { newImageBox, newTextBox, slidesOf } from '../../src/model/content.js';
import { toYNodes } from '../../src/model/rich-text/schema.js';
import { testDatabases } from '../support/databases.js';
import { DEFAULT_USER } from '../support/integrator.js';
import { startService, type TestService } from '../support/service.js';
import { browserForThisFile } from './support/browser-per-file.js';
import { openInHost, startHostPage, type HostPage } from './support/host-page.js';

/** Two browsers on a shared 2-core machine: a test takes 5-15 s. */
const BROWSER_TEST_TIMEOUT_MS = 60_000;

/** expect.poll with room for a loaded machine: collaborators' changes cross a socket and a server. */
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000, interval: 100 });

const browser = browserForThisFile();

describe.each(testDatabases().slice(0, 1))('presentation editor in a browser ($name)', (db) => {
  let svc: TestService;
  let host: HostPage;
  const contexts: BrowserContext[] = [];

  beforeEach(async () => {
    svc = await startService(db, { integrator: true });
    host = await startHostPage(svc.url);
    svc.integrator.addUser({ id: 'user-2', name: 'Bob', token: 'token-2' });
    await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'presentation', fileId: 'deck-1' } });
  });
  afterEach(async () => {
    for (const context of contexts.splice(0)) await context.close();
    await host.close();
    await svc.close();
  });

  /** Opens deck-1 in a new browser as the user of `token`; answers the page and the editor's frame. */
  async function openDeck(token: string): Promise<{ page: Page; editor: FrameLocator }> {
    const context = await browser().newContext({ viewport: { width: 1280, height: 800 } });
    contexts.push(context);
    const page = await context.newPage();
    expect(await openInHost(page, host, { fileId: 'deck-1', token, signature: await svc.sign(), lang: 'en' })).toMatchObject({ ok: true, fileType: 'presentation' });
    return { page, editor: page.frameLocator('iframe') };
  }

  const plainText = async (): Promise<string> => (await svc.call('GET', '/sdk/v2/collab-files/deck-1/plain-text')).body.data?.content;
  /** The text a box shows, without collaborators' caret labels. */
  const textOf = (box: Locator) =>
    box.evaluate((element) => {
      const copy = element.cloneNode(true) as HTMLElement;
      for (const caret of copy.querySelectorAll('.collaboration-carets__caret')) caret.remove();
      return copy.textContent;
    });
  const slideTitles = (editor: FrameLocator) => editor.locator('.svc-slide-title').allTextContents();

  /** Adds a text box to the open slide and types `text` into it. */
  async function typeInNewBox(page: Page, editor: FrameLocator, text: string): Promise<void> {
    await editor.getByRole('toolbar').getByRole('button', { name: 'Text box' }).click();
    await poll(() => editor.locator('.svc-slide-editing .svc-box-text.ProseMirror').last().evaluate((element) => element === document.activeElement)).toBe(true);
    await page.keyboard.type(text);
  }

  it('a slide text typed in one page appears in the other and in plain-text', async () => {
    const alice = await openDeck('user-token');
    const bob = await openDeck('token-2');
    await typeInNewBox(alice.page, alice.editor, 'Hello from Alice');
    const bobsBox = bob.editor.locator('.svc-slide-editing .svc-box-text');
    await poll(() => textOf(bobsBox.first())).toBe('Hello from Alice');
    await poll(plainText).toBe('Hello from Alice');

    // Bob types into the same box: both converge, and the slide list's title follows
    await bobsBox.first().click();
    await bob.page.keyboard.press('End');
    await bob.page.keyboard.type(' and Bob');
    await poll(() => textOf(alice.editor.locator('.svc-slide-editing .svc-box-text').first())).toBe('Hello from Alice and Bob');
    await poll(() => slideTitles(alice.editor)).toEqual(['Hello from Alice and Bob']);
    await poll(plainText).toBe('Hello from Alice and Bob');
    await alice.page.screenshot({ path: '/tmp/presentation-alice.png' });

    // a text box has no pages: Ctrl+Enter is a line break there, never a page break
    await bob.page.keyboard.press('Control+Enter');
    await bob.page.keyboard.type('second line');
    await poll(plainText).toBe('Hello from Alice and Bob\nsecond line');
    expect(await bob.editor.locator('.svc-box-text .page-break').count()).toBe(0);
  }, BROWSER_TEST_TIMEOUT_MS);

  it('slides added, duplicated, deleted and reordered converge in both pages and the backend', async () => {
    const alice = await openDeck('user-token');
    const bob = await openDeck('token-2');
    const toolbar = alice.editor.getByRole('toolbar');
    // the first slide gets a title; then two new slides, each with a title box ready to type in
    await typeInNewBox(alice.page, alice.editor, 'One');
    for (const title of ['Two', 'Three']) {
      await toolbar.getByRole('button', { name: 'New slide' }).click();
      await alice.editor.locator('.svc-slide-editing .svc-box-text').first().click();
      await alice.page.keyboard.type(title);
    }
    await poll(() => slideTitles(bob.editor)).toEqual(['One', 'Two', 'Three']);

    // Bob duplicates "Two" and moves "Three" to the top
    await bob.editor.locator('.svc-slide-item', { hasText: 'Two' }).getByRole('button').click();
    await bob.editor.getByRole('toolbar').getByRole('button', { name: 'Duplicate slide' }).click();
    await bob.editor.locator('.svc-slide-item', { hasText: 'Three' }).getByRole('button').click();
    await bob.editor.getByRole('toolbar').getByRole('button', { name: 'Move slide up' }).click();
    await bob.editor.getByRole('toolbar').getByRole('button', { name: 'Move slide up' }).click();
    await bob.editor.getByRole('toolbar').getByRole('button', { name: 'Move slide up' }).click();
    await poll(() => bob.editor.getByRole('toolbar').getByRole('button', { name: 'Move slide up' }).isDisabled()).toBe(true);
    await poll(() => slideTitles(alice.editor)).toEqual(['Three', 'One', 'Two', 'Two']);

    // Alice deletes "One"
    await alice.editor.locator('.svc-slide-item', { hasText: 'One' }).getByRole('button').click();
    await toolbar.getByRole('button', { name: 'Delete slide' }).click();
    await poll(() => slideTitles(bob.editor)).toEqual(['Three', 'Two', 'Two']);
    await poll(() => slideTitles(alice.editor)).toEqual(['Three', 'Two', 'Two']);
    await poll(plainText).toBe('Three\n\nTwo\n\nTwo');

    // undo is per user: Alice's undo brings back her deleted slide, not Bob's moves
    await alice.editor.locator('.svc-stage').click({ position: { x: 5, y: 5 } });
    await alice.page.keyboard.press('Control+z');
    await poll(() => slideTitles(bob.editor)).toEqual(['Three', 'One', 'Two', 'Two']);

    // slides are also reordered by dragging them in the list: the last one dropped on the top half of the first
    const items = alice.editor.locator('.svc-slide-item');
    await items.nth(3).dragTo(items.nth(0), { targetPosition: { x: 40, y: 10 } });
    await poll(() => slideTitles(bob.editor)).toEqual(['Two', 'Three', 'One', 'Two']);
    await poll(plainText).toBe('Two\n\nThree\n\nOne\n\nTwo');
  }, BROWSER_TEST_TIMEOUT_MS);

  it('a reader without edit permission sees the slides but cannot change them', async () => {
    const alice = await openDeck('user-token');
    await typeInNewBox(alice.page, alice.editor, 'Read me');
    await poll(plainText).toBe('Read me');
    svc.integrator.grant('deck-1', 'user-2', { editable: false });
    const bob = await openDeck('token-2');
    const box = bob.editor.locator('.svc-slide-editing .svc-box-text');
    await poll(() => textOf(box.first())).toBe('Read me');
    await poll(() => bob.editor.getByRole('toolbar').isHidden()).toBe(true);
    expect(await box.first().getAttribute('contenteditable')).toBe('false');
    await box.first().click();
    await bob.page.keyboard.type('changed');
    await bob.page.keyboard.press('Delete');
    expect(await bob.editor.locator('.svc-slide-item').first().getAttribute('draggable')).not.toBe('true');
    expect(await bob.editor.locator('.svc-box-handle').first().isHidden()).toBe(true);
    // reading is allowed: presenting works for readers
    expect(await bob.editor.getByRole('button', { name: 'Present' }).isEnabled()).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await plainText()).toBe('Read me');
    expect(await textOf(alice.editor.locator('.svc-slide-editing .svc-box-text').first())).toBe('Read me');
  }, BROWSER_TEST_TIMEOUT_MS);

  it('startDemonstration presents full frame, arrow keys and clicks move, endDemonstration and Escape end it', async () => {
    const alice = await openDeck('user-token');
    await typeInNewBox(alice.page, alice.editor, 'First');
    for (const title of ['Second', 'Third']) {
      await alice.editor.getByRole('toolbar').getByRole('button', { name: 'New slide' }).click();
      await alice.editor.locator('.svc-slide-editing .svc-box-text').first().click();
      await alice.page.keyboard.type(title);
    }
    await alice.editor.locator('.svc-slide-item').first().getByRole('button').click();

    await alice.page.evaluate(() => (window as unknown as { sdk: { getEditor(): { startDemonstration(): Promise<void> } } }).sdk.getEditor().startDemonstration());
    const presenter = alice.editor.locator('.svc-presenter');
    const counter = presenter.locator('.svc-presenter-counter');
    await poll(() => presenter.isVisible()).toBe(true);
    await poll(() => counter.textContent()).toBe('1 / 3');
    await poll(() => presenter.locator('.svc-box-text').textContent()).toBe('First');
    const box = await presenter.boundingBox();
    expect(box?.width).toBeGreaterThan(1200);
    await presenter.press('ArrowRight');
    await poll(() => counter.textContent()).toBe('2 / 3');
    await poll(() => presenter.locator('.svc-box-text').textContent()).toBe('Second');
    await presenter.click();
    await poll(() => counter.textContent()).toBe('3 / 3');
    await presenter.press('ArrowRight');
    await poll(() => counter.textContent()).toBe('3 / 3');
    await presenter.press('ArrowLeft');
    await poll(() => counter.textContent()).toBe('2 / 3');
    await alice.page.screenshot({ path: '/tmp/presentation-presenting.png' });

    await alice.page.evaluate(() => (window as unknown as { sdk: { getEditor(): { endDemonstration(): Promise<void> } } }).sdk.getEditor().endDemonstration());
    await poll(() => presenter.count()).toBe(0);
    // presenting ended on the second slide: the editor shows it
    await poll(() => alice.editor.locator('.svc-slide-item.is-current').textContent()).toContain('Second');

    await alice.editor.getByRole('button', { name: 'Present' }).click();
    await poll(() => counter.textContent()).toBe('2 / 3');
    await presenter.press('Escape');
    await poll(() => presenter.count()).toBe(0);
  }, BROWSER_TEST_TIMEOUT_MS);

  it('an uploaded image appears for a collaborator; boxes move, resize and are deleted everywhere', async () => {
    const alice = await openDeck('user-token');
    const bob = await openDeck('token-2');
    await alice.editor.locator('input[type=file]').setInputFiles({ name: 'chart.png', mimeType: 'image/png', buffer: png(320, 180) });
    const bobsImage = bob.editor.locator('.svc-slide-editing .svc-box[data-type=image]');
    // Bob's page loads it with his own credentials
    await poll(() => bobsImage.locator('img').evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(320);
    const styleOf = (box: Locator) => box.evaluate((element: HTMLElement) => ({ left: element.style.left, top: element.style.top, width: element.style.width, height: element.style.height }));
    // a 320×180 image is placed at its size, centred on the 960×540 slide
    expect(await styleOf(bobsImage)).toEqual({ left: '320px', top: '180px', width: '320px', height: '180px' });

    const alicesImage = alice.editor.locator('.svc-slide-editing .svc-box[data-type=image]');
    const scale = await alice.editor.locator('.svc-slide-editing').evaluate((surface: HTMLElement) => surface.getBoundingClientRect().width / 960);
    const start = (await alicesImage.boundingBox())!;
    await alice.page.mouse.move(start.x + start.width / 2, start.y + start.height / 2);
    await alice.page.mouse.down();
    await alice.page.mouse.move(start.x + start.width / 2 + 100 * scale, start.y + start.height / 2 + 50 * scale, { steps: 5 });
    await alice.page.mouse.up();
    await poll(() => styleOf(bobsImage)).toEqual({ left: '420px', top: '230px', width: '320px', height: '180px' });

    // the south-east handle makes it larger, the north-west corner stays
    const handle = (await alicesImage.locator('[data-handle=se]').boundingBox())!;
    await alice.page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
    await alice.page.mouse.down();
    await alice.page.mouse.move(handle.x + handle.width / 2 + 80 * scale, handle.y + handle.height / 2 + 40 * scale, { steps: 5 });
    await alice.page.mouse.up();
    await poll(() => styleOf(bobsImage)).toEqual({ left: '420px', top: '230px', width: '400px', height: '220px' });
    await alice.page.screenshot({ path: '/tmp/presentation-image.png' });

    // dragged past the slide's edge, it stops at the edge
    const moved = (await alicesImage.boundingBox())!;
    await alice.page.mouse.move(moved.x + 20, moved.y + 20);
    await alice.page.mouse.down();
    await alice.page.mouse.move(moved.x + 20 + 2000, moved.y + 20, { steps: 3 });
    await alice.page.mouse.up();
    await poll(() => styleOf(bobsImage)).toEqual({ left: '560px', top: '230px', width: '400px', height: '220px' });

    // Delete removes the selected box for everyone; Undo right after brings it back where it was, and only the
    // deletion is undone (not the move just before it)
    await alice.page.keyboard.press('Delete');
    await poll(() => bobsImage.count()).toBe(0);
    await alice.page.keyboard.press('Control+Z');
    await poll(() => styleOf(bobsImage)).toEqual({ left: '560px', top: '230px', width: '400px', height: '220px' });
    await poll(() => styleOf(alicesImage)).toEqual({ left: '560px', top: '230px', width: '400px', height: '220px' });
  }, BROWSER_TEST_TIMEOUT_MS);

  it('comments on a slide are anchored to it and reach the other page', async () => {
    const alice = await openDeck('user-token');
    const bob = await openDeck('token-2');
    await bob.editor.getByRole('button', { name: 'Comments' }).click();
    await alice.editor.getByRole('button', { name: 'Comments' }).click();
    const alicePanel = alice.editor.getByRole('region', { name: 'Comments' });
    const comment = async (text: string) => {
      await alicePanel.getByRole('button', { name: 'Comment', exact: true }).click();
      await alicePanel.getByRole('textbox', { name: 'Write a comment…' }).fill(text);
      await alicePanel.getByRole('textbox', { name: 'Write a comment…' }).press('Enter');
    };
    await comment('Make the title bigger');
    await poll(() => bob.editor.locator('.svc-comment-body').allTextContents()).toEqual(['Make the title bigger']);
    const list = (await svc.call('GET', '/sdk/v2/collab-files/deck-1/comment-list')).body.data;
    const slideId = await alice.editor.locator('.svc-slide-item').first().getAttribute('data-slide-id');
    expect(list.threads).toHaveLength(1);
    expect(list.threads[0].selection).toEqual({ slideId, detached: false });
    expect(list.threads[0].selectionTitle).toBe(slideId);
    expect(await bob.editor.locator('.svc-thread-anchor').textContent()).toBe('Slide 1');

    // Bob starts a reply; a comment Alice adds meanwhile redraws his panel without taking his text or his focus
    const reply = bob.editor.getByRole('textbox', { name: 'Reply…' });
    await reply.click();
    await bob.page.keyboard.type('Do');
    await comment('And the colours');
    await poll(() => bob.editor.locator('.svc-comment-body').allTextContents()).toEqual(['And the colours', 'Make the title bigger']);
    await bob.page.keyboard.type('ne');
    const typing = bob.editor.locator('textarea:focus');
    await poll(() => typing.inputValue()).toBe('Done');
    await bob.page.keyboard.press('Enter');
    await poll(() => alice.editor.locator('.svc-comment-body').allTextContents()).toEqual(['And the colours', 'Make the title bigger', 'Done']);
    await bob.page.screenshot({ path: '/tmp/shots/presentation-comments.png' });
    // a new slide has no comments: those of slide 1 are listed after the ones here (none), no longer highlighted
    await alice.editor.getByRole('toolbar').getByRole('button', { name: 'New slide' }).click();
    await poll(() => alice.editor.locator('.svc-thread-here').count()).toBe(0);
    expect(await alice.editor.locator('.svc-slide-item').first().locator('.svc-slide-comments').textContent()).toBe('2');
  }, BROWSER_TEST_TIMEOUT_MS);

  it('createRevision names the slides; the history panel shows that version read-only beside the live one', async () => {
    const alice = await openDeck('user-token');
    await typeInNewBox(alice.page, alice.editor, 'Draft title');
    await poll(plainText).toBe('Draft title');
    type HistoryEditor = { createRevision(title: string): Promise<{ title: string }>; showHistory(): Promise<void> };
    const revision = await alice.page.evaluate(() => (window as unknown as { sdk: { getEditor(): HistoryEditor } }).sdk.getEditor().createRevision('First draft'));
    expect(revision.title).toBe('First draft');
    await alice.page.keyboard.type(' changed');
    await poll(plainText).toBe('Draft title changed');

    await alice.page.evaluate(() => (window as unknown as { sdk: { getEditor(): HistoryEditor } }).sdk.getEditor().showHistory());
    const entry = alice.editor.locator('.svc-revision-list li', { hasText: 'First draft' });
    await entry.getByRole('button', { name: 'View' }).click();
    const old = alice.editor.locator('.svc-old-version');
    await poll(() => old.locator('.svc-box-text').allTextContents()).toEqual(['Draft title']);
    expect(await alice.editor.locator('.svc-presentation').isHidden()).toBe(true);
    await alice.page.screenshot({ path: '/tmp/presentation-history.png' });
    await old.getByRole('button', { name: 'Back to the document' }).click();
    await poll(() => textOf(alice.editor.locator('.svc-slide-editing .svc-box-text').first())).toBe('Draft title changed');
  }, BROWSER_TEST_TIMEOUT_MS);

  it('content another client wrote badly is shown as far as it makes sense, and never sends credentials elsewhere', async () => {
    await svc.services.content.change(svc.app.id, 'deck-1', { userId: DEFAULT_USER.id, name: DEFAULT_USER.name }, (doc) => {
      const slides = slidesOf(doc) as unknown as Y.Array<unknown>;
      const boxes = (slidesOf(doc).get(0).get('boxes') as Y.Array<Y.Map<unknown>>);
      const title = newTextBox({ x: 10, y: 10, width: 600, height: 80 }, 'title');
      const strange = new Y.Map<unknown>();
      strange.set('id', 'strange');
      strange.set('x', 'left');
      strange.set('width', -5);
      const outside = newImageBox({ x: 0, y: 200, width: 100, height: 100 }, { src: 'https://elsewhere.example/pixel.png', alt: 'outside' }, 'outside');
      const script = newImageBox({ x: 200, y: 200, width: 100, height: 100 }, { src: 'javascript:alert(1)', alt: 'script' }, 'script');
      boxes.push([title, strange, outside, script]);
      (title.get('content') as Y.XmlFragment).insert(0, toYNodes([{ type: 'paragraph', content: [{ type: 'text', text: 'Still here' }] }]));
      slides.push([42, 'not a slide']);
      const bare = new Y.Map<unknown>();
      bare.set('id', 'bare');
      slides.push([bare]);
    });
    const alice = await openDeck('user-token');
    await poll(() => slideTitles(alice.editor)).toEqual(['Still here', 'Slide 2']);
    await poll(() => textOf(alice.editor.locator('.svc-slide-editing .svc-box-text').first())).toBe('Still here');
    const sources = await alice.editor.locator('.svc-slide-editing img').evaluateAll((images: HTMLImageElement[]) => images.map((image) => image.getAttribute('src')));
    expect(sources).toEqual(['https://elsewhere.example/pixel.png', null]);
    // the page still edits: a slide added after the bare one, and the junk entries stay where they were
    await alice.editor.locator('.svc-slide-item').nth(1).getByRole('button').click();
    await alice.editor.getByRole('toolbar').getByRole('button', { name: 'New slide' }).click();
    await poll(() => slideTitles(alice.editor)).toEqual(['Still here', 'Slide 2', 'Slide 3']);
    await alice.editor.locator('.svc-slide-item').nth(2).getByRole('button').click();
    await alice.editor.getByRole('toolbar').getByRole('button', { name: 'Move slide up' }).click();
    await poll(() => alice.editor.locator('.svc-slide-item').evaluateAll((items: HTMLElement[]) => items.map((item) => item.dataset.slideId === 'bare'))).toEqual([false, false, true]);
    await poll(plainText).toBe('Still here\n\n\n\n');
  }, BROWSER_TEST_TIMEOUT_MS);
});
