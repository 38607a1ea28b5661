import type { SheetStructureEdit } from '../content.js';
import { isCellArea, shiftArea, type CellArea } from './cell-area.js';
import { colourOf } from './cell-style.js';
// what a cell shows is FilterShown (layout.ts' ShownValue, declared in filter.ts): the sheet model calls this module
// when rows or columns move, so it cannot import layout.ts, which reaches the sheet model through the formula engine
import { passesOrder, passesText, type FilterSheet, type FilterShown as ShownValue, type TextOperator } from './filter.js';

/**
 * Conditional formats of a sheet (docs/SHEETS.md "Conditional formatting"): rules over areas that give a cell a look
 * by what it shows — a fill, a font colour, bold or italic when a condition holds (its value compared, its text, the
 * top or bottom N of the areas, above or below their average, duplicated or unique), or a colour on a scale or a bar
 * whose length follows the value. Looks are computed, never written into cells: the values API, formulas and csv
 * read the cells as they are.
 *
 * Stored under the sheet's `conditionalFormats` key as a Y.Map of rule id → ConditionalRule (plain JSON), so two
 * people adding rules at once both keep theirs. Rules apply by `priority`, lowest first (the desktop programs' rule
 * manager order); a rule added in the editor goes on top. When two rules give a cell the same property (two fills),
 * the first wins; different properties (one a fill, one bold) both show.
 *
 * Empty cells take no look from any rule (a "less than 10" rule does not paint the blank cells around the data), as
 * the well-known online spreadsheets do; the desktop programs count a blank as 0 there.
 */

export const CONDITIONAL_FORMATS_KEY = 'conditionalFormats';

/** The look a highlighting rule gives (absent parts leave the cell's own style). */
export interface ConditionalFormat {
  /** `#rrggbb` */
  fill?: string;
  /** the font colour, `#rrggbb` */
  color?: string;
  bold?: boolean;
  italic?: boolean;
}

export const VALUE_OPERATORS = ['gt', 'ge', 'lt', 'le', 'eq', 'ne', 'between', 'notBetween'] as const;
export type ValueOperator = (typeof VALUE_OPERATORS)[number];
export const TEXT_OPERATORS: readonly TextOperator[] = ['contains', 'notContains', 'beginsWith', 'endsWith'];

/**
 * Where a colour scale's point or a data bar's end lies: the lowest or highest number of the areas, a number, a
 * percent of the way from the lowest to the highest, or a percentile of the numbers.
 */
export interface ScaleThreshold {
  kind: 'min' | 'max' | 'number' | 'percent' | 'percentile';
  /** for `number`, `percent` (0-100) and `percentile` (0-100) */
  value?: number;
}

export interface ScalePoint extends ScaleThreshold {
  color: string;
}

export type ConditionalCondition =
  /** the cell's value compared: numbers as numbers, text with text ignoring case; `value2` is the upper bound of `between` */
  | { type: 'cellValue'; op: ValueOperator; value: number | string; value2?: number | string; format: ConditionalFormat }
  /** the cell's shown text, ignoring case */
  | { type: 'text'; op: TextOperator; text: string; format: ConditionalFormat }
  /** the `rank` highest (lowest with `bottom`) numbers of the areas, or that percent of them with `percent`; ties all marked */
  | { type: 'topBottom'; bottom: boolean; percent: boolean; rank: number; format: ConditionalFormat }
  /** numbers above (below with `below`) the average of the areas' numbers */
  | { type: 'average'; below: boolean; format: ConditionalFormat }
  /** values shown more than once in the areas (once only with `unique`); text ignoring case */
  | { type: 'duplicates'; unique: boolean; format: ConditionalFormat }
  /** a fill between two or three colours by the number's place among the points */
  | { type: 'colorScale'; points: ScalePoint[] }
  /** a bar from the cell's left edge, as long as the number's place between `min` and `max` */
  | { type: 'dataBar'; color: string; min: ScaleThreshold; max: ScaleThreshold };

