import { getSchema, getTextSerializersFromSchema } from '@tiptap/core';
import { Node as SchemaNode, type NodeType } from '@tiptap/pm/model';
import * as Y from 'yjs';
import { documentExtensions } from './extensions.js';
import type { ProseMirrorNode } from './node-json.js';

// its own file so the node files can name it without importing the schema built from them
export type { ProseMirrorNode } from './node-json.js';

/**
 * Rich text in the shape ProseMirror/Tiptap editors bind through y-prosemirror: every node is a
 * Y.XmlElement named after its node type with its attributes, a textblock's text runs are one Y.XmlText
 * whose formatting attributes are the marks (`{bold: {}}`, `{link: {href}}`).
 */


/**
 * The schema of rich text, built from the document's extensions (extensions.ts): the same Tiptap nodes and
 * marks the editor runs, so the server's idea of a node (block or inline, leaf or container) is never a copy.
 */
export const richTextSchema = getSchema(documentExtensions());

const nodeTypes = Object.values(richTextSchema.nodes).filter((type) => type !== richTextSchema.topNodeType && !type.isText);
const names = (types: readonly NodeType[]) => new Set(types.map((type) => type.name));

/** Block nodes whose children are inline content (text, hard breaks, mentions, inline images). */
const textblocks = names(nodeTypes.filter((type) => type.isTextblock));
const inlineNodes = names(nodeTypes.filter((type) => type.isInline));
/** Every block node, containers (lists, tables, `bookmark`) and leaves (`horizontalRule`, `pageBreak`) included. */
const blockNodes = names(nodeTypes.filter((type) => type.isBlock));
const leafNodes = names(nodeTypes.filter((type) => type.isLeaf));
const marks = new Set(Object.keys(richTextSchema.marks));

const MAX_DEPTH = 64;

// ---------------------------------------------------------------------------------------------------
// Plain text

/** What a page break reads as in plain text: a line holding one form feed (U+000C), the plain-text page break. */
export const PAGE_BREAK_TEXT = '\f';

/** Whether the node is a leaf (no content, one position in ProseMirror's counting): images, rules, page breaks, hard breaks, mentions. */
export function isLeafNode(nodeName: string): boolean {
  return leafNodes.has(nodeName);
}

/** Each leaf's plain-text form, as its extension's renderText writes it (a hard break `\n`, a mention `@label`). */
const textSerializers = getTextSerializersFromSchema(richTextSchema);

/**
 * What a leaf reads as in plain text: its extension's renderText (src/model/rich-text/nodes/, Tiptap's own for
 * hard breaks and user mentions), so the editor's copied text and the server's plain text are one definition;
 * a leaf without one (images, rules, page breaks inside a line) reads as nothing.
 */
export function leafText(element: Y.XmlElement): string {
  return leafTextOf(element.nodeName, element.getAttributes());
}

function leafTextOf(name: string, attrs: Record<string, unknown> | undefined): string {
  const type = richTextSchema.nodes[name];
  const serialize = textSerializers[name];
  if (!type || !serialize) return '';
  const node = type.create(attrs);
  return serialize({ node, pos: 0, parent: node, index: 0, range: { from: 0, to: node.nodeSize } });
}

/** The plain text of a node in ProseMirror JSON: text as is, leaves by their renderText, containers their children's. */
export function nodeText(node: ProseMirrorNode): string {
  if (node.text !== undefined) return node.text;
  if (node.content) return node.content.map(nodeText).join('');
  return leafTextOf(node.type, node.attrs);
}

/** Text of one inline run: text as is, hard breaks as line breaks, mentions as `@label`. */
export function inlineText(children: ReadonlyArray<Y.XmlElement | Y.XmlText | Y.XmlHook>): string {
  let text = '';
  for (const child of children) {
    if (child instanceof Y.XmlText) {
      for (const op of child.toDelta() as Array<{ insert: unknown }>) if (typeof op.insert === 'string') text += op.insert;
    } else if (child instanceof Y.XmlElement) {
      text += isLeafNode(child.nodeName) ? leafText(child) : inlineText(child.toArray());
    }
  }
  return text;
}

function hasInlineContent(element: Y.XmlElement): boolean {
  return element.toArray().some((child) => child instanceof Y.XmlText || (child instanceof Y.XmlElement && inlineNodes.has(child.nodeName) && child.nodeName !== 'image'));
}

