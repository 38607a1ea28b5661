import { Readable } from 'node:stream';
import { createRequire } from 'node:module';
import { StringDecoder } from 'node:string_decoder';
import ExcelJS from 'exceljs';
import { ConversionError, importedColumnStyles, type FormatReader, type ImportedColumns, type ImportedFrozenPane, type ImportedProtectedRange, type ReadCell, type ReportFraction, type WorkbookSink } from '../conversion.js';
import { WorkbookCollector } from '../workbook.js';
import { readZipTexts } from '../zip-guard.js';
import { workbookCharts } from './xlsx-charts.js';
import { WorkbookColours, type XlsxColour } from './xlsx-colours.js';
import { parseCellStyle, sameStyle, type Border, type BorderLine, type CellStyle } from '../../../model/sheets/cell-style.js';
import { dateFormatFor, GENERAL, invalidFormatCode } from '../../../model/sheets/number-format.js';
import { inlineDefinitions, parseFormula, type Ast, type TableDefinition } from '../../../model/sheets/formulas/parser.js';
import { legacyFormulaRead } from '../../../model/sheets/formulas/legacy.js';
import { typedFormula } from '../../../model/sheets/formulas/excel-functions.js';
import { MAX_COLUMNS, MAX_ROWS, parseA1IfValid } from '../../../model/sheets/a1.js';
import { areasOverlap, MAX_ROW_HEIGHT, MIN_ROW_HEIGHT, XLSX_PIXELS_PER_WIDTH_UNIT, type CellArea } from '../../../model/sheets/sheet-model.js';
import { conditionOfXlsx, type ColumnFilter, type FilterCondition, type ImportedFilter } from '../../../model/sheets/filter.js';
import { validationOfXlsx, type ImportedValidation } from '../../../model/sheets/data-validation.js';
import { conditionalConditionOfXlsx, type ConditionalFormat, type ConditionalRule, type XlsxConditionalRule } from '../../../model/sheets/conditional-formats.js';
import { serialOfEpochMs } from './serial-dates.js';

// exceljs translates a shared formula to each cell of its range with this helper; its stream reader does not.
const { slideFormula } = createRequire(import.meta.url)('exceljs/lib/utils/shared-formula.js') as {
  slideFormula(formula: string, fromCell: string, toCell: string): string;
};

/** Chunk size of the stream the reader consumes: progress moves with the bytes read. */
const CHUNK = 64 * 1024;

/** What sharedFormulaMarks puts before a formula's text (private-use characters, which no formula holds). */
const SHARED_MASTER = '\uE000';
const SHARED_DEPENDENT = '\uE001';
/** Before an array formula's text (`<f t="array" ref="A1:A3">`, a dynamic array or a legacy array formula): `ARRAY_FORMULA ref ARRAY_FORMULA text`. */
const ARRAY_FORMULA = '\uE002';

/**
 * exceljs' stream reader keeps the text of a cell's <f> element but drops its attributes, so a shared formula
 * (what Excel writes when a formula is filled down or across: the text once, in the range's first cell, and
 * `<f t="shared" si="N"/>` in the others) came back as empty formulas. This rewrites a worksheet's XML on its
 * way to the reader so that the text says what the attributes did: the first cell's formula is marked
 * `SHARED_MASTER N SHARED_MASTER text`, each other cell's is `SHARED_DEPENDENT N`; toCell slides the first
 * cell's formula to each of the others, as Excel does. Tags are rewritten whole: a chunk's unfinished last tag
 * waits for the next chunk. On the same pass, `scan` gathers what else the stream reader skips (WorksheetScan).
 */
async function* sharedFormulaMarks(chunks: AsyncIterable<Buffer | string>, scan: WorksheetScan): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  let carry = '';
  for await (const chunk of chunks) {
    const text = carry + (typeof chunk === 'string' ? chunk : decoder.write(chunk));
    const open = text.lastIndexOf('<');
    const cut = open >= 0 && !text.includes('>', open) ? open : text.length;
    carry = text.slice(cut);
    yield markSharedFormulas(text.slice(0, cut), scan);
  }
  yield markSharedFormulas(carry + decoder.end(), scan);
}

/**
 * What one worksheet's XML holds that exceljs' stream reader skips, gathered on the same pass as the shared
 * formulas: merged cells, the auto filter, data validation, conditional formats, and `<sheetProtection sheet="1">`
 * (the sheet imports as a sheet lock).
 */
class WorksheetScan {
  readonly mergeRefs: string[] = [];
  readonly autoFilter = new AutoFilterScan();
  readonly validations = new DataValidationScan();
  readonly conditional: ConditionalFormatScan;
  protected = false;
  /** rows whose `<row ht customHeight="1">` set a height, row (0-based) → pixels */
  readonly rowHeights = new Map<number, number>();
  /** rows of `<row hidden="1">` (0-based), hidden by hand or by a filter */
  readonly hiddenRows: number[] = [];
  /** the rows and columns a frozen `<pane>` keeps in view */
  frozen: ImportedFrozenPane | undefined;
  /** rows whose `<row s customFormat="1">` gives them a style of the model's (0-based) → style */
  readonly rowStyles = new Map<number, CellStyle>();

  /** `styleOf`: the model's style of the workbook's cell style (`cellXfs` entry) numbered so; undefined for the default look */
  constructor(colours: WorkbookColours, readonly styleOf: (id: number) => CellStyle | undefined) {
    this.conditional = new ConditionalFormatScan(colours);
  }
  /** the `<col>` entries giving a width, hiding or styling columns, in the file's order */
  readonly columns: ImportedColumns[] = [];
  /** `<protectedRange name sqref>` entries (Excel's "Allow Edit Ranges") */
  readonly protectedRanges: ImportedProtectedRange[] = [];
}

/** A `<protectedRange>` tag's name and areas (its `sqref`, areas separated by spaces); unreadable areas are left out. */
function noteProtectedRange(attributes: string, scan: WorksheetScan): void {
  const read = attributesOf(attributes);
  const areas = (read.get('sqref') ?? '').split(/\s+/).flatMap((ref) => {
    const range = ref === '' ? undefined : parseA1IfValid(ref);
    return range && range.sheetName === null ? [{ startRow: range.startRow, endRow: range.endRow, startColumn: range.startColumn, endColumn: range.endColumn }] : [];
  });
  if (areas.length > 0) scan.protectedRanges.push({ name: read.get('name') || `Range${scan.protectedRanges.length + 1}`, areas });
}

