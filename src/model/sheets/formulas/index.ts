/**
 * The formula engine, shared by the spreadsheet editor (browser) and the server (values API, plain text).
 * Pure TypeScript: no Node or DOM imports. docs/SHEETS.md "Formulas" describes the language and errors.
 *
 * Two ways to use it:
 *
 * 1. On a spreadsheet Y.Doc of the content model (what the editor and the server do):
 *
 *    const calculation = new SpreadsheetCalculation(doc);        // builds every sheet, follows the doc
 *    // after Yjs transactions (local or remote):
 *    const changed = calculation.flush();                         // CellAddress[] to redraw, or 'all'
 *    calculation.workbook.displayValue(sheetId, row, column);     // 42, "text", true, "#DIV/0!", ""
 *    calculation.destroy();                                       // stop observing
 *
 *    `sheetId` is the sheet's `id` field (`sheetIds(doc)[index]` of ../sheet-model.ts: unique even if a copy repeats an id).
 *    `calculationOf(doc)` gives one calculation per document, made on first use and brought up to date
 *    (document changes, TODAY/NOW) on every call. Computed values are never written to the document:
 *    every reader computes them with this engine.
 *
 * 2. Directly, from cell inputs:
 *
 *    const workbook = new Workbook([{ id: 's1', name: 'Sheet1', cells: [[0, 0, 2], [0, 1, '=A1*2']] }]);
 *    workbook.value('s1', 0, 1);                  // 4
 *    workbook.setCell('s1', 0, 0, 5);             // recomputes B1 → [{sheetId, row: 0, column: 0}, {… column: 1}]
 *    workbook.addSheet / renameSheet / removeSheet / recalculateVolatile (TODAY, NOW; RAND, INDIRECT and OFFSET
 *    recompute after every change by themselves)
 *
 * Rows and columns inserted or deleted move references: `shiftFormula` rewrites one formula's text
 * (deleted cells become #REF!); the caller rewrites the stored formulas, the engine then follows the doc.
 * `parseFormula` / `formatFormula` give the syntax tree (never throws; a failure is refused where typed, docs/FORMULAS.md).
 */
export { calculationBytes, calculationOf, cellInput, SpreadsheetCalculation } from './yjs.js';
export { isFormulaInput, Workbook, type CellAddress, type CellChange, type CellInput, type SheetSpec, type WorkbookOptions } from './workbook.js';
export { shiftFormula, shiftRange, type StructureEdit } from './shift.js';
export { formatFormula, MAX_FORMULA_DEPTH, MAX_FORMULA_LENGTH, MAX_FORMULA_NESTING, parseFormula, type Ast, type CellReference, type ParseResult, type RangeReference } from './parser.js';
export { ERROR_CODES, FormulaError, toDisplay, type CellValue, type DisplayValue, type ErrorCode } from './values.js';
export { FUNCTIONS } from './functions.js';
