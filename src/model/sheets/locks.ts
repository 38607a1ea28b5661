import type { SheetStructureEdit } from '../content.js';
import { formatA1 } from './a1.js';
import { areasOverlap, isCellArea, shiftArea, type CellArea } from './cell-area.js';
import type { FilterSheet } from './filter.js';

/**
 * Locks (docs/SHEETS.md "Locks"): a protected sheet, or protected ranges of a sheet, which only the people the lock
 * allows may change. Part of the document, so every editor sees them live, and enforced by the service on every
 * collaboration update and API write (lock-guard.ts); the editor refuses such edits before sending them.
 *
 * A lock has the kits' shape (`sheets/locks`): a type (`sheet` or `range`), who set it (`lockerId`), what everyone
 * else may do (`visitorPermission`), and per user, department and group what they may do (`users`, `departments`,
 * `groups`: id → permission). The service knows users, not their departments or groups: those two maps are kept
 * and returned for the integrator's own use, and the service decides by `users`, the locker and the visitors'
 * permission alone.
 *
 * Stored under the sheet's `locks` key as a Y.Map of lock id → SheetLock (plain JSON), so two people locking
 * different ranges at once both keep theirs. Range locks hold areas by position and move with row and column
 * insertions and deletions (sheet-features.ts), as merges and the filter do.
 */

export const LOCKS_KEY = 'locks';

/** What a lock lets someone do inside it: `editable` change it, `readable` (or `none`) only look. */
export const LOCK_PERMISSIONS = ['none', 'readable', 'editable'] as const;
export type LockPermission = (typeof LOCK_PERMISSIONS)[number];

export const LOCK_TYPES = ['sheet', 'range'] as const;
export type LockType = (typeof LOCK_TYPES)[number];

export interface SheetLock {
  id: string;
  type: LockType;
  /** the user who set the lock: they may always edit inside it */
  lockerId: string;
  /** what everyone the maps do not name may do */
  visitorPermission: LockPermission;
  users: Record<string, LockPermission>;
  departments: Record<string, LockPermission>;
  groups: Record<string, LockPermission>;
  /** a range lock's areas (at least one); empty for a sheet lock */
  areas: CellArea[];
}

/** Most locks a sheet keeps, areas a lock holds and entries a lock's maps hold (a document is not a directory). */
export const MAX_LOCKS_PER_SHEET = 500;
export const MAX_LOCK_AREAS = 100;
export const MAX_LOCK_ENTRIES = 1000;
const MAX_ID_LENGTH = 128;

function isLockPermission(value: unknown): value is LockPermission {
  return typeof value === 'string' && (LOCK_PERMISSIONS as readonly string[]).includes(value);
}

function isId(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_ID_LENGTH;
}

/** An id → permission map as stored or sent; undefined when malformed (absent reads as empty). */
function parsePermissionMap(input: unknown): Record<string, LockPermission> | undefined {
  if (input === undefined || input === null) return {};
  if (typeof input !== 'object' || Array.isArray(input)) return undefined;
  const entries = Object.entries(input as Record<string, unknown>);
  if (entries.length > MAX_LOCK_ENTRIES) return undefined;
  const map: Record<string, LockPermission> = {};
  for (const [id, permission] of entries) {
    if (!isId(id) || !isLockPermission(permission)) return undefined;
    map[id] = permission;
  }
  return map;
}

/**
 * A lock as stored or sent, checked (ids, permissions, areas whole and in order; a range lock has at least one
 * area, a sheet lock none); undefined when anything is malformed. Writers (the editor, the SDK methods, the xlsx
 * import) and readers share it, so a lock a broken client wrote is ignored rather than half-read.
 */
export function parseLock(input: unknown): SheetLock | undefined {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return undefined;
  const raw = input as Record<string, unknown>;
  if (!isId(raw.id) || !isId(raw.lockerId)) return undefined;
  if (typeof raw.type !== 'string' || !(LOCK_TYPES as readonly string[]).includes(raw.type)) return undefined;
  const visitorPermission = raw.visitorPermission ?? 'readable';
  if (!isLockPermission(visitorPermission)) return undefined;
  const users = parsePermissionMap(raw.users);
  const departments = parsePermissionMap(raw.departments);
  const groups = parsePermissionMap(raw.groups);
  if (!users || !departments || !groups) return undefined;
  const type = raw.type as LockType;
  const areas = raw.areas ?? [];
  if (!Array.isArray(areas) || areas.length > MAX_LOCK_AREAS || !areas.every(isCellArea)) return undefined;
  if ((type === 'range') !== (areas.length > 0)) return undefined;
  return {
    id: raw.id,
    type,
    lockerId: raw.lockerId,
    visitorPermission,
    users,
    departments,
    groups,
    areas: areas.map(({ startRow, endRow, startColumn, endColumn }) => ({ startRow, endRow, startColumn, endColumn })),
  };
}

