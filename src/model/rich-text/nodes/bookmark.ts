import { mergeAttributes, Node } from '@tiptap/core';

declare module '@tiptap/core' {
  interface Commands<ReturnType> {
    bookmark: {
      /** Wraps the selected blocks in a bookmark called `name` (names are unique in the file: see bookmarkNames). */
      setBookmark: (name: string) => ReturnType;
      /** Renames the bookmark `from` to `to`. */
      renameBookmark: (from: string, to: string) => ReturnType;
      /** Removes the bookmark `name`, keeping the blocks it wrapped. */
      removeBookmark: (name: string) => ReturnType;
    };
  }
}

/**
 * `bookmark` (documentPro, docs/CONTENT-MODEL.md): a container wrapping the blocks it names, attribute `name`.
 * The backend's bookmark endpoints (`bookmarksIn`) read and replace what it wraps.
 */
export const Bookmark = Node.create({
  name: 'bookmark',
  group: 'block',
  content: 'block+',
  defining: true,

  addAttributes() {
    return {
      name: { default: null, parseHTML: (element) => element.getAttribute('data-bookmark'), renderHTML: (attrs) => (attrs.name ? { 'data-bookmark': String(attrs.name) } : {}) },
    };
  },

  parseHTML() {
    return [{ tag: 'section[data-bookmark]' }];
  },

  renderHTML({ HTMLAttributes }) {
    return ['section', mergeAttributes({ class: 'bookmark' }, HTMLAttributes), 0];
  },

  addCommands() {
    const findNamed = (doc: import('@tiptap/pm/model').Node, name: string): number | undefined => {
      let found: number | undefined;
      doc.descendants((node, pos) => {
        if (found !== undefined) return false;
        if (node.type.name === this.name && node.attrs.name === name) found = pos;
        return found === undefined;
      });
      return found;
    };
    return {
      setBookmark:
        (name) =>
        ({ state, commands }) =>
          name.trim().length > 0 && findNamed(state.doc, name) === undefined && commands.wrapIn(this.name, { name }),
      renameBookmark:
        (from, to) =>
        ({ state, tr, dispatch }) => {
          const pos = findNamed(state.doc, from);
          if (pos === undefined || to.trim().length === 0 || findNamed(state.doc, to) !== undefined) return false;
          if (dispatch) tr.setNodeAttribute(pos, 'name', to);
          return true;
        },
      removeBookmark:
        (name) =>
        ({ state, tr, dispatch }) => {
          const pos = findNamed(state.doc, name);
          if (pos === undefined) return false;
          const node = state.doc.nodeAt(pos)!;
          if (dispatch) tr.replaceWith(pos, pos + node.nodeSize, node.content);
          return true;
        },
    };
  },
});

/** The bookmark names of a document, in order (what the backend's bookmark endpoints list). */
export function bookmarkNames(doc: import('@tiptap/pm/model').Node): string[] {
  const names: string[] = [];
  doc.descendants((node) => {
    if (node.type.name === 'bookmark' && typeof node.attrs.name === 'string') names.push(node.attrs.name);
  });
  return names;
}
