import Papa from 'papaparse';

/**
 * CSV and TSV under one quoting rule for everything the service and the editors write (the CSV export, the SDK's
 * exportCsv, the spreadsheet's clipboard): a field is wrapped in double quotes, its quotes doubled, when it holds
 * the delimiter, a double quote or a line break, or begins or ends with white space (which a reader would
 * otherwise trim). Reading is papaparse's: it accepts CRLF, LF and CR line ends (a line break inside a quoted field
 * reads as LF) and drops one final line break. Writing is these few lines: papaparse's unparse took three times as
 * long for a 100,000-row sheet (docs/PERFORMANCE.md "Libraries"), and the rule is the same.
 */
export type Delimiter = ',' | '\t';

const NEEDS_QUOTES: Record<Delimiter, RegExp> = { ',': /[",\r\n]|^\s|\s$/, '\t': /["\t\r\n]|^\s|\s$/ };

export function formatDelimited(rows: readonly (readonly string[])[], delimiter: Delimiter, newline: '\r\n' | '\n'): string {
  const needsQuotes = NEEDS_QUOTES[delimiter];
  const field = (text: string) => (needsQuotes.test(text) ? `"${text.replace(/"/g, '""')}"` : text);
  return rows.map((row) => row.map(field).join(delimiter)).join(newline);
}

export function parseDelimited(text: string, delimiter: Delimiter): string[][] {
  const normalized = text.replace(/\r\n?/g, '\n');
  if (normalized === '') return [];
  const body = normalized.endsWith('\n') ? normalized.slice(0, -1) : normalized;
  if (body === '') return [['']];
  return Papa.parse<string[]>(body, { delimiter, newline: '\n', header: false, dynamicTyping: false, skipEmptyLines: false }).data;
}
