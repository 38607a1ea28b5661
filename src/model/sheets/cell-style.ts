/**
 * Cell styles (docs/SHEETS.md "Cell styles"): one small plain-JSON object on the cell, `s`, holding only what
 * differs from the default look: bold `b`, italic `i`, text colour `c`, fill colour `bg` (both `#rrggbb`, lower
 * case), horizontal alignment `a`, font family `ff` and size `fs` (points), wrapped text `w`, and a border on each
 * side (`bt`, `br`, `bb`, `bl`: a line style and an optional colour). A style belongs to the cell, not to its value (as a number format does):
 * writing or clearing the value keeps it, and it moves with the cell when rows or columns are inserted or deleted.
 */

export type HorizontalAlignment = 'left' | 'center' | 'right';

/** The line styles of a border, the common ones of the desktop format. */
export type BorderLine = 'thin' | 'medium' | 'thick' | 'dashed' | 'dotted' | 'double';

export const BORDER_LINES: readonly BorderLine[] = ['thin', 'medium', 'thick', 'dashed', 'dotted', 'double'];

/** One side's border: its line and colour (`#rrggbb`; none: black). */
export interface Border {
  s: BorderLine;
  c?: string;
}

/** The sides' keys in a style: top, right, bottom, left. */
export const BORDER_SIDES = ['bt', 'br', 'bb', 'bl'] as const;
export type BorderSide = (typeof BORDER_SIDES)[number];

/** Font sizes in points a style may hold (the desktop format's range). */
export const MIN_FONT_SIZE = 1;
export const MAX_FONT_SIZE = 409;
/** Longest font family name kept. */
const MAX_FONT_NAME = 64;
/**
 * A font family name: letters (any script), digits, spaces, `-`, `_` and `.`; nothing that could end a CSS value
 * (quotes, `;`, `{`, `(`), so that the name is safe in every place that draws it.
 */
const FONT_NAME = /^[\p{L}\p{N} ._-]+$/u;

export interface CellStyle {
  b?: true;
  i?: true;
  /** text colour, `#rrggbb` */
  c?: string;
  /** fill colour, `#rrggbb` */
  bg?: string;
  a?: HorizontalAlignment;
  /** font family name */
  ff?: string;
  /** font size, points */
  fs?: number;
  /** text wraps inside the cell */
  w?: true;
  bt?: Border;
  br?: Border;
  bb?: Border;
  bl?: Border;
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
  ff?: string | null;
  fs?: number | null;
  w?: boolean;
  bt?: Border | null;
  br?: Border | null;
  bb?: Border | null;
  bl?: Border | null;
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

/** A font family name as the model keeps it (trimmed), or undefined when it is not one. */
export function fontNameOf(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const name = value.trim();
  return name.length > 0 && name.length <= MAX_FONT_NAME && FONT_NAME.test(name) ? name : undefined;
}

/** A font size in points as the model keeps it (to half a point), or undefined when it is not one. */
export function fontSizeOf(value: unknown): number | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value)) return undefined;
  const size = Math.round(value * 2) / 2;
  return size >= MIN_FONT_SIZE && size <= MAX_FONT_SIZE ? size : undefined;
}

/** A border as the model keeps it, or undefined when it is not one (an unknown line, a colour not `#rrggbb`). */
export function borderOf(value: unknown): Border | undefined {
  if (!isObject(value) || typeof value.s !== 'string' || !(BORDER_LINES as readonly string[]).includes(value.s)) return undefined;
  const border: Border = { s: value.s as BorderLine };
  const colour = colourOf(value.c);
  if (colour !== undefined) border.c = colour;
  return border;
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
  const font = fontNameOf(value.ff);
  if (font !== undefined) style.ff = font;
  const size = fontSizeOf(value.fs);
  if (size !== undefined) style.fs = size;
  if (value.w === true) style.w = true;
  for (const side of BORDER_SIDES) {
    const border = borderOf(value[side]);
    if (border !== undefined) style[side] = border;
  }
  return Object.keys(style).length > 0 ? style : undefined;
}

