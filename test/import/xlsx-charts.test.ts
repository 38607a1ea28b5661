import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chartsOf } from '../../src/model/sheets/charts.js';
import { sheetModels } from '../../src/model/sheets/sheet-model.js';
import { testDatabases } from '../support/databases.js';
import { startService, type TestService } from '../support/service.js';
import { importAndWait } from './support.js';

const TASKS = { worker: true, concurrency: 2, perAppConcurrency: 2, pollMs: 50, leaseMs: 10_000, maxAttempts: 2, retentionMs: 3_600_000 };

const C = 'http://schemas.openxmlformats.org/drawingml/2006/chart';
const A = 'http://schemas.openxmlformats.org/drawingml/2006/main';
const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const RELS = 'http://schemas.openxmlformats.org/package/2006/relationships';

/** A series as Excel writes it: its name, categories and values as references. */
function series(index: number, name: string, categories: string, values: string, scatter = false): string {
  const cat = scatter ? `<c:xVal><c:numRef><c:f>${categories}</c:f></c:numRef></c:xVal>` : `<c:cat><c:strRef><c:f>${categories}</c:f></c:strRef></c:cat>`;
  const val = scatter ? `<c:yVal><c:numRef><c:f>${values}</c:f></c:numRef></c:yVal>` : `<c:val><c:numRef><c:f>${values}</c:f></c:numRef></c:val>`;
  return `<c:ser><c:idx val="${index}"/><c:order val="${index}"/><c:tx><c:strRef><c:f>${name}</c:f></c:strRef></c:tx>${cat}${val}</c:ser>`;
}

