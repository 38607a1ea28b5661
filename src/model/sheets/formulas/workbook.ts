import { MAX_COLUMNS, MAX_ROWS } from '../a1.js';
import type { EvaluationContext, RangeArg } from './args.js';
import { evaluateFormula, evaluateWhole, referencesOf, type FormulaResult } from './evaluate.js';
import { isRange } from './args.js';
import { CellMap, isFormulaInput, mayGiveArray, parsedAt, volatilityOf, type CellInput, type CellSource, type SourceArea, type StoredInput } from './cell-source.js';
import { parseFormula, type Ast, type CellReference, type RangeReference } from './parser.js';
import { Err, FormulaError, isErrorCode, toDisplay, type CellValue, type DisplayValue } from './values.js';

export { isFormulaInput, type CellInput, type CellSource } from './cell-source.js';

export interface CellAddress {
  sheetId: string;
  /** zero-based */
  row: number;
  /** zero-based */
  column: number;
}

export interface CellChange extends CellAddress {
  input: CellInput;
  /** the value stored with a formula the engine cannot read (Excel's, kept by an import): the cell shows it */
  cached?: CellInput;
}

export interface SheetSpec {
  id: string;
  /** the name formulas of other sheets refer to it by (matched ignoring case) */
  name: string;
  /** `cached`: the value stored with a formula the engine cannot read (see CellChange) */
  cells?: Iterable<readonly [row: number, column: number, input: CellInput, cached?: CellInput]>;
  /** where the cells are read from as they are needed, instead of `cells` (a document's sheet, formulas/yjs.ts) */
  source?: CellSource;
}

export interface WorkbookOptions {
  /** the clock of TODAY and NOW, milliseconds since 1970 (default Date.now) */
  now?: () => number;
}

// Cells are numbered sheet * 2^34 + row * 2^14 + column: one number key per cell, exact below 2^53. Sheets are numbered
// from 0 in their order, so the first sheet's keys of its first 131,072 rows are below 2^31: small integers to V8, which
// its Maps and arrays hold unboxed (a key above that is a heap number, hashed and allocated at every use).
const ROW_STRIDE = MAX_COLUMNS;
const SHEET_STRIDE = 2 ** 34;
/** Ranges at most this many columns wide are indexed under each of their columns, wider ones in one list. */
const BUCKETED_WIDTH = 16;
/**
 * Ranges of at most this many cells (`SUM(A5:D5)` in each row) are watched cell by cell, as single references are:
 * a change then finds its dependants by one lookup, where a column's list would hold every row's range (a change in
 * column B of 10,000 rows of `SUM(A:D)` would check 10,000 of them).
 */
const CELLWISE_AREA = 64;
/** Ranges of at most this many cells are read cell by cell, larger ones through the inputs their source holds. */
const PROBED_AREA = 4096;

interface Formula {
  text: string;
  /** undefined: the text does not parse (the cell shows `cached`, else #ERROR!) */
  ast: Ast | undefined;
  cached?: CellValue;
  volatile: 'clock' | 'always' | undefined;
  /**
   * registered as a dependant of what it refers to: done for computed formulas only, when a change first looks for
   * dependants after the formula was computed (`registerComputed`), or at once for a formula a change writes
   */
  watched: boolean;
  /** what it refers to (referencesOf), found once */
  references?: Array<CellReference | RangeReference>;
  /** where this formula is registered as a dependant, to unregister it when it changes */
  cellPrecedents: number[] | undefined;
  rangePrecedents: RangeWatch[] | undefined;
}

/** A formula cell read so far (a value gets no entry: it is read from its source each time). */
interface Entry {
  value: CellValue;
  formula: Formula;
  /** a formula whose value is not current: never computed yet, or due in the recalculation under way */
  dirty?: boolean;
  /** being computed now: reading it again is a cycle */
  evaluating?: boolean;
}

/** How deep formulas read before their turn compute one another before a read takes the value as it is. */
const MAX_EARLY_DEPTH = 200;

/**
 * The area an array result of the formula at `anchor` covers (itself at the top-left). `blocked`: a cell of it holds
 * something, or another array spills there, so the formula shows #SPILL! and the area stays empty.
 */
interface SpillArea {
  row: number;
  column: number;
  rows: number;
  columns: number;
  blocked: boolean;
}

/** How many times one change may let spills move other spills (an array sized by what another spills) before it stops. */
const MAX_SPILL_ROUNDS = 16;

interface RangeWatch {
  sheet: SheetState;
  startRow: number;
  endRow: number;
  startColumn: number;
  endColumn: number;
  dependant: number;
}

class SheetState {
  /** the formulas read so far, with their value once computed (values are read from the source each time) */
  readonly cells = new Map<number, Entry>();
  /** inputs set through `setCells`, null where emptied: they stand before the source's */
  readonly written = new Map<number, StoredInput | null>();
  /** the used area's bounds (true upper bounds: they only grow), found when first needed (`Workbook.bounds`) */
  maxRow = -1;
  maxColumn = -1;
  boundsKnown = false;
  /** the furthest row and column seen holding an input so far: a range ending before them needs no bounds */
  seenRow = -1;
  seenColumn = -1;
  /** ranges on this sheet that formulas watch: narrow ones per column, wide ones together */
  readonly narrowWatches = new Map<number, Set<RangeWatch>>();
  readonly wideWatches = new Set<RangeWatch>();
  /** values spilled by array formulas, by cell key: they hold no formula and no input */
  readonly spilled = new Map<number, { anchor: number; value: CellValue }>();
  /** the area of each formula whose result is an array, by its cell key */
  readonly spills = new Map<number, SpillArea>();

  constructor(
    readonly number: number,
    readonly id: string,
    public name: string,
    readonly source: CellSource,
  ) {}

  key(row: number, column: number): number {
    return this.number * SHEET_STRIDE + row * ROW_STRIDE + column;
  }
}

/**
 * The inputs `Workbook.forEachCell` read in its area, by position, for the formulas it computes: in an array over the
 * area when that is not much larger than the cells read (a read of a block of cells), else by cell key. A Map keyed by
 * cell numbers above 2^31 (every key here) costs several times an array's look-up, and building one for 100,000 cells
 * was most of a range read.
 */
class AreaInputs {
  private readonly dense: Array<StoredInput | undefined> | undefined;
  private readonly byKey: Map<number, StoredInput> | undefined;
  private readonly width: number;

