/** The table editor's plain controls, one look everywhere (toolbar, view bar, column and view settings). */

/** A text button of the table editor. */
export function tableButton(label: string, onClick: () => void): HTMLButtonElement {
  const node = document.createElement('button');
  node.type = 'button';
  node.className = 'svc-table-button';
  node.textContent = label;
  node.addEventListener('click', onClick);
  return node;
}

/** A form control with its caption, the label wrapping both so a click on the caption reaches the control. */
export function labelledField(label: string, control: HTMLElement): HTMLLabelElement {
  const wrapper = document.createElement('label');
  wrapper.className = 'svc-table-field';
  const caption = document.createElement('span');
  caption.textContent = label;
  wrapper.append(caption, control);
  return wrapper;
}