export type ConditionalRuleType = ConditionalCondition['type'];

export type ConditionalRule = ConditionalCondition & {
  id: string;
  /** the areas the rule looks at and paints (top-N, average, duplicates and scales take them together) */
  ranges: CellArea[];
  /** lower applies first */
  priority: number;
};

/** What rules make of one cell. */
export interface ConditionalLook extends ConditionalFormat {
  /** a data bar: its length as a share of the cell's width (0-1) and colour */
  bar?: { fraction: number; color: string };
}

export const MAX_CONDITIONAL_RULES = 500;
export const MAX_RULE_RANGES = 64;
export const MAX_RULE_TEXT = 255;
/** The largest N of a top/bottom rule (as in the desktop programs). */
export const MAX_RANK = 1000;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const finite = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const operand = (value: unknown): value is number | string => finite(value) || (typeof value === 'string' && value.length <= MAX_RULE_TEXT);

function formatOf(value: unknown): ConditionalFormat | undefined {
  if (!isObject(value)) return undefined;
  const format: ConditionalFormat = {};
  for (const key of ['fill', 'color'] as const) {
    if (value[key] === undefined) continue;
    const colour = colourOf(value[key]);
    if (!colour) return undefined;
    format[key] = colour;
  }
  for (const key of ['bold', 'italic'] as const) {
    if (value[key] === undefined) continue;
    if (typeof value[key] !== 'boolean') return undefined;
    if (value[key]) format[key] = true;
  }
  return Object.keys(format).length > 0 ? format : undefined;
}

const THRESHOLD_KINDS: ReadonlyArray<ScaleThreshold['kind']> = ['min', 'max', 'number', 'percent', 'percentile'];

function thresholdOf(value: unknown): ScaleThreshold | undefined {
  if (!isObject(value) || !(THRESHOLD_KINDS as readonly unknown[]).includes(value.kind)) return undefined;
  const kind = value.kind as ScaleThreshold['kind'];
  if (kind === 'min' || kind === 'max') return { kind };
  if (!finite(value.value)) return undefined;
  if (kind !== 'number' && (value.value < 0 || value.value > 100)) return undefined;
  return { kind, value: value.value };
}

function conditionOf(raw: Record<string, unknown>): ConditionalCondition | undefined {
  switch (raw.type) {
    case 'cellValue': {
      const format = formatOf(raw.format);
      const op = raw.op as ValueOperator;
      if (!format || !(VALUE_OPERATORS as readonly unknown[]).includes(op) || !operand(raw.value)) return undefined;
      const range = op === 'between' || op === 'notBetween';
      if (range !== operand(raw.value2)) return undefined;
      return range ? { type: 'cellValue', op, value: raw.value, value2: raw.value2 as number | string, format } : { type: 'cellValue', op, value: raw.value, format };
    }
    case 'text': {
      const format = formatOf(raw.format);
      const op = raw.op as TextOperator;
      if (!format || !(TEXT_OPERATORS as readonly unknown[]).includes(op) || typeof raw.text !== 'string' || raw.text.length === 0 || raw.text.length > MAX_RULE_TEXT) return undefined;
      return { type: 'text', op, text: raw.text, format };
    }
    case 'topBottom': {
      const format = formatOf(raw.format);
      const percent = raw.percent === true;
      const rank = raw.rank;
      if (!format || typeof rank !== 'number' || !Number.isInteger(rank) || rank < 1 || rank > (percent ? 100 : MAX_RANK)) return undefined;
      return { type: 'topBottom', bottom: raw.bottom === true, percent, rank, format };
    }
    case 'average': {
      const format = formatOf(raw.format);
      return format && { type: 'average', below: raw.below === true, format };
    }
    case 'duplicates': {
      const format = formatOf(raw.format);
      return format && { type: 'duplicates', unique: raw.unique === true, format };
    }
    case 'colorScale': {
      if (!Array.isArray(raw.points) || (raw.points.length !== 2 && raw.points.length !== 3)) return undefined;
      const points: ScalePoint[] = [];
      for (const point of raw.points as unknown[]) {
        const threshold = thresholdOf(point);
        const color = isObject(point) ? colourOf(point.color) : undefined;
        if (!threshold || !color) return undefined;
        points.push({ ...threshold, color });
      }
      return { type: 'colorScale', points };
    }
    case 'dataBar': {
      const color = colourOf(raw.color);
      const min = thresholdOf(raw.min);
      const max = thresholdOf(raw.max);
      return color && min && max ? { type: 'dataBar', color, min, max } : undefined;
    }
    default:
      return undefined;
  }
}

