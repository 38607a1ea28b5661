import { MAX_ROW_HEIGHT, MIN_ROW_HEIGHT } from '../../src/model/sheets/sheet-model.js';
import { t } from './messages.js';
import { sheetPanel } from './sheet-panel.js';

/** What the Row height dialog needs of the editor. */
export interface RowHeightHost {
  root: HTMLElement;
  /** the height the first selected row shows now, pixels */
  shownHeight(): number;
  /** sets the selected rows' height, or gives them back to their content (undefined) */
  apply(height: number | undefined): void;
  /** the dialog closed: the grid takes the focus back */
  closed(): void;
}

/** A typed height as the model takes it: a whole number of pixels within the bounds, else undefined. */
export function parseRowHeight(text: string): number | undefined {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return undefined;
  const height = Number(trimmed);
  return height >= MIN_ROW_HEIGHT && height <= MAX_ROW_HEIGHT ? height : undefined;
}

/**
 * The Row height dialog (the context menu's "Row height…", as Excel's Format → Row Height): a height in pixels for
 * the selected rows, checked before anything changes (the problem is said in the dialog), or "Fit to content".
 */
export class RowHeightDialog {
  private readonly dialog: HTMLElement;

  constructor(private readonly host: RowHeightHost) {
    this.dialog = sheetPanel(host.root, 'svc-sheet-validation-dialog svc-sheet-row-height-dialog', 'dialog', () => this.close());
    this.dialog.setAttribute('aria-label', t('rowHeight.title'));
  }

  open(): void {
    const heading = Object.assign(document.createElement('h2'), { textContent: t('rowHeight.title') });
    const input = Object.assign(document.createElement('input'), { type: 'text', inputMode: 'numeric', value: String(this.host.shownHeight()), maxLength: 6 });
    const field = document.createElement('label');
    field.className = 'svc-sheet-validation-field';
    field.append(Object.assign(document.createElement('span'), { textContent: t('rowHeight.field') }), input);
    const problem = document.createElement('p');
    problem.className = 'svc-sheet-validation-problem';
    problem.setAttribute('role', 'alert');
    problem.hidden = true;
    const save = () => {
      const height = parseRowHeight(input.value);
      if (height === undefined) {
        problem.textContent = t('rowHeight.invalid', { min: String(MIN_ROW_HEIGHT), max: String(MAX_ROW_HEIGHT) });
        problem.hidden = false;
        input.focus();
        return;
      }
      this.host.apply(height);
      this.close();
    };
    input.addEventListener('keydown', (event) => {
      if (event.key !== 'Enter') return;
      event.preventDefault();
      save();
    });
    const button = (label: string, run: () => void, className = '') => Object.assign(document.createElement('button'), { type: 'button', textContent: label, className, onclick: run });
    const actions = document.createElement('div');
    actions.className = 'svc-sheet-validation-actions';
    actions.append(
      button(t('rowHeight.auto'), () => (this.host.apply(undefined), this.close())),
      button(t('filter.cancel'), () => this.close()),
      button(t('filter.apply'), save, 'svc-sheet-validation-save'),
    );
    this.dialog.replaceChildren(heading, field, problem, actions);
    this.dialog.hidden = false;
    input.focus();
    input.select();
  }

  close(): void {
    if (this.dialog.hidden) return;
    this.dialog.hidden = true;
    this.host.closed();
  }
}
