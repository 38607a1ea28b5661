/**
 * Cell styles (docs/SHEETS.md "Cell styles"): one small plain-JSON object on the cell, `s`, holding only what
 * differs from the default look: bold `b`, italic `i`, text colour `c`, fill colour `bg` (both `#rrggbb`, lower
 * case) and horizontal alignment `a`. A style belongs to the cell, not to its value (as a number format does):
 * writing or clearing the value keeps it, and it moves with the cell when rows or columns are inserted or deleted.
 */

export type HorizontalAlignment = 'left' | 'center' | 'right';

export interface CellStyle {
  b?: true;
  i?: true;
  /** text colour, `#rrggbb` */
  c?: string;
  /** fill colour, `#rrggbb` */
  bg?: string;
  a?: HorizontalAlignment;
}

/**
 * A change of style: each field given sets it (false / null: back to the default), fields not given stay as
 * they are. What the toolbar applies to a selection.
 */
export interface StylePatch {
  b?: boolean;
  i?: boolean;
  c?: string | null;
  bg?: string | null;
  a?: HorizontalAlignment | null;
}

export const ALIGNMENTS: readonly HorizontalAlignment[] = ['left', 'center', 'right'];

const COLOUR = /^#[0-9a-f]{6}$/i;

/** A colour as the model keeps it (`#rrggbb`, lower case), or undefined when it is not one. */
export function colourOf(value: unknown): string | undefined {
  return typeof value === 'string' && COLOUR.test(value) ? value.toLowerCase() : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The valid part of a stored or received style: unknown keys, colours other than `#rrggbb`, alignments other
 * than left/center/right and flags other than true are dropped. Undefined when nothing is left (the default look).
 */
export function parseCellStyle(value: unknown): CellStyle | undefined {
  if (!isObject(value)) return undefined;
  const style: CellStyle = {};
  if (value.b === true) style.b = true;
  if (value.i === true) style.i = true;
  const colour = colourOf(value.c);
  if (colour !== undefined) style.c = colour;
  const fill = colourOf(value.bg);
  if (fill !== undefined) style.bg = fill;
  if (typeof value.a === 'string' && (ALIGNMENTS as readonly string[]).includes(value.a)) style.a = value.a as HorizontalAlignment;
  return Object.keys(style).length > 0 ? style : undefined;
}

/** The style of a stored cell, undefined for the default look. */
export function styleOf(stored: unknown): CellStyle | undefined {
  return isObject(stored) ? parseCellStyle(stored.s) : undefined;
}

/** Why a style change cannot be applied (a colour that is not `#rrggbb`, an unknown alignment); undefined when it can. */
export function invalidStylePatch(patch: StylePatch): string | undefined {
  for (const key of ['c', 'bg'] as const) {
    const colour = patch[key];
    if (colour !== undefined && colour !== null && colourOf(colour) === undefined) return `a colour is #rrggbb, not ${JSON.stringify(colour).slice(0, 40)}`;
  }
  if (patch.a !== undefined && patch.a !== null && !ALIGNMENTS.includes(patch.a)) return `an alignment is left, center or right, not ${JSON.stringify(patch.a).slice(0, 40)}`;
  return undefined;
}

/** `style` with `patch` applied, undefined when that is the default look. */
export function patchStyle(style: CellStyle | undefined, patch: StylePatch): CellStyle | undefined {
  const next: Record<string, unknown> = { ...style };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    next[key] = value === false || value === null ? undefined : value;
  }
  return parseCellStyle(next);
}

export function sameStyle(a: CellStyle | undefined, b: CellStyle | undefined): boolean {
  return a?.b === b?.b && a?.i === b?.i && a?.c === b?.c && a?.bg === b?.bg && a?.a === b?.a;
}

/** The style as CSS declarations (for the pdf export's cells); '' for the default look. */
export function styleCss(style: CellStyle | undefined): string {
  if (!style) return '';
  const rules: string[] = [];
  if (style.b) rules.push('font-weight:bold');
  if (style.i) rules.push('font-style:italic');
  if (style.c) rules.push(`color:${style.c}`);
  if (style.bg) rules.push(`background:${style.bg}`);
  if (style.a) rules.push(`text-align:${style.a}`);
  return rules.join(';');
}
