import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { docFromState, initialContent, SHEET_BLOCKS, SHEET_MODEL_VERSION, sheetsOf, type Cell } from '../../src/model/content.js';
import type { CellStyle } from '../../src/model/sheets/cell-style.js';
import { appendSheet, moveSheet, sheetModels, spreadsheetModelVersion, upgradeSpreadsheet } from '../../src/model/sheets/sheet-model.js';

/**
 * Styles kept once per block (grid model version 4, docs/CONTENT-MODEL.md "Grid model versions"): a block holding
 * styled cells stores each distinct style once and its cells name theirs by index; blocks written by version 3 (every
 * style written out in each cell) read as they did.
 */

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/sheets');

function cellsOf(doc: Y.Doc): Array<[number, number, Cell]> {
  const cells: Array<[number, number, Cell]> = [];
  sheetModels(doc)[0]!.forEachCell((row, column, cell) => cells.push([row, column, cell]));
  return cells.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
}

function blockTexts(doc: Y.Doc, sheet = 0): string[] {
  const blocks = sheetsOf(doc).get(sheet).get(SHEET_BLOCKS) as Y.Map<string>;
  return [...blocks.values()];
}

/** `cells` (row, column, cell) written one by one into a new sheet, which a sheet move then writes as blocks. */
function writtenAsBlocks(cells: ReadonlyArray<readonly [number, number, Cell]>): Y.Doc {
  const doc = docFromState(initialContent('spreadsheet'));
  doc.transact(() => {
    const seeded = appendSheet(doc, 'Seeded');
    for (const [row, column, cell] of cells) seeded.setCell(row, column, cell);
    moveSheet(doc, seeded, 0);
  });
  return docFromState(Y.encodeStateAsUpdate(doc));
}

const BANDS: CellStyle[] = [
  { bg: '#dce6f1', bb: { s: 'thin', c: '#4f81bd' } },
  { bg: '#95b3d7', bb: { s: 'thin', c: '#4f81bd' } },
];

