/**
 * A toolbar button (the spreadsheet's toolbars, the rich-text find bar): a symbol or word, with its translated
 * name as tooltip and accessible name. Pressing it leaves the focus where it was (the grid, the find field).
 */
export function toolButton(label: string, text: string, action: () => void): HTMLButtonElement {
  const node = document.createElement('button');
  node.type = 'button';
  node.className = 'svc-tool';
  node.textContent = text;
  node.title = label;
  node.setAttribute('aria-label', label);
  node.addEventListener('mousedown', (event) => event.preventDefault());
  node.addEventListener('click', action);
  return node;
}
