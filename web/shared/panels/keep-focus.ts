/**
 * Redraws `container` with the children `build` makes, giving the focus back to the text field that had it when
 * that field is among them again (a reply box kept across redraws), with its caret where it was. Moving a
 * focused element into a new, detached parent drops its focus, so without this a redraw caused by a
 * collaborator's change would stop the user in the middle of typing. `build` runs after the focus is noted:
 * building is what detaches the field.
 * A control that is rebuilt rather than kept (a button drawn anew) gets the focus back when the old one and the new
 * one carry the same `data-focus-key`, so a keyboard user is not thrown to the top of the page by a redraw.
 */
export function redrawKeepingFocus(container: HTMLElement, build: () => Node[]): void {
  const active = document.activeElement;
  const field = (active instanceof HTMLTextAreaElement || active instanceof HTMLInputElement) && container.contains(active) ? active : null;
  const caret = field ? { start: field.selectionStart, end: field.selectionEnd, direction: field.selectionDirection ?? undefined } : null;
  const focusKey = active instanceof HTMLElement && container.contains(active) ? active.dataset.focusKey : undefined;
  container.replaceChildren(...build());
  if (!field?.isConnected) {
    if (focusKey !== undefined) container.querySelector<HTMLElement>(`[data-focus-key="${CSS.escape(focusKey)}"]`)?.focus({ preventScroll: true });
    return;
  }
  field.focus({ preventScroll: true });
  // some input types (number, email) have no text selection to restore
  if (caret && caret.start !== null && caret.end !== null) field.setSelectionRange(caret.start, caret.end, caret.direction);
}
