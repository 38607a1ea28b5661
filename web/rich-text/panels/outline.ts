import type { Editor } from '@tiptap/core';
import type { Node as ProseMirrorNode } from '@tiptap/pm/model';

/** A node of the document found by a panel (a heading, a bookmark) and where it starts. */
export interface Located {
  node: ProseMirrorNode;
  pos: number;
}

/** The nodes of type `name` in document order. */
export function nodesOfType(doc: ProseMirrorNode, name: string): Located[] {
  const found: Located[] = [];
  doc.descendants((node, pos) => {
    if (node.type.name === name) found.push({ node, pos });
    // text blocks hold no headings or bookmarks: no need to walk their inline content
    return !node.isTextblock;
  });
  return found;
}

/** Scrolls the editor so the node starting at `pos` is in view (without moving anyone's caret). */
export function scrollToNode(editor: Editor, pos: number): void {
  const dom = editor.view.nodeDOM(pos);
  const element = dom instanceof Element ? dom : dom?.parentElement;
  element?.scrollIntoView({ block: 'start', behavior: 'smooth' });
}

/** Calls `render` after the document changed, at most once per frame. */
export function onDocumentChange(editor: Editor, render: () => void): void {
  let frame = 0;
  editor.on('update', () => {
    if (frame) return;
    frame = requestAnimationFrame(() => {
      frame = 0;
      render();
    });
  });
}
