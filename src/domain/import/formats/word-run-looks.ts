import { fontFamilyOf, hexColor } from '../../../model/rich-text/formatting.js';

/**
 * The run formatting of a Word document that mammoth does not read at all, read here from the XML: a run's text
 * colour (`w:color`), and its font where mammoth would miss it (mammoth reads only `w:rFonts w:ascii` set on the
 * run itself). Both are taken from the run's own properties first, then from its character style (`w:rStyle`) and
 * the styles that one is based on, as Word applies them. Paragraph styles and the document defaults are not
 * followed: they give every run of a document the same font and colour, which is the document's look rather than a
 * run's formatting, and the editor has its own (docs/IMPORT-EXPORT.md "Fidelity over real files").
 *
 * A font comes from `w:ascii`, `w:hAnsi` or the theme font `w:asciiTheme` / `w:hAnsiTheme` names (the theme's major or
 * minor Latin typeface); `w:eastAsia` and `w:cs` (and their theme fonts) only when the run's text holds characters
 * of those scripts, since Word shows Latin text in the Latin font whatever the others say.
 *
 * mammoth's document model has no place for a colour, so `marked` puts a marker text (`\uE008n\uE009`, n the look's
 * number here) at the start of each such run in document.xml before mammoth reads it; word-formatting.ts takes it
 * off the run mammoth made (`take`) and writes the look as the textStyle mark's inline style.
 */

export interface RunLook {
  /** `#rrggbb` */
  color?: string;
  fontFamily?: string;
}

const OPEN = '\uE008';
const CLOSE = '\uE009';
/** A marker, or a stray marker character of the document's own text. */
export const RUN_LOOK_MARKER = new RegExp(`${OPEN}\\d*${CLOSE}?|${CLOSE}`, 'g');

const EAST_ASIAN = /[\u1100-\u11ff\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/u;
const COMPLEX_SCRIPT = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]/u;

/** An attribute's value in one tag. */
function attribute(tag: string, name: string): string | undefined {
  return new RegExp(`\\b${name}="([^"]*)"`).exec(tag)?.[1];
}

/** The first `<w:name …>` tag of some XML. */
function tagOf(xml: string, name: string): string {
  return new RegExp(`<${name}\\b[^>]*>`).exec(xml)?.[0] ?? '';
}

/** The theme's typefaces: `major` / `minor` with `latin`, `ea` or `cs`. */
function themeFonts(theme: string): Map<string, string> {
  const fonts = new Map<string, string>();
  for (const [, kind, body] of theme.matchAll(/<a:(major|minor)Font>([\s\S]*?)<\/a:\1Font>/g)) {
    for (const script of ['latin', 'ea', 'cs']) {
      const typeface = attribute(tagOf(body!, `a:${script}`), 'typeface');
      if (typeface) fonts.set(`${kind}-${script}`, typeface);
    }
  }
  return fonts;
}

/** The style a `w:*Theme` value names (`minorHAnsi`, `majorEastAsia`, `minorBidi` …). */
function themeFontKey(value: string): string | undefined {
  const kind = /^(major|minor)/.exec(value)?.[1];
  if (!kind) return undefined;
  return `${kind}-${value.endsWith('EastAsia') ? 'ea' : value.endsWith('Bidi') ? 'cs' : 'latin'}`;
}

/** Which fonts beyond the Latin one a run's text is shown in. */
interface Scripts {
  eastAsian: boolean;
  complex: boolean;
}

function scriptsOf(text: string): Scripts {
  return { eastAsian: EAST_ASIAN.test(text), complex: COMPLEX_SCRIPT.test(text) };
}

/** The look one `w:rPr` (a run's or a style's) sets itself, for a run whose text holds `scripts`. */
function lookOf(properties: string, scripts: Scripts, theme: Map<string, string>): RunLook {
  const look: RunLook = {};
  const colour = attribute(tagOf(properties, 'w:color'), 'w:val');
  const color = colour && colour !== 'auto' ? hexColor(`#${colour}`) : undefined;
  if (color) look.color = color;
  const fonts = tagOf(properties, 'w:rFonts');
  const named = (slot: string) => {
    const direct = attribute(fonts, `w:${slot}`);
    const themed = attribute(fonts, `w:${slot === 'cs' ? 'cstheme' : `${slot}Theme`}`);
    const key = themed ? themeFontKey(themed) : undefined;
    return fontFamilyOf(direct) ?? fontFamilyOf(key ? theme.get(key) : undefined);
  };
  const fontFamily = named('ascii') ?? named('hAnsi') ?? (scripts.eastAsian ? named('eastAsia') : undefined) ?? (scripts.complex ? named('cs') : undefined);
  if (fontFamily) look.fontFamily = fontFamily;
  return look;
}

