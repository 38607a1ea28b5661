import { sheetPanel } from './sheet-panel.js';
import { formatA1, parseA1IfValid } from '../../src/model/sheets/a1.js';
import type { CellArea } from '../../src/model/sheets/cell-area.js';
import {
  addConditionalRule,
  ConditionalLookReader,
  conditionalRulesOf,
  MAX_CONDITIONAL_RULES,
  MAX_RANK,
  MAX_RULE_RANGES,
  MAX_RULE_TEXT,
  removeConditionalRule,
  shownCellsOf,
  type ConditionalCondition,
  type ConditionalFormat,
  type ConditionalLook,
  type ConditionalRule,
} from '../../src/model/sheets/conditional-formats.js';
import type { CellRange } from '../shared/grid/grid.js';
import { t } from './messages.js';
import type { SortFilterHost } from './sort-filter.js';
import type { SheetValues } from './values.js';
import type { Sheet } from './workbook.js';
import { setLook } from './cell-look.js';

/** What conditional formatting needs of the editor: what sort and filter do, but for their notices (the dialog shows its own). */
export type ConditionalFormatsHost = Omit<SortFilterHost, 'notice'>;

/** The rules the dialog adds, as the desktop programs' "Highlight cells", "Top/bottom", scales and bars menus offer them. */
const KINDS = ['gt', 'lt', 'between', 'eq', 'textContains', 'top', 'bottom', 'topPercent', 'aboveAverage', 'belowAverage', 'duplicates', 'unique', 'scale3', 'scale2', 'dataBar'] as const;
type Kind = (typeof KINDS)[number];

/** Which operands a kind asks for. */
const OPERANDS: Readonly<Record<Kind, 0 | 1 | 2>> = {
  gt: 1,
  lt: 1,
  between: 2,
  eq: 1,
  textContains: 1,
  top: 1,
  bottom: 1,
  topPercent: 1,
  aboveAverage: 0,
  belowAverage: 0,
  duplicates: 0,
  unique: 0,
  scale3: 0,
  scale2: 0,
  dataBar: 0,
};

/** The looks offered for highlighting rules (the desktop programs' presets; the first is their default). */
const PRESETS = {
  lightRedDarkRed: { fill: '#ffc7ce', color: '#9c0006' },
  yellowDarkYellow: { fill: '#ffeb9c', color: '#9c5700' },
  greenDarkGreen: { fill: '#c6efce', color: '#006100' },
  redFill: { fill: '#ff0000' },
  redText: { color: '#c00000' },
  bold: { bold: true },
} satisfies Record<string, ConditionalFormat>;
type Preset = keyof typeof PRESETS;

/** Excel's default scale and bar colours, so that imported and added rules look alike. */
const SCALE_LOW = '#f8696b';
const SCALE_MIDDLE = '#ffeb84';
const SCALE_HIGH = '#63be7b';
const BAR = '#638ec6';

/** What the dialog says is wrong with a rule (message keys). */
type Problem = 'condfmt.error.value' | 'condfmt.error.rank' | 'condfmt.error.percent' | 'condfmt.error.range' | 'condfmt.error.tooMany';

const operandOf = (text: string): number | string => (text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text);

/** A kind with its operands as a rule's condition, or a message key saying what is wrong with them. */
function conditionOf(kind: Kind, first: string, second: string, format: ConditionalFormat): ConditionalCondition | Problem {
  const rank = (limit: number) => {
    const n = Number(first);
    return Number.isInteger(n) && n >= 1 && n <= limit ? n : undefined;
  };
  if (OPERANDS[kind] > 0 && first.trim() === '') return 'condfmt.error.value';
  if (OPERANDS[kind] > 1 && second.trim() === '') return 'condfmt.error.value';
  if (first.length > MAX_RULE_TEXT || second.length > MAX_RULE_TEXT) return 'condfmt.error.value';
  switch (kind) {
    case 'gt':
    case 'lt':
    case 'eq':
      return { type: 'cellValue', op: kind, value: operandOf(first), format };
    case 'between':
      return { type: 'cellValue', op: 'between', value: operandOf(first), value2: operandOf(second), format };
    case 'textContains':
      return { type: 'text', op: 'contains', text: first, format };
    case 'top':
    case 'bottom': {
      const n = rank(MAX_RANK);
      return n === undefined ? 'condfmt.error.rank' : { type: 'topBottom', bottom: kind === 'bottom', percent: false, rank: n, format };
    }
    case 'topPercent': {
      const n = rank(100);
      return n === undefined ? 'condfmt.error.percent' : { type: 'topBottom', bottom: false, percent: true, rank: n, format };
    }
    case 'aboveAverage':
    case 'belowAverage':
      return { type: 'average', below: kind === 'belowAverage', format };
    case 'duplicates':
    case 'unique':
      return { type: 'duplicates', unique: kind === 'unique', format };
    case 'scale3':
      return { type: 'colorScale', points: [{ kind: 'min', color: SCALE_LOW }, { kind: 'percentile', value: 50, color: SCALE_MIDDLE }, { kind: 'max', color: SCALE_HIGH }] };
    case 'scale2':
      return { type: 'colorScale', points: [{ kind: 'min', color: '#ffffff' }, { kind: 'max', color: SCALE_HIGH }] };
    case 'dataBar':
      return { type: 'dataBar', color: BAR, min: { kind: 'min' }, max: { kind: 'max' } };
  }
}

