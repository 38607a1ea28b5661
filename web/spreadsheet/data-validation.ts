import { sheetPanel } from './sheet-panel.js';
import { columnLetters, formatA1 } from '../../src/model/sheets/a1.js';
import {
  ERROR_STYLES,
  listItems,
  parseValidationRule,
  passesValidation,
  setValidation,
  validationAt,
  validationsOf,
  VALIDATION_OPERATORS,
  VALIDATION_TYPES,
  type SheetValidation,
  type ValidationContext,
  type ValidationOperand,
} from '../../src/model/sheets/data-validation.js';
import { isFormulaInput, type CellValue } from '../../src/model/sheets/formulas/index.js';
import { parseTyped } from './typed-input.js';
import { t } from './messages.js';

type MessageKey = Parameters<typeof t>[0];
import type { SortFilterHost } from './sort-filter.js';

/** What data validation needs of the editor: what sort and filter do (the picker and dialog open in `root`), and typing. */
export interface ValidationHost extends SortFilterHost {
  /** stores typed text in a cell, checked as typing is */
  setInput(row: number, column: number, text: string): boolean;
}

/** Most items a list's picker shows (a source range may hold many). */
const PICKED_ITEMS = 1_000;

/**
 * Data validation in the spreadsheet editor (docs/BROWSER.md "Spreadsheet", docs/SHEETS.md "Data validation"): the ▾
 * of a list rule's cells and the picker of its values, the check of typed input (a `stop` rule refuses it with its
 * message and the typing stays open; `warning` and `information` ask whether to keep it), the rule's input prompt as
 * the cell's tooltip, and the Data validation dialog that sets or removes the rule of the selection. The model is
 * src/model/sheets/data-validation.ts; a change is one transaction of the editor's origin, so one undo step.
 */
export class DataValidationUi {
  private readonly picker: HTMLElement;
  private readonly dialog: HTMLElement;
  private rules: SheetValidation[] = [];
  private readonly onOutside = (event: Event) => {
    const target = event.target as Node;
    if (!this.picker.contains(target)) this.closePicker();
  };

  constructor(private readonly host: ValidationHost) {
    this.picker = sheetPanel(host.root, 'svc-sheet-validation-picker', 'listbox', () => this.closePicker());
    this.dialog = sheetPanel(host.root, 'svc-sheet-validation-dialog', 'dialog', () => this.closeDialog());
    this.refresh();
  }

  /** Reads the active sheet's rules again (after any change; the grid then draws with them). */
  refresh(): void {
    this.rules = validationsOf(this.host.sheet());
  }

  private context(): ValidationContext {
    return this.host.values.validationContext(this.host.sheet());
  }

  /** Adds the list's ▾ to a cell with a list rule, and the rule's prompt as its tooltip (drawn with the cell). */
  decorate(cell: HTMLElement, row: number, column: number): void {
    const rule = validationAt(this.rules, row, column);
    if (!rule) return;
    const prompt = [rule.promptTitle, rule.prompt].filter(Boolean).join('\n');
    if (prompt) cell.title = prompt;
    if (rule.type !== 'list' || !rule.showDropdown) return;
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'svc-sheet-validation-button';
    button.setAttribute('aria-label', t('validation.pick', { cell: `${columnLetters(column)}${row + 1}` }));
    button.addEventListener('pointerdown', (event) => event.stopPropagation());
    button.addEventListener('click', (event) => {
      event.stopPropagation();
      this.openPicker(row, column, button);
    });
    cell.classList.add('svc-sheet-validation-list');
    cell.append(button);
  }

  /** Opens the list of a list rule's values under its ▾; picking one stores it in the cell. */
  openPicker(row: number, column: number, anchor: HTMLElement): void {
    const rule = validationAt(this.rules, row, column);
    if (!rule || rule.type !== 'list' || !this.host.editable()) return;
    const items = listItems(rule, row, column, this.context()).slice(0, PICKED_ITEMS);
    this.picker.setAttribute('aria-label', t('validation.pick', { cell: `${columnLetters(column)}${row + 1}` }));
    this.picker.replaceChildren(
      ...items.map((item) => {
        const option = document.createElement('button');
        option.type = 'button';
        option.setAttribute('role', 'option');
        option.className = 'svc-sheet-validation-item';
        option.textContent = item;
        option.addEventListener('click', () => {
          this.closePicker();
          // an item is typed as text, so "007" stays "007" and "1/2" is not a date
          if (this.host.setInput(row, column, isTypedAsIs(item) ? item : `'${item}`)) this.host.grid().focus();
        });
        return option;
      }),
    );
    if (items.length === 0) this.picker.append(Object.assign(document.createElement('div'), { className: 'svc-sheet-validation-empty', textContent: t('validation.noItems') }));
    this.picker.hidden = false;
    place(this.picker, anchor, this.host.root);
    (this.picker.querySelector('button') as HTMLElement | null)?.focus();
    document.addEventListener('pointerdown', this.onOutside, true);
  }

