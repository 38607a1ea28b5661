import type { EChartsOption } from 'echarts';
import type { SheetStructureEdit } from '../content.js';
import { isCellArea, shiftArea, type CellArea } from './cell-area.js';
// the sheet and the shown value as filter.ts declares the parts of them a feature reads (the sheet model imports the
// features, so they cannot import it or layout.ts back)
import type { FilterSheet, FilterShown } from './filter.js';

/**
 * Charts over a sheet's cells (docs/SHEETS.md "Charts"): a chart draws a range of the sheet as a column, bar, line,
 * pie, scatter or area chart, floats over the grid at an anchor (a cell and an offset, a size in pixels) and is
 * drawn with Apache ECharts from the option `chartOption` builds, the same in the editor and in the pdf export.
 *
 * Stored under the sheet's `charts` key as a Y.Map of chart id → SheetChart (plain data). A change writes the
 * chart's whole entry: two people editing the same chart at once keep the last write, two people editing
 * different charts both keep theirs.
 *
 * **Structure edits**: the range moves and shrinks as merges and the filter do (cell-area.ts); a chart whose range is
 * deleted whole is removed (it would have nothing to draw; the desktop programs keep such a chart with a broken
 * reference that the xlsx export could not write either). The anchor cell moves with its row and column; an anchor
 * whose row (column) is deleted moves to the first row (column) after the deleted ones.
 */

export const CHARTS_KEY = 'charts';

export const CHART_TYPES = ['column', 'bar', 'line', 'pie', 'scatter', 'area'] as const;
export type ChartType = (typeof CHART_TYPES)[number];

/** Where a chart sits: its top-left corner is `dx`, `dy` pixels right of and below the top-left of cell (`row`, `column`). */
export interface ChartAnchor {
  row: number;
  column: number;
  dx: number;
  dy: number;
  width: number;
  height: number;
}

export interface SheetChart {
  id: string;
  type: ChartType;
  /** the cells drawn; the first row (column) names the series when it holds text (chartData) */
  range: CellArea;
  /** each column of the range is a series, or each row */
  seriesIn: 'columns' | 'rows';
  title: string;
  legend: boolean;
  anchor: ChartAnchor;
}

export const MAX_CHART_TITLE = 255;
export const MIN_CHART_SIZE = 80;
export const MAX_CHART_SIZE = 4000;
/** Most charts one sheet keeps: each is drawn on every change of its cells. */
export const MAX_CHARTS_PER_SHEET = 50;
/** Most cells one chart draws (the first rows and columns of a larger range). */
export const MAX_CHART_POINTS = 10_000;

const isIndex = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 0;
const isSize = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value >= MIN_CHART_SIZE && value <= MAX_CHART_SIZE;
const isOffset = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= MAX_CHART_SIZE;

/** A chart as stored or sent, checked; undefined when any field is malformed. */
export function parseChart(input: unknown): SheetChart | undefined {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return undefined;
  const raw = input as Record<string, unknown>;
  const anchor = raw.anchor as Record<string, unknown> | null | undefined;
  if (typeof raw.id !== 'string' || raw.id.length === 0 || raw.id.length > 64) return undefined;
  if (typeof raw.type !== 'string' || !(CHART_TYPES as readonly string[]).includes(raw.type)) return undefined;
  if (!isCellArea(raw.range) || (raw.seriesIn !== 'columns' && raw.seriesIn !== 'rows')) return undefined;
  if (typeof raw.title !== 'string' || raw.title.length > MAX_CHART_TITLE || typeof raw.legend !== 'boolean') return undefined;
  if (typeof anchor !== 'object' || anchor === null || !isIndex(anchor.row) || !isIndex(anchor.column)) return undefined;
  if (!isOffset(anchor.dx) || !isOffset(anchor.dy) || !isSize(anchor.width) || !isSize(anchor.height)) return undefined;
  const { startRow, endRow, startColumn, endColumn } = raw.range;
  return {
    id: raw.id,
    type: raw.type as ChartType,
    range: { startRow, endRow, startColumn, endColumn },
    seriesIn: raw.seriesIn,
    title: raw.title,
    legend: raw.legend,
    anchor: { row: anchor.row, column: anchor.column, dx: anchor.dx, dy: anchor.dy, width: anchor.width, height: anchor.height },
  };
}

