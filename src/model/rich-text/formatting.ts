import { getStyleProperty } from '@tiptap/core';

/**
 * The values of the document's formatting attributes (docs/CONTENT-MODEL.md "Formatting"), for every reader
 * and writer: the toolbar's choices, the HTML and docx forms (marks/text-style.ts, marks/highlight.ts,
 * paragraph-format.ts), and reading them back from CSS (HTML import, paste).
 */

/** A font family the toolbar offers, with the generic family the browser falls back to where it is not installed. */
export interface FontChoice {
  family: string;
  fallback: 'sans-serif' | 'serif' | 'monospace';
  /** holds Chinese, Japanese and Korean glyphs */
  cjk?: true;
}

/** Web-safe families (installed on Windows, macOS and most Linux desktops or aliased there) and CJK-capable ones. */
export const FONT_CHOICES: readonly FontChoice[] = [
  { family: 'Arial', fallback: 'sans-serif' },
  { family: 'Calibri', fallback: 'sans-serif' },
  { family: 'Verdana', fallback: 'sans-serif' },
  { family: 'Georgia', fallback: 'serif' },
  { family: 'Times New Roman', fallback: 'serif' },
  { family: 'Courier New', fallback: 'monospace' },
  { family: 'Microsoft YaHei', fallback: 'sans-serif', cjk: true },
  { family: 'SimSun', fallback: 'serif', cjk: true },
  { family: 'Noto Sans CJK SC', fallback: 'sans-serif', cjk: true },
  { family: 'MS Gothic', fallback: 'sans-serif', cjk: true },
  { family: 'Malgun Gothic', fallback: 'sans-serif', cjk: true },
];

/** Font sizes in points, as Word and Google Docs offer them. */
export const FONT_SIZES_PT: readonly number[] = [8, 9, 10, 11, 12, 14, 16, 18, 20, 24, 28, 36, 48, 72];

/** Line spacing as a multiple of the font's line (1 single, 2 double). */
export const LINE_HEIGHTS: readonly string[] = ['1', '1.15', '1.5', '2', '2.5', '3'];

/** Indent steps of a paragraph: each is half an inch (36 pt, Word's default tab stop). */
export const MAX_INDENT = 8;
export const INDENT_STEP_PT = 36;

export const TEXT_ALIGNS = ['left', 'center', 'right', 'justify'] as const;
export type TextAlign = (typeof TEXT_ALIGNS)[number];

/** Text colours of the toolbar's palette (any `#rrggbb` may be stored; the palette also has a free choice). */
export const TEXT_COLORS: readonly string[] = ['#000000', '#434343', '#666666', '#999999', '#c00000', '#e03131', '#f08c00', '#2f9e44', '#1971c2', '#0c8599', '#6741d9', '#c2255c'];

/**
 * Word's highlight colours (`w:highlight`), by the `#rrggbb` the `highlight` mark stores: a highlight in one of
 * them round-trips through docx as is; another colour is written as run shading.
 */
export type WordHighlight =
  | 'yellow' | 'green' | 'cyan' | 'magenta' | 'blue' | 'red' | 'darkBlue' | 'darkCyan' | 'darkGreen'
  | 'darkMagenta' | 'darkRed' | 'darkYellow' | 'darkGray' | 'lightGray' | 'black';
export const WORD_HIGHLIGHTS: Readonly<Record<string, WordHighlight>> = {
  '#ffff00': 'yellow',
  '#00ff00': 'green',
  '#00ffff': 'cyan',
  '#ff00ff': 'magenta',
  '#0000ff': 'blue',
  '#ff0000': 'red',
  '#000080': 'darkBlue',
  '#008080': 'darkCyan',
  '#008000': 'darkGreen',
  '#800080': 'darkMagenta',
  '#800000': 'darkRed',
  '#808000': 'darkYellow',
  '#808080': 'darkGray',
  '#c0c0c0': 'lightGray',
  '#000000': 'black',
};

/** The highlight colours the toolbar offers: Word's lighter ones, which text stays readable on. */
export const HIGHLIGHT_COLORS: readonly string[] = ['#ffff00', '#00ff00', '#00ffff', '#ff00ff', '#c0c0c0'];