  closePicker(): void {
    if (this.picker.hidden) return;
    this.picker.hidden = true;
    document.removeEventListener('pointerdown', this.onOutside, true);
    this.host.grid().focus();
  }

  /**
   * Whether typed text may go into a cell: true when no rule refuses it. A `stop` rule's refusal shows its message
   * (or the default one) and answers false, so the typing stays open; `warning` and `information` ask, and the
   * person's answer decides. A formula is checked by the value it computes there.
   */
  accepts(row: number, column: number, text: string): boolean {
    const rule = validationAt(this.rules, row, column);
    if (!rule) return true;
    const context = this.context();
    const { input } = parseTyped(text);
    const candidate: CellValue = isFormulaInput(input) ? context.evaluate(input, row, column, null) : input;
    if (passesValidation(rule, candidate, row, column, context)) return true;
    const message = rule.errorMessage ?? t('validation.invalid');
    const title = rule.errorTitle ? `${rule.errorTitle}: ` : '';
    if (rule.errorStyle === 'stop') {
      this.host.notice(`${title}${message}`);
      return false;
    }
    return window.confirm(`${title}${message}\n\n${t(rule.errorStyle === 'warning' ? 'validation.continue' : 'validation.accept')}`);
  }

  /** Opens the Data validation dialog for the selection, filled with the rule of its top-left cell. */
  openDialog(): void {
    if (!this.host.editable()) return;
    const range = this.host.grid().selectedRange;
    const current = validationAt(this.rules, range.top, range.left);
    const area = { startRow: range.top, endRow: range.bottom, startColumn: range.left, endColumn: range.right };
    this.dialog.setAttribute('aria-label', t('validation.title'));

    const heading = document.createElement('h2');
    heading.textContent = `${t('validation.title')} · ${formatA1({ sheetName: null, ...area }).replace(/^.*!/, '')}`;
    const field = (label: string, control: HTMLElement) => {
      const row = document.createElement('label');
      row.className = 'svc-sheet-validation-field';
      row.append(Object.assign(document.createElement('span'), { textContent: label }), control);
      return row;
    };
    const select = (options: readonly string[], prefix: 'validation.type.' | 'validation.op.' | 'validation.style.', value: string) => {
      const element = document.createElement('select');
      for (const option of options) element.append(Object.assign(document.createElement('option'), { value: option, textContent: t(`${prefix}${option}` as MessageKey) }));
      element.value = value;
      return element;
    };
    const text = (value: string, max: number) => Object.assign(document.createElement('input'), { type: 'text', value, maxLength: max });
    const operandText = (operand: ValidationOperand | undefined) => (operand === undefined ? '' : typeof operand === 'number' ? String(operand) : `=${operand}`);

    const type = select(VALIDATION_TYPES, 'validation.type.', current?.type ?? 'list');
    const operator = select(VALIDATION_OPERATORS, 'validation.op.', current?.operator ?? 'between');
    const value1 = text(operandText(current?.value1), 8192);
    const value2 = text(operandText(current?.value2), 8192);
    const source = text(current?.values ? current.values.join(', ') : current?.formula ? `=${current.formula}` : '', 8192);
    source.placeholder = t('validation.sourceHint');
    const allowBlank = Object.assign(document.createElement('input'), { type: 'checkbox', checked: current?.allowBlank ?? true });
    const style = select(ERROR_STYLES, 'validation.style.', current?.errorStyle ?? 'stop');
    const errorMessage = text(current?.errorMessage ?? '', 255);
    const prompt = text(current?.prompt ?? '', 255);
    const fields = {
      operator: field(t('validation.operator'), operator),
      value1: field(t('validation.value1'), value1),
      value2: field(t('validation.value2'), value2),
      source: field(t('validation.source'), source),
    };
    const blankRow = document.createElement('label');
    blankRow.className = 'svc-sheet-validation-check';
    blankRow.append(allowBlank, document.createTextNode(t('validation.allowBlank')));
    // the fields a type uses: bounds for numbers, dates and lengths, a source for lists, a formula for custom
    const showFields = () => {
      const bounded = type.value !== 'list' && type.value !== 'custom';
      fields.operator.hidden = !bounded;
      fields.value1.hidden = !bounded;
      fields.value2.hidden = !bounded || (operator.value !== 'between' && operator.value !== 'notBetween');
      fields.source.hidden = bounded;
      fields.source.querySelector('span')!.textContent = t(type.value === 'custom' ? 'validation.formula' : 'validation.source');
      source.placeholder = t(type.value === 'custom' ? 'validation.formulaHint' : 'validation.sourceHint');
    };
    type.addEventListener('change', showFields);
    operator.addEventListener('change', showFields);
    showFields();

    const problem = document.createElement('p');
    problem.className = 'svc-sheet-validation-problem';
    problem.setAttribute('role', 'alert');
    problem.hidden = true;
    const save = () => {
      const operand = (input: HTMLInputElement) => (type.value === 'date' ? dateOperand(input.value) : input.value.trim());
      const sourceText = source.value.trim();
      const listed = type.value === 'list' && !sourceText.startsWith('=');
      const rule = parseValidationRule({
        type: type.value,
        operator: operator.value,
        value1: operand(value1),
        value2: operand(value2),
        values: listed ? sourceText.split(',') : undefined,
        formula: listed ? undefined : sourceText,
        allowBlank: allowBlank.checked,
        errorStyle: style.value,
        errorMessage: errorMessage.value,
        prompt: prompt.value,
      });
      if (typeof rule === 'string') {
        problem.textContent = t('validation.badRule', { reason: rule });
        problem.hidden = false;
        return;
      }
      this.change(() => setValidation(this.host.sheet(), area, rule, randomId));
      this.closeDialog();
    };
    const button = (label: string, run: () => void, className = '') => Object.assign(document.createElement('button'), { type: 'button', textContent: label, className, onclick: run });
    const actions = document.createElement('div');
    actions.className = 'svc-sheet-validation-actions';
    actions.append(
      button(t('validation.remove'), () => (this.change(() => setValidation(this.host.sheet(), area, undefined, randomId)), this.closeDialog())),
      button(t('filter.cancel'), () => this.closeDialog()),
      button(t('filter.apply'), save, 'svc-sheet-validation-save'),
    );
    this.dialog.replaceChildren(
      heading,
      field(t('validation.type'), type),
      fields.operator,
      fields.value1,
      fields.value2,
      fields.source,
      blankRow,
      field(t('validation.style'), style),
      field(t('validation.message'), errorMessage),
      field(t('validation.prompt'), prompt),
      problem,
      actions,
    );
    this.dialog.hidden = false;
    type.focus();
  }

