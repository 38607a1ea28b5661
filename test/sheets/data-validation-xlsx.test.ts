import { readFileSync } from 'node:fs';
import JSZip from 'jszip';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passesValidation, validationAt, validationsOf, workbookContext } from '../../src/model/sheets/data-validation.js';
import { calculationOf, type CellValue } from '../../src/model/sheets/formulas/index.js';
import { sheetIds, sheetModels } from '../../src/model/sheets/sheet-model.js';
import { holdsFilesEnding, outsideDataDirectory } from '../../scripts/outside-data.js';
import { testDatabases } from '../support/databases.js';
import { startService, type TestService } from '../support/service.js';
import { exportFile, workbookOf } from '../export/support.js';
import { importAndWait } from '../import/support.js';

/**
 * Data validation in xlsx (docs/SHEETS.md "Data validation"): rules exported as Excel's (read back by exceljs) and
 * imported again unchanged; workbooks saved by Excel imported with their rules, checked against the validity Excel
 * gives each value (test/fixtures/xlsx-validation/README.md says where they come from).
 */

const RULES = (fileId: string) => `/sdk/v2/api/files/${fileId}/sheets/data-validation`;
const VALUES = (fileId: string) => `/sdk/v2/api/files/${fileId}/sheets/values`;
const saved = outsideDataDirectory('xlsx-validation', (directory) => holdsFilesEnding(directory, '.xlsx'));
const fixture = (name: string) => new Uint8Array(readFileSync(path.join(saved!, name)));

interface ExcelValidation {
  type: string;
  operator?: string;
  formulae: unknown[];
  allowBlank?: boolean;
  errorStyle?: string;
  error?: string;
  prompt?: string;
  showErrorMessage?: boolean;
}

