import ExcelJS from 'exceljs';
import type { CellStyle } from '../../../model/sheets/cell-style.js';
import { formatA1 } from '../../../model/sheets/a1.js';
import type { CellArea } from '../../../model/sheets/cell-area.js';
import { xlsxOfValidation, type ValidationRule } from '../../../model/sheets/data-validation.js';
import type { WorkbookCell, WorkbookSheet, WorkbookSource } from '../source.js';
import { escapeHtml } from '../../../html-escape.js';
import type { Progress } from './shared.js';
import { DEFAULT_COLUMN_WIDTH, DEFAULT_ROW_HEIGHT, XLSX_PIXELS_PER_WIDTH_UNIT } from '../../../model/sheets/sheet-model.js';
import { storedFunctionName } from '../../../model/sheets/formulas/excel-functions.js';
import { storedFormula } from '../../../model/sheets/formulas/parser.js';
import { XLSX_THRESHOLD_KINDS, XLSX_VALUE_OPERATORS, type ConditionalFormat, type ConditionalRule, type ScaleThreshold } from '../../../model/sheets/conditional-formats.js';
import { columnLetters } from '../../../model/sheets/a1.js';
import JSZip from 'jszip';

/**
 * spreadsheet / table → .xlsx (exceljs writes the file): every sheet in order, values, formulas with their
 * computed result (so a reader that does not calculate still shows it), error values, dates, number formats,
 * cell styles (bold, italic, font colour, solid fill, horizontal alignment), column widths, merged cells, a frozen
 * header row, and charts as pictures placed where they float over the cells (docs/SHEETS.md "Charts").
 */

/** Errors Excel knows; `#ERROR!` (a formula that does not parse) is not one of them. */
const EXCEL_ERRORS = new Set(['#N/A', '#REF!', '#NAME?', '#DIV/0!', '#NULL!', '#VALUE!', '#NUM!']);
type ExcelError = '#N/A' | '#REF!' | '#NAME?' | '#DIV/0!' | '#NULL!' | '#VALUE!' | '#NUM!';
/** Excel's limit on a sheet name, and the characters it refuses in one. */
const MAX_SHEET_NAME = 31;
/** Points per pixel: Excel's row heights are in points (1/72 inch), the model's in CSS pixels (1/96 inch). */
const POINTS_PER_PIXEL = 72 / 96;

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
    // functions newer than Excel 2007 carry their `_xlfn.` prefix in the file, or Excel would read them as unknown
    const formula = storedFormula(cell.formula, storedFunctionName);
    const value = result === null || result === undefined ? { formula } : { formula, result };
    // an array that spills is an array formula over its area (the cells after the first hold its values), marked
    // dynamic below (markDynamicArrays) so that Excel spills it again rather than showing {=…}
    if (!cell.spill) return value;
    const ref = `${columnLetters(cell.column)}${cell.row + 1}:${columnLetters(cell.column + cell.spill.columns - 1)}${cell.row + cell.spill.rows}`;
    return { ...value, shareType: 'array', ref } as unknown as ExcelJS.CellValue;
  }
  return result ?? (cell.error ? cell.error : null);
}

/** `#rrggbb` as the file's opaque ARGB. */
function argb(colour: string): string {
  return `FF${colour.slice(1).toUpperCase()}`;
}

/** The model's style as exceljs' (font, fill, alignment, borders: those it sets). */
function excelStyleOf(style: CellStyle | undefined): Partial<ExcelJS.Style> {
  const target: Partial<ExcelJS.Style> = {};
  const font: Partial<ExcelJS.Font> = {};
  if (style?.b) font.bold = true;
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
  return target;
}

/**
 * exceljs' row inside: the style it writes as `<row s customFormat="1">` (its typings leave it out; its font, fill,
 * alignment and border setters would also restyle the row's cells).
 */
interface RowStyle {
  style: Partial<ExcelJS.Style>;
}

/** Days between the serial epoch 1899-12-30 and 1970-01-01 (exceljs writes a date rule's bounds from Dates). */
const EPOCH_OFFSET_DAYS = 25_569;

/**
 * A data validation rule as Excel's (docs/SHEETS.md "Data validation"), on each of its areas. Excel shows the error
 * alert only when `showErrorMessage` is on, so it always is (the rule's style says what the alert does). A date rule
 * whose bound is a formula cannot be written by exceljs (it takes dates only) and is left out.
 */
