import { DOMParser as ProseMirrorParser } from '@tiptap/pm/model';
import { parseHTML } from 'linkedom';
import { attachmentPath } from '../../attachments/attachment-service.js';
import { FOOTNOTE_HTML } from '../../../model/rich-text/nodes/footnote.js';
import { InvalidFragment, parseFragment, richTextSchema, type ProseMirrorNode } from '../../../model/rich-text/schema.js';
import { ConversionError, type ExtractedImage } from '../conversion.js';

/**
 * HTML → the content model's rich text (docs/CONTENT-MODEL.md), through ProseMirror's own DOM parser over the
 * document's schema (src/model/rich-text/schema.ts), so an import reads HTML with the same parse rules as a paste
 * into the editor: it fits whatever the HTML holds into what the model allows (text straight in a list item
 * gets its paragraph, unknown elements give their text). Used by docx (through mammoth), md (through
 * markdown-it), html and pptx text boxes. What is left here is what only an import does: pictures, unsafe
 * links, page breaks written as CSS, notes written as a list after the text.
 */

/**
 * The element that stands for a page break in the HTML given to the parser. Not `<hr>`: an HTML parser closes
 * the paragraph an `<hr>` is in, leaving the text after it outside and an empty paragraph behind; an unknown
 * element stays where it is and ProseMirror's parser splits the paragraph around the block itself.
 */
export const PAGE_BREAK_TAG = 'svc-page-break';
export const PAGE_BREAK_MARKER = `<${PAGE_BREAK_TAG}></${PAGE_BREAK_TAG}>`;

/** The few DOM members used here (the server has no DOM typings; linkedom provides the objects). */
interface DomElement {
  readonly children: ArrayLike<DomElement>;
  readonly tagName: string;
  readonly textContent: string | null;
  readonly parentElement: DomElement | null;
  readonly ownerDocument: { createElement(tag: string): DomElement };
  before(node: DomElement): void;
  after(node: DomElement): void;
  replaceWith(node: DomElement): void;
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
  querySelectorAll(selector: string): ArrayLike<DomElement>;
  appendChild(node: DomElement): void;
  remove(): void;
}

// the editor's own parse rules (src/model/rich-text/: each node's and mark's parseHTML), over linkedom's DOM
const parser = ProseMirrorParser.fromSchema(richTextSchema);

/** Deepest element nesting accepted before parsing: beyond it the DOM walk itself risks the stack. */
const MAX_HTML_DEPTH = 200;

