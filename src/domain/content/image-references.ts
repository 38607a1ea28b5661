import * as Y from 'yjs';
import { richTextOf, slideMaps, type ContentKind } from '../../model/content.js';

/** A place in the content that shows an image by its `src`; `set` changes it, `remove` takes the image out (inside a transaction of the doc). */
export interface ImageReference {
  readonly src: string;
  set(src: string): void;
  remove(): void;
}

/** Takes `item` out of its parent (an XML node or an array of boxes), wherever it stands now. */
function removeFrom(parent: Y.XmlFragment | Y.XmlElement | Y.Array<unknown>, item: unknown): void {
  const index = parent.toArray().indexOf(item as never);
  if (index >= 0) parent.delete(index, 1);
}

/**
 * Every image the content shows: `image` nodes of rich text (documents, slides' text boxes) and image boxes of
 * slides. Spreadsheets show none. Used where a file's images must follow the file (a copy owns copies of them).
 */
export function imageReferencesOf(doc: Y.Doc, kind: ContentKind): ImageReference[] {
  const found: ImageReference[] = [];
  const walk = (node: Y.XmlFragment | Y.XmlElement) => {
    for (const child of node.toArray()) {
      if (!(child instanceof Y.XmlElement)) continue;
      const src = child.nodeName === 'image' ? child.getAttribute('src') : undefined;
      if (typeof src === 'string') found.push({ src, set: (value) => child.setAttribute('src', value), remove: () => removeFrom(node, child) });
      walk(child);
    }
  };
  if (kind === 'document' || kind === 'documentPro') walk(richTextOf(doc));
  if (kind === 'presentation') {
    for (const slide of slideMaps(doc)) {
      const boxes = slide.get('boxes');
      if (!(boxes instanceof Y.Array)) continue;
      for (const box of boxes.toArray()) {
        if (!(box instanceof Y.Map)) continue;
        const src = box.get('src');
        const content = box.get('content');
        if (typeof src === 'string') found.push({ src, set: (value) => box.set('src', value), remove: () => removeFrom(boxes, box) });
        if (content instanceof Y.XmlFragment) walk(content);
      }
    }
  }
  return found;
}
