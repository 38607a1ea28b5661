/**
 * Conditional formats on a large sheet (docs/SHEETS.md "Conditional formatting"), in process: `npm run bench --
 * conditional-formats [rows] [edits]` (default 100,000 numbers in one column, 20 edits). Three rules over the column
 * (greater than, top 10 %, a 3-colour scale), as the editor draws them after each edit of one cell:
 *
 *   1. whole: the looks computed from the rules' whole areas (conditionalLooks, what the editor did after every edit
 *      before ConditionalLookReader);
 *   2. incremental: ConditionalLookReader told the one cell the edit changed, then asked for the looks of a screen of
 *      cells (50 rows), as the editor's redraw asks.
 * The load average is printed beside the figures (the machine is shared).
 */
import os from 'node:os';
import * as Y from 'yjs';
import { joinParts } from '../src/domain/import/conversion.js';
import { SpreadsheetEncoder } from '../src/domain/import/spreadsheet-encoder.js';
import { ConditionalLookReader, conditionalLooks, shownCellsOf, type ConditionalRule } from '../src/model/sheets/conditional-formats.js';
import { shownOf } from '../src/model/sheets/layout.js';
import { sheetModels } from '../src/model/sheets/sheet-model.js';

function median(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export default async function conditionalFormatsBench(args: string[]): Promise<void> {
  const rows = Number(args[0] ?? 100_000);
  const edits = Number(args[1] ?? 20);
  // the sheet built as the xlsx import builds it (one transaction of 100,000 setCell calls takes far longer)
  const encoder = new SpreadsheetEncoder();
  encoder.beginSheet('Data', 0);
  for (let row = 0; row < rows; row++) encoder.row(row, [{ v: (row * 7919) % 1000 }]);
  const doc = new Y.Doc();
  Y.applyUpdate(doc, joinParts(encoder.finish()));
  const sheet = sheetModels(doc)[0]!;
  const column = [{ startRow: 0, endRow: rows - 1, startColumn: 0, endColumn: 0 }];
  const rules: ConditionalRule[] = [
    { id: 'gt', priority: 0, ranges: column, type: 'cellValue', op: 'gt', value: 900, format: { fill: '#ffc7ce', color: '#9c0006' } },
    { id: 'top', priority: 1, ranges: column, type: 'topBottom', bottom: false, percent: true, rank: 10, format: { bold: true } },
    {
      id: 'scale',
      priority: 2,
      ranges: column,
      type: 'colorScale',
      points: [
        { kind: 'min', color: '#f8696b' },
        { kind: 'percentile', value: 50, color: '#ffeb84' },
        { kind: 'max', color: '#63be7b' },
      ],
    },
  ];
  const reader = shownCellsOf(sheet, (row, column) => {
    const cell = sheet.cell(row, column);
    return shownOf(cell?.v ?? undefined, cell?.z);
  });
  console.log(`conditional formats: 3 rules over ${rows} numbers, ${edits} edits; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);

  const edit = (index: number) => {
    const row = (index * 104_729) % rows;
    sheet.setCell(row, 0, { v: (index * 37) % 1200 });
    return row;
  };

  const whole: number[] = [];
  for (let index = 0; index < edits; index++) {
    edit(index);
    const start = performance.now();
    conditionalLooks(rules, reader);
    whole.push(performance.now() - start);
  }
  console.log(`whole areas per edit: median ${median(whole).toFixed(0)} ms (min ${Math.min(...whole).toFixed(0)}, max ${Math.max(...whole).toFixed(0)})`);

  let start = performance.now();
  const looks = new ConditionalLookReader(rules, reader);
  console.log(`incremental, first reading: ${(performance.now() - start).toFixed(0)} ms`);
  const incremental: number[] = [];
  for (let index = edits; index < 2 * edits; index++) {
    const row = edit(index);
    start = performance.now();
    looks.cellsChanged([{ row, column: 0 }]);
    const top = Math.max(0, row - 25);
    for (let shown = top; shown < Math.min(rows, top + 50); shown++) looks.lookAt(shown, 0);
    incremental.push(performance.now() - start);
  }
  console.log(`incremental per edit (one cell read, 50 rows of looks): median ${median(incremental).toFixed(2)} ms (min ${Math.min(...incremental).toFixed(2)}, max ${Math.max(...incremental).toFixed(2)})`);
}
