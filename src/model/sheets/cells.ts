import type { Cell } from '../content.js';
import { ownStyleOf, patchStyle, sameStyle, styleOf, type CellStyle, type StylePatch } from './cell-style.js';
import { GENERAL } from './number-format.js';

/**
 * Cell values as the values API sees them. Cells are the content model's (docs/CONTENT-MODEL.md): plain
 * JSON objects, `f` the formula text starting with "=", `v` a value; an empty cell is absent. A formula's
 * value is computed by the formula engine whenever it is read (src/model/sheets/formulas), never stored.
 */

/** What a client sends for one cell: a value, a formula ("=…"), or null / "" to clear the cell. */
export type CellInput = string | number | boolean | null;

/** Longest text of one cell, as in the common desktop format. */
export const MAX_CELL_TEXT = 32_767;

function isCell(value: unknown): value is Cell {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A cell is empty when it has no formula and no value (null and "" count as no value). */
export function isEmptyCell(value: unknown): boolean {
  if (!isCell(value)) return true;
  const hasFormula = typeof value.f === 'string' && value.f !== '';
  const hasValue = value.v !== undefined && value.v !== null && value.v !== '';
  return !hasFormula && !hasValue;
}

/** How a read shows formula cells: their computed value, or their text. */
export type ValueRender = 'value' | 'formula' | 'formatted';

/** Why an input value cannot be stored; undefined when it can. */
export function invalidInput(input: unknown): string | undefined {
  if (input === null || typeof input === 'boolean') return undefined;
  if (typeof input === 'number') return Number.isFinite(input) ? undefined : 'numbers must be finite';
  if (typeof input === 'string') {
    if (input.length > MAX_CELL_TEXT) return `text is at most ${MAX_CELL_TEXT} characters`;
    return undefined;
  }
  return 'a cell value must be a string, number, boolean or null';
}

/**
 * The stored cell for an input, or null to remove the cell. A string starting with "=" (and longer than
 * that) is a formula: only its text is stored. The number format and the style of the cell that was there
 * (`stored`) stay: they belong to the cell, not to its value, so typing into or clearing a formatted cell keeps them.
 */
export function toCell(input: CellInput, stored?: unknown): Cell | null {
  let cell: Cell | null = null;
  if (input !== null && input !== '') cell = typeof input === 'string' && input.length > 1 && input.startsWith('=') ? { f: input } : { v: input };
  const format = formatOf(stored);
  const style = ownStyleOf(stored);
  const image = imageOf(stored);
  if (format === undefined && style === undefined && image === undefined) return cell;
  const kept: Cell = { ...cell };
  if (format !== undefined) kept.z = format;
  if (style !== undefined) kept.s = style;
  if (image !== undefined) kept.img = image;
  return kept;
}

/** `cell`, or null when it holds nothing worth storing (no value, formula, format, style or image). */
function keptOrNull(cell: Cell): Cell | null {
  return isEmptyCell(cell) && cell.z === undefined && cell.s === undefined && cell.img === undefined ? null : cell;
}

/** The cell showing the image attachment `guid` (null: none), its value, format and style kept; null when nothing is left to store. */
export function withImage(stored: unknown, guid: string | null): Cell | null {
  const cell: Cell = isCell(stored) ? { ...stored } : {};
  if (guid === null) delete cell.img;
  else cell.img = guid;
  return keptOrNull(cell);
}

/** The guid of the image attachment a stored cell shows, undefined for none. */
export function imageOf(stored: unknown): string | undefined {
  return isCell(stored) && typeof stored.img === 'string' && stored.img !== '' ? stored.img : undefined;
}

/** The cell with number format `code` (null or General: none), or null when nothing is left to store. */
export function withFormat(stored: unknown, code: string | null): Cell | null {
  const cell: Cell = isCell(stored) ? { ...stored } : {};
  if (code === null || code === GENERAL) delete cell.z;
  else cell.z = code;
  return keptOrNull(cell);
}

/**
 * The cell with its style changed by `patch` (docs/SHEETS.md "Cell styles"), or null when nothing is left to store.
 * `inherited`: the style of the cell's row, else column (SheetModel.inheritedStyle), which a cell without a style
 * of its own shows and the patch starts from; the cell keeps a style of its own only where it differs from that one
 * (`{}`: the default look over its line's).
 */
export function withStyle(stored: unknown, patch: StylePatch, inherited?: CellStyle): Cell | null {
  const cell: Cell = isCell(stored) ? { ...stored } : {};
  const style = patchStyle(ownStyleOf(stored) ?? inherited, patch);
  if (sameStyle(style, inherited)) delete cell.s;
  else cell.s = style ?? {};
  return keptOrNull(cell);
}

/** The number format code of a stored cell, undefined for General. */
export function formatOf(stored: unknown): string | undefined {
  return isCell(stored) && typeof stored.z === 'string' && stored.z !== '' ? stored.z : undefined;
}

export function sameCell(stored: unknown, next: Cell): boolean {
  if (!isCell(stored)) return false;
  return stored.v === next.v && stored.f === next.f && stored.z === next.z && stored.img === next.img && sameStyle(styleOf(stored), next.s) && Object.keys(stored).length === Object.keys(next).length;
}
