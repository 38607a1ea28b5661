/**
 * Number formats of spreadsheet cells: the format codes of the common desktop format (the `numFmt` of xlsx, e.g.
 * `#,##0.00`, `0%`, `yyyy-mm-dd`, `"¥"#,##0.00;[Red]-"¥"#,##0.00`), applied to a cell's number to give the text
 * the cell shows. Shared by the editor (what the grid draws), the values API (`FORMATTED_VALUE`) and the
 * converters, so every place shows a cell the same way (docs/SHEETS.md "Number formats").
 *
 * Understood: up to four sections (positive; negative; zero; text), literal text in quotes or after `\`, `_x`
 * (a space), `*x` (ignored: no fill), colours and conditions in brackets (ignored), `[$¥-804]` currency symbols,
 * digit placeholders `0 # ?`, the decimal point, thousands separators (and trailing commas dividing by 1000),
 * `%`, scientific `E+00`, `@` (the text), and dates and times (`y m d h s`, `AM/PM`, `[h]` elapsed hours). A
 * code it cannot read (fractions such as `# ?/?` among them) falls back to General, never to an error: a format only
 * changes how a cell looks.
 */

/** The format of a cell without one. */
export const GENERAL = 'General';
/** How a date without a format of its own is shown (typed, or from a csv), and how the editor writes one back. */
export const DATE_FORMAT = 'yyyy-mm-dd';
export const DATE_TIME_FORMAT = 'yyyy-mm-dd hh:mm:ss';

/** The format a date given as `serial` is shown with when nothing says otherwise: with its time when it has one. */
export function dateFormatFor(serial: number): string {
  return Number.isInteger(serial) ? DATE_FORMAT : DATE_TIME_FORMAT;
}
/** Longest format code stored on a cell. */
export const MAX_FORMAT_CODE = 255;

/** Days between the serial epoch (1899-12-30, as the values API's dates, docs/SHEETS.md) and 1970-01-01. */
const EPOCH_OFFSET_DAYS = 25_569;
const MS_PER_DAY = 86_400_000;

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

type Token =
  | { kind: 'literal'; text: string }
  | { kind: 'date'; code: string }
  | { kind: 'ampm'; code: string }
  | { kind: 'elapsed'; unit: 'h' | 'm' | 's'; width: number }
  | { kind: 'number'; pattern: string }
  | { kind: 'text' };

interface Section {
  tokens: Token[];
  isDate: boolean;
  /** the section's pattern has a % (the value is shown times 100) */
  percent: boolean;
}

const parsed = new Map<string, Section[] | null>();

/** The text `value` shows under the format `code` (General when the code is empty, General or unreadable). */
export function formatNumber(value: number, code: string | undefined): string {
  if (!Number.isFinite(value)) return String(value);
  const sections = code ? sectionsOf(code) : null;
  if (!sections) return generalNumber(value);
  const numeric = sections.filter((section) => !section.tokens.some((token) => token.kind === 'text'));
  const section = value > 0 || numeric.length === 1 ? numeric[0] : value < 0 ? numeric[1] ?? numeric[0] : numeric[2] ?? numeric[0];
  if (!section) return generalNumber(value);
  // a section for negative numbers writes its own sign (or brackets)
  const shown = value < 0 && numeric.length > 1 ? -value : value;
  return section.isDate ? formatDate(shown, section.tokens) : formatPlain(shown, section);
}

/** Text under a format: the text section (`@`) when the code has one, else the text itself. */
export function formatText(text: string, code: string | undefined): string {
  const sections = code ? sectionsOf(code) : null;
  const textSection = sections?.find((section) => section.tokens.some((token) => token.kind === 'text'));
  if (!textSection) return text;
  return textSection.tokens.map((token) => (token.kind === 'text' ? text : token.kind === 'literal' ? token.text : '')).join('');
}

/** The text a cell's value shows under its format: numbers and text by the code, booleans as TRUE / FALSE. */
export function formatValue(value: string | number | boolean, code: string | undefined): string {
  if (typeof value === 'number') return formatNumber(value, code);
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  return value === '' ? '' : formatText(value, code);
}

