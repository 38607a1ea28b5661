import crypto from 'node:crypto';
import type * as Y from 'yjs';
import { ApiError, Errors } from '../../errors.js';
import { columnLetters, formatA1, type A1Range } from '../../model/sheets/a1.js';
import type { CellInput } from '../../model/sheets/cells.js';
import {
  firstRefusal,
  parseValidationRule,
  setValidation,
  validationsOf,
  workbookContext,
  type SheetValidation,
} from '../../model/sheets/data-validation.js';
import { calculationOf } from '../../model/sheets/formulas/index.js';
import { sheetIds, sheetModels, type SheetModel } from '../../model/sheets/sheet-model.js';

/**
 * The values API's side of data validation (docs/SHEETS.md "Data validation"): refusing writes that break a `stop`
 * rule (all or nothing for the call), and reading and setting rules. The rules and their check are the model's
 * (src/model/sheets/data-validation.ts), the same the editor uses.
 */

/**
 * Refuses (128400) a write of `values` with its top-left cell at (row, column) when a value breaks a `stop` rule of
 * the sheet: called before anything is written. A formula is checked by the value it computes in its cell.
 */
export function refuseInvalidValues(doc: Y.Doc, sheet: SheetModel, row: number, column: number, values: readonly (readonly CellInput[])[]): void {
  refuseInvalidWrites(doc, sheet, function* () {
    for (let r = 0; r < values.length; r++) {
      const line = values[r]!;
      for (let c = 0; c < line.length; c++) yield { row: row + r, column: column + c, input: line[c] ?? null };
    }
  });
}

/** Refuses (128400, `data` naming the first cell) cells about to be written (`writes`) when one breaks a `stop` rule. */
export function refuseInvalidWrites(doc: Y.Doc, sheet: SheetModel, writes: () => Iterable<{ row: number; column: number; input: CellInput }>): void {
  const rules = validationsOf(sheet);
  if (rules.length === 0) return;
  const sheetId = sheetIds(doc)[sheetModels(doc).indexOf(sheet)]!;
  const refusal = firstRefusal(rules, writes(), workbookContext(calculationOf(doc), sheetId));
  if (!refusal) return;
  const cell = `${columnLetters(refusal.column)}${refusal.row + 1}`;
  const message = refusal.rule.errorMessage ?? 'the value does not match the data validation rule of the cell';
  throw new ApiError(Errors.dataValidationRefused, `${cell}: ${message}`, {
    sheetName: sheet.name,
    cell,
    row: refusal.row,
    column: refusal.column,
    ruleId: refusal.rule.id,
    ...(refusal.rule.errorTitle ? { errorTitle: refusal.rule.errorTitle } : {}),
    ...(refusal.rule.errorMessage ? { errorMessage: refusal.rule.errorMessage } : {}),
  });
}

/** A rule as the API answers it: its areas in A1 (without the sheet name), the rule's fields as stored. */
export interface ValidationView extends Omit<SheetValidation, 'areas'> {
  ranges: string[];
}

function viewOf(rule: SheetValidation): ValidationView {
  const { areas, ...rest } = rule;
  return { ...rest, ranges: areas.map((area) => formatA1({ sheetName: null, ...area })) };
}

/** The rules of a sheet. */
export function readValidations(sheet: SheetModel): { sheetName: string; rules: ValidationView[] } {
  return { sheetName: sheet.name, rules: validationsOf(sheet).map(viewOf) };
}

/**
 * Puts `rule` on `range` (null takes the rules off it), as the editor's dialog does: the range's cells leave the
 * rules they had. A rule that cannot be kept is refused (128401, the reason in the message), nothing changed.
 */
export function setValidationRule(sheet: SheetModel, range: A1Range, input: unknown): { range: string; rule: ValidationView | null } {
  const rule = input === null ? undefined : parseValidationRule(input);
  if (typeof rule === 'string') throw new ApiError(Errors.invalidDataValidation, `rule: ${rule}`, { reason: rule });
  const area = { startRow: range.startRow, endRow: range.endRow, startColumn: range.startColumn, endColumn: range.endColumn };
  const id = crypto.randomUUID();
  setValidation(sheet, area, rule, () => id);
  const stored = validationsOf(sheet).find((candidate) => candidate.id === id);
  return { range: formatA1({ ...area, sheetName: sheet.name }), rule: stored ? viewOf(stored) : null };
}
