import { MAX_COLUMNS } from '../a1.js';
import type { EvaluationContext, RangeArg } from './args.js';
import { evaluateFormula, referencesOf, volatility } from './evaluate.js';
import { parseFormula, type Ast, type CellReference, type RangeReference } from './parser.js';
import { Err, FormulaError, isErrorCode, toDisplay, type CellValue, type DisplayValue } from './values.js';

/** What a cell holds: a value, a formula (text starting with "=" and longer than it), or null (empty). */
export type CellInput = string | number | boolean | null;

export interface CellAddress {
  sheetId: string;
  /** zero-based */
  row: number;
  /** zero-based */
  column: number;
}

export interface CellChange extends CellAddress {
  input: CellInput;
}

export interface SheetSpec {
  id: string;
  /** the name formulas of other sheets refer to it by (matched ignoring case) */
  name: string;
  cells?: Iterable<readonly [row: number, column: number, input: CellInput]>;
}

export interface WorkbookOptions {
  /** the clock of TODAY and NOW, milliseconds since 1970 (default Date.now) */
  now?: () => number;
}

/** Whether an input is a formula: text starting with "=" and longer than "=". */
export function isFormulaInput(input: CellInput): input is string {
  return typeof input === 'string' && input.length > 1 && input.startsWith('=');
}

// Cells are numbered sheet * 2^34 + row * 2^14 + column: one number key per cell, exact below 2^53.
const ROW_STRIDE = MAX_COLUMNS;
const SHEET_STRIDE = 2 ** 34;
/** Ranges at most this many columns wide are indexed under each of their columns, wider ones in one list. */
const BUCKETED_WIDTH = 16;

interface Formula {
  text: string;
  /** undefined: the text does not parse (#ERROR!) */
  ast: Ast | undefined;
  volatile: 'clock' | 'always' | undefined;
  /** where this formula is registered as a dependant, to unregister it when it changes */
  cellPrecedents: number[];
  rangePrecedents: RangeWatch[];
}

interface Entry {
  value: CellValue;
  formula?: Formula;
  /** a formula to recompute in the recalculation under way: read before its turn, it is computed first */
  dirty?: boolean;
  /** being computed now: reading it again is a cycle */
  evaluating?: boolean;
}

/** How deep formulas read before their turn compute one another before a read takes the value as it is. */
const MAX_EARLY_DEPTH = 200;

interface RangeWatch {
  sheet: SheetState;
  startRow: number;
  endRow: number;
  startColumn: number;
  endColumn: number;
  dependant: number;
}

class SheetState {
  readonly cells = new Map<number, Entry>();
  /** the used area's bounds; they only grow, which keeps them true upper bounds */
  maxRow = -1;
  maxColumn = -1;
  /** ranges on this sheet that formulas watch: narrow ones per column, wide ones together */
  readonly narrowWatches = new Map<number, Set<RangeWatch>>();
  readonly wideWatches = new Set<RangeWatch>();

  constructor(
    readonly number: number,
    readonly id: string,
    public name: string,
  ) {}

  key(row: number, column: number): number {
    return this.number * SHEET_STRIDE + row * ROW_STRIDE + column;
  }
}

function addressOf(key: number): { sheet: number; row: number; column: number } {
  const sheet = Math.floor(key / SHEET_STRIDE);
  const local = key - sheet * SHEET_STRIDE;
  const row = Math.floor(local / ROW_STRIDE);
  return { sheet, row, column: local - row * ROW_STRIDE };
}

/**
 * The formula engine: a workbook of sheets built from cell inputs, giving each cell's computed value and
 * recomputing only what depends on a change. Shared by the spreadsheet editor (browser) and the server
 * (values API, plain text); see index.ts and docs/SHEETS.md "Formulas".
 *
 * Dependencies are static (every reference a formula names, whichever IF branch is taken). After a change,
 * the changed cells' dependants and every volatile formula (RAND, INDIRECT, OFFSET…) are collected, ordered by
 * their strongly connected components, and evaluated once each in dependency order; the members of a reference
 * cycle get `#REF!`, never a loop. A reference computed at evaluation time (INDIRECT, OFFSET) is not in that
 * order: a formula it reads that is still to be recomputed is computed at that moment (and a read going round
 * in a circle is `#REF!`).
 */
export class Workbook {
  private readonly sheetsById = new Map<string, SheetState>();
  private readonly sheetsByNumber = new Map<number, SheetState>();
  private readonly sheetsByName = new Map<string, SheetState>();
  private readonly cellWatches = new Map<number, Set<number>>();
  /** formulas calling a volatile function; `clock` those reading the clock (TODAY, NOW) */
  private readonly volatile = new Set<number>();
  private readonly clock = new Set<number>();
  private earlyDepth = 0;
  private nextSheetNumber = 1;
  private readonly now: () => number;
  private evaluatingSheet: SheetState | undefined;
  private evaluatingKey = 0;
  private readonly context: EvaluationContext;

