import { t } from './messages.js';

/**
 * The parts every view of a sheet lays out alike (the editor, its first screen, an old version): built in one
 * place so that the views line up, the first screen's grid standing exactly where the editor's will.
 */

/** The row above the grid: the selected cell's address and the cell's content. */
export function formulaBar(): { bar: HTMLElement; nameBox: HTMLInputElement; formulaInput: HTMLInputElement } {
  const bar = document.createElement('div');
  bar.className = 'svc-sheet-formula-bar';
  const nameBox = document.createElement('input');
  nameBox.className = 'svc-sheet-name-box';
  nameBox.setAttribute('aria-label', t('formulaBar.cell'));
  const formulaInput = document.createElement('input');
  formulaInput.className = 'svc-sheet-formula';
  formulaInput.setAttribute('aria-label', t('formulaBar.label'));
  bar.append(nameBox, formulaInput);
  return { bar, nameBox, formulaInput };
}

/** Where the grid goes. */
export function gridArea(): HTMLElement {
  const area = document.createElement('div');
  area.className = 'svc-sheet-grid';
  return area;
}

/** The sheet tabs' strip under the grid. */
export function sheetTabs(): HTMLElement {
  const tabs = document.createElement('div');
  tabs.className = 'svc-sheet-tabs';
  tabs.setAttribute('role', 'tablist');
  tabs.setAttribute('aria-label', t('tabs.label'));
  return tabs;
}

/** One sheet's tab in that strip; `pick` runs when it is clicked. */
export function sheetTab(sheetId: string, name: string, selected: boolean, pick: () => void): HTMLButtonElement {
  const tab = document.createElement('button');
  tab.type = 'button';
  tab.className = 'svc-sheet-tab';
  tab.setAttribute('role', 'tab');
  tab.setAttribute('aria-selected', String(selected));
  tab.dataset.sheetId = sheetId;
  tab.textContent = name;
  tab.addEventListener('click', pick);
  return tab;
}
