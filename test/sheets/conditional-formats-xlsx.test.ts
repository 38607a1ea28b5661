import { readFileSync } from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addConditionalRule, conditionalRulesOf, type ConditionalCondition, type ConditionalRule } from '../../src/model/sheets/conditional-formats.js';
import { sheetModels } from '../../src/model/sheets/sheet-model.js';
import { testDatabases } from '../support/databases.js';
import { startService, type TestService } from '../support/service.js';
import { holdsFilesEnding, outsideDataDirectory } from '../../scripts/outside-data.js';
import { author, exportFile, workbookOf } from '../export/support.js';
import { importAndWait } from '../import/support.js';

/**
 * Conditional formats through xlsx (docs/SHEETS.md "Conditional formatting"): every rule of the model exported and
 * read back by exceljs and by the import; a workbook built with exceljs imported; workbooks saved by Excel
 * (test/fixtures/xlsx-condformat/README.md) imported with their rules and looks.
 */

const excelSaved = outsideDataDirectory('xlsx-condformat', (directory) => holdsFilesEnding(directory, '.xlsx'));
const fixture = (name: string) => new Uint8Array(readFileSync(path.join(excelSaved!, name)));

const RED = { fill: '#ffc7ce', color: '#9c0006' };
/** One rule of each kind the model holds, each over its own area (two areas for the duplicates). */
const RULES: Array<[ConditionalCondition, string]> = [
  [{ type: 'cellValue', op: 'gt', value: 100, format: { fill: '#ff0000' } }, 'A1:A10'],
  [{ type: 'cellValue', op: 'between', value: 5, value2: 10, format: { bold: true, italic: true } }, 'B1:B10'],
  [{ type: 'cellValue', op: 'eq', value: 'Done "now"', format: { color: '#006100' } }, 'C1:C10'],
  [{ type: 'text', op: 'contains', text: 'late', format: RED }, 'D1:D10'],
  [{ type: 'text', op: 'notContains', text: 'ok', format: RED }, 'E1:E10'],
  [{ type: 'text', op: 'beginsWith', text: 'Q', format: RED }, 'F1:F10'],
  [{ type: 'topBottom', bottom: false, percent: false, rank: 3, format: RED }, 'G1:G10'],
  [{ type: 'topBottom', bottom: true, percent: true, rank: 20, format: RED }, 'H1:H10'],
  [{ type: 'average', below: true, format: RED }, 'I1:I10'],
  [{ type: 'duplicates', unique: false, format: RED }, 'J1:J10 L1:L10'],
  [{ type: 'duplicates', unique: true, format: { fill: '#c6efce' } }, 'K1:K10'],
  [{ type: 'colorScale', points: [{ kind: 'min', color: '#f8696b' }, { kind: 'percentile', value: 50, color: '#ffeb84' }, { kind: 'max', color: '#63be7b' }] }, 'M1:M10'],
  [{ type: 'colorScale', points: [{ kind: 'number', value: 0, color: '#ffffff' }, { kind: 'percent', value: 90, color: '#63be7b' }] }, 'N1:N10'],
  [{ type: 'dataBar', color: '#638ec6', min: { kind: 'min' }, max: { kind: 'max' } }, 'O1:O10'],
];

const areasOf = (ref: string) =>
  ref.split(' ').map((part) => {
    const [from, to] = part.split(':') as [string, string];
    const column = (cell: string) => cell.charCodeAt(0) - 65;
    const row = (cell: string) => Number(cell.slice(1)) - 1;
    return { startRow: row(from), endRow: row(to), startColumn: column(from), endColumn: column(to) };
  });

/** A rule without what a file does not keep (its id; its priority as a rank). */
const comparable = (rules: ConditionalRule[]) => rules.map(({ id: _id, priority: _priority, ...rest }) => rest);

