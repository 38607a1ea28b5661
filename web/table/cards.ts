import { choiceOptions, optionColor, shownText, type LinkLabel } from './cell-types.js';
import type { Column, Row } from './model.js';
import { t } from './messages.js';

/** What a card needs to show a row: the table's columns and how linked rows are named. */
export interface CardContext {
  columns: readonly Column[];
  linkLabel: LinkLabel;
}

/**
 * A choice column's value as chips in its options' colours, appended to `container` (the grid's cell, a card);
 * answers false, appending nothing, for other columns and empty values.
 */
export function appendChoiceChips(container: HTMLElement, column: Column, value: unknown): boolean {
  if ((column.type !== 'SingleChoice' && column.type !== 'MultipleChoice') || value === undefined) return false;
  const options = choiceOptions(column);
  for (const name of Array.isArray(value) ? value.map(String) : [String(value)]) {
    const chip = document.createElement('span');
    chip.className = 'svc-table-chip';
    chip.textContent = name;
    chip.style.background = optionColor(options, name);
    container.append(chip);
  }
  return true;
}

/** A choice value as coloured chips, other values as their text (as the grid shows them). */
export function valueNode(column: Column, value: unknown, context: CardContext): HTMLElement {
  const node = document.createElement('span');
  node.className = 'svc-table-card-value';
  if (appendChoiceChips(node, column, value)) return node;
  node.textContent = shownText(value, column, context.linkLabel) || '—';
  return node;
}

/** The row's primary value, the card's title. */
export function cardTitle(row: Row, context: CardContext): string {
  const primary = context.columns[0];
  return (primary && shownText(row.valueMap[primary.name], primary, context.linkLabel)) || '—';
}

/** A card of a row: its primary value as title, then each of `fields` as a caption and its value. */
export function rowCard(row: Row, fields: readonly string[], context: CardContext): HTMLElement {
  const card = document.createElement('article');
  card.className = 'svc-table-card';
  card.tabIndex = 0;
  card.dataset.rowGuid = row.guid;
  const title = document.createElement('h3');
  title.className = 'svc-table-card-title';
  title.textContent = cardTitle(row, context);
  card.setAttribute('aria-label', title.textContent);
  const list = document.createElement('dl');
  list.className = 'svc-table-card-fields';
  for (const guid of fields) {
    const column = context.columns.find((candidate) => candidate.guid === guid);
    if (!column || column.isPrimary) continue;
    const caption = document.createElement('dt');
    caption.textContent = column.name;
    const value = document.createElement('dd');
    value.append(valueNode(column, row.valueMap[column.name], context));
    list.append(caption, value);
  }
  card.append(title, list);
  return card;
}

/** The "Add card" button of a kanban column or a gallery: `label` names where the card goes, for screen readers. */
export function addCardButton(label: string, add: () => void): HTMLButtonElement {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'svc-table-add-card';
  button.textContent = `＋ ${t('cards.add')}`;
  button.setAttribute('aria-label', label);
  button.addEventListener('click', add);
  return button;
}
