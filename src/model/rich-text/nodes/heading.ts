import { Heading } from '@tiptap/extension-heading';

/** `heading`, Tiptap's, with its Markdown form: an ATX heading, its level kept within Markdown's 1–6. */
export const heading = Heading.extend({
  markdownForm: {
    block: (node, writer) => {
      const level = Math.min(Math.max(Number(node.attrs?.level ?? 1) || 1, 1), 6);
      return `${'#'.repeat(level)} ${writer.inline(node.content)}`;
    },
  },
});
