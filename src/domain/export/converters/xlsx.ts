import ExcelJS from 'exceljs';
import type { CellStyle } from '../../../model/sheets/cell-style.js';
import type { WorkbookCell, WorkbookSource } from '../source.js';
import type { Progress } from './shared.js';

/**
 * spreadsheet / table → .xlsx (exceljs writes the file): every sheet in order, values, formulas with their
 * computed result (so a reader that does not calculate still shows it), error values, dates, number formats,
 * cell styles (bold, italic, font colour, solid fill, horizontal alignment), column widths, merged cells and a frozen
 * header row.
 */

/** Errors Excel knows; `#ERROR!` (a formula that does not parse) is not one of them. */
const EXCEL_ERRORS = new Set(['#N/A', '#REF!', '#NAME?', '#DIV/0!', '#NULL!', '#VALUE!', '#NUM!']);
type ExcelError = '#N/A' | '#REF!' | '#NAME?' | '#DIV/0!' | '#NULL!' | '#VALUE!' | '#NUM!';
/** Excel's limit on a sheet name, and the characters it refuses in one. */
const MAX_SHEET_NAME = 31;
/** Pixels per unit of Excel's column width (the width of one '0' in the default font). */
const PIXELS_PER_WIDTH_UNIT = 7;

/** Sheet names Excel accepts, each unique (ignoring case), as close to the original as possible. */
function excelSheetNames(names: readonly string[]): string[] {
  const taken = new Set<string>();
  return names.map((name, index) => {
    const base = name.replace(/[[\]:*?/\\]/g, '_').replace(/^'+|'+$/g, '').slice(0, MAX_SHEET_NAME) || `Sheet${index + 1}`;
    let candidate = base;
    for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = `${base.slice(0, MAX_SHEET_NAME - String(n).length - 1)}~${n}`;
    taken.add(candidate.toLowerCase());
    return candidate;
  });
}

function cellValue(cell: WorkbookCell): ExcelJS.CellValue {
  const result = cell.error ? (EXCEL_ERRORS.has(cell.error) ? { error: cell.error as ExcelError } : undefined) : cell.date && typeof cell.value === 'string' ? new Date(cell.value) : cell.value;
  if (cell.formula !== undefined) {
    // a formula that does not parse would make the whole file unreadable to Excel: keep its text instead
    if (cell.error === '#ERROR!') return `=${cell.formula}`;
    return result === null || result === undefined ? { formula: cell.formula } : { formula: cell.formula, result };
  }
  return result ?? (cell.error ? cell.error : null);
}

/** `#rrggbb` as the file's opaque ARGB. */
function argb(colour: string): string {
  return `FF${colour.slice(1).toUpperCase()}`;
}

/** Gives an exceljs cell the model's style; `headerBold`: the cell is in a frozen header row, which is bold. */
function applyStyle(target: ExcelJS.Cell, style: CellStyle | undefined, headerBold: boolean): void {
  const font: Partial<ExcelJS.Font> = {};
  if (style?.b || headerBold) font.bold = true;
  if (style?.i) font.italic = true;
  if (style?.c) font.color = { argb: argb(style.c) };
  if (style?.ff) font.name = style.ff;
  if (style?.fs) font.size = style.fs;
  if (Object.keys(font).length > 0) target.font = font;
  if (style?.bg) target.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: argb(style.bg) } };
  const alignment: Partial<ExcelJS.Alignment> = {};
  if (style?.a) alignment.horizontal = style.a;
  if (style?.w) alignment.wrapText = true;
  if (Object.keys(alignment).length > 0) target.alignment = alignment;
  const border: Partial<ExcelJS.Borders> = {};
  for (const [side, key] of [['top', 'bt'], ['right', 'br'], ['bottom', 'bb'], ['left', 'bl']] as const) {
    const line = style?.[key];
    if (line) border[side] = { style: line.s, color: { argb: argb(line.c ?? '#000000') } };
  }
  if (Object.keys(border).length > 0) target.border = border;
}

export async function toXlsx(source: WorkbookSource, progress: Progress): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Svc';
  workbook.title = source.title;
  const names = excelSheetNames(source.sheets.map((sheet) => sheet.name));
  source.sheets.forEach((sheet, index) => {
    const worksheet = workbook.addWorksheet(names[index]!, sheet.frozenRows > 0 ? { views: [{ state: 'frozen', ySplit: sheet.frozenRows }] } : {});
    for (const [column, width] of Object.entries(sheet.columnWidths)) {
      worksheet.getColumn(Number(column) + 1).width = Math.max(1, Math.round((width / PIXELS_PER_WIDTH_UNIT) * 10) / 10);
    }
    // the frozen header row is bold, as it was before cells had styles: set first, each cell's own style over it
    if (sheet.frozenRows > 0) worksheet.getRow(1).font = { bold: true };
    for (const cell of sheet.cells) {
      const target = worksheet.getCell(cell.row + 1, cell.column + 1);
      target.value = cellValue(cell);
      if (cell.format !== undefined) target.numFmt = cell.format;
      else if (cell.date) target.numFmt = 'yyyy-mm-dd hh:mm';
      applyStyle(target, cell.style, cell.row < sheet.frozenRows);
      progress.step();
    }
    // after the cells: exceljs writes a value given to a merged cell into the merge's top-left one; the cells a
    // merge hides are dropped from the file, as Excel itself keeps only the top-left cell of a merge
    for (const merge of sheet.merges) worksheet.mergeCells(merge.startRow + 1, merge.startColumn + 1, merge.endRow + 1, merge.endColumn + 1);
  });
  if (source.sheets.length === 0) workbook.addWorksheet('Sheet1');
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}
