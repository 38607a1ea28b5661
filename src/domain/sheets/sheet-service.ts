import crypto from 'node:crypto';
import type * as Y from 'yjs';
import { ApiError, Errors } from '../../errors.js';
import type { RequestAuth } from '../../auth/request-auth.js';
import type { FileAccess, Permission } from '../../integrator/types.js';
import type { FileService } from '../files/file-service.js';
import { A1SyntaxError, formatA1, parseA1, type A1Range } from '../../model/sheets/a1.js';
import { imageOf, withImage, type CellInput, type ValueRender } from '../../model/sheets/cells.js';
import { parseCellA1, parseCellPositions } from './cell-positions.js';
import type { FirstScreen } from '../../model/sheets/first-screen.js';
import { firstScreen } from './first-screen.js';
import { kitLocks, locksBefore, refusalOf } from '../../model/sheets/lock-guard.js';
import type { KitSheetLocks } from '../../model/sheets/locks.js';
import { sortRange, type SortKeyInput, type SortResult } from './sort.js';
import { readValidations, setValidationRule, type ValidationView } from './data-validation.js';
import {
  addSheet,
  appendValues,
  deleteRows,
  findSheet,
  insertRows,
  setCellAttributes,
  type AttributesResult,
  type InsertRowsResult,
  mergeCells,
  readValues,
  writeValues,
  type DeleteRowsResult,
  type MergeResult,
  type ReadResult,
  type SheetInfo,
  type WriteResult,
} from './workbook.js';

/** The content engine as the values API uses it (services.content). */
export interface SheetContent {
  /** the current document, shared (live or cached): read it, never change or destroy it */
  read(appId: string, fileId: string): Promise<Y.Doc>;
  /** the content as stored, not waiting for a live document to load (first screen) */
  readStored(appId: string, fileId: string): Promise<Y.Doc>;
  /**
   * Runs `mutate` in one transaction and stores its change; on a scratch copy unless `checkedFirst` says of the
   * document that `mutate` checks everything that can fail before its first write (ContentService.change).
   */
  // values writes are recorded as plain edits: no history type of their own (the content floor above defines them)
  change<T>(appId: string, fileId: string, actor: SheetActor, mutate: (doc: Y.Doc) => T, historyType: undefined, checkedFirst?: (doc: Y.Doc) => boolean): Promise<T>;
}

export interface SheetActor {
  userId: string;
  token?: string | undefined;
  name?: string | undefined;
  /** may set, change and remove locks (the file's `manageable`) */
  manageable?: boolean;
}

/** Permission checks as the values API uses them (services.access). */
export interface SheetAccess {
  authorize(auth: RequestAuth, fileId: string, permission: Permission): Promise<FileAccess>;
}

export interface AppendResult extends WriteResult {
  /** true when this clientRequestId was applied before: nothing was added again */
  alreadyApplied: boolean;
}

/**
 * Applied append requests live in the document itself, in this map, so that recording the id and adding the
 * rows are one Yjs transaction: a retry can never find the rows without the id or the id without the rows.
 */
export const APPEND_REQUESTS_ROOT = 'svc:appendRequests';
/** How long a clientRequestId is remembered, and how many per file at most (oldest forgotten first). */
export const APPEND_REQUEST_TTL_MS = 24 * 60 * 60 * 1000;
export const APPEND_REQUESTS_KEPT = 1000;

interface AppliedAppend {
  at: number;
  fingerprint: string;
  result: WriteResult;
}

function parseRange(text: string): A1Range {
  try {
    return parseA1(text);
  } catch (error) {
    if (error instanceof A1SyntaxError) throw new ApiError(Errors.invalidSheetRange, `invalid range: ${error.message}`, { range: text });
    throw error;
  }
}

function isAppliedAppend(value: unknown): value is AppliedAppend {
  return typeof value === 'object' && value !== null && 'fingerprint' in value && 'result' in value && 'at' in value;
}

function forgetOldAppends(applied: Y.Map<unknown>, now: number): void {
  const entries: Array<[string, number]> = [];
  applied.forEach((value, key) => entries.push([key, isAppliedAppend(value) ? value.at : 0]));
  entries.sort((a, b) => a[1] - b[1]);
  const excess = entries.length - APPEND_REQUESTS_KEPT + 1;
  entries.forEach(([key, at], i) => {
    if (i < excess || now - at > APPEND_REQUEST_TTL_MS) applied.delete(key);
  });
}

