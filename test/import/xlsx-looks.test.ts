import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { xlsx } from '../../src/domain/import/formats/xlsx.js';
import { tinted, WorkbookColours } from '../../src/domain/import/formats/xlsx-colours.js';
import { SpreadsheetEncoder } from '../../src/domain/import/spreadsheet-encoder.js';
import { joinParts } from '../../src/domain/import/conversion.js';
import { sourceFromState, type WorkbookSheet, type WorkbookSource } from '../../src/domain/export/source.js';
import { toXlsx } from '../../src/domain/export/converters/xlsx.js';

/**
 * An Excel workbook keeps its look on import (docs/IMPORT-EXPORT.md "Excel workbooks"): theme and indexed colours,
 * styled cells without a value, hidden rows, frozen panes. Fixtures are written by exceljs, whose theme is Office
 * 2007's (accent 1 #4F81BD, accent 2 #C0504D, accent 6 #F79646); the expected colours are the RGB Excel shows for
 * those swatches ("Lighter 80 %" and so on), with the tints as Excel writes them.
 */

/** Tints as Excel stores its swatches' percentages (a signed 16-bit fraction). */
const LIGHTER_80 = 0.7999816888943144;
const LIGHTER_40 = 0.3999755851924192;
const DARKER_25 = -0.249977111117893;
const DARKER_50 = -0.499984740745262;

async function imported(bytes: Uint8Array): Promise<WorkbookSource> {
  const encoder = new SpreadsheetEncoder();
  await xlsx.readWorkbook!(Buffer.from(bytes), encoder, () => undefined);
  return sourceFromState(joinParts(encoder.finish()), 'spreadsheet', 'looks') as WorkbookSource;
}

function cellAt(sheet: WorkbookSheet, row: number, column: number) {
  return sheet.cells.find((cell) => cell.row === row && cell.column === column);
}

async function written(book: ExcelJS.Workbook, change?: (zip: JSZip) => Promise<void>): Promise<Uint8Array> {
  const bytes = new Uint8Array(await book.xlsx.writeBuffer());
  if (!change) return bytes;
  const zip = await JSZip.loadAsync(bytes);
  await change(zip);
  return zip.generateAsync({ type: 'uint8array' });
}

const themeFill = (theme: number, tint?: number): ExcelJS.Fill => ({ type: 'pattern', pattern: 'solid', fgColor: { theme, ...(tint === undefined ? {} : { tint }) } as unknown as ExcelJS.Color });

describe('Excel colours', () => {
  it('tints a theme colour as Excel does (Windows integer HLS, luminance moved, truncated)', () => {
    const cases: Array<[string, number, string]> = [
      ['4F81BD', LIGHTER_80, 'dce6f1'],
      ['4F81BD', 0.5999938962981048, 'b8cce4'],
      ['4F81BD', LIGHTER_40, '95b3d7'],
      ['4F81BD', DARKER_25, '366092'],
      ['4F81BD', DARKER_50, '244062'],
      ['F79646', DARKER_25, 'e26b0a'],
      ['C0504D', LIGHTER_40, 'da9694'],
      ['5B9BD5', LIGHTER_80, 'ddebf7'],
      ['70AD47', 0.5999938962981048, 'c6e0b4'],
      ['FFFFFF', -0.1499984740745262, 'd9d9d9'],
      ['000000', 0.499984740745262, '808080'],
      // a tint that is no stored percentage is taken as it is
      ['DAB6BA', 0.7999, 'f8eff0'],
    ];
    for (const [rgb, tint, expected] of cases) expect(tinted(rgb, tint), `${rgb} ${tint}`).toBe(expected);
  });

  it('no tint is the colour itself, a full tint white or black, and a grey stays grey', () => {
    const hex = fc.integer({ min: 0, max: 0xffffff }).map((value) => value.toString(16).padStart(6, '0'));
    fc.assert(
      fc.property(hex, fc.double({ min: -1, max: 1, noNaN: true }), (rgb, tint) => {
        expect(tinted(rgb, 0)).toBe(rgb);
        expect(tinted(rgb, 1)).toBe('ffffff');
        expect(tinted(rgb, -1)).toBe('000000');
        const grey = rgb.slice(0, 2).repeat(3);
        const result = tinted(grey, tint);
        expect(result).toMatch(/^[0-9a-f]{6}$/);
        expect(result.slice(0, 2).repeat(3)).toBe(result);
      }),
    );
  });

  it('reads indexed colours from the default palette or the workbook\'s own, and theme colours only with a theme', () => {
    const defaults = WorkbookColours.of(undefined, '<styleSheet/>');
    expect([defaults.rgb({ indexed: 10 }), defaults.rgb({ indexed: 22 }), defaults.rgb({ indexed: 64 }), defaults.rgb({ theme: 4 })]).toEqual(['#ff0000', '#c0c0c0', undefined, undefined]);
    const own = WorkbookColours.of(undefined, '<styleSheet><colors><indexedColors><rgbColor rgb="FF123456"/><rgbColor rgb="FFABCDEF"/></indexedColors></colors></styleSheet>');
    expect([own.rgb({ indexed: 1 }), own.rgb({ indexed: 2 }), own.rgb({ argb: 'FF00FF00' })]).toEqual(['#abcdef', undefined, '#00ff00']);
  });
});

