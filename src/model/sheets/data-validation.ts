import type { SheetStructureEdit } from '../content.js';
import { isCellArea, shiftArea, type CellArea } from './cell-area.js';
import type { FilterSheet } from './filter.js';
import { copyFormula } from './formula-copy.js';
import { parseFormula } from './formulas/parser.js';
import { shiftFormula } from './formulas/shift.js';
import { FormulaError, toText, type CellValue } from './formulas/values.js';
import { isFormulaInput, type CellInput, type Workbook } from './formulas/workbook.js';

/**
 * Data validation (docs/SHEETS.md "Data validation"): rules over areas of a sheet saying what a cell may hold: one
 * of a list (literal values or a range's values, offered as a dropdown), a whole number, a decimal or a date compared
 * with one or two bounds, a text of a length, or whatever makes a formula TRUE. A rule's error style says what
 * happens to input that breaks it: `stop` refuses it (the editor keeps the cell open, the values API refuses the
 * write), `warning` and `information` accept it once the person has seen the message.
 *
 * The rules check input, as in the desktop programs: values already in the cells are not changed when a rule is set,
 * and what formulas compute later is not checked again.
 *
 * Stored under the sheet's `validation` key as a Y.Map of `rule:<id>` → ValidationRule, so that two people setting
 * rules on different areas both keep theirs. A rule's formulas (custom, bounds, a list's source) are written as for
 * the top-left cell of its first area, as xlsx stores them: for another cell they move as a copied formula does.
 */

export const VALIDATION_KEY = 'validation';
const RULE_PREFIX = 'rule:';

export const VALIDATION_TYPES = ['list', 'whole', 'decimal', 'date', 'textLength', 'custom'] as const;
export type ValidationType = (typeof VALIDATION_TYPES)[number];

export const VALIDATION_OPERATORS = ['between', 'notBetween', 'eq', 'ne', 'gt', 'lt', 'ge', 'le'] as const;
export type ValidationOperator = (typeof VALIDATION_OPERATORS)[number];

export const ERROR_STYLES = ['stop', 'warning', 'information'] as const;
export type ErrorStyle = (typeof ERROR_STYLES)[number];

/** A bound: a number, or a formula's text without its "=" (`B1`, `TODAY()`), computed when a value is checked. */
export type ValidationOperand = number | string;

export interface ValidationRule {
  type: ValidationType;
  /** whole, decimal, date, textLength: how the value compares with `value1` (and `value2` for the two between kinds) */
  operator?: ValidationOperator;
  value1?: ValidationOperand;
  value2?: ValidationOperand;
  /** list: the values offered, as typed */
  values?: string[];
  /** list: a reference whose cells' values are offered (`$D$1:$D$9`, `Lists!A:A`); custom: the formula (no "=") */
  formula?: string;
  /** an empty cell passes (default true, as in the desktop programs) */
  allowBlank: boolean;
  /** list: the cell shows a dropdown (default true) */
  showDropdown: boolean;
  errorStyle: ErrorStyle;
  errorTitle?: string;
  errorMessage?: string;
  promptTitle?: string;
  prompt?: string;
}

export interface StoredValidation extends ValidationRule {
  /** the areas the rule covers, disjoint from every other rule's; the first one's top-left cell anchors its formulas */
  areas: CellArea[];
}

export interface SheetValidation extends StoredValidation {
  id: string;
}

/** Longest title (as xlsx allows), message, list and formula; most list values. */
export const MAX_TITLE = 32;
export const MAX_MESSAGE = 255;
export const MAX_LIST_TEXT = 255;
export const MAX_VALIDATION_FORMULA = 8_192;
export const MAX_AREAS = 1_000;

