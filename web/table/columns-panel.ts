import { MAX_COLUMN_WIDTH, MIN_COLUMN_WIDTH, type GridLayout } from './grid-layout.js';
import { t } from './messages.js';
import { sidePanel } from './side-panel.js';
import type { Column } from './model.js';

export interface ColumnsPanelOptions {
  columns: readonly Column[];
  layout: GridLayout;
  /** the layout changed: the grid lays itself out again */
  changed(): void;
  close(): void;
}

function control<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, label: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.className = className;
  node.setAttribute('aria-label', label);
  return node;
}

/**
 * The grid's columns as this user arranges them (side panel): show or hide each, move it by dragging its row
 * or with the arrow buttons, set its width (the header's edge can be dragged too). The primary column stays
 * first and shown.
 */
export function columnsPanel(container: HTMLElement, options: ColumnsPanelOptions): void {
  const { layout } = options;
  const { panel: box, heading, close } = sidePanel(t('columns.title'), () => options.close());
  const list = document.createElement('ul');
  list.className = 'svc-table-column-list';
  let dragged: Column | undefined;
  let focusAfterDraw: string | undefined;

  const draw = () => {
    const ordered = layout.ordered(options.columns);
    list.replaceChildren(
      ...ordered.map((column, index) => {
        const item = document.createElement('li');
        item.className = 'svc-table-column-item';
        item.draggable = !column.isPrimary;
        item.dataset.guid = column.guid;
        const shown = control('input', '', t('columns.show', { name: column.name }));
        shown.type = 'checkbox';
        shown.checked = !layout.isHidden(column);
        shown.disabled = column.isPrimary;
        shown.addEventListener('change', () => {
          layout.setHidden(column, !shown.checked);
          options.changed();
        });
        const name = document.createElement('span');
        name.className = 'svc-table-column-name';
        name.textContent = column.name;
        const move = (by: number, which: string) => {
          const button = control('button', 'svc-table-button', t(by < 0 ? 'columns.moveLeft' : 'columns.moveRight', { name: column.name }));
          button.type = 'button';
          button.textContent = by < 0 ? '↑' : '↓';
          const target = index - 1 + by;
          button.disabled = column.isPrimary || target < 0 || target > ordered.length - 2;
          button.addEventListener('click', () => {
            layout.move(options.columns, column, target);
            focusAfterDraw = `${column.guid}:${which}`;
            options.changed();
            draw();
          });
          button.dataset.focusKey = `${column.guid}:${which}`;
          return button;
        };
        const width = control('input', 'svc-table-search svc-table-width', t('columns.width', { name: column.name }));
        width.type = 'number';
        width.min = String(MIN_COLUMN_WIDTH);
        width.max = String(MAX_COLUMN_WIDTH);
        width.step = '20';
        width.value = String(layout.width(column));
        width.addEventListener('change', () => {
          const value = Number(width.value);
          if (!Number.isFinite(value)) return;
          layout.setWidth(column, value);
          width.value = String(layout.width(column));
          options.changed();
        });
        item.addEventListener('dragstart', (event) => {
          dragged = column;
          event.dataTransfer?.setData('text/plain', column.name);
        });
        item.addEventListener('dragover', (event) => {
          if (dragged && dragged !== column && !column.isPrimary) event.preventDefault();
        });
        item.addEventListener('drop', (event) => {
          event.preventDefault();
          if (!dragged || column.isPrimary) return;
          layout.move(options.columns, dragged, index - 1);
          dragged = undefined;
          options.changed();
          draw();
        });
        item.append(shown, name, move(-1, 'up'), move(1, 'down'), width);
        return item;
      }),
    );
    if (focusAfterDraw) {
      const key = focusAfterDraw;
      focusAfterDraw = undefined;
      const target = [...list.querySelectorAll<HTMLButtonElement>('button')].find((button) => button.dataset.focusKey === key);
      // a button that can no longer move (it reached the end) passes the focus to its neighbour
      (target && !target.disabled ? target : target?.parentElement?.querySelector<HTMLButtonElement>('button:not(:disabled)'))?.focus();
    }
  };
  draw();
  box.append(heading, list, close);
  container.replaceChildren(box);
  list.querySelector<HTMLInputElement>('input:not(:disabled)')?.focus();
}
