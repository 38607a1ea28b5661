import * as Y from 'yjs';
import { SHEET_BLOCKS, SHEET_COLUMNS, SHEET_GRID, SHEET_ROWS, sheetsOf, type SheetStructureEdit } from '../content.js';
import { formatA1 } from './a1.js';
import { kitLock, lockAllows, lockRefusing, LOCKS_KEY, locksOf, shiftLock, type KitSheetLocks, type SheetLock } from './locks.js';
import { SheetModel, sheetModels } from './sheet-model.js';

/**
 * The service's enforcement of locks (locks.ts, docs/SHEETS.md "Locks"): given a change made in one transaction by
 * one user, whether any lock refuses it. The content engine runs every collaboration update of a spreadsheet with
 * locks through it on a copy of the document, and the values API its writes, and refuses the whole change when it
 * answers a refusal: nothing of it is applied.
 *
 * What a lock refuses to a user it does not allow: a cell change inside it (a sheet lock: any change to the sheet),
 * a deletion of its rows or columns, an insertion inside it, a wholesale rewrite of cells (`blocks`) on its sheet,
 * and the deletion of a locked sheet. Changing the locks themselves takes `manageable`; a user without it may still
 * insert or delete rows elsewhere, which moves the locks, as long as the locks end where that edit moves them.
 */

export interface LockUser {
  userId: string;
  /** the file's `manageable`: may set, change and remove locks */
  manageable: boolean;
}

export interface LockRefusal {
  /** what was refused: a cell or structure change inside a lock, or a change to the locks */
  reason: 'locked' | 'locksChanged';
  sheetName: string;
  /** the locked area touched (A1 with the sheet), or the sheet's name for a sheet lock */
  range: string;
}

/** What the guard needs of the document before the change: per sheet id, its locks and the length of its structure log. */
export interface LocksBefore {
  sheets: Map<string, { name: string; locks: SheetLock[]; logLength: number }>;
  /** whether any sheet had a lock */
  any: boolean;
}

/** Reads what `refusalOf` compares with; cheap (the locks and the logs' lengths, no cells). */
export function locksBefore(doc: Y.Doc): LocksBefore {
  const sheets = new Map<string, { name: string; locks: SheetLock[]; logLength: number }>();
  let any = false;
  for (const sheet of sheetModels(doc)) {
    const locks = locksOf(sheet);
    any ||= locks.length > 0;
    sheets.set(sheet.id, { name: sheet.name, locks, logLength: sheet.structureEdits().length });
  }
  return { sheets, any };
}

/** Whether some lock of the document does not let `userId` edit what it covers (else only lock changes need a look). */
export function anyLockExcludes(before: LocksBefore, userId: string): boolean {
  for (const { locks } of before.sheets.values()) if (locks.some((lock) => !lockAllows(lock, userId))) return true;
  return false;
}

function refusal(reason: LockRefusal['reason'], sheetName: string, lock: SheetLock | undefined): LockRefusal {
  const area = lock?.type === 'range' ? lock.areas[0] : undefined;
  return { reason, sheetName, range: area ? formatA1({ sheetName, ...area }) : formatA1({ sheetName, startRow: 0, endRow: 1_048_575, startColumn: 0, endColumn: 16_383 }) };
}

/** The locks before, moved by the structure edits in order: where they must be after a change by a user without `manageable`. */
function movedLocks(locks: readonly SheetLock[], edits: readonly SheetStructureEdit[]): SheetLock[] {
  let moved = [...locks];
  for (const edit of edits) moved = moved.flatMap((lock) => shiftLock(lock, edit) ?? []);
  return moved;
}

/** Whether a structure edit changes what a lock the user may not edit covers (deletes its cells, or inserts inside it). */
export function structureEditRefusedBy(locks: readonly SheetLock[], edit: SheetStructureEdit, userId: string): SheetLock | undefined {
  return locks.find((lock) => {
    if (lockAllows(lock, userId)) return false;
    if (lock.type === 'sheet') return true;
    return lock.areas.some((area) => {
      const [start, end] = edit.axis === 'rows' ? [area.startRow, area.endRow] : [area.startColumn, area.endColumn];
      if (edit.kind === 'insert') return edit.index > start && edit.index <= end;
      return edit.index <= end && edit.index + edit.count - 1 >= start;
    });
  });
}

/**
 * The refusal of the change `transaction` made to `doc` (still open, or just ended: its `changed` map is read),
 * or undefined when every lock allows it. `before` is locksBefore(doc) read before the change.
 */
