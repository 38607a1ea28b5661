import { Mark, type Attributes } from '@tiptap/core';
import type { Mark as ProseMirrorMark, Node as ProseMirrorNodeType } from '@tiptap/pm/model';

/**
 * Suggestions (track changes, docs/CONTENT-MODEL.md "Suggestions"): `insertion` marks text someone proposes to
 * add, `deletion` text someone proposes to remove (it stays in the document until the deletion is accepted),
 * `modification` a proposed change of a node's attributes or marks. The names and the `id` attribute are the
 * ones `@handlewithcare/prosemirror-suggest-changes` works with (the editor's suggesting mode,
 * web/rich-text/suggestions.ts); ours add who suggested it and when, which Word revisions carry too
 * (`w:ins`/`w:del` with `w:author`, `w:date`).
 *
 * One suggestion may span several text runs: they share its `id`. HTML carries them as `<ins>`/`<del>` with
 * `data-suggestion-id` (a plain `<del>` stays a strike-through, a plain `<ins>` plain text); Markdown as the
 * same inline HTML tags, which GFM renders.
 */

/** The kinds of suggestion a reader of the document reports (the `modification` mark has no text of its own). */
export type SuggestionKind = 'insertion' | 'deletion';
export const SUGGESTION_KINDS: readonly SuggestionKind[] = ['insertion', 'deletion'];
/** Every suggestion mark: content under review, not formatting (clearing formatting leaves them). */
export const SUGGESTION_MARK_NAMES: readonly string[] = [...SUGGESTION_KINDS, 'modification'];

/** Who suggested a change and when: the attributes every suggestion mark carries. */
export interface SuggestionAttrs {
  /** the suggestion's own id, shared by every run of it */
  id: string | number | null;
  /** the integrator's user id of the author */
  author: string | null;
  /** the author's name as shown when it was made (Word's `w:author` is a name) */
  authorName: string | null;
  /** ISO 8601 time it was made */
  date: string | null;
}

function textAttribute(name: string): Attributes[string] {
  return {
    default: null,
    parseHTML: (element) => element.getAttribute(`data-${name}`),
    renderHTML: (attributes) => (typeof attributes[camel(name)] === 'string' ? { [`data-${name}`]: attributes[camel(name)] } : {}),
  };
}

function camel(name: string): string {
  return name.replace(/-(\w)/g, (_, letter: string) => letter.toUpperCase());
}

/** The attributes of every suggestion mark (SuggestionAttrs), read from and written to HTML data attributes. */
const suggestionAttributes = (): Attributes => ({
  id: {
    default: null,
    parseHTML: (element) => element.getAttribute('data-suggestion-id'),
    renderHTML: (attributes) => (attributes.id === null || attributes.id === undefined ? {} : { 'data-suggestion-id': String(attributes.id) }),
  },
  author: textAttribute('author'),
  authorName: textAttribute('author-name'),
  date: textAttribute('date'),
});

function suggestionMark(name: SuggestionKind, tag: 'ins' | 'del') {
  return Mark.create({
    name,
    // text typed right after a suggestion is not part of it unless the suggesting mode makes it one
    inclusive: false,
    excludes: 'insertion deletion modification',
    addAttributes: suggestionAttributes,
    parseHTML() {
      // before the strike-through's plain `<del>` rule
      return [{ tag: `${tag}[data-suggestion-id]`, priority: 60 }];
    },
    renderHTML({ HTMLAttributes }) {
      return [tag, { ...HTMLAttributes, class: `svc-suggestion svc-suggestion-${name}` }, 0];
    },
    markdownForm: { kind: 'emphasis', delimiter: `<${tag}>`, closingDelimiter: `</${tag}>` },
  });
}

export const insertion = suggestionMark('insertion', 'ins');
export const deletion = suggestionMark('deletion', 'del');

/**
 * `modification`: a proposed change of a node's type, attributes or marks (`type`, `attrName`, `previousValue`,
 * `newValue` as the library writes them). Shown, accepted and rejected like the others; not exported (docx
 * has property revisions the exporter does not write yet, Markdown none).
 */
export const modification = Mark.create({
  name: 'modification',
  inclusive: false,
  excludes: 'insertion deletion',
  addAttributes: () => ({
    ...suggestionAttributes(),
    type: { default: null, parseHTML: (element) => element.getAttribute('data-mod-type'), renderHTML: (attributes) => (attributes.type ? { 'data-mod-type': String(attributes.type) } : {}) },
    attrName: { default: null, rendered: false },
    previousValue: { default: null, rendered: false },
    newValue: { default: null, rendered: false },
  }),
  parseHTML() {
    return [{ tag: 'span[data-suggestion-id][data-mod-type]', priority: 60 }];
  },
  renderHTML({ HTMLAttributes }) {
    return ['span', { ...HTMLAttributes, class: 'svc-suggestion svc-suggestion-modification' }, 0];
  },
});

/** One suggestion of a document: its runs' text joined, where it starts and ends. */
export interface Suggestion extends SuggestionAttrs {
  id: string | number;
  kind: SuggestionKind;
  /** the suggested (insertion) or struck (deletion) text, zero-width anchors left out */
  text: string;
  from: number;
  to: number;
}

function isSuggestionMark(mark: ProseMirrorMark): mark is ProseMirrorMark & { type: { name: SuggestionKind } } {
  return (SUGGESTION_KINDS as readonly string[]).includes(mark.type.name) && mark.attrs.id !== null && mark.attrs.id !== undefined;
}

/**
 * Every insertion and deletion of a document in reading order, one entry per id and kind (a replacement is an
 * insertion and a deletion sharing an id). What the suggestions panel lists and the server announces.
 */
export function suggestionsOf(doc: ProseMirrorNodeType): Suggestion[] {
  const found = new Map<string, Suggestion>();
  doc.descendants((node, pos) => {
    for (const mark of node.marks) {
      if (!isSuggestionMark(mark)) continue;
      const kind = mark.type.name;
      const key = `${kind}\n${String(mark.attrs.id)}`;
      const text = node.isText ? (node.text ?? '').replace(/\u200B/g, '') : '';
      const entry = found.get(key);
      if (entry) {
        entry.text += text;
        entry.to = pos + node.nodeSize;
      } else {
        const attrs = mark.attrs as SuggestionAttrs;
        found.set(key, { kind, id: mark.attrs.id as string | number, author: attrs.author, authorName: attrs.authorName, date: attrs.date, text, from: pos, to: pos + node.nodeSize });
      }
    }
    return true;
  });
  return [...found.values()];
}
