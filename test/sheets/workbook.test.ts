import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { ApiError } from '../../src/errors.js';
import { docFromState, initialContent } from '../../src/model/content.js';
import { sheetModels } from '../../src/model/sheets/sheet-model.js';
import { formatSheetName, parseA1 } from '../../src/model/sheets/a1.js';
import type { CellInput } from '../../src/model/sheets/cells.js';
import { invalidSheetName } from '../../src/model/sheets/sheet-names.js';
import { addSheet, appendValues, deleteRows, readValues, writeValues } from '../../src/domain/sheets/workbook.js';

/** A spreadsheet as a new file starts: one sheet "Sheet1", 1000 × 26. */
function newSpreadsheet(): Y.Doc {
  return docFromState(initialContent('spreadsheet'));
}

const read = (doc: Y.Doc, range: string, render: 'value' | 'formula' = 'value') => readValues(doc, parseA1(range), render);
const write = (doc: Y.Doc, range: string, values: CellInput[][]) => writeValues(doc, parseA1(range), values);
const append = (doc: Y.Doc, range: string, values: CellInput[][]) => appendValues(doc, parseA1(range), values);

function errorCode(run: () => unknown): number | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error.spec.code;
    throw error;
  }
  return undefined;
}

describe('spreadsheet model operations', () => {
  it('writes and reads a range with types kept, empty cells as "" and trailing empties trimmed', () => {
    const doc = newSpreadsheet();
    const result = write(doc, 'Sheet1!A1:D4', [
      ['name', 1, true],
      [null, 2.5],
      [],
      ['x', '', false, 0],
    ]);
    expect(result).toEqual({ updatedRange: 'Sheet1!A1:D4', updatedRows: 4, updatedColumns: 4, updatedCells: 9 });
    expect(read(doc, 'Sheet1!A1:D4')).toEqual({
      range: 'Sheet1!A1:D4',
      values: [['name', 1, true], ['', 2.5], [], ['x', '', false, 0]],
    });
    expect(read(doc, 'A:B').values).toEqual([['name', 1], ['', 2.5], [], ['x']]);
    expect(read(doc, '2:2').values).toEqual([['', 2.5]]);
    expect(read(doc, 'B2')).toEqual({ range: 'Sheet1!B2', values: [[2.5]] });
    expect(read(doc, 'Sheet1')).toEqual({ range: 'Sheet1', values: [['name', 1, true], ['', 2.5], [], ['x', '', false, 0]] });
    expect(read(doc, 'E5:Z9')).toEqual({ range: 'Sheet1!E5:Z9', values: [] });
  });

  it('keeps formula text; reads the computed value, or the text when asked', () => {
    const doc = newSpreadsheet();
    write(doc, 'A1:B1', [[2, '=A1*2']]);
    expect(read(doc, 'A1:B1').values).toEqual([[2, 4]]);
    expect(read(doc, 'A1:B1', 'formula').values).toEqual([[2, '=A1*2']]);
    // a value stored beside a formula (by an older editor) is not what reads show: the engine computes
    sheetModels(doc)[0]!.setCell(0, 1, { f: '=A1*2', v: 'stale' });
    expect(read(doc, 'A1:B1').values).toEqual([[2, 4]]);
    write(doc, 'A1', [[5]]);
    expect(read(doc, 'A1:B1').values).toEqual([[5, 10]]);
    expect(read(doc, 'A1:B1', 'formula').values).toEqual([[5, '=A1*2']]);
    // "=" alone is text
    write(doc, 'C1', [['=']]);
    expect(read(doc, 'C1', 'formula').values).toEqual([['=']]);
  });

  it('a repeated write changes nothing at all', () => {
    const doc = newSpreadsheet();
    write(doc, 'A1:C2', [[1, 'a', '=A1'], [null, true]]);
    const before = Y.encodeStateVector(doc);
    write(doc, 'A1:C2', [[1, 'a', '=A1'], [null, true]]);
    expect(Y.encodeStateVector(doc)).toEqual(before);
  });

  it('refuses values larger than the range, bad values and unknown sheets, changing nothing', () => {
    const doc = newSpreadsheet();
    write(doc, 'A1', [['keep']]);
    const before = Y.encodeStateAsUpdate(doc);
    expect(errorCode(() => write(doc, 'A1:B2', [[1, 2, 3]]))).toBe(72004);
    expect(errorCode(() => write(doc, 'A1:B2', [[1], [2], [3]]))).toBe(72004);
    expect(errorCode(() => write(doc, 'A1:B2', [[1, Number.POSITIVE_INFINITY]]))).toBe(72003);
    expect(errorCode(() => write(doc, 'A1:B2', [[1, { v: 1 } as unknown as CellInput]]))).toBe(72003);
    expect(errorCode(() => write(doc, 'A1:B2', [['x'.repeat(32_768)]]))).toBe(72003);
    expect(errorCode(() => write(doc, 'Nope!A1', [[1]]))).toBe(72002);
    expect(errorCode(() => append(doc, 'Nope!A1', [[1]]))).toBe(72002);
    expect(Y.encodeStateAsUpdate(doc)).toEqual(before);
  });

  it('grows the sheet to hold what is written, up to the limits', () => {
    const doc = newSpreadsheet();
    write(doc, 'AB2000', [['far']]);
    expect([sheetModels(doc)[0]!.rowCount, sheetModels(doc)[0]!.columnCount]).toEqual([2000, 28]);
    write(doc, 'XFD1048576', [[1]]);
    expect([sheetModels(doc)[0]!.rowCount, sheetModels(doc)[0]!.columnCount]).toEqual([1_048_576, 16_384]);
    expect(read(doc, 'XFD1048576').values).toEqual([[1]]);
  });

  it('appends after the last non-empty row of the range table, at its first column', () => {
    const doc = newSpreadsheet();
    write(doc, 'A1:C3', [['h1', 'h2', 'h3'], [1, 2, 3], [4, 5, 6]]);
    write(doc, 'E10', [['elsewhere']]);
    expect(append(doc, 'A1:C1', [[7, 8, 9]])).toMatchObject({ updatedRange: 'Sheet1!A4:C4', updatedRows: 1 });
    expect(append(doc, 'Sheet1!A:C', [[10, 11, 12, 13]])).toMatchObject({ updatedRange: 'Sheet1!A5:D5' });
    // the whole sheet's table includes E10
    expect(append(doc, 'Sheet1', [['after E10']])).toMatchObject({ updatedRange: 'Sheet1!A11' });
    // a range below the data starts its own table
    expect(append(doc, 'B20:C20', [['x']])).toMatchObject({ updatedRange: 'Sheet1!B20' });
    expect(read(doc, 'A1:D5').values.slice(3)).toEqual([[7, 8, 9], [10, 11, 12, 13]]);
  });

  it('refuses an append past the last row', () => {
    const doc = newSpreadsheet();
    write(doc, 'A1048575', [['nearly the end']]);
    expect(errorCode(() => append(doc, 'A:A', [[1], [2]]))).toBe(72005);
    expect(append(doc, 'A:A', [[1]])).toMatchObject({ updatedRange: 'Sheet1!A1048576' });
  });

  it('deletes rows and shifts the rows below up', () => {
    const doc = newSpreadsheet();
    write(doc, 'A1:B5', [[1, 'a'], [2, 'b'], [3, 'c'], [4, 'd'], [5, 'e']]);
    expect(deleteRows(doc, 'Sheet1', 1, 2)).toEqual({ sheetName: 'Sheet1', deletedRows: 2, rowCount: 998 });
    expect(read(doc, 'Sheet1').values).toEqual([[1, 'a'], [4, 'd'], [5, 'e']]);
    // past the end: cut to the rows that exist
    expect(deleteRows(doc, 'sheet1', 997, 50)).toMatchObject({ deletedRows: 1, rowCount: 997 });
    expect(errorCode(() => deleteRows(doc, 'Sheet1', 997, 1))).toBe(72009);
    expect(errorCode(() => deleteRows(doc, 'Other', 0, 1))).toBe(72002);
    // a sheet keeps one row
    expect(deleteRows(doc, 'Sheet1', 0, 5000)).toMatchObject({ deletedRows: 997, rowCount: 1 });
    expect(read(doc, 'Sheet1').values).toEqual([]);
  });

  it('adds sheets with unique, valid names', () => {
    const doc = newSpreadsheet();
    expect(addSheet(doc, "Q1!Plan's")).toMatchObject({ name: "Q1!Plan's", index: 1, rowCount: 1000, columnCount: 26 });
    write(doc, "'Q1!Plan''s'!B2", [['quoted']]);
    expect(read(doc, "'Q1!Plan''s'!B2").values).toEqual([['quoted']]);
    expect(read(doc, 'B2').values).toEqual([]);
    expect(errorCode(() => addSheet(doc, 'SHEET1'))).toBe(72008);
    for (const bad of ['', '  ', 'a/b', 'a:b', 'a[1]', "'quoted'", ' padded', 'x'.repeat(101), 'tab\there']) {
      expect(errorCode(() => addSheet(doc, bad)), bad).toBe(72007);
    }
    expect(doc.getArray('sheets').length).toBe(2);
  });

  it('every sheet name that can be added can be addressed in A1, alone and before "!"', () => {
    const name = fc.string({ unit: fc.oneof(fc.constantFrom("'", '!', ':', ' ', '#', '%', 'A', '1', '表', '/', '['), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 })), minLength: 1, maxLength: 30 });
    fc.assert(
      fc.property(name, (candidate) => {
        // a name starting with "=" ("=\u0338" is one grapheme) would be written as a formula, not read back as text
        if (invalidSheetName(candidate) !== undefined || candidate.toLowerCase() === 'sheet1' || candidate.startsWith('=')) return;
        const doc = newSpreadsheet();
        addSheet(doc, candidate);
        write(doc, `${formatSheetName(candidate)}!B2`, [[candidate]]);
        expect(read(doc, formatSheetName(candidate)).values).toEqual([[], ['', candidate]]);
      }),
      { numRuns: 500 },
    );
  });

  it('refuses an append wider than the last column', () => {
    const doc = newSpreadsheet();
    expect(errorCode(() => append(doc, 'XFC1', [[1, 2, 3]]))).toBe(72005);
    expect(append(doc, 'XFC1', [[1, 2]])).toMatchObject({ updatedRange: 'Sheet1!XFC1:XFD1' });
  });

  it('write then read gives back what was written, for any values', () => {
    const value = fc.oneof(
      fc.string({ maxLength: 20 }).filter((s) => !(s.length > 1 && s.startsWith('='))),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
    );
    fc.assert(
      fc.property(fc.array(fc.array(value, { maxLength: 6 }), { maxLength: 6 }), fc.integer({ min: 0, max: 50 }), fc.integer({ min: 0, max: 50 }), (values, row, column) => {
        const doc = newSpreadsheet();
        const range = { sheetName: 'Sheet1', startRow: row, endRow: row + 5, startColumn: column, endColumn: column + 5 };
        writeValues(doc, range, values);
        const expected = values.map((line) => line.map((v) => (v === null ? '' : Object.is(v, -0) ? -0 : v)));
        // trailing empty cells and rows trimmed
        const trimmed = expected.map((line) => {
          let end = line.length;
          while (end > 0 && line[end - 1] === '') end--;
          return line.slice(0, end);
        });
        while (trimmed.length > 0 && (trimmed[trimmed.length - 1] ?? []).length === 0) trimmed.pop();
        expect(readValues(doc, range, 'value').values).toEqual(trimmed);
      }),
      { numRuns: 300 },
    );
  });
});