function addValidation(worksheet: ExcelJS.Worksheet, rule: ValidationRule, areas: readonly CellArea[]): void {
  const xlsx = xlsxOfValidation(rule);
  if (rule.type === 'date' && [rule.value1, rule.value2].some((bound) => typeof bound === 'string')) return;
  const formulae = rule.type === 'date' ? xlsx.formulae.map((serial) => new Date(Math.round((Number(serial) - EPOCH_OFFSET_DAYS) * 86_400_000))) : xlsx.formulae;
  const validation = {
    type: xlsx.type,
    ...(xlsx.operator ? { operator: xlsx.operator } : {}),
    allowBlank: xlsx.allowBlank === true,
    showErrorMessage: true,
    showInputMessage: Boolean(xlsx.prompt || xlsx.promptTitle),
    errorStyle: xlsx.errorStyle,
    errorTitle: xlsx.errorTitle,
    error: xlsx.error,
    promptTitle: xlsx.promptTitle,
    prompt: xlsx.prompt,
    formulae,
  } as ExcelJS.DataValidation;
  const dataValidations = (worksheet as unknown as { dataValidations: { add(address: string, validation: ExcelJS.DataValidation): void } }).dataValidations;
  for (const area of areas) dataValidations.add(formatA1({ sheetName: null, ...area }), validation);
}

/** A rule's look as the file's differential style (a dxf: its solid fill is the bgColor). */
function dxfOf(format: ConditionalFormat): Partial<ExcelJS.Style> {
  const font: Partial<ExcelJS.Font> = {};
  if (format.bold) font.bold = true;
  if (format.italic) font.italic = true;
  if (format.color) font.color = { argb: argb(format.color) };
  return {
    ...(Object.keys(font).length > 0 ? { font } : {}),
    ...(format.fill ? { fill: { type: 'pattern', pattern: 'solid', bgColor: { argb: argb(format.fill) } } } : {}),
  };
}

/** A text as a formula's string literal. */
const literal = (text: string) => `"${text.replace(/"/g, '""')}"`;

function cfvoOf(threshold: ScaleThreshold): ExcelJS.Cvfo {
  return { type: XLSX_THRESHOLD_KINDS[threshold.kind] as ExcelJS.CfvoTypes, ...(threshold.value === undefined ? {} : { value: threshold.value }) };
}

/**
 * A model rule as the file's (docs/SHEETS.md "Conditional formatting"). The file's duplicate/unique and
 * "does not contain" rules are written by exceljs wrongly or not at all, so those go as formula rules
 * (`COUNTIF(area,cell)>1`, `ISERROR(SEARCH("x",cell))`) that Excel evaluates alike and the import reads back.
 */
function xlsxRuleOf(rule: ConditionalRule, priority: number): ExcelJS.ConditionalFormattingRule {
  const first = rule.ranges[0]!;
  const topLeft = formatA1({ sheetName: null, startRow: first.startRow, endRow: first.startRow, startColumn: first.startColumn, endColumn: first.startColumn });
  switch (rule.type) {
    case 'cellValue': {
      const operand = (value: number | string) => (typeof value === 'number' ? String(value) : literal(value));
      const formulae = [operand(rule.value), ...(rule.value2 === undefined ? [] : [operand(rule.value2)])];
      return { type: 'cellIs', operator: XLSX_VALUE_OPERATORS[rule.op] as ExcelJS.CellIsOperators, formulae, style: dxfOf(rule.format), priority };
    }
    case 'text': {
      const text = literal(rule.text);
      if (rule.op === 'notContains') return { type: 'expression', formulae: [`ISERROR(SEARCH(${text},${topLeft}))`], style: dxfOf(rule.format), priority };
      const formula = rule.op === 'contains' ? `NOT(ISERROR(SEARCH(${text},${topLeft})))` : rule.op === 'beginsWith' ? `LEFT(${topLeft},LEN(${text}))=${text}` : `RIGHT(${topLeft},LEN(${text}))=${text}`;
      return { type: 'containsText', operator: rule.op === 'contains' ? 'containsText' : rule.op, text: rule.text, formulae: [formula], style: dxfOf(rule.format), priority } as ExcelJS.ConditionalFormattingRule;
    }
    case 'topBottom':
      return { type: 'top10', rank: rule.rank, percent: rule.percent, bottom: rule.bottom, style: dxfOf(rule.format), priority };
    case 'average':
      return { type: 'aboveAverage', aboveAverage: !rule.below, style: dxfOf(rule.format), priority } as ExcelJS.ConditionalFormattingRule;
    case 'duplicates': {
      const areas = rule.ranges.map((area) => `COUNTIF(${formatA1({ sheetName: null, ...area }).replace(/([A-Z]+)(\d+)/g, '$$$1$$$2')},${topLeft})`).join('+');
      return { type: 'expression', formulae: [`${areas}${rule.unique ? '=1' : '>1'}`], style: dxfOf(rule.format), priority };
    }
    case 'colorScale':
      return { type: 'colorScale', cfvo: rule.points.map(cfvoOf), color: rule.points.map((point) => ({ argb: argb(point.color) })), priority } as ExcelJS.ConditionalFormattingRule;
    case 'dataBar':
      return { type: 'dataBar', cfvo: [cfvoOf(rule.min), cfvoOf(rule.max)], color: { argb: argb(rule.color) }, gradient: true, priority } as unknown as ExcelJS.ConditionalFormattingRule;
  }
}

