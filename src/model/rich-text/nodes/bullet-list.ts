import { BulletList } from '@tiptap/extension-list';
import { markdownList } from '../markdown.js';

/** `bulletList`, Tiptap's, with its Markdown form: items behind `-`. */
export const bulletList = BulletList.extend({
  markdownForm: { block: (node, writer) => markdownList(node, writer, () => '-') },
});