/** A rule as stored or sent, checked; undefined when any part of it is malformed. */
export function parseConditionalRule(input: unknown): ConditionalRule | undefined {
  if (!isObject(input) || typeof input.id !== 'string' || input.id.length === 0 || input.id.length > 64 || !finite(input.priority)) return undefined;
  if (!Array.isArray(input.ranges) || input.ranges.length === 0 || input.ranges.length > MAX_RULE_RANGES || !input.ranges.every(isCellArea)) return undefined;
  const condition = conditionOf(input);
  if (!condition) return undefined;
  const ranges = (input.ranges as CellArea[]).map(({ startRow, endRow, startColumn, endColumn }) => ({ startRow, endRow, startColumn, endColumn }));
  return { ...condition, id: input.id, ranges, priority: input.priority };
}

/** The sheet's rules in the order they apply (priority, then id so that every replica agrees); malformed ones left out. */
export function conditionalRulesOf(sheet: FilterSheet): ConditionalRule[] {
  const stored = sheet.featureMap(CONDITIONAL_FORMATS_KEY);
  if (!stored) return [];
  const rules: ConditionalRule[] = [];
  stored.forEach((value, key) => {
    const rule = parseConditionalRule(value);
    if (rule && rule.id === key) rules.push(rule);
  });
  return rules.sort((a, b) => a.priority - b.priority || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * Adds a rule on top of the sheet's others (it applies first); its areas are checked by the caller (inside the grid).
 * Answers the rule stored, or undefined when the condition is malformed or the sheet holds MAX_CONDITIONAL_RULES.
 */
export function addConditionalRule(sheet: FilterSheet, condition: ConditionalCondition, ranges: CellArea[], id: string = crypto.randomUUID()): ConditionalRule | undefined {
  const existing = conditionalRulesOf(sheet);
  if (existing.length >= MAX_CONDITIONAL_RULES) return undefined;
  const rule = parseConditionalRule({ ...condition, id, ranges, priority: (existing[0]?.priority ?? 1) - 1 });
  if (rule) sheet.featureMap(CONDITIONAL_FORMATS_KEY, true)!.set(rule.id, rule);
  return rule;
}

/** Removes one rule (nothing when it is not there). */
export function removeConditionalRule(sheet: FilterSheet, id: string): void {
  const stored = sheet.featureMap(CONDITIONAL_FORMATS_KEY);
  if (stored?.has(id)) stored.delete(id);
}

/** Moves every rule's areas with a row or column insertion or deletion; an area deleted whole goes, and a rule left without areas goes. */
export function moveConditionalFormats(sheet: FilterSheet, edit: SheetStructureEdit): void {
  const stored = sheet.featureMap(CONDITIONAL_FORMATS_KEY);
  if (!stored) return;
  for (const rule of conditionalRulesOf(sheet)) {
    const ranges = rule.ranges.map((area) => shiftArea(area, edit)).filter((area): area is CellArea => area !== undefined);
    if (ranges.length === 0) stored.delete(rule.id);
    else if (ranges.some((area, index) => !sameArea(area, rule.ranges[index]!)) || ranges.length !== rule.ranges.length) stored.set(rule.id, { ...rule, ranges });
  }
}

function sameArea(a: CellArea, b: CellArea): boolean {
  return a.startRow === b.startRow && a.endRow === b.endRow && a.startColumn === b.startColumn && a.endColumn === b.endColumn;
}

/** Visits the cells of an area that show something (empty cells need not be visited: they take no look). */
export type ShownCellsIn = (area: CellArea, visit: (row: number, column: number, shown: ShownValue) => void) => void;

/** Whether a cell showing `shown` is looked at by rules (not blank, not an error, not yet computed). */
function counts(shown: ShownValue): boolean {
  return shown.kind !== 'empty' && shown.kind !== 'error' && shown.kind !== 'pending';
}

const collator = new Intl.Collator(undefined, { sensitivity: 'base' });

/** A rule's operand as the cell compares with it: a number (also one written as text), or text. */
function operandOf(value: number | string): number | string {
  if (typeof value === 'number') return value;
  const number = Number(value);
  return value.trim() !== '' && Number.isFinite(number) ? number : value;
}

/** The order of a shown value against an operand: numbers with numbers, text with text ignoring case; NaN when they do not compare. */
function compare(shown: ShownValue, target: number | string): number {
  if (typeof target === 'number') return typeof shown.value === 'number' ? Math.sign(shown.value - target) : NaN;
  return shown.kind === 'text' ? collator.compare(shown.text, target) : NaN;
}

function passesValue(shown: ShownValue, op: ValueOperator, value: number | string, value2: number | string | undefined): boolean {
  const order = compare(shown, operandOf(value));
  if (op === 'between' || op === 'notBetween') {
    const upper = compare(shown, operandOf(value2!));
    if (Number.isNaN(order) || Number.isNaN(upper)) return false;
    // bounds given either way round, as the desktop programs accept them
    const inside = (order >= 0 && upper <= 0) || (order <= 0 && upper >= 0);
    return op === 'between' ? inside : !inside;
  }
  return passesOrder(op, order);
}

/** The key two cells share when they show the same value for the duplicates rule (text ignoring case). */
function duplicateKey(shown: ShownValue): string {
  if (typeof shown.value === 'number') return `n${shown.value}`;
  if (typeof shown.value === 'boolean') return `b${shown.value}`;
  return `t${shown.text.toLocaleLowerCase()}`;
}

/** The first index of `sorted` (ascending) whose number is not below `value`. */
function lowerBound(sorted: readonly number[], value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Changed cells of an area group up to which each is updated alone (beyond them, and an eighth of its cells, it is read again). */
const REREAD_AFTER_CHANGES = 1024;

/**
 * The cells some rules look at (rules over the same areas share one), with what the rules read of them all: the
 * numbers in order, and how often each value shows. Kept up to date one cell at a time, so that an edit costs a
 * look at the cells it changed rather than a read of the areas.
 */
class RuleCells {
  readonly shown = new Map<string, { row: number; column: number; shown: ShownValue }>();
  /** the numbers of the cells, ascending (each as often as it shows) */
  readonly numbers: number[] = [];
  readonly valueCounts = new Map<string, number>();
  private numberSum: number | undefined;

  constructor(readonly ranges: readonly CellArea[]) {}

  covers(row: number, column: number): boolean {
    return this.ranges.some((area) => row >= area.startRow && row <= area.endRow && column >= area.startColumn && column <= area.endColumn);
  }

  /** Reads every cell of the areas afresh (a cell of overlapping areas once). */
  read(cellsIn: ShownCellsIn): void {
    this.shown.clear();
    this.numbers.length = 0;
    this.valueCounts.clear();
    this.numberSum = undefined;
    for (const area of this.ranges) {
      cellsIn(area, (row, column, shown) => {
        if (!counts(shown)) return;
        const key = `${row}:${column}`;
        if (this.shown.has(key)) return;
        this.shown.set(key, { row, column, shown });
        if (typeof shown.value === 'number') this.numbers.push(shown.value);
        this.countValue(shown, 1);
      });
    }
    this.numbers.sort((a, b) => a - b);
  }

  /** What one cell shows now (`shown` blank, an error or pending: no longer looked at). */
  set(row: number, column: number, shown: ShownValue): void {
    const key = `${row}:${column}`;
    const before = this.shown.get(key);
    if (before) {
      if (typeof before.shown.value === 'number') this.numbers.splice(lowerBound(this.numbers, before.shown.value), 1);
      this.countValue(before.shown, -1);
      this.shown.delete(key);
    }
    if (counts(shown)) {
      this.shown.set(key, { row, column, shown });
      if (typeof shown.value === 'number') this.numbers.splice(lowerBound(this.numbers, shown.value), 0, shown.value);
      this.countValue(shown, 1);
    }
    this.numberSum = undefined;
  }

  /** The sum of the numbers, added in ascending order (the same sum whichever edits led there). */
  get sum(): number {
    this.numberSum ??= this.numbers.reduce((sum, number) => sum + number, 0);
    return this.numberSum;
  }

  private countValue(shown: ShownValue, by: 1 | -1): void {
    const key = duplicateKey(shown);
    const count = (this.valueCounts.get(key) ?? 0) + by;
    if (count === 0) this.valueCounts.delete(key);
    else this.valueCounts.set(key, count);
  }
}

/** What a rule makes of one cell, from what it read of all its cells (computed once per change of them). */
type RuleLook = (shown: ShownValue) => ConditionalLook | undefined;

function ruleLookOf(rule: ConditionalRule, cells: RuleCells): RuleLook {
  const { numbers } = cells;
  switch (rule.type) {
    case 'cellValue':
      return (shown) => (passesValue(shown, rule.op, rule.value, rule.value2) ? rule.format : undefined);
    case 'text':
      return (shown) => (passesText(shown.text, rule.op, rule.text) ? rule.format : undefined);
    case 'topBottom': {
      if (numbers.length === 0) return () => undefined;
      const count = rule.percent ? Math.max(1, Math.floor((numbers.length * rule.rank) / 100)) : Math.min(rule.rank, numbers.length);
      // the Nth value is the bar: every cell at or beyond it is marked, ties included
      const bar = rule.bottom ? numbers[count - 1]! : numbers[numbers.length - count]!;
      return (shown) => (typeof shown.value === 'number' && (rule.bottom ? shown.value <= bar : shown.value >= bar) ? rule.format : undefined);
    }
    case 'average': {
      if (numbers.length === 0) return () => undefined;
      const average = cells.sum / numbers.length;
      return (shown) => (typeof shown.value === 'number' && (rule.below ? shown.value < average : shown.value > average) ? rule.format : undefined);
    }
    case 'duplicates':
      return (shown) => ((cells.valueCounts.get(duplicateKey(shown))! > 1) !== rule.unique ? rule.format : undefined);
    case 'colorScale': {
      if (numbers.length === 0) return () => undefined;
      const points = rule.points.map((point) => ({ at: thresholdValue(point, numbers), color: point.color }));
      return (shown) => (typeof shown.value === 'number' ? { fill: scaleColour(points, shown.value) } : undefined);
    }
    case 'dataBar': {
      if (numbers.length === 0) return () => undefined;
      const low = thresholdValue(rule.min, numbers);
      const high = thresholdValue(rule.max, numbers);
      return (shown) => {
        if (typeof shown.value !== 'number') return undefined;
        const fraction = high > low ? Math.min(1, Math.max(0, (shown.value - low) / (high - low))) : 1;
        return { bar: { fraction, color: rule.color } };
      };
    }
  }
}

/** How a look reader reads the sheet: the cells of an area that show something, and one cell. */
export interface ShownCells {
  cellsIn: ShownCellsIn;
  shownAt(row: number, column: number): ShownValue;
}

/** A sheet read through `shownAt` (what a cell shows: its value, or what its formula computes). */
export function shownCellsOf(sheet: FilterSheet, shownAt: (row: number, column: number) => ShownValue): ShownCells {
  return { cellsIn: (area, visit) => sheet.forEachCell((row, column) => visit(row, column, shownAt(row, column)), area), shownAt };
}

/**
 * The looks a sheet's rules give, kept up to date as cells change (docs/SHEETS.md "Conditional formatting"): made
 * once from the rules (reading their areas), then told which cells changed, it reads only those cells and what the
 * rules read of their areas together (the numbers in order, the sum, how often each value shows) is updated, not
 * read again. A look is computed when asked for (the editor asks for the cells it draws). Rules changed, rows or
 * columns inserted or deleted: make a new one.
 */
export class ConditionalLookReader {
  private readonly rules: Array<{ rule: ConditionalRule; cells: RuleCells; look: RuleLook | undefined }> = [];
  private readonly areaGroups: RuleCells[] = [];

  constructor(
    rules: readonly ConditionalRule[],
    private readonly reader: ShownCells,
  ) {
    const byAreas = new Map<string, RuleCells>();
    for (const rule of rules) {
      const areas = JSON.stringify(rule.ranges);
      let cells = byAreas.get(areas);
      if (!cells) {
        cells = new RuleCells(rule.ranges);
        cells.read(reader.cellsIn);
        byAreas.set(areas, cells);
        this.areaGroups.push(cells);
      }
      this.rules.push({ rule, cells, look: undefined });
    }
  }

  /**
   * Reads the cells that changed (their values, or what their formulas compute) again. An area group most of whose
   * cells changed (a paste over the column) is read again whole: one sort beats many single-cell updates.
   */
  cellsChanged(changed: Iterable<{ row: number; column: number }>): void {
    const byGroup = new Map<RuleCells, Array<{ row: number; column: number }>>();
    for (const cell of changed) {
      for (const cells of this.areaGroups) {
        if (!cells.covers(cell.row, cell.column)) continue;
        const list = byGroup.get(cells);
        if (list) list.push(cell);
        else byGroup.set(cells, [cell]);
      }
    }
    for (const [cells, list] of byGroup) {
      if (list.length > Math.max(REREAD_AFTER_CHANGES, cells.shown.size / 8)) cells.read(this.reader.cellsIn);
      else for (const { row, column } of list) cells.set(row, column, this.reader.shownAt(row, column));
    }
    for (const entry of this.rules) if (byGroup.has(entry.cells)) entry.look = undefined;
  }

  /** The look of one cell (undefined when no rule marks it). */
  lookAt(row: number, column: number): ConditionalLook | undefined {
    let look: ConditionalLook | undefined;
    const key = `${row}:${column}`;
    for (const entry of this.rules) {
      const cell = entry.cells.shown.get(key);
      if (!cell) continue;
      entry.look ??= ruleLookOf(entry.rule, entry.cells);
      const given = entry.look(cell.shown);
      // a rule applied earlier keeps the properties it gave
      if (given) look = look ? { ...given, ...look } : given;
    }
    return look;
  }

  /** Every cell some rule marks, keyed `row:column`. */
  allLooks(): Map<string, ConditionalLook> {
    const looks = new Map<string, ConditionalLook>();
    for (const cells of this.areaGroups) {
      for (const [key, { row, column }] of cells.shown) {
        if (looks.has(key)) continue;
        const look = this.lookAt(row, column);
        if (look) looks.set(key, look);
      }
    }
    return looks;
  }
}

/** The number a threshold stands for among `sorted` (ascending, not empty). */
function thresholdValue(threshold: ScaleThreshold, sorted: number[]): number {
  const low = sorted[0]!;
  const high = sorted[sorted.length - 1]!;
  switch (threshold.kind) {
    case 'min':
      return low;
    case 'max':
      return high;
    case 'number':
      return threshold.value!;
    case 'percent':
      return low + ((high - low) * threshold.value!) / 100;
    case 'percentile': {
      // as PERCENTILE.INC: interpolated between the two nearest ranks
      const position = ((sorted.length - 1) * threshold.value!) / 100;
      const below = Math.floor(position);
      const above = Math.min(below + 1, sorted.length - 1);
      return sorted[below]! + (sorted[above]! - sorted[below]!) * (position - below);
    }
  }
}

function rgbOf(colour: string): [number, number, number] {
  return [1, 3, 5].map((at) => parseInt(colour.slice(at, at + 2), 16)) as [number, number, number];
}

/** The colour `share` (0-1) of the way from `from` to `to`, as `#rrggbb`. */
export function mixColours(from: string, to: string, share: number): string {
  const a = rgbOf(from);
  const b = rgbOf(to);
  return `#${a.map((channel, index) => Math.round(channel + (b[index]! - channel) * share).toString(16).padStart(2, '0')).join('')}`;
}

function scaleColour(points: Array<{ at: number; color: string }>, value: number): string {
  if (value <= points[0]!.at) return points[0]!.color;
  for (let index = 1; index < points.length; index++) {
    const from = points[index - 1]!;
    const to = points[index]!;
    if (value <= to.at) return to.at === from.at ? to.color : mixColours(from.color, to.color, (value - from.at) / (to.at - from.at));
  }
  return points[points.length - 1]!.color;
}

/**
 * The look every cell gets from a sheet's rules (`rules` in the order they apply), keyed `row:column`; cells no rule
 * marks are not in it. Pure and browser-safe: the service's exports and first screen use it; the editor keeps a
 * ConditionalLookReader, which answers the same looks, up to date cell by cell.
 */
export function conditionalLooks(rules: readonly ConditionalRule[], reader: ShownCells): Map<string, ConditionalLook> {
  return new ConditionalLookReader(rules, reader).allLooks();
}

/**
 * A `<cfRule>` of an xlsx worksheet as the import reads it: its attributes, `<formula>` texts, and the `<cfvo>` and
 * RGB `<color>` children of a colour scale or data bar (`undefined` for a theme or indexed colour); `format` is its
 * `dxfId`'s look from the workbook's styles.
 */
export interface XlsxConditionalRule {
  type: string;
  operator?: string;
  text?: string;
  rank?: number;
  percent?: boolean;
  bottom?: boolean;
  aboveAverage?: boolean;
  /** `equalAverage` or `stdDev` set: an average rule the model does not have */
  averageVariant?: boolean;
  formulae: string[];
  cfvo: Array<{ type: string; value?: number }>;
  colors: Array<string | undefined>;
  format?: ConditionalFormat;
}

/** The file's `cellIs` operators, the model's names for them; the export writes the same names back. */
export const XLSX_VALUE_OPERATORS: Readonly<Record<ValueOperator, string>> = {
  gt: 'greaterThan',
  ge: 'greaterThanOrEqual',
  lt: 'lessThan',
  le: 'lessThanOrEqual',
  eq: 'equal',
  ne: 'notEqual',
  between: 'between',
  notBetween: 'notBetween',
};

/** The file's cfvo types, the model's threshold kinds. */
export const XLSX_THRESHOLD_KINDS: Readonly<Record<ScaleThreshold['kind'], string>> = { min: 'min', max: 'max', number: 'num', percent: 'percent', percentile: 'percentile' };

/** A `cellIs` formula the model can hold: a number or a quoted text (a reference or a calculation cannot be kept). */
function xlsxOperand(formula: string | undefined): number | string | undefined {
  if (formula === undefined) return undefined;
  const text = formula.trim();
  const quoted = /^"((?:[^"]|"")*)"$/.exec(text);
  if (quoted) return quoted[1]!.replace(/""/g, '"');
  const number = Number(text);
  return text !== '' && Number.isFinite(number) ? number : undefined;
}