interface CharacterStyle {
  properties: string;
  basedOn?: string;
}

function characterStyles(styles: string): Map<string, CharacterStyle> {
  const found = new Map<string, CharacterStyle>();
  for (const [style] of styles.matchAll(/<w:style\b[^>]*w:type="character"[\s\S]*?<\/w:style>/g)) {
    const id = attribute(tagOf(style, 'w:style'), 'w:styleId');
    if (!id) continue;
    const basedOn = attribute(tagOf(style, 'w:basedOn'), 'w:val');
    found.set(id, { properties: /<w:rPr>[\s\S]*?<\/w:rPr>/.exec(style)?.[0] ?? '', ...(basedOn ? { basedOn } : {}) });
  }
  return found;
}

/** Style chains are followed this far (a loop of basedOn in a broken file ends here). */
const MAX_STYLE_DEPTH = 10;

/** The part of mammoth's document model read here (mammoth ships no types for it). */
export interface MammothNode {
  type?: string;
  value?: string;
  children?: MammothNode[];
}

function firstText(node: MammothNode): MammothNode | undefined {
  if (node.type === 'text') return node;
  for (const child of node.children ?? []) {
    const text = firstText(child);
    if (text) return text;
  }
  return undefined;
}

/** One import's run looks, numbered (a fresh one per document). */
export class WordRunLooks {
  private readonly looks: RunLook[] = [];

  /** document.xml with each run that has a colour or a font mammoth misses marked; the same text when none has. */
  marked(document: string, styles: string, theme: string): string {
    const fonts = themeFonts(theme);
    const characters = characterStyles(styles);
    const styleLooks = new Map<string, RunLook>();
    /** A character style's look through the styles it is based on, the nearest first. */
    const styleLook = (id: string, scripts: Scripts): RunLook => {
      const key = `${id} ${scripts.eastAsian} ${scripts.complex}`;
      let look = styleLooks.get(key);
      if (look) return look;
      look = {};
      for (let step = 0, at: string | undefined = id; at && step < MAX_STYLE_DEPTH; step++, at = characters.get(at)?.basedOn) {
        const own = lookOf(characters.get(at)?.properties ?? '', scripts, fonts);
        look.color ??= own.color;
        look.fontFamily ??= own.fontFamily;
      }
      styleLooks.set(key, look);
      return look;
    };
    let any = false;
    // a run's properties come first in it; runs of text boxes sit inside a run's drawing, after its properties
    const rewritten = document.replace(RUN_LOOK_MARKER, '').replace(/(<w:r(?:\s[^>]*[^/>])?>)(\s*(?:<w:rPr>[\s\S]*?<\/w:rPr>|<w:rPr\/>))?([\s\S]*?)(?=<\/w:r>|<w:r[\s>])/g, (whole, open: string, properties: string | undefined, rest: string) => {
      const text = [...rest.matchAll(/<w:t\b[^>]*>([^<]*)<\/w:t>/g)].map((match) => match[1]).join('');
      if (!text) return whole;
      const scripts = scriptsOf(text);
      const own = lookOf(properties ?? '', scripts, fonts);
      const styleId = attribute(tagOf(properties ?? '', 'w:rStyle'), 'w:val');
      const inherited = styleId ? styleLook(styleId, scripts) : {};
      const look: RunLook = {};
      const color = own.color ?? inherited.color;
      const fontFamily = own.fontFamily ?? inherited.fontFamily;
      if (color) look.color = color;
      if (fontFamily) look.fontFamily = fontFamily;
      if (!color && !fontFamily) return whole;
      any = true;
      const number = this.looks.push(look) - 1;
      return `${open}${properties ?? ''}<w:t>${OPEN}${number}${CLOSE}</w:t>${rest}`;
    });
    return any ? rewritten : document;
  }

  /** The look of a run mammoth read, its marker taken off; undefined for a run without one. */
  take(run: MammothNode): RunLook | undefined {
    const text = firstText(run);
    const match = text?.value ? new RegExp(`^${OPEN}(\\d+)${CLOSE}`).exec(text.value) : null;
    if (!text || !match) return undefined;
    text.value = text.value!.slice(match[0].length);
    return this.looks[Number(match[1])];
  }
}
