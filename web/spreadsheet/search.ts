import { formatA1 } from '../../src/model/sheets/a1.js';
import { toolButton } from '../shared/tool-button.js';
import type { SpreadsheetEditor } from './editor.js';
import { t } from './messages.js';

/** A cell whose shown text holds what was searched. */
export interface CellMatch {
  sheetId: string;
  row: number;
  column: number;
}

export interface SearchOptions {
  /** upper and lower case must match (default: they need not) */
  matchCase?: boolean;
  /** the whole shown text must equal the query (default: containing it is enough) */
  wholeCell?: boolean;
}

/** Most matches one search answers (the find bar counts and steps through these). */
export const MAX_MATCHES = 10_000;

/**
 * Every cell of the workbook whose shown text (computed, under its number format: what the user sees) holds
 * `query`, sheet by sheet in tab order, each row by row. Formula text is not searched: a cell shows its value.
 */
export function findCells(editor: SpreadsheetEditor, query: string, options: SearchOptions = {}): CellMatch[] {
  if (query === '') return [];
  editor.values.compute();
  const wanted = options.matchCase ? query : query.toLocaleLowerCase();
  const matches: CellMatch[] = [];
  for (const sheet of editor.workbook.list()) {
    const sheetId = editor.workbook.idOf(sheet);
    const found: CellMatch[] = [];
    sheet.forEachCell((row, column) => {
      const shown = editor.values.shown(sheet, row, column).text;
      const text = options.matchCase ? shown : shown.toLocaleLowerCase();
      if (options.wholeCell ? text === wanted : text.includes(wanted)) found.push({ sheetId, row, column });
    });
    found.sort((a, b) => a.row - b.row || a.column - b.column);
    matches.push(...found);
    if (matches.length >= MAX_MATCHES) return matches.slice(0, MAX_MATCHES);
  }
  return matches;
}

/** The A1 address of a match, with its sheet's name (as `locateCell` takes it). */
export function matchAddress(editor: SpreadsheetEditor, match: CellMatch): string {
  const sheet = editor.workbook.byId(match.sheetId);
  return formatA1({ sheetName: sheet ? editor.workbook.nameOf(sheet) : null, startRow: match.row, endRow: match.row, startColumn: match.column, endColumn: match.column });
}

/**
 * The find bar (Ctrl+F / Cmd+F): a search box over the formula bar; Enter goes to the next match, Shift+Enter to
 * the previous one, Escape closes it and gives the focus back to the grid. Matches are found anew when the text
 * changes, so edits made meanwhile (by anyone) count from the next search.
 */
export class FindBar {
  readonly element: HTMLElement;
  private readonly input: HTMLInputElement;
  private readonly counter: HTMLElement;
  private matches: CellMatch[] = [];
  private index = -1;
  private searched: string | undefined;

  constructor(private readonly editor: SpreadsheetEditor) {
    this.element = document.createElement('div');
    this.element.className = 'svc-sheet-find';
    this.element.setAttribute('role', 'search');
    this.element.hidden = true;
    this.input = document.createElement('input');
    this.input.type = 'search';
    this.input.placeholder = t('find.placeholder');
    this.input.setAttribute('aria-label', t('find.label'));
    this.counter = document.createElement('span');
    this.counter.className = 'svc-sheet-find-count';
    this.counter.setAttribute('aria-live', 'polite');
    this.element.append(
      this.input,
      this.counter,
      toolButton(t('find.previous'), '↑', () => this.step(-1)),
      toolButton(t('find.next'), '↓', () => this.step(1)),
      toolButton(t('find.close'), '✕', () => this.close()),
    );
    this.input.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') this.step(event.shiftKey ? -1 : 1);
      else if (event.key === 'Escape') this.close();
      else return;
      event.preventDefault();
    });
    this.input.addEventListener('input', () => {
      this.searched = undefined;
      this.counter.textContent = '';
    });
  }

  open(): void {
    this.element.hidden = false;
    this.input.focus();
    this.input.select();
  }

  close(): void {
    this.element.hidden = true;
    this.editor.grid.focus();
  }

  /** Goes to the next (1) or previous (-1) match, searching first when the text changed. */
  private step(direction: 1 | -1): void {
    const query = this.input.value;
    if (this.searched !== query) {
      this.matches = findCells(this.editor, query);
      this.searched = query;
      this.index = direction === 1 ? -1 : 0;
    }
    if (this.matches.length === 0) {
      this.counter.textContent = query === '' ? '' : t('find.none');
      return;
    }
    this.index = (this.index + direction + this.matches.length) % this.matches.length;
    const match = this.matches[this.index]!;
    this.editor.locate(matchAddress(this.editor, match));
    this.counter.textContent = t('find.count', { index: String(this.index + 1), total: String(this.matches.length) });
    // keep typing and pressing Enter in the box
    this.input.focus();
  }
}
