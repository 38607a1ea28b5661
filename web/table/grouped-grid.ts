import { shownText } from './cell-types.js';
import { valueNode, type CardContext } from './cards.js';
import { t } from './messages.js';
import type { Column, Row } from './model.js';

export interface GroupedGridOptions extends CardContext {
  /** the columns the grid shows, in order */
  shown: readonly Column[];
  group: Column;
  /** rows in the view's sort order: groups keep it inside them */
  rows: readonly Row[];
  /** group keys folded by this user (kept by the caller across redraws) */
  collapsed: Set<string>;
  open(row: Row): void;
}

/**
 * The grid grouped by a column: one collapsible section per distinct value (in the order the rows first show
 * it, so a sort by the group column orders the groups; empty values last), its header naming the value and
 * counting the rows. A row opens in the record view (click or Enter) to be edited.
 */
export function drawGroupedGrid(container: HTMLElement, options: GroupedGridOptions): void {
  const { group } = options;
  const groups = new Map<string, Row[]>();
  const empty: Row[] = [];
  for (const row of options.rows) {
    const key = shownText(row.valueMap[group.name], group, options.linkLabel);
    if (key === '') empty.push(row);
    else groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  const sections = [...groups].map(([key, rows]) => ({ key, label: key, rows, value: rows[0]?.valueMap[group.name] }));
  if (empty.length > 0) sections.push({ key: '', label: t('kanban.noValue'), rows: empty, value: undefined });
  const host = document.createElement('div');
  host.className = 'svc-table-groups';
  host.setAttribute('aria-label', t('groups.label', { column: group.name }));
  for (const section of sections) {
    const folded = options.collapsed.has(section.key);
    const wrapper = document.createElement('section');
    wrapper.className = 'svc-table-group';
    const header = document.createElement('button');
    header.type = 'button';
    header.className = 'svc-table-group-header';
    header.setAttribute('aria-expanded', String(!folded));
    header.setAttribute('aria-label', t('groups.header', { column: group.name, value: section.label, count: section.rows.length }));
    const caret = document.createElement('span');
    caret.className = 'svc-table-group-caret';
    caret.textContent = folded ? '▸' : '▾';
    const label = section.value === undefined ? document.createTextNode(section.label) : valueNode(group, section.value, options);
    const count = document.createElement('span');
    count.className = 'svc-table-count';
    count.textContent = t('groups.count', { count: section.rows.length });
    header.append(caret, `${group.name}: `, label, count);
    header.addEventListener('click', () => {
      if (folded) options.collapsed.delete(section.key);
      else options.collapsed.add(section.key);
      drawGroupedGrid(container, options);
      container.querySelectorAll<HTMLButtonElement>('.svc-table-group-header')[sections.indexOf(section)]?.focus();
    });
    wrapper.append(header);
    if (!folded) {
      const table = document.createElement('table');
      table.className = 'svc-table-group-rows';
      const head = table.createTHead().insertRow();
      for (const column of options.shown) {
        const cell = document.createElement('th');
        cell.scope = 'col';
        cell.textContent = column.name;
        head.append(cell);
      }
      const body = table.createTBody();
      for (const row of section.rows) {
        const line = body.insertRow();
        line.tabIndex = 0;
        line.dataset.rowGuid = row.guid;
        for (const column of options.shown) line.insertCell().append(valueNode(column, row.valueMap[column.name], options));
        line.addEventListener('click', () => options.open(row));
        line.addEventListener('keydown', (event) => {
          if (event.key === 'Enter') options.open(row);
        });
      }
      wrapper.append(table);
    }
    host.append(wrapper);
  }
  container.replaceChildren(host);
}