/** A rule in words, for the dialog's list (`Greater than 100`, `Top 10%`, `3-colour scale`). */
function describe(rule: ConditionalRule): string {
  switch (rule.type) {
    case 'cellValue':
      return rule.value2 === undefined ? t(`condfmt.rule.${rule.op}`, { value: String(rule.value) }) : t(`condfmt.rule.${rule.op}`, { value: String(rule.value), value2: String(rule.value2) });
    case 'text':
      return t(`condfmt.rule.${rule.op}`, { value: rule.text });
    case 'topBottom':
      return t(`condfmt.rule.${rule.bottom ? 'bottom' : 'top'}${rule.percent ? 'Percent' : ''}`, { value: String(rule.rank) });
    case 'average':
      return t(rule.below ? 'condfmt.kind.belowAverage' : 'condfmt.kind.aboveAverage');
    case 'duplicates':
      return t(rule.unique ? 'condfmt.kind.unique' : 'condfmt.kind.duplicates');
    case 'colorScale':
      return t(rule.points.length === 3 ? 'condfmt.rule.scale3' : 'condfmt.rule.scale2');
    case 'dataBar':
      return t('condfmt.kind.dataBar');
  }
}

/** A sample of the look a rule gives, for the dialog's list. */
function swatch(rule: ConditionalRule): HTMLElement {
  const sample = document.createElement('span');
  sample.className = 'svc-sheet-condfmt-swatch';
  sample.textContent = 'AaBb';
  if (rule.type === 'colorScale') sample.style.background = `linear-gradient(to right, ${rule.points.map((point) => point.color).join(', ')})`;
  else if (rule.type === 'dataBar') sample.style.background = `linear-gradient(to right, ${rule.color} 60%, #fff 60%)`;
  else {
    sample.style.background = rule.format.fill ?? '#fff';
    sample.style.color = rule.format.color ?? '';
    sample.style.fontWeight = rule.format.bold ? '700' : '';
    sample.style.fontStyle = rule.format.italic ? 'italic' : '';
  }
  return sample;
}

const areaText = (area: CellArea): string => formatA1({ sheetName: null, ...area });

/**
 * Draws a conditional look over a cell drawn with its own style (drawShown): the editor's grid and the first screen
 * draw alike, so nothing changes when the editor takes over.
 */
export function drawConditionalLook(cell: HTMLElement, look: ConditionalLook | undefined): void {
  if (!look) return;
  if (look.fill) {
    cell.classList.add('svc-sheet-filled');
    setLook(cell, '--svc-cell-fill', look.fill);
  }
  if (look.color) setLook(cell, 'color', look.color);
  if (look.bold) cell.classList.add('svc-sheet-bold');
  if (look.italic) cell.classList.add('svc-sheet-italic');
  if (look.bar) {
    const bar = document.createElement('span');
    bar.className = 'svc-sheet-databar';
    // the lowest number keeps a sliver of bar, so that it reads as a bar of the rule and not as no bar
    bar.style.width = `${Math.max(2, look.bar.fraction * 100)}%`;
    bar.style.setProperty('--svc-databar', look.bar.color);
    cell.classList.add('svc-sheet-barred');
    cell.prepend(bar);
  }
}

/**
 * Conditional formatting in the spreadsheet editor (docs/SHEETS.md "Conditional formatting"): cells drawn with the
 * look the sheet's rules give them (computed again after every change, so the look follows the values live), and the
 * dialog that adds the common rules to the selection and lists and removes the sheet's rules. The model is
 * src/model/sheets/conditional-formats.ts; adding or removing a rule is one transaction, one undo step.
 */
