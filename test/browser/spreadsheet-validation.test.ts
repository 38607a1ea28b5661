import { describe, expect, it } from 'vitest';
import { spreadsheetSuite } from './support/spreadsheet.js';

const suite = spreadsheetSuite();

/** Data validation in the spreadsheet editor (docs/SHEETS.md "Data validation", docs/BROWSER.md "Spreadsheet"). */
describe('data validation in the spreadsheet editor', () => {
  it('sets a list rule from the menu, offers its values in a picker, refuses other input and pastes under stop, asks under warning', { timeout: 180_000 }, async () => {
    const { svc } = suite;
    await suite.create('validation-1');
    const values = '/sdk/v2/api/files/validation-1/sheets/values';
    expect((await svc.call('POST', values, { body: { range: 'D1:D3', resource: { values: [['North'], ['South'], ['East']] } } })).status).toBe(200);
    const read = async (range: string) => (await svc.call('GET', values, { query: { range } })).body.data?.values;
    const { page, sheet, errors, close } = await suite.open('validation-1');
    await expect.poll(() => sheet.cell(0, 3).textContent(), { timeout: 20_000 }).toBe('North');

    // the right-click menu opens the dialog for the selection: a list from a range
    await sheet.go('A1:A5');
    await sheet.cell(1, 0).click({ button: 'right' });
    await sheet.frame.getByRole('menu', { name: 'Cell actions' }).getByRole('menuitem', { name: 'Data validation…' }).click();
    const dialog = sheet.frame.getByRole('dialog', { name: 'Data validation' });
    await expect.poll(() => dialog.isVisible(), { timeout: 20_000 }).toBe(true);
    await dialog.getByLabel('Allow').selectOption('list');
    await dialog.getByLabel('Source').fill('=$D$1:$D$3');
    await dialog.getByLabel('Input message').fill('Pick a region');
    await page.screenshot({ path: 'docs/images/spreadsheet-validation-dialog.png' });
    await dialog.getByRole('button', { name: 'OK' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);

    // each cell of the rule shows a ▾; its picker lists the source's values, and a pick is stored
    const arrow = sheet.frame.getByRole('button', { name: 'Choose a value for A2' });
    await expect.poll(() => arrow.isVisible(), { timeout: 20_000 }).toBe(true);
    expect(await sheet.cell(1, 0).getAttribute('title')).toBe('Pick a region');
    await arrow.click();
    const picker = sheet.frame.getByRole('listbox', { name: 'Choose a value for A2' });
    await expect.poll(() => picker.getByRole('option').allTextContents(), { timeout: 20_000 }).toEqual(['North', 'South', 'East']);
    await page.screenshot({ path: 'docs/images/spreadsheet-validation-list.png' });
    await picker.getByRole('option', { name: 'South' }).click();
    await expect.poll(() => read('A2'), { timeout: 20_000 }).toEqual([['South']]);

    // typed input outside the list is refused under "stop": the default message shows and the typing stays open
    await sheet.go('A3');
    await page.keyboard.type('West');
    await page.keyboard.press('Enter');
    const notice = sheet.frame.getByRole('alert');
    await expect.poll(() => notice.textContent(), { timeout: 20_000 }).toBe('This value does not match the data validation rule of this cell.');
    const input = sheet.frame.locator('.svc-grid-input');
    await expect.poll(() => input.inputValue()).toBe('West');
    await input.fill('north');
    await page.keyboard.press('Enter');
    await expect.poll(() => read('A3'), { timeout: 20_000 }).toEqual([['north']]);

    // a paste that would put a value the stop rule refuses is refused whole, the notice naming the cell
    await sheet.frame.locator('body').evaluate(() => navigator.clipboard.writeText('North\nWest'));
    await sheet.go('A4');
    await page.keyboard.press('Control+V');
    await expect
      .poll(() => notice.textContent(), { timeout: 20_000 })
      .toBe('Nothing was changed: A5 would break its data validation rule. This value does not match the data validation rule of this cell.');
    expect(await read('A4:A5')).toEqual([]);

    // a whole-number rule under "warning" with its own message: the person is asked, and may keep the value
    await sheet.go('B1:B5');
    await sheet.frame.getByRole('toolbar').getByRole('button', { name: 'Data validation', exact: true }).click();
    await expect.poll(() => dialog.isVisible(), { timeout: 20_000 }).toBe(true);
    await dialog.getByLabel('Allow').selectOption('whole');
    await dialog.getByLabel(/^Data/).selectOption('between');
    await dialog.getByLabel('Minimum / value').fill('1');
    await dialog.getByLabel('Maximum').fill('10');
    await dialog.getByLabel('On invalid data').selectOption('warning');
    await dialog.getByLabel('Error message').fill('Scores run from 1 to 10.');
    await dialog.getByRole('button', { name: 'OK' }).click();
    const asked: string[] = [];
    page.on('dialog', (question) => {
      asked.push(question.message());
      void question.accept();
    });
    await sheet.type('B2', '50');
    await expect.poll(() => read('B2'), { timeout: 20_000 }).toEqual([[50]]);
    expect(asked[0]).toContain('Scores run from 1 to 10.');
    expect(asked[0]).toContain('Keep this value anyway?');
    expect(errors).toEqual([]);
    await close();

    // in Chinese, the default refusal is in Chinese
    const zh = await suite.open('validation-1', undefined, 'zh-CN');
    await expect.poll(() => zh.sheet.cell(1, 0).textContent(), { timeout: 20_000 }).toBe('South');
    await zh.sheet.type('A4', 'West');
    await expect.poll(() => zh.sheet.frame.getByRole('alert').textContent(), { timeout: 20_000 }).toBe('此值与此单元格定义的数据验证限制不匹配。');
    expect(await read('A4')).toEqual([]);
    expect(zh.errors).toEqual([]);
    await zh.close();
  });
});
