import { element } from '../../../shared/shell.js';
import {
  checkedPageSetup,
  MARGIN_LIMITS,
  MARGIN_PRESETS,
  MAX_SLOT_LENGTH,
  PageSetupError,
  PAPER_SIZES,
  SLOTS,
  type MarginPreset,
  type PageMargins,
  type PageSetup,
} from '../../../../src/model/rich-text/page-setup.js';
import { t } from './messages.js';

const SIDES = ['top', 'bottom', 'left', 'right'] as const satisfies ReadonlyArray<keyof PageMargins>;

function labelled(text: string, control: HTMLElement): HTMLLabelElement {
  const label = element('label', 'svc-page-setup-field', text);
  // named by the text alone (a label around a select would add the options' text to its name)
  control.setAttribute('aria-label', text);
  label.append(control);
  return label;
}

function select(options: ReadonlyArray<[string, string]>): HTMLSelectElement {
  const node = element('select', 'svc-page-setup-select');
  for (const [value, text] of options) node.append(new Option(text, value));
  return node;
}

/**
 * documentPro's Page setup dialog (a modal `<dialog>`: Escape closes it, Tab stays inside): paper size and
 * orientation, Word's margin presets or margins in millimetres, and the header and footer lines with buttons that
 * insert the page number, page count and date fields. Saving checks the whole setup as every writer does
 * (checkedPageSetup) and hands it to `save`; a refused setup keeps the dialog open with the reason.
 */
export class PageSetupDialog {
  private readonly dialog = element('dialog', 'svc-page-setup');
  private readonly size = select(Object.keys(PAPER_SIZES).map((size) => [size, size]));
  private readonly orientation = select([
    ['portrait', t('pageSetup.portrait')],
    ['landscape', t('pageSetup.landscape')],
  ]);
  private readonly preset = select([
    ['custom', t('pageSetup.custom')],
    ...(Object.keys(MARGIN_PRESETS) as MarginPreset[]).map((name): [string, string] => [name, t(`pageSetup.preset.${name}`)]),
  ]);
  private readonly margins = Object.fromEntries(SIDES.map((side) => [side, this.marginInput()])) as Record<(typeof SIDES)[number], HTMLInputElement>;
  private readonly lines = {
    header: Object.fromEntries(SLOTS.map((slot) => [slot, this.slotInput()])) as Record<(typeof SLOTS)[number], HTMLInputElement>,
    footer: Object.fromEntries(SLOTS.map((slot) => [slot, this.slotInput()])) as Record<(typeof SLOTS)[number], HTMLInputElement>,
  };
  private readonly error = element('p', 'svc-page-setup-error');
  /** the slot input that last had focus: where a field button inserts */
  private lastSlot: HTMLInputElement;

