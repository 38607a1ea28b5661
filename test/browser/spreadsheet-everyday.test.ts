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
});