/** A block whose children are inline content (one line of plain text); unknown blocks holding text count too. */
export function isTextblock(element: Y.XmlElement): boolean {
  return textblocks.has(element.nodeName) || (!blockNodes.has(element.nodeName) && hasInlineContent(element));
}

function isPictureLine(element: Y.XmlElement): boolean {
  const children = element.toArray();
  return children.length > 0 && children.every((child) => child instanceof Y.XmlElement && child.nodeName === 'image');
}

function collectLines(node: Y.XmlElement | Y.XmlFragment, lines: string[]): void {
  for (const child of node.toArray()) {
    if (child instanceof Y.XmlText) {
      lines.push(inlineText([child]));
      continue;
    }
    if (!(child instanceof Y.XmlElement) && !(child instanceof Y.XmlFragment)) continue;
    const name = child instanceof Y.XmlElement ? child.nodeName : '';
    if (name === 'table') {
      for (const row of child.toArray()) {
        if (!(row instanceof Y.XmlElement)) continue;
        const cells = row.toArray().map((cell) => {
          if (!(cell instanceof Y.XmlElement)) return '';
          const cellLines: string[] = [];
          collectLines(cell, cellLines);
          return cellLines.join(' ');
        });
        lines.push(cells.join('\t'));
      }
    } else if (child instanceof Y.XmlElement && isTextblock(child)) {
      // a line holding only pictures reads as nothing, as a picture does
      if (!isPictureLine(child)) lines.push(inlineText(child.toArray()));
    } else if (name === 'pageBreak') {
      lines.push(PAGE_BREAK_TEXT);
    } else if (name !== 'horizontalRule' && name !== 'image') {
      collectLines(child, lines);
    }
  }
}

/** The text of a rich-text fragment in reading order: one line per textblock, table rows tab-separated, a page break a form feed line. */
export function richTextToPlain(fragment: Y.XmlFragment | Y.XmlElement): string {
  const lines: string[] = [];
  collectLines(fragment, lines);
  return lines.join('\n');
}

// ---------------------------------------------------------------------------------------------------
// Walking

function* elements(node: Y.XmlFragment | Y.XmlElement): Generator<Y.XmlElement> {
  for (const child of node.toArray()) {
    if (child instanceof Y.XmlElement) {
      yield child;
      yield* elements(child);
    }
  }
}

/** Users mentioned in the text, in reading order: `mention` nodes carry `id` (user id) and `guid`. */
export function mentionsIn(fragment: Y.XmlFragment): Array<{ userId: string; atGuid: string }> {
  const found: Array<{ userId: string; atGuid: string }> = [];
  for (const element of elements(fragment)) {
    if (element.nodeName !== 'mention') continue;
    const userId = element.getAttribute('id');
    if (userId === undefined || userId === null) continue;
    found.push({ userId: String(userId), atGuid: String(element.getAttribute('guid') ?? '') });
  }
  return found;
}

/** The `dateMention` nodes of a fragment, in document order, with the element holding each. */
export function dateMentionsIn(fragment: Y.XmlFragment): Array<{ date: string; guid: string; block: Y.XmlFragment | Y.XmlElement }> {
  const found: Array<{ date: string; guid: string; block: Y.XmlFragment | Y.XmlElement }> = [];
  for (const element of elements(fragment)) {
    if (element.nodeName !== 'dateMention') continue;
    const parent = element.parent;
    found.push({
      date: String(element.getAttribute('date') ?? ''),
      guid: String(element.getAttribute('guid') ?? ''),
      block: parent instanceof Y.XmlElement || parent instanceof Y.XmlFragment ? parent : fragment,
    });
  }
  return found;
}

/** Named bookmarks (documentPro), first occurrence of each name, in document order. */
export function bookmarksIn(fragment: Y.XmlFragment): Map<string, Y.XmlElement> {
  const found = new Map<string, Y.XmlElement>();
  for (const element of elements(fragment)) {
    if (element.nodeName !== 'bookmark') continue;
    const name = element.getAttribute('name');
    if (typeof name === 'string' && !found.has(name)) found.set(name, element);
  }
  return found;
}

// ---------------------------------------------------------------------------------------------------
// ProseMirror JSON in

