import { BarChart, LineChart, PieChart, ScatterChart } from 'echarts/charts';
import { AriaComponent, GridComponent, LegendComponent, TitleComponent, TooltipComponent } from 'echarts/components';
import { init, use } from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';

/**
 * Apache ECharts as the spreadsheet draws charts with it (docs/SHEETS.md "Charts"): only the chart types and parts
 * src/model/sheets/charts.ts uses, on a canvas. This module is a chunk of its own, imported by charts.ts only when a
 * sheet has a chart or the user inserts one, so a page without charts never loads it (docs/PERFORMANCE.md).
 */
use([BarChart, LineChart, PieChart, ScatterChart, AriaComponent, GridComponent, LegendComponent, TitleComponent, TooltipComponent, CanvasRenderer]);

export { init };
export type { ECharts } from 'echarts/core';
