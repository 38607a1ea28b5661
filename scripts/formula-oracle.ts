/**
 * The formula oracle (issue 23): real workbooks written by Excel, whose formula cells carry the value Excel
 * computed (`<f>` with `<v>` in the sheet XML), imported the way the service imports them (the xlsx reader and
 * the spreadsheet encoder), computed with our engine and compared with what Excel stored.
 *
 * `npm run oracle [-- --misses] [-- --functions N] [-- --only NAME-PART] [-- --peer DIR]` prints the agreement over all cells,
 * averaged per workbook, by file and by function (most missed first). `--peer DIR` also computes the same cells with
 * HyperFormula installed in DIR (`npm install hyperformula` in a folder outside the repository, then
 * `--peer /tmp/hf/node_modules/hyperformula`: GPL, measured, never shipped) and prints its figures beside ours. test/sheets/formula-oracle.test.ts asserts a floor on both
 * figures. The corpus lives outside the repository, at ../shared/formula-oracle from the repository root
 * (docs/FORMULAS.md "Agreement with Excel").
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { joinParts } from '../src/domain/import/conversion.js';
import { formatReader } from '../src/domain/import/formats/index.js';
import { SpreadsheetEncoder } from '../src/domain/import/spreadsheet-encoder.js';
import { readZipTexts } from '../src/domain/import/zip-guard.js';
import { docFromState } from '../src/model/content.js';
import { columnIndex } from '../src/model/sheets/a1.js';
import { referencesOf } from '../src/model/sheets/formulas/evaluate.js';
import { parseFormula, SpreadsheetCalculation, type DisplayValue } from '../src/model/sheets/formulas/index.js';
import { cellInput } from '../src/model/sheets/formulas/yjs.js';
import { sheetIds, sheetModels } from '../src/model/sheets/sheet-model.js';

/** Functions whose value Excel computed at another moment or from the environment: left out, as the corpus says. */
const VOLATILE = new Set(['RAND', 'RANDBETWEEN', 'RANDARRAY', 'NOW', 'TODAY', 'OFFSET', 'INDIRECT', 'CELL', 'INFO']);

/** Volatile functions whose value no second calculation repeats: their dependants are left out too. */
const RANDOM_OR_CLOCK = new Set(['RAND', 'RANDBETWEEN', 'RANDARRAY', 'NOW', 'TODAY']);

/** The value Excel stored for a formula cell. */
export type StoredValue = { kind: 'number'; value: number } | { kind: 'text'; value: string } | { kind: 'boolean'; value: boolean } | { kind: 'error'; code: string };

export interface OracleCell {
  sheet: string;
  address: string;
  formula: string;
  expected: StoredValue;
  actual: DisplayValue;
  agrees: boolean;
  /** whether the peer engine (`--peer`) agrees on this cell; undefined without one */
  peerAgrees?: boolean;
  functions: string[];
}

/** Another engine computing the same workbooks (HyperFormula, `--peer`): built from the imported cells, read cell by cell. */
export interface PeerEngine {
  build(sheets: Array<{ name: string; cells: Array<[row: number, column: number, input: string | number | boolean]> }>): (sheet: number, row: number, column: number) => DisplayValue;
}

interface HyperFormulaModule {
  HyperFormula: {
    buildFromSheets(sheets: Record<string, unknown[][]>, config: Record<string, unknown>, names: Array<{ name: string; expression: string }>): {
      getCellValue(address: { sheet: number; row: number; col: number }): unknown;
      getSheetId(name: string): number | undefined;
    };
  };
}

/**
 * HyperFormula loaded from `directory` (its package folder), set up as its guide "Compatibility with Microsoft Excel"
 * says (1900 leap-year bug, serial dates from 1899-12-30, array arithmetic, empty results as 0, TRUE/FALSE as names).
 * Excel's storage prefixes (`_xlfn.`, `_xlws.`) are taken off the formulas it is given, as our parser reads them.
 */
