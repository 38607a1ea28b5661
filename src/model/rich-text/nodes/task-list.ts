import { TaskList } from '@tiptap/extension-list';
import { markdownList } from '../markdown.js';

/** `taskList`, Tiptap's, with its Markdown form: GFM task items, `- [x] ` when checked, `- [ ] ` otherwise. */
export const taskList = TaskList.extend({
  markdownForm: {
    block: (node, writer) => markdownList(node, writer, () => '-', (item) => (item.attrs?.checked === true || item.attrs?.checked === 'true' ? '[x] ' : '[ ] ')),
  },
});
