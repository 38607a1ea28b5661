import JSZip from 'jszip';
import pptxgenModule from 'pptxgenjs';
import { sniffImage } from '../../attachments/sniff.js';
import { nodeText, type ProseMirrorNode } from '../../../model/rich-text/schema.js';
import { boundsOf, type BoxFrame, type ImageCrop, type PlaceholderRole, type SlideTransition } from '../../../model/slides.js';
import type { SlideSource, SlidesSource } from '../source.js';
import { safeHref, type Progress } from './shared.js';

/**
 * presentation → .pptx (pptxgenjs writes the file): one slide per slide of the same 16:9 size, each text box
 * at its position and size with its paragraphs (headings larger, list items bulleted or numbered, marks and
 * links), a box holding only a table as a PowerPoint table (cells, spans, marks), image boxes with the image when it is an attachment of the file's app (else its text alternative).
 */

// pptxgenjs ships CommonJS-style typings for an ES module: under NodeNext the default import is typed as the
// module object while at run time it is the class itself.
const PptxGenJS = ((pptxgenModule as { default?: unknown }).default ?? pptxgenModule) as typeof pptxgenModule.default;
type TextPropsOptions = pptxgenModule.default.TextPropsOptions;

const POINTS_PER_INCH = 72;
const BODY_SIZE = 18;
const HEADING_SIZES = [36, 30, 26, 22, 20, 18];
const FONT = 'Microsoft YaHei';

type TextRun = pptxgenModule.default.TextProps;
type TableRow = pptxgenModule.default.TableRow;

function inches(points: number): number {
  return Math.round((points / POINTS_PER_INCH) * 1000) / 1000;
}

function runs(nodes: readonly ProseMirrorNode[] = [], base: TextPropsOptions): TextRun[] {
  const out: TextRun[] = [];
  for (const node of nodes) {
    if (node.type === 'text') {
      const options: TextPropsOptions = { ...base };
      for (const mark of node.marks ?? []) {
        if (mark.type === 'bold') options.bold = true;
        else if (mark.type === 'italic') options.italic = true;
        else if (mark.type === 'underline') options.underline = { style: 'sng' };
        else if (mark.type === 'strike') options.strike = 'sngStrike';
        else if (mark.type === 'subscript') options.subscript = true;
        else if (mark.type === 'superscript') options.superscript = true;
        else if (mark.type === 'code') options.fontFace = 'Consolas';
        else if (mark.type === 'link') {
          const url = safeHref(mark.attrs?.href);
          if (url) options.hyperlink = { url };
        }
      }
      out.push({ text: node.text ?? '', options });
    } else if (node.type === 'hardBreak') {
      out.push({ text: '', options: { ...base, breakLine: true } });
    } else if (node.type !== 'image') {
      out.push({ text: nodeText(node), options: { ...base } });
    }
  }
  return out;
}

