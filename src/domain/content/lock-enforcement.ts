import * as Y from 'yjs';
import { sheetsOf } from '../../model/content.js';
import { anyLockExcludes, locksBefore, tryChange, type LockRefusal, type LockUser } from '../../model/sheets/lock-guard.js';
import { LOCKS_KEY } from '../../model/sheets/locks.js';
import { tryOnTrialCopy } from './trial-copy.js';

/**
 * Spreadsheet locks on collaboration updates (docs/SHEETS.md "Locks"): an update from a user whom a lock does not
 * allow, touching what it locks, is refused whole before the live document or the log sees any of it.
 *
 * Cost: a document without locks, updated by a user who may manage locks, costs one look at each sheet's `locks`
 * map. A user without `manageable` on such a document costs a decoding of the update's structs (are any of them
 * locks?). Only when a lock excludes the user, or the update touches the locks, is the update tried on a copy of
 * a copy of the document kept beside it (trial-copy.ts, lock-guard.ts); docs/PERFORMANCE.md "Locks" has the figures.
 */

/** The update was refused by a lock: nothing of it was applied. */
export class LockRefused extends Error {
  constructor(readonly refusal: LockRefusal) {
    super(`update refused by a lock on ${refusal.range}`);
  }
}

/** The items of the document's `locks` maps, and the ids of those maps. */
function lockItems(doc: Y.Doc): { maps: Y.ID[]; entries: Y.ID[] } {
  const maps: Y.ID[] = [];
  const entries: Y.ID[] = [];
  sheetsOf(doc).forEach((sheet: unknown) => {
    if (!(sheet instanceof Y.Map)) return;
    const locks = sheet.get(LOCKS_KEY);
    if (!(locks instanceof Y.Map) || !locks._item) return;
    maps.push(locks._item.id);
    for (const item of locks._map.values()) entries.push(item.id);
  });
  return { maps, entries };
}

/**
 * Whether an update writes a lock: an item under a `locks` map or a new `locks` field, one written over a lock, or
 * the deletion of a lock entry.
 */
export function updateTouchesLocks(doc: Y.Doc, update: Uint8Array): boolean {
  const { structs, ds } = Y.decodeUpdate(update);
  const { maps, entries } = lockItems(doc);
  for (const struct of structs) {
    if (!(struct instanceof Y.Item)) continue;
    if (struct.parentSub === LOCKS_KEY) return true;
    const parent = struct.parent;
    if (parent instanceof Y.ID && maps.some((id) => Y.compareIDs(id, parent))) return true;
    // a lock written over: Yjs encodes the entry it replaces as its origin, not the map
    const origin = struct.origin;
    if (origin && entries.some((id) => Y.compareIDs(id, origin))) return true;
  }
  return entries.some((id) => Y.isDeleted(ds, id));
}

/**
 * Throws LockRefused when a lock refuses `update` from `user` on the live spreadsheet `doc`; `doc` is left as it was.
 */
export function refuseLockedUpdate(doc: Y.Doc, update: Uint8Array, user: LockUser): void {
  const before = locksBefore(doc);
  if (!before.any && user.manageable) return;
  if (!anyLockExcludes(before, user.userId) && (user.manageable || !updateTouchesLocks(doc, update))) return;
  const refusal = tryOnTrialCopy(doc, (copy) => tryChange(copy, user, (target) => Y.applyUpdate(target, update)));
  if (refusal) throw new LockRefused(refusal);
}