  constructor(
    private readonly area: SourceArea,
    keys: readonly number[],
    stored: readonly StoredInput[],
  ) {
    this.width = area.endColumn - area.startColumn + 1;
    const cells = (area.endRow - area.startRow + 1) * this.width;
    if (cells <= 4 * keys.length + 65_536) {
      this.dense = new Array<StoredInput | undefined>(cells);
      for (let index = 0; index < keys.length; index++) {
        const { row, column } = addressOf(keys[index]!);
        this.dense[(row - area.startRow) * this.width + column - area.startColumn] = stored[index];
      }
    } else {
      this.byKey = new Map();
      for (let index = 0; index < keys.length; index++) this.byKey.set(keys[index]!, stored[index]!);
    }
  }

  /** The input read at the cell `key`, (row, column) of the area; undefined where none was. */
  at(key: number, row: number, column: number): StoredInput | undefined {
    if (this.dense) return this.dense[(row - this.area.startRow) * this.width + column - this.area.startColumn];
    return this.byKey?.get(key);
  }
}

function addressOf(key: number): { sheet: number; row: number; column: number } {
  const sheet = Math.floor(key / SHEET_STRIDE);
  const local = key - sheet * SHEET_STRIDE;
  const row = Math.floor(local / ROW_STRIDE);
  return { sheet, row, column: local - row * ROW_STRIDE };
}

/**
 * The formula engine: a workbook of sheets read from cell sources, giving each cell's computed value and
 * recomputing only what depends on a change. Shared by the spreadsheet editor (browser) and the server
 * (values API, plain text); see index.ts and docs/FORMULAS.md "How the engine computes".
 *
 * It is built lazily. Opening a workbook reads nothing: cell inputs are read from each sheet's `CellSource` when a
 * value is asked for, and a formula is parsed and computed when its value (or a formula reading it) is, its
 * precedents first (collected from its static references, ordered by their strongly connected components: the
 * members of a reference cycle get `#REF!`, never a loop). Only the formulas that may give an array (mayGiveArray,
 * cell-source.ts) are computed at the first read, so that every spill is in place before any cell is shown.
 *
 * Dependencies are static (every reference a formula names, whichever IF branch is taken) and recorded for the
 * formulas computed so far. After a change, the changed cells' computed dependants and every computed volatile
 * formula (RAND, INDIRECT, OFFSET…) are collected, ordered, and evaluated once each in dependency order; formulas
 * never computed stay so, and compute with the new inputs when read. A reference computed at evaluation time
 * (INDIRECT, OFFSET) is not in that order: a formula it reads that is not yet current is computed at that moment
 * (and a read going round in a circle is `#REF!`).
 */
export class Workbook {
  private readonly sheetsById = new Map<string, SheetState>();
  private readonly sheetsByNumber = new Map<number, SheetState>();
  private readonly sheetsByName = new Map<string, SheetState>();
  /** the computed formulas referring to each cell: one number for the usual single reader, a set for several */
  private readonly cellWatches = new Map<number, number | Set<number>>();
  /**
   * Formulas computed whose references are not registered yet (`watch`): registered when a change first looks for
   * dependants (`dependantsOf`), so a read that no change follows records none (20,000 formulas: a tenth of a first read).
   */
  private unregistered: number[] = [];
  /** computed formulas calling a volatile function; `clock` those reading the clock (TODAY, NOW) */
  private readonly volatile = new Set<number>();
  private readonly clock = new Set<number>();
  /**
   * Whether the formulas that may give an array have been computed (and so every spill is in place): done before
   * the first value is given; until then nothing is computed and a change only stores its input.
   */
  private arraysKnown = false;
  private earlyDepth = 0;
  private readonly now: () => number;
  private evaluatingSheet: SheetState | undefined;
  private evaluatingKey = 0;
  /** the cell a data validation formula is checking, read as the value being entered there (`evaluateAt`) */
  private candidate: { key: number; value: CellValue } | undefined;
  private readonly context: EvaluationContext;
  /** spilled cells emptied or written in the recalculation under way, with what they showed before it */
  private spillBefore = new Map<number, CellValue>();
  /** arrays that lost their cells to an array coming before them in this recalculation: recomputed (#SPILL!) next */
  private readonly evicted = new Set<number>();
  /** the inputs of the area `forEachCell` is visiting, read once (the written ones among them included) */
  private areaInputs: { sheet: SheetState; area: SourceArea; inputs: AreaInputs } | undefined;

  constructor(sheets: Iterable<SheetSpec> = [], options: WorkbookOptions = {}) {
    this.now = options.now ?? Date.now;
    this.context = {
      cell: (reference) => this.referencedValue(reference),
      range: (reference) => this.referencedRange(reference),
      spill: (anchor) => this.spillRange(anchor),
      sheetsBetween: (first, last) => this.sheetsBetween(first, last),
      now: () => this.now(),
      position: () => addressOf(this.evaluatingKey),
    };
    this.load(sheets);
  }

  /** Replaces every sheet and cell; nothing is read or computed until a value is asked for. */
  load(sheets: Iterable<SheetSpec>): void {
    this.sheetsById.clear();
    this.sheetsByNumber.clear();
    this.sheetsByName.clear();
    this.forgetComputed();
    for (const spec of sheets) this.createSheet(spec.id, spec.name, spec.source ?? new CellMap(spec.cells));
  }

  /** Sheet ids in the order they were added. */
  sheetIds(): string[] {
    return [...this.sheetsById.keys()];
  }

  /** Adds a sheet; formulas naming it (so far `#REF!`) now read it. */
  addSheet(spec: SheetSpec): void {
    if (this.sheetsById.has(spec.id)) throw new Error(`sheet ${spec.id} exists`);
    this.createSheet(spec.id, spec.name, spec.source ?? new CellMap(spec.cells));
    this.rebuild([...this.sheetsById.values()]);
  }

  /** Renames a sheet: formulas naming the old name give `#REF!`, those naming the new one read it. */
  renameSheet(sheetId: string, name: string): void {
    const sheet = this.sheetsById.get(sheetId);
    if (sheet) sheet.name = name;
    this.rebuild([...this.sheetsById.values()]);
  }

  removeSheet(sheetId: string): void {
    this.rebuild([...this.sheetsById.values()].filter((sheet) => sheet.id !== sheetId));
  }

  /** The computed value of a cell, a value an array formula spilled there included (null: empty). Unknown sheets read as empty. */
  value(sheetId: string, row: number, column: number): CellValue {
    const sheet = this.sheetsById.get(sheetId);
    if (!sheet) return null;
    this.ensureArrays();
    return this.read(sheet, sheet.key(row, column));
  }

