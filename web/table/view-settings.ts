import { coverAccepts, formAccepts, KANBAN_GROUP_TYPE, MAX_SORT_LEVELS } from '../../src/model/tables/views.js';
import { t } from './messages.js';
import { sidePanel } from './side-panel.js';
import type { Column, SortLevel, TableView } from './model.js';
import { labelledField } from './controls.js';

export interface ViewSettingsOptions {
  view: TableView;
  columns: readonly Column[];
  save(settings: TableView['settings']): Promise<void>;
  close(): void;
}


function columnSelect(columns: readonly Column[], current: string | null, none: string): HTMLSelectElement {
  const select = document.createElement('select');
  select.className = 'svc-table-select';
  select.append(new Option(none, ''), ...columns.map((column) => new Option(column.name, column.guid)));
  select.value = current ?? '';
  return select;
}

/** Checkboxes choosing columns, in table order; `read` answers the checked guids in that order. */
function columnChecks(legend: string, columns: readonly Column[], checked: readonly string[]): { node: HTMLElement; read(): string[] } {
  const set = document.createElement('fieldset');
  set.className = 'svc-table-checks';
  const caption = document.createElement('legend');
  caption.textContent = legend;
  set.append(caption);
  const boxes = columns.map((column) => {
    const label = document.createElement('label');
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.value = column.guid;
    box.checked = checked.includes(column.guid);
    label.append(box, ` ${column.name}`);
    set.append(label);
    return box;
  });
  return { node: set, read: () => boxes.filter((box) => box.checked).map((box) => box.value) };
}

/**
 * The shown view's settings (side panel), shared by everyone who opens the base: grid grouping, sort levels
 * and hidden columns; the kanban's column and card fields; the gallery's cover and card fields; the form's
 * title, description and questions. Saved together with Save.
 */
export function viewSettingsPanel(container: HTMLElement, options: ViewSettingsOptions): void {
  const { view, columns } = options;
  const { panel, heading, close } = sidePanel(t('settings.title', { name: view.name }), () => options.close());
  const fields: HTMLElement[] = [];
  let read: () => TableView['settings'];
  if (view.kind === 'grid') {
    const group = columnSelect(columns, view.settings.groupBy, t('settings.noGroup'));
    const levels = document.createElement('div');
    levels.className = 'svc-table-sort-levels';
    const rows: Array<{ column: HTMLSelectElement; order: HTMLSelectElement }> = [];
    const addLevel = (level: SortLevel | undefined) => {
      const line = document.createElement('div');
      line.className = 'svc-table-buttons';
      const number = rows.length + 1;
      const column = columnSelect(columns, level?.columnGuid ?? null, t('view.sortNone'));
      column.setAttribute('aria-label', t('settings.sortLevel', { level: number }));
      const order = document.createElement('select');
      order.className = 'svc-table-select';
      order.setAttribute('aria-label', t('settings.sortOrder', { level: number }));
      order.append(new Option(t('view.ascending'), 'asc'), new Option(t('view.descending'), 'desc'));
      order.value = level?.descending ? 'desc' : 'asc';
      line.append(column, order);
      levels.append(line);
      rows.push({ column, order });
    };
    for (const level of view.settings.sort) addLevel(level);
    if (rows.length === 0) addLevel(undefined);
    const more = document.createElement('button');
    more.type = 'button';
    more.className = 'svc-table-button';
    more.textContent = t('settings.addSort');
    more.addEventListener('click', () => {
      if (rows.length < MAX_SORT_LEVELS) addLevel(undefined);
      more.disabled = rows.length >= MAX_SORT_LEVELS;
      rows.at(-1)?.column.focus();
    });
    const hidden = columnChecks(t('settings.hidden'), columns.filter((column) => !column.isPrimary), view.settings.hiddenColumns);
    fields.push(labelledField(t('settings.groupBy'), group), labelledField(t('settings.sort'), levels), more, hidden.node);
    read = () => ({
      hiddenColumns: hidden.read(),
      columnOrder: view.settings.columnOrder,
      sort: rows
        .filter((row) => row.column.value !== '')
        .filter((row, index, all) => all.findIndex((other) => other.column.value === row.column.value) === index)
        .map((row) => ({ columnGuid: row.column.value, descending: row.order.value === 'desc' })),
      groupBy: group.value || null,
    });
  } else if (view.kind === 'kanban') {
    const group = columnSelect(columns.filter((column) => column.type === KANBAN_GROUP_TYPE), view.settings.groupBy, t('settings.noGroup'));
    const cards = columnChecks(t('settings.cardFields'), columns.filter((column) => !column.isPrimary), view.settings.cardFields);
    fields.push(labelledField(t('settings.kanbanBy'), group), cards.node);
    read = () => ({ groupBy: group.value || null, cardFields: cards.read() });
  } else if (view.kind === 'gallery') {
    const cover = columnSelect(columns.filter((column) => coverAccepts(column.type)), view.settings.cover, t('settings.noCover'));
    const cards = columnChecks(t('settings.cardFields'), columns.filter((column) => !column.isPrimary), view.settings.cardFields);
    fields.push(labelledField(t('settings.cover'), cover), cards.node);
    read = () => ({ cover: cover.value || null, cardFields: cards.read() });
  } else {
    const title = document.createElement('input');
    title.className = 'svc-table-search';
    title.maxLength = 200;
    title.value = view.settings.title;
    const description = document.createElement('textarea');
    description.className = 'svc-table-textarea';
    description.maxLength = 2000;
    description.value = view.settings.description;
    const asked = columnChecks(t('settings.formFields'), columns.filter((column) => formAccepts(column.type)), view.settings.fields);
    fields.push(labelledField(t('settings.formTitle'), title), labelledField(t('settings.formDescription'), description), asked.node);
    read = () => ({ title: title.value, description: description.value, fields: asked.read() });
  }
  const error = document.createElement('p');
  error.className = 'svc-table-form-error';
  error.setAttribute('role', 'alert');
  const save = document.createElement('button');
  save.type = 'button';
  save.className = 'svc-table-button svc-table-primary';
  save.textContent = t('column.save');
  save.addEventListener('click', () => {
    save.disabled = true;
    options.save(read()).then(
      () => options.close(),
      () => {
        error.textContent = t('refuse.failed');
        save.disabled = false;
      },
    );
  });
  const buttons = document.createElement('div');
  buttons.className = 'svc-table-buttons';
  buttons.append(save, close);
  panel.append(heading, ...fields, error, buttons);
  container.replaceChildren(panel);
  panel.querySelector<HTMLElement>('select, input, textarea')?.focus();
}
