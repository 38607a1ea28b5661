import { CHART_TYPES, chartData, chartValueOf, chartOption, chartsOf, defaultSeriesIn, MAX_CHART_SIZE, MAX_CHARTS_PER_SHEET, MIN_CHART_SIZE, parseChart, putChart, removeChart, type ChartCellValue, type ChartType, type SheetChart } from '../../src/model/sheets/charts.js';
import { currentRegion } from '../../src/model/sheets/filter.js';
import type { CellArea } from '../../src/model/sheets/cell-area.js';
import { currentLanguage } from '../shared/i18n/index.js';
import type { VirtualGrid } from '../shared/grid/grid.js';
import type { MenuItem } from './context-menu.js';
import { t } from './messages.js';
import type { SheetValues } from './values.js';
import type { Sheet, Workbook } from './workbook.js';

type Engine = typeof import('./chart-engine.js');
type ChartInstance = ReturnType<Engine['init']>;

/** What the charts need of the editor. */
export interface ChartsHost {
  workbook: Workbook;
  values: SheetValues;
  grid(): VirtualGrid;
  sheet(): Sheet;
  editable(): boolean;
  notice(text: string): void;
}

/** One chart on screen: its frame over the grid, the ECharts instance drawing into it, what it last drew. */
interface ChartView {
  chart: SheetChart;
  frame: HTMLElement;
  instance: ChartInstance;
  tools: HTMLElement;
  drawn: string;
  size: string;
}

/** A new chart's size, pixels (Excel's default chart is 5 × 3 inches: 480 × 288). */
const NEW_CHART = { width: 480, height: 288 };

/** Room the tools of a selected chart take above it; a chart nearer the top of the sheet has them below. */
const TOOLS_HEIGHT = 36;

/** How far the pointer moves before a press on a chart becomes a drag (a click only selects it). */
const DRAG_THRESHOLD = 3;

/**
 * Charts in the spreadsheet editor (docs/SHEETS.md "Charts"): Insert → Chart over the selection, each chart drawn by
 * ECharts in a frame floating over the grid, redrawn when its cells change (here or from a collaborator), moved and
 * resized by dragging, its title, type and legend set from the tools a selected chart shows, deleted with Delete.
 * ECharts (chart-engine.ts) is fetched the first time a sheet shows a chart or one is inserted. Every change is one
 * transaction of the editor's origin, so one undo step.
 */
export class SheetCharts {
  private engine: Engine | undefined;
  private loading: Promise<void> | undefined;
  private readonly views = new Map<string, ChartView>();
  /** a chart just inserted: focused as soon as it is drawn */
  private focusNext: string | undefined;

  constructor(private readonly host: ChartsHost) {}

  /** The Insert → Chart menu's items: one per type, each inserting that chart over the selection. */
  menuItems(): MenuItem[] {
    return CHART_TYPES.map((type) => ({ label: t(`chart.type.${type}`), disabled: !this.host.editable(), run: () => this.insert(type) }));
  }

  /**
   * Inserts a chart of `type` over the selection (one cell: the block of data around it, as spreadsheets do), placed
   * right of its data, and selects it.
   */
  insert(type: ChartType): void {
    if (!this.host.editable()) return;
    const sheet = this.host.sheet();
    const grid = this.host.grid();
    const selected = grid.selectedRange;
    const single = selected.top === selected.bottom && selected.left === selected.right;
    const range: CellArea = single ? currentRegion(sheet, selected.top, selected.left) : { startRow: selected.top, endRow: selected.bottom, startColumn: selected.left, endColumn: selected.right };
    if (chartsOf(sheet).length >= MAX_CHARTS_PER_SHEET) return this.host.notice(t('chart.tooMany', { count: MAX_CHARTS_PER_SHEET }));
    const base: SheetChart = {
      id: crypto.randomUUID(),
      type,
      range,
      seriesIn: defaultSeriesIn(range),
      title: '',
      legend: true,
      anchor: { row: range.startRow, column: Math.min(range.endColumn + 2, Math.max(0, sheet.columnCount - 1)), dx: 0, dy: 0, ...NEW_CHART },
    };
    const data = chartData(base, this.valueReader(sheet), seriesName);
    if (data.series.every((series) => series.values.every((value) => value === null))) return this.host.notice(t('chart.noNumbers'));
    // one series: its name is the title, as Excel titles such a chart
    const chart = { ...base, title: data.series.length === 1 ? data.series[0]!.name.slice(0, 255) : '' };
    this.focusNext = chart.id;
    this.write((target) => putChart(target, chart));
  }

