import { BarChart, LineChart, PieChart, ScatterChart } from 'echarts/charts';
import { AriaComponent, GridComponent, LegendComponent, TitleComponent, TooltipComponent } from 'echarts/components';
import { init, use } from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { chartOption, type ChartData, type SheetChart } from '../../model/sheets/charts.js';

// the tooltip draws nothing in an SVG, but the shared option names it
use([BarChart, LineChart, PieChart, ScatterChart, AriaComponent, GridComponent, LegendComponent, TitleComponent, TooltipComponent, SVGRenderer]);

/**
 * A sheet's chart as SVG, drawn by ECharts' server-side renderer from the option the editor draws with
 * (src/model/sheets/charts.ts chartOption), so that an export shows the chart as the editor does. Text in it
 * (titles, names) is escaped by ECharts; the SVG holds no script and fetches nothing. Loaded by the conversion worker
 * when a workbook has charts (convert.ts), so no other process loads ECharts.
 */
export function chartSvg(chart: SheetChart, data: ChartData): string {
  const drawing = init(null, null, { renderer: 'svg', ssr: true, width: chart.anchor.width, height: chart.anchor.height });
  try {
    drawing.setOption(chartOption(chart, data));
    return drawing.renderToSVGString();
  } finally {
    drawing.dispose();
  }
}
