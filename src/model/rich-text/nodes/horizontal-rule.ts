import { HorizontalRule } from '@tiptap/extension-horizontal-rule';

/** `horizontalRule`, Tiptap's, with its Markdown form: a thematic break. */
export const horizontalRule = HorizontalRule.extend({
  markdownForm: { block: () => '---' },
});
