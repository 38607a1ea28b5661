import './print.css';

/**
 * Prints the document from inside the editor's frame: the frame's own window.print, which browsers allow in a
 * frame of another origin than the host page's, prints this frame's document only, laid out by print.css (the
 * document as pages, no editor chrome). The SDK's `print` and Ctrl/⌘+P both come here.
 */
export function printDocument(): void {
  window.print();
}

/**
 * Ctrl/⌘+P while the focus is in the editor's frame prints the document, not the host page around it (the
 * browser's own shortcut prints the top page, editor chrome and all).
 */
export function printOnShortcut(target: Document): void {
  target.addEventListener('keydown', (event) => {
    if ((event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey && event.key.toLowerCase() === 'p') {
      event.preventDefault();
      printDocument();
    }
  });
}
