import { FUNCTIONS } from '../../src/model/sheets/formulas/index.js';
import { formulaContext, functionsStartingWith, type FormulaContext } from './formula-context.js';
import { argumentsOf } from './function-signatures.js';
import { currentLanguage } from '../shared/i18n/index.js';
import { t } from './messages.js';

/** Most functions the list offers at once. */
const LIST_LENGTH = 8;

/**
 * Which written argument the caret is in, for a signature whose last arguments repeat (`[criteria_range2,
 * criteria2], …`): past the written ones, the caret is in the repeating group.
 */
function shownArgument(parameters: readonly string[], argument: number): number {
  const repeat = parameters.indexOf('…');
  if (repeat === -1 || argument < repeat) return Math.min(argument, parameters.length - 1);
  return repeat - 1;
}

/**
 * Function hints while a formula is typed, in a cell or the formula bar (docs/BROWSER.md "Spreadsheet"): typing a
 * name shows the engine's functions starting with it (arrows choose, Tab or a click puts `NAME(` in), and inside a
 * call its arguments show with the one being typed in bold (`=SUMIF(A1:A9,` shows `SUMIF(range, criteria,
 * [sum_range])` with criteria in bold).
 */
export class FormulaAssist {
  private readonly popup: HTMLElement;
  private input: HTMLInputElement | undefined;
  private choices: string[] = [];
  private chosen = 0;
  private fragment: FormulaContext['fragment'];

  constructor(host: HTMLElement) {
    this.popup = document.createElement('div');
    this.popup.className = 'svc-sheet-assist';
    this.popup.hidden = true;
    // a click in the list must not take the focus from the input (which would commit the cell)
    this.popup.addEventListener('mousedown', (event) => event.preventDefault());
    host.append(this.popup);
  }

  /** Follows an input (a cell's editor, the formula bar) until it goes. */
  attach(input: HTMLInputElement): void {
    const update = () => this.update(input);
    input.addEventListener('input', update);
    input.addEventListener('click', update);
    input.addEventListener('keyup', (event) => {
      if (event.key.startsWith('Arrow') && this.choices.length === 0) update();
    });
    input.addEventListener('focus', update);
    input.addEventListener('blur', () => this.hide());
    // before the editor's own keys (Enter commits, Tab moves, Escape cancels): while the list shows, they are the list's
    input.addEventListener('keydown', (event) => this.key(event), { capture: true });
    if (document.activeElement === input) update();
  }

  private key(event: KeyboardEvent): void {
    if (this.popup.hidden || this.choices.length === 0) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      this.chosen = (this.chosen + (event.key === 'ArrowDown' ? 1 : this.choices.length - 1)) % this.choices.length;
      this.drawList();
    } else if (event.key === 'Tab') this.insert(this.choices[this.chosen]!);
    else if (event.key === 'Escape') this.hide();
    else return;
    event.preventDefault();
    event.stopImmediatePropagation();
  }

  private update(input: HTMLInputElement): void {
    this.input = input;
    const caret = input.selectionStart ?? input.value.length;
    const context = formulaContext(input.value, caret);
    this.fragment = context.fragment;
    this.choices = context.fragment ? functionsStartingWith(context.fragment.text).slice(0, LIST_LENGTH) : [];
    // a whole name typed (`=SUM`) still offers the list: SUM, SUMIF, SUMIFS…
    if (this.choices.length > 0) {
      this.chosen = 0;
      this.drawList();
    } else if (context.call && FUNCTIONS.has(context.call.name)) this.drawSignature(context.call.name, context.call.argument);
    else return this.hide();
    this.place(input);
  }

  private drawList(): void {
    const list = document.createElement('ul');
    list.className = 'svc-sheet-assist-list';
    list.setAttribute('role', 'listbox');
    list.setAttribute('aria-label', t('assist.functions'));
    this.choices.forEach((name, index) => {
      const item = document.createElement('li');
      item.setAttribute('role', 'option');
      item.setAttribute('aria-selected', String(index === this.chosen));
      item.textContent = name;
      const parameters = argumentsOf(name, currentLanguage());
      if (parameters) {
        const signature = document.createElement('span');
        signature.className = 'svc-sheet-assist-args';
        signature.textContent = `(${parameters.join(', ')})`;
        item.append(signature);
      }
      item.addEventListener('click', () => this.insert(name));
      list.append(item);
    });
    const help = document.createElement('div');
    help.className = 'svc-sheet-assist-help';
    help.textContent = t('assist.insertHelp');
    this.popup.replaceChildren(list, help);
    this.popup.setAttribute('role', 'presentation');
    this.popup.hidden = false;
  }

  private drawSignature(name: string, argument: number): void {
    const parameters = argumentsOf(name, currentLanguage());
    const line = document.createElement('div');
    line.className = 'svc-sheet-assist-signature';
    line.append(`${name}(`);
    if (parameters === undefined) line.append('…');
    else {
      const current = shownArgument(parameters, argument);
      parameters.forEach((parameter, index) => {
        if (index > 0) line.append(', ');
        if (index === current) {
          const strong = document.createElement('b');
          strong.textContent = parameter;
          line.append(strong);
        } else line.append(parameter);
      });
    }
    line.append(')');
    this.popup.replaceChildren(line);
    this.popup.setAttribute('role', 'tooltip');
    this.popup.hidden = false;
  }

  /** Puts `NAME(` in place of the name being typed, the caret after it. */
  private insert(name: string): void {
    const input = this.input;
    const fragment = this.fragment;
    if (!input || !fragment) return;
    const caret = input.selectionStart ?? input.value.length;
    input.value = `${input.value.slice(0, fragment.start)}${name}(${input.value.slice(caret)}`;
    const at = fragment.start + name.length + 1;
    input.setSelectionRange(at, at);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  }

  /** Under the input, inside the editor (the popup's host is positioned). */
  private place(input: HTMLInputElement): void {
    const host = this.popup.offsetParent ?? this.popup.parentElement!;
    const origin = host.getBoundingClientRect();
    const box = input.getBoundingClientRect();
    this.popup.style.left = `${box.left - origin.left}px`;
    this.popup.style.top = `${box.bottom - origin.top + 2}px`;
  }

  hide(): void {
    this.popup.hidden = true;
    this.choices = [];
  }
}
