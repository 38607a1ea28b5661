import type { CssSide } from '../../src/model/sheets/cell-style.js';

/**
 * The inline style properties that draw a cell's look (its style's colour, fill, font and borders, a conditional
 * format's colour and fill, the spill outline), and which cell elements have any set. The grid draws its elements
 * again as other cells (scrolling reuses them), so a cell drawn resets what the cell drawn there before set; it does
 * so only where something was set: most cells have no look, and a screenful of style writes, even of empty values,
 * is style work for the browser in every frame of a scroll.
 */
export type LookProperty = 'color' | 'font-family' | 'font-size' | 'box-shadow' | '--svc-cell-fill' | `--svc-border-${CssSide}`;

const LOOK_PROPERTIES: readonly LookProperty[] = ['color', 'font-family', 'font-size', 'box-shadow', '--svc-cell-fill', '--svc-border-top', '--svc-border-right', '--svc-border-bottom', '--svc-border-left'];

/** cell elements with a look property set since their last `clearLook` */
const withLook = new WeakSet<HTMLElement>();

export function setLook(cell: HTMLElement, property: LookProperty, value: string): void {
  cell.style.setProperty(property, value);
  withLook.add(cell);
}

/** Takes away every look property a cell element was given (what the cell drawn there before set). */
export function clearLook(cell: HTMLElement): void {
  if (!withLook.delete(cell)) return;
  for (const property of LOOK_PROPERTIES) cell.style.removeProperty(property);
}