  /**
   * The area the array result of the formula at (row, column) covers, itself included (zero-based, inclusive), and
   * whether it is blocked (#SPILL!); undefined when that cell holds no formula with an array result.
   */
  spillArea(sheetId: string, row: number, column: number): { startRow: number; endRow: number; startColumn: number; endColumn: number; blocked: boolean } | undefined {
    const sheet = this.sheetsById.get(sheetId);
    if (!sheet) return undefined;
    this.ensureArrays();
    const area = sheet.spills.get(sheet.key(row, column));
    return area && { startRow: area.row, endRow: area.row + area.rows - 1, startColumn: area.column, endColumn: area.column + area.columns - 1, blocked: area.blocked };
  }

  /** The cell whose formula spilled a value into (row, column), or undefined when no array covers that cell. */
  spillAnchor(sheetId: string, row: number, column: number): { row: number; column: number } | undefined {
    const sheet = this.sheetsById.get(sheetId);
    if (!sheet) return undefined;
    this.ensureArrays();
    const spilled = sheet.spilled.get(sheet.key(row, column));
    if (!spilled) return undefined;
    const { row: anchorRow, column: anchorColumn } = addressOf(spilled.anchor);
    return { row: anchorRow, column: anchorColumn };
  }

  /** The value as clients show it: errors as their code (`#DIV/0!`), empty as "". */
  displayValue(sheetId: string, row: number, column: number): DisplayValue {
    return toDisplay(this.value(sheetId, row, column));
  }

  /**
   * Visits the non-empty cells of a sheet inside a rectangle (inclusive, zero-based), in no particular
   * order, with their computed value and, for formulas, their text. Unknown sheets have no cells. The area's
   * formulas are computed together (with what they read), and only they.
   */
  forEachCell(
    sheetId: string,
    area: { startRow: number; endRow: number; startColumn: number; endColumn: number },
    visit: (row: number, column: number, value: Exclude<CellValue, null>, formula: string | undefined) => void,
  ): void {
    const sheet = this.sheetsById.get(sheetId);
    if (!sheet || area.endRow < area.startRow || area.endColumn < area.startColumn) return;
    this.ensureArrays();
    // one pass over the source: values as they are, formulas kept to be computed together in one order
    const keys: number[] = [];
    const values: Array<CellValue | Entry> = [];
    const stored: StoredInput[] = [];
    const formulas: number[] = [];
    this.forEachInputIn(sheet, area, (key, input) => {
      keys.push(key);
      stored.push(input);
      if (isFormulaInput(input.input)) {
        const entry = this.entryFor(sheet, key, input);
        values.push(entry);
        if (entry.dirty) formulas.push(key);
      } else {
        values.push(storedValue(input.input));
      }
    });
    // a read of cells computed before (a second read of the same range) computes nothing: nothing more to index
    if (formulas.length > 0) {
      // the formulas mostly read cells of the area: answered from what was just read rather than looked up again
      this.areaInputs = { sheet, area, inputs: new AreaInputs(area, keys, stored) };
      try {
        this.computeLazily(formulas);
      } finally {
        this.areaInputs = undefined;
      }
    }
    for (let index = 0; index < keys.length; index++) {
      const held = values[index]!;
      const value = isEntry(held) ? held.value : held;
      if (value === null) continue;
      const { row, column } = addressOf(keys[index]!);
      visit(row, column, value, isEntry(held) ? held.formula?.text : undefined);
    }
    for (const [key, spilled] of sheet.spilled) {
      if (spilled.value === null) continue;
      const { row, column } = addressOf(key);
      if (row >= area.startRow && row <= area.endRow && column >= area.startColumn && column <= area.endColumn) visit(row, column, spilled.value, undefined);
    }
  }

  /** Why a formula cell shows `#ERROR!` (its text does not parse), or undefined. */
  formulaProblem(sheetId: string, row: number, column: number): string | undefined {
    const sheet = this.sheetsById.get(sheetId);
    const held = sheet && this.entryOrValue(sheet, sheet.key(row, column));
    const formula = isEntry(held) ? held.formula : undefined;
    if (!formula || formula.ast) return undefined;
    const parsed = parseFormula(formula.text);
    return parsed.ok ? undefined : parsed.reason;
  }

  setCell(sheetId: string, row: number, column: number, input: CellInput): CellAddress[] {
    return this.setCells([{ sheetId, row, column, input }]);
  }

  /**
   * Applies inputs and recomputes what depends on them among the formulas computed so far (those never read
   * compute with the new inputs when they are). Returns every cell whose value changed: the cells set and the
   * computed dependants whose result differs. Cells of unknown sheets are ignored.
   */
  setCells(changes: Iterable<CellChange>): CellAddress[] {
    const changed: number[] = [];
    const formulas: number[] = [];
    for (const change of changes) {
      const sheet = this.sheetsById.get(change.sheetId);
      if (!sheet) continue;
      const key = sheet.key(change.row, change.column);
      this.unwatch(key);
      // a formula replaced or removed takes its spilled values with it
      this.clearSpill(sheet, key);
      const entry = this.store(sheet, change.row, change.column, change.input, change.cached);
      changed.push(key);
      if (entry?.formula) formulas.push(key);
    }
    // nothing computed yet: the new inputs are read when values are asked for
    if (!this.arraysKnown) return changed.map((key) => this.addressOfKey(key));
    for (const key of formulas) this.watch(key);
    // volatile formulas recompute after every change, as in Excel
    const recomputed = this.recompute(changed.length === 0 ? [] : [...changed, ...this.volatile]);
    const result = new Set<number>(changed);
    for (const key of recomputed) result.add(key);
    return [...result].map((key) => this.addressOfKey(key));
  }