/** Why a rule as sent or stored cannot be kept (its first problem), or the rule, checked and with defaults filled in. */
export function parseValidationRule(input: unknown): ValidationRule | string {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return 'a rule is an object';
  const raw = input as Record<string, unknown>;
  const type = raw.type;
  if (typeof type !== 'string' || !(VALIDATION_TYPES as readonly string[]).includes(type)) return `type is one of ${VALIDATION_TYPES.join(', ')}`;
  const rule: ValidationRule = { type: type as ValidationType, allowBlank: raw.allowBlank !== false, showDropdown: raw.showDropdown !== false, errorStyle: 'stop' };
  if (raw.errorStyle !== undefined) {
    if (typeof raw.errorStyle !== 'string' || !(ERROR_STYLES as readonly string[]).includes(raw.errorStyle)) return `errorStyle is one of ${ERROR_STYLES.join(', ')}`;
    rule.errorStyle = raw.errorStyle as ErrorStyle;
  }
  for (const [key, limit] of [['errorTitle', MAX_TITLE], ['errorMessage', MAX_MESSAGE], ['promptTitle', MAX_TITLE], ['prompt', MAX_MESSAGE]] as const) {
    const text = raw[key];
    if (text === undefined || text === '') continue;
    if (typeof text !== 'string' || text.length > limit) return `${key} is text of at most ${limit} characters`;
    rule[key] = text;
  }
  if (type === 'list') {
    if (Array.isArray(raw.values)) {
      const values = raw.values.map((value) => (typeof value === 'number' && Number.isFinite(value) ? String(value) : value));
      if (!values.every((value) => typeof value === 'string') || values.length === 0) return 'values is a list of texts';
      const texts = (values as string[]).map((value) => value.trim()).filter((value) => value !== '');
      // xlsx keeps a literal list as one comma-separated text of at most 255 characters
      if (texts.length === 0 || texts.some((value) => value.includes(',')) || texts.join(',').length > MAX_LIST_TEXT) return `values: at least one, no commas, at most ${MAX_LIST_TEXT} characters together`;
      rule.values = [...new Set(texts)];
    } else {
      const formula = formulaOf(raw.formula);
      if (formula === undefined) return 'a list has values or a formula naming a range';
      rule.formula = formula;
    }
    return rule;
  }
  if (type === 'custom') {
    const formula = formulaOf(raw.formula);
    if (formula === undefined) return 'formula is a formula that parses';
    rule.formula = formula;
    return rule;
  }
  const operator = raw.operator ?? 'between';
  if (typeof operator !== 'string' || !(VALIDATION_OPERATORS as readonly string[]).includes(operator)) return `operator is one of ${VALIDATION_OPERATORS.join(', ')}`;
  rule.operator = operator as ValidationOperator;
  const value1 = operandOf(raw.value1);
  if (value1 === undefined) return 'value1 is a number or a formula';
  rule.value1 = value1;
  if (operator === 'between' || operator === 'notBetween') {
    const value2 = operandOf(raw.value2);
    if (value2 === undefined) return 'value2 is a number or a formula';
    rule.value2 = value2;
  }
  return rule;
}

/** A formula's text without its "=", when it parses. */
function formulaOf(input: unknown): string | undefined {
  if (typeof input !== 'string') return undefined;
  const text = input.trim().replace(/^=/, '');
  if (text === '' || text.length > MAX_VALIDATION_FORMULA || !parseFormula(`=${text}`).ok) return undefined;
  return text;
}

function operandOf(input: unknown): ValidationOperand | undefined {
  if (typeof input === 'number') return Number.isFinite(input) ? input : undefined;
  if (typeof input !== 'string') return undefined;
  const number = Number(input);
  if (input.trim() !== '' && Number.isFinite(number)) return number;
  return formulaOf(input);
}

function ruleOfStored(value: unknown): StoredValidation | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const areas = (value as { areas?: unknown }).areas;
  if (!Array.isArray(areas) || areas.length === 0 || areas.length > MAX_AREAS || !areas.every(isCellArea)) return undefined;
  const rule = parseValidationRule(value);
  return typeof rule === 'string' ? undefined : { ...rule, areas: areas.map(({ startRow, endRow, startColumn, endColumn }) => ({ startRow, endRow, startColumn, endColumn })) };
}

