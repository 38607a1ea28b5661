import { readPageSetup, type PageSetup } from '../../model/rich-text/page-setup.js';
import * as Y from 'yjs';
import { ownStyleOf, type CellStyle } from '../../model/sheets/cell-style.js';
import { formatOf, isEmptyCell } from '../../model/sheets/cells.js';
import {
  cropOf,
  isSlideLayout,
  notesText,
  placeholderRoleOf,
  shapeOf,
  textStyleOf,
  THEMES,
  themeNameOf,
  transitionOf,
  type BoxTextStyle,
  type ImageCrop,
  type PlaceholderRole,
  type ShapeLook,
  type SlideLayout,
  type SlideTheme,
  type SlideTransition,
} from '../../model/slides.js';
import { boxTypeOf, docFromState, richTextOf, slideMaps, SLIDE_HEIGHT, SLIDE_WIDTH, type BoxFrame, type ContentKind } from '../../model/content.js';
import { toProseMirrorNodes, type ProseMirrorNode } from '../../model/rich-text/schema.js';
import { MAX_COLUMNS, MAX_ROWS } from '../../model/sheets/a1.js';
import { calculationOf, FormulaError, type ErrorCode } from '../../model/sheets/formulas/index.js';
import { sheetIds, sheetModels, type CellArea, type SheetModel } from '../../model/sheets/sheet-model.js';
import { filteredRows, filterOf } from '../../model/sheets/filter.js';
import { validationsOf, type ImportedValidation } from '../../model/sheets/data-validation.js';
import { shownReader } from '../../model/sheets/shown-cells.js';
import { hiddenOf } from '../../model/sheets/hidden.js';
import { conditionalLooks, conditionalRulesOf, shownCellsOf, type ConditionalLook, type ConditionalRule } from '../../model/sheets/conditional-formats.js';
import { hasSheetLock, locksOf, xlsxRangeName } from '../../model/sheets/locks.js';
import { chartData, chartsOf, chartValueOf, type ChartData, type SheetChart } from '../../model/sheets/charts.js';

/**
 * What an exporter reads: a file's content in the content model (docs/CONTENT-MODEL.md), taken apart into
 * plain data (structured-clonable, so it crosses into a worker thread). Converters map FROM these shapes TO
 * a file format; none of them reads a format back.
 */

/** Bytes of an image the content names (`src`), resolved before conversion: only attachments of the file's app. */
export interface ImageAsset {
  data: Uint8Array;
  mimeType: string;
}

/** Images by the `src` the content names them with; a `src` without an entry is shown by its text alternative. */
export type ImageAssets = Record<string, ImageAsset>;

export interface RichTextSource {
  kind: 'richText';
  title: string;
  blocks: ProseMirrorNode[];
  images: ImageAssets;
  /** paper, margins, header and footer (pdf, docx): documentPro's page setup; absent: the default (A4, "n / total" in the footer) */
  pageSetup?: PageSetup;
}

/** A cell as written to a workbook: its value (computed for formulas) and, for formulas, the text without `=`. */
export interface WorkbookCell {
  row: number;
  column: number;
  value: string | number | boolean | null;
  formula?: string;
  /** the value is this error code (`#DIV/0!`) */
  error?: ErrorCode;
  /** the value is a date-time: `value` is its ISO 8601 text */
  date?: boolean;
  /** the cell's number format code (docs/SHEETS.md "Number formats"); absent: General */
  format?: string;
  /** the cell's style (docs/SHEETS.md "Cell styles"); absent: the default look */
  style?: CellStyle;
  /** what the sheet's conditional formats make of it, for the exports that draw (pdf); absent: nothing */
  look?: ConditionalLook;
  /** the formula's array result spills over this many rows and columns from the cell (the cells after it hold its values) */
  spill?: { rows: number; columns: number };
}