export function refusalOf(doc: Y.Doc, transaction: Y.Transaction, before: LocksBefore, user: LockUser): LockRefusal | undefined {
  const root = sheetsOf(doc);
  const after = sheetModels(doc);
  const afterIds = new Set(after.map((sheet) => sheet.id));
  // a locked sheet deleted by someone its lock does not allow
  for (const [id, { name, locks }] of before.sheets) {
    const sheetLock = locks.find((lock) => lock.type === 'sheet' && !lockAllows(lock, user.userId));
    if (!afterIds.has(id) && sheetLock) return refusal('locked', name, sheetLock);
  }
  // a new sheet brought with locks by someone who may not set them
  if (!user.manageable) {
    const locked = after.find((sheet) => !before.sheets.has(sheet.id) && locksOf(sheet).length > 0);
    if (locked) return refusal('locksChanged', locked.name, locksOf(locked)[0]);
  }
  // which sheets the change touched, and which of their fields
  const touched = new Map<Y.Map<unknown>, Map<string, Set<string | null>>>();
  for (const [type, keys] of transaction.changed) {
    if (type === root) continue;
    let sheetMap: Y.Map<unknown> | undefined;
    let field: string | undefined;
    if (type instanceof Y.Map && type.parent === root) {
      // fields of the sheet itself (a new `locks` map, a rename, …)
      sheetMap = type as Y.Map<unknown>;
      for (const key of keys) if (key !== null) addTouched(touched, sheetMap, key, null);
      continue;
    }
    // a field's own type: its item's key in the sheet is the field (deeper types are ignored: sheets keep none)
    const parent = type._item?.parent;
    if (parent instanceof Y.Map && parent.parent === root) {
      sheetMap = parent as Y.Map<unknown>;
      field = type._item?.parentSub ?? undefined;
    }
    if (!sheetMap || field === undefined) continue;
    for (const key of keys) addTouched(touched, sheetMap, field, key);
  }
  for (const [sheetMap, fields] of touched) {
    const sheet = SheetModel.of(sheetMap);
    const was = before.sheets.get(sheet.id);
    const locksNow = locksOf(sheet);
    const edits = was ? sheet.structureEdits().slice(was.logLength) : [];
    const locksWere = was?.locks ?? [];
    if (!user.manageable && fields.has(LOCKS_KEY) && JSON.stringify(locksNow) !== JSON.stringify(movedLocks(locksWere, edits))) {
      return refusal('locksChanged', sheet.name, locksNow[0] ?? locksWere[0]);
    }
    // a manageable user's lock changes in the same update count: they could have made them first
    const locks = user.manageable ? locksNow : movedLocks(locksWere, edits);
    if (!locks.some((lock) => !lockAllows(lock, user.userId)) && !locksWere.some((lock) => !lockAllows(lock, user.userId))) continue;
    const sheetLock = [...locksWere, ...locks].find((lock) => lock.type === 'sheet' && !lockAllows(lock, user.userId));
    if (sheetLock) return refusal('locked', sheet.name, sheetLock);
    // structure edits, checked in order against the locks as the earlier ones moved them
    let moving = [...locksWere];
    for (const edit of edits) {
      const refusing = structureEditRefusedBy(moving, edit, user.userId);
      if (refusing) return refusal('locked', sheet.name, refusing);
      moving = movedLocks(moving, [edit]);
    }
    // rows or columns changed without a logged edit: a client out of step; nothing tells where, so refused
    if (edits.length === 0 && (fields.has(SHEET_ROWS) || fields.has(SHEET_COLUMNS))) return refusal('locked', sheet.name, locks.find((lock) => !lockAllows(lock, user.userId)));
    // a wholesale rewrite of imported cells: not placed cell by cell here, so refused on a sheet with such a lock
    if (fields.has(SHEET_BLOCKS)) return refusal('locked', sheet.name, locks.find((lock) => !lockAllows(lock, user.userId)));
    for (const key of fields.get(SHEET_GRID) ?? []) {
      // the sheet's cell map replaced whole: as a rewrite of blocks
      if (key === null) return refusal('locked', sheet.name, locks.find((lock) => !lockAllows(lock, user.userId)));
      const at = sheet.positionOfGridKey(key);
      // a cell of a deleted row or column: the structure edit was checked above
      if (!at) continue;
      const refusing = lockRefusing(locks, { startRow: at.row, endRow: at.row, startColumn: at.column, endColumn: at.column }, user.userId);
      if (refusing) return refusal('locked', sheet.name, refusing);
    }
  }
  return undefined;
}

function addTouched(touched: Map<Y.Map<unknown>, Map<string, Set<string | null>>>, sheetMap: Y.Map<unknown>, field: string, key: string | null): void {
  let fields = touched.get(sheetMap);
  if (!fields) touched.set(sheetMap, (fields = new Map()));
  let keys = fields.get(field);
  if (!keys) fields.set(field, (keys = new Set()));
  keys.add(key);
}

/**
 * Applies `change` to `doc` in one transaction and answers the refusal of what it did (lock checks as refusalOf).
 * `doc` must be a copy the caller throws away when refused: Yjs cannot take a change back.
 */
export function tryChange(doc: Y.Doc, user: LockUser, change: (doc: Y.Doc) => void, origin?: unknown): LockRefusal | undefined {
  const before = locksBefore(doc);
  let refused: LockRefusal | undefined;
  doc.transact((transaction) => {
    change(doc);
    refused = refusalOf(doc, transaction, before, user);
  }, origin);
  return refused;
}

/** The locks of every sheet that has any, in sheet order, as the kits read them (`sheets/locks`, the SDK's getLocks). */
export function kitLocks(doc: Y.Doc): KitSheetLocks[] {
  return sheetModels(doc).flatMap((sheet) => {
    const locks = locksOf(sheet);
    return locks.length > 0 ? [{ sheetId: sheet.id, sheetName: sheet.name, locks: locks.map(kitLock) }] : [];
  });
}