  /**
   * Draws the active sheet's charts as the document has them now: frames placed over their anchor cells, options
   * rebuilt from the cells (a chart whose option did not change is not redrawn). Called after every change the
   * editor shows, and when the active sheet changes.
   */
  refresh(): void {
    const sheet = this.host.sheet();
    const charts = chartsOf(sheet);
    const wanted = new Set(charts.map((chart) => chart.id));
    for (const [id, view] of this.views) {
      if (wanted.has(id)) continue;
      view.instance.dispose();
      view.frame.remove();
      this.views.delete(id);
    }
    if (charts.length === 0) return;
    if (!this.engine) {
      this.loading ??= import('./chart-engine.js').then(
        (engine) => {
          this.engine = engine;
          this.refresh();
        },
        () => {
          this.loading = undefined;
          this.host.notice(t('chart.loadFailed'));
        },
      );
      return;
    }
    const read = this.valueReader(sheet);
    for (const chart of charts) {
      const view = this.views.get(chart.id) ?? this.createView(chart, this.engine);
      view.chart = chart;
      this.place(view);
      const option = chartOption(chart, chartData(chart, read, seriesName));
      const drawn = JSON.stringify(option);
      if (drawn !== view.drawn) {
        view.instance.setOption(option, { notMerge: true });
        view.drawn = drawn;
      }
      this.showTools(view);
    }
    const focus = this.focusNext && this.views.get(this.focusNext);
    if (focus) {
      this.focusNext = undefined;
      focus.frame.focus();
    }
  }

  /** Drops every frame (the active sheet changes: the next refresh draws the new sheet's charts). */
  clear(): void {
    for (const view of this.views.values()) {
      view.instance.dispose();
      view.frame.remove();
    }
    this.views.clear();
  }

  private valueReader(sheet: Sheet): (row: number, column: number) => ChartCellValue {
    return (row, column) => chartValueOf(this.host.values.shown(sheet, row, column));
  }

  /** Writes a change of the active sheet's charts as one undo step. */
  private write(change: (sheet: Sheet) => void): void {
    const { workbook } = this.host;
    const sheet = this.host.sheet();
    workbook.doc.transact(() => change(sheet), workbook.origin);
  }

  /** Changes one chart (checked as any stored one: a value the model refuses is not written). */
  private update(id: string, patch: Partial<SheetChart>): void {
    const current = chartsOf(this.host.sheet()).find((chart) => chart.id === id);
    const changed = current && parseChart({ ...current, ...patch });
    if (changed && this.host.editable()) this.write((sheet) => putChart(sheet, changed));
  }

  /** Puts a frame where its anchor cell is now, at its size (the instance resized when the size changed). */
  private place(view: ChartView): void {
    const { anchor } = view.chart;
    const cell = this.host.grid().boxOf({ top: anchor.row, left: anchor.column, bottom: anchor.row, right: anchor.column });
    Object.assign(view.frame.style, { left: `${cell.x + anchor.dx}px`, top: `${cell.y + anchor.dy}px`, width: `${anchor.width}px`, height: `${anchor.height}px` });
    view.frame.classList.toggle('svc-sheet-chart-tools-below', cell.y + anchor.dy - this.host.grid().boxOf({ top: 0, left: 0, bottom: 0, right: 0 }).y < TOOLS_HEIGHT);
    const size = `${anchor.width}x${anchor.height}`;
    if (size !== view.size) {
      view.instance.resize({ width: anchor.width, height: anchor.height });
      view.size = size;
    }
  }