  constructor(sheets: Iterable<SheetSpec> = [], options: WorkbookOptions = {}) {
    this.now = options.now ?? Date.now;
    this.context = {
      cell: (reference) => this.referencedValue(reference),
      range: (reference) => this.referencedRange(reference),
      sheetsBetween: (first, last) => this.sheetsBetween(first, last),
      now: () => this.now(),
      position: () => addressOf(this.evaluatingKey),
    };
    this.load(sheets);
  }

  /** Replaces every sheet and cell, and computes everything. */
  load(sheets: Iterable<SheetSpec>): void {
    this.sheetsById.clear();
    this.sheetsByNumber.clear();
    this.sheetsByName.clear();
    this.cellWatches.clear();
    this.volatile.clear();
    this.clock.clear();
    const formulas: number[] = [];
    for (const spec of sheets) {
      const sheet = this.createSheet(spec.id, spec.name);
      for (const [row, column, input] of spec.cells ?? []) {
        const entry = this.store(sheet, row, column, input);
        if (entry?.formula) formulas.push(sheet.key(row, column));
      }
    }
    for (const key of formulas) this.watch(key);
    this.recompute(formulas);
  }

  /** Sheet ids in the order they were added. */
  sheetIds(): string[] {
    return [...this.sheetsById.keys()];
  }

  /** Adds a sheet; formulas naming it (so far `#REF!`) now read it. */
  addSheet(spec: SheetSpec): void {
    if (this.sheetsById.has(spec.id)) throw new Error(`sheet ${spec.id} exists`);
    this.load([...this.specs(), spec]);
  }

  /** Renames a sheet: formulas naming the old name give `#REF!`, those naming the new one read it. */
  renameSheet(sheetId: string, name: string): void {
    this.load(this.specs().map((spec) => (spec.id === sheetId ? { ...spec, name } : spec)));
  }

  removeSheet(sheetId: string): void {
    this.load(this.specs().filter((spec) => spec.id !== sheetId));
  }

  /** The computed value of a cell (null: empty). Unknown sheets read as empty. */
  value(sheetId: string, row: number, column: number): CellValue {
    const sheet = this.sheetsById.get(sheetId);
    return sheet?.cells.get(sheet.key(row, column))?.value ?? null;
  }

  /** The value as clients show it: errors as their code (`#DIV/0!`), empty as "". */
  displayValue(sheetId: string, row: number, column: number): DisplayValue {
    return toDisplay(this.value(sheetId, row, column));
  }

  /**
   * Visits the non-empty cells of a sheet inside a rectangle (inclusive, zero-based), in no particular
   * order, with their computed value and, for formulas, their text. Unknown sheets have no cells.
   */
  forEachCell(
    sheetId: string,
    area: { startRow: number; endRow: number; startColumn: number; endColumn: number },
    visit: (row: number, column: number, value: Exclude<CellValue, null>, formula: string | undefined) => void,
  ): void {
    const sheet = this.sheetsById.get(sheetId);
    if (!sheet) return;
    const endRow = Math.min(area.endRow, sheet.maxRow);
    const endColumn = Math.min(area.endColumn, sheet.maxColumn);
    const height = endRow - area.startRow + 1;
    const width = endColumn - area.startColumn + 1;
    if (height <= 0 || width <= 0) return;
    const report = (row: number, column: number, entry: Entry) => {
      if (entry.value !== null) visit(row, column, entry.value, entry.formula?.text);
    };
    // probe the area when it is much smaller than the sheet, else filter the sheet's cells
    if (height * width * 4 <= sheet.cells.size) {
      for (let row = area.startRow; row <= endRow; row++) {
        for (let column = area.startColumn; column <= endColumn; column++) {
          const entry = sheet.cells.get(sheet.key(row, column));
          if (entry) report(row, column, entry);
        }
      }
      return;
    }
    for (const [key, entry] of sheet.cells) {
      const { row, column } = addressOf(key);
      if (row >= area.startRow && row <= endRow && column >= area.startColumn && column <= endColumn) report(row, column, entry);
    }
  }

  /** Why a formula cell shows `#ERROR!` (its text does not parse), or undefined. */
  formulaProblem(sheetId: string, row: number, column: number): string | undefined {
    const sheet = this.sheetsById.get(sheetId);
    const formula = sheet?.cells.get(sheet.key(row, column))?.formula;
    if (!formula || formula.ast) return undefined;
    const parsed = parseFormula(formula.text);
    return parsed.ok ? undefined : parsed.reason;
  }

