import { ProtocolError } from '../../sdk/protocol.js';
import { BridgeError, type EditorMethod } from '../shared/bridge.js';
import { rangeText, resolveA1, type SpreadsheetEditor } from './editor.js';
import { formatDelimited } from '../../src/model/sheets/delimited.js';
import { findCells, matchAddress, type SearchOptions } from './search.js';
import type { ShownValue } from './values.js';
import { WorkbookError, type Sheet } from './workbook.js';

/** Most cells one getRangeValues or setContent call may carry (the frame's messages are copied whole). */
export const MAX_SDK_CELLS = 1_000_000;

/** A value as the SDK answers it: what the cell shows (numbers and booleans as such, errors as their code). */
function answerOf(shown: ShownValue): string | number | boolean {
  return shown.kind === 'error' ? String(shown.value) : shown.value;
}

function invalid(message: string): BridgeError {
  return new BridgeError(ProtocolError.invalidArguments, message);
}

/**
 * The spreadsheet's SDK methods (browser-sdk.md, spreadsheet; shapes in docs/BROWSER.md "Spreadsheet"). Cells
 * and ranges are A1 text (`B2`, `A1:C3`, `Sheet2!A1:C3`); without a sheet name they are on the active sheet.
 */
export function spreadsheetMethods(editor: SpreadsheetEditor): Record<string, EditorMethod> {
  const { workbook } = editor;
  // every method answers computed values, also when called before the editor computed them itself
  const computed = (method: EditorMethod): EditorMethod => (...args) => {
    editor.values.compute();
    return method(...args);
  };

  const sheetArgument = (sheetId: unknown): Sheet => {
    if (sheetId === undefined || sheetId === null) return editor.sheet;
    if (typeof sheetId !== 'string') throw invalid('sheetId must be a string');
    const sheet = workbook.byId(sheetId);
    if (!sheet) throw invalid(`no sheet with id ${sheetId}`);
    return sheet;
  };

  const rangeArgument = (range: unknown, what: string) => {
    if (typeof range !== 'string') throw invalid(`${what} must be an A1 reference such as "B2" or "Sheet1!A1:C3"`);
    const resolved = resolveA1(workbook, editor.sheet, range);
    if (!resolved) throw invalid(`${what} "${range}" is not a range of this spreadsheet`);
    return resolved;
  };

  const valuesOf = (sheet: Sheet, top: number, left: number, bottom: number, right: number) => {
    const rows: Array<Array<string | number | boolean>> = [];
    for (let row = top; row <= bottom; row++) {
      const line: Array<string | number | boolean> = [];
      for (let column = left; column <= right; column++) line.push(answerOf(editor.values.shown(sheet, row, column)));
      rows.push(line);
    }
    return rows;
  };

  return {
    ...editor.locks.methods((range) => resolveA1(workbook, editor.sheet, range), sheetArgument),
    getSheetList: () => workbook.list().map((sheet, index) => ({ sheetId: workbook.idOf(sheet), name: workbook.nameOf(sheet), index })),
    getSheetIds: () => workbook.list().map((sheet) => workbook.idOf(sheet)),
    getActiveSheetId: () => editor.activeSheetId,
    setActiveSheet: (sheet) => {
      const target = typeof sheet === 'string' ? (workbook.byId(sheet) ?? workbook.byName(sheet)) : typeof sheet === 'number' ? workbook.list()[sheet] : undefined;
      if (!target) throw invalid(`no sheet ${String(sheet)} (give a sheet id, name or index)`);
      editor.activate(target);
      return { sheetId: editor.activeSheetId };
    },
    getCellValue: computed((cell) => {
      const { sheet, range } = rangeArgument(cell, 'cell');
      return answerOf(editor.values.shown(sheet, range.top, range.left));
    }),
    getRangeValues: computed((range) => {
      const { sheet, range: area } = rangeArgument(range, 'range');
      // whole columns or rows stop at the sheet's data, as the values API trims them
      const used = editor.usedRange(sheet);
      const bottom = Math.min(area.bottom, Math.max(area.top, used.bottom));
      const right = Math.min(area.right, Math.max(area.left, used.right));
      if ((bottom - area.top + 1) * (right - area.left + 1) > MAX_SDK_CELLS) throw invalid(`more than ${MAX_SDK_CELLS} cells in one call: read in parts`);
      return valuesOf(sheet, area.top, area.left, bottom, right);
    }),
    setContent: (range, content) => {
      if (!editor.isEditable) throw invalid('this user may not edit the spreadsheet');
      const { sheet, range: area } = rangeArgument(range, 'range');
      const block = Array.isArray(content) ? content : [[content]];
      if (!block.every((line) => Array.isArray(line) && line.every((value) => value === null || ['string', 'number', 'boolean'].includes(typeof value)))) {
        throw invalid('content must be a value or rows of values (strings, numbers, booleans or null)');
      }
      const text = (block as unknown[][]).map((line) =>
        line.map((value) => (value === null ? '' : typeof value === 'boolean' ? (value ? 'TRUE' : 'FALSE') : String(value))),
      );
      if (text.reduce((cells, line) => cells + line.length, 0) > MAX_SDK_CELLS) throw invalid(`more than ${MAX_SDK_CELLS} cells in one call: write in parts`);
      try {
        workbook.setBlock(sheet, area.top, area.left, text);
      } catch (error) {
        throw error instanceof WorkbookError ? invalid(error.message) : error;
      }
      const width = text.reduce((widest, line) => Math.max(widest, line.length), 0);
      return {
        sheetId: workbook.idOf(sheet),
        updatedRange: rangeText({ top: area.top, left: area.left, bottom: area.top + Math.max(0, text.length - 1), right: area.left + Math.max(0, width - 1) }),
      };
    },
    getRowCount: (sheetId) => workbook.rowCount(sheetArgument(sheetId)),
    getColumnCount: (sheetId) => workbook.columnCount(sheetArgument(sheetId)),
    locateCell: (cell) => {
      if (typeof cell !== 'string') throw invalid('cell must be an A1 reference such as "B2"');
      const located = editor.locate(cell);
      if (!located) throw invalid(`"${cell}" is not a range of this spreadsheet`);
      return located;
    },
    search: (query, options) => {
      if (typeof query !== 'string' || query === '') throw invalid('search needs the text to find (a non-empty string)');
      const flags = (options ?? {}) as SearchOptions;
      if (typeof flags !== 'object' || Array.isArray(flags)) throw invalid('options must be an object such as {matchCase: true, wholeCell: true}');
      const matches = findCells(editor, query, { matchCase: flags.matchCase === true, wholeCell: flags.wholeCell === true });
      const first = matches[0];
      if (first) editor.locate(matchAddress(editor, first));
      return matches.map((match) => ({ sheetId: match.sheetId, range: rangeText({ top: match.row, left: match.column, bottom: match.row, right: match.column }) }));
    },
    getSelections: () => [{ sheetId: editor.activeSheetId, range: rangeText(editor.grid.selectedRange) }],
    exportCsv: computed((sheetId) => {
      const sheet = sheetArgument(sheetId);
      const used = editor.usedRange(sheet);
      if (sheet.cellCount === 0) return '';
      const rows: string[][] = [];
      for (let row = 0; row <= used.bottom; row++) {
        const fields: string[] = [];
        for (let column = 0; column <= used.right; column++) fields.push(editor.values.shown(sheet, row, column).text);
        rows.push(fields);
      }
      return formatDelimited(rows, ',', '\r\n');
    }),
  };
}
