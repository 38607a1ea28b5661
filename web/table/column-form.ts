import type { CascadeOption } from '../../src/model/tables/fields/cascade.js';
import { CHECKBOX_ICONS } from '../../src/model/tables/fields/checkbox.js';
import { RATE_ICONS as RATE_ICON_NAMES } from '../../src/model/tables/fields/rate.js';
import { cascadeOptions, choiceOptions, EDITABLE_TYPES, PRIMARY_TYPES } from './cell-types.js';
import { t, typeName } from './messages.js';
import type { Column, DataTable } from './model.js';
import { labelledField } from './controls.js';

/** What the column form gives back: the column as the table API takes it. */
export interface ColumnDraft {
  name: string;
  type: string;
  props: Record<string, unknown>;
}

export interface ColumnFormOptions {
  /** the column to edit; absent: a new column */
  column?: Column | undefined;
  /** tables of the base (Link columns name one) */
  tables: readonly DataTable[];
  save(draft: ColumnDraft): Promise<void>;
  remove?: (() => Promise<void>) | undefined;
  close(): void;
}


function select(values: readonly string[], current: string, label: (value: string) => string): HTMLSelectElement {
  const control = document.createElement('select');
  control.className = 'svc-table-select';
  for (const value of values) control.append(new Option(label(value), value));
  control.value = current;
  return control;
}

/** Choice options as lines `name` or `name #color`. */
function choiceLines(column: Column | undefined): string {
  if (!column) return '';
  return choiceOptions(column).map((option) => (option.color ? `${option.name} ${option.color}` : option.name)).join('\n');
}

function parseChoiceLines(text: string): { name: string; color?: string }[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const match = /^(.*?)\s+(#[0-9a-f]{3,8})$/i.exec(line);
      return match ? { name: match[1]!, color: match[2]! } : { name: line };
    });
}

/** Cascade options as an outline: two spaces of indent per level. */
function cascadeLines(options: readonly CascadeOption[], depth = 0): string[] {
  return options.flatMap((option) => [`${'  '.repeat(depth)}${option.name}`, ...cascadeLines(option.children ?? [], depth + 1)]);
}

function parseCascadeLines(text: string): CascadeOption[] {
  const root: CascadeOption[] = [];
  const stack: { depth: number; children: CascadeOption[] }[] = [{ depth: -1, children: root }];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const depth = Math.floor((line.length - line.trimStart().length) / 2);
    while (stack.length > 1 && stack.at(-1)!.depth >= depth) stack.pop();
    const option: CascadeOption = { name: line.trim() };
    stack.at(-1)!.children.push(option);
    option.children = [];
    stack.push({ depth, children: option.children });
  }
  const prune = (options: CascadeOption[]): CascadeOption[] =>
    options.map((option) => (option.children && option.children.length > 0 ? { name: option.name, children: prune(option.children) } : { name: option.name }));
  return prune(root);
}

/**
 * The form to add a column or change one (name, type, the type's settings) and to delete it, in the side
 * panel. The service checks the draft (names unique, props valid, primary column types); its refusal is
 * shown in the form, and nothing changes.
 */