describe('styles kept once per block', () => {
  it('a block stores each distinct style once, and its cells read back with their styles, sharing one object per style', () => {
    const cells: Array<[number, number, Cell]> = [];
    for (let row = 0; row < 2000; row++) cells.push([row, 0, { v: row, s: { ...BANDS[row % 2]! } }], [row, 1, { f: `=A${row + 1}*2`, z: '0.00', s: { ...BANDS[row % 2]! } }]);
    const doc = writtenAsBlocks(cells);
    expect(cellsOf(doc)).toEqual(cells);
    const texts = blockTexts(doc);
    // two columns × two bands of 1024 rows
    expect(texts).toHaveLength(4);
    for (const text of texts) {
      expect((JSON.parse(text) as { styles: unknown[] }).styles).toEqual(BANDS);
      expect(text.split('"bg"')).toHaveLength(3);
    }
    const sheet = sheetModels(doc)[0]!;
    expect(sheet.cell(0, 0)!.s).toBe(sheet.cell(2, 0)!.s);
    expect(sheet.cell(0, 0)!.s).not.toBe(sheet.cell(1, 0)!.s);
  });

  it('a block without a styled cell stays a plain array of its cells', () => {
    const doc = writtenAsBlocks([[0, 0, { v: 1 }], [3, 0, { v: 'x', z: '0%' }]]);
    expect(blockTexts(doc)).toEqual([JSON.stringify([{ v: 1 }, null, null, { v: 'x', z: '0%' }])]);
  });

  it('any cells written as blocks read back as written (styles equal by content share an entry)', () => {
    const style: fc.Arbitrary<CellStyle> = fc.record(
      { b: fc.constant(true as const), bg: fc.constantFrom('#dce6f1', '#ffffff'), a: fc.constantFrom('left' as const, 'right' as const), bt: fc.record({ s: fc.constantFrom('thin' as const, 'double' as const) }) },
      { requiredKeys: [], noNullPrototype: true },
    ).filter((each) => Object.keys(each).length > 0);
    const cell: fc.Arbitrary<Cell> = fc.record({ v: fc.oneof(fc.integer(), fc.string({ maxLength: 3 })), s: style }, { requiredKeys: ['v'], noNullPrototype: true });
    fc.assert(
      fc.property(fc.uniqueArray(fc.tuple(fc.nat(40), fc.nat(3), cell), { selector: ([row, column]) => `${row},${column}`, maxLength: 60 }), (placed) => {
        const doc = writtenAsBlocks(placed);
        expect(cellsOf(doc)).toEqual([...placed].sort((a, b) => a[0] - b[0] || a[1] - b[1]));
        for (const text of blockTexts(doc)) {
          const styles = (JSON.parse(text) as { styles?: unknown[] }).styles ?? [];
          expect(new Set(styles.map((each) => JSON.stringify(each))).size).toBe(styles.length);
        }
      }),
      { numRuns: 100 },
    );
  });

  it('a style index naming no style of the block reads as no style; a block of neither form reads as empty', () => {
    const doc = writtenAsBlocks([[0, 0, { v: 1, s: { b: true } }], [1, 0, { v: 2, s: { i: true } }], [2, 0, { v: 3 }], [3, 0, { v: 4, s: { b: true } }]]);
    const blocks = sheetsOf(doc).get(0).get(SHEET_BLOCKS) as Y.Map<string>;
    const [key] = [...blocks.keys()];
    doc.transact(() => blocks.set(key!, JSON.stringify({ styles: [{ b: true }, 'not a style'], cells: [{ v: 1, s: 0 }, { v: 2, s: 7 }, { v: 3, s: 1 }, { v: 4, s: 0.5 }] })));
    expect(cellsOf(doc)).toEqual([[0, 0, { v: 1, s: { b: true } }], [1, 0, { v: 2 }], [2, 0, { v: 3 }], [3, 0, { v: 4 }]]);
    doc.transact(() => blocks.set(key!, JSON.stringify({ cells: 'none' })));
    expect(cellsOf(doc)).toEqual([]);
  });

  it('a styled workbook imported by version 3 (each style written out in every cell) reads as version 3 read it, and converts by its version field alone', () => {
    // made by main at c32db73 (version 3): bench/import-export.ts writeWorkbook(40 rows, 4 columns, styled) through the
    // xlsx import, then one cell of a block edited with a style of its own; the expected cells are what that code read
    const state = new Uint8Array(fs.readFileSync(path.join(FIXTURES, 'v3-styled-import.yjs')));
    const expected = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'v3-styled-import-expected.json'), 'utf8')) as { model: number; rows: number; columns: number; cells: Array<[number, number, Cell]> };
    const doc = docFromState(state);
    expect(expected.model).toBe(3);
    expect(spreadsheetModelVersion(doc)).toBe(3);
    expect(cellsOf(doc)).toEqual(expected.cells);
    const blocksBefore = blockTexts(doc);
    expect(blocksBefore.every((text) => text.startsWith('['))).toBe(true);
    expect(upgradeSpreadsheet(doc)).toBe(true);
    expect(spreadsheetModelVersion(doc)).toBe(SHEET_MODEL_VERSION);
    expect(blockTexts(doc)).toEqual(blocksBefore);
    expect(cellsOf(doc)).toEqual(expected.cells);
    const sheet = sheetModels(doc)[0]!;
    expect([sheet.rowCount, sheet.columnCount]).toEqual([expected.rows, expected.columns]);
    // a sheet move writes its blocks again, in the palette form
    doc.transact(() => {
      appendSheet(doc, 'After');
      moveSheet(doc, sheet, 1);
    });
    const moved = sheetModels(doc)[1]!;
    expect(moved.name).toBe('Data');
    expect(blockTexts(doc, 1).length).toBeGreaterThan(0);
    expect(blockTexts(doc, 1).every((text) => text.startsWith('{"styles":'))).toBe(true);
    const cells: Array<[number, number, Cell]> = [];
    moved.forEachCell((row, column, cell) => cells.push([row, column, cell]));
    expect(cells.sort((a, b) => a[0] - b[0] || a[1] - b[1])).toEqual(expected.cells);
  });
});
