import { parseChart, type ChartType, type SheetChart } from '../../../model/sheets/charts.js';
import type { CellArea } from '../../../model/sheets/cell-area.js';
import { parseA1IfValid } from '../../../model/sheets/a1.js';
import { DEFAULT_COLUMN_WIDTH } from '../../../model/sheets/sheet-model.js';
import { readZipTexts } from '../zip-guard.js';

/**
 * Charts of an xlsx workbook (docs/SHEETS.md "Charts"), which exceljs does not read: for each worksheet, its drawing
 * (xl/drawings/drawingN.xml, named by the sheet's relationships), the anchors of the charts in it, and each chart
 * part (xl/charts/chartN.xml). A chart is kept when the model can draw it: a column, bar, line, pie, scatter or area
 * chart whose series all read cells of its own sheet. Its range is the smallest block holding every series' names,
 * categories and values; its title, legend, the cell and offset of its anchor and its size come along. Other charts (other
 * types, combinations of types, data on other sheets) are left out, as the import's report of what is lost says.
 */

/** The chart kinds of DrawingML the model draws, by element name (3-D ones drawn flat). */
const KINDS: Readonly<Record<string, ChartType | 'barOrColumn'>> = {
  barChart: 'barOrColumn',
  bar3DChart: 'barOrColumn',
  lineChart: 'line',
  line3DChart: 'line',
  pieChart: 'pie',
  pie3DChart: 'pie',
  scatterChart: 'scatter',
  areaChart: 'area',
  area3DChart: 'area',
};

/** EMUs per pixel at 96 dpi. */
const EMU_PER_PIXEL = 9525;
/** The editor's row height, pixels (an imported sheet has the model's default widths and heights). */
const ROW_HEIGHT = 24;

/** A part's path from a relationship's target, relative to the folder of the part whose relationships name it. */
function resolvePart(folder: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  const parts = folder.split('/');
  for (const step of target.split('/')) {
    if (step === '..') parts.pop();
    else if (step !== '.') parts.push(step);
  }
  return parts.join('/');
}

/** The relationships of a part: id → target part path. */
function relationships(xml: string | undefined, folder: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const match of (xml ?? '').matchAll(/<Relationship\b[^>]*>/g)) {
    const id = /\bId="([^"]*)"/.exec(match[0])?.[1];
    const target = /\bTarget="([^"]*)"/.exec(match[0])?.[1];
    if (id && target && !/\bTargetMode="External"/.test(match[0])) found.set(id, resolvePart(folder, target));
  }
  return found;
}