  setCell(sheetId: string, row: number, column: number, input: CellInput): CellAddress[] {
    return this.setCells([{ sheetId, row, column, input }]);
  }

  /**
   * Applies inputs and recomputes what depends on them. Returns every cell whose value changed: the cells
   * set and the dependants whose result differs. Cells of unknown sheets are ignored.
   */
  setCells(changes: Iterable<CellChange>): CellAddress[] {
    const changed: number[] = [];
    const formulas: number[] = [];
    for (const change of changes) {
      const sheet = this.sheetsById.get(change.sheetId);
      if (!sheet) continue;
      const key = sheet.key(change.row, change.column);
      this.unwatch(key);
      const entry = this.store(sheet, change.row, change.column, change.input);
      changed.push(key);
      if (entry?.formula) formulas.push(key);
    }
    for (const key of formulas) this.watch(key);
    // volatile formulas recompute after every change, as in Excel
    const recomputed = this.recompute(changed.length === 0 ? [] : [...changed, ...this.volatile]);
    const result = new Set<number>(changed);
    for (const key of recomputed) result.add(key);
    return [...result].map((key) => this.addressOfKey(key));
  }

  /** Recomputes formulas that read the clock (TODAY, NOW) and their dependants. */
  recalculateVolatile(): CellAddress[] {
    if (this.clock.size === 0) return [];
    return this.recompute([...this.clock]).map((key) => this.addressOfKey(key));
  }

  private specs(): SheetSpec[] {
    return [...this.sheetsById.values()].map((sheet) => ({
      id: sheet.id,
      name: sheet.name,
      cells: [...sheet.cells].map(([key, entry]) => {
        const { row, column } = addressOf(key);
        return [row, column, entry.formula ? entry.formula.text : entry.value instanceof FormulaError ? entry.value.code : entry.value] as const;
      }),
    }));
  }