/**
 * The spreadsheet values API (spec 4.2 "Spreadsheet", docs/SHEETS.md): A1 ranges over the spreadsheet
 * content model. Reads need `readable`, writes `editable`; writes go through the content engine, so they
 * reach connected editors live and count as content changes (version, FileContent event).
 */
export class SheetService {
  /** Per-file queue of this API's changes (see `exclusive`). */
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(
    private readonly files: FileService,
    private readonly content: SheetContent,
    private readonly access: SheetAccess,
  ) {}

  async read(auth: RequestAuth, fileId: string, rangeText: string, render: ValueRender): Promise<ReadResult> {
    const range = parseRange(rangeText);
    await this.authorize(auth, fileId, 'readable');
    return readValues(await this.content.read(auth.app.id, fileId), range, render);
  }

  /** The editor's first screen of a sheet (null: the first sheet): see first-screen.ts. */
  async firstScreen(auth: RequestAuth, fileId: string, sheetName: string | null, rows: number, width: number): Promise<FirstScreen> {
    await this.authorize(auth, fileId, 'readable');
    // the page asks while its own collaboration session loads the live document: the stored copy, kept decoded
    // with its formulas computed, answers at once (the editor replaces this screen within seconds)
    return firstScreen(await this.content.readStored(auth.app.id, fileId), sheetName, rows, width);
  }

  /** Writes exactly the given range: idempotent, the same call twice leaves the same sheet. */
  async write(auth: RequestAuth, fileId: string, rangeText: string, values: CellInput[][]): Promise<WriteResult> {
    const range = parseRange(rangeText);
    const actor = await this.authorize(auth, fileId, 'editable');
    return this.exclusive(auth.app.id, fileId, actor, (doc) => writeValues(doc, range, values), valuesWriteCheckedFirst);
  }

  /**
   * Appends rows after the range's table. Not idempotent; with a clientRequestId, a retry of an append
   * that was applied answers the first result and adds nothing. The same id with another body is refused.
   */
  async append(auth: RequestAuth, fileId: string, rangeText: string, values: CellInput[][], clientRequestId?: string): Promise<AppendResult> {
    const range = parseRange(rangeText);
    const actor = await this.authorize(auth, fileId, 'editable');
    if (clientRequestId === undefined) {
      const result = await this.exclusive(auth.app.id, fileId, actor, (doc) => appendValues(doc, range, values), valuesWriteCheckedFirst);
      return { ...result, alreadyApplied: false };
    }
    const fingerprint = crypto.createHash('sha256').update(JSON.stringify([formatA1(range), values])).digest('base64url');
    return this.exclusive(auth.app.id, fileId, actor, (doc) => {
      const applied = doc.getMap<unknown>(APPEND_REQUESTS_ROOT);
      const now = Date.now();
      const previous = applied.get(clientRequestId);
      if (isAppliedAppend(previous) && now - previous.at <= APPEND_REQUEST_TTL_MS) {
        if (previous.fingerprint !== fingerprint) {
          throw new ApiError(Errors.appendRequestReused, `clientRequestId ${clientRequestId} was used for another append (other range or values)`, {
            clientRequestId,
          });
        }
        return { ...previous.result, alreadyApplied: true };
      }
      const result = appendValues(doc, range, values);
      forgetOldAppends(applied, now);
      applied.set(clientRequestId, { at: now, fingerprint, result } satisfies AppliedAppend);
      return { ...result, alreadyApplied: false };
    }, valuesWriteCheckedFirst);
  }

  async deleteRows(auth: RequestAuth, fileId: string, sheetName: string, index: number, count: number): Promise<DeleteRowsResult> {
    const actor = await this.authorize(auth, fileId, 'editable');
    return this.exclusive(auth.app.id, fileId, actor, (doc) => deleteRows(doc, sheetName, index, count));
  }

  async insertRows(auth: RequestAuth, fileId: string, sheetName: string, index: number, count: number): Promise<InsertRowsResult> {
    const actor = await this.authorize(auth, fileId, 'editable');
    return this.exclusive(auth.app.id, fileId, actor, (doc) => insertRows(doc, sheetName, index, count));
  }

