import { editableText, shownText, type LinkLabel } from './cell-types.js';
import { explainRefusal, readTyped } from './refusals.js';
import { t } from './messages.js';
import { sidePanel } from './side-panel.js';
import type { Column, Row } from './model.js';

/** Types the record view edits as text (the others are edited in the grid, where their pickers are). */
const TYPED_IN_RECORD: ReadonlySet<string> = new Set(['SingleLineText', 'LongText', 'Number', 'Percent', 'Date']);

export interface RecordViewOptions {
  row: Row;
  /** 1-based position of the row in the view */
  rowNumber: number;
  rowCount: number;
  /** every column, in this user's order (hidden ones too: the record shows the whole row) */
  columns: readonly Column[];
  editable: boolean;
  linkLabel: LinkLabel;
  /** writes one checked cell */
  write(column: Column, value: unknown): void;
  /** shows another row of the view (-1 previous, +1 next) */
  step(by: -1 | 1): void;
  close(): void;
}

/**
 * One row as a record (side panel): every column with its value; text, number, percent and date cells are
 * edited here, refused input explained under its field as in the grid.
 */
export function recordView(container: HTMLElement, options: RecordViewOptions): void {
  const { row } = options;
  const { panel: box, heading, close } = sidePanel(t('record.title', { row: options.rowNumber }), () => options.close());
  const fields = options.columns.map((column) => {
    const wrapper = document.createElement('label');
    wrapper.className = 'svc-table-field';
    const caption = document.createElement('span');
    caption.textContent = column.name;
    wrapper.append(caption);
    const value = row.valueMap[column.name];
    if (!TYPED_IN_RECORD.has(column.type)) {
      const text = document.createElement('output');
      text.className = 'svc-table-record-value';
      text.textContent = shownText(value, column, options.linkLabel) || '—';
      wrapper.append(text);
      return wrapper;
    }
    const input = document.createElement(column.type === 'LongText' ? 'textarea' : 'input');
    input.className = column.type === 'LongText' ? 'svc-table-textarea' : 'svc-table-search';
    input.value = editableText(column, value);
    input.readOnly = !options.editable;
    if (column.type === 'Date') input.placeholder = column.props.format === 'datetime' ? '2026-03-14 09:30' : '2026-03-14';
    const error = document.createElement('span');
    error.className = 'svc-table-form-error';
    error.setAttribute('role', 'alert');
    input.addEventListener('change', () => {
      const parsed = readTyped(column, input.value);
      const why = 'error' in parsed ? parsed.error : explainRefusal(column, parsed.value);
      error.textContent = why === undefined ? '' : t('cell.refused', { message: why });
      if ('value' in parsed && why === undefined) options.write(column, parsed.value);
    });
    wrapper.append(input, error);
    return wrapper;
  });
  const buttons = document.createElement('div');
  buttons.className = 'svc-table-buttons';
  const navigate = (label: string, by: -1 | 1, disabled: boolean) => {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'svc-table-button';
    button.textContent = label;
    button.disabled = disabled;
    button.addEventListener('click', () => options.step(by));
    return button;
  };
  buttons.append(navigate(t('record.previous'), -1, options.rowNumber <= 1), navigate(t('record.next'), 1, options.rowNumber >= options.rowCount), close);
  box.append(heading, ...fields, buttons);
  container.replaceChildren(box);
  (box.querySelector<HTMLElement>('input, textarea, button:not(:disabled)') ?? close).focus();
}
