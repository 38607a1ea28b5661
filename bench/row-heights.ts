/**
 * Row heights at scale (issue 24 point 4), in process: `npm run bench -- row-heights [rows] [heights]` (default
 * 100,000 rows, 300 rows of their own height spread over the sheet; then the same on 1,048,576 rows).
 *
 *   1. read: SheetModel.rowHeights(), what the grid reads at each layout (one lookup per stored height);
 *   2. index: RowHeightIndex built from them (web/shared/grid/row-heights.ts), as the grid does at each layout;
 *   3. jump: 100,000 random jumps, each the row under a y and that row's top (what a scroll frame and a jump to a
 *      cell cost the grid's layout), per jump;
 *   4. scroll: the visible window found for 100 scroll steps from the top to the bottom.
 * The DOM stays what a screenful needs whatever the heights (the grid draws only the rows in view).
 */
import os from 'node:os';
import { docFromState, initialContent } from '../src/model/content.js';
import { applyStructureEdit, sheetModels } from '../src/model/sheets/sheet-model.js';
import { RowHeightIndex } from '../web/shared/grid/row-heights.js';

const DEFAULT = 24;

function time<T>(run: () => T): { value: T; ms: number } {
  const start = performance.now();
  const value = run();
  return { value, ms: performance.now() - start };
}

function measure(rows: number, heights: number): void {
  const doc = docFromState(initialContent('spreadsheet'));
  const sheet = sheetModels(doc)[0]!;
  doc.transact(() => applyStructureEdit(doc, sheet, { kind: 'insert', axis: 'rows', index: sheet.rowCount, count: rows - sheet.rowCount }));
  // a few rows inserted in the middle too, so that the row sequence is several runs as an edited sheet's is
  doc.transact(() => applyStructureEdit(doc, sheet, { kind: 'insert', axis: 'rows', index: Math.floor(rows / 3), count: 5 }));
  const step = Math.floor(sheet.rowCount / heights);
  doc.transact(() => {
    for (let i = 0; i < heights; i++) sheet.setRowHeight(i * step + 7, 30 + (i % 5) * 20);
  });
  const read = time(() => sheet.rowHeights());
  const index = time(() => new RowHeightIndex(DEFAULT, sheet.rowCount, read.value));
  const grid = index.value;
  const total = grid.total;
  // kept so that the work is used, and printed as a check the runs can be compared by
  let sink = 0;
  const jumps = 100_000;
  const jump = time(() => {
    for (let i = 0; i < jumps; i++) {
      const row = grid.rowAt(Math.random() * total);
      sink += grid.top(row);
    }
  });
  const scroll = time(() => {
    for (let i = 0; i <= 100; i++) {
      const y = (total * i) / 100;
      sink += grid.rowAt(y) + grid.rowAt(y + 900);
    }
  });
  console.log(
    `${sheet.rowCount.toLocaleString('en')} rows, ${read.value.size} heights: read ${read.ms.toFixed(2)} ms, index ${index.ms.toFixed(2)} ms, ` +
      `jump ${((jump.ms * 1000) / jumps).toFixed(2)} µs, 100 scroll steps ${scroll.ms.toFixed(2)} ms (total height ${total.toLocaleString('en')} px, check ${sink % 1000})`,
  );
}

export default async function rowHeights(args: string[]): Promise<void> {
  const rows = Number(args[0] ?? 100_000);
  const heights = Number(args[1] ?? 300);
  console.log(`load average ${os.loadavg().map((load) => load.toFixed(1)).join(' ')}`);
  // a first round warms the code up; the second is the figure
  for (const round of [1, 2]) {
    if (round === 2) console.log('measured:');
    measure(rows, heights);
    measure(1_048_576, heights);
  }
}