  /**
   * A formula that stands in no cell (a data validation rule's, without its "="), computed as if it stood at
   * (row, column) of the sheet, with that cell reading `candidate` (the value being entered, not yet stored): the
   * cell's own references and the ranges holding it see the candidate; other formulas keep their stored values.
   * `whole`: a reference or array result is answered as its values row by row (a list's source), else as one value.
   * A formula that does not parse is #ERROR!; an unknown sheet reads as #REF!.
   */
  evaluateAt(sheetId: string, row: number, column: number, text: string, candidate: CellValue | undefined, whole: true): CellValue[] | FormulaError;
  evaluateAt(sheetId: string, row: number, column: number, text: string, candidate?: CellValue, whole?: false): CellValue;
  evaluateAt(sheetId: string, row: number, column: number, text: string, candidate?: CellValue, whole = false): CellValue | CellValue[] | FormulaError {
    const sheet = this.sheetsById.get(sheetId);
    if (!sheet) return Err.ref;
    const parsed = parseFormula(text.startsWith('=') ? text : `=${text}`);
    if (!parsed.ok) return Err.syntax;
    this.ensureArrays();
    const [evaluatingSheet, evaluatingKey] = [this.evaluatingSheet, this.evaluatingKey];
    this.evaluatingSheet = sheet;
    this.evaluatingKey = sheet.key(row, column);
    this.candidate = candidate === undefined ? undefined : { key: this.evaluatingKey, value: candidate };
    try {
      if (!whole) {
        // a rule asks one value: an array result gives its first (top left) value
        const value = evaluateFormula(parsed.ast, this.context);
        return Array.isArray(value) ? (value[0]?.[0] ?? null) : value;
      }
      const result = evaluateWhole(parsed.ast, this.context);
      if (result instanceof FormulaError) return result;
      if (!isRange(result)) return [result];
      const values: CellValue[] = [];
      for (let r = 0; r < result.rows; r++) for (let c = 0; c < result.columns; c++) values.push(result.get(r, c));
      return values;
    } catch (error) {
      if (error instanceof RangeError) return Err.syntax;
      throw error;
    } finally {
      this.candidate = undefined;
      this.evaluatingSheet = evaluatingSheet;
      this.evaluatingKey = evaluatingKey;
    }
  }

  /** Recomputes the computed formulas that read the clock (TODAY, NOW) and their dependants; the others read it when computed. */
  recalculateVolatile(): CellAddress[] {
    if (this.clock.size === 0) return [];
    return this.recompute([...this.clock]).map((key) => this.addressOfKey(key));
  }

  /** How many formulas have been read (and are kept, with their value once computed): the engine's memory grows with them. */
  formulasRead(): number {
    let count = 0;
    for (const sheet of this.sheetsById.values()) count += sheet.cells.size;
    return count;
  }

  /** Drops everything computed or derived (values, dependencies, spills); inputs set through setCells stay. */
  private forgetComputed(): void {
    this.unregistered = [];
    this.cellWatches.clear();
    this.volatile.clear();
    this.clock.clear();
    this.spillBefore.clear();
    this.evicted.clear();
    this.arraysKnown = false;
  }

  /** The sheets again in this order, with their sources and written inputs, nothing computed (sheets were added, renamed or removed). */
  private rebuild(sheets: SheetState[]): void {
    this.sheetsById.clear();
    this.sheetsByNumber.clear();
    this.sheetsByName.clear();
    this.forgetComputed();
    for (const old of sheets) {
      const sheet = this.createSheet(old.id, old.name, old.source);
      for (const [key, stored] of old.written) sheet.written.set(sheet.key(addressOf(key).row, addressOf(key).column), stored);
    }
  }

  private createSheet(id: string, name: string, source: CellSource): SheetState {
    // numbered by position: sheets are only removed all at once (load, rebuild), so each number stays unique
    const sheet = new SheetState(this.sheetsById.size, id, name, source);
    this.sheetsById.set(id, sheet);
    this.sheetsByNumber.set(sheet.number, sheet);
    const folded = name.toLowerCase();
    if (!this.sheetsByName.has(folded)) this.sheetsByName.set(folded, sheet);
    return sheet;
  }

  private addressOfKey(key: number): CellAddress {
    const { sheet, row, column } = addressOf(key);
    return { sheetId: this.sheetsByNumber.get(sheet)?.id ?? '', row, column };
  }

  /** The input at `key`: as last set through setCells, else the source's. */
  private inputAt(sheet: SheetState, key: number): StoredInput | undefined {
    const written = sheet.written.get(key);
    if (written !== undefined) return written ?? undefined;
    const { row, column } = addressOf(key);
    const known = this.areaInputs;
    if (known?.sheet === sheet && row >= known.area.startRow && row <= known.area.endRow && column >= known.area.startColumn && column <= known.area.endColumn) {
      return known.inputs.at(key, row, column);
    }
    const stored = sheet.source.input(row, column);
    if (!stored || stored.input === '') return undefined;
    if (row > sheet.seenRow) sheet.seenRow = row;
    if (column > sheet.seenColumn) sheet.seenColumn = column;
    return stored;
  }

  /** Visits the inputs inside an area, the source's and those set through setCells, by cell key. */
  private forEachInputIn(sheet: SheetState, area: SourceArea, visit: (key: number, stored: StoredInput) => void): void {
    // most reads find nothing set through setCells: a look-up per cell by a key above 2^31 is then skipped
    const written = sheet.written.size > 0 ? sheet.written : undefined;
    sheet.source.forEachInput(area, (row, column, stored) => {
      const key = sheet.key(row, column);
      if (written?.has(key) || stored.input === '') return;
      if (row > sheet.seenRow) sheet.seenRow = row;
      if (column > sheet.seenColumn) sheet.seenColumn = column;
      visit(key, stored);
    });
    for (const [key, stored] of sheet.written) {
      if (!stored) continue;
      const { row, column } = addressOf(key);
      if (row >= area.startRow && row <= area.endRow && column >= area.startColumn && column <= area.endColumn) visit(key, stored);
    }
  }

  /**
   * The cell at `key`: a formula's entry (made when first read, not yet computed), else the value stored there (null:
   * empty). A value gets no object of its own: a first read of a band reads tens of thousands of them.
   */
  private entryOrValue(sheet: SheetState, key: number): Entry | CellValue {
    const known = sheet.cells.get(key);
    if (known) return known;
    const stored = this.inputAt(sheet, key);
    if (!stored) return null;
    return isFormulaInput(stored.input) ? this.entryFor(sheet, key, stored) : storedValue(stored.input);
  }

  /** The entry of the formula stored at `key`, made (parsed, not computed) when first asked for. */
  private entryFor(sheet: SheetState, key: number, stored: StoredInput): Entry {
    const known = sheet.cells.get(key);
    if (known) return known;
    const text = stored.input as string;
    const { row, column } = addressOf(key);
    const parsed = parsedAt(text, stored.relative, row, column);
    const ast = parsed.ok ? parsed.ast : undefined;
    const formula: Formula = { text, ast, volatile: ast && volatilityOf(stored, ast), watched: false, cellPrecedents: undefined, rangePrecedents: undefined };
    const cached = stored.cached;
    if (!ast && cached !== undefined && cached !== null && cached !== '') formula.cached = storedValue(cached);
    const entry: Entry = { value: null, formula, dirty: true };
    sheet.cells.set(key, entry);
    return entry;
  }

