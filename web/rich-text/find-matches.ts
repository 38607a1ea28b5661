import type { Node as ProseMirrorNode } from '@tiptap/pm/model';

/*
 * The search of the rich-text find bar (find-replace.ts), apart from it so that it needs no page: tests run it
 * on a bare schema.
 */

export interface FindOptions {
  /** upper and lower case must match (default: they need not) */
  matchCase: boolean;
  /** the match may not continue a word on either side (default: any part of the text) */
  wholeWord: boolean;
}

/** A found stretch of text, as document positions. */
export interface TextMatch {
  from: number;
  to: number;
}

/** Most matches one search finds and highlights (a longer document counts "n of 10000+"). */
export const MAX_MATCHES = 10_000;

/** Stands for an inline node that is not text (an image, a mention): it takes one position and matches nothing. */
const OBJECT_CHARACTER = '\ufffc';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * What `query` matches as a regular expression over one text block. A whole word is bounded by anything but a
 * letter, digit or underscore of any script (so "cat" is not found in "concatenate" nor "猫" in "小猫咪").
 */
function matcher(query: string, options: FindOptions): RegExp {
  const escaped = escapeRegExp(query);
  const source = options.wholeWord ? `(?<![\\p{L}\\p{N}_])${escaped}(?![\\p{L}\\p{N}_])` : escaped;
  return new RegExp(source, options.matchCase ? 'gu' : 'giu');
}

/**
 * Every match of `query` in `doc`, in document order. Each text block is searched on its own (a match never
 * spans two paragraphs); within a block every character is one position, so an offset maps straight back.
 */
export function findMatches(doc: ProseMirrorNode, query: string, options: FindOptions): TextMatch[] {
  if (query === '') return [];
  const pattern = matcher(query, options);
  const matches: TextMatch[] = [];
  doc.descendants((block, position) => {
    if (matches.length >= MAX_MATCHES) return false;
    if (!block.isTextblock) return true;
    let text = '';
    block.forEach((child) => {
      text += child.isText ? child.text! : OBJECT_CHARACTER.repeat(child.nodeSize);
    });
    const start = position + 1;
    for (const found of text.matchAll(pattern)) {
      matches.push({ from: start + found.index, to: start + found.index + found[0].length });
      if (matches.length >= MAX_MATCHES) break;
    }
    return false;
  });
  return matches;
}