  private createSheet(id: string, name: string): SheetState {
    const sheet = new SheetState(this.nextSheetNumber++, id, name);
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

  /** Stores an input (not yet evaluated); a formula's value is computed by `recompute`. */
  private store(sheet: SheetState, row: number, column: number, input: CellInput): Entry | undefined {
    const key = sheet.key(row, column);
    this.volatile.delete(key);
    this.clock.delete(key);
    if (input === null || input === '') {
      sheet.cells.delete(key);
      return undefined;
    }
    if (row > sheet.maxRow) sheet.maxRow = row;
    if (column > sheet.maxColumn) sheet.maxColumn = column;
    if (!isFormulaInput(input)) {
      // an error code in a cell is that error, as in Excel (typed, or stored by a workbook: `#N/A` is #N/A, not text)
      const entry: Entry = { value: typeof input === 'string' && isErrorCode(input) ? FormulaError.of(input) : input };
      sheet.cells.set(key, entry);
      return entry;
    }
    const parsed = parseFormula(input);
    const ast = parsed.ok ? parsed.ast : undefined;
    const volatile = ast && volatility(ast);
    if (volatile) this.volatile.add(key);
    if (volatile === 'clock') this.clock.add(key);
    const entry: Entry = { value: null, formula: { text: input, ast, volatile, cellPrecedents: [], rangePrecedents: [] } };
    sheet.cells.set(key, entry);
    return entry;
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

  /** Registers the formula at `key` as a dependant of everything it refers to. */
  private watch(key: number): void {
    const entry = this.entryAt(key);
    const formula = entry?.formula;
    if (!formula?.ast) return;
    const own = this.sheetsByNumber.get(Math.floor(key / SHEET_STRIDE));
    if (!own) return;
    for (const reference of referencesOf(formula.ast, (first, last) => this.sheetsBetween(first, last))) {
      const sheet = this.sheetNamed(reference.sheet, own);
      if (!sheet) continue;
      if (reference.kind === 'cell') {
        const precedent = sheet.key(reference.row, reference.column);
        let watchers = this.cellWatches.get(precedent);
        if (!watchers) this.cellWatches.set(precedent, (watchers = new Set()));
        watchers.add(key);
        formula.cellPrecedents.push(precedent);
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
      formula.rangePrecedents.push(watch);
    }
  }

  private unwatch(key: number): void {
    const formula = this.entryAt(key)?.formula;
    if (!formula) return;
    for (const precedent of formula.cellPrecedents) {
      const watchers = this.cellWatches.get(precedent);
      watchers?.delete(key);
      if (watchers?.size === 0) this.cellWatches.delete(precedent);
    }
    for (const watch of formula.rangePrecedents) {
      if (watch.endColumn - watch.startColumn < BUCKETED_WIDTH) {
        for (let column = watch.startColumn; column <= watch.endColumn; column++) watch.sheet.narrowWatches.get(column)?.delete(watch);
      } else {
        watch.sheet.wideWatches.delete(watch);
      }
    }
    formula.cellPrecedents = [];
    formula.rangePrecedents = [];
  }

  /** Formulas that refer to the cell at `key`, directly or through a range. */
  private dependantsOf(key: number): number[] {
    const found: number[] = [];
    const direct = this.cellWatches.get(key);
    if (direct) for (const dependant of direct) found.push(dependant);
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
    const edges = new Map<number, number[]>();
    const pending = [...changed];
    while (pending.length > 0) {
      const key = pending.pop()!;
      if (edges.has(key)) continue;
      const dependants = this.dependantsOf(key);
      edges.set(key, dependants);
      for (const dependant of dependants) if (!edges.has(dependant)) pending.push(dependant);
    }
    const components = stronglyConnected(edges);
    // Tarjan's algorithm finishes a component after everything depending on it: evaluate in reverse
    const keys: number[] = [];
    const entries: Entry[] = [];
    const before: CellValue[] = [];
    const cyclic: boolean[] = [];
    for (let i = components.length - 1; i >= 0; i--) {
      const component = components[i]!;
      const inCycle = component.length > 1 || (edges.get(component[0]!) ?? []).includes(component[0]!);
      for (const key of component) {
        const entry = this.entryAt(key);
        if (!entry?.formula) continue;
        keys.push(key);
        entries.push(entry);
        before.push(entry.value);
        cyclic.push(inCycle);
        entry.dirty = true;
      }
    }
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i]!;
      // a formula read before its turn (through INDIRECT or OFFSET) is computed already
      if (!entry.dirty) continue;
      if (cyclic[i]) {
        entry.value = Err.ref;
        entry.dirty = false;
        continue;
      }
      entry.evaluating = true;
      entry.value = this.evaluate(keys[i]!, entry.formula!);
      entry.evaluating = false;
      entry.dirty = false;
    }
    const updated: number[] = [];
    for (let i = 0; i < entries.length; i++) if (entries[i]!.value !== before[i]) updated.push(keys[i]!);
    return updated;
  }

  /** Computes a dirty formula now, keeping the evaluation under way (the reader's) as it was. */
  private computeEntry(key: number, entry: Entry): void {
    const formula = entry.formula!;
    const [sheet, evaluatingKey] = [this.evaluatingSheet, this.evaluatingKey];
    entry.evaluating = true;
    try {
      entry.value = this.evaluate(key, formula);
    } finally {
      entry.evaluating = false;
      entry.dirty = false;
      this.evaluatingSheet = sheet;
      this.evaluatingKey = evaluatingKey;
    }
  }

  private evaluate(key: number, formula: Formula): CellValue {
    if (!formula.ast) return Err.syntax;
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
   * A cell's value as a formula reads it. A formula still to be recomputed in this recalculation (met through a
   * reference computed at evaluation time) is computed first; one being computed is a cycle: `#REF!`.
   */
  private read(sheet: SheetState, key: number): CellValue {
    const entry = sheet.cells.get(key);
    if (!entry) return null;
    if (entry.dirty) {
      if (entry.evaluating) return Err.ref;
      if (this.earlyDepth < MAX_EARLY_DEPTH) {
        this.earlyDepth++;
        try {
          this.computeEntry(key, entry);
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
    const rows = Math.max(1, Math.min(reference.endRow, sheet.maxRow) - reference.startRow + 1);
    const columns = Math.max(1, Math.min(reference.endColumn, sheet.maxColumn) - reference.startColumn + 1);
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
        // probe the area when it is smaller than the sheet, else filter the sheet's cells
        if (rows * columns <= sheet.cells.size) {
          for (let row = 0; row < rows; row++) {
            for (let column = 0; column < columns; column++) {
              const value = this.read(sheet, sheet.key(top + row, left + column));
              if (value !== null) visit(value, row, column);
            }
          }
          return;
        }
        for (const key of sheet.cells.keys()) {
          const at = addressOf(key);
          if (at.row < top || at.row >= top + rows || at.column < left || at.column >= left + columns) continue;
          const value = this.read(sheet, key);
          if (value !== null) visit(value, at.row - top, at.column - left);
        }
      },
    };
  }
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
  for (const root of edges.keys()) {
    if (index.has(root)) continue;
    const enter = (node: number) => {
      index.set(node, counter);
      low.set(node, counter);
      counter++;
      stack.push(node);
      onStack.add(node);
      frames.push(node);
      positions.push(0);
    };
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