  /** Stores an input set through setCells (not yet evaluated). */
  private store(sheet: SheetState, row: number, column: number, input: CellInput, cached?: CellInput): Entry | undefined {
    const key = sheet.key(row, column);
    sheet.cells.delete(key);
    if (input === null || input === '') {
      sheet.written.set(key, null);
      return undefined;
    }
    const stored: StoredInput = cached === undefined ? { input } : { input, cached };
    sheet.written.set(key, stored);
    if (sheet.boundsKnown) {
      if (row > sheet.maxRow) sheet.maxRow = row;
      if (column > sheet.maxColumn) sheet.maxColumn = column;
    }
    return isFormulaInput(input) ? this.entryFor(sheet, key, stored) : undefined;
  }

  /**
   * The used area's bounds, found when first needed (a range reaching past every input seen so far): the source's
   * extent, the inputs set and the spills. They only grow afterwards.
   */
  private bounds(sheet: SheetState): { maxRow: number; maxColumn: number } {
    if (!sheet.boundsKnown) {
      sheet.boundsKnown = true;
      const extent = sheet.source.extent();
      sheet.maxRow = Math.max(sheet.maxRow, extent?.lastRow ?? -1);
      sheet.maxColumn = Math.max(sheet.maxColumn, extent?.lastColumn ?? -1);
      const grow = (key: number) => {
        const { row, column } = addressOf(key);
        sheet.maxRow = Math.max(sheet.maxRow, row);
        sheet.maxColumn = Math.max(sheet.maxColumn, column);
      };
      for (const [key, stored] of sheet.written) if (stored) grow(key);
      for (const key of sheet.spilled.keys()) grow(key);
    }
    return sheet;
  }

  /**
   * Computes, before the first value is given, every formula that may give an array (and what they read), so that
   * every spill is in place: an empty cell may show a value spilled from elsewhere. The others wait to be read.
   */
  private ensureArrays(): void {
    if (this.arraysKnown) return;
    this.arraysKnown = true;
    const arrays: number[] = [];
    for (const sheet of this.sheetsById.values()) {
      sheet.source.forEachFormula(mayGiveArray, (row, column, stored) => {
        const key = sheet.key(row, column);
        if (!sheet.written.has(key)) arrays.push(key);
        this.entryFor(sheet, key, stored);
      });
      for (const [key, stored] of sheet.written) {
        if (stored && isFormulaInput(stored.input) && mayGiveArray(stored.input)) {
          arrays.push(key);
          this.entryFor(sheet, key, stored);
        }
      }
    }
    if (arrays.length === 0) return;
    this.computeLazily(arrays);
    // arrays reading cells another array spills, or losing their cells to one coming before them: as after a change
    const seeds = [...this.settledSpills(), ...this.evicted];
    this.evicted.clear();
    this.recompute(seeds);
  }

  /**
   * Computes the formulas at `keys` that are not current, and the formulas they read that are not, precedents first
   * (strongly connected components of their static references, without recursion); the members of a cycle get
   * #REF!. Each is then registered as a dependant of what it refers to.
   */
  private computeLazily(keys: number[]): void {
    const edges = new Map<number, number[]>();
    const pending: number[] = [];
    for (const key of keys) {
      if (edges.has(key) || !this.isPending(key)) continue;
      const precedents = this.pendingPrecedents(key);
      // a formula reading no formula still to compute (most of them) needs no place in an order: computed at once
      if (precedents.length === 0) {
        this.computeInOrder(key, false);
        continue;
      }
      edges.set(key, precedents);
      for (const precedent of precedents) if (!edges.has(precedent)) pending.push(precedent);
    }
    while (pending.length > 0) {
      const key = pending.pop()!;
      if (edges.has(key)) continue;
      const precedents = this.pendingPrecedents(key);
      edges.set(key, precedents);
      for (const precedent of precedents) if (!edges.has(precedent)) pending.push(precedent);
    }
    // Tarjan's algorithm finishes a component after everything it reaches: here its precedents, so in order
    for (const component of stronglyConnected(edges)) {
      const inCycle = component.length > 1 || edges.get(component[0]!)!.includes(component[0]!);
      for (const key of component) this.computeInOrder(key, inCycle);
    }
  }

  /** Computes the formula at `key` (#REF! for a member of a cycle) when still due, and registers what it refers to. */
  private computeInOrder(key: number, inCycle: boolean): void {
    const entry = this.entryAt(key)!;
    // computed already by a formula read through INDIRECT or OFFSET meanwhile
    if (!entry.dirty || entry.evaluating) return;
    if (inCycle) {
      entry.value = this.place(key, Err.ref);
      entry.dirty = false;
    } else {
      this.computeEntry(key, entry);
    }
    // volatile formulas are known at once (every change and clock tick recomputes them); references when needed
    const volatile = entry.formula.volatile;
    if (volatile) this.volatile.add(key);
    if (volatile === 'clock') this.clock.add(key);
    this.unregistered.push(key);
  }

  /** Registers the references of the formulas computed since the last change looked for dependants. */
  private registerComputed(): void {
    if (this.unregistered.length === 0) return;
    const keys = this.unregistered;
    this.unregistered = [];
    for (const key of keys) this.watch(key);
  }

  /** Whether the cell at `key` holds a formula that is not current and not being computed. */
  private isPending(key: number, sheet = this.sheetsByNumber.get(Math.floor(key / SHEET_STRIDE))): boolean {
    const held = sheet && this.entryOrValue(sheet, key);
    return isEntry(held) && held.dirty === true && !held.evaluating;
  }

  /** The formulas the formula at `key` refers to (cells and the formulas inside its ranges) that are not current. */
  private pendingPrecedents(key: number): number[] {
    const formula = this.entryAt(key)?.formula;
    const own = this.sheetsByNumber.get(Math.floor(key / SHEET_STRIDE));
    if (!formula?.ast || !own) return [];
    const found: number[] = [];
    for (const reference of this.referencesOf(formula)) {
      const sheet = this.sheetNamed(reference.sheet, own);
      if (!sheet) continue;
      if (reference.kind === 'cell') {
        const precedent = sheet.key(reference.row, reference.column);
        if (this.isPending(precedent, sheet)) found.push(precedent);
        continue;
      }
      this.forEachInputIn(sheet, reference, (precedent, stored) => {
        if (isFormulaInput(stored.input) && this.isPending(precedent, sheet)) found.push(precedent);
      });
    }
    return found;
  }

