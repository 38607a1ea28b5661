import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addConditionalRule } from '../../src/model/sheets/conditional-formats.js';
import { sheetModels } from '../../src/model/sheets/sheet-model.js';
import { testDatabases } from '../support/databases.js';
import { startService, type TestService } from '../support/service.js';
import { author } from '../export/support.js';
import { toHtml } from '../../src/domain/export/converters/html.js';
import { toCsv } from '../../src/domain/export/converters/csv.js';
import { sourceFromState } from '../../src/domain/export/source.js';
import { docFromState, initialContent } from '../../src/model/content.js';
import * as Y from 'yjs';

/**
 * What the service's reads say of conditional formats (docs/SHEETS.md "Conditional formatting"): the values API reads
 * the cells as stored and computed, never the looks; the editor's first screen carries each cell's look, computed
 * over the rules' whole areas (formulas computed), so the editor changes nothing when it takes over. The pdf export
 * draws the looks; csv carries the values only.
 */
describe('conditional formats in the exports that draw', () => {
  it('the pdf export draws fills, font colours and data bars over the cells\' own styles; csv keeps the values', () => {
    const doc = docFromState(initialContent('spreadsheet'));
    const sheet = sheetModels(doc)[0]!;
    doc.transact(() => {
      sheet.setCell(0, 0, { v: 150, s: { bg: '#eeeeee' } });
      sheet.setCell(1, 0, { v: 50 });
      sheet.setCell(0, 1, { v: 10 });
      sheet.setCell(1, 1, { v: 20 });
      addConditionalRule(sheet, { type: 'cellValue', op: 'gt', value: 100, format: { fill: '#ff0000', color: '#ffffff', bold: true } }, [{ startRow: 0, endRow: 9, startColumn: 0, endColumn: 0 }]);
      addConditionalRule(sheet, { type: 'dataBar', color: '#638ec6', min: { kind: 'number', value: 0 }, max: { kind: 'max' } }, [{ startRow: 0, endRow: 9, startColumn: 1, endColumn: 1 }]);
    });
    const source = sourceFromState(Y.encodeStateAsUpdate(doc), 'spreadsheet', 'Looks');
    if (source.kind !== 'workbook') throw new Error(`a spreadsheet's source is a workbook, not ${source.kind}`);
    const quiet = { step: () => undefined };
    const { html } = toHtml(source, quiet, '');
    expect(html).toContain('<td class="n" style="background:#eeeeee;background:#ff0000;color:#ffffff;font-weight:bold">150</td>');
    expect(html).toContain('<td class="n">50</td>');
    expect(html).toContain('<td class="n" style="background:linear-gradient(to right,#638ec6 50%,transparent 0)">10</td>');
    expect(html).toContain('<td class="n" style="background:linear-gradient(to right,#638ec6 100%,transparent 0)">20</td>');
    expect(new TextDecoder().decode(toCsv(source, quiet))).toBe('150,10\r\n50,20\r\n');
  });
});

for (const database of testDatabases()) {
  describe(`conditional formats in the service's reads [${database.name}]`, () => {
    let svc: TestService;
    beforeAll(async () => {
      svc = await startService(database, { integrator: true });
    });
    afterAll(async () => svc.close());

    it('the first screen carries the looks, the values API the values', async () => {
      expect((await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'spreadsheet', fileId: 'cf-reads' } })).status).toBe(200);
      const values = '/sdk/v2/api/files/cf-reads/sheets/values';
      // A3 is a formula over 100; A200, far below the screen, is the highest number of the column's top 1
      const written = await svc.call('POST', values, { body: { range: 'A1:A3', resource: { values: [[50], [150], ['=A2+1']] } } });
      expect(written.status, written.text).toBe(200);
      expect((await svc.call('POST', values, { body: { range: 'A200', resource: { values: [[999]] } } })).status).toBe(200);
      await svc.services.content.change(svc.app.id, 'cf-reads', author, (doc) => {
        const sheet = sheetModels(doc)[0]!;
        const column = [{ startRow: 0, endRow: 999, startColumn: 0, endColumn: 0 }];
        addConditionalRule(sheet, { type: 'topBottom', bottom: false, percent: false, rank: 1, format: { bold: true } }, column);
        addConditionalRule(sheet, { type: 'cellValue', op: 'gt', value: 100, format: { fill: '#ff0000' } }, column);
      });
      const screen = await svc.call('GET', '/sdk/v2/api/files/cf-reads/sheets/first-screen', { query: { rows: 10, width: 300 } });
      expect(screen.status, screen.text).toBe(200);
      expect(screen.body.data.cells).toEqual([
        { row: 0, column: 0, text: '50', kind: 'number' },
        { row: 1, column: 0, text: '150', kind: 'number', look: { fill: '#ff0000' } },
        { row: 2, column: 0, text: '151', kind: 'number', look: { fill: '#ff0000' } },
      ]);
      const read = await svc.call('GET', values, { query: { range: 'A1:A3' } });
      expect(read.body.data.values).toEqual([[50], [150], [151]]);
    });
  });
}
