import { fontFamilyCss, fontFamilyOf, fontSizeOf, INDENT_STEP_PT, indentOf, WORD_HIGHLIGHTS } from '../../../model/rich-text/formatting.js';
import { type MammothNode, RUN_LOOK_MARKER, WordRunLooks } from './word-run-looks.js';

/**
 * The formatting of a Word document that mammoth reads but does not write as HTML (docx.ts): a run's font and
 * size, a paragraph's alignment and left indent, and Word highlight colours, with a run's colour and the fonts
 * mammoth does not read (word-run-looks.ts), carried into the HTML the model's
 * parse rules read (src/model/rich-text/marks/text-style.ts, marks/highlight.ts, paragraph-format.ts).
 *
 * Mammoth writes HTML only through its style map, which names elements and classes, not values, and whose
 * entries it parses on every conversion (a pool of numbered styles cost 300 ms per file). So the transform
 * given to mammoth's transformDocument puts markers of private-use characters around a formatted run's
 * content and at the start of a formatted paragraph (`\uE000n\uE001` … `\uE002`, `\uE003n\uE004`), mammoth
 * writes them as text where they stand, and `styled` turns them into a `<span style>` and the paragraph's
 * `style`. Highlight colours are a fixed list, so they go through the style map (HIGHLIGHT_STYLE_MAP, part of
 * docx.ts's). Line spacing is not read by mammoth and is lost on import.
 */

const RUN_OPEN = '\uE000';
const RUN_NUMBER_END = '\uE001';
const RUN_CLOSE = '\uE002';
const PARAGRAPH_OPEN = '\uE003';
const PARAGRAPH_NUMBER_END = '\uE004';
const MARKERS = /[\uE000-\uE004]/g;

/** Character styles mammoth's default map gives a meaning (bold, notes): such runs keep their own output. */
const MAPPED_RUN_STYLES = new Set(['Strong', 'footnote reference', 'endnote reference', 'annotation reference', 'Footnote anchor', 'Endnote anchor']);

const ALIGNMENTS: Readonly<Record<string, string>> = { center: 'center', right: 'right', end: 'right', both: 'justify', distribute: 'justify' };

/** The style map entries for Word's highlight colours. */
export const HIGHLIGHT_STYLE_MAP: readonly string[] = Object.values(WORD_HIGHLIGHTS).map((name) => `highlight[color='${name}'] => mark.svc-highlight-${name}`);

/** The part of mammoth's document model read here (mammoth ships no types for it). */
interface MammothElement extends MammothNode {
  children?: MammothElement[];
  styleName?: string | null;
  // runs
  font?: string | null;
  fontSize?: number | null;
  // paragraphs
  alignment?: string | null;
  numbering?: unknown;
  indent?: { start?: string | null } | null;
}

const text = (value: string): MammothElement => ({ type: 'text', value });

function hasText(element: MammothElement): boolean {
  return element.type === 'text' ? (element.value ?? '').length > 0 : (element.children ?? []).some(hasText);
}

/** One import's formattings, numbered (a fresh one per document). */
export class WordFormatting {
  private readonly styles: string[] = [];
  private readonly numbers = new Map<string, number>();
  private readonly looks = new WordRunLooks();

  /** document.xml with the runs marked whose colour or font mammoth would not read (word-run-looks.ts). */
  marked(document: string, styles: string, theme: string): string {
    return this.looks.marked(document, styles, theme);
  }

  /** mammoth's transformDocument: marks the runs and paragraphs that carry formatting mammoth would drop. */
  readonly transform = (document: MammothElement): MammothElement => {
    this.walk(document);
    return document;
  };

  private numberOf(css: string): number {
    let number = this.numbers.get(css);
    if (number === undefined) {
      number = this.styles.push(css) - 1;
      this.numbers.set(css, number);
    }
    return number;
  }

  private walk(element: MammothElement): void {
    // the document's own text never holds a marker
    if (element.type === 'text' && element.value) element.value = element.value.replace(MARKERS, '');
    for (const child of element.children ?? []) this.walk(child);
    if (element.type === 'run') this.markRun(element);
    else if (element.type === 'paragraph') this.markParagraph(element);
  }

  private markRun(run: MammothElement): void {
    const look = this.looks.take(run);
    if ((run.styleName && MAPPED_RUN_STYLES.has(run.styleName)) || !run.children || !hasText(run)) return;
    const styles: string[] = [];
    const family = look?.fontFamily ?? fontFamilyOf(run.font);
    if (family) styles.push(`font-family: ${fontFamilyCss(family)}`);
    const size = typeof run.fontSize === 'number' ? fontSizeOf(`${run.fontSize}pt`) : undefined;
    if (size) styles.push(`font-size: ${size}`);
    if (look?.color) styles.push(`color: ${look.color}`);
    if (styles.length === 0) return;
    run.children = [text(`${RUN_OPEN}${this.numberOf(styles.join('; '))}${RUN_NUMBER_END}`), ...run.children, text(RUN_CLOSE)];
  }

  private markParagraph(paragraph: MammothElement): void {
    // a list item's indent is its level's
    if (paragraph.numbering || !paragraph.children || !hasText(paragraph)) return;
    const styles: string[] = [];
    const align = ALIGNMENTS[paragraph.alignment ?? ''];
    if (align) styles.push(`text-align: ${align}`);
    const twips = Number(paragraph.indent?.start);
    const indent = Number.isFinite(twips) ? indentOf(twips / 20) : undefined;
    if (indent) styles.push(`margin-left: ${indent * INDENT_STEP_PT}pt`);
    if (styles.length === 0) return;
    paragraph.children = [text(`${PARAGRAPH_OPEN}${this.numberOf(styles.join('; '))}${PARAGRAPH_NUMBER_END}`), ...paragraph.children];
  }

  /** mammoth's HTML with the markers turned into styles and highlight classes into colours. */
  styled(html: string): string {
    const css = (number: string) => (this.styles[Number(number)] ?? '').replace(/"/g, '&quot;');
    return html
      .replace(new RegExp(`<(p|h[1-6]|li)((?: [^>]*)?)>${PARAGRAPH_OPEN}(\\d+)${PARAGRAPH_NUMBER_END}`, 'g'), (_whole, tag: string, attributes: string, number: string) => `<${tag}${attributes} style="${css(number)}">`)
      .replace(new RegExp(`${RUN_OPEN}(\\d+)${RUN_NUMBER_END}`, 'g'), (_whole, number: string) => `<span style="${css(number)}">`)
      .replaceAll(RUN_CLOSE, '</span>')
      .replace(MARKERS, '')
      .replace(RUN_LOOK_MARKER, '')
      .replace(/ class="svc-highlight-(\w+)"/g, (whole, name: string) => {
        const color = Object.entries(WORD_HIGHLIGHTS).find(([, word]) => word === name)?.[0];
        return color ? ` data-color="${color}"` : whole;
      });
  }
}
