import type { CascadeOption } from '../../src/model/tables/fields/cascade.js';
import { textCellEditor, type CellEditorHost } from '../shared/grid/grid.js';
import { cascadeOptions, choiceOptions, editableText, optionColor, RATE_ICONS } from './cell-types.js';
import { readTyped } from './refusals.js';
import { t } from './messages.js';
import type { Column, Row } from './model.js';

/** What a cell editor needs from the table editor. */
export interface CellEditContext {
  column: Column;
  row: Row;
  value: unknown;
  /** checks and writes a value (`null` clears); a refused value shows its error in the cell */
  commit(value: unknown): void;
  /** shows an error in the cell without writing anything */
  refuse(message: string): void;
  /** rows of the linked table whose primary value contains `text` (Link cells) */
  linkCandidates(text: string): Promise<{ guid: string; label: string }[]>;
  linkLabel(rowGuid: string): string;
  /** adds an option to the choice column (users allowed to change columns); absent: not allowed */
  addOption?: ((name: string) => Promise<void>) | undefined;
}

function element<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/**
 * Opens the editor of a cell's type over the cell. Types typed as text (text, number, percent, date, rate
 * by digits) use the grid's text editor; the others a small panel of choices. Every editor ends in
 * `context.commit`, which refuses a value of the wrong type before anything is sent.
 */
export function openCellEditor(host: CellEditorHost, context: CellEditContext): void {
  const { column } = context;
  switch (column.type) {
    case 'CheckBox':
      context.commit(context.value !== true);
      host.close();
      return;
    case 'LongText':
      longTextEditor(host, context);
      return;
    case 'SingleChoice':
    case 'MultipleChoice':
      choiceEditor(host, context, column.type === 'MultipleChoice');
      return;
    case 'Rate':
      if (host.typed !== undefined) break;
      rateEditor(host, context);
      return;
    case 'Cascade':
      cascadeEditor(host, context);
      return;
    case 'Link':
      linkEditor(host, context);
      return;
    case 'Date':
      if (host.typed !== undefined) break;
      datePicker(host, context);
      return;
    case 'AutoNumber':
    case 'Attachment':
      context.refuse(t('cell.readOnlyType', { type: column.type }));
      host.close();
      return;
  }
  const input = textCellEditor(host, {
    initial: editableText(column, context.value),
    commit: (text) => {
      const parsed = readTyped(column, text);
      if ('error' in parsed) context.refuse(parsed.error);
      else context.commit(parsed.value);
    },
  });
  input.setAttribute('aria-label', column.name);
  if (column.type === 'Date') input.placeholder = column.props.format === 'datetime' ? '2026-03-14 09:30' : '2026-03-14';
}

/** The browser's date (or date and time) picker, reachable by keyboard; Enter or Done writes, Clear empties. */
function datePicker(host: CellEditorHost, context: CellEditContext): void {
  const box = panel(host, context.column.name);
  const input = element('input', 'svc-table-search');
  const withTime = context.column.props.format === 'datetime';
  input.type = withTime ? 'datetime-local' : 'date';
  input.setAttribute('aria-label', context.column.name);
  input.value = editableText(context.column, context.value);
  const finish = () => {
    // An incomplete date leaves the input empty (browsers do not expose half-typed dates): clears nothing then.
    if (input.value === '' && !input.validity.badInput) context.commit(null);
    else if (input.value !== '') context.commit(input.value);
    host.close('down');
  };
  input.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    finish();
  });
  const clear = element('button', 'svc-table-button', t('editor.clear'));
  clear.type = 'button';
  clear.addEventListener('click', () => {
    context.commit(null);
    host.close();
  });
  const buttons = element('div', 'svc-table-buttons');
  buttons.append(doneButton(finish), clear);
  box.append(input, buttons);
  input.focus();
}

/** A panel under the cell; Escape closes it without writing. */
function panel(host: CellEditorHost, label: string): HTMLElement {
  const box = element('div', 'svc-table-popup');
  box.setAttribute('role', 'dialog');
  box.setAttribute('aria-label', label);
  box.tabIndex = -1;
  box.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    host.close();
  });
  host.element.append(box);
  return box;
}

