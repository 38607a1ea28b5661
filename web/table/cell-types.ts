import { FieldRuleError } from '../../src/model/tables/fields/field-type.js';
import { CREATABLE_TYPES, fieldType } from '../../src/model/tables/fields/registry.js';
import type { CascadeOption } from '../../src/model/tables/fields/cascade.js';
import type { ChoiceOption } from '../../src/model/tables/fields/choices.js';
import { t } from './messages.js';
import type { Column } from './model.js';

/**
 * How each column type shows its cells as text and reads what a user typed. Whether a value is allowed is
 * decided by the service's own field-type modules (src/model/tables/fields/, pure code shared with the
 * page), so the page refuses exactly what the table API would refuse, before anything is sent.
 */

export const CHECKBOX_MARKS: Record<string, string> = { check: '✓', star: '★', close: '✗' };
export const RATE_ICONS: Record<string, string> = { star: '★', flame: '🔥', heart: '♥', honor: '🏅', stone: '◆' };

/** Option colours the page applies: CSS colour names and hex colours only (the text is the integrator's). */
const SAFE_COLOR = /^(#[0-9a-f]{3,8}|[a-z]{3,20})$/i;
const PALETTE = ['#dbe4ff', '#d3f9d8', '#fff3bf', '#ffe3e3', '#e5dbff', '#c5f6fa', '#ffe8cc', '#f1f3f5'];

export function optionColor(options: readonly ChoiceOption[], name: string): string {
  const index = options.findIndex((option) => option.name === name);
  const color = options[index]?.color;
  return color && SAFE_COLOR.test(color) ? color : PALETTE[Math.max(0, index) % PALETTE.length]!;
}

export function choiceOptions(column: Column): ChoiceOption[] {
  return Array.isArray(column.props.options) ? (column.props.options as ChoiceOption[]) : [];
}

export function cascadeOptions(column: Column): CascadeOption[] {
  return Array.isArray(column.props.options) ? (column.props.options as CascadeOption[]) : [];
}

function precisionOf(column: Column): number | undefined {
  const precision = column.props.precision;
  return typeof precision === 'number' ? precision : undefined;
}

/** value × 10^shift through its decimal form, so 0.07 → 7 rather than 7.000000000000001. */
function shifted(value: number, shift: number): number {
  const [mantissa = '0', exponent = '0'] = String(value).split('e');
  return Number(`${mantissa}e${Number(exponent) + shift}`);
}

/** Text of a linked row (its primary value), by row guid; the guid itself until it is known. */
export type LinkLabel = (tableGuid: string, rowGuid: string) => string;

/** The cell's value as the grid shows it, as text (what a screen reader reads and a test compares). */
export function shownText(value: unknown, column: Column, linkLabel: LinkLabel): string {
  if (value === undefined || value === null) return '';
  switch (column.type) {
    case 'SingleLineText':
    case 'LongText':
      return typeof value === 'string' ? value.replace(/\s*\n\s*/g, ' ⏎ ') : fallback(value);
    case 'Number':
    case 'AutoNumber': {
      if (typeof value !== 'number') return fallback(value);
      const precision = precisionOf(column);
      return precision === undefined ? String(value) : value.toFixed(precision);
    }
    case 'Percent': {
      if (typeof value !== 'number') return fallback(value);
      const precision = precisionOf(column);
      const percent = shifted(value, 2);
      return `${precision === undefined ? String(percent) : percent.toFixed(precision)}%`;
    }
    case 'Date': {
      if (typeof value !== 'string') return fallback(value);
      return column.props.format === 'datetime' ? `${value.slice(0, 10)} ${value.slice(11, 16)}` : value.slice(0, 10);
    }
    case 'CheckBox':
      return value === true ? (CHECKBOX_MARKS[String(column.props.type)] ?? CHECKBOX_MARKS.check!) : '';
    case 'Rate':
      return typeof value === 'number' ? (RATE_ICONS[String(column.props.icon)] ?? RATE_ICONS.star!).repeat(Math.max(0, value)) : fallback(value);
    case 'MultipleChoice':
      return Array.isArray(value) ? value.map(String).join(', ') : fallback(value);
    case 'Cascade':
      return Array.isArray(value) ? value.map(String).join(' / ') : fallback(value);
    case 'Link': {
      const tableGuid = String(column.props.tableGuid ?? '');
      return Array.isArray(value) ? value.map((guid) => linkLabel(tableGuid, String(guid))).join(', ') : fallback(value);
    }
    default:
      return fallback(value);
  }
}

/** A value of another shape than the type's (stored under an earlier type) or of a type we do not draw. */
function fallback(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map((item) => (typeof item === 'string' ? item : JSON.stringify(item))).join(', ');
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/**
 * Why the table API would refuse `value` for this column, in the page's language and a person's words (what
 * to enter instead, with an example), or undefined when it would accept it. The API's own message is for
 * developers; the page never shows it in a cell.
 */
export function refusal(column: Column, value: unknown): string | undefined {
  if (value === null) return undefined;
  const type = fieldType(column.type);
  if (!type) return t('cell.readOnlyType', { type: column.type });
  try {
    // Link rows are checked by the service when the value is written; here only the shape is.
    type.write(value, column.props, { requireRows: () => undefined });
    return undefined;
  } catch (error) {
    if (error instanceof FieldRuleError) return expected(column, value);
    throw error;
  }
}

/** What a column of this type takes, said to a person, for a rejected `value`. */
export function expected(column: Column, value: unknown): string {
  switch (column.type) {
    case 'Number':
      return t('refuse.number', { example: formatNumber(1234.5) });
    case 'Percent':
      return t('refuse.percent', { example: `${formatNumber(12.5)}%` });
    case 'Date':
      return column.props.format === 'datetime' ? t('refuse.datetime', { example: '2026-03-14 09:30' }) : t('refuse.date', { example: '2026-03-14' });
    case 'Rate':
      return t('refuse.rate', { count: typeof column.props.count === 'number' ? column.props.count : 5 });
    case 'SingleChoice':
    case 'MultipleChoice': {
      const names = new Set(choiceOptions(column).map((option) => option.name));
      const unknown = (Array.isArray(value) ? value.map(String) : [String(value)]).filter((name) => !names.has(name));
      return names.size === 0 ? t('refuse.noOptions') : t('refuse.option', { value: unknown.join(', ') });
    }
    case 'Cascade':
      return t('refuse.cascade');
    case 'CheckBox':
      return t('refuse.checkbox');
    case 'Link':
      return t('refuse.link');
    case 'SingleLineText':
    case 'LongText':
      return t('refuse.tooLong');
    default:
      return t('cell.readOnlyType', { type: column.type });
  }
}

/** The page's number formatting: the browser's locale (the user's), which is also what number input accepts. */
function userLocale(): string {
  for (const tag of navigator.languages ?? [navigator.language]) {
    try {
      if (Intl.NumberFormat.supportedLocalesOf(tag).length > 0) return tag;
    } catch {
      // not a locale tag the page can format with (headless browsers report odd ones): try the next
    }
  }
  return 'en';
}

export function formatNumber(value: number): string {
  return new Intl.NumberFormat(userLocale(), { maximumFractionDigits: 20 }).format(value);
}

/**
 * A number as the user writes it in their locale (`1,234.5` in en, `1.234,5` in de, `1 234,5` in fr), or in
 * the plain form `1234.5` / `1.5e3`; undefined when the text is not a number.
 */
export function parseLocaleNumber(text: string, locale = userLocale()): number | undefined {
  // Some locales write minus as U+2212.
  const plain = text.trim().replace(/^\+/, '').replace(/^\u2212/, '-');
  const parts = new Intl.NumberFormat(locale).formatToParts(1234567.5);
  const group = parts.find((part) => part.type === 'group')?.value ?? ',';
  const decimal = parts.find((part) => part.type === 'decimal')?.value ?? '.';
  // A plain number (`1234.5`, `1.5e3`) reads the same in every locale, unless its dots group thousands there.
  const groupedByDots = group === '.' && /^-?\d{1,3}(\.\d{3})+$/.test(plain);
  if (/^-?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(plain) && !groupedByDots) return Number(plain);
  // Grouping only where it groups thousands (`1,5` is not 15 in en), or lakhs before them (en-IN `1,00,000`);
  // browsers group with no-break spaces (fr: U+202F) where people type ordinary ones.
  const groupPattern = group.trim() === '' ? '[\\s\\u00a0\\u202f]' : escapeRegExp(group);
  const shape = new RegExp(`^-?(\\d{1,3}(${groupPattern}\\d{2})*(${groupPattern}\\d{3})+|\\d+)(${escapeRegExp(decimal)}\\d+)?$`);
  if (!shape.test(plain)) return undefined;
  return Number(plain.replace(new RegExp(groupPattern, 'g'), '').replace(decimal, '.'));
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A date as people type it: `2026-03-14`, `2026/3/14`, `2026.3.14`, `2026年3月14日`, with a time `09:30` after
 * it for date-time columns; the ISO text the API takes, or undefined.
 */
export function parseTypedDate(text: string): string | undefined {
  const match = /^(\d{4})\s*[-/.年]\s*(\d{1,2})\s*[-/.月]\s*(\d{1,2})\s*日?(?:[T\s]+(\d{1,2}):(\d{2}))?$/.exec(text.trim());
  if (!match) return undefined;
  const [, year, month, day, hour, minute] = match;
  const date = `${year}-${month!.padStart(2, '0')}-${day!.padStart(2, '0')}`;
  return hour === undefined ? date : `${date}T${hour.padStart(2, '0')}:${minute}`;
}

/** Types edited as typed text: what the typed text becomes (`null` clears), or a refusal. */
export function parseTyped(column: Column, text: string): { value: unknown } | { error: string } {
  const trimmed = text.trim();
  if (column.type === 'SingleLineText' || column.type === 'LongText') return text === '' ? { value: null } : { value: text };
  if (trimmed === '') return { value: null };
  if (column.type === 'Number' || column.type === 'Percent') {
    const isPercent = column.type === 'Percent';
    const number = parseLocaleNumber(isPercent ? trimmed.replace(/\s*%$/, '') : trimmed);
    if (number === undefined) return { error: expected(column, text) };
    return { value: isPercent ? shifted(number, -2) : number };
  }
  if (column.type === 'Rate') {
    if (!/^\d+$/.test(trimmed)) return { error: expected(column, text) };
    return { value: Number(trimmed) };
  }
  if (column.type === 'Date') return { value: parseTypedDate(trimmed) ?? trimmed };
  if (column.type === 'SingleChoice') return { value: trimmed };
  if (column.type === 'MultipleChoice') return { value: trimmed.split(',').map((part) => part.trim()).filter(Boolean) };
  if (column.type === 'Cascade') return { value: trimmed.split('/').map((part) => part.trim()).filter(Boolean) };
  if (column.type === 'CheckBox') {
    if (/^(true|yes|1|x|✓|是|对)$/i.test(trimmed)) return { value: true };
    if (/^(false|no|0|否|不)$/i.test(trimmed)) return { value: false };
    return { error: expected(column, text) };
  }
  return { error: expected(column, text) };
}

/** The text an editor starts from: what was typed into the cell for text-like types. */
export function editableText(column: Column, value: unknown): string {
  if (value === undefined || value === null) return '';
  if (column.type === 'Percent' && typeof value === 'number') return `${shifted(value, 2)}%`;
  if (column.type === 'Date' && typeof value === 'string') return column.props.format === 'datetime' ? value.slice(0, 16) : value.slice(0, 10);
  if (column.type === 'Number' && typeof value === 'number') return String(value);
  return shownText(value, column, (_table, guid) => guid).replace(/ ⏎ /g, '\n');
}

/** Column types a user may give a column: the table API's creatable types. */
export const EDITABLE_TYPES: readonly string[] = CREATABLE_TYPES;
/** Types the primary (first) column may take after creation. */
export const PRIMARY_TYPES: readonly string[] = CREATABLE_TYPES.filter((name) => fieldType(name)?.primary);