  closeDialog(): void {
    if (this.dialog.hidden) return;
    this.dialog.hidden = true;
    this.host.grid().focus();
  }

  private change(run: () => void): void {
    const { workbook } = this.host;
    workbook.doc.transact(run, workbook.origin);
  }
}

/** Places a panel under the cell its anchor is in, from the cell's left edge, inside the editor (as a dropdown opens). */
function place(element: HTMLElement, anchor: HTMLElement, root: HTMLElement): void {
  const origin = root.getBoundingClientRect();
  const at = (anchor.parentElement ?? anchor).getBoundingClientRect();
  element.style.minWidth = `${Math.max(140, at.width)}px`;
  element.style.left = `${Math.max(0, Math.min(at.left - origin.left, origin.width - element.offsetWidth - 4))}px`;
  element.style.top = `${Math.max(0, Math.min(at.bottom - origin.top + 2, origin.height - element.offsetHeight - 4))}px`;
}

/** Whether an item typed as it is would be stored as that text (not a number, date or TRUE). */
function isTypedAsIs(item: string): boolean {
  const { input } = parseTyped(item);
  return input === item || (typeof input === 'number' && String(input) === item);
}

/** A date bound as typed (`2024-03-15`) is its serial number, as typing it in a cell gives; a formula or number stays. */
function dateOperand(text: string): string | number {
  const { input } = parseTyped(text.trim());
  return typeof input === 'number' ? input : text.trim();
}

function randomId(): string {
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}