  private createView(chart: SheetChart, engine: Engine): ChartView {
    const frame = document.createElement('div');
    frame.className = 'svc-sheet-chart';
    frame.tabIndex = 0;
    frame.setAttribute('role', 'figure');
    frame.dataset.chartId = chart.id;
    const canvasHost = document.createElement('div');
    canvasHost.className = 'svc-sheet-chart-canvas';
    const handle = document.createElement('div');
    handle.className = 'svc-sheet-chart-resize';
    handle.title = t('chart.resize');
    const tools = document.createElement('div');
    tools.className = 'svc-sheet-chart-tools';
    frame.append(canvasHost, tools, handle);
    this.host.grid().floating.append(frame);
    const instance = engine.init(canvasHost, null, { renderer: 'canvas', width: chart.anchor.width, height: chart.anchor.height, locale: currentLanguage() === 'zh-CN' ? 'ZH' : 'EN' });
    const view: ChartView = { chart, frame, instance, tools, drawn: '', size: `${chart.anchor.width}x${chart.anchor.height}` };
    this.views.set(chart.id, view);
    this.buildTools(view);
    frame.addEventListener('pointerdown', (event) => this.press(view, event, event.target === handle ? 'resize' : 'move'));
    frame.addEventListener('keydown', (event) => this.key(view, event));
    frame.addEventListener('focusin', () => frame.classList.add('svc-sheet-chart-selected'));
    frame.addEventListener('focusout', (event) => {
      if (!frame.contains(event.relatedTarget as Node | null)) frame.classList.remove('svc-sheet-chart-selected');
    });
    return view;
  }

  /** The tools a selected chart shows above it: title, type, legend, delete. */
  private buildTools(view: ChartView): void {
    const id = view.chart.id;
    const title = document.createElement('input');
    title.className = 'svc-sheet-chart-title';
    title.placeholder = t('chart.title');
    title.setAttribute('aria-label', t('chart.title'));
    title.maxLength = 255;
    title.addEventListener('change', () => this.update(id, { title: title.value }));
    title.addEventListener('keydown', (event) => {
      if (event.key !== 'Enter') return;
      this.update(id, { title: title.value });
      view.frame.focus();
    });
    const type = document.createElement('select');
    type.className = 'svc-sheet-chart-type';
    type.setAttribute('aria-label', t('chart.typeLabel'));
    for (const kind of CHART_TYPES) type.append(new Option(t(`chart.type.${kind}`), kind));
    type.addEventListener('change', () => this.update(id, { type: type.value as ChartType }));
    const legendLabel = document.createElement('label');
    const legend = document.createElement('input');
    legend.type = 'checkbox';
    legend.className = 'svc-sheet-chart-legend';
    legend.addEventListener('change', () => this.update(id, { legend: legend.checked }));
    legendLabel.append(legend, document.createTextNode(t('chart.legend')));
    const remove = document.createElement('button');
    remove.type = 'button';
    remove.className = 'svc-sheet-chart-delete';
    remove.textContent = '✕';
    remove.title = t('chart.delete');
    remove.setAttribute('aria-label', t('chart.delete'));
    remove.addEventListener('click', () => this.remove(id));
    view.tools.append(title, type, legendLabel, remove);
  }