/** Whether the code shows dates or times (a number under it is a serial date). */
export function isDateFormat(code: string | undefined): boolean {
  const sections = code ? sectionsOf(code) : null;
  return sections?.[0]?.isDate ?? false;
}

/** Why a format code cannot be stored; undefined when it can (any readable code of at most 255 characters). */
export function invalidFormatCode(code: unknown): string | undefined {
  if (typeof code !== 'string' || code.trim() === '') return 'a number format must be a non-empty string';
  if (code.length > MAX_FORMAT_CODE) return `a number format is at most ${MAX_FORMAT_CODE} characters`;
  if (/[\u0000-\u001f\u007f]/.test(code)) return 'a number format may not contain control characters';
  if (code !== GENERAL && sectionsOf(code) === null) return `the number format ${JSON.stringify(code)} cannot be read`;
  return undefined;
}

/** About eleven significant digits, as General shows numbers; integers as they are. */
export function generalNumber(value: number): string {
  const abs = Math.abs(value);
  if (Number.isInteger(value) && abs < 1e11) return String(value);
  if (abs >= 1e11 || abs < 1e-9) {
    const [mantissa = '0', exponent = '+0'] = value.toExponential(5).split('e');
    const sign = exponent.startsWith('-') ? '-' : '+';
    return `${mantissa.replace(/\.?0+$/, '')}E${sign}${exponent.replace(/^[+-]/, '').padStart(2, '0')}`;
  }
  return String(Number(value.toPrecision(10)));
}

function sectionsOf(code: string): Section[] | null {
  const cached = parsed.get(code);
  if (cached !== undefined) return cached;
  let result: Section[] | null;
  try {
    result = code === GENERAL ? null : splitSections(code).map(parseSection);
  } catch {
    result = null;
  }
  if (parsed.size > 1000) parsed.clear();
  parsed.set(code, result);
  return result;
}

function splitSections(code: string): string[] {
  const sections: string[] = [];
  let current = '';
  for (let i = 0; i < code.length; i++) {
    const char = code[i]!;
    if (char === '"') {
      const end = code.indexOf('"', i + 1);
      if (end < 0) throw new Error('unclosed quote');
      current += code.slice(i, end + 1);
      i = end;
    } else if (char === '\\') {
      current += code.slice(i, i + 2);
      i++;
    } else if (char === ';') {
      sections.push(current);
      current = '';
    } else current += char;
  }
  sections.push(current);
  if (sections.length > 4) throw new Error('more than four sections');
  return sections;
}

const DATE_CHARS = /[yYmMdDhHsS]/;

