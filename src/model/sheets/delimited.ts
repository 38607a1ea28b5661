import Papa from 'papaparse';

/**
 * CSV and TSV, read and written by papaparse under one quoting rule for everything the service and the editors
 * write (the CSV export, the SDK's exportCsv, the spreadsheet's clipboard): a field is wrapped in double quotes,
 * its quotes doubled, when it holds the delimiter, a double quote or a line break, or begins or ends with white
 * space (which a reader would otherwise trim). Reading accepts CRLF, LF and CR line ends (a line break inside a
 * quoted field reads as LF) and drops one final line break.
 */
export type Delimiter = ',' | '\t';

const EDGE_WHITESPACE = /^\s|\s$/;

export function formatDelimited(rows: readonly (readonly string[])[], delimiter: Delimiter, newline: '\r\n' | '\n'): string {
  if (rows.length === 0) return '';
  return Papa.unparse(
    rows.map((row) => [...row]),
    { delimiter, newline, header: false, escapeFormulae: false, quotes: (value: unknown) => typeof value === 'string' && EDGE_WHITESPACE.test(value) },
  );
}

export function parseDelimited(text: string, delimiter: Delimiter): string[][] {
  const normalized = text.replace(/\r\n?/g, '\n');
  if (normalized === '') return [];
  const body = normalized.endsWith('\n') ? normalized.slice(0, -1) : normalized;
  if (body === '') return [['']];
  return Papa.parse<string[]>(body, { delimiter, newline: '\n', header: false, dynamicTyping: false, skipEmptyLines: false }).data;
}
