import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { DEFAULT_COLUMN_COUNT, DEFAULT_ROW_COUNT, sheetsOf } from '../../src/model/content.js';
import { formulaInA1, formulaRelative } from '../../src/model/sheets/formulas/relative.js';
import { SheetModel } from '../../src/model/sheets/sheet-model.js';
import { addressOf, putCells, storedCells } from '../sheets/stored-cells.js';
import { joinParts, type ReadCell } from '../../src/domain/import/conversion.js';
import { SpreadsheetEncoder } from '../../src/domain/import/spreadsheet-encoder.js';

/** A sheet as a streaming reader hands it on: a name, a position, rows in increasing order (sparse). */
interface StreamedSheet {
  name: string;
  position: number;
  rows: Array<{ index: number; cells: Array<ReadCell | undefined> }>;
}

const cell: fc.Arbitrary<ReadCell | undefined> = fc.oneof(
  fc.constant(undefined),
  fc.record({ v: fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.string(), fc.boolean()) }),
  fc.record({ f: fc.string().map((body) => `=${body}`) }),
);

const sheet: fc.Arbitrary<StreamedSheet> = fc.record({
  name: fc.oneof(fc.constantFrom('Data', 'data', ' ', ''), fc.string({ maxLength: 40 })),
  position: fc.integer({ min: 0, max: 5 }),
  rows: fc
    .uniqueArray(fc.integer({ min: 0, max: 3000 }), { maxLength: 12 })
    .chain((indexes) => fc.tuple(...[...indexes].sort((a, b) => a - b).map((index) => fc.array(cell, { maxLength: 30 }).map((cells) => ({ index, cells }))))),
});

/**
 * A formula as grid model 3 gives it back: stored relative to its cell and read in A1 form, a reference is spelled
 * anew (`Ab03` is `AB3`, as Excel writes it); nothing but letter case and a row's leading zeros may change.
 */
function spelledByModel(formula: string, row: number, column: number): string {
  const spelled = formulaInA1(formulaRelative(formula, row, column), row, column);
  const caseAndZerosAside = (text: string) => text.toUpperCase().replace(/(?<![0-9.])0+(?=[0-9])/g, '');
  expect(caseAndZerosAside(spelled)).toBe(caseAndZerosAside(formula));
  return spelled;
}

function encode(sheets: readonly StreamedSheet[]): Y.Doc {
  const encoder = new SpreadsheetEncoder();
  for (const streamed of sheets) {
    encoder.beginSheet(streamed.name, streamed.position);
    for (const row of streamed.rows) encoder.row(row.index, row.cells);
  }
  const doc = new Y.Doc();
  Y.applyUpdate(doc, joinParts(encoder.finish()));
  return doc;
}

describe('SpreadsheetEncoder: rows streamed to Yjs structs', () => {
  it('decodes to the sheets, in position order (ties in arrival order), with every cell, unique names and their sizes', () => {
    fc.assert(
      fc.property(fc.array(sheet, { minLength: 1, maxLength: 5 }), (sheets) => {
        const doc = encode(sheets);
        const expectedOrder = sheets.map((streamed, arrival) => ({ streamed, arrival })).sort((a, b) => a.streamed.position - b.streamed.position || a.arrival - b.arrival);
        const decoded = sheetsOf(doc).toArray();
        expect(decoded).toHaveLength(sheets.length);
        const names = decoded.map((map) => map.get('name') as string);
        expect(new Set(names.map((name) => name.toLowerCase())).size).toBe(names.length);
        decoded.forEach((map, place) => {
          const { streamed } = expectedOrder[place]!;
          const expected = new Map<string, unknown>();
          let columns = 0;
          for (const row of streamed.rows) {
            row.cells.forEach((value, column) => {
              if (!value) return;
              // imported cells are stored in blocks as JSON, which has no negative zero: -0 reads back as 0, as Excel shows it
              expected.set(addressOf(row.index, column), value.f !== undefined ? { f: spelledByModel(value.f, row.index, column) } : { v: Object.is(value.v, -0) ? 0 : value.v });
              columns = Math.max(columns, column + 1);
            });
          }
          expect(storedCells(doc, place)).toEqual(Object.fromEntries(expected));
          expect(SheetModel.of(map).rowCount).toBe(Math.max(DEFAULT_ROW_COUNT, (streamed.rows.at(-1)?.index ?? -1) + 1));
          expect(SheetModel.of(map).columnCount).toBe(Math.max(DEFAULT_COLUMN_COUNT, columns));
          if (streamed.name.trim() !== '') expect(names[place]!.startsWith(streamed.name.trim().slice(0, 28))).toBe(true);
        });
      }),
      { numRuns: 60 },
    );
  });

  it('a sheet of more cells than one block of structs keeps all of them, and takes edits like any document', () => {
    const rows = Array.from({ length: 9000 }, (_, index) => ({ index, cells: [{ v: index }, { v: `row ${index}` }, undefined, { f: `=A${index + 1}*2` }, { v: index % 2 === 0 }] }));
    const doc = encode([{ name: 'Big', position: 0, rows }, { name: 'Small', position: 1, rows: [{ index: 4, cells: [undefined, { v: 'x' }] }] }]);
    const [big, small] = sheetsOf(doc).toArray();
    const cells = SheetModel.of(big!);
    expect(cells.cellCount).toBe(36_000);
    expect(cells.cell(8999, 3)).toEqual({ f: '=A9000*2' });
    expect(SheetModel.of(small!).cell(4, 1)).toEqual({ v: 'x' });
    // another client's edit of an imported cell replaces it, as with cells set through Y.Map
    const other = new Y.Doc();
    Y.applyUpdate(other, Y.encodeStateAsUpdate(doc));
    putCells(other, { D9000: { v: 1 } });
    Y.applyUpdate(doc, Y.encodeStateAsUpdate(other, Y.encodeStateVector(doc)));
    expect(cells.cell(8999, 3)).toEqual({ v: 1 });
    expect(cells.cellCount).toBe(36_000);
  });

  it('refuses a sheet past the row limit with importContentTooComplex', () => {
    const encoder = new SpreadsheetEncoder();
    encoder.beginSheet('Huge', 0);
    expect(() => encoder.row(1_048_576, [{ v: 1 }])).toThrow(expect.objectContaining({ error: 'importContentTooComplex' }));
  });
});
