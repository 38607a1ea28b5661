import { describe, expect, it } from 'vitest';
import { docFromState, initialContent } from '../../src/model/content.js';
import { Workbook } from '../../web/spreadsheet/workbook.js';

/**
 * The spreadsheet editor's workbook keeps what a batch of drawn cells reads (web/spreadsheet/workbook.ts
 * `keepingReads`): each cell is read from the sheet model once per batch, and a change meanwhile is never hidden.
 */
describe('Workbook.keepingReads', () => {
  it('reads each cell once while it runs, and again once it returned', () => {
    const workbook = new Workbook(docFromState(initialContent('spreadsheet')), { editor: 'test' });
    const sheet = workbook.list()[0]!;
    workbook.setInput(sheet, 0, 0, '12');
    let modelReads = 0;
    const read = sheet.cell.bind(sheet);
    sheet.cell = (row, column) => {
      modelReads++;
      return read(row, column);
    };
    workbook.keepingReads(() => {
      // as drawing reads it: the cell's value, its style, and its style again as the neighbour's
      expect(workbook.cell(sheet, 0, 0)).toEqual({ v: 12 });
      expect(workbook.style(sheet, 0, 0)).toBeUndefined();
      expect(workbook.style(sheet, 0, 0)).toBeUndefined();
      expect(workbook.cell(sheet, 1, 0)).toBeUndefined();
      expect(workbook.cell(sheet, 1, 0)).toBeUndefined();
      expect(workbook.list()).toBe(workbook.list());
    });
    expect(modelReads).toBe(2);
    expect(workbook.cell(sheet, 0, 0)).toEqual({ v: 12 });
    expect(modelReads).toBe(3);
  });

  it('a change while reads are kept is read (a transaction forgets what was kept)', () => {
    const workbook = new Workbook(docFromState(initialContent('spreadsheet')), { editor: 'test' });
    const sheet = workbook.list()[0]!;
    workbook.setInput(sheet, 0, 0, 'before');
    workbook.keepingReads(() => {
      expect(workbook.cell(sheet, 0, 0)).toEqual({ v: 'before' });
      workbook.setInput(sheet, 0, 0, 'after');
      expect(workbook.cell(sheet, 0, 0)).toEqual({ v: 'after' });
      const listed = workbook.list().length;
      workbook.addSheet('Added');
      expect(workbook.list()).toHaveLength(listed + 1);
    });
  });
});