  /** Cell attributes (style and number format) on a range, one change for the whole range (workbook.ts setCellAttributes). */
  async setAttributes(auth: RequestAuth, fileId: string, rangeText: string, attrs: Record<string, unknown>): Promise<AttributesResult> {
    const range = parseRange(rangeText);
    const actor = await this.authorize(auth, fileId, 'editable');
    return this.exclusive(auth.app.id, fileId, actor, (doc) => setCellAttributes(doc, range, attrs));
  }

  /** The sheet locks (the kits' `sheets/locks`, docs/SHEETS.md "Locks"): per sheet that has any, its locks. */
  async locks(auth: RequestAuth, fileId: string): Promise<{ locks: KitSheetLocks[] }> {
    await this.authorize(auth, fileId, 'readable');
    return { locks: kitLocks(await this.content.read(auth.app.id, fileId)) };
  }

  /**
   * Whether the spreadsheet is locked (the kits' `judge-table-locked`): 1 when a sheet has a lock, else 0; 2 when
   * its content cannot be read (a stored state that does not decode), which the kits take as "unknown".
   */
  async lockedStatus(auth: RequestAuth, fileId: string): Promise<{ lockedStatus: 0 | 1 | 2 }> {
    await this.authorize(auth, fileId, 'readable');
    try {
      return { lockedStatus: kitLocks(await this.content.read(auth.app.id, fileId)).length > 0 ? 1 : 0 };
    } catch (error) {
      if (error instanceof ApiError) throw error;
      return { lockedStatus: 2 };
    }
  }

  /** Merges cells (docs/SHEETS.md "Merged cells"): see workbook.ts mergeCells. */
  async mergeCells(auth: RequestAuth, fileId: string, sheetName: string, cell: string, rowSpan: number, columnSpan: number): Promise<MergeResult> {
    const actor = await this.authorize(auth, fileId, 'editable');
    return this.exclusive(auth.app.id, fileId, actor, (doc) => mergeCells(doc, sheetName, cell, rowSpan, columnSpan));
  }

  /** Sorts the rows of a range (docs/SHEETS.md "Sort and filter"): see sort.ts sortRange. */
  async sortRange(auth: RequestAuth, fileId: string, rangeText: string, keys: readonly SortKeyInput[], header: boolean): Promise<SortResult> {
    const range = parseRange(rangeText);
    const actor = await this.authorize(auth, fileId, 'editable');
    return this.exclusive(auth.app.id, fileId, actor, (doc) => sortRange(doc, range, keys, header));
  }

  /** The data validation rules of a sheet (docs/SHEETS.md "Data validation"): see data-validation.ts. */
  async validations(auth: RequestAuth, fileId: string, sheetName: string | null): Promise<{ sheetName: string; rules: ValidationView[] }> {
    await this.authorize(auth, fileId, 'readable');
    return readValidations(findSheet(await this.content.read(auth.app.id, fileId), sheetName).sheet);
  }

  /** Puts a data validation rule on a range, or (null) takes the rules off it: see data-validation.ts setValidationRule. */
  async setValidation(auth: RequestAuth, fileId: string, rangeText: string, rule: unknown): Promise<{ range: string; rule: ValidationView | null }> {
    const range = parseRange(rangeText);
    const actor = await this.authorize(auth, fileId, 'editable');
    return this.exclusive(auth.app.id, fileId, actor, (doc) => setValidationRule(findSheet(doc, range.sheetName).sheet, range, rule));
  }

  async addSheet(auth: RequestAuth, fileId: string, name: string): Promise<SheetInfo> {
    const actor = await this.authorize(auth, fileId, 'editable');
    return this.exclusive(auth.app.id, fileId, actor, (doc) => addSheet(doc, name));
  }

  /**
   * Runs one change after the previous change of this API to the same file has been stored. The content
   * engine applies a change to a copy of the document taken when it starts; two appends (or a delete and
   * an append) started together would both compute their rows from the same copy and overwrite each
   * other, and two retries of one clientRequestId would both miss the other's record.
   */
  private exclusive<T>(appId: string, fileId: string, actor: SheetActor, mutate: (doc: Y.Doc) => T, checkedFirst?: (doc: Y.Doc) => boolean): Promise<T> {
    const key = `${appId}\u0000${fileId}`;
    // the queue holds settled-never-rejecting tails, so one failed change does not block the next
    const previous = this.queues.get(key) ?? Promise.resolve();
    const run = previous.then(() => this.content.change(appId, fileId, actor, (doc) => refusingLocked(doc, actor, mutate), undefined, checkedFirst));
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    this.queues.set(key, settled);
    void settled.then(() => {
      if (this.queues.get(key) === settled) this.queues.delete(key);
    });
    return run;
  }

