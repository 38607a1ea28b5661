import type { Editor } from '@tiptap/core';
import { createMappablePosition } from '@tiptap/extension-collaboration';
import * as Y from 'yjs';
import { bytesToBase64 } from '../../../shared/base64.js';
import type { DocumentSelection } from '../../../shared/panels/comments/comment-store.js';

/**
 * The selection `from`-`to` as the comment API takes it: the Yjs relative positions y-prosemirror gives for
 * both ends (docs/CONVERSATIONS.md "Selections"), so the range names the same text however the document
 * changed between choosing it and sending the comment.
 */
export function anchorOf(editor: Editor, from: number, to: number): DocumentSelection {
  const encode = (pos: number) => {
    const relative = createMappablePosition(pos, editor.state).yRelativePosition as Y.RelativePosition | null;
    if (!relative) throw new Error('the editor is not bound to the collaborative document');
    return bytesToBase64(Y.encodeRelativePosition(relative));
  };
  return { start: encode(from), end: encode(to) };
}
