import type { FrameLocator, Page } from 'playwright-core';

// apart from spreadsheet.ts, which registers vitest hooks: benchmarks (bench/spreadsheet.ts) drive the editor too

/** The spreadsheet editor inside the host page's iframe, as a user (and a screen reader) sees it. */
export function sheetIn(page: Page) {
  const frame: FrameLocator = page.frameLocator('iframe');
  const grid = frame.getByRole('grid');
  return {
    frame,
    grid,
    formula: frame.getByRole('textbox', { name: /Cell content|单元格内容/ }),
    nameBox: frame.getByRole('textbox', { name: /Selected cell|所选单元格/ }),
    /** a cell by its A1 address, e.g. `B2` (read through the grid roles: column header letters and row numbers) */
    cell: (row: number, column: number) => grid.locator(`[role=gridcell][data-row="${row}"][data-column="${column}"]`),
    /** selects a cell by typing its address in the name box */
    async go(address: string): Promise<void> {
      const nameBox = frame.getByRole('textbox', { name: /Selected cell|所选单元格/ });
      await nameBox.fill(address);
      await nameBox.press('Enter');
    },
    /** types into the selected cell as a user does and confirms with Enter */
    async type(address: string, text: string): Promise<void> {
      await this.go(address);
      await page.keyboard.type(text);
      await page.keyboard.press('Enter');
    },
    /** calls an SDK editor method in the host page */
    call<T = unknown>(method: string, ...args: unknown[]): Promise<T> {
      return page.evaluate(
        ([name, values]) => {
          const editor = (window as unknown as { sdk: { getEditor(): Record<string, (...a: unknown[]) => Promise<unknown>> } }).sdk.getEditor();
          return editor[name as string]!(...(values as unknown[])) as Promise<T>;
        },
        [method, args] as const,
      );
    },
  };
}