  private sheetsBetween(first: string, last: string): string[] | undefined {
    const sheets = [...this.sheetsById.values()];
    const from = sheets.indexOf(this.sheetsByName.get(first.toLowerCase())!);
    const to = sheets.indexOf(this.sheetsByName.get(last.toLowerCase())!);
    if (from < 0 || to < 0) return undefined;
    return sheets.slice(Math.min(from, to), Math.max(from, to) + 1).map((sheet) => sheet.name);
  }

  private sheetNamed(name: string | null, own: SheetState): SheetState | undefined {
    return name === null ? own : this.sheetsByName.get(name.toLowerCase());
  }

  private entryAt(key: number): Entry | undefined {
    const sheet = this.sheetsByNumber.get(Math.floor(key / SHEET_STRIDE));
    return sheet?.cells.get(key);
  }

  /** Registers the formula at `key` (once) as a dependant of everything it refers to, and as volatile if it is. */
  private watch(key: number): void {
    const entry = this.entryAt(key);
    const formula = entry?.formula;
    if (!formula?.ast || formula.watched) return;
    const own = this.sheetsByNumber.get(Math.floor(key / SHEET_STRIDE));
    if (!own) return;
    formula.watched = true;
    if (formula.volatile) this.volatile.add(key);
    if (formula.volatile === 'clock') this.clock.add(key);
    for (const reference of this.referencesOf(formula)) {
      const sheet = this.sheetNamed(reference.sheet, own);
      if (!sheet) continue;
      if (reference.kind === 'cell') {
        this.watchCell(sheet.key(reference.row, reference.column), key, formula);
        continue;
      }
      if ((reference.endRow - reference.startRow + 1) * (reference.endColumn - reference.startColumn + 1) <= CELLWISE_AREA) {
        for (let row = reference.startRow; row <= reference.endRow; row++) {
          for (let column = reference.startColumn; column <= reference.endColumn; column++) this.watchCell(sheet.key(row, column), key, formula);
        }
        continue;
      }
      const watch: RangeWatch = { sheet, startRow: reference.startRow, endRow: reference.endRow, startColumn: reference.startColumn, endColumn: reference.endColumn, dependant: key };
      if (watch.endColumn - watch.startColumn < BUCKETED_WIDTH) {
        for (let column = watch.startColumn; column <= watch.endColumn; column++) {
          let bucket = sheet.narrowWatches.get(column);
          if (!bucket) sheet.narrowWatches.set(column, (bucket = new Set()));
          bucket.add(watch);
        }
      } else {
        sheet.wideWatches.add(watch);
      }
      (formula.rangePrecedents ??= []).push(watch);
    }
  }

  /** What a formula refers to, found once. */
  private referencesOf(formula: Formula): Array<CellReference | RangeReference> {
    if (!formula.ast) return [];
    formula.references ??= referencesOf(formula.ast, (first, last) => this.sheetsBetween(first, last));
    return formula.references;
  }

  private watchCell(precedent: number, dependant: number, formula: Formula): void {
    const watchers = this.cellWatches.get(precedent);
    if (watchers === undefined) this.cellWatches.set(precedent, dependant);
    else if (typeof watchers !== 'number') watchers.add(dependant);
    else if (watchers !== dependant) this.cellWatches.set(precedent, new Set([watchers, dependant]));
    (formula.cellPrecedents ??= []).push(precedent);
  }

  private unwatch(key: number): void {
    this.volatile.delete(key);
    this.clock.delete(key);
    const formula = this.entryAt(key)?.formula;
    if (!formula) return;
    formula.watched = false;
    for (const precedent of formula.cellPrecedents ?? []) {
      const watchers = this.cellWatches.get(precedent);
      if (watchers === key) this.cellWatches.delete(precedent);
      else if (typeof watchers === 'object') {
        watchers.delete(key);
        if (watchers.size === 0) this.cellWatches.delete(precedent);
      }
    }
    for (const watch of formula.rangePrecedents ?? []) {
      if (watch.endColumn - watch.startColumn < BUCKETED_WIDTH) {
        for (let column = watch.startColumn; column <= watch.endColumn; column++) watch.sheet.narrowWatches.get(column)?.delete(watch);
      } else {
        watch.sheet.wideWatches.delete(watch);
      }
    }
    formula.cellPrecedents = undefined;
    formula.rangePrecedents = undefined;
  }

  /** Formulas that refer to the cell at `key`, directly or through a range. */
  private dependantsOf(key: number): number[] {
    this.registerComputed();
    const found: number[] = [];
    const direct = this.cellWatches.get(key);
    if (typeof direct === 'number') found.push(direct);
    else if (direct) for (const dependant of direct) found.push(dependant);
    const { sheet: number, row, column } = addressOf(key);
    const sheet = this.sheetsByNumber.get(number);
    if (!sheet) return found;
    const covers = (watch: RangeWatch) => row >= watch.startRow && row <= watch.endRow && column >= watch.startColumn && column <= watch.endColumn;
    const bucket = sheet.narrowWatches.get(column);
    if (bucket) for (const watch of bucket) if (covers(watch)) found.push(watch.dependant);
    for (const watch of sheet.wideWatches) if (covers(watch)) found.push(watch.dependant);
    return found;
  }

  /**
   * Re-evaluates the formulas among `changed` and everything depending on them, each once, in dependency
   * order; returns the formula cells whose value changed.
   */
  private recompute(changed: number[]): number[] {
    const updated = new Set<number>();
    let seeds = changed;
    for (let round = 0; round < MAX_SPILL_ROUNDS && seeds.length > 0; round++) {
      for (const key of this.recomputeOnce(seeds)) updated.add(key);
      // spilled values that changed are changes too: their readers recompute, and an array blocked there may now fit
      seeds = [...this.settledSpills(), ...this.evicted];
      this.evicted.clear();
      for (const key of seeds) updated.add(key);
    }
    this.spillBefore.clear();
    this.evicted.clear();
    return [...updated];
  }

  /** Cells whose spilled value changed in this recalculation so far (the record starts again). */
  private settledSpills(): number[] {
    const moved: number[] = [];
    for (const [key, before] of this.spillBefore) {
      const sheet = this.sheetsByNumber.get(Math.floor(key / SHEET_STRIDE));
      if ((sheet?.spilled.get(key)?.value ?? null) !== before) moved.push(key);
    }
    this.spillBefore.clear();
    return moved;
  }

