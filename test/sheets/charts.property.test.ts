import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { docFromState, initialContent } from '../../src/model/content.js';
import { chartData, chartOption, chartsOf, parseChart, putChart, type SheetChart } from '../../src/model/sheets/charts.js';
import { AreaSpan } from '../support/area-span.js';
import { applyStructureEdit, sheetModels, type SheetModel } from '../../src/model/sheets/sheet-model.js';

/** Charts in the sheet model (docs/SHEETS.md "Charts"): what a range reads as, the ECharts option, structure edits. */

function sheetWith(rows: Array<Array<string | number | null>>): { doc: ReturnType<typeof docFromState>; sheet: SheetModel } {
  const doc = docFromState(initialContent('spreadsheet'));
  const sheet = sheetModels(doc)[0]!;
  doc.transact(() => rows.forEach((line, row) => line.forEach((value, column) => value !== null && sheet.setCell(row, column, { v: value }))));
  return { doc, sheet };
}

const valuesOf = (sheet: SheetModel) => (row: number, column: number) => {
  const value = sheet.cell(row, column)?.v;
  return value === undefined ? null : value;
};

function chartOn(range: SheetChart['range'], patch: Partial<SheetChart> = {}): SheetChart {
  return { id: 'c1', type: 'column', range, seriesIn: 'columns', title: 'Sales', legend: true, anchor: { row: 1, column: 4, dx: 0, dy: 0, width: 480, height: 300 }, ...patch };
}

describe('what a chart reads from its range', () => {
  const table = [
    ['Month', 'North', 'South'],
    ['Jan', 10, 4],
    ['Feb', 12, 'n/a'],
    ['Mar', 9, 7],
  ];

  it('names series by a text header row and points by a text first column; text among numbers is a gap', () => {
    const { sheet } = sheetWith(table);
    const data = chartData(chartOn({ startRow: 0, endRow: 3, startColumn: 0, endColumn: 2 }), valuesOf(sheet));
    expect(data).toEqual({
      categories: ['Jan', 'Feb', 'Mar'],
      series: [
        { name: 'North', values: [10, 12, 9] },
        { name: 'South', values: [4, null, 7] },
      ],
    });
  });

  it('reads rows as series when asked, and numbers only as unnamed series and numbered points', () => {
    const { sheet } = sheetWith(table);
    const byRows = chartData(chartOn({ startRow: 0, endRow: 3, startColumn: 0, endColumn: 2 }, { seriesIn: 'rows' }), valuesOf(sheet));
    expect(byRows.categories).toEqual(['North', 'South']);
    expect(byRows.series.map((series) => series.name)).toEqual(['Jan', 'Feb', 'Mar']);
    const numbers = chartData(chartOn({ startRow: 1, endRow: 3, startColumn: 1, endColumn: 1 }), valuesOf(sheet), (index) => `Reihe ${index}`);
    expect(numbers).toEqual({ categories: ['1', '2', '3'], series: [{ name: 'Reihe 1', values: [10, 12, 9] }] });
  });

  it('builds an option per type: horizontal bars, pie slices of the first series, scatter points (x, y)', () => {
    const { sheet } = sheetWith(table);
    const range = { startRow: 0, endRow: 3, startColumn: 0, endColumn: 2 };
    const bar = chartOption(chartOn(range, { type: 'bar' }), chartData(chartOn(range, { type: 'bar' }), valuesOf(sheet)));
    expect(bar.xAxis).toMatchObject({ type: 'value' });
    expect(bar.yAxis).toMatchObject({ type: 'category', data: ['Jan', 'Feb', 'Mar'] });
    const pie = chartOption(chartOn(range, { type: 'pie' }), chartData(chartOn(range, { type: 'pie' }), valuesOf(sheet)));
    expect(pie.series).toMatchObject([{ type: 'pie', data: [{ name: 'Jan', value: 10 }, { name: 'Feb', value: 12 }, { name: 'Mar', value: 9 }] }]);
    const points = sheetWith([['x', 'y'], [1, 2], [3, 5]]).sheet;
    const scatterChart = chartOn({ startRow: 0, endRow: 2, startColumn: 0, endColumn: 1 }, { type: 'scatter' });
    expect(chartOption(scatterChart, chartData(scatterChart, valuesOf(points))).series).toMatchObject([{ type: 'scatter', name: 'y', data: [[1, 2], [3, 5]] }]);
    // text in the x column: points at 1, 2, 3…, as Excel plots them
    const textX = chartOn(range, { type: 'scatter' });
    expect(chartOption(textX, chartData(textX, valuesOf(sheet))).series).toMatchObject([{ name: 'North', data: [[1, 10], [2, 12], [3, 9]] }, { name: 'South', data: [[1, 4], [3, 7]] }]);
    const area = chartOption(chartOn(range, { type: 'area', legend: false, title: '' }), chartData(chartOn(range), valuesOf(sheet)));
    expect(area.series).toMatchObject([{ type: 'line', areaStyle: {} }, { type: 'line', areaStyle: {} }]);
    expect(area.legend).toMatchObject({ show: false });
    expect(area.title).toMatchObject({ show: false });
  });

  it('refuses malformed charts', () => {
    const good = chartOn({ startRow: 0, endRow: 3, startColumn: 0, endColumn: 2 });
    expect(parseChart(good)).toEqual(good);
    for (const bad of [
      { ...good, type: 'radar' },
      { ...good, range: { startRow: 3, endRow: 1, startColumn: 0, endColumn: 0 } },
      { ...good, anchor: { ...good.anchor, width: 5 } },
      { ...good, title: 'x'.repeat(256) },
      { ...good, legend: 'yes' },
      { ...good, id: '' },
    ]) {
      expect(parseChart(bad)).toBeUndefined();
    }
  });
});