  /**
   * A range of cells an attachment may be attached to (files/{fileId}/attach): needs `editable`; the range must
   * be on a sheet the spreadsheet has (72002 otherwise). Answers it in A1 with the sheet's own name.
   */
  async cellRange(auth: RequestAuth, fileId: string, rangeText: string): Promise<string> {
    const range = parseRange(rangeText);
    await this.authorize(auth, fileId, 'editable');
    const { sheet } = findSheet(await this.content.read(auth.app.id, fileId), range.sheetName);
    return formatA1({ ...range, sheetName: sheet.name });
  }

  /**
   * Shows an image in one cell (`upload-cell-image`, docs/SHEETS.md "Images in cells"): needs `editable`; the sheet
   * and the cell are checked before `store` is called with the caller's user id to store the image (as an
   * attachment of the file) and answer its guid, so that a refused call stores nothing. The cell keeps its value,
   * format and style; an image it showed before is replaced.
   */
  async putCellImage(auth: RequestAuth, fileId: string, sheetName: string, cellText: string, store: (userId: string) => Promise<string>): Promise<void> {
    const cell = parseCellA1(cellText);
    if (!cell) throw new ApiError(Errors.invalidCellImageParams, `cell ${JSON.stringify(cellText.slice(0, 40))} is not one cell in A1 (e.g. "B2")`);
    const actor = await this.authorize(auth, fileId, 'editable');
    findSheet(await this.content.read(auth.app.id, fileId), sheetName);
    const guid = await store(actor.userId);
    await this.exclusive(auth.app.id, fileId, actor, (doc) => {
      const { sheet } = findSheet(doc, sheetName);
      sheet.growTo(cell.row + 1, cell.column + 1);
      sheet.setCell(cell.row, cell.column, withImage(sheet.cell(cell.row, cell.column), guid));
    });
  }

  /**
   * The guid of the image attachment each cell of `cellsPosition` shows (null: none), in the order asked
   * (`cells-image`): needs `readable`.
   */
  async cellImages(auth: RequestAuth, fileId: string, sheetName: string, cellsPosition: string): Promise<Array<string | null>> {
    const cells = parseCellPositions(cellsPosition);
    await this.authorize(auth, fileId, 'readable');
    const { sheet } = findSheet(await this.content.read(auth.app.id, fileId), sheetName);
    return cells.map(({ row, column }) => imageOf(sheet.cell(row, column)) ?? null);
  }

  /** The file must be one of this app's spreadsheets, and the integrator must grant the permission. */
  private async authorize(auth: RequestAuth, fileId: string, permission: Permission): Promise<SheetActor> {
    const file = await this.files.get(auth.app.id, fileId);
    if (file.type !== 'spreadsheet') {
      throw new ApiError(Errors.notASpreadsheet, `file ${fileId} is a ${file.type}, not a spreadsheet`, { fileId, type: file.type });
    }
    const { user, file: metadata } = await this.access.authorize(auth, fileId, permission);
    return { userId: user.id, token: auth.token, name: user.name, manageable: metadata.permissions.manageable === true };
  }
}

/**
 * For the values writes (writeValues, appendValues: values, range, sheet and data validation checked before the first
 * write): whether they may run on the document itself rather than on a copy. Not when a sheet has a lock: whether a
 * lock refuses the change is judged from the change once made (refusingLocked), so it is made on a copy.
 */
function valuesWriteCheckedFirst(doc: Y.Doc): boolean {
  return !locksBefore(doc).any;
}

/**
 * Runs `mutate` (inside the content engine's transaction, on its copy unless the change was checked first) and
 * refuses the whole change when a lock does not let the actor make it (lock-guard.ts): 403 / 128300, nothing written.
 */
function refusingLocked<T>(doc: Y.Doc, actor: SheetActor, mutate: (doc: Y.Doc) => T): T {
  const before = locksBefore(doc);
  const result = mutate(doc);
  const transaction = doc._transaction;
  const refusal = transaction && before.any ? refusalOf(doc, transaction, before, { userId: actor.userId, manageable: actor.manageable === true }) : undefined;
  if (refusal) throw new ApiError(Errors.rangeLocked, `${refusal.range} is locked: this user may not change it`, { range: refusal.range, reason: refusal.reason });
  return result;
}
