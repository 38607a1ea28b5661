import { VIEW_KINDS, type ViewKind } from '../../src/model/tables/views.js';
import { t } from './messages.js';
import type { TableView } from './model.js';
import { tableButton } from './controls.js';

export interface ViewBarOptions {
  views: readonly TableView[];
  current: TableView;
  editable: boolean;
  show(view: TableView): void;
  add(kind: ViewKind): void;
  rename(view: TableView, name: string): void;
  remove(view: TableView): void;
  openSettings(): void;
}

export function kindLabel(kind: ViewKind): string {
  return t(`viewKind.${kind}`);
}


/**
 * The saved views of the shown table as tabs (arrow keys move between them, as in a tab list), and what can
 * be done to them: add a view of a kind, rename the current one in place, delete it (a second click confirms;
 * the default view cannot be deleted), open its settings.
 */
export function drawViewBar(container: HTMLElement, options: ViewBarOptions): void {
  const tabs = document.createElement('div');
  tabs.className = 'svc-table-view-tabs';
  tabs.setAttribute('role', 'tablist');
  tabs.setAttribute('aria-label', t('views.label'));
  const buttons = options.views.map((view) => {
    const tab = document.createElement('button');
    tab.type = 'button';
    tab.className = 'svc-table-view-tab';
    tab.setAttribute('role', 'tab');
    tab.dataset.kind = view.kind;
    const selected = view.viewGuid === options.current.viewGuid;
    tab.setAttribute('aria-selected', String(selected));
    tab.tabIndex = selected ? 0 : -1;
    tab.textContent = view.name;
    tab.title = kindLabel(view.kind);
    tab.addEventListener('click', () => options.show(view));
    return tab;
  });
  tabs.addEventListener('keydown', (event) => {
    const at = buttons.indexOf(event.target as HTMLButtonElement);
    if (at < 0 || (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft')) return;
    event.preventDefault();
    const next = buttons[(at + (event.key === 'ArrowRight' ? 1 : buttons.length - 1)) % buttons.length];
    next?.focus();
  });
  tabs.append(...buttons);
  const controls: HTMLElement[] = [];
  if (options.editable) {
    const add = document.createElement('select');
    add.className = 'svc-table-select';
    add.setAttribute('aria-label', t('views.add'));
    add.append(new Option(t('views.add'), ''), ...VIEW_KINDS.map((kind) => new Option(kindLabel(kind), kind)));
    add.addEventListener('change', () => {
      const kind = VIEW_KINDS.find((candidate) => candidate === add.value);
      add.value = '';
      if (kind) options.add(kind);
    });
    const rename = tableButton(t('views.rename'), () => {
      const tab = buttons.find((candidate) => candidate.getAttribute('aria-selected') === 'true');
      if (!tab) return;
      const input = document.createElement('input');
      input.className = 'svc-table-search';
      input.value = options.current.name;
      input.maxLength = 100;
      input.setAttribute('aria-label', t('views.name'));
      let done = false;
      const finish = (save: boolean) => {
        if (done) return;
        done = true;
        const name = input.value.trim();
        if (save && name && name !== options.current.name) options.rename(options.current, name);
        else input.replaceWith(tab);
      };
      input.addEventListener('keydown', (event) => {
        if (event.key === 'Enter') finish(true);
        else if (event.key === 'Escape') finish(false);
      });
      input.addEventListener('blur', () => finish(true));
      tab.replaceWith(input);
      input.focus();
      input.select();
    });
    controls.push(add, rename);
    if (!options.current.isDefault) {
      const remove = tableButton(t('views.delete'), () => {
        if (remove.dataset.armed === 'true') {
          options.remove(options.current);
          return;
        }
        remove.dataset.armed = 'true';
        remove.textContent = t('views.deleteConfirm', { name: options.current.name });
      });
      remove.addEventListener('blur', () => {
        remove.dataset.armed = 'false';
        remove.textContent = t('views.delete');
      });
      controls.push(remove);
    }
    controls.push(tableButton(t('views.settings'), () => options.openSettings()));
  }
  container.replaceChildren(tabs, ...controls);
}