/** The text a text rule looks for: its `text` attribute, else the quoted text of its formula (`SEARCH("x",A1)`). */
function xlsxRuleText(rule: XlsxConditionalRule): string | undefined {
  if (rule.text !== undefined) return rule.text;
  const quoted = /"((?:[^"]|"")*)"/.exec(rule.formulae[0] ?? '');
  return quoted ? quoted[1]!.replace(/""/g, '"') : undefined;
}

/** The formula rules the export writes for what the file has no plain rule for (and the import reads back). */
const NOT_CONTAINS_FORMULA = /^ISERROR\(SEARCH\("(?:[^"]|"")*",\$?[A-Z]{1,3}\$?\d+\)\)$/;
const COUNT_FORMULA = /^(?:COUNTIF\([^()]+,\$?[A-Z]{1,3}\$?\d+\)\+?)+(>1|=1)$/;

function xlsxThreshold(cfvo: { type: string; value?: number } | undefined): ScaleThreshold | undefined {
  const kind = (Object.keys(XLSX_THRESHOLD_KINDS) as Array<ScaleThreshold['kind']>).find((key) => XLSX_THRESHOLD_KINDS[key] === cfvo?.type);
  return kind && thresholdOf({ kind, value: cfvo?.value });
}

/**
 * An xlsx rule as the model's condition, or undefined for what the model cannot say (formula rules other than the
 * export's own, icon sets, dates, blanks and errors, operands that are references, theme colours of scales, a
 * highlighting rule whose look the model cannot keep).
 */