/** Excel's widest column, 255 characters, in pixels. */
const MAX_IMPORTED_COLUMN_WIDTH = 255 * XLSX_PIXELS_PER_WIDTH_UNIT;

/** Pixels per point: a row's `ht` is in points (1/72 inch), the model's heights are CSS pixels (1/96 inch). */
const PIXELS_PER_POINT = 96 / 72;

/**
 * A `<row>` tag as the model keeps it (a height or width may be written to 17 significant digits, Excel's
 * `ht="20.100000000000001"`, hence the long number patterns here and in noteColumns): hidden or not, and only a height a person set (`customHeight`), since Excel
 * also writes the heights it computed for wrapped text, which the editor measures itself; within the model's bounds;
 * and its style (`s` with `customFormat`), which the row's cells without a style of their own show, empty ones too.
 */
function noteRow(attributes: string, scan: WorksheetScan): void {
  const hidden = /\bhidden="(1|true)"/.test(attributes);
  const custom = /\bcustomHeight="(1|true)"/.test(attributes);
  // a row's `s` applies only with customFormat (Excel's rule; other writers give s="0" without it)
  const styleId = /\bcustomFormat="(1|true)"/.test(attributes) ? Number(/\bs="(\d{1,9})"/.exec(attributes)?.[1] ?? 0) : 0;
  if (!hidden && !custom && styleId === 0) return;
  const row = Number(/\br="(\d{1,7})"/.exec(attributes)?.[1]);
  if (!Number.isInteger(row) || row < 1) return;
  if (hidden) scan.hiddenRows.push(row - 1);
  const style = styleId === 0 ? undefined : scan.styleOf(styleId);
  if (style !== undefined) scan.rowStyles.set(row - 1, style);
  const points = Number(/\bht="(\d[\d.]{0,31})"/.exec(attributes)?.[1]);
  if (custom && Number.isFinite(points) && points > 0) scan.rowHeights.set(row - 1, Math.min(MAX_ROW_HEIGHT, Math.max(MIN_ROW_HEIGHT, Math.round(points * PIXELS_PER_POINT))));
}

/**
 * A `<pane>` tag's frozen rows and columns: `ySplit` rows and `xSplit` columns when its state is frozen (Excel's
 * Freeze Panes; `frozenSplit` too). A split that is not frozen moves with the scroll: not kept.
 */
function notePane(attributes: string, scan: WorksheetScan): void {
  const read = attributesOf(attributes);
  if (read.get('state') !== 'frozen' && read.get('state') !== 'frozenSplit') return;
  const count = (name: string, limit: number) => {
    const value = Number(read.get(name) ?? 0);
    return Number.isInteger(value) && value > 0 ? Math.min(value, limit) : 0;
  };
  const frozen = { rows: count('ySplit', MAX_ROWS), columns: count('xSplit', MAX_COLUMNS) };
  if (frozen.rows > 0 || frozen.columns > 0) scan.frozen = frozen;
}

/**
 * A `<col min max width hidden style>` tag as the model keeps it: its style, and the width in pixels (Excel's width counts characters
 * of the default font's digit width, 7 pixels, padding included: the inverse of the export's pixels ÷ 7), taken
 * whether or not `customWidth` is set since the editor does not size columns by their content; a width of 0 hides
 * the columns, as in Excel.
 */
function noteColumns(attributes: string, scan: WorksheetScan): void {
  const first = Number(/\bmin="(\d{1,5})"/.exec(attributes)?.[1]);
  const last = Number(/\bmax="(\d{1,5})"/.exec(attributes)?.[1]);
  if (!Number.isInteger(first) || first < 1 || !Number.isInteger(last) || last < first) return;
  const characters = Number(/\bwidth="(\d[\d.]{0,31})"/.exec(attributes)?.[1]);
  const pixels = Number.isFinite(characters) ? Math.round(characters * XLSX_PIXELS_PER_WIDTH_UNIT) : undefined;
  const hidden = /\bhidden="(1|true)"/.test(attributes) || pixels === 0;
  const width = pixels && pixels > 0 ? Math.min(MAX_IMPORTED_COLUMN_WIDTH, pixels) : undefined;
  const styleId = Number(/\bstyle="(\d{1,9})"/.exec(attributes)?.[1] ?? 0);
  const style = styleId === 0 ? undefined : scan.styleOf(styleId);
  if (width !== undefined || hidden || style !== undefined) scan.columns.push({ startColumn: first - 1, endColumn: last - 1, width, hidden, ...(style ? { style } : {}) });
}

function markSharedFormulas(xml: string, scan: WorksheetScan): string {
  for (const merge of xml.matchAll(/<mergeCell\b[^>]*?\bref="([^"]{1,40})"/g)) scan.mergeRefs.push(merge[1]!);
  for (const tag of xml.matchAll(/<sheetProtection\b([^>]*)>/g)) if (/\bsheet="(1|true)"/.test(tag[1]!)) scan.protected = true;
  for (const tag of xml.matchAll(/<row\b([^>]*)>/g)) noteRow(tag[1]!, scan);
  for (const tag of xml.matchAll(/<pane\b([^>]*)>/g)) notePane(tag[1]!, scan);
  for (const tag of xml.matchAll(/<col\b([^>]*)>/g)) noteColumns(tag[1]!, scan);
  for (const tag of xml.matchAll(/<protectedRange\b([^>]*)>/g)) noteProtectedRange(tag[1]!, scan);
  if (xml.includes('<autoFilter') || scan.autoFilter.inside) scan.autoFilter.scan(xml);
  if (xml.includes('<dataValidations') || scan.validations.inside) scan.validations.scan(xml);
  if (xml.includes('<conditionalFormatting') || scan.conditional.inside) scan.conditional.scan(xml);
  return markSharedFormulaTags(xml);
}

function markSharedFormulaTags(xml: string): string {
  return xml.replace(/<f\b([^>]*?)(\/?)>/g, (tag, attributes: string, selfClosing: string) => {
    const array = /\bt="array"/.test(attributes) ? /\bref="([^"]{1,40})"/.exec(attributes)?.[1] : undefined;
    if (array !== undefined && !selfClosing) return `<f>${ARRAY_FORMULA}${array}${ARRAY_FORMULA}`;
    const group = /\bt="shared"/.test(attributes) ? /\bsi="(\d+)"/.exec(attributes)?.[1] : undefined;
    if (group === undefined) return tag;
    if (/\bref="/.test(attributes) && !selfClosing) return `<f>${SHARED_MASTER}${group}${SHARED_MASTER}`;
    return selfClosing ? `<f>${SHARED_DEPENDENT}${group}</f>` : `<f>${SHARED_DEPENDENT}${group}`;
  });
}

