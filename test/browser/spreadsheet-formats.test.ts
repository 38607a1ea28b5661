import { describe, expect, it } from 'vitest';
import { sheetModels } from '../../src/model/sheets/sheet-model.js';
import { spreadsheetSuite } from './support/spreadsheet.js';

const VALUES = '/sdk/v2/api/files/formats-1/sheets/values';

const suite = spreadsheetSuite();

describe('spreadsheet number formats in a browser', () => {
  it('a format picked in the toolbar shows in the cells and reaches the values API; typed dates and percentages keep their form', async () => {
    const { svc } = suite;
    await suite.create('formats-1');
    const { page, sheet, errors } = await suite.open('formats-1');
    const picker = sheet.frame.getByRole('combobox', { name: 'Number format' });
    // the list holds the real formats only: no empty line at its end
    const optionTexts = () => picker.locator('option').allTextContents();
    await expect.poll(async () => (await optionTexts()).length).toBe(10);
    expect((await optionTexts()).filter((text) => text.trim() === '')).toEqual([]);
    await sheet.type('A1', '1234.5');
    await sheet.type('A2', '0.256');
    await sheet.type('A3', '=A1*2');
    await expect.poll(() => sheet.cell(2, 0).textContent()).toBe('2469');

    await sheet.go('A1:A3');
    await picker.selectOption('number');
    await expect.poll(() => sheet.cell(0, 0).textContent()).toBe('1,234.50');
    await expect.poll(() => sheet.cell(1, 0).textContent()).toBe('0.26');
    await expect.poll(() => sheet.cell(2, 0).textContent()).toBe('2,469.00');
    await sheet.go('A2');
    await expect.poll(() => picker.inputValue()).toBe('number');
    await picker.selectOption('percent');
    await expect.poll(() => sheet.cell(1, 0).textContent()).toBe('25.60%');
    // the stored values do not change; the values API reads them raw or as shown
    await expect.poll(async () => (await svc.call('GET', VALUES, { query: { range: 'A1:A3' } })).body.data?.values).toEqual([[1234.5], [0.256], [2469]]);
    expect((await svc.call('GET', VALUES, { query: { range: 'A1:A3', valueRenderOption: 'FORMATTED_VALUE' } })).body.data?.values).toEqual([['1,234.50'], ['25.60%'], ['2,469.00']]);

    // typing into a formatted cell keeps its format; a date or a percentage typed into a General cell gets one
    await sheet.type('A1', '99');
    await expect.poll(() => sheet.cell(0, 0).textContent()).toBe('99.00');
    await sheet.type('B1', '2024-03-15');
    await sheet.type('B2', '12.5%');
    await expect.poll(() => sheet.cell(0, 1).textContent()).toBe('2024-03-15');
    await expect.poll(() => sheet.cell(1, 1).textContent()).toBe('12.5%');
    await sheet.go('B1');
    await expect.poll(() => picker.inputValue()).toBe('date');
    // the formula bar shows the date as typed, and the values API the serial number (docs/SHEETS.md "Dates")
    expect(await sheet.formula.inputValue()).toBe('2024-03-15');
    await expect.poll(async () => (await svc.call('GET', VALUES, { query: { range: 'B1:B2' } })).body.data?.values).toEqual([[45366], [0.125]]);
    // General takes the format away again
    await sheet.go('A1');
    await picker.selectOption('general');
    await expect.poll(() => sheet.cell(0, 0).textContent()).toBe('99');
    // a format from elsewhere (an imported workbook) shows, and the picker names it as custom
    await svc.services.content.change(svc.app.id, 'formats-1', { userId: 'importer', name: 'Importer' }, (doc) => {
      sheetModels(doc)[0]!.setCell(0, 2, { v: 7, z: '0.000;(0.000)' });
    });
    await expect.poll(() => sheet.cell(0, 2).textContent()).toBe('7.000');
    await sheet.go('C1');
    await expect.poll(() => picker.inputValue()).toBe('custom');
    expect(await picker.locator('option[value="custom"]').textContent()).toBe('Custom: 0.000;(0.000)');
    // and leaves the list when a cell with a format of the list is active again
    await sheet.go('A1');
    await expect.poll(() => picker.inputValue()).toBe('general');
    expect(await optionTexts()).not.toContain('Custom: 0.000;(0.000)');
    expect(await optionTexts()).toHaveLength(10);
    await page.screenshot({ path: '/tmp/shots/spreadsheet-formats.png' });
    expect(errors).toEqual([]);
  });
});