describe('xlsx import keeps the look', () => {
  it('theme and indexed colours of fills, fonts and borders, on cells with a value or without', async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Looks');
    sheet.getCell('A1').value = 'accent 1, lighter 80 %';
    sheet.getCell('A1').fill = themeFill(4, LIGHTER_80);
    sheet.getCell('A2').value = 'accent 6, darker 25 %';
    sheet.getCell('A2').font = { color: { theme: 9, tint: DARKER_25 } as unknown as ExcelJS.Color };
    sheet.getCell('A3').value = 3;
    sheet.getCell('A3').fill = { type: 'pattern', pattern: 'solid', fgColor: { indexed: 22 } as unknown as ExcelJS.Color };
    sheet.getCell('A3').border = { bottom: { style: 'thin', color: { indexed: 10 } as unknown as ExcelJS.Color }, top: { style: 'medium', color: { theme: 1 } as unknown as ExcelJS.Color } };
    // empty cells with a look: a fill, a border
    sheet.getCell('B1').fill = themeFill(5, LIGHTER_40);
    sheet.getCell('C5').border = { left: { style: 'double', color: { argb: 'FF00B050' } } };
    sheet.getCell('D1').value = { formula: 'COUNTA(B1:C5)', result: 0 };
    sheet.getCell('D2').value = { formula: 'ISBLANK(B1)', result: true };
    sheet.getCell('D3').value = { formula: 'B1&"|"', result: '|' };
    const [looks] = (await imported(await written(book))).sheets;
    expect(cellAt(looks!, 0, 0)).toMatchObject({ value: 'accent 1, lighter 80 %', style: { bg: '#dce6f1' } });
    expect(cellAt(looks!, 1, 0)?.style).toEqual({ c: '#e26b0a' });
    expect(cellAt(looks!, 2, 0)?.style).toEqual({ bg: '#c0c0c0', bb: { s: 'thin', c: '#ff0000' }, bt: { s: 'medium', c: '#000000' } });
    expect(cellAt(looks!, 0, 1)).toEqual({ row: 0, column: 1, value: null, style: { bg: '#da9694' } });
    expect(cellAt(looks!, 4, 2)).toEqual({ row: 4, column: 2, value: null, style: { bl: { s: 'double', c: '#00b050' } } });
    // the styled empty cells are empty to formulas
    expect([cellAt(looks!, 0, 3)?.value, cellAt(looks!, 1, 3)?.value, cellAt(looks!, 2, 3)?.value]).toEqual([0, true, '|']);
  });

  it('banded cells store each of the workbook\'s styles once per block (grid model 4) and read back with their own style each', async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Bands');
    const bands = [themeFill(4, LIGHTER_80), themeFill(4, LIGHTER_40)];
    for (let row = 1; row <= 1100; row++) {
      for (const column of [1, 2]) {
        const cell = sheet.getCell(row, column);
        if (column === 1) cell.value = row;
        cell.fill = bands[row % 2]!;
        cell.border = { bottom: { style: 'thin', color: { theme: 4 } as unknown as ExcelJS.Color } };
      }
    }
    const encoder = new SpreadsheetEncoder();
    await xlsx.readWorkbook!(Buffer.from(await written(book)), encoder, () => undefined);
    const state = joinParts(encoder.finish());
    // two columns × two blocks of rows, each naming the two bands' styles by index
    const text = Buffer.from(state).toString('latin1');
    expect(text.split('"bg":"#dce6f1"')).toHaveLength(5);
    expect(text.split('"bg":"#95b3d7"')).toHaveLength(5);
    const [bandsRead] = (sourceFromState(state, 'spreadsheet', 'bands') as WorkbookSource).sheets;
    const border = { bb: { s: 'thin', c: '#4f81bd' } };
    expect(cellAt(bandsRead!, 0, 0)).toEqual({ row: 0, column: 0, value: 1, style: { bg: '#95b3d7', ...border } });
    expect(cellAt(bandsRead!, 1099, 1)).toEqual({ row: 1099, column: 1, value: null, style: { bg: '#dce6f1', ...border } });
    expect(bandsRead!.cells.filter((cell) => cell.style?.bg === (cell.row % 2 === 0 ? '#95b3d7' : '#dce6f1'))).toHaveLength(2200);
  });

  it('a workbook without a theme part keeps its RGB colours and leaves theme colours out', async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Plain');
    sheet.getCell('A1').value = 'theme';
    sheet.getCell('A1').fill = themeFill(4);
    sheet.getCell('A2').value = 'rgb';
    sheet.getCell('A2').fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFFFCC00' } };
    const [plain] = (await imported(await written(book, async (zip) => void zip.remove('xl/theme/theme1.xml')))).sheets;
    expect(cellAt(plain!, 0, 0)?.style).toBeUndefined();
    expect(cellAt(plain!, 1, 0)?.style).toEqual({ bg: '#ffcc00' });
  });

  it('the workbook\'s own indexed palette', async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Palette');
    sheet.getCell('A1').value = 'own';
    sheet.getCell('A1').fill = { type: 'pattern', pattern: 'solid', fgColor: { indexed: 1 } as unknown as ExcelJS.Color };
    const palette = '<colors><indexedColors><rgbColor rgb="FF000000"/><rgbColor rgb="FF336699"/></indexedColors></colors>';
    const bytes = await written(book, async (zip) => {
      const styles = await zip.file('xl/styles.xml')!.async('string');
      zip.file('xl/styles.xml', styles.replace(/(<\/cellStyles>|<dxfs)/, (found) => (found === '</cellStyles>' ? `${found}${palette}` : `${palette}${found}`)));
    });
    const [own] = (await imported(bytes)).sheets;
    expect(cellAt(own!, 0, 0)?.style).toEqual({ bg: '#336699' });
  });

  it('hidden rows (a filter\'s own are the filter\'s), frozen panes of several rows, and they go out again', async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Rows', { views: [{ state: 'frozen', xSplit: 1, ySplit: 3 }] });
    for (let row = 1; row <= 8; row++) sheet.getRow(row).values = [`r${row}`, row];
    sheet.getRow(2).hidden = true;
    sheet.getRow(5).hidden = true;
    const filtered = book.addWorksheet('Filtered');
    for (let row = 1; row <= 5; row++) filtered.getRow(row).values = [row === 1 ? 'n' : row];
    filtered.autoFilter = 'A1:A5';
    filtered.getRow(3).hidden = true;
    book.addWorksheet('Columns', { views: [{ state: 'frozen', xSplit: 2, ySplit: 0 }] }).getCell('A1').value = 1;
    filtered.getCell('A7').value = 7;
    filtered.getRow(7).hidden = true;
    const bytes = await written(book, async (zip) => {
      // exceljs writes no filter criteria: a filter keeping values other than 3, as Excel writes it
      const xml = await zip.file('xl/worksheets/sheet2.xml')!.async('string');
      zip.file('xl/worksheets/sheet2.xml', xml.replace(/<autoFilter ref="A1:A5"\/>/, '<autoFilter ref="A1:A5"><filterColumn colId="0"><filters><filter val="2"/><filter val="4"/><filter val="5"/></filters></filterColumn></autoFilter>'));
    });
    const source = await imported(bytes);
    const [rows, filter, columns] = source.sheets;
    // frozen columns have no place in the model: a pane of columns alone freezes nothing
    expect([filter!.frozenRows, columns!.frozenRows]).toEqual([0, 0]);
    expect(rows!.hidden?.rows).toEqual([1, 4]);
    expect(rows!.frozenRows).toBe(3);
    // row 3 is the filter's to hide (it shows again once the filter is cleared); row 7, outside its area, was hidden by hand
    expect(filter!.filter?.hiddenRows).toEqual([2]);
    expect(filter!.hidden?.rows).toEqual([6]);
    const zip = await JSZip.loadAsync(await toXlsx(source, { step: () => undefined }));
    const xml = await zip.file('xl/worksheets/sheet1.xml')!.async('string');
    expect(xml).toMatch(/<pane [^>]*ySplit="3"[^>]*state="frozen"/);
    expect([...xml.matchAll(/<row r="(\d+)"[^>]*hidden="1"/g)].map((match) => match[1])).toEqual(['2', '5']);
  });

  it('the cells an array formula spills into keep their look, and their spilled values go out once', async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Spill');
    sheet.getColumn(1).values = [1, 2, 3];
    sheet.getCell('B1').value = { formula: 'A1:A3*2', result: 2, shareType: 'array', ref: 'B1:B3' } as unknown as ExcelJS.CellValue;
    for (const [address, value] of [['B2', 4], ['B3', 6]] as const) {
      sheet.getCell(address).value = value;
      sheet.getCell(address).fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFFFFF00' } };
      sheet.getCell(address).numFmt = '0.0';
    }
    const source = await imported(await written(book));
    const [spill] = source.sheets;
    expect(cellAt(spill!, 1, 1)).toMatchObject({ value: 4, format: '0.0', style: { bg: '#ffff00' } });
    expect(spill!.cells.filter((cell) => cell.row === 1 && cell.column === 1)).toHaveLength(1);
    const xml = await (await JSZip.loadAsync(await toXlsx(source, { step: () => undefined }))).file('xl/worksheets/sheet1.xml')!.async('string');
    expect(/<c r="B2"[^>]*>\s*<v>4<\/v>/.test(xml), xml).toBe(true);
  });

  it('a table import takes values only: a styled empty cell adds no column', async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Table');
    sheet.getRow(1).values = ['Name', 'Amount'];
    sheet.getRow(2).values = ['a', 1];
    sheet.getCell('E2').fill = themeFill(4);
    sheet.getCell('A3').fill = themeFill(5);
    const content = await xlsx.read(Buffer.from(await written(book)), () => undefined);
    expect(content.shape === 'workbook' && content.sheets[0]!.rows.map((row) => row.map((cell) => cell?.v))).toEqual([['Name', 'Amount'], ['a', 1], []]);
  });

  it('row heights and column widths written to 17 significant digits', async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Sizes');
    sheet.getCell('A1').value = 1;
    sheet.getRow(1).height = 20;
    sheet.getColumn(1).width = 12;
    const bytes = await written(book, async (zip) => {
      const xml = await zip.file('xl/worksheets/sheet1.xml')!.async('string');
      zip.file('xl/worksheets/sheet1.xml', xml.replace(/ht="20"/, 'ht="20.100000000000001"').replace(/width="12"/, 'width="12.142857142857142"'));
    });
    const [sizes] = (await imported(bytes)).sheets;
    expect(sizes!.rowHeights).toEqual({ 0: 27 });
    expect(sizes!.columnWidths).toEqual({ 0: 85 });
  });
});