type CellValue = ExcelJS.CellValue;

/** The shared formulas of a sheet met so far, by group (si): the first cell's formula and address. */
type SharedFormulas = Map<string, { formula: string; address: string }>;

/**
 * The areas of a sheet's array formulas met so far: their other cells hold the values Excel computed, which the
 * model does not keep (the formula spills them again).
 */
type ArrayAreas = CellArea[];

/** Writes a formula's defined names and table references as references (the model has neither): row is zero-based. */
type Resolve = (formula: string, row: number) => string;

/** A formula's text as marked by sharedFormulaMarks, as the cell's own formula (undefined: unknown group). */
function formulaOf(text: string, address: string, shared: SharedFormulas): string | undefined {
  if (text.startsWith(SHARED_MASTER)) {
    const end = text.indexOf(SHARED_MASTER, 1);
    const formula = text.slice(end + 1);
    shared.set(text.slice(1, end), { formula, address });
    return formula;
  }
  if (text.startsWith(SHARED_DEPENDENT)) {
    const master = shared.get(text.slice(1));
    return master && slideFormula(master.formula, master.address, address);
  }
  return text;
}

/** The file's border lines as the model's (docs/SHEETS.md "Cell styles"): the dash-dot kinds are dashed, hair is thin. */
const BORDER_LINES: Readonly<Record<string, BorderLine>> = {
  thin: 'thin',
  hair: 'thin',
  medium: 'medium',
  thick: 'thick',
  double: 'double',
  dotted: 'dotted',
  dashed: 'dashed',
  dashDot: 'dashed',
  dashDotDot: 'dashed',
  slantDashDot: 'dashed',
  mediumDashed: 'medium',
  mediumDashDot: 'medium',
  mediumDashDotDot: 'medium',
};

function borderOfSide(side: Partial<ExcelJS.Border> | undefined, colours: WorkbookColours): Border | undefined {
  const line = side?.style === undefined ? undefined : BORDER_LINES[side.style];
  return line === undefined ? undefined : { s: line, c: colours.rgb(side?.color as XlsxColour | undefined) };
}

/** The desktop format's default font size: cells in it draw at the editor's default size rather than keeping it. */
const DEFAULT_FONT_SIZE = 11;

/** An exceljs cell style (font, fill, alignment, border), as the reader gives one object to every cell of a `cellXfs` entry. */
type ExcelStyle = Partial<ExcelJS.Style>;

/**
 * The part of a cell's look the model keeps (docs/SHEETS.md "Cell styles"): bold, italic, the font colour, a solid
 * fill, left/center/right alignment, wrapping, the font's name (not the theme's font, which is the workbook's
 * default look) and size (not the default 11 points), and each side's border with its colour; colours given as
 * RGB, by the workbook's theme (with its tint) or by the indexed palette (WorkbookColours).
 */
function styleOf(excel: ExcelStyle, colours: WorkbookColours): CellStyle | undefined {
  const { font, fill, alignment, border } = excel;
  return parseCellStyle({
    b: font?.bold === true || undefined,
    i: font?.italic === true || undefined,
    c: textColour(font?.color as XlsxColour | undefined, colours),
    bg: fill?.type === 'pattern' && fill.pattern === 'solid' ? colours.rgb(fill.fgColor as XlsxColour | undefined) : undefined,
    a: alignment?.horizontal,
    w: alignment?.wrapText === true || undefined,
    ff: font?.scheme === undefined ? font?.name : undefined,
    fs: font?.size === DEFAULT_FONT_SIZE ? undefined : font?.size,
    bt: borderOfSide(border?.top, colours),
    br: borderOfSide(border?.right, colours),
    bb: borderOfSide(border?.bottom, colours),
    bl: borderOfSide(border?.left, colours),
  });
}

function isEmptyObject(value: object): boolean {
  for (const _ in value) return false;
  return true;
}

/**
 * A font's colour as the model keeps it. A theme or palette colour that comes out black is the automatic text
 * colour (Excel's own fonts say `theme="1"`, "Text 1", on every cell), the editor's default: left out, or every
 * cell would carry it and every styled empty cell would be kept for it. A colour given as RGB is kept as it is.
 */
function textColour(colour: XlsxColour | undefined, colours: WorkbookColours): string | undefined {
  const rgb = colours.rgb(colour);
  return rgb === '#000000' && colour?.argb === undefined ? undefined : rgb;
}

/**
 * The model's style of each of the workbook's cell styles, worked out once per style: the reader hands every cell
 * of a `cellXfs` entry the same object, so a million cells of a few styles cost a few look-ups each. Cells that
 * take a row's style get an object of their own, worked out each time.
 */
class CellStyles {
  private readonly known = new WeakMap<ExcelStyle, CellStyle | null>();

  constructor(private readonly colours: WorkbookColours) {}

  of(excel: ExcelStyle | undefined): CellStyle | undefined {
    // a cell without a style of its own has a fresh empty object: nothing to read, nothing worth remembering
    if (excel === undefined || isEmptyObject(excel)) return undefined;
    let style = this.known.get(excel);
    if (style === undefined) {
      style = styleOf(excel, this.colours) ?? null;
      this.known.set(excel, style);
    }
    return style ?? undefined;
  }
}

/**
 * An exceljs cell as a cell of the model: formulas keep their text, dates become serial numbers, a number
 * format the service can show is kept (`z`; General and codes it cannot read are left out), and so is the
 * style (`s`). A cell without a value is kept when it has a style (a filled or bordered empty cell, as Excel
 * draws it; the model stores it as an empty cell, docs/SHEETS.md "Cell styles"), with its number format.
 */
function cellOf(cell: ExcelJS.Cell, shared: SharedFormulas, arrays: ArrayAreas, resolve: Resolve, styles: CellStyles): ReadCell | undefined {
  const style = styles.of(cell.style as ExcelStyle | undefined);
  const read = toCell(cell.value, cell.address, shared, arrays, resolve, Number(cell.row) - 1) ?? (style === undefined ? undefined : {});
  if (!read) return undefined;
  const code = typeof cell.numFmt === 'string' ? cell.numFmt : undefined;
  if (code !== undefined && code !== GENERAL && invalidFormatCode(code) === undefined) read.z = code;
  else if (read.date && typeof read.v === 'number') read.z = dateFormatFor(read.v);
  if (style !== undefined) read.s = style;
  return read;
}

