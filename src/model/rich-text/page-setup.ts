import type * as Y from 'yjs';

/**
 * documentPro's page setup (docs/CONTENT-MODEL.md "Page setup"): a root map beside the text, so every editor
 * and the exports see one setting, changed collaboratively. It holds the paper (`size`, `orientation`), the
 * `margins` (millimetres), the `header` and `footer` (three plain-text slots each, with fields) and `pageNumbers`,
 * the flag of the SDK's `addPageNum` / `removeAllPageNums`. Each key is one value (last writer wins). It is part
 * of each version, like the text: restoring a revision brings back the revision's setting (one of the roots
 * `rootsOf` in content.ts lists), and a copy of the file starts with the original's. Stored values that do not
 * pass the checks below (an older or a foreign writer) read as the default.
 */
export const PAGE_SETUP_ROOT = 'pageSetup';

/** Paper sizes in millimetres, portrait. */
export const PAPER_SIZES = { A4: { width: 210, height: 297 }, Letter: { width: 215.9, height: 279.4 } } as const;
export type PaperSize = keyof typeof PAPER_SIZES;
export type Orientation = 'portrait' | 'landscape';

export interface PageMargins {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

const inches = (value: number) => Math.round(value * 25.4 * 100) / 100;
/** Word's margin presets (Layout → Margins), in millimetres; "normal" is a new file's. */
export const MARGIN_PRESETS = {
  normal: { top: inches(1), bottom: inches(1), left: inches(1), right: inches(1) },
  narrow: { top: inches(0.5), bottom: inches(0.5), left: inches(0.5), right: inches(0.5) },
  wide: { top: inches(1), bottom: inches(1), left: inches(2), right: inches(2) },
} as const satisfies Record<string, PageMargins>;
export type MarginPreset = keyof typeof MARGIN_PRESETS;

/** A margin is 0 to 5 inches, as Word's dialog allows; the text area keeps at least an inch each way. */
export const MARGIN_LIMITS = { min: 0, max: 127, minTextArea: 25.4 } as const;
/** Longest text of one header or footer slot. */
export const MAX_SLOT_LENGTH = 200;

/**
 * A header or a footer: one line with text at the left, in the centre and at the right (as Word's Header style's
 * tab stops and Chromium's print headers lay it out). A slot's text may hold fields: `{page}`, `{pages}`, `{date}`.
 */
export interface HeaderFooter {
  left: string;
  center: string;
  right: string;
}
export const SLOTS = ['left', 'center', 'right'] as const satisfies ReadonlyArray<keyof HeaderFooter>;
export const EMPTY_LINE: HeaderFooter = { left: '', center: '', right: '' };
/** The footer of a file whose page numbers are on and that has no footer of its own: "n / total", centred. */
export const PAGE_NUMBER_FOOTER: HeaderFooter = { left: '', center: '{page} / {pages}', right: '' };

export interface PageSetup {
  size: PaperSize;
  orientation: Orientation;
  margins: PageMargins;
  header: HeaderFooter;
  footer: HeaderFooter;
}

export const DEFAULT_PAGE_SETUP: PageSetup = { size: 'A4', orientation: 'portrait', margins: MARGIN_PRESETS.normal, header: EMPTY_LINE, footer: PAGE_NUMBER_FOOTER };

export type Field = 'page' | 'pages' | 'date';
export type Segment = { text: string } | { field: Field };
const FIELD_PATTERN = /\{(page|pages|date)\}/g;

/** A slot's text as text and fields, in order (no empty text segments). */
export function segmentsOf(text: string): Segment[] {
  const segments: Segment[] = [];
  let last = 0;
  for (const match of text.matchAll(FIELD_PATTERN)) {
    if (match.index > last) segments.push({ text: text.slice(last, match.index) });
    segments.push({ field: match[1] as Field });
    last = match.index + match[0].length;
  }
  if (last < text.length) segments.push({ text: text.slice(last) });
  return segments;
}

/** Segments back to a slot's text (the inverse of segmentsOf). */
export function textOf(segments: readonly Segment[]): string {
  return segments.map((segment) => ('field' in segment ? `{${segment.field}}` : segment.text)).join('');
}

/** Paper width and height in millimetres, as oriented. */
export function pageDimensions(setup: Pick<PageSetup, 'size' | 'orientation'>): { width: number; height: number } {
  const { width, height } = PAPER_SIZES[setup.size];
  return setup.orientation === 'landscape' ? { width: height, height: width } : { width, height };
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Why `value` is no paper size, or undefined. */
function sizeProblem(value: unknown): string | undefined {
  return typeof value === 'string' && Object.hasOwn(PAPER_SIZES, value) ? undefined : `size must be one of ${Object.keys(PAPER_SIZES).join(', ')}`;
}

function orientationProblem(value: unknown): string | undefined {
  return value === 'portrait' || value === 'landscape' ? undefined : 'orientation must be portrait or landscape';
}

/** Why `value` is no margins for paper of `size` and `orientation`, or undefined. */
function marginsProblem(value: unknown, paper: Pick<PageSetup, 'size' | 'orientation'>): string | undefined {
  if (!isRecord(value)) return 'margins must be an object with top, bottom, left and right in millimetres';
  for (const side of ['top', 'bottom', 'left', 'right'] as const) {
    const margin = value[side];
    if (typeof margin !== 'number' || !Number.isFinite(margin) || margin < MARGIN_LIMITS.min || margin > MARGIN_LIMITS.max) return `margins.${side} must be a number of millimetres between ${MARGIN_LIMITS.min} and ${MARGIN_LIMITS.max}`;
  }
  const margins = value as unknown as PageMargins;
  const { width, height } = pageDimensions(paper);
  if (width - margins.left - margins.right < MARGIN_LIMITS.minTextArea) return `margins.left and margins.right leave less than ${MARGIN_LIMITS.minTextArea} mm of text width`;
  if (height - margins.top - margins.bottom < MARGIN_LIMITS.minTextArea) return `margins.top and margins.bottom leave less than ${MARGIN_LIMITS.minTextArea} mm of text height`;
  return undefined;
}

function lineProblem(value: unknown, name: 'header' | 'footer'): string | undefined {
  if (!isRecord(value)) return `${name} must be an object with left, center and right text`;
  for (const slot of SLOTS) {
    const text = value[slot];
    if (typeof text !== 'string' || text.length > MAX_SLOT_LENGTH || /[\n\r]/.test(text)) return `${name}.${slot} must be one line of at most ${MAX_SLOT_LENGTH} characters`;
  }
  return undefined;
}

/** A stored or given line as exactly the three slots (unknown keys left out). */
function lineOf(value: Record<string, unknown>): HeaderFooter {
  return { left: String(value.left), center: String(value.center), right: String(value.right) };
}

export function pageSetupOf(doc: Y.Doc): Y.Map<unknown> {
  return doc.getMap(PAGE_SETUP_ROOT);
}

/**
 * The file's page setup as every reader shows it: each stored value that passes its check, the default for the
 * rest. The footer's default follows `pageNumbers` (docs/CONTENT-MODEL.md "Page setup"): "n / total" unless the
 * page numbers were removed.
 */
export function readPageSetup(doc: Y.Doc): PageSetup {
  const map = pageSetupOf(doc);
  const size = sizeProblem(map.get('size')) ? DEFAULT_PAGE_SETUP.size : (map.get('size') as PaperSize);
  const orientation = orientationProblem(map.get('orientation')) ? DEFAULT_PAGE_SETUP.orientation : (map.get('orientation') as Orientation);
  const margins = map.get('margins');
  const header = map.get('header');
  const footer = map.get('footer');
  return {
    size,
    orientation,
    margins: marginsProblem(margins, { size, orientation }) ? DEFAULT_PAGE_SETUP.margins : { ...(margins as PageMargins) },
    header: lineProblem(header, 'header') ? EMPTY_LINE : lineOf(header as Record<string, unknown>),
    footer: lineProblem(footer, 'footer') ? (map.get('pageNumbers') === false ? EMPTY_LINE : PAGE_NUMBER_FOOTER) : lineOf(footer as Record<string, unknown>),
  };
}

/** A refused page setup change: the message names the setting and its rule. */
export class PageSetupError extends Error {}

/**
 * Checks `changes` (any subset of the settings, as an SDK caller or the dialog gives them) against the file's
 * current setup and returns the complete setup they make; throws PageSetupError naming the first bad setting.
 */
export function checkedPageSetup(current: PageSetup, changes: unknown): PageSetup {
  if (!isRecord(changes)) throw new PageSetupError('the page setup must be an object');
  const unknown = Object.keys(changes).find((key) => !Object.hasOwn(DEFAULT_PAGE_SETUP, key));
  if (unknown !== undefined) throw new PageSetupError(`${unknown} is not a page setting (size, orientation, margins, header, footer)`);
  const next: PageSetup = { ...current };
  if (changes.size !== undefined) {
    const problem = sizeProblem(changes.size);
    if (problem) throw new PageSetupError(problem);
    next.size = changes.size as PaperSize;
  }
  if (changes.orientation !== undefined) {
    const problem = orientationProblem(changes.orientation);
    if (problem) throw new PageSetupError(problem);
    next.orientation = changes.orientation as Orientation;
  }
  if (changes.margins !== undefined || changes.size !== undefined || changes.orientation !== undefined) {
    const margins = changes.margins ?? current.margins;
    const problem = marginsProblem(margins, next);
    if (problem) throw new PageSetupError(problem);
    next.margins = { ...(margins as PageMargins) };
  }
  for (const name of ['header', 'footer'] as const) {
    if (changes[name] === undefined) continue;
    const problem = lineProblem(changes[name], name);
    if (problem) throw new PageSetupError(problem);
    next[name] = lineOf(changes[name] as Record<string, unknown>);
  }
  return next;
}

/** Stores `setup` (checked already) in one transaction, writing only the keys whose value differs from what reads now. */
export function writePageSetup(doc: Y.Doc, setup: PageSetup): void {
  const map = pageSetupOf(doc);
  const current = readPageSetup(doc);
  doc.transact(() => {
    if (current.size !== setup.size) map.set('size', setup.size);
    if (current.orientation !== setup.orientation) map.set('orientation', setup.orientation);
    if (JSON.stringify(current.margins) !== JSON.stringify(setup.margins)) map.set('margins', { ...setup.margins });
    if (JSON.stringify(current.header) !== JSON.stringify(setup.header)) map.set('header', { ...setup.header });
    if (JSON.stringify(current.footer) !== JSON.stringify(setup.footer)) map.set('footer', { ...setup.footer });
  });
}

const hasPageField = (line: HeaderFooter) => SLOTS.some((slot) => segmentsOf(line[slot]).some((segment) => 'field' in segment && segment.field === 'page'));

/** Whether pages carry their numbers: a `{page}` field in the header or the footer. */
export function pageNumbersShown(doc: Y.Doc): boolean {
  const setup = readPageSetup(doc);
  return hasPageField(setup.header) || hasPageField(setup.footer);
}

/** A slot without its page fields; what is left of "{page} / {pages}" (spaces and a slash) goes too. */
function withoutPageFields(text: string): string {
  const left = textOf(segmentsOf(text).filter((segment) => !('field' in segment && segment.field !== 'date')));
  return /^[\s/|·\-–—]*$/.test(left) ? '' : left;
}

/**
 * The SDK's addPageNum / removeAllPageNums (docs/CONTENT-MODEL.md "Page setup"). Removing takes the `{page}` and
 * `{pages}` fields out of the header and the footer and keeps them out of the default footer; adding, when no
 * page number shows, puts "{page} / {pages}" in the footer's centre (after its text, if it has some).
 */
export function setPageNumbersShown(doc: Y.Doc, shown: boolean): void {
  if (shown && pageNumbersShown(doc)) return;
  const setup = readPageSetup(doc);
  doc.transact(() => {
    pageSetupOf(doc).set('pageNumbers', shown);
    if (shown) {
      const center = setup.footer.center === '' ? PAGE_NUMBER_FOOTER.center : `${setup.footer.center} ${PAGE_NUMBER_FOOTER.center}`;
      writePageSetup(doc, { ...setup, footer: { ...setup.footer, center } });
    } else {
      const strip = (line: HeaderFooter): HeaderFooter => ({ left: withoutPageFields(line.left), center: withoutPageFields(line.center), right: withoutPageFields(line.right) });
      writePageSetup(doc, { ...setup, header: strip(setup.header), footer: strip(setup.footer) });
    }
  });
}
