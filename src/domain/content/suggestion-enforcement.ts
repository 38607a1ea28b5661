import type { Node as SchemaNode } from '@tiptap/pm/model';
import * as Y from 'yjs';
import { RICH_TEXT_ROOT, richTextOf } from '../../model/content.js';
import { schemaNodeOf, toProseMirrorNodes } from '../../model/rich-text/schema.js';
import { suggestingOnlyRefusal, type SuggestingOnlyRefusal } from '../../model/rich-text/suggesting-only.js';
import { tryOnTrialCopy } from './trial-copy.js';

/**
 * Users who may comment but not edit suggest (docs/BROWSER.md "Suggestions"): each update such a user sends is
 * tried on a copy of the live document (trial-copy.ts) and refused whole, before the live document or the log
 * sees any of it, unless it only adds or changes suggestions of their own (suggesting-only.ts) and leaves every
 * other part of the document (page setup, anything else) as it was. Cost per update: the body read twice as
 * ProseMirror nodes and every suggestion rejected on both (linear in the document's size); editors' updates
 * are not checked.
 */

/** The update was refused: it does more than suggest. Nothing of it was applied. */
export class SuggestingOnlyRefused extends Error {
  constructor(readonly reason: SuggestingOnlyRefusal) {
    super(`update refused: a user who may only suggest changed the document (${reason})`);
  }
}

/** The body as the editor's ProseMirror document (an empty body as the editor opens it: one empty paragraph). */
function bodyOf(doc: Y.Doc): SchemaNode {
  const node = schemaNodeOf(toProseMirrorNodes(richTextOf(doc)));
  return node.type.createAndFill(node.attrs, node.content) ?? node;
}

/** Every root but the body, as JSON: what a suggestion must leave alone. */
function otherRoots(doc: Y.Doc): string {
  return JSON.stringify([...doc.share.keys()].filter((name) => name !== RICH_TEXT_ROOT).sort().map((name) => [name, doc.share.get(name)!.toJSON()]));
}

/** Throws SuggestingOnlyRefused when `update` from `userId`, who may only suggest, does more; `doc` is left as it was. */
export function refuseUnsuggestedUpdate(doc: Y.Doc, update: Uint8Array, userId: string): void {
  const refusal = tryOnTrialCopy(doc, (copy): SuggestingOnlyRefusal | undefined => {
    const before = bodyOf(copy);
    const rootsBefore = otherRoots(copy);
    Y.applyUpdate(copy, update);
    return suggestingOnlyRefusal(before, bodyOf(copy), userId) ?? (otherRoots(copy) === rootsBefore ? undefined : 'edit');
  });
  if (refusal) throw new SuggestingOnlyRefused(refusal);
}