/** A #rrggbb colour as pptxgenjs writes it. */
function hex(color: string): string {
  return color.replace(/^#/, '').toUpperCase();
}

/** The names PowerPoint gives its placeholders, by role (the pptx reader reads them back, placeholderRoleByName). */
const PLACEHOLDER_NAMES = { title: 'Title', subtitle: 'Subtitle', body: 'Content Placeholder' } as const;

/**
 * The paragraphs of a text box as pptxgenjs runs; each paragraph's last run breaks the line but the box's last.
 * A box's own size replaces the body size (headings keep theirs).
 */
function boxParagraphs(nodes: readonly ProseMirrorNode[], fontSize?: number): TextRun[] {
  const out = paragraphs(nodes).map((run) => (fontSize !== undefined && run.options?.fontSize === BODY_SIZE ? { ...run, options: { ...run.options, fontSize } } : run));
  // no break after the box's last paragraph (it would add an empty line)
  const last = out[out.length - 1];
  if (last) out[out.length - 1] = { text: last.text ?? '', options: { ...last.options, breakLine: false } };
  return out;
}

function paragraphs(nodes: readonly ProseMirrorNode[], list?: { ordered: boolean; level: number }): TextRun[] {
  const out: TextRun[] = [];
  const paragraph = (node: ProseMirrorNode, options: TextPropsOptions) => {
    const line = runs(node.content, options);
    if (line.length === 0) line.push({ text: '', options });
    // the first run carries the paragraph's bullet, the last one ends it
    line[0] = { text: line[0]!.text ?? '', options: { ...line[0]!.options, ...(list ? { bullet: list.ordered ? { type: 'number' } : true, indentLevel: list.level } : {}) } };
    line[line.length - 1] = { text: line[line.length - 1]!.text ?? '', options: { ...line[line.length - 1]!.options, breakLine: true } };
    out.push(...line);
  };
  for (const node of nodes) {
    if (node.type === 'paragraph') paragraph(node, { fontSize: BODY_SIZE });
    else if (node.type === 'heading') {
      const level = Math.min(Math.max(Number(node.attrs?.level ?? 1) || 1, 1), 6);
      paragraph(node, { fontSize: HEADING_SIZES[level - 1]!, bold: true });
    } else if (node.type === 'codeBlock') paragraph(node, { fontSize: BODY_SIZE, fontFace: 'Consolas' });
    else if (node.type === 'bulletList' || node.type === 'orderedList' || node.type === 'taskList') {
      const level = list ? list.level + 1 : 0;
      for (const item of node.content ?? []) out.push(...paragraphs(item.content ?? [], { ordered: node.type === 'orderedList', level }));
    } else if (node.type === 'table') {
      for (const row of node.content ?? []) {
        const cells = (row.content ?? []).map((cell) => (cell.content ?? []).map((block) => nodeText(block)).join(' '));
        out.push({ text: cells.join('\t'), options: { fontSize: BODY_SIZE, breakLine: true } });
      }
    } else if (node.content) out.push(...paragraphs(node.content, list));
  }
  return out;
}

/**
 * pptxgenjs writes an `a:pPr` before every run of a paragraph, where the format allows one, first in the `a:p`
 * (ECMA-376 Part 1, 21.1.2.2.6 CT_TextParagraph): PowerPoint offers to repair such a file and readers drop the
 * paragraph's bullet and size. The first one holds the paragraph's properties (it comes from its first run, which
 * carries the bullet); the others go.
 */
export function oneParagraphPropertiesEach(slideXml: string): string {
  return slideXml.replace(/<a:p>[\s\S]*?<\/a:p>/g, (paragraph) => {
    let seen = false;
    return paragraph.replace(/<a:pPr\b[^>]*?(?:\/>|>[\s\S]*?<\/a:pPr>)/g, (properties) => {
      if (seen) return '';
      seen = true;
      return properties;
    });
  });
}

/**
 * pptxgenjs writes `<a:buSzPct val="100000"/>` with every bullet: a bullet as large as its text, which is what a
 * paragraph without any bullet size shows (ECMA-376 Part 1, 21.1.2.4.9), and a value the transitional schema's
 * ST_TextBulletSizePercent (`100%`) does not accept. Bullets follow the text's size without it.
 */
export function withoutDefaultBulletSize(slideXml: string): string {
  return slideXml.replaceAll('<a:buSzPct val="100000"/>', '');
}

/**
 * presentation.xml with its children in the schema's order (ECMA-376 Part 1, 19.2.1.26 CT_Presentation: slide
 * masters, notes master, handout master, then the slides): pptxgenjs writes the notes master after the slides.
 */
export function presentationInSchemaOrder(presentationXml: string): string {
  const notesMaster = /<p:notesMasterIdLst>[\s\S]*?<\/p:notesMasterIdLst>/.exec(presentationXml)?.[0];
  if (!notesMaster || !presentationXml.includes('</p:sldMasterIdLst>')) return presentationXml;
  return presentationXml.replace(notesMaster, '').replace('</p:sldMasterIdLst>', `</p:sldMasterIdLst>${notesMaster}`);
}

/**
 * `[Content_Types].xml` without the overrides of parts the package lacks: pptxgenjs names a slide master per slide
 * (`slideMaster2.xml`…) but writes only the first, and a content type for a missing part breaks the package
 * (ECMA-376 Part 2, 10.1.2.3).
 */
export function withoutMissingOverrides(contentTypes: string, parts: ReadonlySet<string>): string {
  return contentTypes.replace(/<Override\b[^>]*?PartName="\/([^"]+)"[^>]*?\/>/g, (override, part: string) => (parts.has(part) ? override : ''));
}

