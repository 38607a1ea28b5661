import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHEET_MODEL_VERSION } from '../../src/model/content.js';
import { sheetModels, spreadsheetModelVersion } from '../../src/model/sheets/sheet-model.js';
import { testDatabases } from '../support/databases.js';
import { startService, type TestService } from '../support/service.js';
import { connectEditor } from './editor-client.js';

/**
 * Documents written by older grid models, opened by this code through the real server: converted once on load,
 * read back identical through the values API and by an editor. Version 1 (cells keyed by position;
 * test/fixtures/sheets/v1-*, made by main at dabed7e: an edited workbook with formats, styles, a merge, a resized
 * column, frozen rows, structure edits and three sheets, and an imported sheet of 2,500 rows written by that
 * version's import encoder); version 2 (formulas in A1 form; v2-*, the same documents as version 2's own code
 * converted them, at 9fb45b7). v1-expected.json holds what version 1's own code read from them.
 */
const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/sheets');
const expected = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'v1-expected.json'), 'utf8')) as Record<string, unknown>;
const RENDERS = { value: 'UNFORMATTED_VALUE', formula: 'FORMULA', formatted: 'FORMATTED_VALUE' } as const;

for (const [version, database] of testDatabases().flatMap((each) => (['v1', 'v2'] as const).map((one) => [one, each] as const))) {
  describe(`spreadsheets of grid model version ${version.slice(1)} [${database.name}]`, () => {
    let svc: TestService;
    beforeAll(async () => {
      svc = await startService(database, { integrator: true, bodyLimitBytes: 1024 * 1024 });
      for (const name of ['edited', 'imported']) {
        const state = new Uint8Array(fs.readFileSync(path.join(FIXTURES, `${version}-${name}.yjs`)));
        await svc.services.storage.db.transaction().execute(async (trx) => {
          await svc.services.files.create(svc.app, { fileId: name, type: 'spreadsheet', createdBy: 'fixture' }, trx);
          await svc.services.content.initialize(trx, svc.app.id, name, 'spreadsheet', state);
        });
      }
    });
    afterAll(async () => svc.close());

    const updateSeq = async (fileId: string) =>
      (await svc.services.storage.db.selectFrom('content_docs').select('update_seq').where('app_id', '=', svc.app.id).where('file_id', '=', fileId).executeTakeFirstOrThrow()).update_seq;

    it('are converted once when loaded and read back identical through the values API, in every render', { timeout: 120_000 }, async () => {
      for (const [name, ranges] of [['edited', ['Sheet1!A1:F11', 'Second!A1:B2', 'Empty!A1:B2']], ['imported', ['Data!A1:E2500']]] as const) {
        const before = await updateSeq(name);
        for (const range of ranges) {
          for (const [render, option] of Object.entries(RENDERS)) {
            const answer = await svc.call('GET', `/sdk/v2/api/files/${name}/sheets/values`, { query: { range, valueRenderOption: option } });
            expect(answer.status, answer.text).toBe(200);
            const want = expected[`${name} ${range} ${render}`] as unknown[][];
            // the API leaves out trailing empty cells and rows
            expect(answer.body.data.values ?? []).toEqual(trimmed(want));
          }
        }
        // the conversion is one stored update, made once
        expect(await updateSeq(name)).toBe(before + 1);
        const doc = await svc.services.content.read(svc.app.id, name);
        expect(spreadsheetModelVersion(doc)).toBe(SHEET_MODEL_VERSION);
        expect(
          sheetModels(doc).map((sheet) => ({ name: sheet.name, rows: sheet.rowCount, columns: sheet.columnCount, merges: sheet.merges(), widths: [...sheet.columnWidths()], frozen: sheet.frozenRows, edits: sheet.structureEdits().length, cells: sheet.cellCount })),
        ).toEqual(expected[`${name} sheets`]);
      }
    });

    it('a spreadsheet revision restores with its cells, imported blocks and later edits alike', { timeout: 120_000 }, async () => {
      const values = '/sdk/v2/api/files/imported/sheets/values';
      const read = async (range: string) => (await svc.call('GET', values, { query: { range } })).body.data.values as unknown[][];
      expect((await svc.call('POST', values, { body: { range: 'Data!A2', resource: { values: [['edited']] } } })).status).toBe(200);
      await svc.services.content.flush(svc.app.id, 'imported');
      const revision = await svc.call('POST', '/sdk/v2/collab-files/imported/revisions', { body: { title: 'Before' } });
      expect(revision.status, revision.text).toBe(200);
      expect((await svc.call('POST', values, { body: { range: 'Data!A2:B3', resource: { values: [['later', 0], ['later', 0]] } } })).status).toBe(200);
      expect((await svc.call('DELETE', '/sdk/v2/api/files/imported/sheets/Data/rows/0')).status).toBe(200);
      const restored = await svc.call('POST', `/sdk/v2/collab-files/imported/revisions/${revision.body.data.id}/restore`);
      expect(restored.status, restored.text).toBe(200);
      expect(await read('Data!A1:D3')).toEqual([['Row 1', 0, true, 0], ['edited', 1.5, false, 3], ['Row 3', 3, true, 6]]);
      expect(await read('Data!A2500:D2500')).toEqual([['Row 2500', 3748.5, false, 7497]]);
    });

    it('reach an editor converted, the same cells as the API reads', { timeout: 60_000 }, async () => {
      const editor = await connectEditor(svc, 'edited');
      try {
        expect(spreadsheetModelVersion(editor.doc)).toBe(SHEET_MODEL_VERSION);
        const formulas = expected['edited Sheet1!A1:F11 formula'] as unknown[][];
        const sheet = editor.sheet(0);
        formulas.forEach((line, row) =>
          line.forEach((input, column) => {
            const cell = sheet.cell(row, column);
            expect(cell?.f ?? cell?.v ?? '').toEqual(input);
          }),
        );
      } finally {
        editor.close();
      }
    });
  });
}

function trimmed(rows: unknown[][]): unknown[][] {
  const lines = rows.map((line) => {
    const kept = [...line];
    while (kept.length > 0 && (kept[kept.length - 1] === '' || kept[kept.length - 1] === null)) kept.pop();
    return kept;
  });
  while (lines.length > 0 && lines[lines.length - 1]!.length === 0) lines.pop();
  return lines;
}