const decode = (value: string): string => value.replace(/&(lt|gt|quot|apos|amp);/g, (_, name: string) => ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' })[name]!);

/** The text of the first element named `name` (any namespace prefix) inside `xml`. */
function elementText(xml: string, name: string): string | undefined {
  return new RegExp(`<(?:\\w+:)?${name}>([^<]*)</(?:\\w+:)?${name}>`).exec(xml)?.[1];
}

/** A cell anchor of the drawing (`from` or `to`): cell and offset in pixels. */
function anchorPoint(xml: string, name: 'from' | 'to'): { column: number; row: number; dx: number; dy: number } | undefined {
  const inner = new RegExp(`<(?:\\w+:)?${name}>([\\s\\S]*?)</(?:\\w+:)?${name}>`).exec(xml)?.[1];
  if (inner === undefined) return undefined;
  const [column, columnOffset, row, rowOffset] = ['col', 'colOff', 'row', 'rowOff'].map((part) => Number(elementText(inner, part) ?? NaN));
  if (![column, columnOffset, row, rowOffset].every((value) => Number.isFinite(value) && value! >= 0)) return undefined;
  return { column: column!, row: row!, dx: Math.round(columnOffset! / EMU_PER_PIXEL), dy: Math.round(rowOffset! / EMU_PER_PIXEL) };
}

/** The cell areas a series reads (`<c:f>` formulas), each on a sheet (by name; undefined: none named). */
function seriesReferences(series: string): Array<{ sheet: string | undefined; area: CellArea; part: string }> {
  const found: Array<{ sheet: string | undefined; area: CellArea; part: string }> = [];
  for (const part of ['tx', 'cat', 'val', 'xVal', 'yVal']) {
    const inner = new RegExp(`<c:${part}>([\\s\\S]*?)</c:${part}>`).exec(series)?.[1];
    const formula = inner && elementText(inner, 'f');
    if (!formula) continue;
    const parsed = parseA1IfValid(decode(formula).replace(/\$/g, ''));
    if (!parsed) return [{ sheet: '\u0000unreadable', area: { startRow: 0, endRow: 0, startColumn: 0, endColumn: 0 }, part }];
    found.push({ sheet: parsed.sheetName ?? undefined, area: { startRow: parsed.startRow, endRow: parsed.endRow, startColumn: parsed.startColumn, endColumn: parsed.endColumn }, part });
  }
  return found;
}

/** A chart part as the model's chart (its id and anchor given), or undefined when the model cannot draw it. */
export function chartOfPart(xml: string, sheetName: string, id: string, anchor: SheetChart['anchor']): SheetChart | undefined {
  const plot = /<c:plotArea>([\s\S]*?)<\/c:plotArea>/.exec(xml)?.[1];
  if (!plot) return undefined;
  const kinds = [...plot.matchAll(/<c:(\w+Chart)>/g)].map((match) => match[1]!);
  // one kind of chart only: a combination (columns with a line) is not one the model draws
  if (kinds.length !== 1 || !(kinds[0]! in KINDS)) return undefined;
  const kind = KINDS[kinds[0]!]!;
  const type: ChartType = kind === 'barOrColumn' ? (/<c:barDir val="bar"\/>/.test(plot) ? 'bar' : 'column') : kind;
  const series = [...plot.matchAll(/<c:ser>([\s\S]*?)<\/c:ser>/g)].map((match) => match[1]!);
  if (series.length === 0) return undefined;
  const references = series.flatMap(seriesReferences);
  const sameSheet = (name: string | undefined) => name === undefined || name.replace(/^'|'$/g, '').replace(/''/g, "'") === sheetName;
  if (references.length === 0 || !references.every((reference) => sameSheet(reference.sheet))) return undefined;
  const range: CellArea = {
    startRow: Math.min(...references.map((reference) => reference.area.startRow)),
    endRow: Math.max(...references.map((reference) => reference.area.endRow)),
    startColumn: Math.min(...references.map((reference) => reference.area.startColumn)),
    endColumn: Math.max(...references.map((reference) => reference.area.endColumn)),
  };
  // values down a column: series in columns; along a row: series in rows
  const values = references.find((reference) => reference.part === 'val' || reference.part === 'yVal')?.area;
  const seriesIn = values && values.startColumn === values.endColumn && values.startRow !== values.endRow ? 'columns' : values && values.startRow === values.endRow && values.startColumn !== values.endColumn ? 'rows' : 'columns';
  const titleXml = /<c:title>([\s\S]*?)<\/c:title>/.exec(xml.replace(/<c:ser>[\s\S]*?<\/c:ser>/g, ''))?.[1];
  const title = titleXml ? decode([...titleXml.matchAll(/<a:t>([^<]*)<\/a:t>/g)].map((match) => match[1]!).join('')).slice(0, 255) : '';
  return parseChart({ id, type, range, seriesIn, title, legend: /<c:legend>/.test(xml), anchor });
}

/**
 * The charts of each worksheet part (the N of xl/worksheets/sheetN.xml) that the model draws, in the drawing's order.
 */
export async function workbookCharts(bytes: Buffer, sheets: ReadonlyArray<{ part: string; name: string }>): Promise<Map<string, SheetChart[]>> {
  const sheetRels = await readZipTexts(bytes, sheets.map((sheet) => `xl/worksheets/_rels/sheet${sheet.part}.xml.rels`));
  const drawingOf = new Map<string, string>();
  for (const sheet of sheets) {
    const xml = sheetRels.get(`xl/worksheets/_rels/sheet${sheet.part}.xml.rels`);
    for (const match of (xml ?? '').matchAll(/<Relationship\b[^>]*>/g)) {
      const target = /\bType="[^"]*\/drawing"/.test(match[0]) ? /\bTarget="([^"]*)"/.exec(match[0])?.[1] : undefined;
      if (target) drawingOf.set(sheet.part, resolvePart('xl/worksheets', target));
    }
  }
  const charts = new Map<string, SheetChart[]>();
  if (drawingOf.size === 0) return charts;
  const drawings = [...new Set(drawingOf.values())];
  const drawingTexts = await readZipTexts(bytes, [...drawings, ...drawings.map((drawing) => drawing.replace(/([^/]+)$/, '_rels/$1.rels'))]);
  const chartParts = new Map<string, { sheet: { part: string; name: string }; id: string; anchor: SheetChart['anchor'] }>();
  for (const sheet of sheets) {
    const drawing = drawingOf.get(sheet.part);
    if (!drawing) continue;
    const targets = relationships(drawingTexts.get(drawing.replace(/([^/]+)$/, '_rels/$1.rels')), drawing.replace(/\/[^/]+$/, ''));
    const xml = drawingTexts.get(drawing) ?? '';
    for (const match of xml.matchAll(/<(?:\w+:)?(twoCellAnchor|oneCellAnchor)\b[^>]*>([\s\S]*?)<\/(?:\w+:)?\1>/g)) {
      const body = match[2]!;
      const rel = /<c:chart\b[^>]*\br:id="([^"]*)"/.exec(body)?.[1];
      const part = rel ? targets.get(rel) : undefined;
      const from = anchorPoint(body, 'from');
      if (!part || !from) continue;
      const to = anchorPoint(body, 'to');
      const extent = /<(?:\w+:)?ext\b[^>]*\bcx="(\d+)"[^>]*\bcy="(\d+)"/.exec(body);
      // the chart's own size where the drawing gives it (Excel writes it in the frame's xfrm); else the cells a
      // two-cell anchor spans, at the model's sizes
      const given = extent && Number(extent[1]) > 0 && Number(extent[2]) > 0;
      const width = given ? Number(extent[1]) / EMU_PER_PIXEL : to ? (to.column - from.column) * DEFAULT_COLUMN_WIDTH + to.dx - from.dx : 0;
      const height = given ? Number(extent[2]) / EMU_PER_PIXEL : to ? (to.row - from.row) * ROW_HEIGHT + to.dy - from.dy : 0;
      const clamp = (value: number) => Math.min(4000, Math.max(80, Math.round(value)));
      chartParts.set(part, {
        sheet,
        id: `imported-${sheet.part}-${chartParts.size + 1}`,
        anchor: { row: from.row, column: from.column, dx: Math.min(from.dx, 4000), dy: Math.min(from.dy, 4000), width: clamp(width), height: clamp(height) },
      });
    }
  }
  const chartTexts = await readZipTexts(bytes, [...chartParts.keys()]);
  for (const [part, { sheet, id, anchor }] of chartParts) {
    const chart = chartOfPart(chartTexts.get(part) ?? '', sheet.name, id, anchor);
    if (!chart) continue;
    const list = charts.get(sheet.part) ?? [];
    list.push(chart);
    charts.set(sheet.part, list);
  }
  return charts;
}