/** Why a ProseMirror JSON value was refused, with the path of the offending node. */
export class InvalidFragment extends Error {}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function checkAttrs(value: unknown, path: string): Record<string, unknown> | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isRecord(value)) throw new InvalidFragment(`${path}.attrs must be an object`);
  for (const [key, attr] of Object.entries(value)) {
    const ok = attr === null || ['string', 'number', 'boolean'].includes(typeof attr);
    if (!ok) throw new InvalidFragment(`${path}.attrs.${key} must be a string, number, boolean or null`);
  }
  return value;
}

function checkNode(value: unknown, path: string, depth: number, inline: boolean): ProseMirrorNode {
  if (depth > MAX_DEPTH) throw new InvalidFragment(`${path}: nested deeper than ${MAX_DEPTH}`);
  if (!isRecord(value)) throw new InvalidFragment(`${path} must be a node object`);
  const type = value.type;
  if (typeof type !== 'string') throw new InvalidFragment(`${path}.type must be a string`);
  if (type === 'text') {
    if (!inline) throw new InvalidFragment(`${path}: text must be inside a paragraph, heading or code block`);
    if (typeof value.text !== 'string' || value.text.length === 0) throw new InvalidFragment(`${path}.text must be a non-empty string`);
    const nodeMarks: ProseMirrorNode['marks'] = [];
    if (value.marks !== undefined) {
      if (!Array.isArray(value.marks)) throw new InvalidFragment(`${path}.marks must be an array`);
      value.marks.forEach((mark, index) => {
        if (!isRecord(mark) || typeof mark.type !== 'string' || !marks.has(mark.type)) {
          throw new InvalidFragment(`${path}.marks[${index}] must be one of ${[...marks].join(', ')}`);
        }
        const attrs = checkAttrs(mark.attrs, `${path}.marks[${index}]`);
        nodeMarks.push(attrs ? { type: mark.type, attrs } : { type: mark.type });
      });
    }
    return { type, text: value.text, marks: nodeMarks };
  }
  // an inline atom given among blocks (an image on a line of its own) is stored in a paragraph of its own,
  // as the editor would hold it: the schema has no block form of it
  if (!inline && inlineNodes.has(type) && !textblocks.has(type)) return { type: 'paragraph', content: [checkNode(value, path, depth + 1, true)] };
  const allowed = inline ? inlineNodes : blockNodes;
  if (!allowed.has(type)) {
    throw new InvalidFragment(`${path}.type ${JSON.stringify(type)} is not a known ${inline ? 'inline' : 'block'} node`);
  }
  const attrs = checkAttrs(value.attrs, path);
  const node: ProseMirrorNode = attrs ? { type, attrs } : { type };
  if (value.content !== undefined) {
    if (!Array.isArray(value.content)) throw new InvalidFragment(`${path}.content must be an array`);
    const childInline = textblocks.has(type);
    node.content = value.content.map((child, index) => checkNode(child, `${path}.content[${index}]`, depth + 1, childInline));
  }
  return node;
}

/**
 * Validates a document fragment given as ProseMirror JSON: a `doc` node, one block node or an array of
 * block nodes. Returns the block nodes; throws InvalidFragment naming the first problem.
 */
export function parseFragment(value: unknown): ProseMirrorNode[] {
  const blocks = Array.isArray(value) ? value : isRecord(value) && value.type === 'doc' ? value.content ?? [] : [value];
  if (!Array.isArray(blocks)) throw new InvalidFragment('doc.content must be an array');
  return blocks.map((block, index) => checkNode(block, `content[${index}]`, 0, false));
}

function markAttributes(node: ProseMirrorNode): Record<string, unknown> {
  const attributes: Record<string, unknown> = {};
  for (const mark of node.marks ?? []) attributes[mark.type] = mark.attrs ?? {};
  return attributes;
}

/** Y nodes for validated ProseMirror nodes; consecutive text runs share one Y.XmlText, as y-prosemirror does. */
export function toYNodes(nodes: ProseMirrorNode[]): Array<Y.XmlElement | Y.XmlText> {
  const out: Array<Y.XmlElement | Y.XmlText> = [];
  let runs: ProseMirrorNode[] = [];
  const flushRuns = () => {
    if (runs.length === 0) return;
    const text = new Y.XmlText();
    text.applyDelta(runs.map((run) => ({ insert: run.text ?? '', attributes: markAttributes(run) })));
    out.push(text);
    runs = [];
  };
  for (const node of nodes) {
    if (node.type === 'text') {
      runs.push(node);
      continue;
    }
    flushRuns();
    const element = new Y.XmlElement(node.type);
    for (const [key, value] of Object.entries(node.attrs ?? {})) {
      if (value !== null && value !== undefined) element.setAttribute(key, value as string);
    }
    if (node.content?.length) element.insert(0, toYNodes(node.content));
    out.push(element);
  }
  flushRuns();
  return out;
}

