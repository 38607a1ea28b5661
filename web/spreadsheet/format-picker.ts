import { t } from './messages.js';

/** The number formats the toolbar offers (any other code, e.g. from an imported workbook, shows as "custom"). */
export const FORMAT_PRESETS = [
  { key: 'general', code: null },
  { key: 'number', code: '#,##0.00' },
  { key: 'integer', code: '#,##0' },
  { key: 'percent', code: '0.00%' },
  { key: 'currencyCny', code: '"¥"#,##0.00' },
  { key: 'currencyUsd', code: '"$"#,##0.00' },
  { key: 'date', code: 'yyyy-mm-dd' },
  { key: 'dateTime', code: 'yyyy-mm-dd hh:mm' },
  { key: 'time', code: 'hh:mm:ss' },
  { key: 'text', code: '@' },
] as const;

const CUSTOM = 'custom';

/**
 * The toolbar's number format list: shows the active cell's format and gives the chosen one to the selection
 * (docs/BROWSER.md "Spreadsheet", docs/SHEETS.md "Number formats").
 */
export class FormatPicker {
  readonly element: HTMLSelectElement;
  private readonly custom: HTMLOptionElement;

  constructor(apply: (code: string | null) => void) {
    this.element = document.createElement('select');
    this.element.className = 'svc-sheet-format';
    this.element.title = t('format.label');
    this.element.setAttribute('aria-label', t('format.label'));
    for (const preset of FORMAT_PRESETS) {
      const option = document.createElement('option');
      option.value = preset.key;
      option.textContent = t(`format.${preset.key}`);
      this.element.append(option);
    }
    // in the list only while the active cell has another code: a hidden option still shows as an empty line
    this.custom = document.createElement('option');
    this.custom.value = CUSTOM;
    this.custom.disabled = true;
    this.element.addEventListener('change', () => {
      const preset = FORMAT_PRESETS.find((candidate) => candidate.key === this.element.value);
      if (preset) apply(preset.code);
    });
  }

  /** Shows `code` (undefined: General) as the selected entry. */
  show(code: string | undefined): void {
    const preset = FORMAT_PRESETS.find((candidate) => (candidate.code ?? undefined) === code);
    if (preset) {
      this.custom.remove();
      this.element.value = preset.key;
    } else {
      this.custom.textContent = t('format.custom', { code: code ?? '' });
      this.element.append(this.custom);
      this.element.value = CUSTOM;
    }
  }

  set disabled(disabled: boolean) {
    this.element.disabled = disabled;
  }
}
