import { revertSuggestions } from '@handlewithcare/prosemirror-suggest-changes';
import type { Node as SchemaNode } from '@tiptap/pm/model';
import { EditorState } from '@tiptap/pm/state';
import { SUGGESTION_MARK_NAMES, suggestionsOf } from './marks/suggestion.js';

/**
 * What a user who may comment but not edit (`commentable` without `editable`) may change in a rich-text body: only
 * suggestions of their own (docs/BROWSER.md "Suggestions"). The rule the service checks on each of their updates:
 * - the body with every suggestion rejected is the same before and after (they proposed, nothing else changed);
 * - every suggestion they added names them as its author;
 * - every suggestion of someone else reads the same text before and after (they neither accepted, rejected nor
 *   rewrote another's proposal).
 * Rejecting uses the suggestion library's own command, so the rule means exactly what the editor's Reject does.
 */

/** Why a change is not a suggestion of its author's own: `edit` (the body changed), `author` (a suggestion names someone else), `others` (another's suggestion changed). */
export type SuggestingOnlyRefusal = 'edit' | 'author' | 'others';

/** The body with every suggestion rejected: insertions gone, deletions kept as plain text, modifications undone. */
export function withSuggestionsRejected(doc: SchemaNode): SchemaNode {
  let rejected = doc;
  revertSuggestions(EditorState.create({ doc }), (transaction) => {
    rejected = transaction.doc;
  });
  return rejected;
}

/** The ids of every suggestion mark (insertion, deletion, modification) of a body, with the authors they name. */
function suggestionAuthors(doc: SchemaNode): Map<string, unknown> {
  const authors = new Map<string, unknown>();
  doc.descendants((node) => {
    for (const mark of node.marks) if (SUGGESTION_MARK_NAMES.includes(mark.type.name)) authors.set(`${mark.type.name}\n${String(mark.attrs.id)}`, mark.attrs.author);
    return true;
  });
  return authors;
}

/** Why `after` is not `before` with suggestions of `userId` only; undefined when it is. */
export function suggestingOnlyRefusal(before: SchemaNode, after: SchemaNode, userId: string): SuggestingOnlyRefusal | undefined {
  if (!withSuggestionsRejected(before).eq(withSuggestionsRejected(after))) return 'edit';
  const authorsBefore = suggestionAuthors(before);
  for (const [key, author] of suggestionAuthors(after)) if (!authorsBefore.has(key) && author !== userId) return 'author';
  const textAfter = new Map(suggestionsOf(after).map((suggestion) => [`${suggestion.kind}\n${String(suggestion.id)}`, suggestion.text]));
  for (const suggestion of suggestionsOf(before)) {
    if (suggestion.author === userId) continue;
    if (textAfter.get(`${suggestion.kind}\n${String(suggestion.id)}`) !== suggestion.text) return 'others';
  }
  return undefined;
}
