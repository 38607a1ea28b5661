/**
 * A toolbar button: a symbol, with its translated name as tooltip and accessible name. A mousedown does not take the
 * focus, so the editor keeps the selection the user left.
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
