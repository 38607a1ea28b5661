import { Blockquote } from '@tiptap/extension-blockquote';
import { markdownQuote } from '../markdown.js';

/** `blockquote`, Tiptap's, with its Markdown form: its blocks behind `> `. */
export const blockquote = Blockquote.extend({
  markdownForm: { block: (node, writer) => markdownQuote(writer.blocks(node.content).join('\n\n').split('\n')) },
});
