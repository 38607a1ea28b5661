import { diffArrays, diffWordsWithSpace } from 'diff';
import type { ProseMirrorNode } from './node-json.js';

/**
 * What changed between two versions of a rich-text document (docs/CONTENT-MODEL.md "Comparing versions"): the
 * documents as their text blocks (paragraphs, headings, list items, table cells, code blocks: each leaf block
 * with its text; images, mentions and hard breaks as their text form), compared block by block and, where a block
 * was replaced, word by word, with the `diff` library (BSD-3-Clause: Myers' algorithm). Browser-safe: the
 * service answers it (`history/{a}/compare/{b}`) and the history panel draws it.
 */

/** One text block of a document: its node type and, for a heading, its level; the text it shows. */
export interface TextBlock {
  type: string;
  level?: number;
  text: string;
}

/** A run of a compared block's text: unchanged, or inserted / deleted between the two versions. */
export interface ComparedRun {
  text: string;
  change?: 'insert' | 'delete';
}

/**
 * A block of the comparison, in document order: `equal` (in both, same text), `inserted` (only in the newer),
 * `deleted` (only in the older), or `changed` (its text edited: the runs say which words).
 */
export interface ComparedBlock {
  status: 'equal' | 'inserted' | 'deleted' | 'changed';
  type: string;
  level?: number;
  runs: ComparedRun[];
}

export interface Comparison {
  blocks: ComparedBlock[];
  /** characters inserted and deleted, over the whole document */
  inserted: number;
  deleted: number;
}

/** Leaf blocks whose content is inline (text and inline nodes); any other node is looked into. */
const INLINE_HOLDERS = new Set(['paragraph', 'heading', 'codeBlock']);

function inlineText(node: ProseMirrorNode): string {
  if (node.type === 'text') return node.text ?? '';
  if (node.type === 'hardBreak') return '\n';
  if (node.type === 'mention') return `@${String(node.attrs?.label ?? node.attrs?.id ?? '')}`;
  if (node.type === 'image') return `[${String(node.attrs?.alt || 'image')}]`;
  return (node.content ?? []).map(inlineText).join('');
}

/** The document's text blocks in reading order. */
export function textBlocks(nodes: readonly ProseMirrorNode[]): TextBlock[] {
  const blocks: TextBlock[] = [];
  const walk = (node: ProseMirrorNode) => {
    if (INLINE_HOLDERS.has(node.type)) {
      const level = node.type === 'heading' && typeof node.attrs?.level === 'number' ? { level: node.attrs.level } : {};
      blocks.push({ type: node.type, ...level, text: (node.content ?? []).map(inlineText).join('') });
    } else if (node.type === 'image' || node.type === 'horizontalRule' || node.type === 'pageBreak') {
      blocks.push({ type: node.type, text: node.type === 'image' ? inlineText(node) : '' });
    } else {
      for (const child of node.content ?? []) walk(child);
    }
  };
  for (const node of nodes) walk(node);
  return blocks;
}

const sameBlock = (a: TextBlock, b: TextBlock) => a.type === b.type && a.level === b.level && a.text === b.text;

function whole(block: TextBlock, status: 'equal' | 'inserted' | 'deleted'): ComparedBlock {
  const change = status === 'inserted' ? 'insert' : status === 'deleted' ? 'delete' : undefined;
  return { status, type: block.type, ...(block.level === undefined ? {} : { level: block.level }), runs: block.text ? [{ text: block.text, ...(change ? { change } : {}) }] : [] };
}

/**
 * Below this share of unchanged (non-space) characters a block is not shown as edited word by word but as
 * replaced: a paragraph rewritten, whose few common words ("the", a space) would only chop it into pieces.
 */
const KEPT_SHARE_OF_AN_EDIT = 1 / 3;

const visibleLength = (text: string) => text.replace(/\s+/g, '').length;

/** A block of the older version edited into one of the newer: its words compared, or both whole when little is kept. */
function edited(older: TextBlock, newer: TextBlock): ComparedBlock[] {
  const runs: ComparedRun[] = diffWordsWithSpace(older.text, newer.text).map((part) => ({
    text: part.value,
    ...(part.added ? { change: 'insert' as const } : part.removed ? { change: 'delete' as const } : {}),
  }));
  const kept = runs.reduce((sum, run) => sum + (run.change ? 0 : visibleLength(run.text)), 0);
  if (kept < KEPT_SHARE_OF_AN_EDIT * Math.max(visibleLength(older.text), visibleLength(newer.text))) return [whole(older, 'deleted'), whole(newer, 'inserted')];
  return [{ status: 'changed', type: newer.type, ...(newer.level === undefined ? {} : { level: newer.level }), runs }];
}

/**
 * The comparison of `older` with `newer`: blocks in the newer document's order, deleted blocks where they stood.
 * Blocks removed and added at the same place are paired in order as edits of one another when they are of the
 * same type (a paragraph whose words changed); the rest stay whole insertions and deletions.
 */
export function compareDocuments(older: readonly ProseMirrorNode[], newer: readonly ProseMirrorNode[]): Comparison {
  const blocks: ComparedBlock[] = [];
  let removed: TextBlock[] = [];
  let added: TextBlock[] = [];
  const flush = () => {
    const pairs = Math.min(removed.length, added.length);
    for (let index = 0; index < pairs; index++) {
      const [was, is] = [removed[index]!, added[index]!];
      if (was.type === is.type) blocks.push(...edited(was, is));
      else blocks.push(whole(was, 'deleted'), whole(is, 'inserted'));
    }
    for (const block of removed.slice(pairs)) blocks.push(whole(block, 'deleted'));
    for (const block of added.slice(pairs)) blocks.push(whole(block, 'inserted'));
    removed = [];
    added = [];
  };
  for (const part of diffArrays(textBlocks(older), textBlocks(newer), { comparator: sameBlock })) {
    if (part.removed) removed.push(...part.value);
    else if (part.added) added.push(...part.value);
    else {
      flush();
      for (const block of part.value) blocks.push(whole(block, 'equal'));
    }
  }
  flush();
  let inserted = 0;
  let deleted = 0;
  for (const run of blocks.flatMap((block) => block.runs)) {
    if (run.change === 'insert') inserted += run.text.length;
    if (run.change === 'delete') deleted += run.text.length;
  }
  return { blocks, inserted, deleted };
}