export async function toXlsx(source: WorkbookSource, progress: Progress): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Svc';
  workbook.title = source.title;
  const names = excelSheetNames(source.sheets.map((sheet) => sheet.name));
  const protections: Array<Promise<void>> = [];
  source.sheets.forEach((sheet, index) => {
    const worksheet = workbook.addWorksheet(names[index]!, sheet.frozenRows > 0 ? { views: [{ state: 'frozen', ySplit: sheet.frozenRows }] } : {});
    const excelWidth = (width: number) => Math.max(1, Math.round((width / XLSX_PIXELS_PER_WIDTH_UNIT) * 10) / 10);
    for (const [column, width] of Object.entries(sheet.columnWidths)) worksheet.getColumn(Number(column) + 1).width = excelWidth(width);
    // exceljs writes a row's height as <row ht customHeight="1">: a height a person set, as the model keeps only those
    for (const [row, height] of Object.entries(sheet.rowHeights)) worksheet.getRow(Number(row) + 1).height = Math.round(height * POINTS_PER_PIXEL * 100) / 100;
    for (const cell of sheet.cells) {
      const target = worksheet.getCell(cell.row + 1, cell.column + 1);
      target.value = cellValue(cell);
      if (cell.format !== undefined) target.numFmt = cell.format;
      else if (cell.date) target.numFmt = 'yyyy-mm-dd hh:mm';
      // every part of the cell's style (its own or its line's, as it shows) is set: none is left to the line's
      Object.assign(target, excelStyleOf(cell.style));
      progress.step();
    }
    // after the cells (exceljs hands a row's or column's style to the cells made after it): Excel's <row s
    // customFormat="1"> and <col style>, shown by the cells of the line the file does not list
    for (const [index, style] of Object.entries(sheet.rowStyles ?? {})) {
      const row = worksheet.getRow(Number(index) + 1);
      (row as unknown as RowStyle).style = excelStyleOf(style);
      // exceljs leaves out a row holding no cell (and no height): its first cell, empty and of the row's style, keeps it
      if (row.cellCount === 0) row.getCell(1).style = excelStyleOf(style);
    }
    // exceljs writes every <col> with a width (9 characters where none is given) and customWidth: a column without a
    // width of its own gets the default one, or it would come back narrower
    const listedColumn = (column: number) => {
      const listed = worksheet.getColumn(column + 1);
      if (sheet.columnWidths[column] === undefined) listed.width = excelWidth(DEFAULT_COLUMN_WIDTH);
      return listed;
    };
    for (const [column, style] of Object.entries(sheet.columnStyles ?? {})) listedColumn(Number(column)).style = excelStyleOf(style);
    // after the cells: exceljs writes a value given to a merged cell into the merge's top-left one; the cells a
    // merge hides are dropped from the file, as Excel itself keeps only the top-left cell of a merge
    for (const merge of sheet.merges) worksheet.mergeCells(merge.startRow + 1, merge.startColumn + 1, merge.endRow + 1, merge.endColumn + 1);
    // the filter as the sheet's auto filter, the rows it hides hidden (exceljs writes no criteria: docs/SHEETS.md)
    if (sheet.filter) {
      const { area, hiddenRows } = sheet.filter;
      worksheet.autoFilter = { from: { row: area.startRow + 1, column: area.startColumn + 1 }, to: { row: area.endRow + 1, column: area.endColumn + 1 } };
      for (const row of hiddenRows) worksheet.getRow(row + 1).hidden = true;
    }
    for (const { rule, areas } of sheet.validations ?? []) addValidation(worksheet, rule, areas);
    for (const row of sheet.hidden?.rows ?? []) worksheet.getRow(row + 1).hidden = true;
    // (a hidden column would come back narrower once unhidden)
    for (const column of sheet.hidden?.columns ?? []) listedColumn(column).hidden = true;
    (sheet.conditionalFormats ?? []).forEach((rule, index) => {
      const ref = rule.ranges.map((area) => formatA1({ sheetName: null, ...area })).join(' ');
      worksheet.addConditionalFormatting({ ref, rules: [xlsxRuleOf(rule, index + 1)] });
    });
    // a sheet lock as Excel's sheet protection, without a password (who may edit is the service's, docs/SHEETS.md "Locks")
    if (sheet.protected) protections.push(worksheet.protect('', {}));
    for (const { chart, picture } of sheet.charts ?? []) {
      if (!picture) continue;
      const { row, column, dx, dy, width, height } = chart.anchor;
      const image = workbook.addImage({ buffer: Buffer.from(picture) as unknown as ExcelJS.Buffer, extension: 'jpeg' });
      const columnWidth = sheet.columnWidths[column] ?? DEFAULT_COLUMN_WIDTH;
      const rowHeight = sheet.rowHeights[row] ?? DEFAULT_ROW_HEIGHT;
      worksheet.addImage(image, { tl: { col: column + Math.min(dx / columnWidth, 0.99), row: row + Math.min(dy / rowHeight, 0.99) }, ext: { width, height }, editAs: 'oneCell' });
    }
  });
  await Promise.all(protections);
  if (source.sheets.length === 0) workbook.addWorksheet('Sheet1');
  const bytes = new Uint8Array(await workbook.xlsx.writeBuffer());
  // what exceljs does not write, added to its parts
  const spills = source.sheets.some((sheet) => sheet.cells.some((cell) => cell.spill));
  const ranges = source.sheets.some((sheet) => sheet.protectedRanges !== undefined);
  if (!spills && !ranges) return bytes;
  const zip = await JSZip.loadAsync(bytes);
  if (spills) await markDynamicArrays(zip);
  if (ranges) await writeProtectedRanges(zip, source.sheets);
  return zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
}

