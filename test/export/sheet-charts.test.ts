import { imageSize } from 'image-size';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { putChart, type SheetChart } from '../../src/model/sheets/charts.js';
import { sheetModels } from '../../src/model/sheets/sheet-model.js';
import { testDatabases } from '../support/databases.js';
import { startService, type TestService } from '../support/service.js';
import { author, createFile, exportFile, setCells, workbookOf } from './support.js';

/** Charts in exports (docs/SHEETS.md "Charts"): pdf draws them as the editor does (ECharts' SVG), xlsx carries a picture. */

const CHART: SheetChart = {
  id: 'chart-1',
  type: 'column',
  range: { startRow: 0, endRow: 3, startColumn: 0, endColumn: 1 },
  seriesIn: 'columns',
  title: '季度 Sales <b>&',
  legend: true,
  anchor: { row: 1, column: 3, dx: 50, dy: 12, width: 400, height: 260 },
};

for (const database of testDatabases()) {
  describe(`spreadsheet charts in exports [${database.name}]`, { timeout: 180_000 }, () => {
    let svc: TestService;
    beforeAll(async () => {
      svc = await startService(database, { integrator: true });
      await createFile(svc, 'charted', 'spreadsheet', 'Charted');
      // the last value is a formula: the chart draws what it computes
      await setCells(svc, 'charted', { A1: { v: 'Quarter' }, B1: { v: 'Sales' }, A2: { v: 'Q1' }, B2: { v: 120 }, A3: { v: 'Q2' }, B3: { v: 180 }, A4: { v: 'Q3' }, B4: { f: '=B2+B3+7' } });
      await svc.services.content.change(svc.app.id, 'charted', author, (doc) => putChart(sheetModels(doc)[0]!, CHART));
    });
    afterAll(async () => {
      await svc.close();
    });

    it('pdf: the chart is drawn after the cells, its title (escaped, Chinese included), categories and computed axis in the page', async () => {
      const { bytes } = await exportFile(svc, 'charted', 'pdf');
      const pdf = await getDocumentProxy(new Uint8Array(bytes));
      const { text } = await extractText(pdf, { mergePages: true });
      expect(text).toContain('季度 Sales <b>&');
      expect(text).toMatch(/Q1.*Q2.*Q3/s);
      // the axis reaches past 307 (=B2+B3+7): ECharts' rounded maximum, 350
      expect(text).toContain('350');
    });

    it('xlsx: the chart as a JPEG of its size, anchored at its cell with its offset', async () => {
      const { bytes } = await exportFile(svc, 'charted', 'xlsx');
      const workbook = await workbookOf(bytes);
      const sheet = workbook.getWorksheet('Sheet1')!;
      const images = sheet.getImages();
      expect(images).toHaveLength(1);
      const placed = images[0]!;
      expect(placed.range.tl.nativeCol).toBe(3);
      expect(placed.range.tl.nativeRow).toBe(1);
      const media = workbook.getImage(Number(placed.imageId));
      expect(media.extension).toBe('jpeg');
      // photographed at the renderer's device scale (sharper than the screen): the chart's shape, at least its size
      const size = imageSize(new Uint8Array(media.buffer as unknown as ArrayBuffer));
      expect(size.type).toBe('jpg');
      expect(size.width).toBeGreaterThanOrEqual(400);
      expect(size.width / size.height).toBeCloseTo(400 / 260, 2);
      expect(placed.range).toMatchObject({ ext: { width: 400, height: 260 } });
      // the cells are unchanged beside it
      expect(sheet.getCell('B4').value).toEqual({ formula: 'B2+B3+7', result: 307 });
    });
  });
}