/** The sheet's rules, in the order of their ids; stored entries a broken client wrote are left out. */
export function validationsOf(sheet: FilterSheet): SheetValidation[] {
  const stored = sheet.featureMap(VALIDATION_KEY);
  if (!stored) return [];
  const rules: SheetValidation[] = [];
  stored.forEach((value, key) => {
    const rule = key.startsWith(RULE_PREFIX) ? ruleOfStored(value) : undefined;
    if (rule) rules.push({ id: key.slice(RULE_PREFIX.length), ...rule });
  });
  return rules.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

const inside = (area: CellArea, row: number, column: number) => row >= area.startRow && row <= area.endRow && column >= area.startColumn && column <= area.endColumn;

/** The rule of a cell (the first one covering it, should a broken client have made two overlap). */
export function validationAt(rules: readonly SheetValidation[], row: number, column: number): SheetValidation | undefined {
  return rules.find((rule) => rule.areas.some((area) => inside(area, row, column)));
}

/** `area` without the cells of `cut`: up to four rectangles around it. */
export function subtractArea(area: CellArea, cut: CellArea): CellArea[] {
  const top = Math.max(area.startRow, cut.startRow);
  const bottom = Math.min(area.endRow, cut.endRow);
  const left = Math.max(area.startColumn, cut.startColumn);
  const right = Math.min(area.endColumn, cut.endColumn);
  if (top > bottom || left > right) return [area];
  const pieces: CellArea[] = [];
  if (area.startRow < top) pieces.push({ ...area, endRow: top - 1 });
  if (bottom < area.endRow) pieces.push({ ...area, startRow: bottom + 1 });
  if (area.startColumn < left) pieces.push({ startRow: top, endRow: bottom, startColumn: area.startColumn, endColumn: left - 1 });
  if (right < area.endColumn) pieces.push({ startRow: top, endRow: bottom, startColumn: right + 1, endColumn: area.endColumn });
  return pieces;
}

/**
 * Puts `rule` on `area` (undefined: takes every rule off it), as the desktop programs do: the area's cells leave the
 * rules they had (a rule left with no cell goes), then the new rule covers the area. The rule's formulas are
 * written for the area's top-left cell; those of rules cut down keep pointing where they did for each cell. Callers
 * check `area` against the grid; `newId` makes the id of the new rule (unique across collaborators: a random one).
 */
export function setValidation(sheet: FilterSheet, area: CellArea, rule: ValidationRule | undefined, newId: () => string): void {
  const stored = sheet.featureMap(VALIDATION_KEY, rule !== undefined);
  if (!stored) return;
  for (const existing of validationsOf(sheet)) {
    const areas = existing.areas.flatMap((own) => subtractArea(own, area));
    const unchanged = areas.length === existing.areas.length && areas.every((own, index) => own === existing.areas[index]);
    if (unchanged) continue;
    const { id, ...kept } = existing;
    if (areas.length === 0 || areas.length > MAX_AREAS) stored.delete(`${RULE_PREFIX}${id}`);
    else stored.set(`${RULE_PREFIX}${id}`, reanchored(kept, areas));
  }
  if (rule) stored.set(`${RULE_PREFIX}${newId()}`, { ...rule, areas: [{ ...area }] } satisfies StoredValidation);
}

/** A rule given new areas: its formulas rewritten for the new first area's top-left cell, so each cell reads the same. */
function reanchored(rule: StoredValidation, areas: CellArea[]): StoredValidation {
  const from = rule.areas[0]!;
  const to = areas[0]!;
  const move = (text: string) => copyFormula(`=${text}`, to.startRow - from.startRow, to.startColumn - from.startColumn).slice(1);
  return mapFormulas({ ...rule, areas }, move);
}

function mapFormulas<T extends ValidationRule>(rule: T, move: (text: string) => string): T {
  const moved = { ...rule };
  if (moved.formula !== undefined) moved.formula = move(moved.formula);
  if (typeof moved.value1 === 'string') moved.value1 = move(moved.value1);
  if (typeof moved.value2 === 'string') moved.value2 = move(moved.value2);
  return moved;
}

/** The sheet's part a structure edit needs to move rules: its name, which references in the rules' formulas may spell. */
export interface ValidationSheet extends FilterSheet {
  readonly name: string;
}

/** Moves the rules for a structure edit: areas as merges move (a rule left with none goes), formulas as cells' formulas move. */
export function moveValidations(sheet: ValidationSheet, edit: SheetStructureEdit): void {
  const stored = sheet.featureMap(VALIDATION_KEY);
  if (!stored) return;
  for (const { id, ...rule } of validationsOf(sheet)) {
    const areas = rule.areas.map((area) => shiftArea(area, edit)).filter((area): area is CellArea => area !== undefined);
    if (areas.length === 0) {
      stored.delete(`${RULE_PREFIX}${id}`);
      continue;
    }
    const moved = mapFormulas({ ...rule, areas }, (text) => shiftFormula(`=${text}`, sheet.name, { ...edit, sheet: sheet.name }).slice(1));
    // the first area deleted: the formulas were written for its corner, so they move to the new first area's
    const anchored = shiftArea(rule.areas[0]!, edit) ? moved : reanchored({ ...moved, areas: [rule.areas[0]!] }, areas);
    stored.set(`${RULE_PREFIX}${id}`, anchored);
  }
}

/** How the rule's formulas read for one cell: moved from the rule's anchor as a copied formula is. */
function formulaFor(rule: StoredValidation, text: string, row: number, column: number): string {
  const anchor = rule.areas[0]!;
  return copyFormula(`=${text}`, row - anchor.startRow, column - anchor.startColumn);
}

/**
 * What checking a value needs from the workbook: a formula computed at a cell with the candidate in it (custom rules,
 * bounds that are formulas), and a reference's values (a list's source). `workbookContext` makes it from the formula
 * engine; tests give their own.
 */
export interface ValidationContext {
  evaluate(formula: string, row: number, column: number, candidate: CellValue): CellValue;
  values(formula: string, row: number, column: number): CellValue[] | FormulaError;
}

export function workbookContext(workbook: Workbook, sheetId: string): ValidationContext {
  return {
    evaluate: (formula, row, column, candidate) => workbook.evaluateAt(sheetId, row, column, formula, candidate),
    values: (formula, row, column) => workbook.evaluateAt(sheetId, row, column, formula, undefined, true),
  };
}

const isBlank = (value: CellValue): value is null | '' => value === null || value === '';

/** The texts a list rule offers for a cell, in order, without repeats and blanks (the dropdown's items). */
export function listItems(rule: StoredValidation, row: number, column: number, context: ValidationContext): string[] {
  if (rule.values) return rule.values;
  if (rule.formula === undefined) return [];
  const values = context.values(formulaFor(rule, rule.formula, row, column), row, column);
  if (values instanceof FormulaError) return [];
  const items = new Set<string>();
  for (const value of values) if (!isBlank(value) && !(value instanceof FormulaError)) items.add(toText(value));
  return [...items];
}

/** A bound's number; `blank` when it is a formula reading an empty cell (Excel then lets every value pass). */
function operandValue(rule: StoredValidation, operand: ValidationOperand | undefined, row: number, column: number, candidate: CellValue, context: ValidationContext): number | 'blank' | undefined {
  if (typeof operand === 'number') return operand;
  if (operand === undefined) return undefined;
  const formula = formulaFor(rule, operand, row, column);
  // a formula's value reads an empty cell as 0: its reference, read whole, tells an empty cell
  const whole = context.values(formula, row, column);
  if (!(whole instanceof FormulaError) && whole.length === 1 && whole[0] === null) return 'blank';
  const value = context.evaluate(formula, row, column, candidate);
  return typeof value === 'number' ? value : undefined;
}

function compare(operator: ValidationOperator, value: number, first: number, second: number | undefined): boolean {
  switch (operator) {
    // as Excel: the first bound is the minimum (bounds that are formulas may come in the wrong order: nothing passes)
    case 'between':
      return second !== undefined && value >= first && value <= second;
    case 'notBetween':
      return second !== undefined && (value < first || value > second);
    case 'eq':
      return value === first;
    case 'ne':
      return value !== first;
    case 'gt':
      return value > first;
    case 'lt':
      return value < first;
    case 'ge':
      return value >= first;
    default:
      return value <= first;
  }
}

/**
 * Whether `candidate` (the value a cell would hold: a typed value, or a formula's result) passes the rule at (row,
 * column). Blank passes when the rule allows it, else fails. Numbers are what number rules accept (text that looks
 * like a number is not one: the editor and the values API store typed numbers as numbers). A list compares texts
 * ignoring case; a custom formula passes when it computes TRUE or a number other than 0.
 */
export function passesValidation(rule: StoredValidation, candidate: CellValue, row: number, column: number, context: ValidationContext): boolean {
  if (isBlank(candidate)) return rule.allowBlank;
  if (candidate instanceof FormulaError) return rule.type === 'custom' && passesCustom(rule, candidate, row, column, context);
  switch (rule.type) {
    case 'list':
      return inList(rule, candidate, row, column, context);
    case 'custom':
      return passesCustom(rule, candidate, row, column, context);
    case 'textLength':
      return passesBounds(rule, toText(candidate).length, candidate, row, column, context);
    default: {
      if (typeof candidate !== 'number') return false;
      if (rule.type === 'whole' && !Number.isInteger(candidate)) return false;
      return passesBounds(rule, candidate, candidate, row, column, context);
    }
  }
}

/**
 * Whether a value is one of a list's: typed values (`Yes, No`) compare as text ignoring case; a source range's
 * values compare with their type kept, as Excel does (the text "1.1" is not the number 1.1, TRUE not the text).
 */
function inList(rule: StoredValidation, candidate: Exclude<CellValue, FormulaError | null>, row: number, column: number, context: ValidationContext): boolean {
  const text = toText(candidate).toLocaleLowerCase();
  if (rule.values) return rule.values.some((item) => item.toLocaleLowerCase() === text);
  if (rule.formula === undefined) return false;
  const values = context.values(formulaFor(rule, rule.formula, row, column), row, column);
  if (values instanceof FormulaError) return false;
  return values.some((value) => typeof value === typeof candidate && (typeof value === 'string' ? value.toLocaleLowerCase() === text : value === candidate));
}

function passesCustom(rule: StoredValidation, candidate: CellValue, row: number, column: number, context: ValidationContext): boolean {
  const result = context.evaluate(formulaFor(rule, rule.formula ?? 'FALSE', row, column), row, column, candidate);
  return result === true || (typeof result === 'number' && result !== 0);
}

function passesBounds(rule: StoredValidation, value: number, candidate: CellValue, row: number, column: number, context: ValidationContext): boolean {
  const first = operandValue(rule, rule.value1, row, column, candidate, context);
  const between = rule.operator === 'between' || rule.operator === 'notBetween';
  const second = between ? operandValue(rule, rule.value2, row, column, candidate, context) : undefined;
  // a bound in an empty cell is no bound, as in Excel: the value passes (a bound that is text or an error fails it)
  if (first === 'blank' || second === 'blank') return true;
  if (first === undefined) return false;
  return compare(rule.operator ?? 'between', value, first, second);
}

/** One cell a write would break a rule at, for the caller's message. */
export interface ValidationFailure {
  row: number;
  column: number;
  rule: SheetValidation;
}

/**
 * The first cell of `writes` (what each cell would hold: a value, or a formula's text, which is checked by the value
 * it computes in that cell) that breaks a `stop` rule, or undefined: what a write that must be all or nothing checks
 * before anything is stored — typed values, values API writes, pastes, fills and sorts (docs/SHEETS.md "Data
 * validation"). Warning and information rules accept what they warn about.
 */
export function firstRefusal(rules: readonly SheetValidation[], writes: Iterable<{ row: number; column: number; input: CellInput }>, context: ValidationContext): ValidationFailure | undefined {
  if (!rules.some((rule) => rule.errorStyle === 'stop')) return undefined;
  for (const { row, column, input } of writes) {
    const rule = validationAt(rules, row, column);
    if (rule?.errorStyle !== 'stop') continue;
    const value: CellValue = isFormulaInput(input) ? context.evaluate(input, row, column, null) : input;
    if (!passesValidation(rule, value, row, column, context)) return { row, column, rule };
  }
  return undefined;
}

/** A rule as an import hands it over (plain data, for a worker's message). */
export interface ImportedValidation {
  rule: ValidationRule;
  areas: CellArea[];
}

/** Puts imported rules on a sheet, each checked as any stored one; the ids are their order. */
export function applyImportedValidations(sheet: FilterSheet, rules: readonly ImportedValidation[]): void {
  if (rules.length === 0) return;
  const stored = sheet.featureMap(VALIDATION_KEY, true)!;
  rules.forEach(({ rule, areas }, index) => {
    const checked = ruleOfStored({ ...rule, areas });
    if (checked) stored.set(`${RULE_PREFIX}import-${String(index).padStart(6, '0')}`, checked);
  });
}

/** The operators as xlsx spells them (`<dataValidation operator>`), both ways. */
const XLSX_OPERATORS: Readonly<Record<ValidationOperator, string>> = {
  between: 'between',
  notBetween: 'notBetween',
  eq: 'equal',
  ne: 'notEqual',
  gt: 'greaterThan',
  lt: 'lessThan',
  ge: 'greaterThanOrEqual',
  le: 'lessThanOrEqual',
};

/** One `<dataValidation>` as xlsx (and exceljs) spell it; formulas without "=", texts as stored. */
export interface XlsxValidation {
  type: string;
  operator?: string;
  allowBlank?: boolean;
  /** xlsx's `showDropDown="1"` HIDES a list's dropdown (the attribute is named backwards) */
  hideDropDown?: boolean;
  errorStyle?: string;
  errorTitle?: string;
  error?: string;
  promptTitle?: string;
  prompt?: string;
  formulae: string[];
}

/** A literal list as xlsx writes it: `"a,b,c"`, a `"` inside doubled. */
function listFormula(values: readonly string[]): string {
  return `"${values.join(',').replace(/"/g, '""')}"`;
}

/**
 * An imported `<dataValidation>` as the model's rule, or undefined for what the model does not keep (`time`, `any`,
 * a rule it cannot check): the caller leaves such a rule out. A literal list `"a,b"` becomes values; numbers stay
 * numbers; anything else in a formula stays a formula.
 */
export function validationOfXlsx(xlsx: XlsxValidation): ValidationRule | undefined {
  const [first, second] = xlsx.formulae.map((formula) => formula.trim());
  const input: Record<string, unknown> = {
    type: xlsx.type,
    allowBlank: xlsx.allowBlank === true,
    showDropdown: xlsx.hideDropDown !== true,
    errorStyle: xlsx.errorStyle ?? 'stop',
    errorTitle: xlsx.errorTitle?.slice(0, MAX_TITLE),
    errorMessage: xlsx.error?.slice(0, MAX_MESSAGE),
    promptTitle: xlsx.promptTitle?.slice(0, MAX_TITLE),
    prompt: xlsx.prompt?.slice(0, MAX_MESSAGE),
  };
  if (xlsx.type === 'list') {
    if (first === undefined) return undefined;
    if (first.startsWith('"') && first.endsWith('"') && first.length >= 2) input.values = first.slice(1, -1).replace(/""/g, '"').split(',');
    else input.formula = first;
  } else if (xlsx.type === 'custom') input.formula = first;
  else {
    const operator = (Object.keys(XLSX_OPERATORS) as ValidationOperator[]).find((key) => XLSX_OPERATORS[key] === (xlsx.operator ?? 'between'));
    input.operator = operator;
    input.value1 = first;
    input.value2 = second;
  }
  const rule = parseValidationRule(input);
  return typeof rule === 'string' ? undefined : rule;
}

/** A rule as xlsx spells it, for the export (dates' bounds as serial numbers; exceljs turns them into dates itself). */
export function xlsxOfValidation(rule: ValidationRule): XlsxValidation {
  const operand = (value: ValidationOperand | undefined) => (value === undefined ? [] : [String(value)]);
  const formulae =
    rule.type === 'list' ? [rule.values ? listFormula(rule.values) : rule.formula ?? '']
    : rule.type === 'custom' ? [rule.formula ?? '']
    : [...operand(rule.value1), ...(rule.operator === 'between' || rule.operator === 'notBetween' ? operand(rule.value2) : [])];
  return {
    type: rule.type,
    ...(rule.operator ? { operator: XLSX_OPERATORS[rule.operator] } : {}),
    allowBlank: rule.allowBlank,
    ...(rule.showDropdown ? {} : { hideDropDown: true }),
    errorStyle: rule.errorStyle,
    ...(rule.errorTitle ? { errorTitle: rule.errorTitle } : {}),
    ...(rule.errorMessage ? { error: rule.errorMessage } : {}),
    ...(rule.promptTitle ? { promptTitle: rule.promptTitle } : {}),
    ...(rule.prompt ? { prompt: rule.prompt } : {}),
    formulae,
  };
}