/**
 * A slide's transition written where the schema has it (after `p:clrMapOvr`, before `p:timing` and `p:extLst`):
 * pptxgenjs writes none. Each of the model's transitions is PowerPoint's element of the same name.
 */
export function withTransition(slideXml: string, transition: SlideTransition | undefined): string {
  if (!transition || transition === 'none') return slideXml;
  const element = `<p:transition spd="med"><p:${transition}/></p:transition>`;
  const before = /<p:timing\b|<p:extLst\b|<\/p:sld>/.exec(slideXml.slice(slideXml.indexOf('</p:cSld>')));
  if (!before) return slideXml;
  const at = slideXml.indexOf('</p:cSld>') + before.index;
  return slideXml.slice(0, at) + element + slideXml.slice(at);
}

/** What the post-processing needs of each drawing pptxgenjs wrote on a slide, in the order they were added. */
export interface DrawnObject {
  /** the model's group id of its box */
  group?: string;
  /** a picture's crop */
  crop?: ImageCrop;
}

/** The drawings of a slide's shape tree, each whole (none nests in another: pptxgenjs writes no groups). */
const DRAWING = /<p:(sp|pic|graphicFrame|cxnSp)>[\s\S]*?<\/p:\1>/g;

/** The crop as `a:srcRect` wants it: each side in thousandths of a percent of the picture (ECMA-376 Part 1, 20.1.10.48 ST_Percentage). */
export function sourceRectangle(crop: ImageCrop): string {
  const side = (fraction: number) => Math.round(fraction * 100_000);
  return `<a:srcRect l="${side(crop.left)}" t="${side(crop.top)}" r="${side(crop.right)}" b="${side(crop.bottom)}"/>`;
}

/** A drawing's position and size in EMU, from its first `a:off`/`a:ext` (its own `a:xfrm` or `p:xfrm`). */
function placementOf(drawing: string): BoxFrame | undefined {
  const found = /<a:off x="(-?\d+)" y="(-?\d+)"\/>\s*<a:ext cx="(\d+)" cy="(\d+)"\/>/.exec(drawing);
  return found ? { x: Number(found[1]), y: Number(found[2]), width: Number(found[3]), height: Number(found[4]) } : undefined;
}

/**
 * A slide's drawings with the crops of its pictures (`a:srcRect` in place of pptxgenjs's empty one) and its groups as
 * `p:grpSp` (pptxgenjs has neither). A group is drawn where its topmost member is, its members in their order;
 * its transform is the identity (`a:chOff`/`a:chExt` equal to `a:off`/`a:ext`, the members' bounds), so members
 * keep their slide positions. `drawn` is what each drawing of the slide shows, in the order they were added.
 */
export function withCropsAndGroups(slideXml: string, drawn: readonly DrawnObject[]): string {
  if (!drawn.some((object) => object.group !== undefined || object.crop !== undefined)) return slideXml;
  const drawings: string[] = [];
  const start = slideXml.search(DRAWING);
  if (start < 0) return slideXml;
  let end = start;
  for (const match of slideXml.matchAll(DRAWING)) {
    const object = drawn[drawings.length];
    drawings.push(object?.crop && match[1] === 'pic' ? match[0].replace(/<a:srcRect\b[^>]*?\/>|<a:srcRect\b[^>]*?>[\s\S]*?<\/a:srcRect>|(?=<a:stretch)/, sourceRectangle(object.crop)) : match[0]);
    end = match.index + match[0].length;
  }
  let nextId = Math.max(0, ...[...slideXml.matchAll(/<p:cNvPr id="(\d+)"/g)].map((found) => Number(found[1]))) + 1;
  const lastOfGroup = new Map<string, number>();
  drawings.forEach((_, index) => {
    const group = drawn[index]?.group;
    if (group !== undefined) lastOfGroup.set(group, index);
  });
  const tree = drawings.flatMap((drawing, index) => {
    const group = drawn[index]?.group;
    if (group === undefined) return [drawing];
    if (lastOfGroup.get(group) !== index) return [];
    const members = drawings.filter((_, other) => drawn[other]?.group === group);
    if (members.length < 2) return members;
    const frames = members.map(placementOf).filter((frame) => frame !== undefined);
    const bounds = boundsOf(frames);
    const xfrm = `<a:off x="${bounds.x}" y="${bounds.y}"/><a:ext cx="${bounds.width}" cy="${bounds.height}"/>`;
    const id = nextId++;
    return [`<p:grpSp><p:nvGrpSpPr><p:cNvPr id="${id}" name="Group ${id}"/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr><a:xfrm>${xfrm}${xfrm.replace('a:off', 'a:chOff').replace('a:ext', 'a:chExt')}</a:xfrm></p:grpSpPr>${members.join('')}</p:grpSp>`];
  });
  return slideXml.slice(0, start) + tree.join('') + slideXml.slice(end);
}

