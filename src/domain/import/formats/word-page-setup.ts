import type JSZip from 'jszip';
import {
  checkedPageSetup,
  DEFAULT_PAGE_SETUP,
  EMPTY_LINE,
  MAX_SLOT_LENGTH,
  PAPER_SIZES,
  SLOTS,
  textOf,
  type Field,
  type HeaderFooter,
  type PageSetup,
  type PaperSize,
  type Segment,
} from '../../../model/rich-text/page-setup.js';

/**
 * A Word file's page setup (docs/CONTENT-MODEL.md "Page setup"), which mammoth does not read: the paper, its
 * orientation and the margins of the body's last section (`w:sectPr`, the one Word applies to the end of the
 * document, and the only one when the file has a single section), and the text of that section's default header and
 * footer (the first page's or even pages' when it has no default) with their PAGE, NUMPAGES and DATE fields.
 * Undefined when the body has no section properties (the file then takes the default page setup).
 */
export async function wordPageSetup(zip: JSZip, documentXml: string): Promise<PageSetup | undefined> {
  const section = [...documentXml.matchAll(/<w:sectPr\b[\s\S]*?<\/w:sectPr>/g)].at(-1)?.[0];
  if (!section) return undefined;
  const paper = paperOf(section);
  const relationships = await relationshipTargets(zip);
  const line = async (kind: 'header' | 'footer'): Promise<HeaderFooter> => {
    const references = [...section.matchAll(new RegExp(`<w:${kind}Reference\\b[^>]*>`, 'g'))].map((match) => match[0]);
    const chosen = references.find((reference) => attribute(reference, 'w:type') === 'default') ?? references[0];
    const target = chosen && relationships.get(attribute(chosen, 'r:id'));
    const xml = target ? await zip.file(`word/${target.replace(/^\/?word\//, '')}`)?.async('string') : undefined;
    return xml ? lineOf(xml) : EMPTY_LINE;
  };
  const wanted = { ...paper, header: await line('header'), footer: await line('footer') };
  try {
    return checkedPageSetup(DEFAULT_PAGE_SETUP, wanted);
  } catch {
    // margins the model does not allow (wider than 5 inches, or leaving less than an inch of text): Word's normal ones
    return checkedPageSetup(DEFAULT_PAGE_SETUP, { ...wanted, margins: DEFAULT_PAGE_SETUP.margins });
  }
}

function attribute(tag: string, name: string): string {
  return new RegExp(`\\b${name}="([^"]*)"`).exec(tag)?.[1] ?? '';
}

const TWIPS_PER_MM = 1440 / 25.4;

/** Paper size (the nearer of A4 and Letter: the model has those two), orientation and margins of a `w:sectPr`. */
function paperOf(section: string): Pick<PageSetup, 'size' | 'orientation' | 'margins'> {
  const size = /<w:pgSz\b[^>]*>/.exec(section)?.[0] ?? '';
  const width = Number(attribute(size, 'w:w')) / TWIPS_PER_MM;
  const height = Number(attribute(size, 'w:h')) / TWIPS_PER_MM;
  const landscape = attribute(size, 'w:orient') === 'landscape' || (width > 0 && width > height);
  const [short, long] = width > 0 && height > 0 ? [Math.min(width, height), Math.max(width, height)] : [PAPER_SIZES.A4.width, PAPER_SIZES.A4.height];
  const distance = (name: PaperSize) => Math.abs(PAPER_SIZES[name].width - short) + Math.abs(PAPER_SIZES[name].height - long);
  const paper: PaperSize = distance('Letter') < distance('A4') ? 'Letter' : 'A4';
  const marginTag = /<w:pgMar\b[^>]*>/.exec(section)?.[0] ?? '';
  // a negative top or bottom margin is Word's "text may not push the margin": its size is what counts
  const margin = (name: string, fallback: number) => {
    const twips = attribute(marginTag, `w:${name}`);
    return twips === '' || !Number.isFinite(Number(twips)) ? fallback : Math.round((Math.abs(Number(twips)) / TWIPS_PER_MM) * 10) / 10;
  };
  const normal = DEFAULT_PAGE_SETUP.margins;
  return {
    size: paper,
    orientation: landscape ? 'landscape' : 'portrait',
    margins: { top: margin('top', normal.top), bottom: margin('bottom', normal.bottom), left: margin('left', normal.left), right: margin('right', normal.right) },
  };
}

/** Part targets by relationship id, from word/_rels/document.xml.rels. */
async function relationshipTargets(zip: JSZip): Promise<Map<string, string>> {
  const xml = (await zip.file('word/_rels/document.xml.rels')?.async('string')) ?? '';
  return new Map([...xml.matchAll(/<Relationship\b[^>]*>/g)].map((match) => [attribute(match[0], 'Id'), attribute(match[0], 'Target')] as const));
}

