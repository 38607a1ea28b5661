import { t } from './messages.js';

/**
 * A titled panel for the shell's side area (comments, columns, a record): a labelled region with its heading,
 * and a Close button that runs `onClose`, as Escape inside the panel does.
 */
export function sidePanel(title: string, onClose: () => void): { panel: HTMLElement; heading: HTMLElement; close: HTMLButtonElement } {
  const panel = document.createElement('section');
  panel.className = 'svc-table-form';
  panel.setAttribute('aria-label', title);
  const heading = document.createElement('h2');
  heading.textContent = title;
  const close = document.createElement('button');
  close.type = 'button';
  close.className = 'svc-table-button';
  close.textContent = t('comment.close');
  close.addEventListener('click', onClose);
  panel.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    onClose();
  });
  return { panel, heading, close };
}