/**
 * The file pptxgenjs wrote, made valid against the transitional schemas (test/support/ooxml.ts checks every export):
 * each slide's paragraphs with one `a:pPr` (oneParagraphPropertiesEach) and no default bullet size
 * (withoutDefaultBulletSize), its pictures' crops and its groups (withCropsAndGroups), presentation.xml in the schema's order (presentationInSchemaOrder) and content types
 * only for the parts it holds (withoutMissingOverrides).
 */
async function repaired(written: Buffer, slides: readonly SlideSource[], placeholderFrames: ReadonlyArray<ReadonlyMap<string, BoxFrame>>, drawn: ReadonlyArray<readonly DrawnObject[]>): Promise<Uint8Array> {
  const zip = await JSZip.loadAsync(written);
  for (const name of Object.keys(zip.files).filter((part) => /^ppt\/(slides\/slide|slideLayouts\/slideLayout|slideMasters\/slideMaster)\d+\.xml$/.test(part))) {
    const xml = withoutDefaultBulletSize(oneParagraphPropertiesEach(await zip.file(name)!.async('string')));
    // pptxgenjs names the slides' parts slide1.xml, slide2.xml… in the order they were added
    const slideNumber = /^ppt\/slides\/slide(\d+)\.xml$/.exec(name)?.[1];
    const index = Number(slideNumber) - 1;
    zip.file(name, slideNumber === undefined ? xml : withCropsAndGroups(withTransition(atOwnPlace(xml, placeholderFrames[index]), slides[index]?.transition), drawn[index] ?? []));
  }
  const presentation = zip.file('ppt/presentation.xml');
  if (presentation) zip.file('ppt/presentation.xml', presentationInSchemaOrder(await presentation.async('string')));
  const contentTypes = zip.file('[Content_Types].xml');
  if (contentTypes) zip.file('[Content_Types].xml', withoutMissingOverrides(await contentTypes.async('string'), new Set(Object.keys(zip.files))));
  return zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
}

const EMU_PER_INCH = 914400;

/**
 * pptxgenjs puts a placeholder where its layout has it, whatever the slide says: each placeholder shape (named
 * `objectName`, unique on its slide) is moved back to its box's frame.
 */
function atOwnPlace(slideXml: string, frames: ReadonlyMap<string, BoxFrame> | undefined): string {
  if (!frames || frames.size === 0) return slideXml;
  return slideXml.replace(/<p:sp>[\s\S]*?<\/p:sp>/g, (shape) => {
    const name = /<p:cNvPr\b[^>]*\bname="([^"]*)"/.exec(shape)?.[1];
    const frame = name === undefined ? undefined : frames.get(name);
    if (!frame) return shape;
    const emu = (points: number) => Math.round(inches(points) * EMU_PER_INCH);
    return shape.replace(/<a:off x="-?\d+" y="-?\d+"\/><a:ext cx="\d+" cy="\d+"\/>/, `<a:off x="${emu(frame.x)}" y="${emu(frame.y)}"/><a:ext cx="${emu(frame.width)}" cy="${emu(frame.height)}"/>`);
  });
}

/** PowerPoint's placeholder type of each role (a subtitle is a body placeholder to pptxgenjs, which has no subTitle). */
const PLACEHOLDER_TYPES: Record<PlaceholderRole, 'title' | 'body'> = { title: 'title', subtitle: 'body', body: 'body' };