const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const unescapeXml = (text: string) => text.replace(/&(amp|lt|gt|quot|apos|#\d+|#x[0-9a-f]+);/gi, (whole, name: string) => (name.startsWith('#') ? String.fromCodePoint(name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1))) : (XML_ENTITIES[name] ?? whole)));

/** The model's field for a Word field instruction (`PAGE`, `NUMPAGES`, `SECTIONPAGES`, `DATE`, with switches). */
function fieldOf(instruction: string): Field | undefined {
  const name = /^\s*(\w+)/.exec(instruction)?.[1]?.toUpperCase();
  if (name === 'PAGE') return 'page';
  if (name === 'NUMPAGES' || name === 'SECTIONPAGES') return 'pages';
  if (name === 'DATE' || name === 'PRINTDATE' || name === 'SAVEDATE' || name === 'CREATEDATE') return 'date';
  return undefined;
}

/**
 * A header or footer part as one line: each paragraph's text and fields, split into slots at its tabs (text before
 * the first tab at the left, then the centre, then the right, as Word's Header style's stops place them) or, without
 * tabs, put in the slot of its alignment. Paragraphs of one slot are joined by a space; each slot keeps at most
 * MAX_SLOT_LENGTH characters. A field the model lacks keeps the text Word last showed for it.
 */
function lineOf(xml: string): HeaderFooter {
  const slots: Record<(typeof SLOTS)[number], string[]> = { left: [], center: [], right: [] };
  for (const paragraph of xml.match(/<w:p\b[\s\S]*?<\/w:p>/g) ?? []) {
    const properties = /<w:pPr\b[\s\S]*?<\/w:pPr>/.exec(paragraph)?.[0] ?? '';
    const body = paragraph.replace(properties, '');
    const parts: Segment[][] = [[]];
    let instruction: string | undefined;
    let inResult = false;
    let resultField: Segment | undefined;
    const push = (segment: Segment) => parts.at(-1)!.push(segment);
    for (const token of body.matchAll(/<w:fldSimple\b[^>]*?(?:\/>|>[\s\S]*?<\/w:fldSimple>)|<w:fldChar\b[^>]*>|<w:instrText\b[^>]*>([\s\S]*?)<\/w:instrText>|<w:t\b[^>]*\/>|<w:t\b[^>]*>([\s\S]*?)<\/w:t>|<w:tab\b[^>]*\/>/g)) {
      const tag = token[0];
      if (tag.startsWith('<w:fldSimple')) {
        const field = fieldOf(unescapeXml(attribute(tag, 'w:instr')));
        if (field) push({ field });
        else push({ text: unescapeXml([...tag.matchAll(/<w:t\b[^>]*>([\s\S]*?)<\/w:t>/g)].map((match) => match[1]).join('')) });
      } else if (tag.startsWith('<w:fldChar')) {
        const kind = attribute(tag, 'w:fldCharType');
        if (kind === 'begin') instruction = '';
        else if (kind === 'separate' && instruction !== undefined) {
          const field = fieldOf(unescapeXml(instruction));
          resultField = field ? { field } : undefined;
          inResult = resultField !== undefined;
          instruction = undefined;
        } else if (kind === 'end') {
          if (instruction !== undefined) {
            const field = fieldOf(unescapeXml(instruction));
            if (field) push({ field });
          } else if (resultField) push(resultField);
          instruction = undefined;
          inResult = false;
          resultField = undefined;
        }
      } else if (tag.startsWith('<w:instrText')) {
        if (instruction !== undefined) instruction += token[1] ?? '';
      } else if (tag.startsWith('<w:tab')) {
        if (!inResult) parts.push([]);
      } else if (!inResult && instruction === undefined) push({ text: unescapeXml(token[2] ?? '') });
    }
    const texts = parts.map((segments) => textOf(segments).trim());
    if (texts.every((text) => text === '')) continue;
    if (texts.length === 1) {
      const alignment = attribute(/<w:jc\b[^>]*>/.exec(properties)?.[0] ?? '', 'w:val');
      slots[alignment === 'center' ? 'center' : alignment === 'right' || alignment === 'end' ? 'right' : 'left'].push(texts[0]!);
    } else {
      // "a<tab>b" puts b at the centre stop; a third part and more are at the right
      slots.left.push(texts[0]!);
      slots.center.push(texts[1]!);
      slots.right.push(texts.slice(2).join(' '));
    }
  }
  const slot = (texts: string[]) => texts.filter((text) => text !== '').join(' ').replace(/\s+/g, ' ').slice(0, MAX_SLOT_LENGTH);
  return { left: slot(slots.left), center: slot(slots.center), right: slot(slots.right) };
}