export interface WorkbookSheet {
  name: string;
  /** non-empty cells, row by row */
  cells: WorkbookCell[];
  /** one past the last used row and column (0 when empty) */
  rowCount: number;
  columnCount: number;
  /** column index → width in pixels, for resized columns */
  columnWidths: Record<number, number>;
  /** row index → height in pixels, for rows a person gave a height (docs/SHEETS.md "Row heights and column widths") */
  rowHeights: Record<number, number>;
  /**
   * row (column) index → the style of the whole row (column), which its cells without a style of their own show;
   * the cells' `style` is already the one each shows (docs/CONTENT-MODEL.md "spreadsheet")
   */
  rowStyles?: Record<number, CellStyle>;
  columnStyles?: Record<number, CellStyle>;
  /** rows kept in view at the top (a header row) */
  frozenRows: number;
  /** merged areas, disjoint (docs/SHEETS.md "Merged cells") */
  merges: CellArea[];
  /** the sheet's filter (docs/SHEETS.md "Sort and filter"): its area and the rows it hides */
  filter?: { area: CellArea; hiddenRows: number[] };
  /** rows and columns a person hid (docs/SHEETS.md "Hidden rows and columns") */
  hidden?: { rows: number[]; columns: number[] };
  /** data validation rules with their areas (docs/SHEETS.md "Data validation") */
  validations?: ImportedValidation[];
  /** the sheet's conditional format rules in the order they apply (docs/SHEETS.md "Conditional formatting") */
  conditionalFormats?: ConditionalRule[];
  /** the sheet has a sheet lock: the xlsx export protects the worksheet (docs/SHEETS.md "Locks") */
  protected?: boolean;
  /** the sheet's range locks, each as an xlsx `<protectedRange>` named by the lock (docs/SHEETS.md "Locks") */
  protectedRanges?: Array<{ name: string; areas: CellArea[] }>;
  /** the sheet's charts (docs/SHEETS.md "Charts"), each drawn as the editor draws it */
  charts?: WorkbookChart[];
}

export interface WorkbookChart {
  chart: SheetChart;
  /** what it draws, read from the cells as computed */
  data: ChartData;
  /** drawn by ECharts' server-side renderer (chart-svg.ts; the source op of convert.ts adds it) */
  svg?: string;
  /** the drawing as a JPEG, for formats that take pictures only (xlsx); added by the export service */
  picture?: Uint8Array;
}

export interface WorkbookSource {
  kind: 'workbook';
  title: string;
  sheets: WorkbookSheet[];
}

/** A box of a slide; `group`: the group it is in (boxes sharing it are grouped), absent when it stands alone. */
export type SlideBox = { group?: string } & (
  | { type: 'text'; frame: BoxFrame; blocks: ProseMirrorNode[]; style: BoxTextStyle; placeholder?: PlaceholderRole }
  /** `crop`: the part of the picture shown (absent: all of it) */
  | { type: 'image'; frame: BoxFrame; src: string; alt: string; crop?: ImageCrop }
  | { type: 'shape'; frame: BoxFrame; look: ShapeLook }
);

export interface SlideSource {
  boxes: SlideBox[];
  theme: SlideTheme;
  /** the layout the slide was made from; absent for slides made before layouts (or in a blank way) */
  layout?: SlideLayout;
  /** speaker notes, plain text ('' for none) */
  notes: string;
  /** how the slide comes in when presenting; absent for none */
  transition?: SlideTransition;
}

export interface SlidesSource {
  kind: 'slides';
  title: string;
  width: number;
  height: number;
  slides: SlideSource[];
  images: ImageAssets;
}

export type ExportSource = RichTextSource | WorkbookSource | SlidesSource;

/** The source of a collaborative file's content, from its encoded Yjs state. */
export function sourceFromState(state: Uint8Array, kind: ContentKind, title: string): ExportSource {
  const doc = docFromState(state);
  try {
    switch (kind) {
      case 'document':
      case 'documentPro':
        return { kind: 'richText', title, blocks: toProseMirrorNodes(richTextOf(doc)), images: {}, ...(kind === 'documentPro' ? { pageSetup: readPageSetup(doc) } : {}) };
      case 'spreadsheet':
        return { kind: 'workbook', title, sheets: workbookSheets(doc) };
      case 'presentation':
        return { kind: 'slides', title, width: SLIDE_WIDTH, height: SLIDE_HEIGHT, slides: slideMaps(doc).map(slideOf), images: {} };
    }
  } finally {
    doc.destroy();
  }
}

