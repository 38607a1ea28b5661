import type { SheetStructureEdit } from '../content.js';
import type { FilterSheet } from './filter.js';

/**
 * Rows and columns a person hid (docs/SHEETS.md "Hidden rows and columns"): part of the document, so hidden for
 * every collaborator, as in the desktop programs. Hidden only in views: the values API, formulas and exports read
 * them as before (the xlsx export marks them hidden). Stored under the sheet's `hidden` key as a Y.Map of
 * `row:<index>` and `column:<index>` → true, so two people hiding different rows both keep theirs.
 */

export const HIDDEN_KEY = 'hidden';

export type HiddenAxis = 'rows' | 'columns';

const PREFIX: Readonly<Record<HiddenAxis, string>> = { rows: 'row:', columns: 'column:' };

function indexOf(key: string, axis: HiddenAxis): number | undefined {
  if (!key.startsWith(PREFIX[axis])) return undefined;
  const index = Number(key.slice(PREFIX[axis].length));
  return Number.isInteger(index) && index >= 0 ? index : undefined;
}

/** The hidden rows (or columns) of a sheet, in order; entries a broken client wrote are left out. */
export function hiddenOf(sheet: FilterSheet, axis: HiddenAxis): number[] {
  const stored = sheet.featureMap(HIDDEN_KEY);
  if (!stored) return [];
  const found: number[] = [];
  stored.forEach((value, key) => {
    const index = indexOf(key, axis);
    if (index !== undefined && value === true) found.push(index);
  });
  return found.sort((a, b) => a - b);
}

/** Hides (or shows again) the rows or columns `start` to `end` (checked by the caller: inside the grid). */
export function setHidden(sheet: FilterSheet, axis: HiddenAxis, start: number, end: number, hidden: boolean): void {
  const stored = sheet.featureMap(HIDDEN_KEY, hidden);
  if (!stored) return;
  for (let index = start; index <= end; index++) {
    const key = `${PREFIX[axis]}${index}`;
    if (hidden) stored.set(key, true);
    else if (stored.has(key)) stored.delete(key);
  }
}

/** Moves hidden rows (columns) with a row (column) insertion or deletion; deleted ones go. */
export function moveHidden(sheet: FilterSheet, edit: SheetStructureEdit): void {
  const stored = sheet.featureMap(HIDDEN_KEY);
  if (!stored) return;
  const moved = hiddenOf(sheet, edit.axis).filter((index) => index >= edit.index);
  for (const index of moved) stored.delete(`${PREFIX[edit.axis]}${index}`);
  for (const index of moved) {
    if (edit.kind === 'delete' && index < edit.index + edit.count) continue;
    stored.set(`${PREFIX[edit.axis]}${edit.kind === 'insert' ? index + edit.count : index - edit.count}`, true);
  }
}
