import { Readable } from 'node:stream';
import { createRequire } from 'node:module';
import { StringDecoder } from 'node:string_decoder';
import ExcelJS from 'exceljs';
import { ConversionError, type FormatReader, type ReadCell, type ReportFraction, type WorkbookSink } from '../conversion.js';
import { WorkbookCollector } from '../workbook.js';
import { readZipTexts } from '../zip-guard.js';
import { parseCellStyle, type Border, type BorderLine, type CellStyle } from '../../../model/sheets/cell-style.js';
import { dateFormatFor, GENERAL, invalidFormatCode } from '../../../model/sheets/number-format.js';
import { inlineDefinitions, parseFormula, type Ast, type TableDefinition } from '../../../model/sheets/formulas/parser.js';
import { parseA1IfValid } from '../../../model/sheets/a1.js';
import { areasOverlap, type CellArea } from '../../../model/sheets/sheet-model.js';
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

/**
 * exceljs' stream reader keeps the text of a cell's <f> element but drops its attributes, so a shared formula
 * (what Excel writes when a formula is filled down or across: the text once, in the range's first cell, and
 * `<f t="shared" si="N"/>` in the others) came back as empty formulas. This rewrites a worksheet's XML on its
 * way to the reader so that the text says what the attributes did: the first cell's formula is marked
 * `SHARED_MASTER N SHARED_MASTER text`, each other cell's is `SHARED_DEPENDENT N`; toCell slides the first
 * cell's formula to each of the others, as Excel does. Tags are rewritten whole: a chunk's unfinished last tag
 * waits for the next chunk. On the same pass, the `ref` of each `<mergeCell>` (which the stream reader skips) goes
 * into `mergeRefs`.
 */
async function* sharedFormulaMarks(chunks: AsyncIterable<Buffer | string>, mergeRefs: string[]): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  let carry = '';
  for await (const chunk of chunks) {
    const text = carry + (typeof chunk === 'string' ? chunk : decoder.write(chunk));
    const open = text.lastIndexOf('<');
    const cut = open >= 0 && !text.includes('>', open) ? open : text.length;
    carry = text.slice(cut);
    yield markSharedFormulas(text.slice(0, cut), mergeRefs);
  }
  yield markSharedFormulas(carry + decoder.end(), mergeRefs);
}

function markSharedFormulas(xml: string, mergeRefs: string[]): string {
  for (const merge of xml.matchAll(/<mergeCell\b[^>]*?\bref="([^"]{1,40})"/g)) mergeRefs.push(merge[1]!);
  return markSharedFormulaTags(xml);
}

