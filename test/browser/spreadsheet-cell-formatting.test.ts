import ExcelJS from 'exceljs';
import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { toXlsx } from '../../src/domain/export/converters/xlsx.js';
import { sourceFromState } from '../../src/domain/export/source.js';
import { spreadsheetSuite } from './support/spreadsheet.js';

const suite = spreadsheetSuite();

function css(locator: Locator, property: string): Promise<string> {
  return locator.evaluate((element, name) => getComputedStyle(element).getPropertyValue(name), property);
}

/**
 * A cell's border on one side as drawn: `1px solid` for a thin black line, '' for none. Right and bottom borders
 * take the place of the cell's grid lines; top and left ones are drawn inside it (its ::before).
 */
function border(locator: Locator, side: 'top' | 'right' | 'bottom' | 'left'): Promise<string> {
  return locator.evaluate((element, which) => {
    const drawn = getComputedStyle(element, which === 'top' || which === 'left' ? '::before' : null);
    const colour = drawn.getPropertyValue(`border-${which}-color`);
    const style = drawn.getPropertyValue(`border-${which}-style`);
    return style === 'none' || colour !== 'rgb(0, 0, 0)' ? '' : `${drawn.getPropertyValue(`border-${which}-width`)} ${style}`;
  }, side);
}

describe('everyday cell formatting in the spreadsheet editor (issue 24)', () => {
  it('font, size, wrap and borders from the toolbar reach a collaborator, the first-screen API and the xlsx export', { timeout: 180_000 }, async () => {
    const { svc } = suite;
    svc.integrator.addUser({ id: 'user-2', name: 'Bob', token: 'token-2' });
    await suite.create('formatting-1');
    const alice = await suite.open('formatting-1');
    const bob = await suite.open('formatting-1', 'token-2');
    const [a, b] = [alice.sheet, bob.sheet];
    await a.type('A1', 'Quarterly revenue by region, in thousands');
    for (const [address, value] of [['A2', 'North'], ['B2', '120'], ['A3', 'South'], ['B3', '95'], ['A4', 'Total'], ['B4', '=SUM(B2:B3)']] as const) await a.type(address, value);

    await a.go('A1');
    await a.frame.getByRole('combobox', { name: 'Font', exact: true }).selectOption('Georgia');
    await a.frame.getByRole('combobox', { name: 'Font size (points)' }).selectOption('14');
    await a.frame.getByRole('button', { name: 'Wrap text' }).click();
    await expect.poll(() => css(b.cell(0, 0), 'font-family')).toBe('Georgia');
    await expect.poll(() => css(b.cell(0, 0), 'font-size')).toBe('18.6667px');
    await expect.poll(() => css(b.cell(0, 0), 'white-space')).toBe('pre-wrap');
    await expect.poll(() => a.frame.getByRole('button', { name: 'Wrap text' }).getAttribute('aria-pressed')).toBe('true');

    const borders = a.frame.getByRole('combobox', { name: 'Borders' });
    await a.go('A2:B3');
    await borders.selectOption({ label: 'All borders' });
    await expect.poll(() => border(b.cell(1, 0), 'top')).toBe('1px solid');
    expect(await border(b.cell(2, 1), 'right')).toBe('1px solid');
    // a line between two cells is drawn once: as the right (bottom) border of the cell left of (above) it
    expect(await border(b.cell(1, 1), 'left')).toBe('');
    expect(await border(b.cell(2, 0), 'top')).toBe('');
    expect(await border(b.cell(1, 0), 'right')).toBe('1px solid');
    await a.go('A4:B4');
    await borders.selectOption({ label: 'Bottom border' });
    await expect.poll(() => border(b.cell(3, 1), 'bottom')).toBe('1px solid');
    expect(await border(b.cell(3, 1), 'top')).toBe('');
    // the list goes back to its title, so the same preset can be chosen again
    expect(await borders.inputValue()).toBe('');
    await a.go('D2:E3');
    await borders.selectOption({ label: 'Outside borders' });
    await expect.poll(() => border(b.cell(1, 3), 'left')).toBe('1px solid');
    expect(await border(b.cell(1, 3), 'right')).toBe('');
    expect(await border(b.cell(2, 4), 'bottom')).toBe('1px solid');
    await borders.selectOption({ label: 'No border' });
    await expect.poll(() => border(b.cell(1, 3), 'left')).toBe('');
    await a.go('A6');
    await alice.page.screenshot({ path: '/tmp/shots/spreadsheet-formatting.png' });

    // the first-screen API answers each cell's style as the model keeps it
    const screen = await svc.call('GET', '/sdk/v2/api/files/formatting-1/sheets/first-screen', { query: { rows: '10' } });
    expect(screen.status, screen.text).toBe(200);
    const styleAt = (row: number, column: number) => screen.body.data.cells.find((cell: { row: number; column: number }) => cell.row === row && cell.column === column)?.style;
    expect(styleAt(0, 0)).toEqual({ ff: 'Georgia', fs: 14, w: true });
    const thin = { s: 'thin' };
    expect(styleAt(1, 0)).toEqual({ bt: thin, br: thin, bb: thin, bl: thin });
    expect(styleAt(3, 1)).toEqual({ bb: thin });

    // and the xlsx export writes them as Excel's fonts, wrapping and borders
    const doc = await svc.services.content.read(svc.app.id, 'formatting-1');
    const source = sourceFromState(Y.encodeStateAsUpdate(doc), 'spreadsheet', 'Formatting');
    if (source.kind !== 'workbook') throw new Error('a spreadsheet exports as a workbook');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load((await toXlsx(source, { step: () => undefined })) as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    expect(sheet.getCell('A1').font).toMatchObject({ name: 'Georgia', size: 14 });
    expect(sheet.getCell('A1').alignment).toMatchObject({ wrapText: true });
    expect(sheet.getCell('B3').border).toMatchObject({ top: { style: 'thin' }, right: { style: 'thin' }, bottom: { style: 'thin' }, left: { style: 'thin' } });
    expect(sheet.getCell('B4').border).toEqual({ bottom: { style: 'thin', color: { argb: 'FF000000' } } });

    // each toolbar change is one undo step: undoing "No border" brings the outline back
    await alice.page.keyboard.press('Control+z');
    await expect.poll(() => border(b.cell(1, 3), 'left')).toBe('1px solid');
    expect(alice.errors).toEqual([]);
    expect(bob.errors).toEqual([]);
  });
});