export function conditionalConditionOfXlsx(rule: XlsxConditionalRule): ConditionalCondition | undefined {
  const format = rule.format;
  const checked = (condition: unknown) => (isObject(condition) ? conditionOf(condition) : undefined);
  switch (rule.type) {
    case 'cellIs': {
      const op = (Object.keys(XLSX_VALUE_OPERATORS) as ValueOperator[]).find((key) => XLSX_VALUE_OPERATORS[key] === rule.operator);
      const value = xlsxOperand(rule.formulae[0]);
      const value2 = xlsxOperand(rule.formulae[1]);
      return op && checked({ type: 'cellValue', op, value, ...(op === 'between' || op === 'notBetween' ? { value2 } : {}), format });
    }
    case 'containsText':
    case 'notContainsText':
    case 'beginsWith':
    case 'endsWith': {
      const op = rule.type === 'containsText' ? 'contains' : rule.type === 'notContainsText' ? 'notContains' : rule.type;
      return checked({ type: 'text', op, text: xlsxRuleText(rule), format });
    }
    case 'expression': {
      const formula = (rule.formulae[0] ?? '').replace(/\s+/g, '');
      if (NOT_CONTAINS_FORMULA.test(formula)) return checked({ type: 'text', op: 'notContains', text: xlsxRuleText(rule), format });
      const count = COUNT_FORMULA.exec(formula);
      return count ? checked({ type: 'duplicates', unique: count[1] === '=1', format }) : undefined;
    }
    case 'top10':
      return checked({ type: 'topBottom', bottom: rule.bottom === true, percent: rule.percent === true, rank: rule.rank ?? 10, format });
    case 'aboveAverage':
      return rule.averageVariant ? undefined : checked({ type: 'average', below: rule.aboveAverage === false, format });
    case 'duplicateValues':
    case 'uniqueValues':
      return checked({ type: 'duplicates', unique: rule.type === 'uniqueValues', format });
    case 'colorScale':
      return checked({ type: 'colorScale', points: rule.cfvo.map((cfvo, index) => ({ ...xlsxThreshold(cfvo), color: rule.colors[index] })) });
    case 'dataBar':
      return checked({ type: 'dataBar', color: rule.colors[0], min: xlsxThreshold(rule.cfvo[0]), max: xlsxThreshold(rule.cfvo[1]) });
    default:
      return undefined;
  }
}

/** Puts imported rules on a sheet (each checked as any stored one); their areas are kept as the file gives them. */
export function applyImportedConditionalRules(sheet: FilterSheet, rules: readonly ConditionalRule[]): void {
  for (const rule of rules.slice(0, MAX_CONDITIONAL_RULES)) {
    const checked = parseConditionalRule(rule);
    if (checked) sheet.featureMap(CONDITIONAL_FORMATS_KEY, true)!.set(checked.id, checked);
  }
}