/**
 * The readers below take what CSS, a file or a stored attribute holds: another client or the API may have stored
 * any JSON value, so anything but a string of the expected form reads as undefined.
 */
function trimmed(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

/** `#rrggbb` (lower case) of a CSS colour written as `#rgb`, `#rrggbb` or `rgb(r, g, b)`; undefined for anything else. */
export function hexColor(value: unknown): string | undefined {
  const text = trimmed(value).toLowerCase();
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/.exec(text);
  if (hex) return hex[1]!.length === 3 ? `#${[...hex[1]!].map((digit) => digit + digit).join('')}` : text;
  const rgb = /^rgba?\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*(?:,\s*(?:1|1\.0+)\s*)?\)$/.exec(text);
  if (!rgb) return undefined;
  const channels = rgb.slice(1, 4).map(Number);
  if (channels.some((channel) => channel > 255)) return undefined;
  return `#${channels.map((channel) => channel.toString(16).padStart(2, '0')).join('')}`;
}

const POINTS_PER_UNIT: Readonly<Record<string, number>> = { pt: 1, px: 0.75, in: 72, cm: 72 / 2.54, mm: 72 / 25.4, pc: 12, em: 12, rem: 12 };

/** Points of a CSS length (`12pt`, `16px`, `0.5in`; `em` taken as 12 pt); undefined for anything else. */
export function pointsOf(value: unknown): number | undefined {
  const match = /^(\d+(?:\.\d+)?|\.\d+)\s*(pt|px|in|cm|mm|pc|r?em)$/i.exec(trimmed(value));
  if (!match) return undefined;
  return Number(match[1]) * POINTS_PER_UNIT[match[2]!.toLowerCase()]!;
}

/** A stored font size: whole or half points written `12pt`, within 1–400 pt; undefined for anything else. */
export function fontSizeOf(value: unknown): string | undefined {
  const points = pointsOf(value);
  if (points === undefined) return undefined;
  const rounded = Math.round(points * 2) / 2;
  return rounded >= 1 && rounded <= 400 ? `${rounded}pt` : undefined;
}

/** The first family of a CSS `font-family` list, unquoted; undefined when there is none (or only a generic family). */
export function fontFamilyOf(value: unknown): string | undefined {
  const first = trimmed(value).split(',')[0]?.trim().replace(/^["']|["']$/g, '').trim();
  if (!first || /^(serif|sans-serif|monospace|cursive|fantasy|system-ui|inherit|initial)$/i.test(first)) return undefined;
  return /^[\p{L}\p{N} _.-]{1,64}$/u.test(first) ? first : undefined;
}

/** The CSS `font-family` of a stored family: quoted, with the generic family of the toolbar's choice (else sans-serif). */
export function fontFamilyCss(family: string): string {
  const fallback = FONT_CHOICES.find((choice) => choice.family.toLowerCase() === family.toLowerCase())?.fallback ?? 'sans-serif';
  return `"${family.replace(/["\\]/g, '')}", ${fallback}`;
}

/**
 * A line spacing multiple as stored (`1.5`), from CSS `line-height` given as a number or a percentage, or a stored
 * number; within 0.5–5.
 */
export function lineHeightOf(value: unknown): string | undefined {
  const text = typeof value === 'number' ? String(value) : trimmed(value);
  const match = /^(\d+(?:\.\d+)?)(%?)$/.exec(text);
  if (!match) return undefined;
  const multiple = Number(match[1]) / (match[2] ? 100 : 1);
  if (!(multiple >= 0.5 && multiple <= 5)) return undefined;
  return String(Math.round(multiple * 100) / 100);
}

/** The indent level (1–8 steps of 36 pt) of a CSS `margin-left`/`padding-left`; undefined for none. */
export function indentOf(points: number | undefined): number | undefined {
  if (points === undefined) return undefined;
  const level = Math.min(MAX_INDENT, Math.round(points / INDENT_STEP_PT));
  return level >= 1 ? level : undefined;
}

/** A style property of an element, read from its `style` attribute (the server's DOM has no CSSOM). */
export function styleOf(element: Parameters<typeof getStyleProperty>[0], property: string): string | undefined {
  return getStyleProperty(element, property) ?? undefined;
}