export function hyperFormulaPeer(directory: string): PeerEngine {
  const { HyperFormula } = createRequire(import.meta.url)(path.resolve(directory)) as HyperFormulaModule;
  const config = {
    licenseKey: 'gpl-v3', leapYear1900: true, nullDate: { year: 1899, month: 12, day: 30 }, useArrayArithmetic: true,
    evaluateNullToZero: true, ignoreWhiteSpace: 'any', maxRows: 1_048_576, maxColumns: 16_384,
  };
  return {
    build(sheets) {
      const grids: Record<string, unknown[][]> = {};
      for (const sheet of sheets) {
        const grid: unknown[][] = [];
        for (const [row, column, input] of sheet.cells) {
          (grid[row] ??= [])[column] = typeof input === 'string' && input.startsWith('=') ? input.replace(/_xlfn\.|_xlws\./gi, '') : input;
        }
        grids[sheet.name] = Array.from(grid, (line) => Array.from(line ?? [], (value) => value ?? null));
      }
      let engine: ReturnType<HyperFormulaModule['HyperFormula']['buildFromSheets']>;
      try {
        engine = HyperFormula.buildFromSheets(grids, config, [{ name: 'TRUE', expression: '=TRUE()' }, { name: 'FALSE', expression: '=FALSE()' }]);
      } catch {
        return () => '#PEER-FAILED';
      }
      const ids = sheets.map((sheet) => engine.getSheetId(sheet.name));
      return (sheet, row, column) => {
        const id = ids[sheet];
        if (id === undefined) return '#PEER-FAILED';
        const value = engine.getCellValue({ sheet: id, row, col: column });
        if (value === null || value === undefined) return 0;
        if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') return value;
        return String((value as { value?: unknown }).value ?? '#PEER-FAILED');
      };
    },
  };
}

export interface WorkbookResult {
  file: string;
  /** formula cells with a stored value that the comparison counts */
  cells: OracleCell[];
  /** formula cells left out (volatile, external link, data table, not an Excel function) */
  excluded: number;
  /** why the workbook could not be compared at all (it does not import) */
  failure?: string;
}

/** The corpus directory: ../shared/formula-oracle from the repository root (a worktree one level deeper also finds it). */
export function corpusDirectory(): string | undefined {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const candidates = [process.env.FORMULA_ORACLE_DIR, path.join(root, '../shared/formula-oracle'), path.join(root, '../../shared/formula-oracle')];
  return candidates.find((candidate): candidate is string => candidate !== undefined && fs.existsSync(path.join(candidate, 'corpus')));
}

function xmlText(value: string): string {
  return value.replace(/&(lt|gt|quot|apos|amp|#(\d+)|#x([0-9a-f]+));/gi, (_, name: string, decimal?: string, hex?: string) => {
    if (decimal) return String.fromCodePoint(Number(decimal));
    if (hex) return String.fromCodePoint(parseInt(hex, 16));
    return ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' } as Record<string, string>)[name]!;
  });
}

/** The workbook's sheets in order: name and the path of its worksheet part (chart sheets left out). */
export async function sheetParts(bytes: Buffer): Promise<Array<{ name: string; part: string }>> {
  const texts = await readZipTexts(bytes, ['xl/workbook.xml', 'xl/_rels/workbook.xml.rels']);
  const targets = new Map<string, string>();
  for (const match of (texts.get('xl/_rels/workbook.xml.rels') ?? '').matchAll(/<Relationship\b[^>]*>/g)) {
    const id = /\bId="([^"]*)"/.exec(match[0])?.[1];
    const target = /\bTarget="([^"]*)"/.exec(match[0])?.[1];
    if (id && target) targets.set(id, target.startsWith('/') ? target.slice(1) : `xl/${target}`);
  }
  const sheets: Array<{ name: string; part: string }> = [];
  for (const match of (texts.get('xl/workbook.xml') ?? '').matchAll(/<(?:\w+:)?sheet\b[^>]*>/g)) {
    const name = /\bname="([^"]*)"/.exec(match[0])?.[1];
    const part = targets.get(/\br:id="([^"]*)"/.exec(match[0])?.[1] ?? '');
    if (name !== undefined && part?.includes('worksheets/')) sheets.push({ name: xmlText(name), part });
  }
  return sheets;
}

interface StoredFormula {
  row: number;
  column: number;
  address: string;
  /** the <f> element's attributes, e.g. t="dataTable" */
  attributes: string;
  value: StoredValue;
}

/** Every formula cell of a worksheet's XML that has a stored value; shared strings are not used by formula results. */
function storedFormulas(xml: string): StoredFormula[] {
  const found: StoredFormula[] = [];
  for (const match of xml.matchAll(/<(?:\w+:)?c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/(?:\w+:)?c>)/g)) {
    const body = match[2];
    if (!body) continue;
    const formula = /<(?:\w+:)?f\b([^>]*?)(?:\/>|>)/.exec(body);
    const stored = /<(?:\w+:)?v>([\s\S]*?)<\/(?:\w+:)?v>|<(?:\w+:)?v\/>/.exec(body);
    if (!formula || !stored) continue;
    const address = /\br="([A-Z]+)(\d+)"/.exec(match[1] ?? '');
    if (!address) continue;
    const type = /\bt="(\w+)"/.exec(match[1] ?? '')?.[1] ?? 'n';
    // OOXML writes characters XML cannot hold (a carriage return among them) as `_xHHHH_`
    const text = xmlText(stored[1] ?? '').replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    const value: StoredValue | undefined =
      type === 'b' ? { kind: 'boolean', value: text === '1' } : type === 'e' ? { kind: 'error', code: text } : type === 'str' || type === 'inlineStr' ? { kind: 'text', value: text } : type === 'n' && text !== '' ? { kind: 'number', value: Number(text) } : undefined;
    const column = columnIndex(address[1]!);
    if (!value || column === undefined) continue;
    found.push({ row: Number(address[2]) - 1, column, address: `${address[1]}${address[2]}`, attributes: formula[1] ?? '', value });
  }
  return found;
}

