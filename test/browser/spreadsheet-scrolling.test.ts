import { describe, expect, it } from 'vitest';
import { spreadsheetSuite } from './support/spreadsheet.js';

const suite = spreadsheetSuite();

/** What the grid's rows in view show: each row's number and its cells' texts, with the row each cell is named by. */
function drawnRows(grid: import('playwright-core').Locator) {
  return grid.evaluate((element) =>
    [...element.querySelectorAll<HTMLElement>('.svc-grid-body [role=row]')].map((row) => ({
      header: row.querySelector<HTMLElement>('[role=rowheader]')?.firstChild?.textContent ?? '',
      headerRow: row.querySelector<HTMLElement>('[role=rowheader]')?.dataset.row,
      handleRow: row.querySelector<HTMLElement>('.svc-grid-row-resize')?.dataset.resizeRow,
      cells: [...row.querySelectorAll<HTMLElement>('[role=gridcell]')].map((cell) => ({ row: cell.dataset.row, column: cell.dataset.column, text: cell.textContent, bold: cell.classList.contains('svc-sheet-bold'), color: cell.style.color })),
    })),
  );
}

/** A new spreadsheet of `count` rows (text naming its row, a number, a formula doubling it), opened in the editor. */
async function openRows(fileId: string, count: number) {
  await suite.create(fileId);
  const rows = Array.from({ length: count }, (_, r) => [`row ${r + 1}`, r + 1, `=B${r + 1}*2`]);
  expect((await suite.svc.call('POST', `/sdk/v2/api/files/${fileId}/sheets/values`, { body: { range: `Sheet1!A1:C${count}`, resource: { values: rows } } })).status).toBe(200);
  return suite.open(fileId);
}

