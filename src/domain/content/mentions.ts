import * as Y from 'yjs';
import { richTextOf, slideMaps, type ContentKind } from '../../model/content.js';
import { isCalendarDate } from '../../model/rich-text/nodes/date-mention.js';
import { dateMentionsIn, mentionsIn } from '../../model/rich-text/schema.js';

/** File kinds whose content holds rich text, hence mentions (`mention` nodes, docs/CONTENT-MODEL.md). */
export const MENTION_KINDS: readonly ContentKind[] = ['document', 'documentPro', 'presentation'];

/** A `mention` node of a file's content. */
export interface ContentMention {
  userId: string;
  /** the mention's `guid`; '' when the node has none */
  atGuid: string;
  /** the textblock holding the mention (its text is the mention's context) */
  block: Y.XmlFragment;
}

/** The rich text of a file's content: the document, or every text box of every slide, in reading order. */
function richTextsOf(doc: Y.Doc, kind: ContentKind): Y.XmlFragment[] {
  switch (kind) {
    case 'document':
    case 'documentPro':
      return [richTextOf(doc)];
    case 'presentation':
      return slideMaps(doc)
        .flatMap((slide) => {
          const boxes = slide.get('boxes');
          return boxes instanceof Y.Array ? (boxes.toArray() as unknown[]) : [];
        })
        .flatMap((box) => (box instanceof Y.Map && box.get('content') instanceof Y.XmlFragment ? [box.get('content') as Y.XmlFragment] : []));
    case 'spreadsheet':
      return [];
  }
}

/** Whether the node's children are inline content (text runs, mentions): a textblock. */
function holdsInline(node: Y.XmlFragment): boolean {
  return node.toArray().some((child) => child instanceof Y.XmlText || (child instanceof Y.XmlElement && child.nodeName === 'mention'));
}

function collect(node: Y.XmlFragment, found: ContentMention[]): void {
  if (holdsInline(node)) {
    for (const mention of mentionsIn(node)) found.push({ ...mention, block: node });
    return;
  }
  for (const child of node.toArray()) if (child instanceof Y.XmlElement) collect(child, found);
}

/**
 * The users mentioned in a file's content (documents, and presentation text boxes), in reading order, each
 * with the textblock holding it: one walk of the content. Spreadsheets have none.
 */
export function mentionsOfContent(doc: Y.Doc, kind: ContentKind): ContentMention[] {
  const found: ContentMention[] = [];
  for (const fragment of richTextsOf(doc, kind)) collect(fragment, found);
  return found;
}

/** A `dateMention` node of a file's content: a calendar date and its guid (a date mention's positionId). */
export interface ContentDateMention {
  /** `YYYY-MM-DD` */
  date: string;
  guid: string;
  /** the element holding it (its text is the date mention's context) */
  block: Y.XmlFragment | Y.XmlElement;
}

/** The date mentions written in a file's content, in reading order; nodes without a guid or a real date are left out. */
export function dateMentionsOfContent(doc: Y.Doc, kind: ContentKind): ContentDateMention[] {
  return richTextsOf(doc, kind)
    .flatMap((fragment) => dateMentionsIn(fragment))
    .filter((mention) => mention.guid.length > 0 && isCalendarDate(mention.date));
}