function protectedRangesSource(sheet: SheetModel): Pick<WorkbookSheet, 'protectedRanges'> {
  const ranges = locksOf(sheet).flatMap((lock) => (lock.type === 'range' ? [{ name: xlsxRangeName(lock), areas: lock.areas }] : []));
  return ranges.length > 0 ? { protectedRanges: ranges } : {};
}

function workbookSheets(doc: Y.Doc): WorkbookSheet[] {
  const workbook = calculationOf(doc);
  const ids = sheetIds(doc);
  return sheetModels(doc).map((sheet, index) => {
    const cells: WorkbookCell[] = [];
    let rowCount = 0;
    let columnCount = 0;
    workbook.forEachCell(ids[index]!, { startRow: 0, endRow: MAX_ROWS - 1, startColumn: 0, endColumn: MAX_COLUMNS - 1 }, (row, column, value, formula) => {
      const cell: WorkbookCell = value instanceof FormulaError ? { row, column, value: value.code, error: value.code } : { row, column, value };
      if (formula !== undefined) cell.formula = formula.replace(/^=/, '');
      const spill = formula === undefined ? undefined : workbook.spillArea(ids[index]!, row, column);
      if (spill && !spill.blocked) cell.spill = { rows: spill.endRow - spill.startRow + 1, columns: spill.endColumn - spill.startColumn + 1 };
      const storedCell = sheet.cell(row, column);
      const format = formatOf(storedCell);
      if (format !== undefined) cell.format = format;
      const style = sheet.styleAt(row, column);
      if (style !== undefined) cell.style = style;
      cells.push(cell);
      rowCount = Math.max(rowCount, row + 1);
      columnCount = Math.max(columnCount, column + 1);
    });
    // an empty cell with a style (a filled cell) is drawn too; the engine only walks cells with values, and those
    // an array spills into (stored empty, given above with the spilled value and their own style)
    // (by position, row × MAX_COLUMNS + column: one look-up per styled cell, however many arrays the sheet has)
    const spilledInto = new Set<number>();
    for (const cell of cells) {
      if (!cell.spill) continue;
      for (let row = cell.row; row < cell.row + cell.spill.rows; row++) {
        for (let column = cell.column; column < cell.column + cell.spill.columns; column++) spilledInto.add(row * MAX_COLUMNS + column);
      }
    }
    // (a cell of a styled row or column without a style of its own is drawn by its line's: rowStyles, columnStyles)
    sheet.forEachCell((row, column, stored) => {
      if (!isEmptyCell(stored) || ownStyleOf(stored) === undefined || spilledInto.has(row * MAX_COLUMNS + column)) return;
      const style = sheet.styleAt(row, column);
      cells.push(style === undefined ? { row, column, value: null } : { row, column, value: null, style });
      rowCount = Math.max(rowCount, row + 1);
      columnCount = Math.max(columnCount, column + 1);
    });
    cells.sort((a, b) => a.row - b.row || a.column - b.column);
    const rules = conditionalRulesOf(sheet);
    if (rules.length > 0) {
      const shownAt = shownReader(doc, sheet);
      const looks = conditionalLooks(rules, shownCellsOf(sheet, shownAt));
      for (const cell of cells) {
        const look = looks.get(`${cell.row}:${cell.column}`);
        if (look) cell.look = look;
      }
    }
    return {
      name: sheet.name.length > 0 ? sheet.name : `Sheet${index + 1}`,
      cells,
      rowCount,
      columnCount,
      columnWidths: Object.fromEntries(sheet.columnWidths()),
      rowHeights: Object.fromEntries(sheet.rowHeights()),
      rowStyles: Object.fromEntries(sheet.lineStyles('rows')),
      columnStyles: Object.fromEntries(sheet.lineStyles('columns')),
      frozenRows: sheet.frozenRows,
      merges: sheet.merges(),
      ...filterSource(doc, sheet),
      ...hiddenSource(sheet),
      ...validationSource(sheet),
      ...(rules.length > 0 ? { conditionalFormats: rules } : {}),
      ...(hasSheetLock(sheet) ? { protected: true } : {}),
      ...protectedRangesSource(sheet),
      ...chartsSource(doc, sheet),
    };
  });
}