export class ConditionalFormats {
  private reader: ConditionalLookReader | undefined;
  private readerOf: Sheet | undefined;
  /** cells of the reader's sheet to read again before the next look (their content or computed value changed) */
  private changedCells: Array<{ row: number; column: number }> = [];
  private readonly dialog: HTMLElement;

  constructor(private readonly host: ConditionalFormatsHost) {
    this.dialog = sheetPanel(host.root, 'svc-sheet-condfmt', 'dialog', () => this.close());
    this.dialog.setAttribute('aria-label', t('condfmt.title'));
  }

  /** The looks are computed again from the rules' whole areas at the next draw (a rule, the structure or the sheet changed). */
  invalidate(): void {
    this.reader = undefined;
    this.changedCells = [];
    if (!this.dialog.hidden) this.renderRules();
  }

  /**
   * Cells whose content changed (`cells`, any sheet) and cells whose formulas compute another value now
   * (`recomputed`, by sheet id): only they are read again at the next draw, and what the rules read of their whole
   * areas (the order of the numbers, the average, the counts of values) is updated from them.
   */
  cellsChanged(cells: ReadonlyArray<{ sheet: Sheet; row: number; column: number }>, recomputed: ReturnType<SheetValues['takeRecomputed']>): void {
    const sheet = this.readerOf;
    if (!this.reader || !sheet) return;
    if (recomputed === 'all') {
      this.invalidate();
      return;
    }
    for (const cell of cells) if (cell.sheet === sheet) this.changedCells.push(cell);
    const sheetId = this.host.workbook.idOf(sheet);
    for (const cell of recomputed) if (cell.sheetId === sheetId) this.changedCells.push(cell);
  }

  private lookAt(row: number, column: number): ConditionalLook | undefined {
    const sheet = this.host.sheet();
    if (!this.reader || this.readerOf !== sheet) {
      const { values } = this.host;
      this.reader = new ConditionalLookReader(conditionalRulesOf(sheet), shownCellsOf(sheet, (r, c) => values.shown(sheet, r, c)));
      this.readerOf = sheet;
      this.changedCells = [];
    } else if (this.changedCells.length > 0) {
      this.reader.cellsChanged(this.changedCells);
      this.changedCells = [];
    }
    return this.reader.lookAt(row, column);
  }

  /** Draws a cell's conditional look over its own style (after drawValue). */
  decorate(cell: HTMLElement, row: number, column: number): void {
    drawConditionalLook(cell, this.lookAt(row, column));
  }

  /** Opens the dialog over the grid, its "Apply to" the selection. */
  open(range: CellRange = this.host.grid().selectedRange): void {
    const readOnly = !this.host.editable();
    const heading = document.createElement('h2');
    heading.textContent = t('condfmt.title');

    const field = (label: string, control: HTMLElement) => {
      const wrapper = document.createElement('label');
      wrapper.className = 'svc-sheet-condfmt-field';
      const caption = document.createElement('span');
      caption.textContent = label;
      // named by its caption alone (a wrapping label would add the control's own value to its name)
      control.setAttribute('aria-label', label);
      wrapper.append(caption, control);
      return wrapper;
    };
    const select = <T extends string>(options: readonly T[], label: (option: T) => string) => {
      const node = document.createElement('select');
      for (const option of options) {
        const item = document.createElement('option');
        item.value = option;
        item.textContent = label(option);
        node.append(item);
      }
      return node;
    };
    const input = () => {
      const node = document.createElement('input');
      node.type = 'text';
      node.maxLength = MAX_RULE_TEXT;
      return node;
    };

    const applyTo = input();
    applyTo.value = areaText({ startRow: range.top, endRow: range.bottom, startColumn: range.left, endColumn: range.right });
    applyTo.maxLength = 1024;
    const kind = select(KINDS, (option) => t(`condfmt.kind.${option}`));
    const first = input();
    const second = input();
    const preset = select(Object.keys(PRESETS) as Preset[], (option) => t(`condfmt.preset.${option}`));
    const firstField = field(t('condfmt.value'), first);
    const secondField = field(t('condfmt.value2'), second);
    const presetField = field(t('condfmt.format'), preset);
    const showOperands = () => {
      const operands = OPERANDS[kind.value as Kind];
      firstField.hidden = operands < 1;
      secondField.hidden = operands < 2;
      presetField.hidden = kind.value === 'scale2' || kind.value === 'scale3' || kind.value === 'dataBar';
      if (kind.value === 'top' || kind.value === 'bottom' || kind.value === 'topPercent') first.value ||= '10';
    };
    kind.addEventListener('change', showOperands);
    showOperands();

    const problem = document.createElement('p');
    problem.className = 'svc-sheet-condfmt-problem';
    problem.setAttribute('role', 'alert');
    problem.hidden = true;
    const add = document.createElement('button');
    add.type = 'button';
    add.className = 'svc-sheet-condfmt-add';
    add.textContent = t('condfmt.add');
    add.disabled = readOnly;
    add.addEventListener('click', () => {
      const error = this.addRule(applyTo.value, kind.value as Kind, first.value, second.value, PRESETS[preset.value as Preset]);
      problem.hidden = error === undefined;
      problem.textContent = error === undefined ? '' : t(error);
      if (error === undefined) add.focus();
    });
    const close = document.createElement('button');
    close.type = 'button';
    close.textContent = t('condfmt.close');
    close.addEventListener('click', () => this.close());

    const form = document.createElement('div');
    form.className = 'svc-sheet-condfmt-form';
    form.hidden = readOnly;
    form.append(field(t('condfmt.applyTo'), applyTo), field(t('condfmt.rule'), kind), firstField, secondField, presetField, problem);
    const list = document.createElement('ul');
    list.className = 'svc-sheet-condfmt-rules';
    list.setAttribute('aria-label', t('condfmt.rules'));
    const actions = document.createElement('div');
    actions.className = 'svc-sheet-condfmt-actions';
    actions.append(close, add);
    if (readOnly) add.hidden = true;
    this.dialog.replaceChildren(heading, list, form, actions);
    this.renderRules();
    this.dialog.hidden = false;
    (readOnly ? close : kind).focus();
  }