describe('conditional formats through xlsx (import runs a converter: one database is enough)', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startService(testDatabases()[0]!, { integrator: true });
  });
  afterAll(async () => svc.close());

  it('exports every kind of rule as Excel writes it, and imports the export back to the same rules in the same order', { timeout: 120_000 }, async () => {
    expect((await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'spreadsheet', fileId: 'cf-out' } })).status).toBe(200);
    await svc.services.content.change(svc.app.id, 'cf-out', author, (doc) => {
      const sheet = sheetModels(doc)[0]!;
      sheet.setCell(0, 0, { v: 150 });
      // added last applies first: add them backwards so the sheet's order is RULES' order
      for (const [condition, ref] of [...RULES].reverse()) expect(addConditionalRule(sheet, condition, areasOf(ref))).toBeDefined();
    });
    const stored = conditionalRulesOf(sheetModels(await svc.services.content.read(svc.app.id, 'cf-out'))[0]!);
    expect(stored.map((rule) => rule.type)).toEqual(RULES.map(([condition]) => condition.type));

    const { bytes } = await exportFile(svc, 'cf-out', 'xlsx');
    // exceljs reads the blocks into the worksheet's model, which its typings do not declare
    const written = ((await workbookOf(bytes)).getWorksheet('Sheet1')! as unknown as { conditionalFormattings: ExcelJS.ConditionalFormattingOptions[] }).conditionalFormattings;
    expect(written.map((block) => block.ref)).toEqual(RULES.map(([, ref]) => ref));
    const rules = written.map((block) => block.rules[0]!) as unknown as Array<Record<string, unknown>>;
    expect(rules.map((rule) => rule.priority)).toEqual(RULES.map((_, index) => index + 1));
    expect(rules[0]).toMatchObject({ type: 'cellIs', operator: 'greaterThan', formulae: ['100'], style: { fill: { bgColor: { argb: 'FFFF0000' } } } });
    expect(rules[1]).toMatchObject({ type: 'cellIs', operator: 'between', formulae: ['5', '10'], style: { font: { bold: true, italic: true } } });
    expect(rules[2]).toMatchObject({ type: 'cellIs', operator: 'equal', formulae: ['"Done ""now"""'] });
    expect(rules[3]).toMatchObject({ type: 'containsText', operator: 'containsText', formulae: ['NOT(ISERROR(SEARCH("late",D1)))'] });
    expect(rules[4]).toMatchObject({ type: 'expression', formulae: ['ISERROR(SEARCH("ok",E1))'] });
    expect(rules[6]).toMatchObject({ type: 'top10', rank: 3 });
    expect(rules[7]).toMatchObject({ type: 'top10', rank: 20, percent: true, bottom: true });
    expect(rules[8]).toMatchObject({ type: 'aboveAverage', aboveAverage: false });
    expect(rules[9]).toMatchObject({ type: 'expression', formulae: ['COUNTIF($J$1:$J$10,J1)+COUNTIF($L$1:$L$10,J1)>1'] });
    expect(rules[11]).toMatchObject({ type: 'colorScale', cfvo: [{ type: 'min' }, { type: 'percentile', value: 50 }, { type: 'max' }], color: [{ argb: 'FFF8696B' }, { argb: 'FFFFEB84' }, { argb: 'FF63BE7B' }] });
    expect(rules[13]).toMatchObject({ type: 'dataBar', cfvo: [{ type: 'min' }, { type: 'max' }], color: { argb: 'FF638EC6' } });

    const imported = await importAndWait(svc, { fileId: 'cf-back', type: 'spreadsheet' }, { name: 'cf.xlsx', data: new Uint8Array(bytes) });
    expect(imported.status, imported.text).toBe(200);
    const back = conditionalRulesOf(sheetModels(await svc.services.content.read(svc.app.id, 'cf-back'))[0]!);
    expect(comparable(back)).toEqual(comparable(stored));
  });

  it('imports a workbook built with exceljs: its rules, looks and areas; rules the model cannot say are left out', { timeout: 120_000 }, async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Scores');
    sheet.getCell('A1').value = 10;
    sheet.addConditionalFormatting({ ref: 'A1:A20', rules: [{ type: 'cellIs', operator: 'lessThan', formulae: [50], style: { font: { color: { argb: 'FFC00000' }, bold: true } }, priority: 2 }] });
    sheet.addConditionalFormatting({ ref: 'B2:C9', rules: [{ type: 'top10', rank: 5, percent: false, bottom: false, style: { fill: { type: 'pattern', pattern: 'solid', bgColor: { argb: 'FFFFEB9C' } } }, priority: 1 }] });
    // a reference as operand, and an icon set: not in the model
    sheet.addConditionalFormatting({ ref: 'D1:D5', rules: [{ type: 'cellIs', operator: 'greaterThan', formulae: ['$E$1'], style: { font: { bold: true } }, priority: 3 }] });
    sheet.addConditionalFormatting({ ref: 'E1:E5', rules: [{ type: 'iconSet', iconSet: '3Arrows', cfvo: [{ type: 'percent', value: 0 }, { type: 'percent', value: 33 }, { type: 'percent', value: 67 }], priority: 4 } as ExcelJS.ConditionalFormattingRule] });
    sheet.addConditionalFormatting({ ref: 'F1:F5', rules: [{ type: 'colorScale', cfvo: [{ type: 'min' }, { type: 'max' }], color: [{ argb: 'FFFFFFFF' }, { argb: 'FF5A8AC6' }], priority: 5 }] });
    const bytes = new Uint8Array(await workbook.xlsx.writeBuffer());
    const imported = await importAndWait(svc, { fileId: 'cf-built', type: 'spreadsheet' }, { name: 'built.xlsx', data: bytes });
    expect(imported.status, imported.text).toBe(200);
    const rules = conditionalRulesOf(sheetModels(await svc.services.content.read(svc.app.id, 'cf-built'))[0]!);
    expect(comparable(rules)).toEqual([
      { type: 'topBottom', bottom: false, percent: false, rank: 5, format: { fill: '#ffeb9c' }, ranges: areasOf('B2:C9') },
      { type: 'cellValue', op: 'lt', value: 50, format: { color: '#c00000', bold: true }, ranges: areasOf('A1:A20') },
      { type: 'colorScale', points: [{ kind: 'min', color: '#ffffff' }, { kind: 'max', color: '#5a8ac6' }], ranges: areasOf('F1:F5') },
    ]);
  });

  it.skipIf(!excelSaved)('imports the rules of workbooks saved by Excel with their looks, areas and order (skipped without the fetched workbooks)', { timeout: 120_000 }, async () => {
    const rulesOf = async (name: string) => {
      const fileId = name.replace('.xlsx', '');
      const imported = await importAndWait(svc, { fileId, type: 'spreadsheet' }, { name, data: fixture(name) });
      expect(imported.status, imported.text).toBe(200);
      return comparable(conditionalRulesOf(sheetModels(await svc.services.content.read(svc.app.id, fileId))[0]!));
    };
    expect(await rulesOf('cond_format01.xlsx')).toEqual([{ type: 'cellValue', op: 'gt', value: 5, format: { fill: '#ffc7ce', color: '#9c0006' }, ranges: areasOf('A1:A1') }]);
    expect(await rulesOf('cond_format07.xlsx')).toEqual([
      { type: 'cellValue', op: 'ge', value: 50, format: { fill: '#ff0000' }, ranges: areasOf('A1:J10') },
      { type: 'cellValue', op: 'lt', value: 50, format: { fill: '#92d050' }, ranges: areasOf('A1:J10') },
    ]);
    expect(await rulesOf('cond_format10.xlsx')).toEqual([{ type: 'cellValue', op: 'gt', value: 20, format: { bold: true, italic: true }, ranges: areasOf('B3:B6') }]);
    expect((await rulesOf('cond_format13.xlsx')).map((rule) => rule.ranges)).toEqual([areasOf('A4:A4'), areasOf('A1:A1')]);
    // an icon set is not in the model
    expect(await rulesOf('cond_format17.xlsx')).toEqual([]);
  });
});
