import { ALIGNMENTS, type CellStyle, type HorizontalAlignment, type StylePatch } from '../../src/model/sheets/cell-style.js';
import { toolButton } from '../shared/tool-button.js';
import { t } from './messages.js';
import type { BorderPreset } from './workbook.js';

/** Fonts the list offers (any other a cell has, from an imported file, shows in the list too). */
const FONTS = ['Arial', 'Calibri', 'Cambria', 'Courier New', 'Georgia', 'Times New Roman', 'Verdana', 'SimSun', 'SimHei', 'Microsoft YaHei', 'KaiTi'];
const SIZES = [8, 9, 10, 11, 12, 14, 16, 18, 20, 24, 28, 36, 48, 72];
const BORDER_PRESETS: ReadonlyArray<[BorderPreset, 'border.all' | 'border.outer' | 'border.bottom' | 'border.none']> = [
  ['all', 'border.all'],
  ['outer', 'border.outer'],
  ['bottom', 'border.bottom'],
  ['none', 'border.none'],
];

/** The colour a cell has without a style of its own: picking it takes the style's colour away. */
const DEFAULT_TEXT = '#000000';
const DEFAULT_FILL = '#ffffff';

const ALIGN_LABELS = { left: 'style.alignLeft', center: 'style.alignCenter', right: 'style.alignRight' } as const;
const ALIGN_GLYPHS = { left: '⇤', center: '↔', right: '⇥' } as const;

/**
 * The toolbar's style controls (docs/BROWSER.md "Spreadsheet", docs/SHEETS.md "Cell styles"): bold, italic, text
 * and fill colour, alignment. Each gives its change to the selection through `apply`; `show` reflects the active
 * cell (aria-pressed on the buttons, the colours in the pickers).
 */
export class StyleBar {
  readonly elements: HTMLElement[];
  private readonly bold: HTMLButtonElement;
  private readonly italic: HTMLButtonElement;
  private readonly textColour: HTMLInputElement;
  private readonly fillColour: HTMLInputElement;
  private readonly align: Record<HorizontalAlignment, HTMLButtonElement>;
  private readonly fontFamily: HTMLSelectElement;
  private readonly fontSize: HTMLSelectElement;
  private readonly wrap: HTMLButtonElement;
  private readonly borders: HTMLSelectElement;
  private shown: CellStyle | undefined;

  constructor(
    private readonly apply: (patch: StylePatch) => void,
    applyBorders: (preset: BorderPreset) => void,
  ) {
    this.fontFamily = this.select(t('style.fontFamily'), 'svc-sheet-font-family', [['', t('style.defaultFont')], ...FONTS.map((font) => [font, font] as [string, string])], (value) => apply({ ff: value === '' ? null : value }));
    this.fontSize = this.select(t('style.fontSize'), 'svc-sheet-font-size', [['', '10'], ...SIZES.filter((size) => size !== 10).map((size) => [String(size), String(size)] as [string, string])], (value) =>
      apply({ fs: value === '' ? null : Number(value) }),
    );
    this.wrap = toolButton(t('style.wrap'), '↵', () => apply({ w: this.shown?.w !== true }));
    this.borders = this.select(t('style.borders'), 'svc-sheet-borders', [['', t('style.borders')], ...BORDER_PRESETS.map(([preset, key]) => [preset, t(key)] as [string, string])], (value) => {
      this.borders.value = '';
      if (value !== '') applyBorders(value as BorderPreset);
    });
    this.bold = toolButton(t('style.bold'), 'B', () => this.toggle('b'));
    this.bold.classList.add('svc-sheet-style-bold');
    this.italic = toolButton(t('style.italic'), 'I', () => this.toggle('i'));
    this.italic.classList.add('svc-sheet-style-italic');
    this.textColour = this.colourPicker(t('style.textColour'), 'A', DEFAULT_TEXT, (colour) => apply({ c: colour === DEFAULT_TEXT ? null : colour }));
    this.fillColour = this.colourPicker(t('style.fillColour'), '▨', DEFAULT_FILL, (colour) => apply({ bg: colour === DEFAULT_FILL ? null : colour }));
    this.align = Object.fromEntries(
      ALIGNMENTS.map((alignment) => [alignment, toolButton(t(ALIGN_LABELS[alignment]), ALIGN_GLYPHS[alignment], () => apply({ a: this.shown?.a === alignment ? null : alignment }))]),
    ) as Record<HorizontalAlignment, HTMLButtonElement>;
    this.elements = [
      this.fontFamily,
      this.fontSize,
      this.bold,
      this.italic,
      this.textColour.parentElement!,
      this.fillColour.parentElement!,
      ...ALIGNMENTS.map((alignment) => this.align[alignment]),
      this.wrap,
      this.borders,
    ];
    this.show(undefined);
  }