function depthOf(root: DomElement): number {
  let deepest = 0;
  const stack: Array<[DomElement, number]> = [[root, 0]];
  while (stack.length > 0) {
    const [element, depth] = stack.pop()!;
    if (depth > deepest) deepest = depth;
    if (deepest > MAX_HTML_DEPTH) return deepest;
    for (const child of Array.from(element.children)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/** `data:` images become attachments of the new file (the model keeps credential-free attachment paths, never base64). */
function moveDataImages(body: DomElement, images: ExtractedImage[]): void {
  for (const img of Array.from(body.querySelectorAll('img'))) {
    const src = img.getAttribute('src') ?? '';
    const match = /^data:([\w/+.-]+);base64,(.*)$/s.exec(src);
    if (match) {
      const guid = crypto.randomUUID();
      images.push({ guid, data: Buffer.from(match[2]!, 'base64'), filename: `image-${images.length + 1}.${(match[1]!.split('/')[1] ?? 'bin').replace(/\W/g, '')}` });
      img.setAttribute('src', attachmentPath(guid));
    } else if (!/^https?:\/\//i.test(src) && !src.startsWith('/sdk/v2/attachments/')) {
      img.remove();
    }
  }
}

/** Links keep http(s), mailto and in-document anchors only; other schemes (javascript:) lose the link, keep the text. */
function safeLinks(body: DomElement): void {
  for (const anchor of Array.from(body.querySelectorAll('a[href]'))) {
    const href = anchor.getAttribute('href') ?? '';
    if (!/^(https?:|mailto:|#)/i.test(href.trim())) anchor.removeAttribute('href');
  }
}

/**
 * Anchors (`<a id>` or `<a name>`, what mammoth writes for Word's bookmarks) that a link of the document names
 * (`href="#name"`) become the model's bookmark around the top-level block holding them, so the link has its target
 * in the editor and in a docx export (written as a Word bookmark). Anchors no link names (Word's `_GoBack`, unused
 * headings' `_Toc…`) are left out, as is a second anchor of the same name: names are unique in a file.
 */
function bookmarkTargets(body: DomElement): void {
  const named = new Set(Array.from(body.querySelectorAll('a[href^="#"]'), (link) => (link.getAttribute('href') ?? '').slice(1)).filter((name) => name !== ''));
  const made = new Set<string>();
  for (const anchor of Array.from(body.querySelectorAll('a[id], a[name]'))) {
    const name = anchor.getAttribute('id') ?? anchor.getAttribute('name') ?? '';
    if (!named.has(name) || made.has(name)) continue;
    let block: DomElement | null = anchor;
    while (block && block.parentElement !== body) block = block.parentElement;
    if (!block || block === anchor) continue;
    const bookmark = block.ownerDocument.createElement('section');
    bookmark.setAttribute('data-bookmark', name);
    block.before(bookmark);
    bookmark.appendChild(block);
    made.add(name);
  }
}

/** CSS that breaks the page before or after an element: `page-break-before/after: always` (or left, right), `break-before/after: page` (or left, right, recto, verso). */
const PAGE_BREAK_STYLE = /(?:^|;)\s*(?:page-)?break-(before|after)\s*:\s*(?:always|page|left|right|recto|verso)\s*(?:!important\s*)?(?=;|$)/gi;

/**
 * Page breaks written as CSS become PAGE_BREAK_TAG markers before or after their element (the schema's
 * `pageBreak`); a `<br>` that breaks the page (Word's own HTML) is replaced by one. An element holding
 * nothing but a marker is replaced by it (Word writes a page break as a paragraph or span of its own): no
 * empty paragraph is left beside the break.
 */
function markPageBreaks(body: DomElement): void {
  for (const element of Array.from(body.querySelectorAll('[style]'))) {
    const sides = new Set(Array.from((element.getAttribute('style') ?? '').matchAll(PAGE_BREAK_STYLE), (match) => match[1]!.toLowerCase()));
    if (sides.size === 0) continue;
    const marker = () => element.ownerDocument.createElement(PAGE_BREAK_TAG);
    if (element.tagName.toLowerCase() === 'br') {
      element.replaceWith(marker());
      continue;
    }
    if (sides.has('before')) element.before(marker());
    if (sides.has('after')) element.after(marker());
  }
  for (const marker of Array.from(body.querySelectorAll(PAGE_BREAK_TAG))) {
    let parent = marker.parentElement;
    while (parent && parent !== body && parent.children.length === 1 && (parent.textContent ?? '').trim() === '') {
      parent.replaceWith(marker);
      parent = marker.parentElement;
    }
    // the page break's own HTML (src/model/rich-text/nodes/page-break.ts), now that no HTML parser will see it
    const pageBreak = marker.ownerDocument.createElement('div');
    pageBreak.setAttribute('data-page-break', '');
    marker.replaceWith(pageBreak);
  }
}

/** A note's id as mammoth writes Word's footnotes and endnotes (and the html export its footnotes): `footnote-3`, `endnote-1`. */
const NOTE_ID = /^(?:footnote|endnote)-\d+$/;

/**
 * Notes written as a numbered list after the text, each reference a link in a `<sup>` to its item (mammoth's
 * form of Word's `w:footnoteReference` and `w:endnoteReference`, and the html export's), become the model's
 * `footnote` references holding their note's text (src/model/rich-text/nodes/footnote.ts); the items, their back
 * links and a list or section left empty go. A link to anything else stays a link.
 */
function markFootnotes(body: DomElement): void {
  const notes = new Map<string, DomElement>();
  for (const item of Array.from(body.querySelectorAll('li[id]'))) {
    const id = item.getAttribute('id') ?? '';
    if (NOTE_ID.test(id)) notes.set(id, item);
  }
  if (notes.size === 0) return;
  for (const link of Array.from(body.querySelectorAll('sup > a[href^="#"]'))) {
    const item = notes.get((link.getAttribute('href') ?? '').slice(1));
    const reference = link.parentElement;
    if (!item || !reference) continue;
    for (const back of Array.from(item.querySelectorAll('a[href^="#"]'))) if (back.getAttribute('href') === `#${link.getAttribute('id') ?? ''}`) back.remove();
    const footnote = reference.ownerDocument.createElement(FOOTNOTE_HTML.tag);
    footnote.setAttribute(FOOTNOTE_HTML.attribute, '');
    // a page exported here keeps the note as written; a Word note is read from its item (paragraphs one per line)
    const paragraphs = Array.from(item.querySelectorAll('p'));
    const text = paragraphs.length > 0 ? paragraphs.map((paragraph) => (paragraph.textContent ?? '').trim()).join('\n') : (item.textContent ?? '').trim();
    footnote.setAttribute('data-note', reference.getAttribute('data-note') ?? text);
    reference.replaceWith(footnote);
    const list = item.parentElement;
    item.remove();
    if (list && list.children.length === 0) {
      const holder = list.parentElement;
      list.remove();
      if (holder && holder.tagName.toLowerCase() === 'section' && holder.children.length === 0) holder.remove();
    }
  }
}

/** Block nodes of the content model for an HTML document or fragment; `images` collects embedded pictures. */
export function htmlToBlocks(html: string, images: ExtractedImage[] = []): ProseMirrorNode[] {
  const { document } = parseHTML(`<!doctype html><html><body>${html}</body></html>`);
  const body = document.body as unknown as DomElement;
  if (depthOf(body) > MAX_HTML_DEPTH) {
    throw new ConversionError('importContentTooComplex', `the document nests elements deeper than ${MAX_HTML_DEPTH} levels`);
  }
  for (const element of Array.from(body.querySelectorAll('script, style, template, head'))) element.remove();
  moveDataImages(body, images);
  safeLinks(body);
  bookmarkTargets(body);
  markPageBreaks(body);
  markFootnotes(body);
  const json = parser.parse(body as unknown as Parameters<typeof parser.parse>[0]).toJSON() as { content?: unknown[] };
  try {
    return parseFragment(json.content ?? []);
  } catch (error) {
    if (error instanceof InvalidFragment) throw new ConversionError('importContentTooComplex', `the document cannot be stored: ${error.message}`);
    throw error;
  }
}
