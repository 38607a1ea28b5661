import { toolButton } from '../shared/tool-button.js';
import { icon } from './icons.js';

export interface ColorMenuOptions {
  /** stable name (styles, tests) */
  tool: string;
  icon: string;
  label: string;
  palette: readonly string[];
  /** the first choice, which removes the colour ("Automatic", "No highlight") */
  noneLabel: string;
  customLabel: string;
  /** the colour at the selection, to show on the button; undefined for none */
  current(): string | undefined;
  choose(color: string | undefined): void;
}

/**
 * A toolbar colour button (text colour, highlight): the icon over a bar of the colour at the selection, opening a
 * palette of swatches, a "none" choice and the browser's colour dialog for any other colour.
 */
export class ColorMenu {
  readonly button: HTMLButtonElement;
  private readonly bar = document.createElement('span');
  private readonly menu = document.createElement('div');
  private readonly custom = document.createElement('input');

  constructor(private readonly options: ColorMenuOptions) {
    this.button = toolButton(options.label, '', () => this.toggle());
    this.button.dataset.tool = options.tool;
    this.button.classList.add('svc-tool-color');
    this.button.setAttribute('aria-haspopup', 'true');
    this.button.setAttribute('aria-expanded', 'false');
    this.bar.className = 'svc-color-bar';
    this.button.append(icon(options.icon), this.bar);

    this.menu.className = 'svc-color-menu';
    this.menu.dataset.menu = options.tool;
    this.menu.setAttribute('role', 'menu');
    this.menu.setAttribute('aria-label', options.label);
    this.menu.hidden = true;
    const none = document.createElement('button');
    none.type = 'button';
    none.className = 'svc-color-none';
    none.textContent = options.noneLabel;
    none.setAttribute('role', 'menuitem');
    none.addEventListener('mousedown', (event) => event.preventDefault());
    none.addEventListener('click', () => this.pick(undefined));
    const swatches = document.createElement('div');
    swatches.className = 'svc-color-swatches';
    for (const color of options.palette) {
      const swatch = document.createElement('button');
      swatch.type = 'button';
      swatch.className = 'svc-color-swatch';
      swatch.style.background = color;
      swatch.dataset.color = color;
      swatch.title = color;
      swatch.setAttribute('role', 'menuitem');
      swatch.setAttribute('aria-label', color);
      swatch.addEventListener('mousedown', (event) => event.preventDefault());
      swatch.addEventListener('click', () => this.pick(color));
      swatches.append(swatch);
    }
    const customLabel = document.createElement('label');
    customLabel.className = 'svc-color-custom';
    this.custom.type = 'color';
    this.custom.addEventListener('change', () => this.pick(this.custom.value));
    customLabel.append(this.custom, document.createTextNode(options.customLabel));
    this.menu.append(none, swatches, customLabel);
    this.menu.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') this.close();
    });
    document.addEventListener('mousedown', (event) => {
      if (!this.menu.hidden && !this.menu.contains(event.target as Node) && !this.button.contains(event.target as Node)) this.close();
    });
  }

  /** The button and its menu, to put in the toolbar. */
  get element(): HTMLElement {
    const wrapper = document.createElement('div');
    wrapper.className = 'svc-color-picker';
    wrapper.append(this.button, this.menu);
    return wrapper;
  }

  refresh(enabled: boolean): void {
    const color = this.options.current();
    this.bar.style.background = color ?? 'transparent';
    this.bar.classList.toggle('svc-color-bar-none', color === undefined);
    this.button.disabled = !enabled;
    if (!enabled) this.close();
  }

  private toggle(): void {
    if (this.menu.hidden) {
      this.custom.value = this.options.current() ?? '#000000';
      this.menu.hidden = false;
      this.button.setAttribute('aria-expanded', 'true');
    } else {
      this.close();
    }
  }

  private close(): void {
    this.menu.hidden = true;
    this.button.setAttribute('aria-expanded', 'false');
  }

  private pick(color: string | undefined): void {
    this.close();
    this.options.choose(color);
  }
}
