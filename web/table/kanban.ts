import { choiceOptions, optionColor } from './cell-types.js';
import { addCardButton, rowCard, type CardContext } from './cards.js';
import { t } from './messages.js';
import type { Column, Row, ViewSettingsOf } from './model.js';

export interface KanbanOptions extends CardContext {
  settings: ViewSettingsOf['kanban'];
  rows: readonly Row[];
  editable: boolean;
  /** moves a row to another kanban column: writes its group cell (null: no value) */
  move(row: Row, column: Column, value: string | null): void;
  /** adds a row in a kanban column: its group cell holds the column's value (null: none) */
  add(column: Column, value: string | null): void;
  open(row: Row): void;
}

/**
 * A kanban board: one column per option of the view's SingleChoice column, in the options' order, and "No
 * value" first for rows without one. Dragging a card to another column, or Alt+Left / Alt+Right on a focused
 * card, writes the row's cell; Enter or a click opens the row. "Add card" under a column, for people who may
 * add rows, adds a row holding that column's value.
 */
function cardTitleOf(card: HTMLElement): string {
  return card.getAttribute('aria-label') ?? '';
}

export function drawKanban(container: HTMLElement, options: KanbanOptions): void {
  const group = options.columns.find((column) => column.guid === options.settings.groupBy);
  if (!group) {
    const hint = document.createElement('p');
    hint.className = 'svc-table-view-hint';
    hint.textContent = t('kanban.pickColumn');
    container.replaceChildren(hint);
    return;
  }
  const choices = choiceOptions(group);
  const lanes: Array<{ value: string | null; label: string }> = [{ value: null, label: t('kanban.noValue') }, ...choices.map((option) => ({ value: option.name, label: option.name }))];
  const laneOf = (row: Row) => {
    const value = row.valueMap[group.name];
    return typeof value === 'string' && choices.some((option) => option.name === value) ? value : null;
  };
  // the card being dragged (a page's own drag: its data is not read back from the drop)
  let dragged: Row | undefined;
  const board = document.createElement('div');
  board.className = 'svc-table-kanban';
  board.setAttribute('aria-label', t('kanban.label', { column: group.name }));
  const moveBy = (row: Row, by: -1 | 1) => {
    const at = lanes.findIndex((lane) => lane.value === laneOf(row));
    const target = lanes[at + by];
    if (target) options.move(row, group, target.value);
  };
  for (const lane of lanes) {
    const rows = options.rows.filter((row) => laneOf(row) === lane.value);
    const section = document.createElement('section');
    section.className = 'svc-table-kanban-lane';
    section.dataset.value = lane.value ?? '';
    section.setAttribute('aria-label', t('kanban.lane', { name: lane.label, count: rows.length }));
    const heading = document.createElement('h2');
    heading.className = 'svc-table-kanban-heading';
    const name = document.createElement('span');
    name.className = 'svc-table-chip';
    name.textContent = lane.label;
    if (lane.value !== null) name.style.background = optionColor(choices, lane.value);
    const count = document.createElement('span');
    count.className = 'svc-table-count';
    count.textContent = String(rows.length);
    heading.append(name, count);
    const list = document.createElement('div');
    list.className = 'svc-table-kanban-cards';
    for (const row of rows) {
      const card = rowCard(row, options.settings.cardFields, options);
      card.draggable = options.editable;
      if (options.editable) card.setAttribute('aria-keyshortcuts', 'Alt+ArrowLeft Alt+ArrowRight');
      card.addEventListener('dragstart', (event) => {
        dragged = row;
        event.dataTransfer?.setData('text/plain', cardTitleOf(card));
        card.classList.add('svc-table-card-dragged');
      });
      card.addEventListener('dragend', () => {
        dragged = undefined;
        card.classList.remove('svc-table-card-dragged');
      });
      card.addEventListener('click', () => options.open(row));
      card.addEventListener('keydown', (event) => {
        if (event.key === 'Enter') options.open(row);
        else if (options.editable && event.altKey && (event.key === 'ArrowLeft' || event.key === 'ArrowRight')) {
          event.preventDefault();
          moveBy(row, event.key === 'ArrowLeft' ? -1 : 1);
        }
      });
      list.append(card);
    }
    if (options.editable) {
      section.addEventListener('dragover', (event) => {
        if (!dragged) return;
        event.preventDefault();
        section.classList.add('svc-table-kanban-target');
      });
      section.addEventListener('dragleave', () => section.classList.remove('svc-table-kanban-target'));
      section.addEventListener('drop', (event) => {
        event.preventDefault();
        section.classList.remove('svc-table-kanban-target');
        const row = dragged;
        dragged = undefined;
        if (row && laneOf(row) !== lane.value) options.move(row, group, lane.value);
      });
    }
    section.append(heading, list);
    if (options.editable) section.append(addCardButton(t('kanban.addCardTo', { name: lane.label }), () => options.add(group, lane.value)));
    board.append(section);
  }
  container.replaceChildren(board);
}