/** A chart part: `plot` is the plot area's chart element(s), with a title when given and a legend. */
function chartPart(plot: string, title?: string): string {
  const titled = title === undefined ? '<c:autoTitleDeleted val="1"/>' : `<c:title><c:tx><c:rich><a:bodyPr/><a:p><a:r><a:t>${title}</a:t></a:r></a:p></c:rich></c:tx></c:title>`;
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><c:chartSpace xmlns:c="${C}" xmlns:a="${A}" xmlns:r="${R}"><c:chart>${titled}<c:plotArea><c:layout/>${plot}</c:plotArea><c:legend><c:legendPos val="r"/></c:legend></c:chart></c:chartSpace>`;
}

/** A chart's anchor; `size` (EMU) is the frame's extent as Excel writes it (0 × 0 as some writers leave it). */
function anchor(from: [number, number, number, number], to: [number, number, number, number], rel: string, size: [number, number] = [0, 0]): string {
  const point = ([col, colOff, row, rowOff]: number[]) => `<xdr:col>${col}</xdr:col><xdr:colOff>${colOff}</xdr:colOff><xdr:row>${row}</xdr:row><xdr:rowOff>${rowOff}</xdr:rowOff>`;
  return `<xdr:twoCellAnchor><xdr:from>${point(from)}</xdr:from><xdr:to>${point(to)}</xdr:to><xdr:graphicFrame macro=""><xdr:nvGraphicFramePr><xdr:cNvPr id="2" name="Chart"/><xdr:cNvGraphicFramePr/></xdr:nvGraphicFramePr><xdr:xfrm><a:off x="0" y="0"/><a:ext cx="${size[0]}" cy="${size[1]}"/></xdr:xfrm><a:graphic><a:graphicData uri="${C}"><c:chart r:id="${rel}"/></a:graphicData></a:graphic></xdr:graphicFrame><xdr:clientData/></xdr:twoCellAnchor>`;
}

/**
 * A workbook as Excel lays charts out: exceljs writes the cells, the drawing and chart parts are added the way Excel
 * stores them (sheet → drawing relationship, anchors in the drawing, one part per chart). Sheet "Sales" has a
 * clustered column chart of two series with a title, a horizontal bar chart, a scatter chart, a combination (bars
 * with a line: not drawn by the model) and a chart of another sheet's data (left out).
 */
async function chartedWorkbook(): Promise<Uint8Array> {
  const book = new ExcelJS.Workbook();
  const sales = book.addWorksheet('Sales');
  sales.addRows([
    ['Month', 'North', 'South'],
    ['Jan', 10, 4],
    ['Feb', 12, 6],
    ['Mar', 9, 7],
  ]);
  book.addWorksheet('Other').addRows([['x'], [1]]);
  const zip = await JSZip.loadAsync(await book.xlsx.writeBuffer());
  const columns = series(0, 'Sales!$B$1', 'Sales!$A$2:$A$4', 'Sales!$B$2:$B$4') + series(1, 'Sales!$C$1', 'Sales!$A$2:$A$4', 'Sales!$C$2:$C$4');
  const charts = [
    chartPart(`<c:barChart><c:barDir val="col"/><c:grouping val="clustered"/>${columns}</c:barChart>`, 'Sales &amp; more'),
    chartPart(`<c:barChart><c:barDir val="bar"/>${series(0, 'Sales!$B$1', 'Sales!$A$2:$A$4', 'Sales!$B$2:$B$4')}</c:barChart>`),
    chartPart(`<c:scatterChart>${series(0, 'Sales!$C$1', 'Sales!$B$2:$B$4', 'Sales!$C$2:$C$4', true)}</c:scatterChart>`),
    chartPart(`<c:barChart><c:barDir val="col"/>${series(0, 'Sales!$B$1', 'Sales!$A$2:$A$4', 'Sales!$B$2:$B$4')}</c:barChart><c:lineChart>${series(1, 'Sales!$C$1', 'Sales!$A$2:$A$4', 'Sales!$C$2:$C$4')}</c:lineChart>`),
    chartPart(`<c:lineChart>${series(0, 'Other!$A$1', 'Other!$A$2:$A$2', 'Other!$A$2:$A$2')}</c:lineChart>`),
  ];
  charts.forEach((xml, index) => zip.file(`xl/charts/chart${index + 1}.xml`, xml));
  // the first spans E2 (+19 px, +5 px) to M17 with no size of its own: 8 columns and 15 rows of the model's size
  // (100 × 24 px) less the offsets; the second says its size, 320 × 192 px
  const anchors = [
    anchor([4, 19 * 9525, 1, 5 * 9525], [12, 0, 16, 0], 'rId1'),
    anchor([4, 0, 18, 0], [9, 0, 30, 0], 'rId2', [320 * 9525, 192 * 9525]),
    anchor([10, 0, 18, 0], [15, 0, 30, 0], 'rId3'),
    anchor([0, 0, 32, 0], [5, 0, 44, 0], 'rId4'),
    anchor([6, 0, 32, 0], [11, 0, 44, 0], 'rId5'),
  ];
  zip.file(
    'xl/drawings/drawing1.xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><xdr:wsDr xmlns:xdr="http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing" xmlns:a="${A}" xmlns:c="${C}" xmlns:r="${R}">${anchors.join('')}</xdr:wsDr>`,
  );
  zip.file(
    'xl/drawings/_rels/drawing1.xml.rels',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="${RELS}">${charts.map((_, index) => `<Relationship Id="rId${index + 1}" Type="${R}/chart" Target="../charts/chart${index + 1}.xml"/>`).join('')}</Relationships>`,
  );
  zip.file('xl/worksheets/_rels/sheet1.xml.rels', `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="${RELS}"><Relationship Id="rIdDrawing" Type="${R}/drawing" Target="../drawings/drawing1.xml"/></Relationships>`);
  const sheet = (await zip.file('xl/worksheets/sheet1.xml')!.async('string')).replace('</worksheet>', `<drawing r:id="rIdDrawing"/></worksheet>`);
  zip.file('xl/worksheets/sheet1.xml', sheet.includes(`xmlns:r=`) ? sheet : sheet.replace('<worksheet ', `<worksheet xmlns:r="${R}" `));
  const types = (await zip.file('[Content_Types].xml')!.async('string')).replace(
    '</Types>',
    `<Override PartName="/xl/drawings/drawing1.xml" ContentType="application/vnd.openxmlformats-officedocument.drawing+xml"/>${charts.map((_, index) => `<Override PartName="/xl/charts/chart${index + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.drawingml.chart+xml"/>`).join('')}</Types>`,
  );
  zip.file('[Content_Types].xml', types);
  return zip.generateAsync({ type: 'uint8array' });
}

describe('charts of an imported xlsx (docs/SHEETS.md "Charts")', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startService(testDatabases()[0]!, { integrator: true, tasks: TASKS });
  });
  afterAll(async () => {
    await svc?.close();
  });

  it('keeps the column, bar and scatter charts over their cells, at their anchors; leaves out a combination and another sheet\'s data', async () => {
    const done = await importAndWait(svc, { fileId: 'charted-import', type: 'spreadsheet' }, { name: 'charted.xlsx', data: await chartedWorkbook() });
    expect(done.body.status, done.text).toBe(0);
    const doc = await svc.services.content.read(svc.app.id, 'charted-import');
    const [sales, other] = sheetModels(doc);
    const charts = chartsOf(sales!).sort((a, b) => a.anchor.row - b.anchor.row || a.anchor.column - b.anchor.column);
    expect(charts.map((chart) => chart.type)).toEqual(['column', 'bar', 'scatter']);
    expect(charts[0]).toMatchObject({
      range: { startRow: 0, endRow: 3, startColumn: 0, endColumn: 2 },
      seriesIn: 'columns',
      title: 'Sales & more',
      legend: true,
      anchor: { row: 1, column: 4, dx: 19, dy: 5, width: 8 * 100 - 19, height: 15 * 24 - 5 },
    });
    expect(charts[1]).toMatchObject({ range: { startRow: 0, endRow: 3, startColumn: 0, endColumn: 1 }, title: '', anchor: { row: 18, column: 4, width: 320, height: 192 } });
    expect(charts[2]).toMatchObject({ range: { startRow: 0, endRow: 3, startColumn: 1, endColumn: 2 } });
    expect(chartsOf(other!)).toEqual([]);
  });
});
