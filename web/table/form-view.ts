import { choiceOptions } from './cell-types.js';
import { explainRefusal, readTyped } from './refusals.js';
import { t } from './messages.js';
import type { Column, ValueMap, ViewSettingsOf } from './model.js';

export interface FormViewOptions {
  settings: ViewSettingsOf['form'];
  tableName: string;
  columns: readonly Column[];
  editable: boolean;
  /** creates the row; a refusal of the service is shown above the button */
  submit(valueMap: ValueMap): Promise<void>;
}

/** One question of the form: its control and how to read its answer (undefined: left empty). */
interface Question {
  column: Column;
  node: HTMLElement;
  read(): { value: unknown } | { error: string } | undefined;
  clear(): void;
}

function question(column: Column): Question {
  const id = `svc-form-${column.guid}`;
  if (column.type === 'SingleChoice') {
    const select = document.createElement('select');
    select.id = id;
    select.className = 'svc-table-select';
    select.append(new Option(t('form.choose'), ''), ...choiceOptions(column).map((option) => new Option(option.name, option.name)));
    return { column, node: select, read: () => (select.value ? { value: select.value } : undefined), clear: () => (select.value = '') };
  }
  if (column.type === 'MultipleChoice') {
    const group = document.createElement('div');
    group.id = id;
    group.className = 'svc-table-form-choices';
    const boxes = choiceOptions(column).map((option) => {
      const label = document.createElement('label');
      const box = document.createElement('input');
      box.type = 'checkbox';
      box.value = option.name;
      label.append(box, ` ${option.name}`);
      group.append(label);
      return box;
    });
    const read = () => {
      const chosen = boxes.filter((box) => box.checked).map((box) => box.value);
      return chosen.length > 0 ? { value: chosen } : undefined;
    };
    return { column, node: group, read, clear: () => boxes.forEach((box) => (box.checked = false)) };
  }
  if (column.type === 'CheckBox') {
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.id = id;
    return { column, node: box, read: () => (box.checked ? { value: true } : undefined), clear: () => (box.checked = false) };
  }
  const input = document.createElement(column.type === 'LongText' ? 'textarea' : 'input');
  input.id = id;
  input.className = column.type === 'LongText' ? 'svc-table-textarea' : 'svc-table-search';
  if (input instanceof HTMLInputElement && column.type === 'Date') input.placeholder = column.props.format === 'datetime' ? '2026-03-14 09:30' : '2026-03-14';
  const read = () => {
    if (input.value.trim() === '') return undefined;
    const parsed = readTyped(column, input.value);
    if ('error' in parsed) return parsed;
    const why = explainRefusal(column, parsed.value);
    return why === undefined ? parsed : { error: why };
  };
  return { column, node: input, read, clear: () => (input.value = '') };
}

/**
 * A form that adds a row: the view's title and description, one question per chosen column, each checked
 * as the grid checks a cell (the messages in the page's language, under their field) before anything is sent.
 */
export function drawForm(container: HTMLElement, options: FormViewOptions): void {
  const form = document.createElement('form');
  form.className = 'svc-table-form svc-table-form-view';
  form.noValidate = true;
  const title = options.settings.title || options.tableName;
  form.setAttribute('aria-label', title);
  const heading = document.createElement('h2');
  heading.textContent = title;
  form.append(heading);
  if (options.settings.description) {
    const description = document.createElement('p');
    description.className = 'svc-table-form-description';
    description.textContent = options.settings.description;
    form.append(description);
  }
  const questions = options.settings.fields.flatMap((guid) => {
    const column = options.columns.find((candidate) => candidate.guid === guid);
    return column ? [question(column)] : [];
  });
  const errors = new Map<Question, HTMLElement>();
  for (const asked of questions) {
    const field = document.createElement('div');
    field.className = 'svc-table-field';
    const label = document.createElement('label');
    label.htmlFor = asked.node.id;
    label.textContent = asked.column.name;
    if (asked.node.tagName === 'DIV') {
      asked.node.setAttribute('role', 'group');
      asked.node.setAttribute('aria-label', asked.column.name);
    }
    const error = document.createElement('span');
    error.className = 'svc-table-form-error';
    error.setAttribute('role', 'alert');
    errors.set(asked, error);
    field.append(label, asked.node, error);
    form.append(field);
  }
  const status = document.createElement('p');
  status.className = 'svc-table-form-status';
  status.setAttribute('role', 'status');
  const submit = document.createElement('button');
  submit.type = 'submit';
  submit.className = 'svc-table-button svc-table-primary';
  submit.textContent = t('form.submit');
  submit.disabled = !options.editable;
  form.append(submit, status);
  if (!options.editable) status.textContent = t('cell.readOnly');
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const valueMap: ValueMap = {};
    let first: HTMLElement | undefined;
    for (const asked of questions) {
      const answer = asked.read();
      const error = errors.get(asked)!;
      error.textContent = answer && 'error' in answer ? answer.error : '';
      if (answer && 'error' in answer) first ??= asked.node;
      else if (answer) valueMap[asked.column.name] = answer.value;
    }
    if (first) {
      status.textContent = '';
      first.focus();
      return;
    }
    submit.disabled = true;
    status.textContent = t('form.sending');
    options.submit(valueMap).then(
      () => {
        for (const asked of questions) asked.clear();
        status.textContent = t('form.sent');
        submit.disabled = false;
        (questions[0]?.node ?? submit).focus();
      },
      () => {
        status.textContent = t('refuse.failed');
        submit.disabled = false;
      },
    );
  });
  container.replaceChildren(form);
}
