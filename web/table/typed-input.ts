/** How people type numbers and dates into table cells: pure functions (no DOM), shared by the cell editors and their tests. */

/**
 * A number as the user writes it in their locale (`1,234.5` in en, `1.234,5` in de, `1 234,5` in fr), or in
 * the plain form `1234.5` / `1.5e3`; undefined when the text is not a number.
 */
export function parseLocaleNumber(text: string, locale: string): number | undefined {
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