/**
 * A read cell without its style where that is the one its row (else column) gives it (`inherited`): the style is
 * kept once, on the line; undefined for a cell left with nothing but that style. exceljs hands a cell the file
 * lists without a style of its own its row's, and Excel writes the row's style on each of the row's cells.
 */
function withoutInheritedStyle(cell: ReadCell | undefined, inherited: CellStyle | undefined): ReadCell | undefined {
  if (cell?.s === undefined || inherited === undefined || !sameStyle(cell.s, inherited)) return cell;
  const { s: _inherited, ...rest } = cell;
  return rest.f === undefined && rest.v === undefined && rest.z === undefined ? undefined : rest;
}

/** A cell's number format and style without its value; undefined when it has no style. */
function lookOnly(cell: ReadCell): ReadCell | undefined {
  if (cell.s === undefined) return undefined;
  return cell.z === undefined ? { s: cell.s } : { z: cell.z, s: cell.s };
}

function toCell(value: CellValue, address: string, shared: SharedFormulas, arrays: ArrayAreas, resolve: Resolve, row: number): ReadCell | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'number' || typeof value === 'boolean') return { v: value };
  if (typeof value === 'string') return value === '' ? undefined : { v: value };
  if (value instanceof Date) return { v: serialOfEpochMs(value.getTime()), date: true };
  if ('formula' in value && typeof value.formula === 'string') {
    let marked = value.formula;
    const array = marked.startsWith(ARRAY_FORMULA);
    if (array) {
      const end = marked.indexOf(ARRAY_FORMULA, 1);
      const area = parseA1IfValid(marked.slice(1, end));
      // a one-cell array formula covers no other cell
      if (area && (area.startRow !== area.endRow || area.startColumn !== area.endColumn)) arrays.push({ startRow: area.startRow, endRow: area.endRow, startColumn: area.startColumn, endColumn: area.endColumn });
      marked = marked.slice(end + 1);
    }
    const formula = formulaOf(marked, address, shared);
    // a cell of a shared formula whose first cell was not met keeps the value Excel computed
    const cached = () => toCell((value as { result?: CellValue }).result ?? null, address, shared, arrays, resolve, row);
    if (formula === undefined) return cached();
    // an array formula spills; any other reads one value where one is wanted, as Excel 365 opens it (`@`)
    const typed = resolve(`=${typedFormula(formula)}`, row);
    const { text, readable } = array ? { text: typed, readable: parseFormula(typed).ok } : legacyFormulaRead(typed);
    // a formula the engine cannot read keeps the value Excel computed for it, shown until someone edits the cell
    if (!readable) {
      const value = cached()?.v;
      return value === undefined || value === null ? { f: text } : { f: text, v: value };
    }
    return { f: text };
  }
  if ('richText' in value && Array.isArray(value.richText)) return { v: value.richText.map((run) => run.text).join('') };
  if ('text' in value && typeof value.text === 'string') return { v: value.text };
  if ('error' in value) return { v: String(value.error) };
  return undefined;
}

function xmlText(value: string): string {
  return value.replace(/&(lt|gt|quot|apos|amp);/g, (_, name: string) => ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' })[name]!);
}

/**
 * The workbook's sheets in their order, by worksheet part number (xl/worksheets/sheetN.xml → N), read from
 * workbook.xml and its relationships. exceljs' stream reader names a sheet only when workbook.xml came before it
 * in the zip, which the format does not promise (exceljs' own writer sometimes puts it after).
 */
async function workbookParts(bytes: Buffer): Promise<{ sheets: Array<{ part: string; name: string }>; date1904: boolean; names: DefinedName[] }> {
  const texts = await readZipTexts(bytes, ['xl/workbook.xml', 'xl/_rels/workbook.xml.rels']);
  const targets = new Map<string, string>();
  for (const match of (texts.get('xl/_rels/workbook.xml.rels') ?? '').matchAll(/<Relationship\b[^>]*>/g)) {
    const id = /\bId="([^"]*)"/.exec(match[0])?.[1];
    const part = /\bTarget="[^"]*worksheets\/sheet(\d+)\.xml"/.exec(match[0])?.[1];
    if (id && part) targets.set(id, part);
  }
  const sheets: Array<{ part: string; name: string }> = [];
  for (const match of (texts.get('xl/workbook.xml') ?? '').matchAll(/<(?:\w+:)?sheet\b[^>]*>/g)) {
    const name = /\bname="([^"]*)"/.exec(match[0])?.[1];
    const rel = /\br:id="([^"]*)"/.exec(match[0])?.[1];
    const part = rel ? targets.get(rel) : undefined;
    if (name !== undefined && part) sheets.push({ part, name: xmlText(name) });
  }
  const date1904 = /<(?:\w+:)?workbookPr\b[^>]*\bdate1904="(1|true)"/.test(texts.get('xl/workbook.xml') ?? '');
  const names: DefinedName[] = [];
  for (const match of (texts.get('xl/workbook.xml') ?? '').matchAll(/<(?:\w+:)?definedName\b([^>]*)>([^<]*)</g)) {
    const name = /\bname="([^"]*)"/.exec(match[1]!)?.[1];
    const local = /\blocalSheetId="(\d+)"/.exec(match[1]!)?.[1];
    if (name !== undefined && !name.startsWith('_xlnm.')) names.push({ name: xmlText(name), sheet: local === undefined ? undefined : Number(local), text: xmlText(match[2]!) });
  }
  return { sheets, date1904, names };
}

/** A defined name of workbook.xml: global, or local to the sheet at that index. */
interface DefinedName {
  name: string;
  sheet: number | undefined;
  text: string;
}