interface PlaceholderBox {
  box: SlideSource['boxes'][number];
  role: PlaceholderRole;
  /** as PowerPoint names placeholders ("Title 1"), which the pptx reader maps back; the same on every slide of a layout */
  name: string;
}

/** A slide's placeholder boxes (those holding a table are tables), in box order. */
function placeholdersOf(slide: SlideSource): PlaceholderBox[] {
  const named = new Map<string, number>();
  return slide.boxes.flatMap((box) => {
    if (box.type !== 'text' || !box.placeholder || onlyTable(box.blocks)) return [];
    const prefix = PLACEHOLDER_NAMES[box.placeholder];
    const number = (named.get(prefix) ?? 0) + 1;
    named.set(prefix, number);
    return [{ box, role: box.placeholder, name: `${prefix} ${number}` }];
  });
}

/** The sequence of a slide's placeholder roles, which names its layout ("title, body"). */
function sequenceOf(placeholders: readonly PlaceholderBox[]): string {
  return placeholders.map((placeholder) => placeholder.role).join(', ');
}

/**
 * One slide layout for each distinct sequence of placeholder roles in the deck ("Title, Body"), its placeholders
 * at the place of the first slide's that has it, so each placeholder is written as a real `p:ph` of its slide's
 * layout (PowerPoint's "Reset" and layout switching work on it). The name of the layout for each sequence.
 */
function definePlaceholderLayouts(pptx: InstanceType<typeof PptxGenJS>, slides: readonly SlideSource[]): Map<string, string> {
  const layouts = new Map<string, string>();
  for (const slide of slides) {
    const placeholders = placeholdersOf(slide);
    const key = sequenceOf(placeholders);
    if (placeholders.length === 0 || layouts.has(key)) continue;
    const title = key.replace(/(^|, )(\w)/g, (_whole, separator: string, letter: string) => separator + letter.toUpperCase());
    pptx.defineSlideMaster({
      title,
      // pptxgenjs gives a slide's placeholder its layout placeholder's options, the name among them
      objects: placeholders.map(({ box: { frame }, role, name }, index) => ({
        placeholder: { options: { name: `placeholder-${index}`, type: PLACEHOLDER_TYPES[role], objectName: name, x: inches(frame.x), y: inches(frame.y), w: inches(frame.width), h: inches(frame.height) }, text: '' },
      })),
    });
    layouts.set(key, title);
  }
  return layouts;
}

/** The box's one table, when a box holds a table and nothing else with text (what a pptx import makes of a slide table). */
function onlyTable(blocks: readonly ProseMirrorNode[]): ProseMirrorNode | undefined {
  const [table, ...others] = blocks.filter((node) => node.type === 'table' || nodeText(node).trim() !== '');
  return table?.type === 'table' && others.length === 0 ? table : undefined;
}

/**
 * A table as pptxgenjs rows: each cell with its paragraphs and spans (pptxgenjs leaves out the cells a span covers,
 * as the model does), header cells bold on a grey fill as the editor shows them.
 */
function tableRows(table: ProseMirrorNode): TableRow[] {
  return (table.content ?? []).map((row) =>
    (row.content ?? []).map((cell) => {
      const header = cell.type === 'tableHeader';
      const text = boxParagraphs(cell.content ?? []).map((run) => ({ text: run.text ?? '', options: { ...run.options, ...(header ? { bold: true } : {}) } }));
      return {
        text,
        options: {
          colspan: Math.max(1, Number(cell.attrs?.colspan ?? 1) || 1),
          rowspan: Math.max(1, Number(cell.attrs?.rowspan ?? 1) || 1),
          ...(header ? { fill: { color: 'F3F4F6' } } : {}),
        },
      };
    }),
  );
}

