import { Readable } from 'node:stream';
import { createRequire } from 'node:module';
import ExcelJS from 'exceljs';
import { ConversionError, type FormatReader, type ReadCell, type ReadSheet } from '../conversion.js';
import { readZipTexts } from '../zip-guard.js';
import { serialOfEpochMs } from './serial-dates.js';

// exceljs translates a shared formula to each cell of its range with this helper; its stream reader does not.
const { slideFormula } = createRequire(import.meta.url)('exceljs/lib/utils/shared-formula.js') as {
  slideFormula(formula: string, fromCell: string, toCell: string): string;
};

/** Chunk size of the stream the reader consumes: progress moves with the bytes read. */
const CHUNK = 64 * 1024;

type CellValue = ExcelJS.CellValue;

/** An exceljs value as a cell of the model: formulas keep their text, dates become serial numbers. */
function toCell(value: CellValue, address: string, masters: Map<string, string>): ReadCell | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'number' || typeof value === 'boolean') return { v: value };
  if (typeof value === 'string') return value === '' ? undefined : { v: value };
  if (value instanceof Date) return { v: serialOfEpochMs(value.getTime()), date: true };
  if ('formula' in value && typeof value.formula === 'string') {
    masters.set(address, value.formula);
    return { f: `=${value.formula}` };
  }
  if ('sharedFormula' in value && typeof value.sharedFormula === 'string') {
    const master = masters.get(value.sharedFormula);
    if (master !== undefined) return { f: `=${slideFormula(master, value.sharedFormula, address)}` };
    return toCell((value as { result?: CellValue }).result ?? null, address, masters);
  }
  if ('richText' in value && Array.isArray(value.richText)) return { v: value.richText.map((run) => run.text).join('') };
  if ('text' in value && typeof value.text === 'string') return { v: value.text };
  if ('error' in value) return { v: String(value.error) };
  return undefined;
}

function xmlText(value: string): string {
  return value.replace(/&(lt|gt|quot|apos|amp);/g, (_, name: string) => ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' })[name]!);
}

/**
 * The workbook's sheets in their order, by worksheet part number (xl/worksheets/sheetN.xml → N), read from
 * workbook.xml and its relationships. exceljs' stream reader names a sheet only when workbook.xml came before it
 * in the zip, which the format does not promise (exceljs' own writer sometimes puts it after).
 */
async function workbookParts(bytes: Buffer): Promise<{ sheets: Array<{ part: string; name: string }>; date1904: boolean }> {
  const texts = await readZipTexts(bytes, ['xl/workbook.xml', 'xl/_rels/workbook.xml.rels']);
  const targets = new Map<string, string>();
  for (const match of (texts.get('xl/_rels/workbook.xml.rels') ?? '').matchAll(/<Relationship\b[^>]*>/g)) {
    const id = /\bId="([^"]*)"/.exec(match[0])?.[1];
    const part = /\bTarget="[^"]*worksheets\/sheet(\d+)\.xml"/.exec(match[0])?.[1];
    if (id && part) targets.set(id, part);
  }
  const sheets: Array<{ part: string; name: string }> = [];
  for (const match of (texts.get('xl/workbook.xml') ?? '').matchAll(/<(?:\w+:)?sheet\b[^>]*>/g)) {
    const name = /\bname="([^"]*)"/.exec(match[0])?.[1];
    const rel = /\br:id="([^"]*)"/.exec(match[0])?.[1];
    const part = rel ? targets.get(rel) : undefined;
    if (name !== undefined && part) sheets.push({ part, name: xmlText(name) });
  }
  const date1904 = /<(?:\w+:)?workbookPr\b[^>]*\bdate1904="(1|true)"/.test(texts.get('xl/workbook.xml') ?? '');
  return { sheets, date1904 };
}

/**
 * Excel workbooks (xlsx, xlsm; macros are not kept): every sheet, values, formulas (their text; the service
 * computes them), dates as serial numbers. Read as a stream (exceljs WorkbookReader), so memory follows the
 * content, not the XML; progress is the share of the file's bytes read.
 */
export const xlsx: FormatReader = {
  extensions: ['xlsx', 'xlsm'],
  zip: true,
  async read(bytes, report) {
    let consumed = 0;
    const input = Readable.from(
      (function* chunks() {
        for (let at = 0; at < bytes.length; at += CHUNK) {
          consumed = Math.min(bytes.length, at + CHUNK);
          report((0.95 * consumed) / bytes.length);
          yield bytes.subarray(at, at + CHUNK);
        }
      })(),
    );
    const { sheets: order, date1904 } = await workbookParts(bytes);
    const reader = new ExcelJS.stream.xlsx.WorkbookReader(input, { sharedStrings: 'cache', styles: 'cache', hyperlinks: 'ignore', worksheets: 'emit', entries: 'emit' });
    // A worksheet arriving before workbook.xml would make exceljs read the sheet list and date system of a workbook
    // it has not parsed yet: give it both from the parts read above (its own parse replaces them later).
    Object.assign(reader, { model: { sheets: [] }, properties: { model: { date1904 } } });
    let part = '';
    (reader as unknown as NodeJS.EventEmitter).on('entry', (entry: { type: string; id?: string }) => {
      if (entry.type === 'worksheet' && entry.id !== undefined) part = entry.id;
    });
    const sheets: Array<ReadSheet & { position: number }> = [];
    try {
      for await (const worksheet of reader) {
        const sheetReader = worksheet as unknown as AsyncIterable<ExcelJS.Row>;
        const position = order.findIndex((entry) => entry.part === part);
        const sheet = { name: order[position]?.name ?? `Sheet${part}`, rows: [] as ReadSheet['rows'], position: position < 0 ? order.length + Number(part) : position };
        const masters = new Map<string, string>();
        for await (const row of sheetReader) {
          const cells: Array<ReadCell | undefined> = [];
          row.eachCell({ includeEmpty: false }, (cell, column) => {
            cells[column - 1] = toCell(cell.value, cell.address, masters);
          });
          sheet.rows[row.number - 1] = cells;
        }
        for (let index = 0; index < sheet.rows.length; index++) sheet.rows[index] ??= [];
        sheets.push(sheet);
      }
    } catch (error) {
      if (error instanceof ConversionError) throw error;
      throw new ConversionError('importCorrupt', `the file is not a readable xlsx workbook (${error instanceof Error ? error.message.slice(0, 200) : 'unreadable'})`);
    }
    if (sheets.length === 0) throw new ConversionError('importCorrupt', 'the workbook has no worksheet');
    report(1);
    sheets.sort((a, b) => a.position - b.position);
    return { shape: 'workbook', sheets: sheets.map(({ name, rows }) => ({ name, rows })) };
  },
};
