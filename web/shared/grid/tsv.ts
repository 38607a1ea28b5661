/**
 * Tab-separated values as desktop spreadsheet programs put them on the clipboard: rows separated by line
 * breaks, cells by tabs; a cell holding a tab, a line break or a double quote is wrapped in double quotes
 * with its quotes doubled. Parsing accepts CRLF, LF and CR line ends and drops one final line break.
 */

function quoteCell(text: string): string {
  return /[\t\r\n"]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function formatTsv(rows: readonly (readonly string[])[]): string {
  return rows.map((row) => row.map(quoteCell).join('\t')).join('\n');
}

export function parseTsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let i = 0;
  let atCellStart = true;
  while (i < text.length) {
    const char = text[i]!;
    if (atCellStart && char === '"') {
      // a quoted cell runs to the quote that is not doubled; what follows it up to the separator is kept as typed
      const close = closingQuote(text, i + 1);
      if (close !== -1) {
        cell += text.slice(i + 1, close).replace(/""/g, '"');
        i = close + 1;
        atCellStart = false;
        continue;
      }
    }
    atCellStart = false;
    if (char === '\t') {
      row.push(cell);
      cell = '';
      atCellStart = true;
      i++;
    } else if (char === '\r' || char === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      atCellStart = true;
      i += char === '\r' && text[i + 1] === '\n' ? 2 : 1;
    } else {
      cell += char;
      i++;
    }
  }
  if (!atCellStart || cell !== '' || row.length > 0) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

/** Index of the quote closing a quoted cell that starts at `from`, or -1 when the quote is not closed. */
function closingQuote(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    if (text[i] !== '"') continue;
    if (text[i + 1] === '"') {
      i++;
      continue;
    }
    return i;
  }
  return -1;
}
