import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { docFromState, initialContent } from '../../src/model/content.js';
import { applyStructureEdit, areasOverlap, sheetModels, type CellArea } from '../../src/model/sheets/sheet-model.js';
import { testDatabases } from '../support/databases.js';
import { startService, type TestService } from '../support/service.js';
import { exportFile, setCells, workbookOf } from '../export/support.js';
import { importAndWait } from '../import/support.js';

/**
 * Merged cells: the sheet model's merges under row and column edits (against a reference grid of labels), and
 * `POST files/{fileId}/sheets/merge-cells` through the real server (docs/SHEETS.md "Merged cells").
 */

type Edit = { kind: 'insert' | 'delete'; axis: 'rows' | 'columns'; index: number; count: number };

const GRID = 10;
const area: fc.Arbitrary<CellArea> = fc
  .tuple(fc.nat(GRID - 1), fc.nat(GRID - 1), fc.nat(3), fc.nat(3))
  .map(([row, column, extraRows, extraColumns]) => ({ startRow: row, endRow: Math.min(GRID - 1, row + extraRows), startColumn: column, endColumn: Math.min(GRID - 1, column + extraColumns) }))
  .filter((a) => a.startRow < a.endRow || a.startColumn < a.endColumn);
const edit: fc.Arbitrary<Edit> = fc.record({
  kind: fc.constantFrom('insert' as const, 'delete' as const),
  axis: fc.constantFrom('rows' as const, 'columns' as const),
  index: fc.nat(GRID),
  count: fc.integer({ min: 1, max: 3 }),
});

/**
 * The reference: every cell of the grid labelled with the merge it belongs to. Rows (columns) inserted between two
 * rows of one merge join it; deleted ones go. A merge is then the box of its labelled cells.
 */
function referenceMerges(merges: CellArea[], edits: Edit[]): CellArea[] {
  let rows = GRID;
  let columns = GRID;
  let grid: Array<Array<number | null>> = Array.from({ length: rows }, (_, r) =>
    Array.from({ length: columns }, (_, c) => {
      const found = merges.findIndex((m) => m.startRow <= r && r <= m.endRow && m.startColumn <= c && c <= m.endColumn);
      return found === -1 ? null : found;
    }),
  );
  const transpose = (g: Array<Array<number | null>>, width: number) => Array.from({ length: width }, (_, c) => g.map((row) => row[c] ?? null));
  for (const e of edits) {
    const byColumns = e.axis === 'columns';
    let lines = byColumns ? transpose(grid, columns) : grid;
    const length = byColumns ? columns : rows;
    const across = byColumns ? rows : columns;
    if (e.kind === 'insert') {
      const inserted = Array.from({ length: e.count }, () =>
        Array.from({ length: across }, (_, i) => {
          const before = lines[e.index - 1]?.[i] ?? null;
          const after = lines[e.index]?.[i] ?? null;
          return before !== null && before === after ? before : null;
        }),
      );
      lines = [...lines.slice(0, e.index), ...inserted, ...lines.slice(e.index)];
    } else {
      if (e.index >= length) continue;
      lines = [...lines.slice(0, e.index), ...lines.slice(e.index + e.count)];
    }
    const newLength = Math.max(1, lines.length);
    if (lines.length === 0) lines = [Array.from({ length: across }, () => null)];
    if (byColumns) {
      columns = newLength;
      grid = transpose(lines, rows);
    } else {
      rows = newLength;
      grid = lines;
    }
  }
  const boxes = new Map<number, CellArea>();
  grid.forEach((line, r) =>
    line.forEach((label, c) => {
      if (label === null) return;
      const box = boxes.get(label);
      if (!box) boxes.set(label, { startRow: r, endRow: r, startColumn: c, endColumn: c });
      else Object.assign(box, { startRow: Math.min(box.startRow, r), endRow: Math.max(box.endRow, r), startColumn: Math.min(box.startColumn, c), endColumn: Math.max(box.endColumn, c) });
    }),
  );
  return [...boxes.values()]
    .filter((box) => box.startRow < box.endRow || box.startColumn < box.endColumn)
    .sort((a, b) => a.startRow - b.startRow || a.startColumn - b.startColumn);
}

