/**
 * The colours of an xlsx workbook as the model keeps them (`#rrggbb`): a colour of the file is an ARGB value, a
 * colour of the workbook's theme (`theme="4" tint="0.6"`: xl/theme/theme1.xml's colour scheme, lightened or
 * darkened as Excel does), or one of the legacy indexed palette (`indexed="22"`: Excel's default palette, or the
 * workbook's own `<indexedColors>` in styles.xml).
 */

/** A colour as exceljs reads it from a `<color>`, `<fgColor>` or `<bgColor>` element. */
export interface XlsxColour {
  argb?: string;
  theme?: number;
  tint?: number;
  indexed?: number;
}

/**
 * The scheme's colours in the order of a colour's `theme` index. The scheme lists dark 1, light 1, dark 2, light 2,
 * but Excel's index 0 is light 1 and 1 is dark 1 (and 2, 3 likewise swapped).
 */
const THEME_SLOTS = ['lt1', 'dk1', 'lt2', 'dk2', 'accent1', 'accent2', 'accent3', 'accent4', 'accent5', 'accent6', 'hlink', 'folHlink'] as const;

/**
 * Excel's default indexed palette (indexes 0-63; 64 and 65 are the system's foreground and background, the
 * default look, so not kept). Indexes 0-7 repeat the first eight of 8-15, as Excel has them.
 */
const DEFAULT_INDEXED = [
  '000000', 'FFFFFF', 'FF0000', '00FF00', '0000FF', 'FFFF00', 'FF00FF', '00FFFF',
  '000000', 'FFFFFF', 'FF0000', '00FF00', '0000FF', 'FFFF00', 'FF00FF', '00FFFF',
  '800000', '008000', '000080', '808000', '800080', '008080', 'C0C0C0', '808080',
  '9999FF', '993366', 'FFFFCC', 'CCFFFF', '660066', 'FF8080', '0066CC', 'CCCCFF',
  '000080', 'FF00FF', 'FFFF00', '00FFFF', '800080', '800000', '008080', '0000FF',
  '00CCFF', 'CCFFFF', 'CCFFCC', 'FFFF99', '99CCFF', 'FF99CC', 'CC99FF', 'FFCC99',
  '3366FF', '33CCCC', '99CC00', 'FFCC00', 'FF9900', 'FF6600', '666699', '969696',
  '003366', '339966', '003300', '333300', '993300', '993366', '333399', '333333',
];

/** Scale of Windows' integer HLS, which Excel tints in: hue, luminance and saturation run 0-240. */
const HLS_MAX = 240;
const RGB_MAX = 255;
/** Excel stores a tint as a signed 16-bit fraction: 80 % is written 0.7999816888943144, one step off. */
const TINT_STEP = 1 / 32_767;

const quotient = (dividend: number, divisor: number) => Math.trunc(dividend / divisor);

/** Windows' ColorRGBToHLS (integer arithmetic, as Excel computes a tint from it). */
function hlsOf(red: number, green: number, blue: number): { hue: number; luminance: number; saturation: number } {
  const brightest = Math.max(red, green, blue);
  const darkest = Math.min(red, green, blue);
  const sum = brightest + darkest;
  const span = brightest - darkest;
  const luminance = quotient(sum * HLS_MAX + RGB_MAX, 2 * RGB_MAX);
  if (span === 0) return { hue: 0, luminance, saturation: 0 };
  const saturation = luminance <= HLS_MAX / 2 ? quotient(span * HLS_MAX + quotient(sum, 2), sum) : quotient(span * HLS_MAX + quotient(2 * RGB_MAX - sum, 2), 2 * RGB_MAX - sum);
  const distance = (channel: number) => quotient((brightest - channel) * (HLS_MAX / 6) + quotient(span, 2), span);
  const hue =
    red === brightest ? distance(blue) - distance(green) : green === brightest ? HLS_MAX / 3 + distance(red) - distance(blue) : (2 * HLS_MAX) / 3 + distance(green) - distance(red);
  return { hue: ((hue % HLS_MAX) + HLS_MAX) % HLS_MAX, luminance, saturation };
}

/** One channel's level around the integer hue circle, between the low and high levels of the colour. */
function channelLevel(low: number, high: number, hue: number): number {
  const at = ((hue % HLS_MAX) + HLS_MAX) % HLS_MAX;
  const sixth = HLS_MAX / 6;
  if (at < sixth) return low + quotient((high - low) * at + HLS_MAX / 12, sixth);
  if (at < HLS_MAX / 2) return high;
  if (at < (2 * HLS_MAX) / 3) return low + quotient((high - low) * ((2 * HLS_MAX) / 3 - at) + HLS_MAX / 12, sixth);
  return low;
}

/** Windows' ColorHLSToRGB, as `rrggbb`. */
function rgbOfHls(hue: number, luminance: number, saturation: number): string {
  const high = luminance <= HLS_MAX / 2 ? quotient(luminance * (HLS_MAX + saturation) + HLS_MAX / 2, HLS_MAX) : luminance + saturation - quotient(luminance * saturation + HLS_MAX / 2, HLS_MAX);
  const low = 2 * luminance - high;
  return [HLS_MAX / 3, 0, -HLS_MAX / 3]
    .map((offset) => Math.min(RGB_MAX, Math.max(0, quotient(channelLevel(low, high, hue + offset) * RGB_MAX + HLS_MAX / 2, HLS_MAX))).toString(16).padStart(2, '0'))
    .join('');
}

