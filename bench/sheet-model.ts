/**
 * The spreadsheet content model at scale (issue 21 point 1), in process: `npm run bench -- sheet-model [rows]
 * [columns]` (default 100,000 rows × 10 columns = 1,000,000 cells; text, numbers, booleans and a formula in every
 * fifth column, 20 % formulas, as bench/import-export.ts writes them).
 *
 *   1. import: the xlsx importer's encoder (src/domain/import/spreadsheet-encoder.ts) builds the stored state,
 *      row by row as the importer streams it: time, state size;
 *   2. open: Y.applyUpdate of that state into a fresh document: time, RSS and heap growth;
 *   3. first read: 100,000 cells (the first 10,000 rows × 10 columns) through SheetModel, then the whole sheet;
 *      then, on a document opened afresh, the first values read through the formula engine as the values API reads
 *      them (calculationOf(doc).forEachCell): the last 10,000 rows, then the first 10,000: time, CPU, RSS and heap
 *      growth over the open document (issue 21 point 2);
 *   4. top-row insert: one row inserted above row 1 through applyStructureEdit (formulas rewritten as the
 *      model does): the Yjs update it makes (bytes), the time to make it and the time for a second replica to
 *      apply it, whose first and last formulas are checked to read as shiftFormula moves their A1 text;
 *   5. raw Yjs baseline: the same values in the most compact form we know in Yjs (one Y.Array per column, each
 *      filled by one insert: one ContentAny per column), encoded and decoded the same way, for the ratios.
 * Run with `node --expose-gc` (NODE_OPTIONS) for steadier memory figures; the load average is printed beside them,
 * and the process's CPU time beside the wall time of the import and the first read (steadier on a shared machine).
 */
import os from 'node:os';
import * as Y from 'yjs';
import { columnLetters } from '../src/model/sheets/a1.js';
import type { ReadCell } from '../src/domain/import/conversion.js';
import { joinParts } from '../src/domain/import/conversion.js';
import { SpreadsheetEncoder } from '../src/domain/import/spreadsheet-encoder.js';
import { shiftFormula } from '../src/model/sheets/formulas/shift.js';
import { applyStructureEdit, sheetIds, sheetModels } from '../src/model/sheets/sheet-model.js';
import { calculationOf } from '../src/model/sheets/formulas/index.js';

function cellAt(row: number, column: number): ReadCell {
  switch (column % 5) {
    case 0:
      return { v: `Item ${row + 1}-${column}` };
    case 1:
      return { v: (row + 1) * 1.5 + column };
    case 2:
      return { v: row % 2 === 0 };
    case 3:
      // with its "=", as the xlsx reader hands formulas to the encoder
      return { f: `=${columnLetters(column - 2)}${row + 1}*2` };
    default:
      return { v: (row + 1) * column };
  }
}

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

