import { describe, expect, it } from 'vitest';
import { spreadsheetSuite } from './support/spreadsheet.js';

const suite = spreadsheetSuite();

describe('spreadsheet editor everyday behaviour in a browser', () => {
  it('Tab … Enter goes to the next row of the column the run started in; Escape restores the formula bar', async () => {
    await suite.create('everyday-keys');
    const { page, sheet, errors } = await suite.open('everyday-keys');
    await sheet.go('B2');
    for (const line of [['Name', 'Qty', 'Price'], ['Tea', '2', '3.5']]) {
      await page.keyboard.type(line[0]!);
      for (const value of line.slice(1)) {
        await page.keyboard.press('Tab');
        await page.keyboard.type(value);
      }
      await page.keyboard.press('Enter');
    }
    await expect.poll(() => sheet.nameBox.inputValue()).toBe('B4');
    expect(await sheet.cell(2, 1).textContent()).toBe('Tea');
    expect(await sheet.cell(2, 3).textContent()).toBe('3.5');
    // a move of its own ends the run: Enter then goes straight down
    await sheet.go('B6');
    await page.keyboard.press('Tab');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.type('x');
    await page.keyboard.press('Enter');
    await expect.poll(() => sheet.nameBox.inputValue()).toBe('D7');

    await sheet.go('B2');
    await page.keyboard.type('Changed');
    await expect.poll(() => sheet.formula.inputValue()).toBe('Changed');
    await page.keyboard.press('Escape');
    expect(await sheet.formula.inputValue()).toBe('Name');
    expect(await sheet.cell(1, 1).textContent()).toBe('Name');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('scrolled right, the first column shown starts at the row numbers, and no selection shows over them', async () => {
    await suite.create('everyday-scroll');
    const { page, sheet, errors } = await suite.open('everyday-scroll');
    await page.setViewportSize({ width: 1000, height: 500 });
    await sheet.go('A1');
    for (let step = 0; step < 13; step++) await page.keyboard.press('ArrowRight');
    await expect.poll(() => sheet.nameBox.inputValue()).toBe('N1');
    const numbersEdge = async () => {
      const box = (await sheet.grid.getByRole('rowheader').first().boundingBox())!;
      return box.x + box.width;
    };
    const edge = await numbersEdge();
    // every column header is either wholly under the row numbers or starts at their edge or right of it
    const headers = await sheet.grid.getByRole('columnheader').evaluateAll((nodes) => nodes.map((node) => node.getBoundingClientRect()).map(({ left, right }) => ({ left, right })));
    const slivers = headers.filter(({ left, right }) => right > edge + 1 && left < edge - 1);
    expect(slivers).toEqual([]);
    await page.screenshot({ path: '/tmp/shots/spreadsheet-scrolled.png' });

    // a selection scrolled under the row numbers stays under them
    await sheet.go('A1');
    await sheet.cell(5, 4).hover();
    await page.mouse.wheel(60, 0);
    await expect.poll(() => sheet.frame.locator('.svc-grid-viewport').evaluate((viewport) => viewport.scrollLeft)).toBeGreaterThan(20);
    const rowNumber = (await sheet.grid.getByRole('rowheader', { name: '1', exact: true }).boundingBox())!;
    const topmost = await sheet.frame.locator('body').evaluate(
      (_body, point) => document.elementFromPoint(point.x, point.y)?.getAttribute('role'),
      { x: rowNumber.x + rowNumber.width - 3, y: rowNumber.y + rowNumber.height / 2 },
    );
    expect(topmost).toBe('rowheader');
    expect(errors).toEqual([]);
    await page.close();
  });
});