/** The tables ("Format as Table") of each worksheet part, read from the sheets' relationships and the table parts. */
async function tablesOf(bytes: Buffer, sheets: ReadonlyArray<{ part: string; name: string }>): Promise<Map<string, TableDefinition>> {
  const relations = await readZipTexts(bytes, sheets.map((sheet) => `xl/worksheets/_rels/sheet${sheet.part}.xml.rels`));
  const partsOfSheet = new Map<string, string>();
  for (const sheet of sheets) {
    for (const match of (relations.get(`xl/worksheets/_rels/sheet${sheet.part}.xml.rels`) ?? '').matchAll(/<Relationship\b[^>]*\bTarget="[^"]*?(tables\/table\d+\.xml)"/g)) partsOfSheet.set(`xl/${match[1]}`, sheet.name);
  }
  const texts = await readZipTexts(bytes, [...partsOfSheet.keys()]);
  const tables = new Map<string, TableDefinition>();
  for (const [part, sheet] of partsOfSheet) {
    const xml = texts.get(part) ?? '';
    const head = /<(?:\w+:)?table\b([^>]*)>/.exec(xml)?.[1] ?? '';
    const name = /\bdisplayName="([^"]*)"/.exec(head)?.[1] ?? /\bname="([^"]*)"/.exec(head)?.[1];
    const parsed = parseFormula(/\bref="([^"]*)"/.exec(head)?.[1] ?? '');
    if (!name || !parsed.ok || parsed.ast.kind !== 'range') continue;
    tables.set(xmlText(name).toUpperCase(), {
      sheet,
      startRow: parsed.ast.startRow,
      endRow: parsed.ast.endRow,
      startColumn: parsed.ast.startColumn,
      headerRows: Number(/\bheaderRowCount="(\d+)"/.exec(head)?.[1] ?? 1),
      totalsRows: Number(/\btotalsRowCount="(\d+)"/.exec(head)?.[1] ?? 0),
      columns: [...xml.matchAll(/<(?:\w+:)?tableColumn\b[^>]*?\bname="([^"]*)"/g)].map((match) => xmlText(match[1]!)),
    });
  }
  return tables;
}

/**
 * The spreadsheet model has no defined names or tables: an imported formula that names one gets the reference it
 * stands for (`Sales[Amount]` → `Data!$C$2:$C$40`, `TaxRate` → `Setup!$B$1`), as other spreadsheet services
 * import them, so it computes what Excel computed (docs/FORMULAS.md "Names and tables").
 */
function resolverFor(sheetIndex: number, names: readonly DefinedName[], tables: ReadonlyMap<string, TableDefinition>, sheetNames: readonly string[]): Resolve {
  const defined = new Map<string, Ast>();
  // a name may stand for a table's column (`Table1[List Values]`): written as the cells it holds first
  const withTables = (text: string) => (tables.size === 0 ? text : inlineDefinitions(`=${text}`, { names: new Map(), tables, row: 0 }));
  // a sheet's own names hide the workbook's of the same name
  for (const name of [...names.filter((entry) => entry.sheet === undefined), ...names.filter((entry) => entry.sheet === sheetIndex)]) {
    const parsed = parseFormula(withTables(name.text));
    if (parsed.ok) defined.set(name.name.toUpperCase(), parsed.ast);
  }
  // any sheet's own names, written with the sheet's name (`Sheet2!Rate`)
  for (const name of names) {
    const sheet = name.sheet === undefined ? undefined : sheetNames[name.sheet];
    const parsed = sheet === undefined ? undefined : parseFormula(name.text);
    if (parsed?.ok) defined.set(`${sheet!.toUpperCase()}!${name.name.toUpperCase()}`, parsed.ast);
  }
  if (defined.size === 0 && tables.size === 0) return (formula) => formula;
  return (formula, row) => inlineDefinitions(formula, { names: defined, tables, row });
}

/**
 * A worksheet's `<mergeCell ref>`s as the model's merges: each an A1 range of two cells or more, in the order the
 * file lists them; malformed ones, and one overlapping a merge before it, are left out.
 */
function mergesOf(refs: readonly string[]): CellArea[] {
  const areas: CellArea[] = [];
  for (const ref of refs) {
    const range = parseA1IfValid(ref);
    if (!range) continue;
    const { startRow, endRow, startColumn, endColumn } = range;
    const area = { startRow, endRow, startColumn, endColumn };
    if (range.sheetName === null && (startRow < endRow || startColumn < endColumn) && !areas.some((other) => areasOverlap(other, area))) areas.push(area);
  }
  return areas;
}

