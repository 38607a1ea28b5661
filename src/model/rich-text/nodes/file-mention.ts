import { mergeAttributes, Node } from '@tiptap/core';

/** A mentioned file, as the file-search callback listed it (platform-api.md 2.3). */
export interface MentionedFile {
  fileId: string;
  /** the file list entry's `type`: a collaborative kind (`document`, …) or `file` for a third-party file */
  fileType: string;
  label: string;
  /** only on type `file`: its address in the integrator's system */
  fullUrl: string | null;
}

declare module '@tiptap/core' {
  interface Commands<ReturnType> {
    fileMention: {
      insertFileMention: (file: MentionedFile) => ReturnType;
    };
  }
}

const attribute = (name: string, data: string) => ({
  default: null,
  parseHTML: (element: { getAttribute(name: string): string | null }) => element.getAttribute(data),
  renderHTML: (attributes: Record<string, unknown>) => (attributes[name] === null || attributes[name] === undefined ? {} : { [data]: String(attributes[name]) }),
});

/** The file a mention's attributes name. */
export function mentionedFileOf(attrs: Record<string, unknown>): MentionedFile {
  return { fileId: String(attrs.fileId ?? ''), fileType: String(attrs.fileType ?? ''), label: String(attrs.label ?? ''), fullUrl: typeof attrs.fullUrl === 'string' ? attrs.fullUrl : null };
}

/** How a file mention is written in HTML; the editor's node view (web/rich-text/model.ts) shows the same element. */
export const FILE_MENTION_HTML = { 'data-type': 'file-mention', class: 'file-mention', role: 'link', tabindex: '0' };

/**
 * `fileMention` (docs/CONTENT-MODEL.md): an inline atom naming a file: `fileId`, `fileType`, `label` (its
 * name), `fullUrl` (third-party files). Plain text reads its label. Opening it on a click is the editor's
 * (web/rich-text/model.ts).
 */
export const FileMention = Node.create({
  name: 'fileMention',
  group: 'inline',
  inline: true,
  atom: true,
  selectable: false,

  addAttributes() {
    return {
      fileId: attribute('fileId', 'data-file-id'),
      fileType: attribute('fileType', 'data-file-type'),
      label: attribute('label', 'data-label'),
      fullUrl: attribute('fullUrl', 'data-full-url'),
    };
  },

  parseHTML() {
    return [{ tag: 'span[data-type="file-mention"]' }];
  },

  // the label is a text child: ProseMirror's serializer makes it a text node, never markup
  renderHTML({ node, HTMLAttributes }) {
    return ['span', mergeAttributes(FILE_MENTION_HTML, HTMLAttributes), String(node.attrs.label ?? '')];
  },

  // a mention whose name the search callback did not give reads as the file's id
  renderText({ node }) {
    return String(node.attrs.label ?? node.attrs.fileId ?? '');
  },

  renderMarkdown: (node) => String(node.attrs?.label ?? ''),

  addCommands() {
    return {
      insertFileMention:
        (file) =>
        ({ commands }) =>
          commands.insertContent([{ type: this.name, attrs: { ...file } }, { type: 'text', text: ' ' }]),
    };
  },
});
