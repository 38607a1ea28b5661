import { toolButton } from '../shared/tool-button.js';

export interface MenuItem {
  label: string;
  /** a small picture before the label (the layout's boxes), decorative */
  icon?: HTMLElement;
  run(): void;
}

/**
 * A toolbar button that opens a menu of choices below it (the new slide's layout). The menu follows the ARIA
 * menu button pattern: Enter, Space or Arrow Down open it on the first item, arrows move, Enter picks, Escape
 * or a press elsewhere closes it and gives the focus back to the button.
 */
export function menuButton(label: string, menuLabel: string, text: string, items: () => MenuItem[]): HTMLElement {
  const wrapper = document.createElement('div');
  wrapper.className = 'svc-menu-button';
  const trigger = toolButton(label, text, () => (menu.hidden ? open() : close(true)));
  trigger.setAttribute('aria-haspopup', 'menu');
  trigger.setAttribute('aria-expanded', 'false');
  const menu = document.createElement('div');
  menu.className = 'svc-menu';
  menu.setAttribute('role', 'menu');
  menu.setAttribute('aria-label', menuLabel);
  menu.hidden = true;
  wrapper.append(trigger, menu);

  const entries = () => Array.from(menu.querySelectorAll<HTMLButtonElement>('[role="menuitem"]'));
  const outside = (event: PointerEvent) => {
    if (!wrapper.contains(event.target as Node)) close(false);
  };
  function open(): void {
    menu.replaceChildren(
      ...items().map((item) => {
        const entry = document.createElement('button');
        entry.type = 'button';
        entry.className = 'svc-menu-item';
        entry.setAttribute('role', 'menuitem');
        entry.tabIndex = -1;
        if (item.icon) entry.append(item.icon);
        entry.append(item.label);
        entry.addEventListener('click', () => {
          close(false);
          item.run();
        });
        return entry;
      }),
    );
    menu.hidden = false;
    trigger.setAttribute('aria-expanded', 'true');
    entries()[0]?.focus();
    document.addEventListener('pointerdown', outside, true);
  }
  function close(refocus: boolean): void {
    if (menu.hidden) return;
    menu.hidden = true;
    trigger.setAttribute('aria-expanded', 'false');
    document.removeEventListener('pointerdown', outside, true);
    if (refocus) trigger.focus();
  }
  trigger.addEventListener('keydown', (event) => {
    if (event.key === 'ArrowDown' && menu.hidden) {
      event.preventDefault();
      open();
    }
  });
  menu.addEventListener('keydown', (event) => {
    const all = entries();
    const at = all.indexOf(document.activeElement as HTMLButtonElement);
    const moves: Record<string, number> = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: all.length - 1 };
    if (event.key in moves) {
      event.preventDefault();
      all[(moves[event.key]! + all.length) % all.length]?.focus();
    } else if (event.key === 'Escape' || event.key === 'Tab') {
      event.preventDefault();
      close(true);
    }
  });
  return wrapper;
}