/** The sheet's charts in a stable order (by id); entries a broken client wrote are left out. */
export function chartsOf(sheet: FilterSheet): SheetChart[] {
  const stored = sheet.featureMap(CHARTS_KEY);
  if (!stored) return [];
  const charts: SheetChart[] = [];
  stored.forEach((value) => {
    const chart = parseChart(value);
    if (chart) charts.push(chart);
  });
  return charts.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Writes a chart (new or changed) under its id; the caller checked it with parseChart and the sheet's limits. */
export function putChart(sheet: FilterSheet, chart: SheetChart): void {
  sheet.featureMap(CHARTS_KEY, true)!.set(chart.id, chart);
}

export function removeChart(sheet: FilterSheet, id: string): void {
  sheet.featureMap(CHARTS_KEY)?.delete(id);
}

/** The way a range is read by default: series in columns when it is at least as tall as wide, as Excel picks. */
export function defaultSeriesIn(range: CellArea): 'columns' | 'rows' {
  return range.endRow - range.startRow >= range.endColumn - range.startColumn ? 'columns' : 'rows';
}

/** Moves one anchor coordinate with an insertion or deletion on its axis. */
function shiftIndex(index: number, edit: SheetStructureEdit): number {
  if (index < edit.index) return index;
  if (edit.kind === 'insert') return index + edit.count;
  return Math.max(edit.index, index - edit.count);
}

/** Moves the charts with a structure edit: ranges shift and shrink, anchors follow their cell, wholly deleted ranges go. */
export function moveCharts(sheet: FilterSheet, edit: SheetStructureEdit): void {
  const stored = sheet.featureMap(CHARTS_KEY);
  if (!stored) return;
  for (const chart of chartsOf(sheet)) {
    const range = shiftArea(chart.range, edit);
    if (!range) {
      stored.delete(chart.id);
      continue;
    }
    const anchor = { ...chart.anchor };
    if (edit.axis === 'rows') anchor.row = shiftIndex(anchor.row, edit);
    else anchor.column = shiftIndex(anchor.column, edit);
    stored.set(chart.id, { ...chart, range, anchor });
  }
}

/** A cell's value as a chart reads it: numbers are plotted, text names, anything else is a gap. */
export type ChartCellValue = string | number | boolean | null;

/** What a cell shows as a chart reads it (the editor and the export alike): empty cells, errors and formulas not computed yet are gaps. */
export function chartValueOf(shown: FilterShown): ChartCellValue {
  return shown.kind === 'empty' || shown.kind === 'error' || shown.kind === 'pending' ? null : shown.value;
}

export interface ChartData {
  /** the category of each point (the names column or row; 1, 2, 3… without one) */
  categories: string[];
  series: Array<{ name: string; values: Array<number | null> }>;
}

const isText = (value: ChartCellValue): boolean => typeof value === 'string' && value.trim() !== '';

/**
 * The series of a chart's range: with series in columns, the first row names them when any of its cells (past the
 * names column) holds text, and the first column names the points when any of its cells (below the names row)
 * holds text; scatter charts take the first column as x values instead. Rows swap with columns for series in rows.
 * `seriesName` names a series without a header (1-based), in the reader's language.
 */
export function chartData(chart: SheetChart, valueAt: (row: number, column: number) => ChartCellValue, seriesName: (index: number) => string = (index) => `Series ${index}`): ChartData {
  const { range } = chart;
  const byColumns = chart.seriesIn === 'columns';
  // read the range as a table whose columns are the series
  const height = Math.min(byColumns ? range.endRow - range.startRow + 1 : range.endColumn - range.startColumn + 1, MAX_CHART_POINTS);
  const width = Math.min(byColumns ? range.endColumn - range.startColumn + 1 : range.endRow - range.startRow + 1, Math.max(1, Math.floor(MAX_CHART_POINTS / height)));
  const at = (point: number, series: number): ChartCellValue => (byColumns ? valueAt(range.startRow + point, range.startColumn + series) : valueAt(range.startRow + series, range.startColumn + point));
  const namesRow = Array.from({ length: width }, (_, series) => series).some((series) => isText(at(0, series)) && (series > 0 || width === 1));
  const firstPoint = namesRow ? 1 : 0;
  const namesColumn = width > 1 && (chart.type === 'scatter' || Array.from({ length: height - firstPoint }, (_, point) => point + firstPoint).some((point) => isText(at(point, 0))));
  const firstSeries = namesColumn ? 1 : 0;
  const categories: string[] = [];
  for (let point = firstPoint; point < height; point++) {
    const name = at(point, 0);
    categories.push(namesColumn && name !== null ? String(name) : String(point - firstPoint + 1));
  }
  const series: ChartData['series'] = [];
  for (let index = firstSeries; index < width; index++) {
    const header = at(0, index);
    const values: Array<number | null> = [];
    for (let point = firstPoint; point < height; point++) {
      const value = at(point, index);
      values.push(typeof value === 'number' && Number.isFinite(value) ? value : null);
    }
    series.push({ name: namesRow && header !== null && String(header).trim() !== '' ? String(header) : seriesName(index - firstSeries + 1), values });
  }
  return { categories, series };
}

const PALETTE = ['#4472c4', '#ed7d31', '#a5a5a5', '#ffc000', '#5b9bd5', '#70ad47', '#264478', '#9e480e', '#636363', '#997300'];

/**
 * The ECharts option drawing a chart over its data: one function for the editor's canvas and the server's SVG, so
 * the pdf shows the chart as drawn. No animation (a chart redrawn on every change of its cells should not move).
 */
export function chartOption(chart: SheetChart, data: ChartData): EChartsOption {
  const base: EChartsOption = {
    animation: false,
    // a description of the chart and its data for screen readers (the editor's canvas and the pdf's SVG alike)
    aria: { enabled: true },
    color: PALETTE,
    backgroundColor: '#ffffff',
    // Noto Sans SC first, as the pdf export's page (its fonts served to the renderer), so Chinese names never draw as boxes
    textStyle: { fontFamily: "'Noto Sans SC', 'Noto Sans', Arial, sans-serif" },
    title: { show: chart.title !== '', text: chart.title, left: 'center', top: 8, textStyle: { fontSize: 14, fontWeight: 'bold' } },
    legend: { show: chart.legend, bottom: 6, type: 'scroll' },
    tooltip: { trigger: chart.type === 'pie' || chart.type === 'scatter' ? 'item' : 'axis' },
  };
  // the plot shrinks until its axis labels fit inside these margins (ECharts 6's way of the former `containLabel`)
  const grid = { left: 12, right: 16, top: chart.title === '' ? 20 : 44, bottom: chart.legend ? 40 : 16, outerBoundsMode: 'same' as const, outerBoundsContain: 'axisLabel' as const };
  if (chart.type === 'pie') {
    const first = data.series[0];
    return {
      ...base,
      legend: { show: chart.legend, bottom: 6, type: 'scroll' },
      series: [
        {
          type: 'pie',
          name: first?.name ?? '',
          radius: '60%',
          center: ['50%', chart.title === '' ? '48%' : '53%'],
          data: data.categories.map((name, point) => ({ name, value: first?.values[point] ?? 0 })).filter((slice) => slice.value > 0),
        },
      ],
    };
  }
  if (chart.type === 'scatter') {
    return {
      ...base,
      grid,
      xAxis: { type: 'value', scale: true },
      yAxis: { type: 'value', scale: true },
      series: data.series.map((series) => ({
        type: 'scatter',
        name: series.name,
        // x from the first column; where it is not a number, the point's place (1, 2, 3…), as Excel plots it
        data: series.values.flatMap((value, point) => {
          const text = data.categories[point] ?? '';
          const x = text.trim() === '' ? NaN : Number(text);
          return value === null ? [] : [[Number.isFinite(x) ? x : point + 1, value]];
        }),
      })),
    };
  }
  const categoryAxis = { type: 'category' as const, data: data.categories };
  const valueAxis = { type: 'value' as const };
  const horizontal = chart.type === 'bar';
  return {
    ...base,
    grid,
    xAxis: horizontal ? valueAxis : categoryAxis,
    yAxis: horizontal ? { ...categoryAxis, inverse: true } : valueAxis,
    series: data.series.map((series) =>
      chart.type === 'column' || chart.type === 'bar'
        ? { type: 'bar', name: series.name, data: series.values }
        : { type: 'line', name: series.name, data: series.values, connectNulls: false, ...(chart.type === 'area' ? { areaStyle: { opacity: 0.35 } } : {}) },
    ),
  };
}