  /** Formulas whose array would cover the cell at `key` (spilled or blocked there), besides the cell's own. */
  private anchorsCovering(key: number): number[] {
    const sheet = this.sheetsByNumber.get(Math.floor(key / SHEET_STRIDE));
    if (!sheet || sheet.spills.size === 0) return [];
    const { row, column } = addressOf(key);
    const found: number[] = [];
    for (const [anchor, area] of sheet.spills) {
      if (anchor !== key && row >= area.row && row < area.row + area.rows && column >= area.column && column < area.column + area.columns) found.push(anchor);
    }
    return found;
  }

  /**
   * Marks the formulas among `changed` and their computed dependants (transitively) not current, and computes them
   * again (computeLazily: precedents first, with those never computed, so that a cycle through formulas not yet read
   * is found too); returns those whose value changed.
   */
  private recomputeOnce(changed: number[]): number[] {
    const seen = new Set<number>();
    // a cell written or emptied inside an array's area blocks or frees that array: its formula recomputes
    const pending = [...changed, ...changed.flatMap((key) => this.anchorsCovering(key))];
    while (pending.length > 0) {
      const key = pending.pop()!;
      if (seen.has(key)) continue;
      seen.add(key);
      for (const dependant of this.dependantsOf(key)) if (!seen.has(dependant)) pending.push(dependant);
    }
    const keys: number[] = [];
    const entries: Entry[] = [];
    const before: CellValue[] = [];
    for (const key of seen) {
      const entry = this.entryAt(key);
      if (!entry?.formula) continue;
      keys.push(key);
      entries.push(entry);
      before.push(entry.value);
      entry.dirty = true;
    }
    this.computeLazily(keys);
    const updated: number[] = [];
    for (let i = 0; i < entries.length; i++) if (entries[i]!.value !== before[i]) updated.push(keys[i]!);
    return updated;
  }

  /**
   * Computes a dirty formula now, keeping the evaluation under way (the reader's) as it was; a value being validated
   * (`evaluateAt`) is not seen: the formula computes with the stored inputs.
   */
  private computeEntry(key: number, entry: Entry): void {
    const formula = entry.formula!;
    const [sheet, evaluatingKey, candidate] = [this.evaluatingSheet, this.evaluatingKey, this.candidate];
    entry.evaluating = true;
    this.candidate = undefined;
    try {
      entry.value = this.place(key, this.evaluate(key, formula));
    } finally {
      entry.evaluating = false;
      entry.dirty = false;
      this.evaluatingSheet = sheet;
      this.evaluatingKey = evaluatingKey;
      this.candidate = candidate;
    }
  }