function collect(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

/** The result, the wall time and the process's CPU time (ms): on a shared machine the CPU time is the steadier figure. */
function timed<T>(run: () => T): [T, number, number] {
  const start = performance.now();
  const cpu = process.cpuUsage();
  const result = run();
  const used = process.cpuUsage(cpu);
  return [result, performance.now() - start, (used.user + used.system) / 1000];
}

export default async function sheetModelBench(args: string[]): Promise<void> {
  const rows = Number(args[0] ?? 100_000);
  const columns = Number(args[1] ?? 10);
  console.log(`sheet model: ${rows} rows × ${columns} columns = ${rows * columns} cells; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);

  // 1. import
  const [state, importMs, importCpuMs] = timed(() => {
    const encoder = new SpreadsheetEncoder();
    encoder.beginSheet('Data', 0);
    for (let row = 0; row < rows; row++) encoder.row(row, Array.from({ length: columns }, (_, column) => cellAt(row, column)));
    return joinParts(encoder.finish());
  });
  console.log(`import (encoder): ${importMs.toFixed(0)} ms (CPU ${importCpuMs.toFixed(0)} ms), state ${mib(state.byteLength)}`);

  // 2. open
  collect();
  const rssBefore = process.memoryUsage().rss;
  const heapBefore = process.memoryUsage().heapUsed;
  const doc = new Y.Doc();
  const [, openMs] = timed(() => Y.applyUpdate(doc, state));
  collect();
  const opened = process.memoryUsage();
  console.log(`open (applyUpdate): ${openMs.toFixed(0)} ms, RSS +${mib(opened.rss - rssBefore)}, heap +${mib(opened.heapUsed - heapBefore)}`);

  // 3. first read
  const sheet = sheetModels(doc)[0]!;
  const readRows = Math.min(rows, 10_000);
  const [firstCount, firstMs, firstCpuMs] = timed(() => {
    let count = 0;
    sheet.forEachCell(() => count++, { startRow: 0, endRow: readRows - 1, startColumn: 0, endColumn: columns - 1 });
    return count;
  });
  const [allCount, allMs] = timed(() => {
    let count = 0;
    sheet.forEachCell(() => count++);
    return count;
  });
  const [, lookupMs] = timed(() => {
    for (let row = 0; row < readRows; row++) for (let column = 0; column < columns; column++) sheet.cell(row, column);
  });
  collect();
  console.log(
    `first read: ${firstCount} cells of rows 1-${readRows} ${firstMs.toFixed(0)} ms (CPU ${firstCpuMs.toFixed(0)} ms); the whole sheet (${allCount} cells) ${allMs.toFixed(0)} ms; ` +
      `${readRows * columns} cell() look-ups ${lookupMs.toFixed(0)} ms; RSS now +${mib(process.memoryUsage().rss - rssBefore)}`,
  );

  // 3b. first values read through the formula engine, on a document opened afresh (the server's first read after an import)
  collect();
  const valuesRssBefore = process.memoryUsage().rss;
  const valuesHeapBefore = process.memoryUsage().heapUsed;
  const valuesDoc = new Y.Doc();
  Y.applyUpdate(valuesDoc, state);
  const sheetId = sheetIds(valuesDoc)[0]!;
  const readValues = (startRow: number) => {
    let count = 0;
    calculationOf(valuesDoc).forEachCell(sheetId, { startRow, endRow: startRow + readRows - 1, startColumn: 0, endColumn: columns - 1 }, () => count++);
    return count;
  };
  const [lastValues, lastValuesMs, lastValuesCpuMs] = timed(() => readValues(rows - readRows));
  const [firstValues, firstValuesMs, firstValuesCpuMs] = timed(() => readValues(0));
  collect();
  const afterValues = process.memoryUsage();
  console.log(
    `values through the formula engine: the last ${lastValues} cells (rows ${rows - readRows + 1}-${rows}) ${lastValuesMs.toFixed(0)} ms (CPU ${lastValuesCpuMs.toFixed(0)} ms), ` +
      `then the first ${firstValues} ${firstValuesMs.toFixed(0)} ms (CPU ${firstValuesCpuMs.toFixed(0)} ms); open document + engine: RSS +${mib(afterValues.rss - valuesRssBefore)}, heap +${mib(afterValues.heapUsed - valuesHeapBefore)}`,
  );

  // 4. top-row insert
  const replica = new Y.Doc();
  Y.applyUpdate(replica, state);
  const updates: Uint8Array[] = [];
  doc.on('update', (update: Uint8Array) => updates.push(update));
  const [, insertMs] = timed(() => doc.transact(() => applyStructureEdit(doc, sheet, { kind: 'insert', axis: 'rows', index: 0, count: 1 })));
  const update = Y.mergeUpdates(updates);
  const [, applyMs] = timed(() => Y.applyUpdate(replica, update));
  const moved = sheetModels(replica)[0]!;
  if (JSON.stringify(moved.cell(1, 0)) !== JSON.stringify(cellAt(0, 0))) throw new Error('the replica did not see the row move');
  // the formulas read as before the model stored them relative to their cells: shifted as shiftFormula shifts A1 text
  for (const row of [0, rows - 1]) {
    const want = shiftFormula(cellAt(row, 3).f!, 'Data', { kind: 'insert', axis: 'rows', sheet: 'Data', index: 0, count: 1 });
    if (moved.cell(row + 1, 3)?.f !== want) throw new Error(`the replica reads ${moved.cell(row + 1, 3)?.f} in row ${row + 2}, not ${want}`);
  }
  console.log(`top-row insert: update ${update.byteLength} bytes (${mib(update.byteLength)}), made in ${insertMs.toFixed(0)} ms, applied by a replica in ${applyMs.toFixed(0)} ms`);
  replica.destroy();
  doc.destroy();

  // 5. raw baseline
  collect();
  const [raw, rawEncodeMs] = timed(() => {
    const base = new Y.Doc();
    base.transact(() => {
      for (let column = 0; column < columns; column++) {
        const values = Array.from({ length: rows }, (_, row) => {
          const cell = cellAt(row, column);
          return cell.f !== undefined ? cell.f : (cell.v as string | number | boolean);
        });
        base.getArray(`c${column}`).insert(0, values);
      }
    });
    const encoded = Y.encodeStateAsUpdate(base);
    base.destroy();
    return encoded;
  });
  collect();
  const rawHeap = process.memoryUsage().heapUsed;
  const rawDoc = new Y.Doc();
  const [, rawOpenMs] = timed(() => Y.applyUpdate(rawDoc, raw));
  collect();
  console.log(`raw Yjs baseline (one Y.Array per column): build+encode ${rawEncodeMs.toFixed(0)} ms, state ${mib(raw.byteLength)}, open ${rawOpenMs.toFixed(0)} ms, heap +${mib(process.memoryUsage().heapUsed - rawHeap)}`);
  console.log(`ratios model / raw: state ${(state.byteLength / raw.byteLength).toFixed(2)}, open ${(openMs / rawOpenMs).toFixed(2)}`);
  rawDoc.destroy();
}
