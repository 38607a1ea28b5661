import { ProtocolError } from '../../sdk/protocol.js';
import { BridgeError, type EditorMethod } from '../shared/bridge.js';
import type { Collaborator } from '../shared/collaboration.js';
import type { CellRange } from '../shared/grid/grid.js';
import { element } from '../shared/shell.js';
import { formatA1 } from '../../src/model/sheets/a1.js';
import { kitLocks } from '../../src/model/sheets/lock-guard.js';
import { lockAllows, lockCovers, parseLock, type SheetLock } from '../../src/model/sheets/locks.js';
import type { MenuItem } from './context-menu.js';
import { t } from './messages.js';
import type { Sheet, Workbook } from './workbook.js';

/**
 * Locks in the editor (docs/SHEETS.md "Locks"): locked cells drawn (hatched where this user may not edit, a lock
 * mark where they may), the right-click menu's Protect range… / Protect sheet… / Remove protection for users with
 * `manageable`, the dialog choosing who else may edit, and the SDK's lock methods. Edits are refused by the
 * workbook (its guard) before they are sent; the service refuses them too.
 */
export class LockControls {
  private cached: { sheet: Sheet; locks: SheetLock[] } | undefined;
  private dialog: HTMLElement | undefined;

  constructor(
    private readonly workbook: Workbook,
    private readonly host: HTMLElement,
    private readonly user: { id: string; manageable: boolean },
  ) {}

  /** The document changed: the locks are read again at the next drawing. */
  invalidate(): void {
    this.cached = undefined;
  }

  private locksOf(sheet: Sheet): SheetLock[] {
    if (this.cached?.sheet !== sheet) this.cached = { sheet, locks: this.workbook.locks(sheet) };
    return this.cached.locks;
  }

  /** Marks a drawn cell covered by a lock. */
  decorate(cell: HTMLElement, sheet: Sheet, row: number, column: number): void {
    const locks = this.locksOf(sheet);
    if (locks.length === 0) return;
    const area = { startRow: row, endRow: row, startColumn: column, endColumn: column };
    const covering = locks.filter((lock) => lockCovers(lock, area));
    if (covering.length === 0) return;
    cell.classList.add(covering.some((lock) => !lockAllows(lock, this.user.id)) ? 'svc-sheet-locked' : 'svc-sheet-protected');
  }

  /** The menu's lock commands over `range` of `sheet` (none for a user without `manageable`). */
  menuItems(sheet: Sheet, range: CellRange, collaborators: () => Collaborator[], done: () => void): MenuItem[] {
    if (!this.user.manageable) return [];
    const area = { startRow: range.top, endRow: range.bottom, startColumn: range.left, endColumn: range.right };
    const touched = this.workbook.locks(sheet).filter((lock) => lockCovers(lock, area));
    return [
      { label: t('lock.protectRange'), separator: true, run: () => this.openDialog(sheet, range, collaborators(), done) },
      { label: t('lock.protectSheet'), run: () => this.openDialog(sheet, undefined, collaborators(), done) },
      {
        label: t('lock.remove'),
        disabled: touched.length === 0,
        run: () => {
          for (const lock of touched) this.workbook.removeLock(sheet, lock.id);
          done();
        },
      },
    ];
  }