export function columnForm(container: HTMLElement, options: ColumnFormOptions): void {
  const { column } = options;
  const form = document.createElement('form');
  form.className = 'svc-table-form';
  form.setAttribute('aria-label', column ? t('column.edit') : t('column.add'));
  const heading = document.createElement('h2');
  heading.textContent = column ? t('column.edit') : t('column.add');
  const name = document.createElement('input');
  name.className = 'svc-table-search';
  name.required = true;
  name.maxLength = 100;
  name.value = column?.name ?? '';
  const types = column?.isPrimary ? PRIMARY_TYPES : EDITABLE_TYPES;
  const type = select(types, column?.type ?? 'SingleLineText', typeName);
  const settings = document.createElement('div');
  const error = document.createElement('p');
  error.className = 'svc-table-form-error';
  error.setAttribute('role', 'alert');
  let readProps: () => Record<string, unknown> = () => ({});

  const drawSettings = () => {
    const kind = type.value;
    const same = column?.type === kind;
    const props = same && column ? column.props : {};
    settings.replaceChildren();
    if (kind === 'Number' || kind === 'Percent') {
      const precision = select(['', ...Array.from({ length: 11 }, (_, n) => String(n))], props.precision === undefined ? '' : String(props.precision), (value) => value || t('column.anyPrecision'));
      settings.append(labelledField(t('column.precision'), precision));
      readProps = () => (precision.value === '' ? {} : { precision: Number(precision.value) });
    } else if (kind === 'Date') {
      const format = select(['date', 'datetime'], String(props.format ?? 'date'), (value) => t(value === 'date' ? 'column.formatDate' : 'column.formatDateTime'));
      settings.append(labelledField(t('column.format'), format));
      readProps = () => ({ format: format.value });
    } else if (kind === 'SingleChoice' || kind === 'MultipleChoice') {
      const lines = document.createElement('textarea');
      lines.className = 'svc-table-textarea';
      lines.value = column && (column.type === 'SingleChoice' || column.type === 'MultipleChoice') ? choiceLines(column) : '';
      settings.append(labelledField(t('column.options'), lines));
      readProps = () => ({ options: parseChoiceLines(lines.value) });
    } else if (kind === 'CheckBox') {
      const look = select(CHECKBOX_ICONS, String(props.type ?? 'check'), (value) => t(`checkbox.${value as (typeof CHECKBOX_ICONS)[number]}`));
      settings.append(labelledField(t('column.look'), look));
      readProps = () => ({ type: look.value });
    } else if (kind === 'Rate') {
      const count = select(Array.from({ length: 10 }, (_, n) => String(n + 1)), String(props.count ?? 5), (value) => value);
      const icon = select(RATE_ICON_NAMES, String(props.icon ?? 'star'), (value) => t(`rate.${value as (typeof RATE_ICON_NAMES)[number]}`));
      settings.append(labelledField(t('column.count'), count), labelledField(t('column.icon'), icon));
      readProps = () => ({ count: Number(count.value), icon: icon.value });
    } else if (kind === 'Link') {
      const table = select(
        options.tables.map((candidate) => candidate.guid),
        String(props.tableGuid ?? options.tables[0]?.guid ?? ''),
        (guid) => options.tables.find((candidate) => candidate.guid === guid)?.name ?? guid,
      );
      settings.append(labelledField(t('column.linkedTable'), table));
      readProps = () => ({ tableGuid: table.value });
    } else if (kind === 'Cascade') {
      const lines = document.createElement('textarea');
      lines.className = 'svc-table-textarea';
      lines.value = column?.type === 'Cascade' ? cascadeLines(cascadeOptions(column)).join('\n') : '';
      settings.append(labelledField(t('column.cascadeOptions'), lines));
      readProps = () => ({ options: parseCascadeLines(lines.value) });
    } else {
      readProps = () => ({});
    }
  };
  type.addEventListener('change', drawSettings);
  drawSettings();

  const buttons = document.createElement('div');
  buttons.className = 'svc-table-buttons';
  const save = document.createElement('button');
  save.type = 'submit';
  save.className = 'svc-table-button svc-table-primary';
  save.textContent = t('column.save');
  const cancel = document.createElement('button');
  cancel.type = 'button';
  cancel.className = 'svc-table-button';
  cancel.textContent = t('column.cancel');
  cancel.addEventListener('click', () => options.close());
  buttons.append(save, cancel);
  const run = async (work: () => Promise<void>) => {
    error.textContent = '';
    save.disabled = true;
    try {
      await work();
      options.close();
    } catch (failure) {
      error.textContent = failure instanceof Error ? failure.message : String(failure);
    } finally {
      save.disabled = false;
    }
  };
  if (options.remove && column && !column.isPrimary) {
    const remove = document.createElement('button');
    remove.type = 'button';
    remove.className = 'svc-table-button svc-table-danger';
    remove.textContent = t('column.delete');
    remove.addEventListener('click', () => void run(options.remove!));
    buttons.append(remove);
  }
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const props = readProps();
    // The API takes a single-choice column without options, but no cell of it could then hold a value.
    if (type.value === 'SingleChoice' && Array.isArray(props.options) && props.options.length === 0) {
      error.textContent = t('column.needsOptions');
      return;
    }
    void run(() => options.save({ name: name.value.trim(), type: type.value, props }));
  });
  form.append(heading, labelledField(t('column.name'), name), labelledField(t('column.type'), type), settings, error, buttons);
  container.replaceChildren(form);
  name.focus();
}