  constructor(
    parent: HTMLElement,
    private readonly current: () => PageSetup,
    private readonly save: (setup: PageSetup) => void,
  ) {
    this.lastSlot = this.lines.footer.center;
    this.dialog.setAttribute('aria-labelledby', 'svc-page-setup-title');
    const title = element('h2', 'svc-page-setup-title', t('pageSetup.title'));
    title.id = 'svc-page-setup-title';
    const form = element('form', 'svc-page-setup-form');
    form.method = 'dialog';
    // the checks of the model give the reason in the page's language; the browser's own would block them
    form.noValidate = true;
    const paper = element('fieldset', 'svc-page-setup-group');
    paper.append(element('legend', '', t('pageSetup.paper')), labelled(t('pageSetup.size'), this.size), labelled(t('pageSetup.orientation'), this.orientation));
    const margins = element('fieldset', 'svc-page-setup-group');
    margins.append(element('legend', '', t('pageSetup.margins')), labelled(t('pageSetup.preset'), this.preset), ...SIDES.map((side) => labelled(t(`pageSetup.margin.${side}`), this.margins[side])));
    this.preset.addEventListener('change', () => {
      const preset = MARGIN_PRESETS[this.preset.value as MarginPreset] as PageMargins | undefined;
      if (preset) for (const side of SIDES) this.margins[side].value = String(preset[side]);
    });
    for (const side of SIDES) this.margins[side].addEventListener('input', () => (this.preset.value = this.presetOf(this.readMargins())));
    const lines = (['header', 'footer'] as const).map((name) => {
      const group = element('fieldset', 'svc-page-setup-group svc-page-setup-line');
      group.append(element('legend', '', t(`pageSetup.${name}`)), ...SLOTS.map((slot) => labelled(t(`pageSetup.slot.${slot}`), this.lines[name][slot])));
      return group;
    });
    const fields = element('div', 'svc-page-setup-fields');
    fields.append(element('span', '', t('pageSetup.insertField')), ...(['page', 'pages', 'date'] as const).map((field) => this.fieldButton(field)));
    const actions = element('div', 'svc-page-setup-actions');
    const cancel = element('button', 'svc-page-setup-cancel', t('pageSetup.cancel'));
    cancel.type = 'button';
    cancel.addEventListener('click', () => this.dialog.close());
    const ok = element('button', 'svc-page-setup-save', t('pageSetup.save'));
    ok.type = 'submit';
    actions.append(cancel, ok);
    this.error.setAttribute('role', 'alert');
    form.append(paper, margins, ...lines, fields, this.error, actions);
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      this.submit();
    });
    this.dialog.append(title, form);
    parent.append(this.dialog);
  }

  open(): void {
    const setup = this.current();
    this.size.value = setup.size;
    this.orientation.value = setup.orientation;
    for (const side of SIDES) this.margins[side].value = String(setup.margins[side]);
    this.preset.value = this.presetOf(setup.margins);
    for (const name of ['header', 'footer'] as const) for (const slot of SLOTS) this.lines[name][slot].value = setup[name][slot];
    this.error.textContent = '';
    this.dialog.showModal();
    this.size.focus();
  }

  private submit(): void {
    try {
      const line = (name: 'header' | 'footer') => Object.fromEntries(SLOTS.map((slot) => [slot, this.lines[name][slot].value.trim()]));
      const setup = checkedPageSetup(this.current(), { size: this.size.value, orientation: this.orientation.value, margins: this.readMargins(), header: line('header'), footer: line('footer') });
      this.save(setup);
      this.dialog.close();
    } catch (error) {
      if (!(error instanceof PageSetupError)) throw error;
      this.error.textContent = /text (width|height)/.test(error.message) ? t('pageSetup.tooLittleText', { minimum: MARGIN_LIMITS.minTextArea }) : t('pageSetup.badMargin', { min: MARGIN_LIMITS.min, max: MARGIN_LIMITS.max });
    }
  }

  private readMargins(): Record<(typeof SIDES)[number], number> {
    return Object.fromEntries(SIDES.map((side) => [side, this.margins[side].value.trim() === '' ? Number.NaN : Number(this.margins[side].value)])) as Record<(typeof SIDES)[number], number>;
  }

  private presetOf(margins: Readonly<Record<(typeof SIDES)[number], number>>): string {
    const found = (Object.keys(MARGIN_PRESETS) as MarginPreset[]).find((name) => SIDES.every((side) => Math.abs(MARGIN_PRESETS[name][side] - margins[side]) < 0.05));
    return found ?? 'custom';
  }

  private marginInput(): HTMLInputElement {
    const input = element('input', 'svc-page-setup-margin');
    input.type = 'number';
    input.min = String(MARGIN_LIMITS.min);
    input.max = String(MARGIN_LIMITS.max);
    input.step = '0.1';
    input.required = true;
    return input;
  }

  private slotInput(): HTMLInputElement {
    const input = element('input', 'svc-page-setup-slot');
    input.type = 'text';
    input.maxLength = MAX_SLOT_LENGTH;
    input.addEventListener('focus', () => (this.lastSlot = input));
    return input;
  }

  /** Inserts `{field}` at the caret of the slot last edited, and goes back there. */
  private fieldButton(field: 'page' | 'pages' | 'date'): HTMLButtonElement {
    const button = element('button', 'svc-page-setup-field-button', t(`pageSetup.field.${field}`));
    button.type = 'button';
    button.addEventListener('click', () => {
      const input = this.lastSlot;
      const start = input.selectionStart ?? input.value.length;
      const end = input.selectionEnd ?? start;
      input.setRangeText(`{${field}}`, start, end, 'end');
      input.focus();
    });
    return button;
  }
}
