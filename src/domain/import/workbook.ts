import type { ReadCell, ReadContent, ReadSheet, WorkbookSink } from './conversion.js';

/** Unique, non-empty sheet names (the model requires both); later duplicates get " (2)", " (3)". */
export function uniqueNames(names: readonly string[], fallback: (index: number) => string): string[] {
  const seen = new Set<string>();
  return names.map((raw, index) => {
    const base = raw.trim().slice(0, 28) || fallback(index);
    let name = base;
    for (let n = 2; seen.has(name.toLowerCase()); n++) name = `${base} (${n})`;
    seen.add(name.toLowerCase());
    return name;
  });
}

/** The indexes of sheets given in arrival order with their positions, in the order they are shown (a stable sort). */
export function sheetOrder(positions: readonly number[]): number[] {
  return positions.map((_, index) => index).sort((a, b) => positions[a]! - positions[b]! || a - b);
}

/** A workbook sink that keeps every row: for targets that need the whole sheet at once (a table infers its columns' types). */
export class WorkbookCollector implements WorkbookSink {
  private readonly sheets: Array<ReadSheet & { position: number }> = [];

  beginSheet(name: string, position: number): void {
    this.sheets.push({ name, rows: [], position });
  }

  /** a table keeps values: a cell with only a look (a filled empty cell) is no cell of it */
  row(index: number, cells: ReadonlyArray<ReadCell | undefined>): void {
    const sheet = this.sheets.at(-1);
    if (!sheet) throw new Error('a row came before its sheet');
    const valued = cells.map((cell) => (cell && (cell.f !== undefined || (cell.v !== undefined && cell.v !== null)) ? cell : undefined));
    while (valued.length > 0 && valued.at(-1) === undefined) valued.pop();
    sheet.rows[index] = valued;
  }

  /** a table has no merged cells: its rows keep every cell's own value */
  merges(): void {}

  /** nor a filter: a table's rows all show */
  filter(): void {}

  /** nor data validation: a table's fields check their own values */
  validations(): void {}
  /** nor conditional formats: a table has no cell looks */
  conditionalFormats(): void {}
  /** nor locks: a table's permissions are the integrator's */
  protectedSheet(): void {}
  /** nor charts */
  charts(): void {}
  /** nor row heights: a table's rows are the table editor's */
  rowHeights(): void {}
  /** nor column widths, hidden or styled columns: a table's columns are the table editor's */
  columns(): void {}
  /** nor row styles: a table has no cell looks */
  rowStyles(): void {}
  /** nor protected ranges: a table has no locks */
  protectedRanges(): void {}
  /** nor hidden rows: a table's records all show */
  hiddenRows(): void {}
  /** nor a frozen pane: the table editor keeps its own header in view */
  frozenPane(): void {}

  content(): ReadContent & { shape: 'workbook' } {
    const order = sheetOrder(this.sheets.map((sheet) => sheet.position));
    return {
      shape: 'workbook',
      sheets: order.map((index) => {
        const { name, rows } = this.sheets[index]!;
        for (let row = 0; row < rows.length; row++) rows[row] ??= [];
        return { name, rows };
      }),
    };
  }
}