function attributesOf(text: string): Map<string, string> {
  return new Map([...text.matchAll(/([\w:]+)="([^"]*)"/g)].map((match) => [match[1]!, xmlText(match[2]!)]));
}

/**
 * A worksheet's `<autoFilter>` (which exceljs' stream reader skips) as the model's filter (docs/SHEETS.md "Sort and
 * filter"): the area, each `<filterColumn>`'s `<filters>` values (blank="1" keeps blank cells) and a single
 * `<customFilter>` as a condition. Two conditions joined, top-10, dynamic and colour filters are not in the model:
 * such a column comes without its criterion (it shows every row).
 */
class AutoFilterScan {
  inside = false;
  private ref: string | undefined;
  private readonly columns: Array<{ colId: number; values?: string[]; conditions: Array<FilterCondition | undefined> }> = [];
  private current: (typeof this.columns)[number] | undefined;

  scan(xml: string): void {
    for (const match of xml.matchAll(/<(\/?)(autoFilter|filterColumn|filters|filter|customFilter)\b([^>]*)>/g)) {
      const [, closing, name, rest] = match as unknown as [string, string, string, string];
      const selfClosing = rest.endsWith('/');
      const attributes = attributesOf(rest);
      if (name === 'autoFilter') {
        if (closing) this.inside = false;
        else if (this.ref === undefined) {
          this.ref = attributes.get('ref');
          this.inside = !selfClosing;
        }
        continue;
      }
      if (!this.inside) continue;
      if (name === 'filterColumn') {
        if (closing || selfClosing) this.current = undefined;
        if (!closing) {
          const colId = Number(attributes.get('colId'));
          if (Number.isInteger(colId) && colId >= 0) this.columns.push((this.current = { colId, conditions: [] }));
        }
      } else if (name === 'filters' && !closing && this.current) {
        this.current.values ??= attributes.get('blank') === '1' || attributes.get('blank') === 'true' ? [''] : [];
      } else if (name === 'filter' && !closing && this.current) {
        const value = attributes.get('val');
        if (value !== undefined) (this.current.values ??= []).push(value);
      } else if (name === 'customFilter' && !closing && this.current) {
        this.current.conditions.push(conditionOfXlsx(attributes.get('operator'), attributes.get('val') ?? ''));
      }
    }
  }

  /** The filter read, or undefined when the sheet has none (or its area is not a range of this sheet). */
  result(): ImportedFilter | undefined {
    const range = this.ref === undefined ? undefined : parseA1IfValid(this.ref);
    if (!range || range.sheetName !== null) return undefined;
    const { startRow, endRow, startColumn, endColumn } = range;
    const columns: Array<[number, ColumnFilter]> = [];
    for (const column of this.columns) {
      const criterion: ColumnFilter = {};
      if (column.values) criterion.values = column.values;
      const [condition] = column.conditions;
      if (column.conditions.length === 1 && condition) criterion.condition = condition;
      if (criterion.values || criterion.condition) columns.push([startColumn + column.colId, criterion]);
    }
    return { area: { startRow, endRow, startColumn, endColumn }, columns };
  }
}

/** Longest `<dataValidations>` section kept (Excel allows 65,534 rules; beyond this the rest is left out). */
const MAX_VALIDATION_XML = 4_000_000;

/**
 * A worksheet's `<dataValidations>` (which exceljs' stream reader skips) as the model's rules (docs/SHEETS.md "Data
 * validation"): the section's XML is kept as it streams by, and read once the sheet's rows are. A rule Excel does not
 * enforce (`showErrorMessage` off: it accepts anything) comes as `information`. Rules the model does not keep (time,
 * any value) and lists from other sheets written in the x14 extension are left out.
 */
class DataValidationScan {
  inside = false;
  private xml = '';

  scan(chunk: string): void {
    const start = this.inside ? 0 : chunk.indexOf('<dataValidations');
    if (start < 0) return;
    const end = chunk.indexOf('</dataValidations>', start);
    this.inside = end < 0;
    if (this.xml.length < MAX_VALIDATION_XML) this.xml += chunk.slice(start, end < 0 ? undefined : end);
  }

  /** The rules read; `resolve` writes defined names and table references in their formulas as references. */
  result(resolve: Resolve): ImportedValidation[] {
    const rules: ImportedValidation[] = [];
    for (const match of this.xml.matchAll(/<dataValidation\b([^>]*?)(\/>|>([\s\S]*?)<\/dataValidation>)/g)) {
      const attributes = attributesOf(match[1]!);
      const body = match[3] ?? '';
      const formulae = [1, 2].map((n) => new RegExp(`<formula${n}>([\\s\\S]*?)</formula${n}>`).exec(body)?.[1]).filter((text): text is string => text !== undefined).map(xmlText);
      const flag = (name: string) => attributes.get(name) === '1' || attributes.get(name) === 'true';
      const rule = validationOfXlsx({
        type: attributes.get('type') ?? 'any',
        operator: attributes.get('operator'),
        allowBlank: flag('allowBlank'),
        hideDropDown: flag('showDropDown'),
        errorStyle: flag('showErrorMessage') ? attributes.get('errorStyle') : 'information',
        errorTitle: attributes.get('errorTitle'),
        error: attributes.get('error'),
        promptTitle: attributes.get('promptTitle'),
        prompt: attributes.get('prompt'),
        formulae: formulae.map((formula) => resolve(`=${formula}`, 0).replace(/^=/, '')),
      });
      const areas = (attributes.get('sqref') ?? '').split(/\s+/).map((ref) => parseA1IfValid(ref)).filter((range) => range !== undefined && range.sheetName === null);
      if (rule && areas.length > 0) rules.push({ rule, areas: areas.map((range) => ({ startRow: range!.startRow, endRow: range!.endRow, startColumn: range!.startColumn, endColumn: range!.endColumn })) });
    }
    return rules;
  }
}

/**
 * The looks of the workbook's `<dxfs>` (styles.xml), by dxfId, as conditional formats give them: bold, italic, a
 * font colour, a fill (a dxf's solid fill is its bgColor; fgColor when it has none); colours as WorkbookColours reads them.
 */
function dxfLooksOf(styles: string, colours: WorkbookColours): ConditionalFormat[] {
  const block = /<dxfs\b[^>]*>([\s\S]*?)<\/dxfs>/.exec(styles)?.[1] ?? '';
  const rgb = (xml: string | undefined, tag: string) => {
    const attributes = xml === undefined ? undefined : new RegExp(`<${tag}\\b([^>]*)>`).exec(xml)?.[1];
    return attributes === undefined ? undefined : colours.rgbOfAttributes(attributesOf(attributes));
  };
  const on = (xml: string | undefined, tag: string) => xml !== undefined && new RegExp(`<${tag}(?:\\s+val="(?:1|true)")?\\s*/>`).test(xml);
  return [...block.matchAll(/<dxf\b[^>]*?(?:\/>|>([\s\S]*?)<\/dxf>)/g)].map((match) => {
    const dxf = match[1] ?? '';
    const font = /<font\b[^>]*>([\s\S]*?)<\/font>/.exec(dxf)?.[1];
    const fill = /<fill\b[^>]*>([\s\S]*?)<\/fill>/.exec(dxf)?.[1];
    const look: ConditionalFormat = {};
    const color = rgb(font, 'color');
    const background = rgb(fill, 'bgColor') ?? rgb(fill, 'fgColor');
    if (color) look.color = color;
    if (background) look.fill = background;
    if (on(font, 'b')) look.bold = true;
    if (on(font, 'i')) look.italic = true;
    return look;
  });
}

/**
 * A worksheet's `<conditionalFormatting>` blocks (which exceljs' stream reader skips) as the model's rules
 * (docs/SHEETS.md "Conditional formatting"): each `<cfRule>` with its attributes, `<formula>` texts and the `<cfvo>`
 * and `<color>` of a scale or bar, mapped by conditionalConditionOfXlsx; rules the model cannot say are left out.
 * A formula's text may be split between two chunks: what came of it in the first waits for the second.
 */
class ConditionalFormatScan {
  inside = false;

  constructor(private readonly colours: WorkbookColours) {}

  private readonly blocks: Array<{ sqref: string; rules: Array<XlsxConditionalRule & { priority: number; dxfId?: number }> }> = [];
  private rule: (XlsxConditionalRule & { priority: number; dxfId?: number }) | undefined;
  private formula: string | undefined;

  scan(xml: string): void {
    let textFrom = 0;
    for (const match of xml.matchAll(/<(\/?)(conditionalFormatting|cfRule|formula|cfvo|color)\b([^>]*)>/g)) {
      const [, closing, name, rest] = match as unknown as [string, string, string, string];
      const selfClosing = rest.endsWith('/');
      const attributes = attributesOf(rest);
      if (name === 'conditionalFormatting') {
        this.inside = !closing && !selfClosing;
        if (!closing) this.blocks.push({ sqref: attributes.get('sqref') ?? '', rules: [] });
        continue;
      }
      if (!this.inside) continue;
      const block = this.blocks.at(-1)!;
      if (name === 'cfRule') {
        if (closing) this.rule = undefined;
        else {
          const number = (key: string) => (attributes.has(key) ? Number(attributes.get(key)) : undefined);
          const flag = (key: string) => (attributes.has(key) ? attributes.get(key) === '1' || attributes.get(key) === 'true' : undefined);
          const rule = {
            type: attributes.get('type') ?? '',
            operator: attributes.get('operator'),
            text: attributes.get('text'),
            rank: number('rank'),
            percent: flag('percent'),
            bottom: flag('bottom'),
            aboveAverage: flag('aboveAverage'),
            averageVariant: flag('equalAverage') === true || attributes.has('stdDev'),
            priority: number('priority') ?? block.rules.length,
            dxfId: number('dxfId'),
            formulae: [],
            cfvo: [],
            colors: [],
          };
          block.rules.push(rule);
          this.rule = selfClosing ? undefined : rule;
        }
      } else if (!this.rule) continue;
      else if (name === 'formula') {
        if (!closing && !selfClosing) {
          this.formula = '';
          textFrom = match.index + match[0].length;
        } else if (closing && this.formula !== undefined) {
          this.rule.formulae.push(xmlText(this.formula + xml.slice(textFrom, match.index)));
          this.formula = undefined;
        }
      } else if (name === 'cfvo' && !closing) {
        const value = Number(attributes.get('val'));
        this.rule.cfvo.push({ type: attributes.get('type') ?? '', ...(attributes.has('val') && Number.isFinite(value) ? { value } : {}) });
      } else if (name === 'color' && !closing) {
        this.rule.colors.push(this.colours.rgbOfAttributes(attributes));
      }
    }
    if (this.formula !== undefined) this.formula += xml.slice(textFrom);
  }

  /** The rules read, their areas from each block's sqref (space-separated ranges of this sheet). */
  result(looks: readonly ConditionalFormat[]): ConditionalRule[] {
    const rules: ConditionalRule[] = [];
    for (const block of this.blocks) {
      const ranges = block.sqref.split(/\s+/).filter(Boolean).map((ref) => parseA1IfValid(ref));
      if (ranges.length === 0 || ranges.some((range) => !range || range.sheetName !== null)) continue;
      const areas = ranges.map((range) => ({ startRow: range!.startRow, endRow: range!.endRow, startColumn: range!.startColumn, endColumn: range!.endColumn }));
      for (const rule of block.rules) {
        const condition = conditionalConditionOfXlsx({ ...rule, format: rule.dxfId === undefined ? undefined : looks[rule.dxfId] });
        if (condition) rules.push({ ...condition, id: `xlsx-${rules.length + 1}`, ranges: areas, priority: rule.priority });
      }
    }
    return rules;
  }
}

/**
 * exceljs' WorkbookReader inside: it hands each worksheet's XML to `_parseWorksheet` (which sharedFormulaMarks
 * wraps), and copies a worksheet to a temporary file (tens of MB, in TMPDIR) when the worksheet comes in the zip
 * before the shared strings and the workbook's relations have been read, or when the workbook has no shared
 * strings part at all. primeReader reads both first so the reader never does.
 */
interface ReaderInternals {
  _parseWorksheet(chunks: AsyncIterable<Buffer | string>, sheetNo: string): Iterable<unknown>;
  _parseSharedStrings(entry: Readable): AsyncIterable<unknown>;
  _parseRels(entry: Readable): Promise<void>;
  _parseStyles(entry: Readable): Promise<void>;
  sharedStrings?: unknown[];
  workbookRels?: unknown[];
  /** the workbook's cell styles (`cellXfs`) once parsed, by number; null for a number naming none */
  styles?: { getStyleModel(id: number): ExcelStyle | null };
}

/** exceljs' row inside: its cells by column (0-based), those the file lists; a sparse array. */
interface RowInternals {
  _cells: ExcelJS.Cell[];
}

const SHARED_STRINGS_PART = 'xl/sharedStrings.xml';
const WORKBOOK_RELS_PART = 'xl/_rels/workbook.xml.rels';
const STYLES_PART = 'xl/styles.xml';
/** The workbook's theme, whose colour scheme theme colours name (Excel writes it here; other writers too). */
const THEME_PART = 'xl/theme/theme1.xml';

/**
 * Gives the reader the shared strings, the workbook's relations and the styles before it sees any worksheet (read
 * from the bytes in memory, with its own parsers), and has it skip those parts when they come in the stream: it
 * then reads every worksheet as it streams, and writes no temporary file (docs/IMPORT-EXPORT.md "Temporary
 * files"). The styles too: a worksheet read before them would lose every cell's style (workbooks written by exceljs
 * store styles.xml after the worksheets).
 */
async function primeReader(reader: ReaderInternals, bytes: Buffer): Promise<{ styles: string | undefined; theme: string | undefined }> {
  const parts = await readZipTexts(bytes, [SHARED_STRINGS_PART, WORKBOOK_RELS_PART, STYLES_PART, THEME_PART]);
  const styles = parts.get(STYLES_PART);
  if (styles !== undefined) await reader._parseStyles(Readable.from([styles]));
  const rels = parts.get(WORKBOOK_RELS_PART);
  if (rels === undefined) reader.workbookRels = [];
  else await reader._parseRels(Readable.from([rels]));
  const sharedStrings = parts.get(SHARED_STRINGS_PART);
  if (sharedStrings === undefined) reader.sharedStrings = [];
  else for await (const _ of reader._parseSharedStrings(Readable.from([sharedStrings]))); // fills reader.sharedStrings
  Object.assign(reader, {
    _parseRels: async () => undefined,
    _parseSharedStrings: async function* skip() {},
    _parseStyles: async () => undefined,
  });
  return { styles, theme: parts.get(THEME_PART) };
}

/**
 * Reads the workbook as a stream (exceljs WorkbookReader) and hands each row to `sink` as it comes, so memory
 * follows one row, not the sheet; progress is the share of the file's bytes read.
 */
async function readWorkbook(bytes: Buffer, sink: WorkbookSink, report: ReportFraction): Promise<void> {
  let consumed = 0;
  const input = Readable.from(
    (function* chunks() {
      for (let at = 0; at < bytes.length; at += CHUNK) {
        consumed = Math.min(bytes.length, at + CHUNK);
        report((0.95 * consumed) / bytes.length);
        yield bytes.subarray(at, at + CHUNK);
      }
    })(),
  );
  const { sheets: order, date1904, names } = await workbookParts(bytes);
  const tables = await tablesOf(bytes, order);
  const charts = await workbookCharts(bytes, order);
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(input, { sharedStrings: 'cache', styles: 'cache', hyperlinks: 'ignore', worksheets: 'emit', entries: 'emit' });
  // A worksheet arriving before workbook.xml would make exceljs read the sheet list and date system of a workbook
  // it has not parsed yet: give it both from the parts read above (its own parse replaces them later).
  Object.assign(reader, { model: { sheets: [] }, properties: { model: { date1904 } } });
  const internals = reader as unknown as ReaderInternals;
  const parts = await primeReader(internals, bytes).catch((error: unknown) => {
    throw unreadableWorkbook(error);
  });
  const colours = WorkbookColours.of(parts.theme, parts.styles);
  const styles = new CellStyles(colours);
  const looks = dxfLooksOf(parts.styles ?? '', colours);
  const parseWorksheet = internals._parseWorksheet.bind(reader);
  const scans = new Map<string, WorksheetScan>();
  // each worksheet's part number (sheetN.xml), noted as exceljs hands the worksheet on: an 'entry' event may
  // already tell of the next part (the oracle's workbooks came back with their sheets swapped now and then)
  const partOf = new WeakMap<object, string>();
  Object.assign(reader, {
    _parseWorksheet: function* (chunks: AsyncIterable<Buffer | string>, sheetNo: string) {
      const scan = new WorksheetScan(colours, (id) => styles.of(internals.styles?.getStyleModel(id) ?? undefined));
      scans.set(sheetNo, scan);
      for (const item of parseWorksheet(sharedFormulaMarks(chunks, scan), sheetNo)) {
        const worksheet = (item as { value?: unknown }).value;
        if (typeof worksheet === 'object' && worksheet !== null) partOf.set(worksheet, sheetNo);
        yield item;
      }
    },
  });
  let sheets = 0;
  try {
    for await (const worksheet of reader) {
      const part = partOf.get(worksheet as object) ?? '';
      const sheetReader = worksheet as unknown as AsyncIterable<ExcelJS.Row>;
      const position = order.findIndex((entry) => entry.part === part);
      const name = order[position]?.name ?? `Sheet${part}`;
      sink.beginSheet(name, position < 0 ? order.length + Number(part) : position);
      sheets++;
      const shared: SharedFormulas = new Map();
      const arrays: ArrayAreas = [];
      const resolve = resolverFor(position, names, tables, order.map((entry) => entry.name));
      let previous = 0;
      const scan = scans.get(part);
      // the columns' styles are known at the first row (<cols> precedes <sheetData>), a row's when its tag is: the
      // scan reads each chunk before the parser does
      let columnStyles: Map<number, CellStyle> | undefined;
      for await (const row of sheetReader) {
        // the format lists rows in increasing order; a row given twice or late would have to rewrite cells already handed on
        if (!Number.isSafeInteger(row.number) || row.number < 1) throw new ConversionError('importCorrupt', `the worksheet ${name} has a row without a valid row number`);
        if (row.number <= previous) throw new ConversionError('importCorrupt', `the worksheet ${name} lists row ${row.number} after row ${previous}`);
        previous = row.number;
        const cells: Array<ReadCell | undefined> = [];
        const rowStyle = scan?.rowStyles.get(row.number - 1);
        const lineStyles = (columnStyles ??= importedColumnStyles(scan?.columns ?? [], MAX_COLUMNS));
        // the cells the file lists, with a value or not (eachCell skips those without one, styled or not)
        (row as unknown as RowInternals)._cells.forEach((cell, index) => {
          const read = withoutInheritedStyle(cellOf(cell, shared, arrays, resolve, styles), rowStyle ?? lineStyles.get(index));
          const at = { startRow: row.number - 1, endRow: row.number - 1, startColumn: index, endColumn: index };
          // the other cells of an array formula hold Excel's spilled values: the engine spills them again (their look stays)
          cells[index] = read && read.f === undefined && arrays.some((area) => areasOverlap(area, at)) ? lookOnly(read) : read;
        });
        sink.row(row.number - 1, cells);
      }
      // merges, filter, rules and protection follow the rows in the sheet's XML: all read once the rows are
      sink.merges(mergesOf(scan?.mergeRefs ?? []));
      const filter = scan?.autoFilter.result();
      if (filter) sink.filter(filter);
      const validations = scan?.validations.result(resolve) ?? [];
      if (validations.length > 0) sink.validations(validations);
      const rules = scan?.conditional.result(looks) ?? [];
      if (rules.length > 0) sink.conditionalFormats(rules);
      if (scan?.protected) sink.protectedSheet();
      const drawn = charts.get(part);
      if (drawn) sink.charts(drawn);
      if (scan && scan.rowHeights.size > 0) sink.rowHeights(scan.rowHeights);
      if (scan && scan.columns.length > 0) sink.columns(scan.columns);
      if (scan && scan.rowStyles.size > 0) sink.rowStyles(scan.rowStyles);
      if (scan && scan.protectedRanges.length > 0) sink.protectedRanges(scan.protectedRanges);
      if (scan && scan.hiddenRows.length > 0) sink.hiddenRows(scan.hiddenRows);
      if (scan?.frozen) sink.frozenPane(scan.frozen);
    }
  } catch (error) {
    throw unreadableWorkbook(error);
  }
  if (sheets === 0) throw new ConversionError('importCorrupt', 'the workbook has no worksheet');
  report(1);
}

function unreadableWorkbook(error: unknown): ConversionError {
  if (error instanceof ConversionError) return error;
  return new ConversionError('importCorrupt', `the file is not a readable xlsx workbook (${error instanceof Error ? error.message.slice(0, 200) : 'unreadable'})`);
}

/**
 * Excel workbooks (xlsx, xlsm; macros are not kept): every sheet, values, formulas (their text; the service
 * computes them), dates as serial numbers. A spreadsheet import streams the rows (readWorkbook) into its encoder;
 * `read` collects them, for a table, which needs a whole sheet to type its columns.
 */
export const xlsx: FormatReader = {
  zip: true,
  readWorkbook,
  async read(bytes, report) {
    const collector = new WorkbookCollector();
    await readWorkbook(bytes, collector, report);
    return collector.content();
  },
};
