import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { sheetModels } from '../../src/model/sheets/sheet-model.js';
import { spreadsheetSuite } from './support/spreadsheet.js';

const suite = spreadsheetSuite();

/** A computed CSS property of a locator's element. */
function css(locator: Locator, property: string): Promise<string> {
  return locator.evaluate((element, name) => getComputedStyle(element).getPropertyValue(name), property);
}

describe('spreadsheet cell styles in a browser', () => {
  it('bold, italic, colours and alignment from the toolbar and the shortcuts reach a collaborator, reflect the active cell and undo step by step', { timeout: 120_000 }, async () => {
    const { svc } = suite;
    svc.integrator.addUser({ id: 'user-2', name: 'Bob', token: 'token-2' });
    await suite.create('styles-1');
    const alice = await suite.open('styles-1');
    const bob = await suite.open('styles-1', 'token-2');
    const [a, b] = [alice.sheet, bob.sheet];
    const bold = a.frame.getByRole('button', { name: 'Bold (Ctrl+B)' });
    const italic = a.frame.getByRole('button', { name: 'Italic (Ctrl+I)' });
    const center = a.frame.getByRole('button', { name: 'Align center' });
    await a.type('A1', 'Total');
    await a.type('B1', '42');
    await expect.poll(() => b.cell(0, 1).textContent()).toBe('42');

    // the toolbar gives the selection a style; the active cell's state shows as pressed
    await a.go('A1:B1');
    await bold.click();
    await expect.poll(() => bold.getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => css(b.cell(0, 0), 'font-weight')).toBe('700');
    await expect.poll(() => css(b.cell(0, 1), 'font-weight')).toBe('700');
    // the shortcuts toggle on the active cell's state
    await a.go('A1');
    await alice.page.keyboard.press('Control+i');
    await expect.poll(() => css(b.cell(0, 0), 'font-style')).toBe('italic');
    await expect.poll(() => italic.getAttribute('aria-pressed')).toBe('true');
    await alice.page.keyboard.press('Control+b');
    await expect.poll(() => css(b.cell(0, 0), 'font-weight')).toBe('400');
    await expect.poll(() => bold.getAttribute('aria-pressed')).toBe('false');
    await alice.page.keyboard.press('Control+b');
    await expect.poll(() => css(b.cell(0, 0), 'font-weight')).toBe('700');

    // colours: text on A1, fill on B1:C1 (C1 is empty: the fill shows all the same, and what is typed there later keeps it)
    await a.frame.locator('input[type=color][aria-label="Text colour"]').fill('#c92a2a');
    await expect.poll(() => css(b.cell(0, 0), 'color')).toBe('rgb(201, 42, 42)');
    await a.go('B1:C1');
    await a.frame.locator('input[type=color][aria-label="Fill colour"]').fill('#fff3bf');
    await expect.poll(() => css(b.cell(0, 2), 'background-color')).toBe('rgb(255, 243, 191)');
    await a.type('C1', 'later');
    await expect.poll(() => b.cell(0, 2).textContent()).toBe('later');
    expect(await css(b.cell(0, 2), 'background-color')).toBe('rgb(255, 243, 191)');
    // a number aligns right unless the cell says otherwise
    await expect.poll(() => css(b.cell(0, 1), 'text-align')).toBe('right');
    await a.go('B1');
    await center.click();
    await expect.poll(() => css(b.cell(0, 1), 'text-align')).toBe('center');
    await expect.poll(() => center.getAttribute('aria-pressed')).toBe('true');
    // writing a new value or clearing it keeps the style
    await a.type('B1', '43');
    await a.go('B1');
    await alice.page.keyboard.press('Delete');
    await expect.poll(() => b.cell(0, 1).textContent()).toBe('');
    await a.type('B1', '44');
    await expect.poll(() => b.cell(0, 1).textContent()).toBe('44');
    expect(await css(b.cell(0, 1), 'text-align')).toBe('center');
    expect(await css(b.cell(0, 1), 'font-weight')).toBe('700');
    await a.go('B1');
    await expect.poll(() => center.getAttribute('aria-pressed')).toBe('true');
    await a.go('D4');
    await expect.poll(() => bold.getAttribute('aria-pressed')).toBe('false');
    await expect.poll(() => center.getAttribute('aria-pressed')).toBe('false');
    await a.go('A1');
    await alice.page.screenshot({ path: '/tmp/shots/spreadsheet-styles.png' });
    await bob.page.screenshot({ path: '/tmp/shots/spreadsheet-styles-bob.png' });

    // each change is one undo step: the three value edits of B1 (44, cleared, 43), then the alignment, the
    // value typed into C1 and the fill
    for (let step = 0; step < 2; step++) await alice.page.keyboard.press('Control+z');
    await expect.poll(() => b.cell(0, 1).textContent()).toBe('43');
    await alice.page.keyboard.press('Control+z');
    await expect.poll(() => b.cell(0, 1).textContent()).toBe('42');
    expect(await css(b.cell(0, 1), 'text-align')).toBe('center');
    await alice.page.keyboard.press('Control+z');
    await expect.poll(() => css(b.cell(0, 1), 'text-align')).toBe('right');
    await alice.page.keyboard.press('Control+z');
    await expect.poll(() => b.cell(0, 2).textContent()).toBe('');
    expect(await css(b.cell(0, 2), 'background-color')).toBe('rgb(255, 243, 191)');
    await alice.page.keyboard.press('Control+z');
    await expect.poll(() => css(b.cell(0, 2), 'background-color')).toBe('rgb(255, 255, 255)');
    expect(await css(b.cell(0, 0), 'color')).toBe('rgb(201, 42, 42)');
    expect([...alice.errors, ...bob.errors]).toEqual([]);
    await alice.close();
    await bob.close();
  });
  it('a whole row\'s and a whole column\'s style show on their empty cells and in the style bar; bolding a cell of a filled row keeps the fill', { timeout: 120_000 }, async () => {
    const { svc } = suite;
    await suite.create('styles-lines');
    // as an xlsx import leaves them (the editor has no control for line styles)
    await svc.services.content.change(svc.app.id, 'styles-lines', { userId: 'editor' }, (doc) => {
      const sheet = sheetModels(doc)[0]!;
      sheet.setLineStyle('rows', 2, { bg: '#fff3bf' });
      sheet.setLineStyle('columns', 4, { b: true });
    });
    const alice = await suite.open('styles-lines');
    const a = alice.sheet;
    const bold = a.frame.getByRole('button', { name: 'Bold (Ctrl+B)' });
    await expect.poll(() => css(a.cell(2, 1), 'background-color')).toBe('rgb(255, 243, 191)');
    await a.type('E7', 'in the bold column');
    await expect.poll(() => css(a.cell(6, 4), 'font-weight')).toBe('700');
    await a.go('E7');
    await expect.poll(() => bold.getAttribute('aria-pressed')).toBe('true');
    await a.go('B3');
    await expect.poll(() => bold.getAttribute('aria-pressed')).toBe('false');
    await alice.page.keyboard.press('Control+b');
    await expect.poll(() => bold.getAttribute('aria-pressed')).toBe('true');
    await a.type('B3', 'bold on the fill');
    await expect.poll(() => css(a.cell(2, 1), 'font-weight')).toBe('700');
    expect(await css(a.cell(2, 1), 'background-color')).toBe('rgb(255, 243, 191)');
  });
});