describe('charts and structure edits', () => {
  it('keep drawing the same cells: the data after edits is the data before without the deleted rows and columns', () => {
    const edit = fc.record({ kind: fc.constantFrom('insert' as const, 'delete' as const), axis: fc.constantFrom('rows' as const, 'columns' as const), index: fc.integer({ min: 0, max: 9 }), count: fc.integer({ min: 1, max: 4 }) });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 4 }), fc.array(edit, { minLength: 1, maxLength: 4 }), (top, left, tall, wide, edits) => {
        // every cell holds a number naming its original place, so the cells a chart reads can be told apart
        const rows = Array.from({ length: 12 }, (_, row) => Array.from({ length: 12 }, (_, column) => row * 100 + column));
        const { doc, sheet } = sheetWith(rows);
        const range = { startRow: top, endRow: top + tall, startColumn: left, endColumn: left + wide };
        doc.transact(() => putChart(sheet, chartOn(range)));
        // the range's rows (columns) as the original index each holds, null for one inserted inside the range
        const rowsOfRange = AreaSpan.covering(top, top + tall);
        const columnsOfRange = AreaSpan.covering(left, left + wide);
        for (const step of edits) {
          doc.transact(() => applyStructureEdit(doc, sheet, step));
          (step.axis === 'rows' ? rowsOfRange : columnsOfRange).apply(step);
        }
        const charts = chartsOf(sheet);
        if (rowsOfRange.slots.length === 0 || columnsOfRange.slots.length === 0) {
          expect(charts).toEqual([]);
          return;
        }
        expect(charts).toHaveLength(1);
        const read = charts[0]!.range;
        const cellsNow: number[] = [];
        for (let row = read.startRow; row <= read.endRow; row++) for (let column = read.startColumn; column <= read.endColumn; column++) cellsNow.push(Number(sheet.cell(row, column)?.v));
        // rows (columns) inserted inside the range grow it, as in the desktop programs: their cells are empty
        const keptRows = rowsOfRange.slots.filter((row): row is number => row !== null);
        const keptColumns = columnsOfRange.slots.filter((column): column is number => column !== null);
        const expected = keptRows.flatMap((row) => keptColumns.map((column) => row * 100 + column));
        expect(cellsNow.filter((value) => !Number.isNaN(value))).toEqual(expected);
      }),
      { numRuns: 150 },
    );
  });

  it('moves the anchor with its cell and drops a chart whose range is deleted whole', () => {
    const { doc, sheet } = sheetWith([[1, 2], [3, 4]]);
    doc.transact(() => putChart(sheet, chartOn({ startRow: 0, endRow: 1, startColumn: 0, endColumn: 1 })));
    doc.transact(() => applyStructureEdit(doc, sheet, { kind: 'insert', axis: 'rows', index: 0, count: 2 }));
    expect(chartsOf(sheet)[0]).toMatchObject({ range: { startRow: 2, endRow: 3 }, anchor: { row: 3, column: 4 } });
    doc.transact(() => applyStructureEdit(doc, sheet, { kind: 'delete', axis: 'columns', index: 3, count: 3 }));
    expect(chartsOf(sheet)[0]).toMatchObject({ range: { startColumn: 0, endColumn: 1 }, anchor: { row: 3, column: 3 } });
    doc.transact(() => applyStructureEdit(doc, sheet, { kind: 'delete', axis: 'rows', index: 1, count: 5 }));
    expect(chartsOf(sheet)).toEqual([]);
  });
});