function parseSection(source: string): Section {
  const tokens: Token[] = [];
  let pattern = '';
  let isDate = false;
  let percent = false;
  const flushPattern = () => {
    if (pattern) tokens.push({ kind: 'number', pattern });
    pattern = '';
  };
  const literal = (text: string) => {
    flushPattern();
    const last = tokens[tokens.length - 1];
    if (last?.kind === 'literal') last.text += text;
    else tokens.push({ kind: 'literal', text });
  };
  for (let i = 0; i < source.length; i++) {
    const char = source[i]!;
    const rest = source.slice(i);
    if (char === '"') {
      const end = source.indexOf('"', i + 1);
      literal(source.slice(i + 1, end));
      i = end;
    } else if (char === '\\') {
      literal(source[i + 1] ?? '');
      i++;
    } else if (char === '_') {
      literal(' ');
      i++;
    } else if (char === '*') {
      i++;
    } else if (char === '[') {
      const end = source.indexOf(']', i);
      if (end < 0) throw new Error('unclosed bracket');
      const inside = source.slice(i + 1, end);
      const elapsed = /^(h+|m+|s+)$/i.exec(inside);
      if (elapsed) {
        flushPattern();
        isDate = true;
        tokens.push({ kind: 'elapsed', unit: inside[0]!.toLowerCase() as 'h' | 'm' | 's', width: inside.length });
      } else if (inside.startsWith('$')) {
        literal(inside.slice(1).split('-')[0] ?? '');
      }
      i = end;
    } else if (/^(AM\/PM|A\/P)/i.test(rest)) {
      flushPattern();
      const code = /^(AM\/PM|A\/P)/i.exec(rest)![0];
      tokens.push({ kind: 'ampm', code });
      isDate = true;
      i += code.length - 1;
    } else if (DATE_CHARS.test(char)) {
      flushPattern();
      let run = char;
      while (source[i + 1]?.toLowerCase() === char.toLowerCase()) run += source[++i];
      tokens.push({ kind: 'date', code: run.toLowerCase() });
      isDate = true;
    } else if (char === '@') {
      flushPattern();
      tokens.push({ kind: 'text' });
    } else if (char === '%') {
      percent = true;
      literal('%');
    } else if (/^[eE][+-][0#?]/.test(rest) && pattern !== '') {
      const exponent = /^[eE][+-][0#?]+/.exec(rest)![0];
      pattern += exponent;
      i += exponent.length - 1;
    } else if (char === '.' && isDate) {
      // fractions of a second: shown as whole seconds
      while (source[i + 1] === '0') i++;
    } else if ('0#?.,'.includes(char)) {
      pattern += char;
    } else {
      literal(char);
    }
  }
  flushPattern();
  const numberAt = tokens.findIndex((token) => token.kind === 'number');
  if (!isDate && numberAt >= 0 && tokens.slice(numberAt).some((token) => token.kind === 'literal' && token.text.includes('/'))) {
    throw new Error('fractions are not supported');
  }
  if (isDate) {
    resolveMinutes(tokens);
    // placeholders beside a date are literal digits the user typed, e.g. "0" in "yyyy0": keep them as text
    for (let index = 0; index < tokens.length; index++) {
      const token = tokens[index]!;
      if (token.kind === 'number') tokens[index] = { kind: 'literal', text: token.pattern };
    }
  }
  return { tokens, isDate, percent };
}

/** `m` after an hour or before a second means minutes, elsewhere months. */
function resolveMinutes(tokens: Token[]): void {
  const timeParts = tokens.map((token, index) => ({ token, index })).filter(({ token }) => token.kind === 'date' || token.kind === 'elapsed');
  timeParts.forEach(({ token }, position) => {
    if (token.kind !== 'date' || !token.code.startsWith('m') || token.code.length > 2) return;
    const before = timeParts[position - 1]?.token;
    const after = timeParts[position + 1]?.token;
    const afterHour = before && ((before.kind === 'date' && before.code.startsWith('h')) || (before.kind === 'elapsed' && before.unit === 'h'));
    const beforeSecond = after && ((after.kind === 'date' && after.code.startsWith('s')) || (after.kind === 'elapsed' && after.unit === 's'));
    if (afterHour || beforeSecond) token.code = token.code === 'm' ? 'n' : 'nn';
  });
}

function formatDate(serial: number, tokens: Token[]): string {
  const whole = Math.floor(serial);
  let milliseconds = Math.round((serial - whole) * MS_PER_DAY / 1000) * 1000;
  let days = whole;
  if (milliseconds >= MS_PER_DAY) {
    days += 1;
    milliseconds -= MS_PER_DAY;
  }
  // Excel's 1900 calendar has a 29 February 1900 (serial 60): serials before it are a day later than days since 1899-12-30 say
  const date = new Date((days - EPOCH_OFFSET_DAYS + (days >= 1 && days <= 60 ? 1 : 0)) * MS_PER_DAY + milliseconds);
  if (Number.isNaN(date.getTime())) return generalNumber(serial);
  const hours = date.getUTCHours();
  const twelveHour = tokens.some((token) => token.kind === 'ampm');
  const pad = (n: number, width: number) => String(n).padStart(width, '0');
  const totalSeconds = Math.round(serial * 86_400);
  return tokens
    .map((token) => {
      switch (token.kind) {
        case 'literal':
          return token.text;
        case 'ampm':
          return token.code.length > 3 ? (hours < 12 ? 'AM' : 'PM') : hours < 12 ? 'A' : 'P';
        case 'elapsed': {
          const amount = token.unit === 'h' ? Math.floor(totalSeconds / 3600) : token.unit === 'm' ? Math.floor(totalSeconds / 60) : totalSeconds;
          return pad(amount, token.width);
        }
        case 'date':
          switch (token.code[0]) {
            case 'y':
              return token.code.length <= 2 ? pad(date.getUTCFullYear() % 100, 2) : pad(date.getUTCFullYear(), 4);
            case 'm':
              return token.code.length >= 4 ? MONTHS[date.getUTCMonth()]! : token.code.length === 3 ? MONTHS[date.getUTCMonth()]!.slice(0, 3) : pad(date.getUTCMonth() + 1, token.code.length);
            case 'd':
              return token.code.length >= 4 ? WEEKDAYS[date.getUTCDay()]! : token.code.length === 3 ? WEEKDAYS[date.getUTCDay()]!.slice(0, 3) : pad(date.getUTCDate(), token.code.length);
            case 'h': {
              const shown = twelveHour ? hours % 12 || 12 : hours;
              return pad(shown, Math.min(2, token.code.length));
            }
            case 'n':
              return pad(date.getUTCMinutes(), Math.min(2, token.code.length));
            case 's':
              return pad(date.getUTCSeconds(), Math.min(2, token.code.length));
            default:
              return token.code;
          }
        default:
          return '';
      }
    })
    .join('');
}

function formatPlain(value: number, section: Section): string {
  const scaled = section.percent ? value * 100 : value;
  const pattern = section.tokens.flatMap((token) => (token.kind === 'number' ? [token.pattern] : [])).join('');
  const literals = (digits: string) => {
    let placed = false;
    return section.tokens
      .map((token) => {
        if (token.kind === 'literal') return token.text;
        if (token.kind !== 'number' || placed) return '';
        placed = true;
        return digits;
      })
      .join('');
  };
  // a section of literals only (e.g. "-" for zero) shows them, and a sign for a negative number
  if (pattern === '') return `${scaled < 0 ? '-' : ''}${literals('')}`;
  const digits = formatDigits(Math.abs(scaled), pattern);
  const showsZero = /^[0.,E+-]*$/.test(digits) && !/[1-9]/.test(digits);
  return `${scaled < 0 && !showsZero ? '-' : ''}${literals(digits)}`;
}

/** A number that is not negative under a digit pattern (`#,##0.00`, `0.###`, `0.00E+00`, trailing `,` per 1000). */
function formatDigits(value: number, pattern: string): string {
  const exponentAt = pattern.search(/[eE][+-]/);
  if (exponentAt >= 0) return formatScientific(value, pattern.slice(0, exponentAt), pattern.slice(exponentAt));
  let core = pattern;
  let divisor = 1;
  while (core.endsWith(',')) {
    divisor *= 1000;
    core = core.slice(0, -1);
  }
  const pointAt = core.indexOf('.');
  const integerPart = pointAt < 0 ? core : core.slice(0, pointAt);
  const fractionPart = pointAt < 0 ? '' : core.slice(pointAt + 1).replace(/[.,]/g, '');
  const minimumInteger = (integerPart.match(/0/g) ?? []).length;
  const fixedFraction = (fractionPart.match(/0/g) ?? []).length;
  const [rounded = '0', roundedFraction = ''] = (value / divisor).toFixed(Math.min(fractionPart.length, 20)).split('.');
  let fraction = roundedFraction;
  while (fraction.length > fixedFraction && fraction.endsWith('0')) fraction = fraction.slice(0, -1);
  let whole = rounded === '0' && minimumInteger === 0 ? '' : rounded.padStart(minimumInteger, '0');
  if (integerPart.includes(',')) whole = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return pointAt < 0 ? whole : `${whole}.${fraction}`;
}

function formatScientific(value: number, mantissaPattern: string, exponentPattern: string): string {
  const fractionDigits = (mantissaPattern.split('.')[1] ?? '').length;
  const [mantissa = '0', exponent = '0'] = value.toExponential(Math.min(fractionDigits, 20)).split('e');
  const exponentValue = Number(exponent);
  const sign = exponentValue < 0 ? '-' : exponentPattern[1] === '+' ? '+' : '';
  return `${mantissa}E${sign}${String(Math.abs(exponentValue)).padStart(exponentPattern.length - 2, '0')}`;
}