  /** The dialog of a new lock on `range` (the sheet when absent): who besides this user may edit there. */
  private openDialog(sheet: Sheet, range: CellRange | undefined, collaborators: Collaborator[], done: () => void): void {
    this.dialog?.remove();
    const dialog = document.createElement('div');
    dialog.className = 'svc-sheet-lock-dialog';
    dialog.setAttribute('role', 'dialog');
    dialog.setAttribute('aria-modal', 'true');
    const title = document.createElement('h2');
    title.id = 'svc-sheet-lock-title';
    title.textContent = range ? t('lock.titleRange', { range: rangeA1(range) }) : t('lock.titleSheet', { name: sheet.name });
    dialog.setAttribute('aria-labelledby', title.id);
    const others = [...new Map(collaborators.filter((person) => person.id !== this.user.id).map((person) => [person.id, person])).values()];
    const list = document.createElement('fieldset');
    const legend = document.createElement('legend');
    legend.textContent = t('lock.who');
    list.append(legend);
    for (const person of others) {
      const label = document.createElement('label');
      const box = document.createElement('input');
      box.type = 'checkbox';
      box.value = person.id;
      label.append(box, ` ${person.name}`);
      list.append(label);
    }
    if (others.length === 0) {
      const none = document.createElement('p');
      none.textContent = t('lock.nobodyElse');
      list.append(none);
    }
    const note = element('p', '', t('lock.othersView'));
    const actions = element('div', 'svc-sheet-lock-actions');
    const cancel = element('button', '', t('lock.cancel'));
    const confirm = element('button', 'svc-sheet-lock-confirm', t('lock.confirm'));
    for (const button of [cancel, confirm]) button.type = 'button';
    actions.append(cancel, confirm);
    dialog.append(title, list, note, actions);
    const close = () => {
      dialog.remove();
      this.dialog = undefined;
      done();
    };
    cancel.addEventListener('click', close);
    dialog.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') close();
      event.stopPropagation();
    });
    confirm.addEventListener('click', () => {
      const users = Object.fromEntries([...list.querySelectorAll<HTMLInputElement>('input:checked')].map((box) => [box.value, 'editable' as const]));
      this.workbook.setLock(sheet, newLock(this.user.id, range, users));
      close();
    });
    this.host.append(dialog);
    this.dialog = dialog;
    confirm.focus();
  }

  /** The SDK's lock methods (docs/SDK.md "Spreadsheet locks"). */
  methods(resolve: (range: string) => { sheet: Sheet; range: CellRange } | undefined, sheetById: (id: unknown) => Sheet): Record<string, EditorMethod> {
    const manage = () => {
      if (!this.user.manageable) throw new BridgeError(ProtocolError.invalidArguments, 'this user may not manage locks (needs manageable)');
    };
    const options = (input: unknown): { users: Record<string, 'none' | 'readable' | 'editable'>; visitorPermission: unknown } => {
      const raw = (input ?? {}) as Record<string, unknown>;
      if (typeof raw !== 'object' || Array.isArray(raw)) throw invalid('options must be an object such as {users: {"bob": "editable"}}');
      return { users: (raw.users ?? {}) as Record<string, 'editable'>, visitorPermission: raw.visitorPermission ?? 'readable' };
    };
    const add = (sheet: Sheet, range: CellRange | undefined, input: unknown) => {
      manage();
      const { users, visitorPermission } = options(input);
      const lock = parseLock({ ...newLock(this.user.id, range, users), visitorPermission, departments: (input as Record<string, unknown> | undefined)?.departments, groups: (input as Record<string, unknown> | undefined)?.groups });
      if (!lock) throw invalid('users, departments and groups map ids to "none", "readable" or "editable"; visitorPermission is one of them');
      this.workbook.setLock(sheet, lock);
      return { id: lock.id, sheetId: sheet.id };
    };
    return {
      getLocks: () => kitLocks(this.workbook.doc),
      addRangeLock: (range, input) => {
        if (typeof range !== 'string') throw invalid('range must be an A1 reference such as "B2:C4"');
        const resolved = resolve(range);
        if (!resolved) throw invalid(`range "${range}" is not a range of this spreadsheet`);
        return add(resolved.sheet, resolved.range, input);
      },
      addSheetLock: (sheetId, input) => add(sheetById(sheetId), undefined, input),
      removeLock: (id) => {
        manage();
        if (typeof id !== 'string') throw invalid('removeLock takes the id of a lock (getLocks lists them)');
        const sheet = this.workbook.list().find((each) => this.workbook.locks(each).some((lock) => lock.id === id));
        return { removed: sheet ? this.workbook.removeLock(sheet, id) : false };
      },
    };
  }
}

function invalid(message: string): BridgeError {
  return new BridgeError(ProtocolError.invalidArguments, message);
}

function rangeA1(range: CellRange): string {
  return formatA1({ sheetName: null, startRow: range.top, endRow: range.bottom, startColumn: range.left, endColumn: range.right });
}

/** A new lock by `lockerId` on `range` (the sheet when absent): the users named may edit, everyone else views. */
function newLock(lockerId: string, range: CellRange | undefined, users: Record<string, 'none' | 'readable' | 'editable'>): SheetLock {
  return {
    id: crypto.randomUUID(),
    type: range ? 'range' : 'sheet',
    lockerId,
    visitorPermission: 'readable',
    users,
    departments: {},
    groups: {},
    areas: range ? [{ startRow: range.top, endRow: range.bottom, startColumn: range.left, endColumn: range.right }] : [],
  };
}
