/**
 * A panel the spreadsheet editor floats over its grid (a filter's value list, a rule dialog, a list's picker):
 * appended to `root`, hidden until opened, and closed by Escape without the key reaching the grid (where Escape
 * would also drop the selection's edit).
 */
export function sheetPanel(root: HTMLElement, className: string, role: 'dialog' | 'listbox', close: () => void): HTMLElement {
  const element = document.createElement('div');
  element.className = className;
  element.setAttribute('role', role);
  element.hidden = true;
  element.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    event.stopPropagation();
    close();
  });
  root.append(element);
  return element;
}