  /** The tools show the chart as stored (a collaborator's or an undone change too), except a field being typed in. */
  private showTools(view: ChartView): void {
    const { chart, tools, frame } = view;
    const title = tools.querySelector<HTMLInputElement>('.svc-sheet-chart-title')!;
    if (document.activeElement !== title) title.value = chart.title;
    tools.querySelector<HTMLSelectElement>('.svc-sheet-chart-type')!.value = chart.type;
    tools.querySelector<HTMLInputElement>('.svc-sheet-chart-legend')!.checked = chart.legend;
    const editable = this.host.editable();
    tools.hidden = !editable;
    frame.classList.toggle('svc-sheet-chart-fixed', !editable);
    frame.setAttribute('aria-label', chart.title === '' ? t('chart.label', { type: t(`chart.type.${chart.type}`) }) : chart.title);
  }

  private remove(id: string): void {
    if (!this.host.editable()) return;
    this.write((sheet) => removeChart(sheet, id));
    this.host.grid().focus();
  }

  /**
   * Keys on a selected chart: Delete removes it, Escape goes back to the cells. Keys stay with the chart (the grid
   * would clear cells on Delete or start typing into one), except shortcuts with Ctrl or ⌘ (undo, redo).
   */
  private key(view: ChartView, event: KeyboardEvent): void {
    if (event.ctrlKey || event.metaKey) return;
    event.stopPropagation();
    if (event.target !== view.frame) return;
    if (event.key === 'Delete' || event.key === 'Backspace') {
      event.preventDefault();
      this.remove(view.chart.id);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      this.host.grid().focus();
    }
  }

  /**
   * A press on a chart selects it; dragging moves it (or, from the corner handle, resizes it). The frame follows the
   * pointer; the release writes the new anchor (the cell under the frame's top-left corner and the offset in it)
   * or size, once.
   */
  private press(view: ChartView, event: PointerEvent, mode: 'move' | 'resize'): void {
    // the grid under the chart must not take the press as a click on a cell
    event.stopPropagation();
    if (event.button !== 0 || view.tools.contains(event.target as Node)) return;
    view.frame.focus();
    event.preventDefault();
    if (!this.host.editable()) return;
    const start = { x: event.clientX, y: event.clientY, left: view.frame.offsetLeft, top: view.frame.offsetTop, width: view.chart.anchor.width, height: view.chart.anchor.height };
    let moved = false;
    const move = (next: PointerEvent) => {
      const dx = next.clientX - start.x;
      const dy = next.clientY - start.y;
      moved ||= Math.abs(dx) > DRAG_THRESHOLD || Math.abs(dy) > DRAG_THRESHOLD;
      if (!moved) return;
      if (mode === 'move') {
        view.frame.style.left = `${Math.max(0, start.left + dx)}px`;
        view.frame.style.top = `${Math.max(0, start.top + dy)}px`;
      } else {
        view.frame.style.width = `${clampSize(start.width + dx)}px`;
        view.frame.style.height = `${clampSize(start.height + dy)}px`;
      }
    };
    const release = () => {
      document.removeEventListener('pointermove', move);
      document.removeEventListener('pointerup', release);
      if (!moved) return;
      if (mode === 'resize') return this.update(view.chart.id, { anchor: { ...view.chart.anchor, width: clampSize(parseFloat(view.frame.style.width)), height: clampSize(parseFloat(view.frame.style.height)) } });
      const corner = view.frame.getBoundingClientRect();
      const grid = this.host.grid();
      const { cell, x, y } = grid.cellAtClient(corner.left, corner.top);
      const box = grid.boxOf({ top: cell.row, left: cell.column, bottom: cell.row, right: cell.column });
      const offset = (value: number) => Math.min(MAX_CHART_SIZE, Math.max(0, Math.round(value)));
      this.update(view.chart.id, { anchor: { ...view.chart.anchor, row: cell.row, column: cell.column, dx: offset(x - box.x), dy: offset(y - box.y) } });
    };
    document.addEventListener('pointermove', move);
    document.addEventListener('pointerup', release);
  }
}

const clampSize = (value: number): number => Math.min(MAX_CHART_SIZE, Math.max(MIN_CHART_SIZE, Math.round(value)));

/** A series without a header, in the page's language. */
const seriesName = (index: number): string => t('chart.series', { index });