/**
 * A sheet's range locks as Excel's protected ranges ("Allow Edit Ranges"), which exceljs does not write: after the
 * sheet protection when there is one, else after the cells, as the schema orders a worksheet's parts. Who may edit
 * is not written (Excel names Windows accounts), nor a password. exceljs writes sheet n as sheet{n}.xml.
 */
async function writeProtectedRanges(zip: JSZip, sheets: readonly WorkbookSheet[]): Promise<void> {
  for (const [index, sheet] of sheets.entries()) {
    if (!sheet.protectedRanges) continue;
    const part = `xl/worksheets/sheet${index + 1}.xml`;
    const xml = await zip.file(part)?.async('string');
    if (xml === undefined) continue;
    const entries = sheet.protectedRanges
      .map(({ name, areas }) => `<protectedRange name="${escapeHtml(name)}" sqref="${areas.map((area) => formatA1({ sheetName: null, ...area })).join(' ')}"/>`)
      .join('');
    const element = `<protectedRanges>${entries}</protectedRanges>`;
    const protection = /<sheetProtection\b[^>]*\/>/.exec(xml);
    const at = protection ? protection.index + protection[0].length : xml.indexOf('</sheetData>') + '</sheetData>'.length;
    zip.file(part, xml.slice(0, at) + element + xml.slice(at));
  }
}

/**
 * Excel's dynamic-array metadata (the part `xl/metadata.xml` with its XLDAPR type, and `cm="1"` on each array formula's
 * cell), which exceljs does not write: without it Excel reads an array formula as a legacy one (`{=SORT(A1:A9)}`,
 * fixed to its area) instead of an array that spills.
 */
const DYNAMIC_ARRAY_METADATA =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
  '<metadata xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:xda="http://schemas.microsoft.com/office/spreadsheetml/2017/dynamicarray">' +
  '<metadataTypes count="1"><metadataType name="XLDAPR" minSupportedVersion="120000" copy="1" pasteAll="1" pasteValues="1" merge="1" splitFirst="1" rowColShift="1" clearFormats="1" clearComments="1" assign="1" coerce="1" cellMeta="1"/></metadataTypes>' +
  '<futureMetadata name="XLDAPR" count="1"><bk><extLst><ext uri="{bdbb8cdc-fa1e-496e-a857-3c3f30c029c3}"><xda:dynamicArrayProperties fDynamic="1" fCollapsed="0"/></ext></extLst></bk></futureMetadata>' +
  '<cellMetadata count="1"><bk><rc t="1" v="0"/></bk></cellMetadata></metadata>';

async function markDynamicArrays(zip: JSZip): Promise<void> {
  for (const name of Object.keys(zip.files).filter((part) => /^xl\/worksheets\/sheet\d+\.xml$/.test(part))) {
    const xml = await zip.file(name)!.async('string');
    zip.file(name, xml.replace(/<c (r="[A-Z]+\d+"[^>]*?)(\/?)>(<f t="array")/g, (_, attributes: string, closing: string, formula: string) => `<c ${attributes} cm="1"${closing}>${formula}`));
  }
  const types = await zip.file('[Content_Types].xml')!.async('string');
  zip.file('[Content_Types].xml', types.replace('</Types>', '<Override PartName="/xl/metadata.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheetMetadata+xml"/></Types>'));
  const relations = await zip.file('xl/_rels/workbook.xml.rels')!.async('string');
  zip.file('xl/_rels/workbook.xml.rels', relations.replace('</Relationships>', '<Relationship Id="rIdSvcMetadata" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sheetMetadata" Target="metadata.xml"/></Relationships>'));
  zip.file('xl/metadata.xml', DYNAMIC_ARRAY_METADATA);
}
