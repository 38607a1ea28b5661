import { OrderedList } from '@tiptap/extension-list';
import { markdownList } from '../markdown.js';

/** `orderedList`, Tiptap's, with its Markdown form: items numbered from the list's `start`. */
export const orderedList = OrderedList.extend({
  markdownForm: {
    block: (node, writer) => {
      const start = Number(node.attrs?.start ?? 1) || 1;
      return markdownList(node, writer, (index) => `${start + index}.`);
    },
  },
});
