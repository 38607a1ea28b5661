import { mkdirSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { spreadsheetSuite } from './support/spreadsheet.js';
import { importAndWait } from '../import/support.js';

const suite = spreadsheetSuite();

/**
 * Freeze (docs/SHEETS.md "Frozen rows"): the rows above the selection stay in view as the sheet scrolls, for every
 * collaborator, as Excel's Freeze Panes keeps them; pressed again, the sheet scrolls whole.
 */
describe('spreadsheet frozen rows and an imported workbook\'s look in a browser', () => {
  it('freezes the rows above the selection, keeps them in view while scrolling, and lets go of them', { timeout: 240_000 }, async () => {
    const { svc } = suite;
    svc.integrator.addUser({ id: 'user-2', name: 'Bob', token: 'token-2' });
    await suite.create('freeze-1');
    const values = Array.from({ length: 80 }, (_, row) => [row < 3 ? `Header ${row + 1}` : `Row ${row + 1}`, row * 10]);
    expect((await svc.call('POST', '/sdk/v2/api/files/freeze-1/sheets/values', { body: { range: 'A1:B80', resource: { values } } })).status).toBe(200);
    const alice = await suite.open('freeze-1');
    const bob = await suite.open('freeze-1', 'token-2');
    const [a, b] = [alice.sheet, bob.sheet];
    const freeze = a.frame.getByRole('button', { name: 'Freeze rows above the selection' });
    const frozenRows = (sheet: typeof a) => sheet.grid.locator('.svc-grid-frozen [role=rowheader]').count();
    await expect.poll(() => a.cell(2, 0).textContent()).toBe('Header 3');

    // B4 selected: rows 1-3 freeze, for Bob too
    await a.go('B4');
    await freeze.click();
    await expect.poll(() => freeze.getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => frozenRows(a)).toBe(3);
    await expect.poll(() => frozenRows(b)).toBe(3);

    // scrolled down, the three rows stay under the column headers and row 40 shows right below them
    await a.grid.locator('.svc-grid-viewport').evaluate((element) => {
      element.scrollTop = 36 * 24;
    });
    await expect.poll(() => a.cell(39, 0).textContent()).toBe('Row 40');
    const top = async (row: number) => (await a.cell(row, 0).boundingBox())?.y ?? -1;
    const header = (await a.grid.locator('[role=columnheader][data-column="0"]').boundingBox())!;
    // (a cell's box starts at its one-pixel grid line)
    await expect.poll(async () => Math.abs((await top(0)) - (header.y + header.height))).toBeLessThanOrEqual(1);
    await expect.poll(async () => (await top(2)) + 24).toBeLessThanOrEqual(await top(39));
    expect(await a.cell(2, 0).isVisible()).toBe(true);
    mkdirSync('/tmp/shots', { recursive: true });
    await alice.page.screenshot({ path: '/tmp/shots/spreadsheet-freeze-scrolled.png' });

    // pressed again: nothing frozen, for both
    await freeze.click();
    await expect.poll(() => freeze.getAttribute('aria-pressed')).toBe('false');
    await expect.poll(() => frozenRows(b)).toBe(0);

    // with the selection in row 1, the first row freezes (as the button did before it followed the selection)
    await a.go('C1');
    await freeze.click();
    await expect.poll(() => frozenRows(b)).toBe(1);
    await bob.page.screenshot({ path: '/tmp/shots/spreadsheet-freeze-first-row.png' });
    expect([...alice.errors, ...bob.errors]).toEqual([]);
    await alice.close();
    await bob.close();
  });

  it('an Excel workbook shows its theme fills, filled empty cells and borders, frozen rows and hidden rows', { timeout: 240_000 }, async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Budget', { views: [{ state: 'frozen', ySplit: 2 }] });
    sheet.getRow(1).values = ['Budget 2026', '', '', ''];
    sheet.getRow(2).values = ['Item', 'Q1', 'Q2', 'Total'];
    for (let row = 3; row <= 60; row++) sheet.getRow(row).values = [`Item ${row - 2}`, row, row * 2, { formula: `B${row}+C${row}`, result: row * 3 }];
    const accent = (theme: number, tint: number): ExcelJS.Fill => ({ type: 'pattern', pattern: 'solid', fgColor: { theme, tint } as unknown as ExcelJS.Color });
    for (const column of ['A', 'B', 'C', 'D']) {
      // the title row: accent 1 lighter 40 % on every cell, only A1 holding text
      sheet.getCell(`${column}1`).fill = accent(4, 0.3999755851924192);
      sheet.getCell(`${column}2`).fill = accent(4, 0.7999816888943144);
      sheet.getCell(`${column}2`).border = { bottom: { style: 'medium', color: { theme: 4, tint: -0.249977111117893 } as unknown as ExcelJS.Color } };
    }
    // an empty band under the table, filled with accent 6 lighter 80 %
    for (const column of ['A', 'B', 'C', 'D']) sheet.getCell(`${column}62`).fill = accent(9, 0.7999816888943144);
    sheet.getRow(5).hidden = true;
    const data = new Uint8Array(await book.xlsx.writeBuffer());
    await importAndWait(suite.svc, { fileId: 'budget-xlsx', type: 'spreadsheet' }, { name: 'budget.xlsx', data });
    // the filled empty band is no value: the values API stops at the table's last row
    const read = await suite.svc.call('GET', '/sdk/v2/api/files/budget-xlsx/sheets/values', { query: { range: 'A60:D64' } });
    expect(read.body.data.values).toEqual([['Item 58', 60, 120, 180]]);
    const opened = await suite.open('budget-xlsx');
    const { sheet: view } = opened;
    await expect.poll(() => view.cell(0, 0).textContent()).toBe('Budget 2026');
    const background = (row: number, column: number) => view.cell(row, column).evaluate((cell) => getComputedStyle(cell).backgroundColor);
    // Excel's swatches: #95B3D7, #DCE6F1 and #FDE9D9 of the Office 2007 theme exceljs writes
    expect(await background(0, 3)).toBe('rgb(149, 179, 215)');
    expect(await background(1, 1)).toBe('rgb(220, 230, 241)');
    expect(await view.cell(1, 1).evaluate((cell) => getComputedStyle(cell).borderBottomColor)).toBe('rgb(54, 96, 146)');
    expect(await view.grid.locator('.svc-grid-frozen [role=rowheader]').count()).toBe(2);
    expect(await view.frame.getByRole('button', { name: 'Freeze rows above the selection' }).getAttribute('aria-pressed')).toBe('true');
    // row 5 is hidden: row 4's next row on screen is row 6
    expect(await view.grid.locator('[role=rowheader][data-row="4"]').count()).toBe(0);
    await view.grid.locator('.svc-grid-viewport').evaluate((element) => {
      element.scrollTop = 40 * 24;
    });
    await expect.poll(() => background(61, 2)).toBe('rgb(253, 233, 217)');
    mkdirSync('/tmp/shots', { recursive: true });
    await opened.page.screenshot({ path: '/tmp/shots/spreadsheet-imported-xlsx-scrolled.png' });
    await view.grid.locator('.svc-grid-viewport').evaluate((element) => {
      element.scrollTop = 0;
    });
    await opened.page.screenshot({ path: '/tmp/shots/spreadsheet-imported-xlsx.png' });
    expect(opened.errors).toEqual([]);
    await opened.close();
  });
});
