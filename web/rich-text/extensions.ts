import { type AnyExtension } from '@tiptap/core';
import Collaboration from '@tiptap/extension-collaboration';
import CollaborationCaret from '@tiptap/extension-collaboration-caret';
import { Placeholder } from '@tiptap/extensions';
import { Markdown } from '@tiptap/markdown';
import type { HocuspocusProvider } from '@hocuspocus/provider';
import type * as Y from 'yjs';
import { documentEnd } from './document-end.js';
import { modelExtensions, type ModelHost } from './model.js';
import { wordPaste } from './paste.js';

/** What a caret shows of its user: the awareness `user` field (identity travels separately, collaboration.ts). */
export interface CaretUser {
  name: string;
  color: string;
}

export interface RichTextOptions {
  /** the Yjs document; the rich text is its `default` XmlFragment (docs/CONTENT-MODEL.md) */
  doc: Y.Doc;
  /** another XmlFragment of `doc` to bind instead of `default` (a presentation's text box) */
  fragment?: Y.XmlFragment;
  /** the collaboration provider whose awareness carries carets; none for a read-only view of an old version */
  provider?: HocuspocusProvider;
  user?: CaretUser;
  host: ModelHost;
  /** what an empty document shows where the text will go (an editor page's; none in a text box) */
  placeholder?: string;
}

/**
 * The model bound to the file's Yjs document, with Markdown (the SDK's insertMarkdown) and Word paste. Undo
 * and redo come from the collaboration binding: each user undoes only their own changes.
 */
export function richTextExtensions(options: RichTextOptions): AnyExtension[] {
  return [
    // a text box (a fragment other than the document's) has no pages: Ctrl+Enter stays a line break there
    ...modelExtensions(options.host, { pageBreaks: options.fragment === undefined }),
    Markdown,
    wordPaste,
    documentEnd,
    ...(options.placeholder ? [Placeholder.configure({ placeholder: options.placeholder, showOnlyWhenEditable: true })] : []),
    Collaboration.configure(options.fragment ? { fragment: options.fragment } : { document: options.doc, field: 'default' }),
    ...(options.provider && options.user ? [CollaborationCaret.configure({ provider: options.provider, user: { ...options.user } })] : []),
  ];
}