/** The function names a formula calls, upper case, without Excel's `_xlfn.`/`_xlws.` storage prefixes. */
export function functionsOf(formula: string): string[] {
  const names = new Set<string>();
  const outsideStrings = formula.replace(/"(?:[^"]|"")*"/g, '""');
  for (const match of outsideStrings.matchAll(/(?<![A-Za-z0-9_.$!])((?:_xlfn\.|_xlws\.|_xll\.)*[A-Za-z][A-Za-z0-9_.]*)\s*\(/g)) {
    names.add(match[1]!.toUpperCase().replace(/^(?:_XLFN\.|_XLWS\.)+/, ''));
  }
  return [...names];
}

/** Whether Excel's stored value and ours agree: numbers within 1e-9 relative, text, booleans and error codes exactly. */
export function agrees(expected: StoredValue, actual: DisplayValue): boolean {
  switch (expected.kind) {
    case 'number':
      return typeof actual === 'number' && (actual === expected.value || Math.abs(actual - expected.value) <= 1e-9 * Math.max(Math.abs(actual), Math.abs(expected.value)));
    case 'boolean':
      return actual === expected.value;
    case 'text':
      // a formula giving "" shows as an empty cell
      return actual === expected.value;
    case 'error':
      return actual === expected.code;
  }
}

/**
 * The formula cells whose value depends, directly or through other formulas, on a random number or the clock
 * (they differ at every calculation, Excel's included) or on a function outside Excel's list (an add-in's or a
 * macro's, which no other engine has): keys `sheet index:row:column`. Dependants of INDIRECT and OFFSET are
 * counted: their values are reproducible.
 */
function unreproducibleDependants(formulas: ReadonlyArray<{ sheet: number; row: number; column: number; formula: string }>, sheetIndex: (name: string | null, own: number) => number | undefined, builtIn: (name: string) => boolean): Set<string> {
  const volatile = new Set<string>();
  const references = new Map<string, Array<{ sheet: number; startRow: number; endRow: number; startColumn: number; endColumn: number }>>();
  for (const cell of formulas) {
    const key = `${cell.sheet}:${cell.row}:${cell.column}`;
    if (functionsOf(cell.formula).some((name) => RANDOM_OR_CLOCK.has(name) || !builtIn(name))) volatile.add(key);
    const parsed = parseFormula(cell.formula);
    if (!parsed.ok) continue;
    const found = [];
    for (const reference of referencesOf(parsed.ast)) {
      const sheet = sheetIndex(reference.sheet, cell.sheet);
      if (sheet === undefined) continue;
      found.push(reference.kind === 'cell' ? { sheet, startRow: reference.row, endRow: reference.row, startColumn: reference.column, endColumn: reference.column } : { ...reference, sheet });
    }
    references.set(key, found);
  }
  // spread to fixpoint: a formula reading a volatile cell is volatile
  for (let grew = true; grew; ) {
    grew = false;
    const places = [...volatile].map((key) => key.split(':').map(Number) as [number, number, number]);
    for (const [key, areas] of references) {
      if (volatile.has(key)) continue;
      if (areas.some((area) => places.some(([sheet, row, column]) => sheet === area.sheet && row >= area.startRow && row <= area.endRow && column >= area.startColumn && column <= area.endColumn))) {
        volatile.add(key);
        grew = true;
      }
    }
  }
  return volatile;
}

