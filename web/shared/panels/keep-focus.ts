/**
 * Redraws `container` with the children `build` makes, giving the focus back to the text field that had it when
 * that field is among them again (a reply box kept across redraws), with its caret where it was. Moving a
 * focused element into a new, detached parent drops its focus, so without this a redraw caused by a
 * collaborator's change would stop the user in the middle of typing. `build` runs after the focus is noted:
 * building is what detaches the field.
 */
export function redrawKeepingFocus(container: HTMLElement, build: () => Node[]): void {
  const active = document.activeElement;
  const field = (active instanceof HTMLTextAreaElement || active instanceof HTMLInputElement) && container.contains(active) ? active : null;
  const caret = field ? { start: field.selectionStart, end: field.selectionEnd, direction: field.selectionDirection ?? undefined } : null;
  container.replaceChildren(...build());
  if (!field?.isConnected) return;
  field.focus({ preventScroll: true });
  // some input types (number, email) have no text selection to restore
  if (caret && caret.start !== null && caret.end !== null) field.setSelectionRange(caret.start, caret.end, caret.direction);
}