describe('spreadsheet grid drawing in a browser', () => {
  it('a jump far down draws the rows that came in into the elements of those that left, each showing its own row', { timeout: 180_000 }, async () => {
    // 3,000 rows; one styled row near the top (its look must not travel)
    const { page, sheet, errors, close } = await openRows('scroll-1', 3000);
    await expect.poll(() => sheet.cell(0, 0).textContent()).toBe('row 1');
    await sheet.go('A3:C3');
    await sheet.frame.getByRole('button', { name: 'Bold' }).click();
    await expect.poll(() => sheet.cell(2, 0).getAttribute('class')).toMatch(/svc-sheet-bold/);

    // the elements drawn around row 1,000 (rows drawn past both edges of the view, as everywhere but the top),
    // tagged, so that the ones drawn after the jump can be told apart
    await sheet.go('A1000');
    await expect.poll(() => sheet.cell(999, 0).textContent()).toBe('row 1000');
    // a jump draws the rows in view in its frame, the margin around them in the next
    await sheet.grid.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    const tagged = await sheet.grid.evaluate((element) => {
      const cells = [...element.querySelectorAll<HTMLElement>('.svc-grid-body [role=gridcell]')];
      for (const cell of cells) (cell as HTMLElement & { drawnAtTop?: boolean }).drawnAtTop = true;
      return cells.length;
    });
    expect(tagged).toBeGreaterThan(30);
    await sheet.frame.locator('.svc-grid-viewport').evaluate((viewport) => {
      viewport.scrollTop = (viewport.scrollHeight - viewport.clientHeight) * 0.8;
    });
    await expect.poll(() => sheet.grid.locator('[role=gridcell][data-row="2400"][data-column="0"]').textContent()).toBe('row 2401');

    const drawn = await drawnRows(sheet.grid);
    expect(drawn.length).toBeGreaterThan(10);
    for (const row of drawn) {
      const index = Number(row.headerRow);
      // the number, the resize handle and every cell name the row drawn now, and show its values
      expect(row.header).toBe(String(index + 1));
      expect(row.handleRow).toBe(String(index));
      expect(row.cells.slice(0, 3).map((cell) => [cell.row, cell.column, cell.text])).toEqual([
        [String(index), '0', `row ${index + 1}`],
        [String(index), '1', String(index + 1)],
        [String(index), '2', String((index + 1) * 2)],
      ]);
      expect(row.cells.slice(3).every((cell) => cell.text === '' && cell.row === String(index))).toBe(true);
      for (const cell of row.cells) expect(cell.bold).toBe(false);
    }
    // none of them was built for the jump (but for a row more in view, as a row may show in part): the rows that
    // left were drawn again as the rows that came in
    const built = await sheet.grid.evaluate((element) =>
      [...element.querySelectorAll<HTMLElement>('.svc-grid-body [role=gridcell]')].filter((cell) => (cell as HTMLElement & { drawnAtTop?: boolean }).drawnAtTop !== true).length,
    );
    expect(built).toBeLessThanOrEqual(drawn[0]!.cells.length);

    // typing there lands in the cell under the selection, the formula reading it follows, and the way back is drawn
    await sheet.type('B2401', '7');
    await expect.poll(() => sheet.grid.locator('[role=gridcell][data-row="2400"][data-column="2"]').textContent()).toBe('14');
    await sheet.go('A1');
    await expect.poll(() => sheet.cell(0, 0).textContent()).toBe('row 1');
    await expect.poll(() => sheet.cell(2, 0).getAttribute('class')).toMatch(/svc-sheet-bold/);
    // the grid names the active cell's element for readers (elements keep their ids whichever cell they draw)
    const activeDescendant = () =>
      sheet.grid.evaluate((element) => {
        const cell = element.ownerDocument.getElementById(element.getAttribute('aria-activedescendant') ?? '');
        return cell && `${cell.dataset.row}:${cell.dataset.column}`;
      });
    expect(await activeDescendant()).toBe('0:0');
    await sheet.go('C2400');
    await expect.poll(activeDescendant).toBe('2399:2');
    const ids = await sheet.grid.locator('[role=gridcell]').evaluateAll((cells) => cells.map((cell) => cell.id));
    expect(new Set(ids).size).toBe(ids.length);
    await sheet.go('A1');
    await expect.poll(() => sheet.cell(3, 0).getAttribute('class')).not.toMatch(/svc-sheet-bold/);
    await page.screenshot({ path: '/tmp/svc-spreadsheet-scrolled.png' });
    expect(errors).toEqual([]);
    await close();
  });
  it('moving the selection marks the cells in and out of it without drawing what they show again', { timeout: 120_000 }, async () => {
    const { page, sheet, errors, close } = await openRows('select-1', 20);
    await expect.poll(() => sheet.cell(2, 2).textContent()).toBe('6');
    // the cells whose text was written since tagText, by the mutation records of their text (a cell drawn again has its
    // text written, even the same text: drawShown sets it)
    const tagText = () =>
      sheet.grid.evaluate((element) => {
        const written = new Set<string>();
        const note = (records: MutationRecord[]) => {
          for (const record of records) {
            const cell = (record.target instanceof Element ? record.target : record.target.parentElement)?.closest<HTMLElement>('[role=gridcell]');
            if (cell) written.add(`${cell.dataset.row}:${cell.dataset.column}`);
          }
        };
        const observer = new MutationObserver(note);
        observer.observe(element, { subtree: true, childList: true, characterData: true });
        (element as HTMLElement & { textsWritten?: () => string[] }).textsWritten = () => {
          note(observer.takeRecords());
          return [...written];
        };
      });
    const redrawn = () => sheet.grid.evaluate((element) => (element as HTMLElement & { textsWritten?: () => string[] }).textsWritten?.() ?? ['not tagged']);
    const selected = () => sheet.grid.evaluate((element) => [...element.querySelectorAll<HTMLElement>('[role=gridcell][aria-selected=true]')].map((cell) => `${cell.dataset.row}:${cell.dataset.column}${cell.classList.contains('svc-grid-cell-selected') ? '' : ' (unmarked)'}`));
    await sheet.go('A1');
    await tagText();
    await sheet.grid.press('ArrowDown');
    await sheet.grid.press('Shift+ArrowRight');
    await expect.poll(selected).toEqual(['1:0', '1:1']);
    expect(await sheet.grid.evaluate((element) => element.querySelectorAll('.svc-grid-cell-selected').length)).toBe(2);
    expect(await redrawn()).toEqual([]);
    // a change of what a cell shows still draws it (and the formula reading it)
    await sheet.type('B2', '5');
    await expect.poll(() => sheet.cell(1, 2).textContent()).toBe('10');
    expect(await redrawn()).toEqual(expect.arrayContaining(['1:1', '1:2']));
    await page.screenshot({ path: '/tmp/svc-spreadsheet-selection.png' });
    expect(errors).toEqual([]);
    await close();
  });
});