  /**
   * Puts a formula's result in place and gives the value its own cell shows: an array spills into the cells below
   * and to the right (the first value stays in the formula's cell), or is #SPILL! when one of them holds something,
   * another array spills there, or the area passes the grid's edge. The array's previous spill is emptied first.
   */
  private place(key: number, result: FormulaResult): CellValue {
    const sheet = this.sheetsByNumber.get(Math.floor(key / SHEET_STRIDE))!;
    this.clearSpill(sheet, key);
    if (!Array.isArray(result)) return result;
    const { row, column } = addressOf(key);
    const rows = result.length;
    const columns = result[0]!.length;
    const area: SpillArea = { row, column, rows, columns, blocked: false };
    sheet.spills.set(key, area);
    if (row + rows > MAX_ROWS || column + columns > MAX_COLUMNS) {
      area.blocked = true;
      return Err.spill;
    }
    // two arrays wanting the same cells: the one whose formula comes first (by row, then column) spills, whatever
    // order they were computed in; the other is #SPILL! (recomputed in the next round, `evicted`)
    const rivals = new Set<number>();
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < columns; c++) {
        const target = sheet.key(row + r, column + c);
        if (target === key) continue;
        const rival = sheet.spilled.get(target)?.anchor;
        if (this.inputAt(sheet, target) !== undefined || (rival !== undefined && rival < key)) {
          area.blocked = true;
          return Err.spill;
        }
        if (rival !== undefined) rivals.add(rival);
      }
    }
    for (const rival of rivals) {
      this.clearSpill(sheet, rival);
      this.evicted.add(rival);
    }
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < columns; c++) {
        const target = sheet.key(row + r, column + c);
        if (target === key) continue;
        if (!this.spillBefore.has(target)) this.spillBefore.set(target, null);
        sheet.spilled.set(target, { anchor: key, value: result[r]![c]! });
      }
    }
    // bounds not found yet will count the spill when they are
    if (sheet.boundsKnown) {
      sheet.maxRow = Math.max(sheet.maxRow, row + rows - 1);
      sheet.maxColumn = Math.max(sheet.maxColumn, column + columns - 1);
    }
    return result[0]![0]!;
  }

  /** Empties what the formula at `key` spilled, remembering what those cells showed (their readers recompute). */
  private clearSpill(sheet: SheetState, key: number): void {
    const area = sheet.spills.get(key);
    if (!area) return;
    sheet.spills.delete(key);
    if (area.blocked) return;
    for (let r = 0; r < area.rows; r++) {
      for (let c = 0; c < area.columns; c++) {
        const target = sheet.key(area.row + r, area.column + c);
        const spilled = sheet.spilled.get(target);
        if (!spilled || spilled.anchor !== key) continue;
        if (!this.spillBefore.has(target)) this.spillBefore.set(target, spilled.value);
        sheet.spilled.delete(target);
      }
    }
  }

  /** `A1#`: the area the array at A1 spills into, as a reference; #REF! when A1 holds no spilling array. */
  private spillRange(anchor: CellReference): RangeArg | FormulaError {
    const sheet = this.evaluatingSheet && this.sheetNamed(anchor.sheet, this.evaluatingSheet);
    if (!sheet) return Err.ref;
    const key = sheet.key(anchor.row, anchor.column);
    // the array's formula may still be due in this recalculation: computed first
    this.read(sheet, key);
    const area = sheet.spills.get(key);
    if (!area || area.blocked) return Err.ref;
    return this.rangeOf(sheet, area.row, area.column, area.rows, area.columns);
  }

  private evaluate(key: number, formula: Formula): FormulaResult {
    if (!formula.ast) return formula.cached ?? Err.syntax;
    this.evaluatingSheet = this.sheetsByNumber.get(Math.floor(key / SHEET_STRIDE));
    this.evaluatingKey = key;
    try {
      return evaluateFormula(formula.ast, this.context);
    } catch (error) {
      // a formula too large for the runtime (stack, array size) is that cell's error, never the caller's
      if (error instanceof RangeError) return Err.syntax;
      throw error;
    }
  }

  /**
   * A cell's value as a formula (or a caller) reads it. A formula not current (never computed, or still to be
   * recomputed in this recalculation and met through a reference computed at evaluation time) is computed first,
   * with what it reads; one being computed is a cycle: `#REF!`.
   */
  private read(sheet: SheetState, key: number): CellValue {
    if (this.candidate?.key === key) return this.candidate.value;
    const entry = this.entryOrValue(sheet, key);
    if (!isEntry(entry)) {
      if (entry !== null) return entry;
      const spilled = sheet.spilled.get(key);
      if (!spilled) return null;
      // the array's formula is due in this recalculation: computed first, so its spill is current
      const anchor = sheet.cells.get(spilled.anchor);
      if (anchor?.dirty && !anchor.evaluating) this.read(sheet, spilled.anchor);
      return sheet.spilled.get(key)?.value ?? null;
    }
    if (entry.dirty) {
      if (entry.evaluating) return Err.ref;
      if (this.earlyDepth < MAX_EARLY_DEPTH) {
        this.earlyDepth++;
        try {
          this.computeLazily([key]);
        } finally {
          this.earlyDepth--;
        }
      }
    }
    return entry.value;
  }

  private referencedValue(reference: CellReference): CellValue {
    const sheet = this.evaluatingSheet && this.sheetNamed(reference.sheet, this.evaluatingSheet);
    if (!sheet) return Err.ref;
    return this.read(sheet, sheet.key(reference.row, reference.column));
  }

  private referencedRange(reference: RangeReference | CellReference): RangeArg | FormulaError {
    const sheet = this.evaluatingSheet && this.sheetNamed(reference.sheet, this.evaluatingSheet);
    if (!sheet) return Err.ref;
    if (reference.kind === 'cell') return this.rangeOf(sheet, reference.row, reference.column, 1, 1);
    // only the used area can hold values: A:A reads the rows in use, not a million
    // (and the cell a validation formula checks, which may lie past it)
    const candidate = this.candidate && addressOf(this.candidate.key).sheet === sheet.number ? addressOf(this.candidate.key) : undefined;
    // a range ending before an input already seen is inside the used area: the bounds need not be found for it
    const inside = !sheet.boundsKnown && reference.endRow <= sheet.seenRow && reference.endColumn <= sheet.seenColumn;
    const used = inside ? { maxRow: reference.endRow, maxColumn: reference.endColumn } : this.bounds(sheet);
    const maxRow = Math.max(used.maxRow, candidate?.row ?? -1);
    const maxColumn = Math.max(used.maxColumn, candidate?.column ?? -1);
    const rows = Math.max(1, Math.min(reference.endRow, maxRow) - reference.startRow + 1);
    const columns = Math.max(1, Math.min(reference.endColumn, maxColumn) - reference.startColumn + 1);
    return this.rangeOf(sheet, reference.startRow, reference.startColumn, rows, columns);
  }

  private rangeOf(sheet: SheetState, top: number, left: number, rows: number, columns: number): RangeArg {
    return {
      kind: 'range',
      rows,
      columns,
      origin: { row: top, column: left, sheet: sheet.name },
      get: (row, column) => this.read(sheet, sheet.key(top + row, left + column)),
      forEach: (visit) => {
        // probe a small area cell by cell (row by row); a larger one through the inputs the source holds there
        if (rows * columns <= PROBED_AREA) {
          for (let row = 0; row < rows; row++) {
            for (let column = 0; column < columns; column++) {
              const value = this.read(sheet, sheet.key(top + row, left + column));
              if (value !== null) visit(value, row, column);
            }
          }
          return;
        }
        const area = { startRow: top, endRow: top + rows - 1, startColumn: left, endColumn: left + columns - 1 };
        const inside = (at: { row: number; column: number }) => at.row >= top && at.row < top + rows && at.column >= left && at.column < left + columns;
        const keys: number[] = [];
        this.forEachInputIn(sheet, area, (key) => keys.push(key));
        for (const key of sheet.spilled.keys()) if (inside(addressOf(key))) keys.push(key);
        for (const key of keys) {
          const at = addressOf(key);
          const value = this.read(sheet, key);
          if (value !== null) visit(value, at.row - top, at.column - left);
        }
        // a value being validated in a cell nothing is stored in yet
        const candidate = this.candidate;
        if (candidate && candidate.value !== null && Math.floor(candidate.key / SHEET_STRIDE) === sheet.number && !sheet.spilled.has(candidate.key) && this.inputAt(sheet, candidate.key) === undefined) {
          const at = addressOf(candidate.key);
          if (inside(at)) visit(candidate.value, at.row - top, at.column - left);
        }
      },
    };
  }
}

/** Whether a cell held while its area is visited is a formula's entry rather than a value. */
function isEntry(held: CellValue | Entry | undefined): held is Entry {
  return typeof held === 'object' && held !== null && !(held instanceof FormulaError);
}

/** A value stored in a cell: an error code is that error, as in Excel (typed, or stored by a workbook: `#N/A` is #N/A, not text). */
function storedValue(input: CellInput): CellValue {
  return typeof input === 'string' && isErrorCode(input) ? FormulaError.of(input) : input;
}

/** Strongly connected components (Tarjan, without recursion: a chain of 100,000 cells must not overflow the stack). */
function stronglyConnected(edges: Map<number, number[]>): number[][] {
  const index = new Map<number, number>();
  const low = new Map<number, number>();
  const onStack = new Set<number>();
  const stack: number[] = [];
  const components: number[][] = [];
  let counter = 0;
  const frames: number[] = [];
  const positions: number[] = [];
  const enter = (node: number) => {
    index.set(node, counter);
    low.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    frames.push(node);
    positions.push(0);
  };
  for (const [root, next] of edges) {
    if (index.has(root)) continue;
    // a formula reading no formula still to compute (most of them): a component of its own, at once
    if (next.length === 0) {
      index.set(root, counter++);
      components.push([root]);
      continue;
    }
    enter(root);
    while (frames.length > 0) {
      const top = frames.length - 1;
      const node = frames[top]!;
      const next = edges.get(node) ?? [];
      const position = positions[top]!;
      if (position < next.length) {
        positions[top] = position + 1;
        const target = next[position]!;
        if (!index.has(target)) enter(target);
        else if (onStack.has(target)) low.set(node, Math.min(low.get(node)!, index.get(target)!));
        continue;
      }
      frames.pop();
      positions.pop();
      if (low.get(node) === index.get(node)) {
        const component: number[] = [];
        let member: number;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== node);
        components.push(component);
      }
      const parent = frames.at(-1);
      if (parent !== undefined) low.set(parent, Math.min(low.get(parent)!, low.get(node)!));
    }
  }
  return components;
}
