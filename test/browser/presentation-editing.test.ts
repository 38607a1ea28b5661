import type { BrowserContext, FrameLocator, Locator, Page } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { halvesPng, png } from '../attachments/images.js';
import { exportFile } from '../export/support.js';
import { cropOf } from '../../src/model/slides.js';
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

const RED: [number, number, number] = [220, 20, 20];
const BLUE: [number, number, number] = [20, 40, 220];

/** The colours of an image's pixels at `points` (x, y in its pixels), decoded by the browser's own image decoder. */
async function pixelsOf(page: Page, bytes: Buffer, mimeType: string, points: Array<[number, number]>): Promise<Array<[number, number, number]>> {
  return page.evaluate(
    async ({ url, points: wanted }) => {
      const image = new Image();
      image.src = url;
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = image.naturalWidth;
      canvas.height = image.naturalHeight;
      const context = canvas.getContext('2d')!;
      context.drawImage(image, 0, 0);
      return wanted.map(([x, y]) => {
        const [r, g, b] = context.getImageData(x, y, 1, 1).data;
        return [r!, g!, b!] as [number, number, number];
      });
    },
    { url: `data:${mimeType};base64,${bytes.toString('base64')}`, points },
  );
}

/** Whether a colour is near another (JPEG and scaling blur colours a little). */
const near = (colour: [number, number, number], expected: [number, number, number]) => colour.every((value, index) => Math.abs(value - expected[index]!) < 60);

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

  /** Adds a slide of `layout` after the open one through the New slide menu, and waits until it is the open one. */
  async function newSlide(editor: FrameLocator, layout = 'Title and content'): Promise<void> {
    const slides = editor.locator('.svc-slide-item');
    const before = await slides.count();
    await editor.getByRole('toolbar').getByRole('button', { name: 'New slide' }).click();
    await editor.getByRole('menu', { name: 'Layout of the new slide' }).getByRole('menuitem', { name: layout }).click();
    await poll(() => slides.count()).toBe(before + 1);
    await poll(() => editor.locator('.svc-slide-item.is-current').evaluate((item) => [...item.parentElement!.children].indexOf(item))).toBe(before);
  }

  /** Types into the open slide's first text box once it has the keyboard (under load the click's focus comes late). */
  async function typeInFirstBox(page: Page, editor: FrameLocator, text: string): Promise<void> {
    const box = editor.locator('.svc-slide-editing .svc-box-text').first();
    await box.click();
    await poll(() => box.evaluate((element) => element.contains(element.ownerDocument.activeElement))).toBe(true);
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
    // the caret in the box after its text before typing (a CI run's first keys went elsewhere: "Aliced Bob")
    await poll(() =>
      bobsBox.first().evaluate((box) => {
        const selection = box.ownerDocument.getSelection();
        if (!selection?.anchorNode || !box.contains(selection.anchorNode)) return 'elsewhere';
        const before = box.ownerDocument.createRange();
        before.setStart(box, 0);
        before.setEnd(selection.anchorNode, selection.anchorOffset);
        return before.toString();
      }),
    ).toBe('Hello from Alice');
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
      await newSlide(alice.editor);
      await typeInFirstBox(alice.page, alice.editor, title);
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
    expect(await bob.editor.getByRole('button', { name: 'Present', exact: true }).isEnabled()).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await plainText()).toBe('Read me');
    expect(await textOf(alice.editor.locator('.svc-slide-editing .svc-box-text').first())).toBe('Read me');
  }, BROWSER_TEST_TIMEOUT_MS);

  it('layouts, a theme, text formatting, shapes and speaker notes: chosen by keyboard and mouse, seen by a collaborator', async () => {
    const alice = await openDeck('user-token');
    const bob = await openDeck('token-2');
    const toolbar = alice.editor.getByRole('toolbar');
    const frameOf = (box: Locator) =>
      box.evaluate((element: HTMLElement) => ({ x: parseFloat(element.style.left), y: parseFloat(element.style.top), width: parseFloat(element.style.width), height: parseFloat(element.style.minHeight || element.style.height) }));

    // the new deck's empty slide offers its layouts; Title slide gives a title and a subtitle placeholder
    await alice.editor.getByRole('group', { name: 'Choose a layout for this slide' }).getByRole('button', { name: 'Title slide' }).click();
    const aliceSlide = alice.editor.locator('.svc-slide-editing');
    await poll(() => aliceSlide.locator('.svc-box').evaluateAll((boxes: HTMLElement[]) => boxes.map((box) => box.dataset.placeholder))).toEqual(['title', 'subtitle']);
    expect(await aliceSlide.locator('[data-placeholder=title] .svc-box-text').getAttribute('data-placeholder')).toBe('Click to add a title');
    await poll(() => aliceSlide.locator('[data-placeholder=title] .svc-box-text').evaluate((element) => element === document.activeElement)).toBe(true);
    await alice.page.keyboard.type('Quarterly review');
    await poll(() => slideTitles(bob.editor)).toEqual(['Quarterly review']);

    // a slide with two columns, its layout chosen from the New slide menu with the keyboard
    const newSlideButton = toolbar.getByRole('button', { name: 'New slide' });
    await newSlideButton.focus();
    await alice.page.keyboard.press('ArrowDown');
    const menu = alice.editor.getByRole('menu', { name: 'Layout of the new slide' });
    await poll(() => menu.getByRole('menuitem', { name: 'Title slide' }).evaluate((element) => element === document.activeElement)).toBe(true);
    await alice.page.keyboard.press('ArrowDown');
    await alice.page.keyboard.press('ArrowDown');
    await alice.page.keyboard.press('Enter');
    await poll(() => aliceSlide.locator('.svc-box').evaluateAll((boxes: HTMLElement[]) => boxes.map((box) => box.dataset.placeholder))).toEqual(['title', 'body', 'body']);
    expect(await menu.isHidden()).toBe(true);
    await alice.page.screenshot({ path: 'docs/images/presentation-layouts.png' });

    // the theme applies to the whole deck, for Bob too
    await toolbar.getByRole('combobox', { name: 'Theme of the presentation' }).selectOption({ label: 'Ocean' });
    await poll(() => bob.editor.locator('.svc-slide-thumbnail .svc-slide').evaluateAll((slides: HTMLElement[]) => slides.map((slide) => slide.dataset.theme))).toEqual(['ocean', 'ocean']);

    // a bulleted list in the left column (Bob follows on the second slide)
    await bob.editor.locator('.svc-slide-item').nth(1).getByRole('button').click();
    const body = aliceSlide.locator('.svc-box[data-placeholder=body]').first();
    await body.locator('.svc-box-text').click();
    await poll(() => body.locator('.svc-box-text').evaluate((element) => element === document.activeElement)).toBe(true);
    await toolbar.getByRole('button', { name: 'Bulleted list' }).click();
    await alice.page.keyboard.type('Revenue up 12%');
    await alice.page.keyboard.press('Enter');
    await alice.page.keyboard.type('Two new offices');
    await poll(() => Promise.all([0, 1].map((index) => textOf(bob.editor.locator('.svc-slide-editing .svc-box-text li').nth(index))))).toEqual(['Revenue up 12%', 'Two new offices']);

    // the title's font, size, colour and alignment, for the whole box
    const title = aliceSlide.locator('.svc-box[data-placeholder=title]');
    await title.locator('.svc-box-text').click();
    // under load the click's focus comes late and the first keystroke would go to the slide
    await poll(() => title.locator('.svc-box-text').evaluate((element) => element === document.activeElement)).toBe(true);
    await alice.page.keyboard.type('Results');
    await toolbar.getByRole('combobox', { name: 'Font', exact: true }).selectOption('Georgia');
    await toolbar.getByRole('combobox', { name: 'Font size' }).selectOption('54');
    await toolbar.getByLabel('Text colour').fill('#c92a2a');
    await toolbar.getByRole('button', { name: 'Centre' }).click();
    const bobsTitle = bob.editor.locator('.svc-slide-editing .svc-box[data-placeholder=title] .svc-box-text');
    const looks = () =>
      bobsTitle.evaluate((element) => {
        const style = getComputedStyle(element);
        return [style.fontFamily.split(',')[0], style.fontSize, style.color, style.textAlign];
      });
    await poll(looks).toEqual(['Georgia', '54px', 'rgb(201, 42, 42)', 'center']);
    expect(await toolbar.getByRole('button', { name: 'Centre' }).getAttribute('aria-pressed')).toBe('true');

    // back on the title slide: a new text box lands where it covers no other box
    await alice.editor.locator('.svc-slide-item').first().getByRole('button').click();
    await bob.editor.locator('.svc-slide-item').first().getByRole('button').click();
    await toolbar.getByRole('button', { name: 'Text box' }).click();
    await poll(() => aliceSlide.locator('.svc-box').count()).toBe(3);
    const frames = await aliceSlide.locator('.svc-box').evaluateAll((boxes: HTMLElement[]) => boxes.map((box) => box.getBoundingClientRect().toJSON() as DOMRect));
    const added = frames.at(-1)!;
    for (const other of frames.slice(0, -1)) {
      expect(added.right <= other.left || other.right <= added.left || added.bottom <= other.top || other.bottom <= added.top).toBe(true);
    }
    // and grows with its text: six lines in a 120-point high box
    const note = aliceSlide.locator('.svc-box').last();
    await poll(() => note.locator('.svc-box-text').evaluate((element) => element === document.activeElement)).toBe(true);
    await alice.page.keyboard.type('One');
    for (const line of ['Two', 'Three', 'Four', 'Five', 'Six']) {
      await alice.page.keyboard.press('Enter');
      await alice.page.keyboard.type(line);
    }
    const before = await frameOf(note);
    const inPoints = (locator: Locator) => locator.evaluate((element: HTMLElement) => (element.getBoundingClientRect().height / element.closest('.svc-slide')!.getBoundingClientRect().height) * 540);
    const shown = await inPoints(note);
    expect(shown).toBeGreaterThan(before.height + 40);
    expect(shown).toBeGreaterThanOrEqual((await inPoints(note.locator('.svc-box-text'))) - 1);

    // a box is dragged by its text (not only its frame) and nudged with the arrow keys
    await aliceSlide.click({ position: { x: 3, y: 3 } });
    const scale = await aliceSlide.evaluate((surface: HTMLElement) => surface.getBoundingClientRect().width / 960);
    const grip = (await note.locator('.svc-box-text').boundingBox())!;
    await alice.page.mouse.move(grip.x + 20, grip.y + grip.height / 2);
    await alice.page.mouse.down();
    await alice.page.mouse.move(grip.x + 20 + 40 * scale, grip.y + grip.height / 2 + 20 * scale, { steps: 5 });
    await alice.page.mouse.up();
    const bobsNote = bob.editor.locator('.svc-slide-editing .svc-box').last();
    await poll(() => frameOf(bobsNote)).toEqual({ ...before, x: before.x + 40, y: before.y + 20 });
    await alice.page.keyboard.press('Shift+ArrowLeft');
    await alice.page.keyboard.press('ArrowUp');
    await poll(() => frameOf(bobsNote)).toEqual({ ...before, x: before.x + 30, y: before.y + 19 });

    // shapes: an ellipse in the theme's accent, refilled; an arrow from corner to corner
    await toolbar.getByRole('button', { name: 'Ellipse' }).click();
    const ellipse = bob.editor.locator('.svc-slide-editing .svc-box[data-type=shape] ellipse');
    await poll(() => ellipse.getAttribute('fill')).toBe('#087e8b');
    await toolbar.getByLabel('Fill colour').fill('#f59f00');
    await poll(() => ellipse.getAttribute('fill')).toBe('#f59f00');
    await toolbar.getByRole('button', { name: 'Arrow' }).click();
    await poll(() => bob.editor.locator('.svc-slide-editing svg[data-shape=arrow] line').getAttribute('marker-end')).toMatch(/^url\(#/);

    // speaker notes under the slide
    const notes = alice.editor.getByRole('textbox', { name: 'Speaker notes' });
    await notes.click();
    await alice.page.keyboard.type('Mention the new offices first.');
    await poll(() => bob.editor.getByRole('textbox', { name: 'Speaker notes' }).inputValue()).toBe('Mention the new offices first.');
    await alice.page.screenshot({ path: 'docs/images/presentation-theme-shapes-notes.png' });

    // Undo outside the text takes back the last deck change (the arrow)
    await aliceSlide.click({ position: { x: 3, y: 3 } });
    await alice.page.keyboard.press('Control+z');
    await poll(() => bob.editor.locator('.svc-slide-editing svg[data-shape=arrow]').count()).toBe(0);

    // the presenter view: this slide, the next one, this slide's notes and a timer
    await alice.editor.getByRole('button', { name: 'Presenter view' }).click();
    const view = alice.editor.getByRole('dialog', { name: 'Presenting' });
    const notesShown = view.getByRole('region', { name: 'Speaker notes' });
    await poll(() => notesShown.textContent()).toContain('Mention the new offices first.');
    await poll(() => view.getByRole('region', { name: 'Next slide' }).locator('.svc-box-text').first().textContent()).toBe('Results');
    await poll(() => view.getByRole('timer').textContent()).toMatch(/^0:0[1-9]$/);
    await alice.page.screenshot({ path: 'docs/images/presentation-presenter-view.png' });
    await alice.page.keyboard.press('ArrowRight');
    await poll(() => notesShown.textContent()).toContain('No notes for this slide.');
    await alice.page.keyboard.press('Escape');
    await poll(() => view.count()).toBe(0);
  }, 120_000);

  it('Arrange changes which box is drawn on top; a box is copied, cut and pasted onto another slide and into another deck', async () => {
    await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'presentation', fileId: 'deck-2' } });
    const alice = await openDeck('user-token');
    const bob = await openDeck('token-2');
    const toolbar = alice.editor.getByRole('toolbar');
    const shapesOf = (editor: FrameLocator) => editor.locator('.svc-slide-editing .svc-box[data-type=shape] svg').evaluateAll((svgs) => svgs.map((svg) => svg.getAttribute('data-shape')));
    await toolbar.getByRole('button', { name: 'Rectangle' }).click();
    await toolbar.getByRole('button', { name: 'Ellipse' }).click();
    await poll(() => shapesOf(bob.editor)).toEqual(['rectangle', 'ellipse']);

    // the rectangle to the front by the menu, back behind the ellipse by the keyboard
    const rectangle = alice.editor.locator('.svc-slide-editing .svc-box[data-type=shape]', { has: alice.editor.locator('svg[data-shape=rectangle]') });
    await rectangle.locator('.svc-box-shape-body').click();
    await toolbar.getByRole('button', { name: 'Arrange' }).click();
    await alice.editor.getByRole('menu', { name: 'Order of the selected box' }).getByRole('menuitem', { name: /^Bring to front/ }).click();
    await poll(() => shapesOf(bob.editor)).toEqual(['ellipse', 'rectangle']);
    await poll(() => rectangle.evaluate((element) => element === document.activeElement)).toBe(true);
    await alice.page.keyboard.press('Control+BracketLeft');
    await poll(() => shapesOf(bob.editor)).toEqual(['rectangle', 'ellipse']);
    await alice.page.screenshot({ path: '/tmp/presentation-arrange.png' });

    // copy the ellipse, paste it onto a new slide, then again there (shifted so it does not hide the first)
    const ellipse = alice.editor.locator('.svc-slide-editing .svc-box[data-type=shape]', { has: alice.editor.locator('svg[data-shape=ellipse]') });
    await ellipse.locator('.svc-box-shape-body').click();
    await poll(() => ellipse.evaluate((element) => element === document.activeElement)).toBe(true);
    const frameOf = (box: Locator) => box.evaluate((element) => ({ x: parseFloat(element.style.left), y: parseFloat(element.style.top) }));
    const copied = await frameOf(ellipse);
    await alice.page.keyboard.press('Control+c');
    await newSlide(alice.editor, 'Blank');
    await alice.page.keyboard.press('Control+v');
    const pasted = alice.editor.locator('.svc-slide-editing svg[data-shape=ellipse]');
    await poll(() => pasted.count()).toBe(1);
    expect(await frameOf(alice.editor.locator('.svc-slide-editing .svc-box').first())).toEqual(copied);
    await alice.page.keyboard.press('Control+v');
    await poll(() => pasted.count()).toBe(2);
    expect(await alice.editor.locator('.svc-slide-editing .svc-box').evaluateAll((boxes) => boxes.map((element) => ({ x: parseFloat((element as HTMLElement).style.left), y: parseFloat((element as HTMLElement).style.top) })))).toEqual([copied, { x: copied.x + 20, y: copied.y + 20 }]);
    await bob.editor.locator('.svc-slide-item').nth(1).getByRole('button').click();
    await poll(() => bob.editor.locator('.svc-slide-editing svg[data-shape=ellipse]').count()).toBe(2);

    // cut takes it away; the same browser's other deck takes the paste with the ellipse's colour
    await alice.page.keyboard.press('Control+x');
    await poll(() => pasted.count()).toBe(1);
    const other = await alice.page.context().newPage();
    expect(await openInHost(other, host, { fileId: 'deck-2', token: 'user-token', signature: await svc.sign(), lang: 'en' })).toMatchObject({ ok: true });
    const otherEditor = other.frameLocator('iframe');
    await otherEditor.locator('.svc-slide-editing').click({ position: { x: 5, y: 5 } });
    await other.keyboard.press('Control+v');
    await poll(() => otherEditor.locator('.svc-slide-editing svg[data-shape=ellipse] ellipse').getAttribute('fill')).toBe(await alice.editor.locator('.svc-slide-editing svg[data-shape=ellipse] ellipse').getAttribute('fill'));
  }, BROWSER_TEST_TIMEOUT_MS);

  it('Shift+click selects several boxes: they move together, align, distribute and delete as one', async () => {
    const alice = await openDeck('user-token');
    const bob = await openDeck('token-2');
    const toolbar = alice.editor.getByRole('toolbar');
    for (const kind of ['Rectangle', 'Ellipse', 'Rectangle']) await toolbar.getByRole('button', { name: kind }).click();
    const shapes = alice.editor.locator('.svc-slide-editing .svc-box[data-type=shape]');
    await poll(() => shapes.count()).toBe(3);
    const bobsShapes = bob.editor.locator('.svc-slide-editing .svc-box[data-type=shape]');
    const framesOf = (boxes: Locator) => boxes.evaluateAll((elements) => elements.map((element) => ({ x: parseFloat((element as HTMLElement).style.left), y: parseFloat((element as HTMLElement).style.top), width: parseFloat((element as HTMLElement).style.width) })));
    await poll(() => bobsShapes.count()).toBe(3);
    const before = await framesOf(shapes);

    // the first two selected: dragging one moves both, the third stays
    await shapes.nth(0).locator('.svc-box-shape-body').click();
    await shapes.nth(1).locator('.svc-box-shape-body').click({ modifiers: ['Shift'] });
    await poll(() => alice.editor.locator('.svc-slide-editing .svc-box.is-selected').count()).toBe(2);
    const body = shapes.nth(1).locator('.svc-box-shape-body');
    const start = (await body.boundingBox())!;
    await alice.page.mouse.move(start.x + 20, start.y + 20);
    await alice.page.mouse.down();
    await alice.page.mouse.move(start.x + 60, start.y + 60, { steps: 4 });
    await alice.page.mouse.up();
    await poll(async () => (await framesOf(bobsShapes))[0]!.x).not.toBe(before[0]!.x);
    const moved = await framesOf(bobsShapes);
    expect(moved[0]!.x - before[0]!.x).toBe(moved[1]!.x - before[1]!.x);
    expect(moved[0]!.y - before[0]!.y).toBe(moved[1]!.y - before[1]!.y);
    expect(moved[2]).toEqual(before[2]);

    // all three: Align top puts them on one line; Distribute horizontally spaces them evenly
    await shapes.nth(2).locator('.svc-box-shape-body').click({ modifiers: ['Shift'] });
    await poll(() => alice.editor.locator('.svc-slide-editing .svc-box.is-selected').count()).toBe(3);
    const alignMenu = alice.editor.getByRole('menu', { name: 'Align the selected boxes (one box: on the slide)' });
    await toolbar.getByRole('button', { name: 'Align', exact: true }).click();
    await alignMenu.getByRole('menuitem', { name: 'Align top' }).click();
    await poll(async () => new Set((await framesOf(bobsShapes)).map((frame) => frame.y)).size).toBe(1);
    await toolbar.getByRole('button', { name: 'Align', exact: true }).click();
    await alignMenu.getByRole('menuitem', { name: 'Distribute horizontally' }).click();
    await poll(async () => {
      const frames = (await framesOf(bobsShapes)).sort((a, b) => a.x - b.x);
      const gaps = frames.slice(1).map((frame, index) => frame.x - (frames[index]!.x + frames[index]!.width));
      return Math.max(...gaps) - Math.min(...gaps) <= 1;
    }).toBe(true);
    await alice.page.screenshot({ path: 'docs/images/presentation-align.png' });

    // one undo step takes back the distribution; Delete removes the three at once
    await alice.page.keyboard.press('Control+z');
    await poll(async () => new Set((await framesOf(bobsShapes)).map((frame) => frame.y)).size).toBe(1);
    await shapes.nth(0).focus();
    await alice.page.keyboard.press('Delete');
    await poll(() => bobsShapes.count()).toBe(0);
  }, BROWSER_TEST_TIMEOUT_MS);

  it('Ctrl+G groups boxes: a click on one selects the group, a drag moves it; Ctrl+Shift+G takes it apart', async () => {
    const alice = await openDeck('user-token');
    const toolbar = alice.editor.getByRole('toolbar');
    for (const kind of ['Rectangle', 'Ellipse', 'Rectangle']) await toolbar.getByRole('button', { name: kind }).click();
    const shapes = alice.editor.locator('.svc-slide-editing .svc-box[data-type=shape]');
    await poll(() => shapes.count()).toBe(3);
    const selected = alice.editor.locator('.svc-slide-editing .svc-box.is-selected');
    const surface = alice.editor.locator('.svc-slide-editing');
    const leftOf = (index: number) => shapes.nth(index).evaluate((element) => parseFloat((element as HTMLElement).style.left));

    await shapes.nth(0).locator('.svc-box-shape-body').click();
    await shapes.nth(1).locator('.svc-box-shape-body').click({ modifiers: ['Shift'] });
    await alice.page.keyboard.press('Control+g');
    await surface.click({ position: { x: 5, y: 5 } });
    await poll(() => selected.count()).toBe(0);
    await shapes.nth(1).locator('.svc-box-shape-body').click();
    await poll(() => selected.count()).toBe(2);

    const before = [await leftOf(0), await leftOf(1), await leftOf(2)];
    const body = (await shapes.nth(0).locator('.svc-box-shape-body').boundingBox())!;
    await surface.click({ position: { x: 5, y: 5 } });
    await alice.page.mouse.move(body.x + 10, body.y + 10);
    await alice.page.mouse.down();
    await alice.page.mouse.move(body.x + 10, body.y + 60, { steps: 4 });
    await alice.page.mouse.move(body.x + 30, body.y + 60, { steps: 2 });
    await alice.page.mouse.up();
    await poll(() => leftOf(0)).not.toBe(before[0]);
    expect((await leftOf(1)) - before[1]!).toBe((await leftOf(0)) - before[0]!);
    expect(await leftOf(2)).toBe(before[2]);

    // the Arrange menu offers Ungroup for the selected group
    await toolbar.getByRole('button', { name: 'Arrange' }).click();
    await alice.editor.getByRole('menu', { name: 'Order of the selected box' }).getByRole('menuitem', { name: /^Ungroup/ }).click();
    await surface.click({ position: { x: 5, y: 5 } });
    await shapes.nth(1).locator('.svc-box-shape-body').click();
    await poll(() => selected.count()).toBe(1);
  }, BROWSER_TEST_TIMEOUT_MS);

  it('startDemonstration presents full frame, arrow keys and clicks move, endDemonstration and Escape end it', async () => {
    const alice = await openDeck('user-token');
    await typeInNewBox(alice.page, alice.editor, 'First');
    for (const title of ['Second', 'Third']) {
      await newSlide(alice.editor);
      await typeInFirstBox(alice.page, alice.editor, title);
    }
    // the second slide comes in with a fade
    await alice.editor.locator('.svc-slide-item').nth(1).getByRole('button').click();
    await alice.editor.getByRole('toolbar').getByLabel('Transition of this slide').selectOption({ label: 'Fade' });
    await poll(() => alice.editor.getByRole('toolbar').getByLabel('Transition of this slide').inputValue()).toBe('fade');
    await alice.editor.locator('.svc-slide-item').first().getByRole('button').click();
    await poll(() => alice.editor.getByRole('toolbar').getByLabel('Transition of this slide').inputValue()).toBe('none');

    await alice.page.evaluate(() => (window as unknown as { sdk: { getEditor(): { startDemonstration(): Promise<void> } } }).sdk.getEditor().startDemonstration());
    const presenter = alice.editor.locator('.svc-presenter');
    const counter = presenter.locator('.svc-presenter-counter');
    await poll(() => presenter.isVisible()).toBe(true);
    await poll(() => counter.textContent()).toBe('1 / 3');
    await poll(() => presenter.locator('.svc-box-text').first().textContent()).toBe('First');
    const box = await presenter.boundingBox();
    expect(box?.width).toBeGreaterThan(1200);
    await presenter.press('ArrowRight');
    await poll(() => counter.textContent()).toBe('2 / 3');
    await poll(() => presenter.locator('.svc-box-text').first().textContent()).toBe('Second');
    expect(await presenter.locator('.svc-slide').getAttribute('data-transition')).toBe('fade');
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

    await alice.editor.getByRole('button', { name: 'Present', exact: true }).click();
    await poll(() => counter.textContent()).toBe('2 / 3');
    await presenter.press('Escape');
    await poll(() => presenter.count()).toBe(0);
  }, BROWSER_TEST_TIMEOUT_MS);

  async function storedCrop(): Promise<{ crop: ReturnType<typeof cropOf>; frame: number[] }> {
    const doc = await svc.services.content.read(svc.app.id, 'deck-1');
    const box = (slidesOf(doc).get(0).get('boxes') as Y.Array<Y.Map<unknown>>).toArray().find((each) => each.get('type') === 'image')!;
    return { crop: cropOf(box), frame: ['x', 'y', 'width', 'height'].map((key) => box.get(key) as number) };
  }

  it('crops an image with the keyboard and the mouse; the slide, its thumbnail and the jpg export show only the part kept', async () => {
    const { page, editor } = await openDeck('user-token');
    // a 200×100 picture, red on the left half and blue on the right: placed at its size, centred (380, 220)
    await editor.locator('input[type=file]').setInputFiles({ name: 'halves.png', mimeType: 'image/png', buffer: halvesPng(200, 100, RED, BLUE) });
    const image = editor.locator('.svc-slide-editing .svc-box[data-type=image]');
    await poll(() => image.locator('img').evaluate((element: HTMLImageElement) => element.naturalWidth)).toBe(200);

    const crop = editor.getByRole('toolbar').getByRole('button', { name: 'Crop picture' });
    await image.click();
    // the picture tools take the place of the shape colours while a picture is selected
    await poll(() => crop.isVisible()).toBe(true);
    expect(await editor.getByRole('toolbar').getByLabel('Fill colour').isVisible()).toBe(false);
    await crop.click();
    const cropMode = editor.getByRole('group', { name: /^Crop: drag the handles/ });
    const left = cropMode.getByRole('button', { name: 'Crop the left edge' });
    await poll(() => left.evaluate((element) => element === element.ownerDocument.activeElement)).toBe(true);
    // Escape leaves the picture as it was
    await page.keyboard.press('Escape');
    await poll(() => cropMode.count()).toBe(0);
    expect((await storedCrop()).crop).toBeUndefined();

    // again: the left edge moved 100 points right with the keyboard (Shift: 10 at a time), the top edge 20 points
    // down with the mouse, Enter applies
    await crop.click();
    await poll(() => left.evaluate((element) => element === element.ownerDocument.activeElement)).toBe(true);
    for (let step = 0; step < 10; step++) await page.keyboard.press('Shift+ArrowRight');
    const scale = await editor.locator('.svc-slide-editing').evaluate((surface: HTMLElement) => surface.getBoundingClientRect().width / 960);
    const top = (await cropMode.getByRole('button', { name: 'Crop the top edge' }).boundingBox())!;
    await page.mouse.move(top.x + top.width / 2, top.y + top.height / 2);
    await page.mouse.down();
    await page.mouse.move(top.x + top.width / 2, top.y + top.height / 2 + 20 * scale, { steps: 4 });
    await page.mouse.up();
    await page.screenshot({ path: 'docs/images/presentation-crop-mode.png' });
    await page.keyboard.press('Enter');
    await poll(() => cropMode.count()).toBe(0);
    await poll(async () => (await storedCrop()).crop).toEqual({ left: 0.5, top: 0.2, right: 0, bottom: 0 });
    expect((await storedCrop()).frame).toEqual([480, 240, 100, 80]);

    // the box is the part kept: blue only, on the slide and in its thumbnail
    await poll(() => image.evaluate((element: HTMLElement) => [element.style.left, element.style.top, element.style.width, element.style.height])).toEqual(['480px', '240px', '100px', '80px']);
    await editor.locator('.svc-slide-editing').click({ position: { x: 20, y: 20 } });
    const shot = await image.screenshot();
    const box = (await image.boundingBox())!;
    const colours = await pixelsOf(page, shot, 'image/png', [
      [Math.round(box.width * 0.1), Math.round(box.height * 0.5)],
      [Math.round(box.width * 0.9), Math.round(box.height * 0.5)],
    ]);
    expect(colours.every((colour) => near(colour, BLUE)), JSON.stringify(colours)).toBe(true);
    const thumbnail = editor.locator('.svc-slide-item .svc-box[data-type=image] img');
    await poll(() => thumbnail.evaluate((element: HTMLElement) => element.style.clipPath)).toBe('inset(20% 0% 0% 50%)');
    await page.screenshot({ path: 'docs/images/presentation-cropped.png' });

    // the jpg export (the page the pdf export prints, rendered by Chromium) shows the kept part only: 1.5 pixels a point
    const jpg = (await exportFile(svc, 'deck-1', 'jpg')).bytes;
    const at = (x: number, y: number): [number, number] => [Math.round(x * 1.5), Math.round(y * 1.5)];
    const [inside, leftOfIt, aboveIt] = await pixelsOf(page, jpg, 'image/jpeg', [at(530, 280), at(470, 280), at(530, 235)]);
    expect(near(inside!, BLUE), JSON.stringify(inside)).toBe(true);
    // where the cut-away red half and top would have been: the slide's white background
    expect(near(leftOfIt!, [255, 255, 255]), JSON.stringify(leftOfIt)).toBe(true);
    expect(near(aboveIt!, [255, 255, 255]), JSON.stringify(aboveIt)).toBe(true);
  }, 2 * BROWSER_TEST_TIMEOUT_MS);

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
    await newSlide(alice.editor);
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
    await newSlide(alice.editor);
    await poll(() => slideTitles(alice.editor)).toEqual(['Still here', 'Slide 2', 'Slide 3']);
    await alice.editor.locator('.svc-slide-item').nth(2).getByRole('button').click();
    await alice.editor.getByRole('toolbar').getByRole('button', { name: 'Move slide up' }).click();
    await poll(() => alice.editor.locator('.svc-slide-item').evaluateAll((items: HTMLElement[]) => items.map((item) => item.dataset.slideId === 'bare'))).toEqual([false, false, true]);
    await poll(plainText).toBe('Still here\n\n\n\n');
  }, BROWSER_TEST_TIMEOUT_MS);
});
