import { choiceOptions, parseTyped, refusal } from './cell-types.js';
import { t } from './messages.js';
import type { Column } from './model.js';

/**
 * Refused input said to people: what a column of the type takes, with an example, in the page's language
 * (the table API's own messages are for developers and never shown in a cell).
 */

/** Why the API would refuse `value` for the column, said to a person, or undefined when it would accept it. */
export function explainRefusal(column: Column, value: unknown): string | undefined {
  return refusal(column, value) === undefined ? undefined : expected(column, value);
}

/** What typed text becomes in the user's locale, or why it cannot be (said to a person). */
export function readTyped(column: Column, text: string): { value: unknown } | { error: string } {
  const parsed = parseTyped(column, text, userLocale());
  return 'refused' in parsed ? { error: expected(column, text) } : parsed;
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