function doneButton(onDone: () => void): HTMLButtonElement {
  const button = element('button', 'svc-table-button svc-table-primary', t('editor.done'));
  button.type = 'button';
  button.addEventListener('click', onDone);
  return button;
}

function longTextEditor(host: CellEditorHost, context: CellEditContext): void {
  const box = panel(host, context.column.name);
  const area = element('textarea', 'svc-table-textarea');
  area.value = host.typed ?? editableText(context.column, context.value);
  area.setAttribute('aria-label', context.column.name);
  const finish = () => {
    context.commit(area.value === '' ? null : area.value);
    host.close('down');
  };
  area.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      finish();
    }
  });
  box.append(area, doneButton(finish));
  area.focus();
}

function choiceEditor(host: CellEditorHost, context: CellEditContext, multiple: boolean): void {
  const options = choiceOptions(context.column);
  const box = panel(host, context.column.name);
  const chosen = new Set<string>(multiple ? (Array.isArray(context.value) ? context.value.map(String) : []) : []);
  const search = element('input', 'svc-table-search');
  search.placeholder = t('editor.searchOptions');
  search.setAttribute('aria-label', t('editor.searchOptions'));
  search.value = host.typed ?? '';
  const list = element('div', 'svc-table-options');
  list.setAttribute('role', 'listbox');
  list.setAttribute('aria-multiselectable', String(multiple));
  const finishMultiple = () => {
    context.commit([...chosen]);
    host.close();
  };
  const addOption = context.addOption;
  /** Adds the typed name as a new option of the column, then picks it. */
  const add = async (name: string) => {
    if (!addOption) return;
    await addOption(name);
    options.push({ name });
    if (!multiple) {
      context.commit(name);
      host.close();
      return;
    }
    chosen.add(name);
    search.value = '';
    draw();
  };
  const addButton = element('button', 'svc-table-button');
  addButton.type = 'button';
  addButton.addEventListener('click', () => void add(search.value.trim()).catch((error: unknown) => context.refuse(error instanceof Error ? error.message : String(error))));
  const draw = () => {
    const needle = search.value.trim().toLowerCase();
    const typed = search.value.trim();
    addButton.hidden = !addOption || typed === '' || options.some((option) => option.name === typed);
    addButton.textContent = t('editor.addOption', { name: typed });
    list.replaceChildren(
      ...options
        .filter((option) => option.name.toLowerCase().includes(needle))
        .map((option) => {
          const item = element('button', 'svc-table-option');
          item.type = 'button';
          item.setAttribute('role', 'option');
          const selected = multiple ? chosen.has(option.name) : context.value === option.name;
          item.setAttribute('aria-selected', String(selected));
          const chip = element('span', 'svc-table-chip', option.name);
          chip.style.background = optionColor(options, option.name);
          item.append(chip);
          item.addEventListener('click', () => {
            if (!multiple) {
              context.commit(option.name);
              host.close();
              return;
            }
            if (chosen.has(option.name)) chosen.delete(option.name);
            else chosen.add(option.name);
            draw();
          });
          return item;
        }),
    );
  };
  search.addEventListener('input', draw);
  search.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    const typed = search.value.trim();
    if (multiple && typed === '') return finishMultiple();
    if (typed === '') {
      context.commit(null);
      host.close();
      return;
    }
    // the option typed, or (no such option) the typed text, which the type check refuses in the cell
    const match = options.find((option) => option.name.toLowerCase() === typed.toLowerCase()) ?? options.find((option) => option.name.toLowerCase().includes(typed.toLowerCase()));
    if (!match && addOption) {
      addButton.click();
      return;
    }
    const name = match?.name ?? typed;
    if (multiple) {
      chosen.add(name);
      search.value = '';
      if (!match) return finishMultiple();
      draw();
      return;
    }
    context.commit(name);
    host.close();
  });
  const clear = element('button', 'svc-table-button', t('editor.clear'));
  clear.type = 'button';
  clear.addEventListener('click', () => {
    context.commit(null);
    host.close();
  });
  box.append(search, list, addButton, clear);
  if (multiple) box.append(doneButton(finishMultiple));
  draw();
  search.focus();
}