function markSharedFormulaTags(xml: string): string {
  return xml.replace(/<f\b([^>]*?)(\/?)>/g, (tag, attributes: string, selfClosing: string) => {
    const group = /\bt="shared"/.test(attributes) ? /\bsi="(\d+)"/.exec(attributes)?.[1] : undefined;
    if (group === undefined) return tag;
    if (/\bref="/.test(attributes) && !selfClosing) return `<f>${SHARED_MASTER}${group}${SHARED_MASTER}`;
    return selfClosing ? `<f>${SHARED_DEPENDENT}${group}</f>` : `<f>${SHARED_DEPENDENT}${group}`;
  });
}

type CellValue = ExcelJS.CellValue;

/** The shared formulas of a sheet met so far, by group (si): the first cell's formula and address. */
type SharedFormulas = Map<string, { formula: string; address: string }>;

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

/** An ARGB colour of the file (`FFRRGGBB`) as `#rrggbb`; theme and indexed colours are not kept. */
function rgbOf(colour: Partial<ExcelJS.Color> | undefined): string | undefined {
  const argb = colour?.argb;
  return typeof argb === 'string' && /^[0-9a-f]{8}$/i.test(argb) ? `#${argb.slice(2)}` : undefined;
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

function borderOfSide(side: Partial<ExcelJS.Border> | undefined): Border | undefined {
  const line = side?.style === undefined ? undefined : BORDER_LINES[side.style];
  return line === undefined ? undefined : { s: line, c: rgbOf(side?.color) };
}

/** The desktop format's default font size: cells in it draw at the editor's default size rather than keeping it. */
const DEFAULT_FONT_SIZE = 11;

/**
 * The part of a cell's look the model keeps (docs/SHEETS.md "Cell styles"): bold, italic, an RGB font colour, an
 * RGB solid fill, left/center/right alignment, wrapping, the font's name (not the theme's font, which is the
 * workbook's default look) and size (not the default 11 points), and each side's border with its RGB colour; theme
 * and indexed colours are left out.
 */
function styleOfCell(cell: ExcelJS.Cell): CellStyle | undefined {
  const { font, fill, alignment, border } = cell;
  return parseCellStyle({
    b: font?.bold === true || undefined,
    i: font?.italic === true || undefined,
    c: rgbOf(font?.color),
    bg: fill?.type === 'pattern' && fill.pattern === 'solid' ? rgbOf(fill.fgColor) : undefined,
    a: alignment?.horizontal,
    w: alignment?.wrapText === true || undefined,
    ff: font?.scheme === undefined ? font?.name : undefined,
    fs: font?.size === DEFAULT_FONT_SIZE ? undefined : font?.size,
    bt: borderOfSide(border?.top),
    br: borderOfSide(border?.right),
    bb: borderOfSide(border?.bottom),
    bl: borderOfSide(border?.left),
  });
}

/**
 * An exceljs cell as a cell of the model: formulas keep their text, dates become serial numbers, a number
 * format the service can show is kept (`z`; General and codes it cannot read are left out), and so is the
 * style (`s`). A cell without a value is not kept, styled or not.
 */
function cellOf(cell: ExcelJS.Cell, shared: SharedFormulas, resolve: Resolve): ReadCell | undefined {
  const read = toCell(cell.value, cell.address, shared, resolve, Number(cell.row) - 1);
  if (!read) return undefined;
  const code = typeof cell.numFmt === 'string' ? cell.numFmt : undefined;
  if (code !== undefined && code !== GENERAL && invalidFormatCode(code) === undefined) read.z = code;
  else if (read.date && typeof read.v === 'number') read.z = dateFormatFor(read.v);
  const style = styleOfCell(cell);
  if (style !== undefined) read.s = style;
  return read;
}

function toCell(value: CellValue, address: string, shared: SharedFormulas, resolve: Resolve, row: number): ReadCell | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'number' || typeof value === 'boolean') return { v: value };
  if (typeof value === 'string') return value === '' ? undefined : { v: value };
  if (value instanceof Date) return { v: serialOfEpochMs(value.getTime()), date: true };
  if ('formula' in value && typeof value.formula === 'string') {
    const formula = formulaOf(value.formula, address, shared);
    // a cell of a shared formula whose first cell was not met keeps the value Excel computed
    if (formula === undefined) return toCell((value as { result?: CellValue }).result ?? null, address, shared, resolve, row);
    return { f: resolve(`=${formula}`, row) };
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
  // a sheet's own names hide the workbook's of the same name
  for (const name of [...names.filter((entry) => entry.sheet === undefined), ...names.filter((entry) => entry.sheet === sheetIndex)]) {
    const parsed = parseFormula(name.text);
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
}

const SHARED_STRINGS_PART = 'xl/sharedStrings.xml';
const WORKBOOK_RELS_PART = 'xl/_rels/workbook.xml.rels';
const STYLES_PART = 'xl/styles.xml';

/**
 * Gives the reader the shared strings, the workbook's relations and the styles before it sees any worksheet (read
 * from the bytes in memory, with its own parsers), and has it skip those parts when they come in the stream: it
 * then reads every worksheet as it streams, and writes no temporary file (docs/IMPORT-EXPORT.md "Temporary
 * files"). The styles too: a worksheet read before them would lose every cell's style (workbooks written by exceljs
 * store styles.xml after the worksheets).
 */
async function primeReader(reader: ReaderInternals, bytes: Buffer): Promise<void> {
  const parts = await readZipTexts(bytes, [SHARED_STRINGS_PART, WORKBOOK_RELS_PART, STYLES_PART]);
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
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(input, { sharedStrings: 'cache', styles: 'cache', hyperlinks: 'ignore', worksheets: 'emit', entries: 'emit' });
  // A worksheet arriving before workbook.xml would make exceljs read the sheet list and date system of a workbook
  // it has not parsed yet: give it both from the parts read above (its own parse replaces them later).
  Object.assign(reader, { model: { sheets: [] }, properties: { model: { date1904 } } });
  const internals = reader as unknown as ReaderInternals;
  await primeReader(internals, bytes).catch((error: unknown) => {
    throw unreadableWorkbook(error);
  });
  const parseWorksheet = internals._parseWorksheet.bind(reader);
  const mergeRefsByPart = new Map<string, string[]>();
  // each worksheet's part number (sheetN.xml), noted as exceljs hands the worksheet on: an 'entry' event may
  // already tell of the next part (the oracle's workbooks came back with their sheets swapped now and then)
  const partOf = new WeakMap<object, string>();
  Object.assign(reader, {
    _parseWorksheet: function* (chunks: AsyncIterable<Buffer | string>, sheetNo: string) {
      const mergeRefs: string[] = [];
      mergeRefsByPart.set(sheetNo, mergeRefs);
      for (const item of parseWorksheet(sharedFormulaMarks(chunks, mergeRefs), sheetNo)) {
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
      const resolve = resolverFor(position, names, tables, order.map((entry) => entry.name));
      let previous = 0;
      for await (const row of sheetReader) {
        // the format lists rows in increasing order; a row given twice or late would have to rewrite cells already handed on
        if (!Number.isSafeInteger(row.number) || row.number < 1) throw new ConversionError('importCorrupt', `the worksheet ${name} has a row without a valid row number`);
        if (row.number <= previous) throw new ConversionError('importCorrupt', `the worksheet ${name} lists row ${row.number} after row ${previous}`);
        previous = row.number;
        const cells: Array<ReadCell | undefined> = [];
        row.eachCell({ includeEmpty: false }, (cell, column) => {
          cells[column - 1] = cellOf(cell, shared, resolve);
        });
        sink.row(row.number - 1, cells);
      }
      // the merges follow the rows in the sheet's XML: all read once the rows are
      sink.merges(mergesOf(mergeRefsByPart.get(part) ?? []));
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