for (const database of testDatabases()) {
  describe(`data validation in xlsx [${database.name}]`, () => {
    let svc: TestService;
    beforeAll(async () => {
      svc = await startService(database, { integrator: true });
    });
    afterAll(async () => svc.close());

    const rulesOf = async (fileId: string) => {
      const answer = await svc.call('GET', RULES(fileId));
      expect(answer.status, answer.text).toBe(200);
      return (answer.body.data.rules as Array<Record<string, unknown>>).map(({ id: _id, ...rule }) => rule).sort((a, b) => String(a.ranges).localeCompare(String(b.ranges)));
    };

    it('exports rules as Excel\'s, and an export imported again has the same rules', { timeout: 120_000 }, async () => {
      expect((await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'spreadsheet', fileId: 'dv-out' } })).status).toBe(200);
      expect((await svc.call('POST', VALUES('dv-out'), { body: { range: 'H1:H3', resource: { values: [['North'], ['South'], ['East']] } } })).status).toBe(200);
      const rules: Array<[string, Record<string, unknown>]> = [
        ['A2:A50', { type: 'list', values: ['Yes', 'No', 'Maybe'], prompt: 'Answer the question' }],
        ['B2:B50', { type: 'list', formula: '$H$1:$H$3', errorStyle: 'warning', errorTitle: 'Region', errorMessage: 'Not a region we know.' }],
        ['C2:C50', { type: 'whole', operator: 'between', value1: 1, value2: 10, allowBlank: false }],
        ['D2:D50', { type: 'decimal', operator: 'ge', value1: '=C2/2', errorStyle: 'information' }],
        ['E2:E50', { type: 'date', operator: 'between', value1: 45292, value2: 45657 }],
        ['F2:F50', { type: 'textLength', operator: 'le', value1: 20 }],
        ['G2:G50', { type: 'custom', formula: '=COUNTIF($G$2:$G$50,G2)=1', errorMessage: 'No duplicates.' }],
      ];
      for (const [range, rule] of rules) expect((await svc.call('PUT', RULES('dv-out'), { body: { range, rule } })).status).toBe(200);
      const before = await rulesOf('dv-out');

      const { bytes } = await exportFile(svc, 'dv-out', 'xlsx');
      const excel = (await workbookOf(bytes)).worksheets[0]!;
      const model = (excel as unknown as { dataValidations: { model: Record<string, ExcelValidation> } }).dataValidations.model;
      expect(model['A2']).toMatchObject({ type: 'list', formulae: ['"Yes,No,Maybe"'], allowBlank: true, showErrorMessage: true, errorStyle: 'stop', prompt: 'Answer the question' });
      expect(model['B2']).toMatchObject({ type: 'list', formulae: ['$H$1:$H$3'], errorStyle: 'warning', error: 'Not a region we know.' });
      expect(model['C2']).toMatchObject({ type: 'whole', operator: 'between', formulae: [1, 10] });
      expect(model['C2']!.allowBlank).toBeFalsy();
      // exceljs reads a decimal rule's formula as a number (NaN): the file's XML says what was written
      expect(model['D2']).toMatchObject({ type: 'decimal', operator: 'greaterThanOrEqual', errorStyle: 'information' });
      const xml = await (await JSZip.loadAsync(bytes)).file('xl/worksheets/sheet1.xml')!.async('string');
      expect(xml).toMatch(/<dataValidation type="decimal" operator="greaterThanOrEqual"[^>]*sqref="D2:D50"><formula1>C2\/2<\/formula1>/);
      expect(model['E2']).toMatchObject({ type: 'date', operator: 'between' });
      expect((model['E2']!.formulae as Date[]).map((date) => date.toISOString().slice(0, 10))).toEqual(['2024-01-01', '2024-12-31']);
      expect(model['F2']).toMatchObject({ type: 'textLength', operator: 'lessThanOrEqual', formulae: [20] });
      // exceljs reads a rule into each of its cells: the last cell has it too
      expect(model['G50']).toEqual(model['G2']);
      expect(model['G2']).toMatchObject({ type: 'custom', formulae: ['COUNTIF($G$2:$G$50,G2)=1'], error: 'No duplicates.' });

      const imported = await importAndWait(svc, { fileId: 'dv-back', type: 'spreadsheet' }, { name: 'dv-out.xlsx', data: new Uint8Array(bytes) });
      expect(imported.status, imported.text).toBe(200);
      expect(await rulesOf('dv-back')).toEqual(before);
      // the imported rules refuse as the exported ones did
      expect((await svc.call('POST', VALUES('dv-back'), { body: { range: 'C5', resource: { values: [[11]] } } })).body.status).toBe(128400);
    });

    it.skipIf(!saved)('imports the rules of workbooks saved by Excel (skipped without the fetched workbooks)', { timeout: 120_000 }, async () => {
      const imports: Record<string, Array<Record<string, unknown>>> = {};
      for (const name of ['data_validation01.xlsx', 'data_validation03.xlsx', 'data_validation07.xlsx', 'data_validation08.xlsx']) {
        const fileId = name.replace('.xlsx', '').replace('_', '-');
        const imported = await importAndWait(svc, { fileId, type: 'spreadsheet' }, { name, data: fixture(name) });
        expect(imported.status, imported.text).toBe(200);
        imports[name] = await rulesOf(fileId);
      }
      expect(imports['data_validation01.xlsx']).toEqual([{ type: 'list', values: ['Foo', 'Bar', 'Baz'], allowBlank: true, showDropdown: true, errorStyle: 'stop', ranges: ['C2'] }]);
      const [short, long] = imports['data_validation03.xlsx']!;
      expect(short).toMatchObject({ ranges: ['C2'], promptTitle: 'This is the input title', prompt: 'This is the input message' });
      expect(long).toMatchObject({ ranges: ['D6'], promptTitle: 'This is the longest input title1' });
      expect((long!.prompt as string).length).toBe(255);
      expect((long!.values as string[]).length).toBe(37);
      expect(imports['data_validation07.xlsx']![0]).toMatchObject({ values: ['coffee', 'café'] });
      // a rule of any value with only an input message is not kept (the model has no such rule)
      expect(imports['data_validation08.xlsx']).toEqual([]);
    });

    it.skipIf(!saved)('checks the values of a workbook of every kind of rule as Excel does (skipped without the fetched workbooks)', { timeout: 120_000 }, async () => {
      const name = 'DataValidationEvaluations.xlsx';
      const imported = await importAndWait(svc, { fileId: 'dv-poi', type: 'spreadsheet' }, { name, data: fixture(name) });
      expect(imported.status, imported.text).toBe(200);
      const doc = await svc.services.content.read(svc.app.id, 'dv-poi');
      const sheet = sheetModels(doc)[0]!;
      const workbook = calculationOf(doc);
      const context = workbookContext(workbook, sheetIds(doc)[0]!);
      const rules = validationsOf(sheet);
      // two time rules are not in the model: 15 of the 17 rules come in
      expect(rules.length).toBe(15);
      const disagreements: string[] = [];
      let checked = 0;
      for (let row = 2; row < 35; row++) {
        const rule = validationAt(rules, row, 1);
        if (!rule) continue;
        const value = workbook.value(sheetIds(doc)[0]!, row, 1) as CellValue;
        const expected = workbook.value(sheetIds(doc)[0]!, row, 2);
        checked++;
        if (passesValidation(rule, value, row, 1, context) !== expected) disagreements.push(`${row + 1}: ${String(workbook.value(sheetIds(doc)[0]!, row, 0))}`);
      }
      expect(checked).toBeGreaterThanOrEqual(28);
      expect(disagreements).toEqual([]);
    });
  });
}