// ---------------------------------------------------------------------------------------------------
// ProseMirror JSON out

function attrsOf(element: Y.XmlElement): Record<string, unknown> | undefined {
  const attributes = element.getAttributes() as Record<string, unknown>;
  return Object.keys(attributes).length > 0 ? attributes : undefined;
}

function marksOf(attributes: Record<string, unknown> | undefined): ProseMirrorNode['marks'] {
  if (!attributes) return undefined;
  const found = Object.entries(attributes)
    .filter(([type]) => marks.has(type))
    .map(([type, attrs]) => (isRecord(attrs) && Object.keys(attrs).length > 0 ? { type, attrs } : { type }));
  return found.length > 0 ? found : undefined;
}

/**
 * The ProseMirror JSON of rich text as stored (the inverse of `toYNodes`): what exporters map to file
 * formats. Text runs carry their formatting attributes as marks; unknown marks are left out, unknown nodes
 * kept with their name (readers skip what they do not know).
 */
export function toProseMirrorNodes(node: Y.XmlFragment | Y.XmlElement, depth = 0): ProseMirrorNode[] {
  if (depth > MAX_DEPTH) return [];
  const out: ProseMirrorNode[] = [];
  for (const child of node.toArray()) {
    if (child instanceof Y.XmlText) {
      for (const op of child.toDelta() as Array<{ insert: unknown; attributes?: Record<string, unknown> }>) {
        if (typeof op.insert !== 'string' || op.insert.length === 0) continue;
        const runMarks = marksOf(op.attributes);
        out.push(runMarks ? { type: 'text', text: op.insert, marks: runMarks } : { type: 'text', text: op.insert });
      }
    } else if (child instanceof Y.XmlElement) {
      const attrs = attrsOf(child);
      const element: ProseMirrorNode = attrs ? { type: child.nodeName, attrs } : { type: child.nodeName };
      if (!isLeafNode(child.nodeName)) element.content = toProseMirrorNodes(child, depth + 1);
      out.push(element);
    }
  }
  return out;
}

/** Nodes and marks the schema knows; an unknown node gives its content, an unknown mark is dropped (readers skip what they do not know). */
function known(nodes: readonly ProseMirrorNode[]): ProseMirrorNode[] {
  return nodes.flatMap((node): ProseMirrorNode[] => {
    if (node.type !== 'text' && !richTextSchema.nodes[node.type]) return known(node.content ?? []);
    const marks = node.marks?.filter((mark) => richTextSchema.marks[mark.type]);
    return [{ ...node, ...(marks ? { marks } : {}), ...(node.content ? { content: known(node.content) } : {}) }];
  });
}

/** The document node of stored blocks, for Tiptap's renderers (exports). */
export function schemaNodeOf(blocks: readonly ProseMirrorNode[]): SchemaNode {
  return SchemaNode.fromJSON(richTextSchema, { type: 'doc', content: known(blocks) });
}

function linesToParagraphs(text: string): ProseMirrorNode[] {
  return text.split(/\r\n|\r|\n/).map((line) => (line.length > 0 ? { type: 'paragraph', content: [{ type: 'text', text: line }] } : { type: 'paragraph' }));
}

/**
 * Blocks for plain text: one paragraph per line, a form feed a page break (the line ends around it are
 * its own, so the plain text of the result is the text again); the empty text before, between or after
 * form feeds makes no paragraph.
 */
export function paragraphsFromText(text: string): ProseMirrorNode[] {
  const pages = text.split(/(?:\r\n|\r|\n)?\f(?:\r\n|\r|\n)?/);
  if (pages.length === 1) return linesToParagraphs(text);
  const blocks: ProseMirrorNode[] = [];
  pages.forEach((part, index) => {
    if (index > 0) blocks.push({ type: 'pageBreak' });
    if (part.length > 0) blocks.push(...linesToParagraphs(part));
  });
  return blocks;
}