/** The sheet's locks, ordered by id; malformed entries are left out. */
export function locksOf(sheet: FilterSheet): SheetLock[] {
  const stored = sheet.featureMap(LOCKS_KEY);
  if (!stored || stored.size === 0) return [];
  const locks: SheetLock[] = [];
  stored.forEach((value, id) => {
    const lock = parseLock(value);
    if (lock && lock.id === id) locks.push(lock);
  });
  return locks.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Stores a lock (checked by the caller with parseLock), replacing the one with its id. */
export function setLock(sheet: FilterSheet, lock: SheetLock): void {
  sheet.featureMap(LOCKS_KEY, true)!.set(lock.id, lock);
}

/** Removes a lock; answers whether there was one with that id. */
export function removeLock(sheet: FilterSheet, id: string): boolean {
  const stored = sheet.featureMap(LOCKS_KEY);
  if (!stored?.has(id)) return false;
  stored.delete(id);
  return true;
}

/** Whether `userId` may change what `lock` covers: its locker, a user it lets edit, or anyone when visitors may. */
export function lockAllows(lock: SheetLock, userId: string): boolean {
  if (userId === lock.lockerId) return true;
  const named = lock.users[userId];
  return (named ?? lock.visitorPermission) === 'editable';
}

/** Whether `lock` covers any cell of `area` (a sheet lock covers them all). */
export function lockCovers(lock: SheetLock, area: CellArea): boolean {
  return lock.type === 'sheet' || lock.areas.some((locked) => areasOverlap(locked, area));
}

/** The first lock of `locks` that covers a cell of `area` and does not let `userId` change it. */
export function lockRefusing(locks: readonly SheetLock[], area: CellArea, userId: string): SheetLock | undefined {
  return locks.find((lock) => lockCovers(lock, area) && !lockAllows(lock, userId));
}

/** A lock's areas after a structure edit; undefined when none is left (the lock goes with its last cells). */
export function shiftLock(lock: SheetLock, edit: SheetStructureEdit): SheetLock | undefined {
  if (lock.type === 'sheet') return lock;
  const areas = lock.areas.flatMap((area) => shiftArea(area, edit) ?? []);
  return areas.length > 0 ? { ...lock, areas } : undefined;
}

/** Moves range locks with a row or column insertion or deletion; a lock whose cells are all deleted goes. */
export function moveLocks(sheet: FilterSheet, edit: SheetStructureEdit): void {
  const stored = sheet.featureMap(LOCKS_KEY);
  if (!stored || stored.size === 0) return;
  for (const lock of locksOf(sheet)) {
    const moved = shiftLock(lock, edit);
    if (!moved) stored.delete(lock.id);
    else if (JSON.stringify(moved.areas) !== JSON.stringify(lock.areas)) stored.set(lock.id, moved);
  }
}

/** One lock as the kits read it (`sheets/locks`): `lockerId` a number when the id is one, `ranges` A1 without the sheet. */
export interface KitLock {
  id: string;
  type: LockType;
  lockerId: number | string;
  visitorPermission: LockPermission;
  users: Record<string, LockPermission>;
  departments: Record<string, LockPermission>;
  groups: Record<string, LockPermission>;
  ranges: string[];
}

export interface KitSheetLocks {
  sheetId: string;
  sheetName: string;
  locks: KitLock[];
}

export function kitLock(lock: SheetLock): KitLock {
  const { id, type, lockerId, visitorPermission, users, departments, groups } = lock;
  return {
    id,
    type,
    lockerId: /^[0-9]{1,15}$/.test(lockerId) ? Number(lockerId) : lockerId,
    visitorPermission,
    users,
    departments,
    groups,
    ranges: lock.areas.map((area) => formatA1({ sheetName: null, ...area })),
  };
}

/**
 * The locker of a lock that came from an xlsx file's sheet protection: no user of the service. Such a lock lets
 * nobody edit (as a protected sheet in Excel) until a user with `manageable` removes it, as Unprotect Sheet does;
 * imported protected ranges have it too (xlsxRangeLock). The protection's password is not kept.
 */
export const XLSX_LOCKER = 'xlsx-sheet-protection';

/** The lock an xlsx sheet protection imports as. */
export function xlsxSheetLock(): SheetLock {
  return { id: XLSX_LOCKER, type: 'sheet', lockerId: XLSX_LOCKER, visitorPermission: 'readable', users: {}, departments: {}, groups: {}, areas: [] };
}

/** Prefix of the id of a range lock imported from an xlsx `<protectedRange name>`: the name follows, for the export. */
const XLSX_RANGE_PREFIX = 'xlsx-range:';

/**
 * Longest `<protectedRange name>` kept in a lock's id (the id's limit less the prefix). Excel's range names are
 * short ("Range1"); a longer one is cut.
 */
const MAX_XLSX_RANGE_NAME = MAX_ID_LENGTH - XLSX_RANGE_PREFIX.length;

/**
 * The range lock an xlsx protected range (Excel's "Allow Edit Ranges") imports as. Excel names who may edit it by
 * Windows accounts or a password, neither of which means anything here: the lock, like a sheet protection's, has
 * no user as locker and lets nobody edit until a user with `manageable` removes it (docs/SHEETS.md "Locks").
 */
export function xlsxRangeLock(name: string, areas: readonly CellArea[]): SheetLock {
  const id = XLSX_RANGE_PREFIX + name.slice(0, MAX_XLSX_RANGE_NAME);
  return { id, type: 'range', lockerId: XLSX_LOCKER, visitorPermission: 'readable', users: {}, departments: {}, groups: {}, areas: areas.slice(0, MAX_LOCK_AREAS) };
}

/** The name a range lock is exported under as a `<protectedRange>`: the imported one, else the lock's id. */
export function xlsxRangeName(lock: SheetLock): string {
  return lock.id.startsWith(XLSX_RANGE_PREFIX) ? lock.id.slice(XLSX_RANGE_PREFIX.length) : lock.id;
}

/** Whether a sheet has a sheet lock (what the xlsx export writes as the worksheet's protection). */
export function hasSheetLock(sheet: FilterSheet): boolean {
  return locksOf(sheet).some((lock) => lock.type === 'sheet');
}