describe('merges in the sheet model', () => {
  it('move, grow, shrink or go with row and column insertions and deletions as the cells they cover do', () => {
    fc.assert(
      fc.property(fc.array(area, { maxLength: 5 }), fc.array(edit, { maxLength: 6 }), (candidates, edits) => {
        const disjoint: CellArea[] = [];
        for (const candidate of candidates) if (!disjoint.some((other) => areasOverlap(other, candidate))) disjoint.push(candidate);
        const doc = docFromState(initialContent('spreadsheet'));
        const sheet = sheetModels(doc)[0]!;
        doc.transact(() => {
          // a small grid, so that deletions can reach past its end
          sheet.growTo(1, 1);
          applyStructureEdit(doc, sheet, { kind: 'delete', axis: 'rows', index: GRID, count: sheet.rowCount - GRID });
          applyStructureEdit(doc, sheet, { kind: 'delete', axis: 'columns', index: GRID, count: sheet.columnCount - GRID });
          for (const merge of disjoint) sheet.addMerge(merge);
        });
        const applied: Edit[] = [];
        for (const e of edits) {
          const size = e.axis === 'rows' ? sheet.rowCount : sheet.columnCount;
          if (e.kind === 'delete' && e.index >= size) continue;
          const checked = e.kind === 'delete' ? { ...e, count: Math.min(e.count, size - e.index) } : e;
          applied.push(checked);
          applyStructureEdit(doc, sheet, checked);
        }
        expect(sheet.merges()).toEqual(referenceMerges(disjoint, applied));
      }),
      { numRuns: 300 },
    );
  });

  it('reads only disjoint areas of two cells or more, whatever a client stored', () => {
    const doc = docFromState(initialContent('spreadsheet'));
    const sheet = sheetModels(doc)[0]!;
    sheet.addMerge({ startRow: 1, endRow: 2, startColumn: 1, endColumn: 3 });
    sheet.addMerge({ startRow: 2, endRow: 4, startColumn: 0, endColumn: 1 });
    sheet.addMerge({ startRow: 5, endRow: 5, startColumn: 5, endColumn: 5 });
    expect(sheet.merges()).toEqual([{ startRow: 1, endRow: 2, startColumn: 1, endColumn: 3 }]);
    expect(sheet.mergeAt(2, 3)).toEqual({ startRow: 1, endRow: 2, startColumn: 1, endColumn: 3 });
    expect(sheet.mergeAt(0, 0)).toBeUndefined();
    expect(sheet.removeMerge({ startRow: 1, endRow: 2, startColumn: 1, endColumn: 3 })).toBe(true);
    expect(sheet.merges()).toEqual([{ startRow: 2, endRow: 4, startColumn: 0, endColumn: 1 }]);
  });
});

const FILE = 'merged';
const MERGE = `/sdk/v2/api/files/${FILE}/sheets/merge-cells`;

