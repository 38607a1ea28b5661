/** One entry of a context menu; `separator` draws a line before it. */
export interface MenuItem {
  label: string;
  /** the shortcut shown at the right (`Ctrl+C`) */
  shortcut?: string;
  separator?: true;
  disabled?: boolean;
  run(): void;
}

/**
 * A right-click menu over the grid (docs/BROWSER.md "Spreadsheet"): a `menu` of `menuitem`s, opened at the pointer,
 * closed by a choice, Escape, a click elsewhere or the focus leaving it. Arrows move between items, Enter chooses.
 */
export class ContextMenu {
  private readonly element: HTMLElement;
  private returnFocus: HTMLElement | undefined;
  private readonly onOutside = (event: Event) => {
    if (!this.element.contains(event.target as Node)) this.close();
  };

  constructor(private readonly host: HTMLElement, label: string) {
    this.element = document.createElement('div');
    this.element.className = 'svc-sheet-menu';
    this.element.setAttribute('role', 'menu');
    this.element.setAttribute('aria-label', label);
    this.element.hidden = true;
    this.element.addEventListener('keydown', (event) => this.key(event));
    host.append(this.element);
  }

  get isOpen(): boolean {
    return !this.element.hidden;
  }

  /** Opens at a point of the page (client coordinates), kept inside the host. */
  open(at: { x: number; y: number }, items: MenuItem[], returnFocus: HTMLElement): void {
    this.returnFocus = returnFocus;
    this.element.replaceChildren(
      ...items.flatMap((item) => {
        const button = document.createElement('button');
        button.type = 'button';
        button.className = 'svc-sheet-menu-item';
        button.setAttribute('role', 'menuitem');
        button.disabled = item.disabled ?? false;
        const label = document.createElement('span');
        label.textContent = item.label;
        button.append(label);
        if (item.shortcut) {
          const shortcut = document.createElement('kbd');
          shortcut.textContent = item.shortcut;
          button.append(shortcut);
        }
        button.addEventListener('click', () => {
          this.close();
          item.run();
        });
        if (!item.separator) return [button];
        const line = document.createElement('div');
        line.className = 'svc-sheet-menu-separator';
        line.setAttribute('role', 'separator');
        return [line, button];
      }),
    );
    this.element.hidden = false;
    const origin = this.host.getBoundingClientRect();
    const width = this.element.offsetWidth;
    const height = this.element.offsetHeight;
    this.element.style.left = `${Math.max(0, Math.min(at.x - origin.left, origin.width - width - 4))}px`;
    this.element.style.top = `${Math.max(0, Math.min(at.y - origin.top, origin.height - height - 4))}px`;
    this.items()[0]?.focus();
    document.addEventListener('pointerdown', this.onOutside, true);
    this.element.addEventListener('focusout', this.onFocusOut);
  }

  close(): void {
    if (this.element.hidden) return;
    this.element.hidden = true;
    document.removeEventListener('pointerdown', this.onOutside, true);
    this.element.removeEventListener('focusout', this.onFocusOut);
    this.returnFocus?.focus({ preventScroll: true });
  }

  private readonly onFocusOut = (event: FocusEvent) => {
    if (!this.element.contains(event.relatedTarget as Node | null)) this.close();
  };

  private items(): HTMLButtonElement[] {
    return [...this.element.querySelectorAll<HTMLButtonElement>('[role=menuitem]:not(:disabled)')];
  }

  private key(event: KeyboardEvent): void {
    const items = this.items();
    const current = items.indexOf(document.activeElement as HTMLButtonElement);
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      const step = event.key === 'ArrowDown' ? 1 : items.length - 1;
      items[(current + step) % items.length]?.focus();
    } else if (event.key === 'Escape' || event.key === 'Tab') this.close();
    else return;
    event.preventDefault();
    event.stopPropagation();
  }
}
