import { Paragraph } from '@tiptap/extension-paragraph';

/** `paragraph`, Tiptap's, with its Markdown form: its line of text. */
export const paragraph = Paragraph.extend({
  markdownForm: { block: (node, writer) => writer.inline(node.content) },
});