function rateEditor(host: CellEditorHost, context: CellEditContext): void {
  const count = typeof context.column.props.count === 'number' ? context.column.props.count : 5;
  const icon = RATE_ICONS[String(context.column.props.icon)] ?? RATE_ICONS.star!;
  const current = typeof context.value === 'number' ? context.value : 0;
  const box = panel(host, context.column.name);
  const icons = element('div', 'svc-table-rate');
  for (let value = 1; value <= count; value++) {
    const button = element('button', `svc-table-rate-icon${value <= current ? ' svc-table-rate-on' : ''}`, icon);
    button.type = 'button';
    button.setAttribute('aria-label', t('editor.rate', { value, count }));
    button.addEventListener('click', () => {
      context.commit(value === current ? 0 : value);
      host.close();
    });
    icons.append(button);
  }
  const clear = element('button', 'svc-table-button', t('editor.clear'));
  clear.type = 'button';
  clear.addEventListener('click', () => {
    context.commit(null);
    host.close();
  });
  box.append(icons, clear);
  (icons.firstElementChild as HTMLElement | null)?.focus();
}

function cascadeEditor(host: CellEditorHost, context: CellEditContext): void {
  const box = panel(host, context.column.name);
  const path: string[] = Array.isArray(context.value) ? context.value.map(String) : [];
  const levels = element('div', 'svc-table-cascade');
  const draw = () => {
    const selects: HTMLSelectElement[] = [];
    let level: CascadeOption[] | undefined = cascadeOptions(context.column);
    for (let depth = 0; level && level.length > 0; depth++) {
      const select = element('select', 'svc-table-select');
      select.setAttribute('aria-label', t('editor.level', { level: depth + 1 }));
      select.append(new Option('—', ''), ...level.map((option) => new Option(option.name, option.name)));
      const options: CascadeOption[] = level;
      const picked: CascadeOption | undefined = options.find((option) => option.name === path[depth]);
      select.value = picked?.name ?? '';
      select.addEventListener('change', () => {
        path.splice(depth);
        if (select.value) path.push(select.value);
        draw();
      });
      selects.push(select);
      level = picked?.children;
      if (!picked) break;
    }
    levels.replaceChildren(...selects);
  };
  draw();
  box.append(
    levels,
    doneButton(() => {
      context.commit(path.length === 0 ? null : [...path]);
      host.close();
    }),
  );
  (levels.firstElementChild as HTMLElement | null)?.focus();
}

function linkEditor(host: CellEditorHost, context: CellEditContext): void {
  const box = panel(host, context.column.name);
  const chosen: string[] = Array.isArray(context.value) ? context.value.map(String) : [];
  const search = element('input', 'svc-table-search');
  search.placeholder = t('editor.searchRows');
  search.setAttribute('aria-label', t('editor.searchRows'));
  search.value = host.typed ?? '';
  const list = element('div', 'svc-table-options');
  list.setAttribute('role', 'listbox');
  list.setAttribute('aria-multiselectable', 'true');
  let asked = 0;
  const draw = async () => {
    const ask = ++asked;
    const candidates = await context.linkCandidates(search.value.trim()).catch(() => []);
    if (ask !== asked) return;
    list.replaceChildren(
      ...candidates.map((candidate) => {
        const item = element('label', 'svc-table-option');
        item.setAttribute('role', 'option');
        const box = element('input', '');
        box.type = 'checkbox';
        box.checked = chosen.includes(candidate.guid);
        item.setAttribute('aria-selected', String(box.checked));
        box.addEventListener('change', () => {
          const at = chosen.indexOf(candidate.guid);
          if (box.checked && at < 0) chosen.push(candidate.guid);
          if (!box.checked && at >= 0) chosen.splice(at, 1);
          item.setAttribute('aria-selected', String(box.checked));
        });
        item.append(box, document.createTextNode(candidate.label || candidate.guid));
        return item;
      }),
    );
  };
  search.addEventListener('input', () => void draw());
  box.append(
    search,
    list,
    doneButton(() => {
      context.commit(chosen.length === 0 ? null : [...chosen]);
      host.close();
    }),
  );
  void draw();
  search.focus();
}
