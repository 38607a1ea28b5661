import * as Y from 'yjs';
import { RICH_TEXT_ROOT, richTextOf } from '../../../model/content.js';
import { isLeafNode, isTextblock, leafText } from '../../../model/rich-text/schema.js';

/**
 * ProseMirror positions over a rich-text Y.XmlFragment, counted as y-prosemirror counts them for the editor
 * bound to it: an element that can hold content takes 1 to open, its content, 1 to close; a leaf (image,
 * rule, hard break, mention) takes 1; each character of a Y.XmlText takes 1; position 0 is before the first
 * block. Build one per read of the document and drop it: sizes are remembered, and the content must not
 * change meanwhile.
 */

/** Where a position is in the Yjs tree, and the chain of children that leads there from the root. */
interface Place {
  /** a text when the position touches one (as y-prosemirror prefers), else the element whose children it is between */
  type: Y.XmlText | Y.XmlFragment;
  index: number;
  path: Array<{ parent: Y.XmlFragment; index: number }>;
}

/** One end of an anchored range: the position itself, then coarser ones, innermost first (see `anchor`). */
export interface AnchoredEnd {
  position: Y.RelativePosition;
  outer: Y.RelativePosition[];
}

function isDeleted(type: { _item: Y.Item | null }): boolean {
  return type._item !== null && type._item.deleted;
}

/** The characters of a text between two offsets; embeds count one position and read as nothing. */
function sliceText(text: Y.XmlText, from: number, to: number): string {
  let result = '';
  let offset = 0;
  for (const op of text.toDelta() as Array<{ insert: unknown }>) {
    if (offset >= to) break;
    const length = typeof op.insert === 'string' ? op.insert.length : 1;
    if (typeof op.insert === 'string' && offset + length > from) result += op.insert.slice(Math.max(0, from - offset), to - offset);
    offset += length;
  }
  return result;
}

export class RichTextPositions {
  private readonly sizes = new Map<Y.XmlFragment, number>();
  private readonly fragment: Y.XmlFragment;

  constructor(private readonly doc: Y.Doc) {
    this.fragment = richTextOf(doc);
  }

  /** The document's content size: positions run from 0 to this. */
  get size(): number {
    return this.contentSize(this.fragment);
  }

  private sizeOf(node: unknown): number {
    if (node instanceof Y.XmlText) return node.length;
    if (node instanceof Y.XmlElement) return isLeafNode(node.nodeName) ? 1 : 2 + this.contentSize(node);
    return 0; // hooks are not ProseMirror nodes: y-prosemirror gives them no size
  }

  private contentSize(container: Y.XmlFragment): number {
    let size = this.sizes.get(container);
    if (size === undefined) {
      size = 0;
      for (const child of container.toArray()) size += this.sizeOf(child);
      this.sizes.set(container, size);
    }
    return size;
  }

  /** `pos` (0 ≤ pos ≤ size) in the tree. */
  private locate(pos: number): Place {
    const path: Place['path'] = [];
    let container = this.fragment;
    let rest = pos;
    descend: for (;;) {
      const children = container.toArray();
      let offset = 0;
      for (let index = 0; index < children.length; index++) {
        const child = children[index]!;
        const size = this.sizeOf(child);
        // The end of a text is also the start of what follows it; y-prosemirror anchors such a position in the text.
        if (child instanceof Y.XmlText && rest <= offset + size) {
          path.push({ parent: container, index });
          return { type: child, index: rest - offset, path };
        }
        if (child instanceof Y.XmlElement && !isLeafNode(child.nodeName) && rest > offset && rest < offset + size) {
          path.push({ parent: container, index });
          container = child;
          rest -= offset + 1;
          continue descend;
        }
        if (rest === offset) return { type: container, index, path };
        offset += size;
      }
      return { type: container, index: children.length, path };
    }
  }