function filterSource(doc: Y.Doc, sheet: SheetModel): Pick<WorkbookSheet, 'filter'> {
  const filter = filterOf(sheet);
  return filter ? { filter: { area: filter.area, hiddenRows: filteredRows(sheet, shownReader(doc, sheet)) } } : {};
}

function validationSource(sheet: SheetModel): Pick<WorkbookSheet, 'validations'> {
  const rules = validationsOf(sheet);
  return rules.length > 0 ? { validations: rules.map(({ areas, id: _id, ...rule }) => ({ rule, areas })) } : {};
}

function chartsSource(doc: Y.Doc, sheet: SheetModel): Pick<WorkbookSheet, 'charts'> {
  const charts = chartsOf(sheet);
  if (charts.length === 0) return {};
  const shown = shownReader(doc, sheet);
  return { charts: charts.map((chart) => ({ chart, data: chartData(chart, (row, column) => chartValueOf(shown(row, column))) })) };
}

function hiddenSource(sheet: SheetModel): Pick<WorkbookSheet, 'hidden'> {
  const rows = hiddenOf(sheet, 'rows');
  const columns = hiddenOf(sheet, 'columns');
  return rows.length + columns.length > 0 ? { hidden: { rows, columns } } : {};
}

function number(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

/** A box's frame, malformed values read as defaults (as editors do), kept on the slide. */
function frameOf(box: Y.Map<unknown>): BoxFrame {
  const width = Math.min(Math.max(number(box.get('width'), 400), 1), SLIDE_WIDTH);
  const height = Math.min(Math.max(number(box.get('height'), 100), 1), SLIDE_HEIGHT);
  const x = Math.min(Math.max(number(box.get('x'), 0), 0), SLIDE_WIDTH - width);
  const y = Math.min(Math.max(number(box.get('y'), 0), 0), SLIDE_HEIGHT - height);
  return { x, y, width, height };
}

function slideOf(slide: Y.Map<unknown>): SlideSource {
  const boxes = slide.get('boxes');
  const layout = slide.get('layout');
  const transition = transitionOf(slide);
  const described = { theme: THEMES[themeNameOf(slide)], notes: notesText(slide), ...(isSlideLayout(layout) ? { layout } : {}), ...(transition === 'none' ? {} : { transition }) };
  if (!(boxes instanceof Y.Array)) return { boxes: [], ...described };
  return {
    ...described,
    boxes: (boxes as Y.Array<unknown>).toArray().flatMap((box): SlideBox[] => {
      if (!(box instanceof Y.Map)) return [];
      const group = box.get('group');
      const grouped = typeof group === 'string' && group !== '' ? { group } : {};
      const frame = frameOf(box);
      const type = boxTypeOf(box);
      if (type === 'image') {
        const src = box.get('src');
        const alt = box.get('alt');
        const crop = cropOf(box);
        return typeof src === 'string' ? [{ type: 'image', frame, src, alt: typeof alt === 'string' ? alt : '', ...(crop ? { crop } : {}), ...grouped }] : [];
      }
      if (type === 'shape') return [{ type: 'shape', frame, look: shapeOf(box), ...grouped }];
      const content = box.get('content');
      const placeholder = placeholderRoleOf(box);
      return [{ type: 'text', frame, blocks: content instanceof Y.XmlFragment ? toProseMirrorNodes(content) : [], style: textStyleOf(box), ...(placeholder ? { placeholder } : {}), ...grouped }];
    }),
  };
}

/** Every image `src` the source names (document images, slide image boxes), each once. */
export function imageSourcesOf(source: ExportSource): string[] {
  const found = new Set<string>();
  const walk = (nodes: readonly ProseMirrorNode[]) => {
    for (const node of nodes) {
      if (node.type === 'image' && typeof node.attrs?.src === 'string') found.add(node.attrs.src);
      if (node.content) walk(node.content);
    }
  };
  if (source.kind === 'richText') walk(source.blocks);
  if (source.kind === 'slides') {
    for (const slide of source.slides) {
      for (const box of slide.boxes) {
        if (box.type === 'image') found.add(box.src);
        else if (box.type === 'text') walk(box.blocks);
      }
    }
  }
  return [...found];
}
