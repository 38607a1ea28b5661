import { describe, expect, it } from 'vitest';
import { spreadsheetSuite } from './support/spreadsheet.js';

const VALUES = '/sdk/v2/api/files/calc-1/sheets/values';

const suite = spreadsheetSuite();

describe('spreadsheet formulas in a browser', () => {
  it('computes formulas typed in the page, and recomputes them when the values API writes their inputs; bad formulas show errors', async () => {
    const { svc } = suite;
    await suite.create('calc-1');
    const { page, sheet, errors } = await suite.open('calc-1');
    await sheet.type('A1', '1');
    await sheet.type('A2', '2');
    await sheet.type('A3', '3');
    await sheet.type('B1', '=SUM(A1:A3)');
    await expect.poll(() => sheet.cell(0, 1).textContent()).toBe('6');
    // the formula bar shows the formula, the cell its value
    await sheet.go('B1');
    expect(await sheet.formula.inputValue()).toBe('=SUM(A1:A3)');
    // the values API reads it computed, by the same engine, and as its formula
    await expect.poll(async () => (await svc.call('GET', VALUES, { query: { range: 'B1' } })).body.data?.values).toEqual([[6]]);
    expect((await svc.call('GET', VALUES, { query: { range: 'B1', valueRenderOption: 'FORMULA' } })).body.data?.values).toEqual([['=SUM(A1:A3)']]);

    // a value written through the API reaches the open page and the formula follows it
    const written = await svc.call('POST', VALUES, { body: { range: 'A2', resource: { values: [[40]] } } });
    expect(written.status).toBe(200);
    await expect.poll(() => sheet.cell(1, 0).textContent()).toBe('40');
    await expect.poll(() => sheet.cell(0, 1).textContent()).toBe('44');
    expect((await svc.call('GET', VALUES, { query: { range: 'B1' } })).body.data?.values).toEqual([[44]]);

    // a formula that does not parse is refused as Excel refuses it: the page says why, the typing stays for fixing
    await sheet.type('C1', '=SUM(A1:');
    const notice = sheet.frame.getByRole('alert');
    await expect.poll(() => notice.textContent()).toContain("There's a problem with this formula");
    const editing = sheet.frame.locator('.svc-grid-input');
    expect(await editing.inputValue()).toBe('=SUM(A1:');
    await page.screenshot({ path: `${process.env.SHOTS_DIR ?? '/tmp/shots-formulas'}/formula-refused.png` }).catch(() => undefined);
    await page.keyboard.press('Escape');
    expect(await sheet.cell(0, 2).textContent()).toBe('');
    // cancelled as it says, the notice goes with the typing (at once, not when its seconds are up)
    expect(await notice.isHidden()).toBe(true);
    // dividing by zero, unknown names, cycles: an error in the cell, the page goes on
    await sheet.type('C2', '=1/0');
    await sheet.type('C3', '=NOSUCH(1)');
    await sheet.type('D1', '=D2+1');
    await sheet.type('D2', '=D1+1');
    await sheet.type('C4', '=Z99999999');
    await expect.poll(() => sheet.cell(1, 2).textContent()).toBe('#DIV/0!');
    await expect.poll(() => sheet.cell(2, 2).textContent()).toBe('#NAME?');
    await expect.poll(() => sheet.cell(0, 3).textContent()).toBe('#REF!');
    await expect.poll(() => sheet.cell(3, 2).textContent()).toBe('#REF!');
    // a date function typed into a General cell shows a date, as in Excel; a division stays a number
    await sheet.type('F1', '=DATE(2024,3,15)');
    await sheet.type('F2', '=F1+7');
    await sheet.type('F3', '=6/8');
    await expect.poll(() => sheet.cell(0, 5).textContent()).toBe('2024-03-15');
    await expect.poll(() => sheet.cell(1, 5).textContent()).toBe('2024-03-22');
    await expect.poll(() => sheet.cell(2, 5).textContent()).toBe('0.75');
    await sheet.type('E1', 'still editing');
    await expect.poll(() => sheet.cell(0, 4).textContent()).toBe('still editing');
    // a row inserted above moves the cells and the formulas' references; undo is this user's
    await sheet.go('A1');
    await sheet.frame.getByRole('button', { name: 'Insert row above' }).click();
    await expect.poll(() => sheet.cell(1, 1).textContent()).toBe('44');
    await sheet.go('B2');
    expect(await sheet.formula.inputValue()).toBe('=SUM(A2:A4)');
    await sheet.go('A1');
    await page.keyboard.press('Control+Z');
    await expect.poll(() => sheet.cell(0, 1).textContent()).toBe('44');
    // one step only: the cells typed just before the insertion stay (however quickly they were typed)
    expect(await sheet.cell(0, 4).textContent()).toBe('still editing');
    await sheet.go('A2:A3');
    await sheet.frame.getByRole('button', { name: 'Delete rows' }).click();
    // A2:A3 are gone: the sum's range shrinks to A1, the cells below move up
    await expect.poll(() => sheet.cell(0, 1).textContent()).toBe('1');
    expect(await sheet.call('getRowCount')).toBe(998);
    await page.screenshot({ path: '/tmp/shots/spreadsheet-formulas.png' });
    // Enter confirmed the last cell and moved down, without opening an editor there
    expect(await sheet.frame.locator('.svc-grid-editor').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('computes twenty everyday Excel functions typed in the page, as the values API reads them (issue 23)', { timeout: 120_000 }, async () => {
    const { svc } = suite;
    await suite.create('calc-2');
    const { page, sheet, errors } = await suite.open('calc-2');
    const everyday: Array<[string, string]> = [
      ['=AVERAGE(A1:A3)', '20'],
      ['=ROUND(PI(),2)', '3.14'],
      ['=TEXT(1234.5,"#,##0.00")', '1,234.50'],
      ['=INDEX(A1:A3,2)', '20'],
      ['=MATCH(30,A1:A3,0)', '3'],
      ['=SUMIFS(A1:A3,A1:A3,">15")', '50'],
      ['=COUNTIFS(A1:A3,">15")', '2'],
      ['=SUMPRODUCT(A1:A3,A1:A3)', '1400'],
      ['=MEDIAN(A1:A3)', '20'],
      ['=LEFT("spreadsheet",6)', 'spread'],
      ['=MID("spreadsheet",7,5)', 'sheet'],
      ['=SUBSTITUTE("a-b","-","+")', 'a+b'],
      ['=TEXTJOIN("/",TRUE,A1:A3)', '10/20/30'],
      ['=ROW()', '14'],
      ['=SIN(0)', '0'],
      ['=ISNA(NA())', 'TRUE'],
      // shown as a date, as Excel formats DATE's result in a General cell; the values API reads the serial number
      ['=DATE(2024,3,15)', '2024-03-15'],
      ['=ROUND(PMT(0.05/12,360,-200000),2)', '1073.64'],
      ['=IFS(A1>5,"big",TRUE,"small")', 'big'],
      ['=_xlfn.SWITCH(2,1,"one",2,"two")', 'two'],
    ];
    await sheet.type('A1', '10');
    await sheet.type('A2', '20');
    await sheet.type('A3', '30');
    for (const [index, [formula]] of everyday.entries()) await sheet.type(`B${index + 1}`, formula);
    for (const [index, [, shown]] of everyday.entries()) await expect.poll(() => sheet.cell(index, 1).textContent()).toBe(shown);
    const read = await svc.call('GET', '/sdk/v2/api/files/calc-2/sheets/values', { query: { range: 'B1:B20' } });
    expect(read.body.data?.values?.map((row: unknown[]) => String(row[0]).replace(/^true$/, 'TRUE'))).toEqual(everyday.map(([formula, shown]) => (formula.startsWith('=DATE(') ? '45366' : shown)));
    await page.screenshot({ path: '/tmp/shots/spreadsheet-everyday-functions.png' });
    expect(errors).toEqual([]);
  });
});