  /**
   * Relative positions for the ends of `from..to`, as y-prosemirror's absolutePositionToRelativePosition
   * makes them (so an editor resolves them to the same positions), each with coarser fallbacks: Yjs garbage
   * collects the content of a deleted element, so a position inside a paragraph that was deleted as a whole
   * no longer resolves; the position of that paragraph itself (or of an enclosing element) in its live parent
   * still does, to where it was. The start falls back to "before the enclosing element", the end to "after"
   * it, so a range keeps what survives and collapses when nothing does.
   */
  anchor(from: number, to: number): { start: AnchoredEnd; end: AnchoredEnd } {
    const end = (pos: number, side: 'start' | 'end'): AnchoredEnd => {
      const place = this.locate(pos);
      const outer = place.path
        .slice()
        .reverse()
        .map(({ parent, index }) => (side === 'start' ? Y.createRelativePositionFromTypeIndex(parent, index) : Y.createRelativePositionFromTypeIndex(parent, index + 1, -1)));
      return { position: Y.createRelativePositionFromTypeIndex(place.type, place.index), outer };
    };
    return { start: end(from, 'start'), end: end(to, 'end') };
  }

  /**
   * The position a relative position names now, counted as y-prosemirror's relativePositionToAbsolutePosition
   * counts it (a place inside deleted content is where that content was); undefined when it does not resolve
   * in this document's rich text.
   */
  positionOf(relative: Y.RelativePosition): number | undefined {
    // Resolving a root type name creates that root: only this document's own root may be named.
    if (relative.tname !== null && relative.tname !== RICH_TEXT_ROOT) return undefined;
    const absolute = Y.createAbsolutePositionFromRelativePosition(relative, this.doc);
    if (!absolute) return undefined;
    if (!(absolute.type instanceof Y.XmlText || absolute.type instanceof Y.XmlFragment)) return undefined;
    let type: Y.XmlText | Y.XmlFragment = absolute.type;
    if (type !== this.fragment && !Y.isParentOf(this.fragment, type._item)) return undefined;

    let pos = 0;
    if (!isDeleted(type)) {
      if (type instanceof Y.XmlText) pos = absolute.index;
      else for (const child of type.toArray().slice(0, absolute.index)) pos += this.sizeOf(child);
    }
    while (type !== this.fragment) {
      const item = type._item!;
      const parent = item.parent as Y.XmlFragment;
      let before = 0;
      for (let sibling = parent._start; sibling !== null && sibling !== item; sibling = sibling.right) {
        if (!sibling.deleted && sibling.content instanceof Y.ContentType) before += this.sizeOf(sibling.content.type);
      }
      // Inside a deleted element only its place in the parent is left; a text has no opening token of its own.
      pos = before + (isDeleted(type) ? 0 : type instanceof Y.XmlText ? pos : 1 + pos);
      type = parent;
    }
    return pos;
  }

  /**
   * The text between two positions as ProseMirror's `textBetween(from, to, "\n")` reads it, with leaves as
   * plain text reads them (mentions `@label`, hard breaks line breaks): a line break between textblocks.
   * `coversText`: the range holds at least one character or mention, not only structure, images and breaks.
   */
  textBetween(from: number, to: number): { text: string; coversText: boolean } {
    let text = '';
    let coversText = false;
    let firstBlock = true;
    const visit = (container: Y.XmlFragment, contentStart: number, inTextblock: boolean): void => {
      let pos = contentStart;
      for (const child of container.toArray()) {
        if (pos >= to) return;
        const size = this.sizeOf(child);
        if (pos + size > from) {
          if (child instanceof Y.XmlText) {
            const slice = sliceText(child, Math.max(from, pos) - pos, to - pos);
            text += slice;
            coversText ||= slice.length > 0;
          } else if (child instanceof Y.XmlElement && isLeafNode(child.nodeName)) {
            const read = leafText(child);
            text += read;
            coversText ||= /\S/.test(read);
          } else if (child instanceof Y.XmlElement) {
            const textblock = !inTextblock && isTextblock(child);
            if (textblock) {
              if (!firstBlock) text += '\n';
              firstBlock = false;
            }
            visit(child, pos + 1, inTextblock || textblock);
          }
        }
        pos += size;
      }
    };
    visit(this.fragment, 0, false);
    return { text, coversText };
  }
}