/**
 * `rrggbb` with a tint applied as Excel applies it (ECMA-376 §18.8.19 `tint`): the luminance in Windows' integer
 * HLS is darkened (tint < 0: L × (1 + tint)) or lightened (tint > 0: L × (1 − tint) + 240 × tint), truncated, and
 * converted back. A tint one storage step off a whole percent is that percent, as Excel shows the swatch.
 */
export function tinted(rgb: string, tint: number): string {
  if (tint === 0 || !Number.isFinite(tint)) return rgb.toLowerCase();
  const percent = Math.round(tint * 100) / 100;
  const amount = Math.max(-1, Math.min(1, Math.abs(tint - percent) <= TINT_STEP ? percent : tint));
  const { hue, luminance, saturation } = hlsOf(parseInt(rgb.slice(0, 2), 16), parseInt(rgb.slice(2, 4), 16), parseInt(rgb.slice(4, 6), 16));
  const moved = amount < 0 ? luminance * (1 + amount) : luminance * (1 - amount) + HLS_MAX * amount;
  return rgbOfHls(hue, Math.min(HLS_MAX, Math.max(0, Math.trunc(moved))), saturation);
}

const HEX6 = /^[0-9a-f]{6}$/i;

/** The theme's colour scheme, in `theme` index order (THEME_SLOTS); a slot the theme does not give is undefined. */
function themeColoursOf(theme: string): Array<string | undefined> {
  const scheme = /<(?:\w+:)?clrScheme\b[^>]*>([\s\S]*?)<\/(?:\w+:)?clrScheme>/.exec(theme)?.[1] ?? '';
  return THEME_SLOTS.map((slot) => {
    const body = new RegExp(`<(?:\\w+:)?${slot}>([\\s\\S]*?)</(?:\\w+:)?${slot}>`).exec(scheme)?.[1] ?? '';
    // a system colour (window text, window) is written with the value it had when saved
    const value = /<(?:\w+:)?srgbClr\b[^>]*?\bval="([^"]*)"/.exec(body)?.[1] ?? /<(?:\w+:)?sysClr\b[^>]*?\blastClr="([^"]*)"/.exec(body)?.[1];
    return value !== undefined && HEX6.test(value) ? value.toLowerCase() : undefined;
  });
}

/** The workbook's own indexed palette (`<colors><indexedColors>` of styles.xml), or Excel's default one. */
function indexedColoursOf(styles: string): string[] {
  const own = /<indexedColors\b[^>]*>([\s\S]*?)<\/indexedColors>/.exec(styles)?.[1];
  if (own === undefined) return DEFAULT_INDEXED.map((rgb) => rgb.toLowerCase());
  return [...own.matchAll(/<rgbColor\b[^>]*?\brgb="([0-9A-Fa-f]{8})"/g)].map((match) => match[1]!.slice(2).toLowerCase());
}

/** A workbook's palettes: resolves any colour of the file to `#rrggbb`. */
export class WorkbookColours {
  private readonly resolved = new Map<string, string | undefined>();

  private constructor(
    private readonly theme: ReadonlyArray<string | undefined>,
    private readonly indexed: readonly string[],
  ) {}

  /** From the workbook's theme part (xl/theme/theme1.xml) and styles.xml, either possibly absent. */
  static of(theme: string | undefined, styles: string | undefined): WorkbookColours {
    return new WorkbookColours(theme === undefined ? [] : themeColoursOf(theme), indexedColoursOf(styles ?? ''));
  }

  /**
   * `#rrggbb` for a colour of the file, its tint applied; undefined for none, an automatic colour (the default
   * look), a theme colour of a workbook without a theme, or an index outside the palette. Cached by colour and tint.
   */
  rgb(colour: XlsxColour | undefined): string | undefined {
    if (colour === undefined) return undefined;
    const { argb, theme, tint, indexed } = colour;
    const key = typeof argb === 'string' ? `rgb${argb}` : typeof theme === 'number' ? `theme${theme}` : typeof indexed === 'number' ? `indexed${indexed}` : undefined;
    if (key === undefined) return undefined;
    const tintKey = `${key}:${tint ?? 0}`;
    if (!this.resolved.has(tintKey)) {
      const base = typeof argb === 'string' ? (/^[0-9a-f]{8}$/i.test(argb) ? argb.slice(2).toLowerCase() : undefined) : typeof theme === 'number' ? this.theme[theme] : this.indexed[indexed!];
      this.resolved.set(tintKey, base === undefined ? undefined : `#${tinted(base, tint ?? 0)}`);
    }
    return this.resolved.get(tintKey);
  }

  /** The colour of a `<color>`-like tag's attributes (`rgb`, `theme`, `tint`, `indexed`), for parts exceljs does not read. */
  rgbOfAttributes(attributes: ReadonlyMap<string, string>): string | undefined {
    const integer = (name: string) => {
      const value = Number(attributes.get(name));
      return attributes.has(name) && Number.isInteger(value) ? value : undefined;
    };
    const tint = Number(attributes.get('tint'));
    return this.rgb({ argb: attributes.get('rgb'), theme: integer('theme'), indexed: integer('indexed'), tint: Number.isFinite(tint) ? tint : undefined });
  }
}