  /** Adds a rule from the dialog's fields; answers the message key of what is wrong, or undefined when it was added. */
  private addRule(rangeText: string, kind: Kind, first: string, second: string, format: ConditionalFormat): Problem | undefined {
    if (!this.host.editable()) return undefined;
    const sheet = this.host.sheet();
    const ranges: CellArea[] = [];
    for (const part of rangeText.split(',')) {
      const parsed = parseA1IfValid(part);
      if (!parsed || (parsed.sheetName !== null && parsed.sheetName !== sheet.name) || parsed.startRow >= sheet.rowCount || parsed.startColumn >= sheet.columnCount) return 'condfmt.error.range';
      ranges.push({ startRow: parsed.startRow, endRow: Math.min(parsed.endRow, sheet.rowCount - 1), startColumn: parsed.startColumn, endColumn: Math.min(parsed.endColumn, sheet.columnCount - 1) });
    }
    if (ranges.length > MAX_RULE_RANGES) return 'condfmt.error.range';
    const condition = conditionOf(kind, first, second, format);
    if (typeof condition === 'string') return condition;
    if (conditionalRulesOf(sheet).length >= MAX_CONDITIONAL_RULES) return 'condfmt.error.tooMany';
    const { workbook } = this.host;
    let added: ConditionalRule | undefined;
    workbook.doc.transact(() => (added = addConditionalRule(sheet, condition, ranges)), workbook.origin);
    return added ? undefined : 'condfmt.error.value';
  }

  /** The dialog's list of the sheet's rules, in the order they apply, each with its Remove button. */
  private renderRules(): void {
    const list = this.dialog.querySelector('.svc-sheet-condfmt-rules');
    if (!list) return;
    const sheet = this.host.sheet();
    const rules = conditionalRulesOf(sheet);
    const items = rules.map((rule) => {
      const item = document.createElement('li');
      const text = document.createElement('span');
      text.className = 'svc-sheet-condfmt-text';
      const description = describe(rule);
      const where = rule.ranges.map(areaText).join(',');
      text.textContent = `${description} — ${where}`;
      // a long rule is cut at the dialog's edge: the whole of it shows on hover
      text.title = text.textContent;
      const remove = document.createElement('button');
      remove.type = 'button';
      remove.textContent = t('condfmt.remove');
      remove.setAttribute('aria-label', t('condfmt.removeRule', { rule: description, range: where }));
      remove.hidden = !this.host.editable();
      remove.addEventListener('click', () => {
        const { workbook } = this.host;
        workbook.doc.transact(() => removeConditionalRule(sheet, rule.id), workbook.origin);
      });
      item.append(swatch(rule), text, remove);
      return item;
    });
    if (items.length === 0) {
      const empty = document.createElement('li');
      empty.className = 'svc-sheet-condfmt-empty';
      empty.textContent = t('condfmt.none');
      items.push(empty);
    }
    list.replaceChildren(...items);
  }

  close(): void {
    if (this.dialog.hidden) return;
    this.dialog.hidden = true;
    this.host.grid().focus();
  }
}