for (const database of testDatabases()) {
  describe(`merge-cells API [${database.name}]`, () => {
    let svc: TestService;
    beforeEach(async () => {
      svc = await startService(database, { integrator: true });
      const created = await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'spreadsheet', fileId: FILE } });
      expect(created.status, created.text).toBe(200);
    });
    afterEach(async () => svc.close());

    const merge = (body: Record<string, unknown>, signature?: string) => svc.call('POST', MERGE, { body, ...(signature ? { signature } : {}) });
    const storedMerges = async (sheetIndex = 0) => sheetModels(await svc.services.content.read(svc.app.id, FILE))[sheetIndex]!.merges();

    it('merges cells, keeps them in the document, and a repeat changes nothing', async () => {
      const merged = await merge({ sheetName: 'Sheet1', cell: 'B2', rowspan: 2, colSpan: 3 });
      expect(merged.status, merged.text).toBe(200);
      expect(merged.body).toEqual({ status: 0, message: 'success', data: { range: 'Sheet1!B2:D3', merged: true } });
      expect(await storedMerges()).toEqual([{ startRow: 1, endRow: 2, startColumn: 1, endColumn: 3 }]);
      const again = await merge({ sheetName: 'sheet1', cell: 'b2', rowspan: 2, colSpan: 3 });
      expect(again.body.data).toEqual({ range: 'Sheet1!B2:D3', merged: false });
      expect((await merge({ sheetName: 'Sheet1', cell: 'H8', rowspan: 1, colSpan: 1 })).body.data).toEqual({ range: 'Sheet1!H8', merged: false });
      expect(await storedMerges()).toHaveLength(1);
      // deleting the merge's first row through the API shrinks it
      const deleted = await svc.call('DELETE', `/sdk/v2/api/files/${FILE}/sheets/Sheet1/rows/1`);
      expect(deleted.status, deleted.text).toBe(200);
      expect(await storedMerges()).toEqual([{ startRow: 1, endRow: 1, startColumn: 1, endColumn: 3 }]);
    });

    it('refuses bad spans, bad cells, areas off the sheet and overlaps with clear errors, changing nothing', async () => {
      expect((await merge({ sheetName: 'Sheet1', cell: 'C3', rowspan: 2, colSpan: 2 })).status).toBe(200);
      const refused: Array<[Record<string, unknown>, number, number]> = [
        [{ sheetName: 'Sheet1', cell: 'A1', rowspan: 0, colSpan: 2 }, 400, 126100],
        [{ sheetName: 'Sheet1', cell: 'A1', rowspan: 2, colSpan: -1 }, 400, 126100],
        [{ sheetName: 'Sheet1', cell: 'A1', rowspan: 1.5, colSpan: 2 }, 400, 126100],
        [{ sheetName: 'Sheet1', cell: 'A1', colSpan: 2 }, 400, 126100],
        [{ sheetName: 'Sheet1', cell: 'A1:B2', rowspan: 1, colSpan: 2 }, 400, 126100],
        [{ sheetName: 'Sheet1', cell: 'Sheet1!A1', rowspan: 1, colSpan: 2 }, 400, 126100],
        [{ sheetName: 'Sheet1', cell: 'not a cell', rowspan: 1, colSpan: 2 }, 400, 126100],
        [{ sheetName: 'Sheet1', cell: 'Z1', rowspan: 1, colSpan: 2 }, 400, 126101],
        [{ sheetName: 'Sheet1', cell: 'A1000', rowspan: 2, colSpan: 1 }, 400, 126101],
        [{ sheetName: 'Sheet1', cell: 'B2', rowspan: 2, colSpan: 2 }, 409, 126102],
        [{ sheetName: 'Sheet1', cell: 'D4', rowspan: 1, colSpan: 1 }, 200, 0],
        [{ sheetName: 'Sheet1', cell: 'C3', rowspan: 3, colSpan: 2 }, 409, 126102],
        [{ sheetName: 'Nope', cell: 'A1', rowspan: 1, colSpan: 2 }, 404, 72002],
      ];
      for (const [body, status, code] of refused) {
        const answer = await merge(body);
        expect([answer.status, answer.body.status], `${JSON.stringify(body)}: ${answer.text}`).toEqual([status, code]);
        if (status !== 200) expect(answer.body.message).toMatch(/\w/);
      }
      // the overlap names the merge in the way
      expect((await merge({ sheetName: 'Sheet1', cell: 'B2', rowspan: 2, colSpan: 2 })).body.data).toEqual({ range: 'Sheet1!B2:C3', overlaps: 'Sheet1!C3:D4' });
      expect(await storedMerges()).toEqual([{ startRow: 2, endRow: 3, startColumn: 2, endColumn: 3 }]);
    });

    it('keeps merges through xlsx: exported as Excel merges (exceljs reads them back), imported into the model', async () => {
      // C2 is hidden under the merge: Excel keeps only a merge's top-left cell, so the file drops it
      await setCells(svc, FILE, { A1: { v: 'title' }, B2: { v: 'Quarter' }, C2: { v: 'hidden' }, A5: { v: 'total' } });
      expect((await merge({ sheetName: 'Sheet1', cell: 'B2', rowspan: 2, colSpan: 3 })).status).toBe(200);
      expect((await merge({ sheetName: 'Sheet1', cell: 'A5', rowspan: 1, colSpan: 4 })).status).toBe(200);
      const { bytes } = await exportFile(svc, FILE, 'xlsx');
      const sheet = (await workbookOf(bytes)).getWorksheet('Sheet1')!;
      expect(Object.keys((sheet as unknown as { _merges: Record<string, unknown> })._merges).sort()).toEqual(['A5', 'B2']);
      expect(sheet.getCell('B2').value).toBe('Quarter');
      expect(sheet.getCell('D3').isMerged).toBe(true);
      expect(sheet.getCell('D3').master.address).toBe('B2');
      expect(sheet.getCell('A5').master.address).toBe('A5');
      expect(sheet.getCell('E5').isMerged).toBe(false);

      const imported = await importAndWait(svc, { fileId: 'reimported', type: 'spreadsheet' }, { name: 'merged.xlsx', data: new Uint8Array(bytes) });
      expect(imported.status, imported.text).toBe(200);
      const doc = await svc.services.content.read(svc.app.id, 'reimported');
      expect(sheetModels(doc)[0]!.merges()).toEqual([
        { startRow: 1, endRow: 2, startColumn: 1, endColumn: 3 },
        { startRow: 4, endRow: 4, startColumn: 0, endColumn: 3 },
      ]);
      const values = await svc.call('GET', '/sdk/v2/api/files/reimported/sheets/values', { query: { range: 'Sheet1!A1:D5' } });
      expect(values.body.data.values).toEqual([['title'], ['', 'Quarter'], [], [], ['total']]);
    });

    it('needs a spreadsheet of the calling app', async () => {
      expect((await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'document', fileId: 'text' } })).status).toBe(200);
      const onDocument = await svc.call('POST', '/sdk/v2/api/files/text/sheets/merge-cells', { body: { sheetName: 'Sheet1', cell: 'A1', rowspan: 1, colSpan: 2 } });
      expect([onDocument.status, onDocument.body.status]).toEqual([400, 72010]);
      const other = await svc.createApp({ endpointUrl: svc.integrator.url });
      const fromOtherApp = await merge({ sheetName: 'Sheet1', cell: 'A1', rowspan: 1, colSpan: 2 }, await svc.sign({}, other));
      expect(fromOtherApp.status, fromOtherApp.text).toBe(404);
      expect(await storedMerges()).toEqual([]);
    });
  });
}
