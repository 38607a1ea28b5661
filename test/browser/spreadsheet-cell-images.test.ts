import { describe, expect, it } from 'vitest';
import { png } from '../attachments/images.js';
import { spreadsheetSuite } from './support/spreadsheet.js';

const suite = spreadsheetSuite();

describe('images in spreadsheet cells in a browser', () => {
  it('an image put in a cell through the API shows at once as a thumbnail fitted in the cell, before its value', async () => {
    const { svc } = suite;
    await suite.create('images-1');
    const written = await svc.call('POST', '/sdk/v2/api/files/images-1/sheets/values', { body: { range: 'Sheet1!A1:B2', resource: { values: [['Product', 'Photo'], ['Red box', 'front']] } } });
    expect(written.status, written.text).toBe(200);
    const { page, sheet, errors, close } = await suite.open('images-1');
    await expect.poll(() => sheet.cell(1, 1).textContent()).toBe('front');

    const put = await svc.call('POST', '/sdk/v2/api/files/images-1/sheets/upload-cell-image', {
      body: { sheetName: 'Sheet1', cell: 'B2', base64: png(120, 80, [200, 30, 60]).toString('base64') },
    });
    expect(put.status, put.text).toBe(200);
    const image = sheet.cell(1, 1).locator('img.svc-sheet-image');
    await expect.poll(() => image.evaluate((element) => (element as HTMLImageElement).naturalWidth)).toBe(120);
    const [box, cellBox] = [await image.boundingBox(), await sheet.cell(1, 1).boundingBox()];
    expect(box!.height).toBeLessThanOrEqual(cellBox!.height);
    expect(box!.y).toBeGreaterThanOrEqual(cellBox!.y);
    expect(await sheet.cell(1, 1).textContent()).toBe('front');
    await page.screenshot({ path: '/tmp/shots/spreadsheet-cell-image.png' });
    expect(errors).toEqual([]);
    await close();
  });
});