export async function toPptx(source: SlidesSource, progress: Progress): Promise<Uint8Array> {
  const pptx = new PptxGenJS();
  pptx.defineLayout({ name: 'SVC', width: inches(source.width), height: inches(source.height) });
  pptx.layout = 'SVC';
  pptx.title = source.title;
  pptx.author = 'Svc';
  // the deck's theme fonts are the first slide's (a deck has one theme; slides keep theirs in colours and backgrounds)
  const theme = source.slides[0]?.theme;
  pptx.theme = { headFontFace: theme?.headingFont ?? FONT, bodyFontFace: theme?.bodyFont ?? FONT };
  const layouts = definePlaceholderLayouts(pptx, source.slides);
  const placeholderFrames: Array<Map<string, BoxFrame>> = [];
  // what each slide's drawings show, in the order they are added (withCropsAndGroups)
  const drawn: DrawnObject[][] = [];
  for (const slideSource of source.slides) {
    const placeholders = placeholdersOf(slideSource);
    const layout = layouts.get(sequenceOf(placeholders));
    const slide = pptx.addSlide(layout ? { masterName: layout } : undefined);
    slide.background = { color: hex(slideSource.theme.background) };
    if (slideSource.notes !== '') slide.addNotes(slideSource.notes);
    const frames = new Map<string, BoxFrame>();
    placeholderFrames.push(frames);
    const objects: DrawnObject[] = [];
    drawn.push(objects);
    for (const box of slideSource.boxes) {
      const object: DrawnObject = { ...(box.group !== undefined ? { group: box.group } : {}), ...(box.type === 'image' && box.crop ? { crop: box.crop } : {}) };
      const frame = { x: inches(box.frame.x), y: inches(box.frame.y), w: inches(box.frame.width), h: inches(box.frame.height) };
      const table = box.type === 'text' ? onlyTable(box.blocks) : undefined;
      if (box.type === 'shape') {
        const { look } = box;
        const kind = look.kind === 'ellipse' ? pptx.ShapeType.ellipse : look.kind === 'rectangle' ? pptx.ShapeType.rect : pptx.ShapeType.line;
        slide.addShape(kind, {
          ...frame,
          ...(look.fill ? { fill: { color: hex(look.fill) } } : {}),
          line: { color: hex(look.outline), width: look.outlineWidth, ...(look.kind === 'arrow' ? { endArrowType: 'triangle' as const } : {}) },
        });
        objects.push(object);
      } else if (box.type === 'image') {
        const asset = source.images[box.src];
        const sniffed = asset ? sniffImage(asset.data) : undefined;
        if (asset && sniffed) {
          slide.addImage({ ...frame, data: `${sniffed.mimeType};base64,${Buffer.from(asset.data).toString('base64')}`, altText: box.alt, sizing: { type: 'contain', w: frame.w, h: frame.h } });
          objects.push(object);
        } else {
          slide.addText(box.alt || 'image', { ...frame, fontSize: BODY_SIZE, italic: true, color: '888888', align: 'center', valign: 'middle' });
          objects.push({ ...object, crop: undefined });
        }
      } else if (table) {
        slide.addTable(tableRows(table), { x: frame.x, y: frame.y, w: frame.w, fontFace: FONT, fontSize: BODY_SIZE, border: { type: 'solid', pt: 1, color: 'C0C4CC' }, valign: 'top' });
        objects.push(object);
      } else {
        const text = boxParagraphs(box.blocks, box.style.fontSize);
        // a placeholder keeps its role in its name, and is its layout's placeholder of the same place in the sequence
        const index = placeholders.findIndex((placeholder) => placeholder.box === box);
        const objectName = placeholders[index]?.name;
        const placeholder = layout && objectName ? `placeholder-${index}` : undefined;
        if (placeholder && objectName) frames.set(objectName, box.frame);
        const font = box.style.fontFamily ?? (box.placeholder === 'title' ? slideSource.theme.headingFont : slideSource.theme.bodyFont);
        if (text.length > 0 || objectName) {
          slide.addText(text.length > 0 ? text : '', {
            ...frame,
            valign: 'top',
            fontFace: font,
            color: hex(box.style.color ?? slideSource.theme.text),
            align: box.style.align ?? 'left',
            ...(box.placeholder === 'title' ? { bold: true } : {}),
            margin: 4,
            ...(objectName ? { objectName } : {}),
            ...(placeholder ? { placeholder } : {}),
          });
          objects.push(object);
        }
      }
      progress.step();
    }
    progress.step();
  }
  if (source.slides.length === 0) pptx.addSlide();
  return repaired((await pptx.write({ outputType: 'nodebuffer' })) as Buffer, source.slides, placeholderFrames, drawn);
}
