import { FieldRuleError } from '../../src/model/tables/fields/field-type.js';
import { CREATABLE_TYPES, fieldType } from '../../src/model/tables/fields/registry.js';
import type { CascadeOption } from '../../src/model/tables/fields/cascade.js';
import type { ChoiceOption } from '../../src/model/tables/fields/choices.js';
import { parseLocaleNumber, parseTypedDate } from './typed-input.js';
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
 * Why the table API would refuse `value` for this column (the field type's own words, for developers), or
 * undefined when it would accept it. The page says it to people with `explainRefusal` (refusals.ts).
 */
export function refusal(column: Column, value: unknown): string | undefined {
  if (value === null) return undefined;
  const type = fieldType(column.type);
  if (!type) return `${column.type} cells cannot be edited here`;
  try {
    // Link rows are checked by the service when the value is written; here only the shape is.
    type.write(value, column.props, { requireRows: () => undefined });
    return undefined;
  } catch (error) {
    if (error instanceof FieldRuleError) return error.message;
    throw error;
  }
}

/** Types edited as typed text: what the typed text becomes (`null` clears), or `refused` (not such a value). */
export function parseTyped(column: Column, text: string, locale: string): { value: unknown } | { refused: true } {
  const trimmed = text.trim();
  if (column.type === 'SingleLineText' || column.type === 'LongText') return text === '' ? { value: null } : { value: text };
  if (trimmed === '') return { value: null };
  if (column.type === 'Number' || column.type === 'Percent') {
    const isPercent = column.type === 'Percent';
    const number = parseLocaleNumber(isPercent ? trimmed.replace(/\s*%$/, '') : trimmed, locale);
    if (number === undefined) return { refused: true };
    return { value: isPercent ? shifted(number, -2) : number };
  }
  if (column.type === 'Rate') {
    if (!/^\d+$/.test(trimmed)) return { refused: true };
    return { value: Number(trimmed) };
  }
  if (column.type === 'Date') return { value: parseTypedDate(trimmed) ?? trimmed };
  if (column.type === 'SingleChoice') return { value: trimmed };
  if (column.type === 'MultipleChoice') return { value: trimmed.split(',').map((part) => part.trim()).filter(Boolean) };
  if (column.type === 'Cascade') return { value: trimmed.split('/').map((part) => part.trim()).filter(Boolean) };
  if (column.type === 'CheckBox') {
    if (/^(true|yes|1|x|✓|是|对)$/i.test(trimmed)) return { value: true };
    if (/^(false|no|0|否|不)$/i.test(trimmed)) return { value: false };
    return { refused: true };
  }
  return { refused: true };
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