/** The style of a stored cell, undefined for the default look. */
export function styleOf(stored: unknown): CellStyle | undefined {
  return isObject(stored) ? parseCellStyle(stored.s) : undefined;
}

/**
 * A stored cell's own style as stored, which its row's or column's does not replace: `{}` for a cell given the
 * default look in a styled row or column; undefined when the cell has none of its own (it shows its line's).
 */
export function ownStyleOf(stored: unknown): CellStyle | undefined {
  return isObject(stored) && isObject(stored.s) ? (parseCellStyle(stored.s) ?? {}) : undefined;
}

/** Why a style change cannot be applied (a colour that is not `#rrggbb`, an unknown alignment); undefined when it can. */
export function invalidStylePatch(patch: StylePatch): string | undefined {
  for (const key of ['c', 'bg'] as const) {
    const colour = patch[key];
    if (colour !== undefined && colour !== null && colourOf(colour) === undefined) return `a colour is #rrggbb, not ${JSON.stringify(colour).slice(0, 40)}`;
  }
  if (patch.a !== undefined && patch.a !== null && !ALIGNMENTS.includes(patch.a)) return `an alignment is left, center or right, not ${JSON.stringify(patch.a).slice(0, 40)}`;
  if (patch.ff !== undefined && patch.ff !== null && fontNameOf(patch.ff) === undefined) return `a font name has 1 to ${MAX_FONT_NAME} letters, digits, spaces, dots, dashes or underscores, not ${JSON.stringify(patch.ff).slice(0, 40)}`;
  if (patch.fs !== undefined && patch.fs !== null && fontSizeOf(patch.fs) === undefined) return `a font size is ${MIN_FONT_SIZE} to ${MAX_FONT_SIZE} points, not ${JSON.stringify(patch.fs).slice(0, 40)}`;
  for (const side of BORDER_SIDES) {
    const border = patch[side];
    if (border !== undefined && border !== null && borderOf(border) === undefined) return `a border is {s: ${BORDER_LINES.join(' | ')}, c?: #rrggbb}, not ${JSON.stringify(border).slice(0, 60)}`;
  }
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

function sameBorder(a: Border | undefined, b: Border | undefined): boolean {
  return a?.s === b?.s && a?.c === b?.c;
}

export function sameStyle(a: CellStyle | undefined, b: CellStyle | undefined): boolean {
  return (
    a?.b === b?.b && a?.i === b?.i && a?.c === b?.c && a?.bg === b?.bg && a?.a === b?.a && a?.ff === b?.ff && a?.fs === b?.fs && a?.w === b?.w &&
    BORDER_SIDES.every((side) => sameBorder(a?.[side], b?.[side]))
  );
}

/** A side of a box as CSS names it. */
export type CssSide = 'top' | 'right' | 'bottom' | 'left';

const CSS_SIDES: Readonly<Record<BorderSide, CssSide>> = { bt: 'top', br: 'right', bb: 'bottom', bl: 'left' };
const LINE_CSS: Readonly<Record<BorderLine, string>> = { thin: '1px solid', medium: '2px solid', thick: '3px solid', dashed: '1px dashed', dotted: '1px dotted', double: '3px double' };

/** A border as a CSS `border` value (`1px solid #000000`). */
export function borderCss(border: Border): string {
  return `${LINE_CSS[border.s]} ${border.c ?? '#000000'}`;
}

/** Each side's border of a style as CSS (`top` → `1px solid #000000`); empty for none. */
export function borderSidesCss(style: CellStyle | undefined): Array<[CssSide, string]> {
  return BORDER_SIDES.flatMap((side) => (style?.[side] ? [[CSS_SIDES[side], borderCss(style[side])] as [CssSide, string]] : []));
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
  // the name passed fontNameOf: letters, digits, spaces, dots, dashes, underscores only
  if (style.ff) rules.push(`font-family:"${style.ff}"`);
  if (style.fs) rules.push(`font-size:${style.fs}pt`);
  if (style.w) rules.push('white-space:pre-wrap;overflow-wrap:anywhere');
  for (const [side, css] of borderSidesCss(style)) rules.push(`border-${side}:${css}`);
  return rules.join(';');
}