/** Why a formula is left out of the comparison, or undefined when it counts. */
function exclusion(formula: string, attributes: string, functions: string[], builtIn: (name: string) => boolean): string | undefined {
  if (/\bt="dataTable"/.test(attributes)) return 'data table';
  if (/\[\d+\]/.test(formula.replace(/"(?:[^"]|"")*"/g, '""'))) return 'external link';
  if (functions.some((name) => VOLATILE.has(name))) return 'volatile';
  if (functions.some((name) => !builtIn(name))) return 'not an Excel function';
  return undefined;
}

/** Imports one workbook through the service's import path and compares every formula cell with Excel's value. */
export async function compareWorkbook(file: string, builtIn: (name: string) => boolean, peer?: PeerEngine): Promise<WorkbookResult> {
  const bytes = fs.readFileSync(file);
  const name = path.basename(file);
  const reader = await formatReader(path.extname(file).slice(1).toLowerCase());
  if (!reader?.readWorkbook) return { file: name, cells: [], excluded: 0, failure: 'no workbook reader' };
  const encoder = new SpreadsheetEncoder();
  try {
    await reader.readWorkbook(bytes, encoder, () => {});
  } catch (error) {
    return { file: name, cells: [], excluded: 0, failure: error instanceof Error ? error.message : String(error) };
  }
  const doc = docFromState(joinParts(encoder.finish()));
  const calculation = new SpreadsheetCalculation(doc);
  const ids = sheetIds(doc);
  const importedSheets = sheetModels(doc);
  const parts = await sheetParts(bytes);
  const xml = await readZipTexts(bytes, parts.map((part) => part.part));
  const cells: OracleCell[] = [];
  let excluded = 0;
  const allFormulas: Array<{ sheet: number; row: number; column: number; formula: string }> = [];
  importedSheets.forEach((sheet, index) => {
    sheet.forEachCell((row, column, cell) => {
      if (typeof cell.f === 'string') allFormulas.push({ sheet: index, row, column, formula: cell.f });
    });
  });
  const names = parts.map((part) => part.name.toLowerCase());
  const peerValue = peer?.build(
    sheetModels(doc).map((sheet) => {
      const cells: Array<[number, number, string | number | boolean]> = [];
      sheet.forEachCell((row, column, cell) => {
        const input = cellInput(cell);
        if (input !== null) cells.push([row, column, input]);
      });
      return { name: sheet.name, cells };
    }),
  );
  const volatile = unreproducibleDependants(allFormulas, (name, own) => (name === null ? own : names.indexOf(name.toLowerCase()) >= 0 ? names.indexOf(name.toLowerCase()) : undefined), builtIn);
  parts.forEach((part, index) => {
    const sheetId = ids[index];
    const sheet = importedSheets[index];
    if (sheetId === undefined || !sheet) return;
    for (const stored of storedFormulas(xml.get(part.part) ?? '')) {
      const cell = sheet.cell(stored.row, stored.column);
      // an array formula's other cells hold only values: they are not formulas of the import
      const formula = typeof cell?.f === 'string' ? cell.f : undefined;
      if (formula === undefined) {
        if (!/\bt="(array|shared)"/.test(stored.attributes)) excluded++;
        continue;
      }
      const functions = functionsOf(formula);
      if (exclusion(formula, stored.attributes, functions, builtIn) || volatile.has(`${index}:${stored.row}:${stored.column}`)) {
        excluded++;
        continue;
      }
      const actual = calculation.workbook.displayValue(sheetId, stored.row, stored.column);
      const compared: OracleCell = { sheet: part.name, address: stored.address, formula, expected: stored.value, actual, agrees: agrees(stored.value, actual), functions };
      if (peerValue) compared.peerAgrees = agrees(stored.value, peerValue(index, stored.row, stored.column));
      cells.push(compared);
    }
  });
  calculation.destroy();
  doc.destroy();
  return { file: name, cells, excluded };
}

export interface OracleSummary {
  workbooks: WorkbookResult[];
  cells: number;
  agreed: number;
  /** agreed / cells over every compared cell */
  overall: number;
  /** the mean of each workbook's agreement, over workbooks with at least one compared cell */
  perWorkbook: number;
  byFunction: Array<{ name: string; cells: number; missed: number }>;
}

/** `agreesOf`: whose agreement is counted (ours by default; the peer's with `(cell) => cell.peerAgrees === true`). */
export function summarize(workbooks: WorkbookResult[], agreesOf: (cell: OracleCell) => boolean = (cell) => cell.agrees): OracleSummary {
  let cells = 0;
  let agreed = 0;
  const shares: number[] = [];
  const functions = new Map<string, { cells: number; missed: number }>();
  for (const workbook of workbooks) {
    if (workbook.cells.length === 0) continue;
    const good = workbook.cells.filter(agreesOf).length;
    cells += workbook.cells.length;
    agreed += good;
    shares.push(good / workbook.cells.length);
    for (const cell of workbook.cells) {
      for (const name of cell.functions) {
        const tally = functions.get(name) ?? { cells: 0, missed: 0 };
        tally.cells++;
        if (!agreesOf(cell)) tally.missed++;
        functions.set(name, tally);
      }
    }
  }
  return {
    workbooks,
    cells,
    agreed,
    overall: cells === 0 ? 0 : agreed / cells,
    perWorkbook: shares.length === 0 ? 0 : shares.reduce((sum, share) => sum + share, 0) / shares.length,
    byFunction: [...functions].map(([name, tally]) => ({ name, ...tally })).sort((a, b) => b.missed - a.missed || b.cells - a.cells || a.name.localeCompare(b.name)),
  };
}

/** Runs the whole corpus. */
export async function runOracle(directory: string, builtIn: (name: string) => boolean, only = '', peer?: PeerEngine): Promise<OracleSummary> {
  const corpus = path.join(directory, 'corpus');
  const files = fs
    .readdirSync(corpus)
    .filter((file) => /\.xls[xm]$/i.test(file) && file.includes(only))
    .sort();
  const workbooks: WorkbookResult[] = [];
  for (const file of files) workbooks.push(await compareWorkbook(path.join(corpus, file), builtIn, peer));
  return summarize(workbooks);
}

function percent(share: number): string {
  return `${(share * 100).toFixed(1)} %`;
}

function show(value: StoredValue | DisplayValue): string {
  if (typeof value === 'object') return value.kind === 'error' ? value.code : JSON.stringify(value.value);
  return JSON.stringify(value);
}

async function main(args: string[]): Promise<void> {
  const directory = corpusDirectory();
  if (!directory) {
    console.error('the corpus is not at ../shared/formula-oracle (set FORMULA_ORACLE_DIR)');
    process.exit(2);
  }
  const { isExcelFunction } = await import('../src/model/sheets/formulas/excel-functions.js');
  const only = args.includes('--only') ? (args[args.indexOf('--only') + 1] ?? '') : '';
  const peer = args.includes('--peer') ? hyperFormulaPeer(args[args.indexOf('--peer') + 1] ?? '') : undefined;
  const summary = await runOracle(directory, isExcelFunction, only, peer);
  const functionCount = Number(args[args.indexOf('--functions') + 1]) || 40;
  console.log(`formula oracle: ${summary.workbooks.length} workbooks, ${summary.cells} formula cells compared, ${summary.workbooks.reduce((sum, w) => sum + w.excluded, 0)} left out`);
  console.log(`agreement over all cells:      ${percent(summary.overall)} (${summary.agreed} / ${summary.cells})`);
  console.log(`agreement averaged per workbook: ${percent(summary.perWorkbook)}`);
  const large = new Set(['sheetjs__large_strings.xlsx', 'poi__51710.xlsx']);
  const rest = summarize(summary.workbooks.filter((workbook) => !large.has(workbook.file)));
  console.log(`without the two largest workbooks: ${percent(rest.overall)} (${rest.agreed} / ${rest.cells})`);
  if (peer) {
    const peerAgrees = (cell: OracleCell) => cell.peerAgrees === true;
    const theirs = summarize(summary.workbooks, peerAgrees);
    const theirRest = summarize(summary.workbooks.filter((workbook) => !large.has(workbook.file)), peerAgrees);
    console.log(`peer (HyperFormula) on the same cells: ${percent(theirs.overall)} (${theirs.agreed} / ${theirs.cells}), per workbook ${percent(theirs.perWorkbook)}, without the two largest ${percent(theirRest.overall)} (${theirRest.agreed} / ${theirRest.cells})`);
  }
  console.log('\nby function (most missed first): name  missed / cells');
  for (const tally of summary.byFunction.slice(0, functionCount)) console.log(`  ${tally.name.padEnd(16)} ${String(tally.missed).padStart(6)} / ${tally.cells}`);
  console.log('\nby file: agreement  cells  file');
  for (const workbook of summary.workbooks) {
    if (workbook.failure) {
      console.log(`  not imported: ${workbook.file}: ${workbook.failure}`);
      continue;
    }
    if (workbook.cells.length === 0) continue;
    const good = workbook.cells.filter((cell) => cell.agrees).length;
    const peerShare = peer ? ` ${percent(workbook.cells.filter((cell) => cell.peerAgrees === true).length / workbook.cells.length).padStart(8)}` : '';
    console.log(`  ${percent(good / workbook.cells.length).padStart(8)}${peerShare} ${String(workbook.cells.length).padStart(6)}  ${workbook.file}`);
    if (args.includes('--misses')) {
      for (const cell of workbook.cells.filter((c) => !c.agrees).slice(0, 8)) console.log(`      ${cell.sheet}!${cell.address} ${cell.formula}  Excel ${show(cell.expected)}  ours ${show(cell.actual)}`);
    }
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main(process.argv.slice(2));