  /** Bold or italic on when the active cell has it off, else off (Ctrl+B and Ctrl+I too). */
  toggle(flag: 'b' | 'i'): void {
    this.apply({ [flag]: this.shown?.[flag] !== true });
  }

  /** Reflects the active cell's style. */
  show(style: CellStyle | undefined): void {
    this.shown = style;
    this.bold.setAttribute('aria-pressed', String(style?.b === true));
    this.italic.setAttribute('aria-pressed', String(style?.i === true));
    for (const alignment of ALIGNMENTS) this.align[alignment].setAttribute('aria-pressed', String(style?.a === alignment));
    this.wrap.setAttribute('aria-pressed', String(style?.w === true));
    showValue(this.fontFamily, style?.ff ?? '');
    // the default size is 10 points (the grid's 13 pixels)
    showValue(this.fontSize, style?.fs === undefined || style.fs === 10 ? '' : String(style.fs));
    this.textColour.value = style?.c ?? DEFAULT_TEXT;
    this.fillColour.value = style?.bg ?? DEFAULT_FILL;
    this.textColour.parentElement!.style.setProperty('--svc-swatch', this.textColour.value);
    this.fillColour.parentElement!.style.setProperty('--svc-swatch', this.fillColour.value);
  }

  set disabled(disabled: boolean) {
    for (const control of [this.bold, this.italic, ...Object.values(this.align), this.wrap, this.fontFamily, this.fontSize, this.borders]) control.disabled = disabled;
    this.textColour.disabled = disabled;
    this.fillColour.disabled = disabled;
  }

  /** A list of choices; `choose` is given the value picked. */
  private select(label: string, className: string, options: Array<[string, string]>, choose: (value: string) => void): HTMLSelectElement {
    const select = document.createElement('select');
    select.className = `svc-sheet-font ${className}`;
    select.title = label;
    select.setAttribute('aria-label', label);
    for (const [value, text] of options) select.append(new Option(text, value));
    select.addEventListener('change', () => choose(select.value));
    return select;
  }

  /** A colour input behind a glyph underlined in the colour it holds. */
  private colourPicker(label: string, glyph: string, initial: string, pick: (colour: string) => void): HTMLInputElement {
    const host = document.createElement('label');
    host.className = 'svc-tool svc-sheet-colour';
    host.title = label;
    const symbol = document.createElement('span');
    symbol.textContent = glyph;
    symbol.setAttribute('aria-hidden', 'true');
    const input = document.createElement('input');
    input.type = 'color';
    input.value = initial;
    input.setAttribute('aria-label', label);
    input.addEventListener('change', () => pick(input.value.toLowerCase()));
    host.append(symbol, input);
    return input;
  }
}

/** Shows `value` in a list, adding it as a choice when the list lacks it (a font of an imported file). */
function showValue(select: HTMLSelectElement, value: string): void {
  if (![...select.options].some((option) => option.value === value)) select.append(new Option(value, value));
  select.value = value;
}
