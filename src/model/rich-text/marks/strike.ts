import { Strike } from '@tiptap/extension-strike';

/** `strike`, Tiptap's, with its Markdown form: GFM strike-through (`~~`). */
export const strike = Strike.extend({
  markdownForm: { kind: 'emphasis', delimiter: '~~' },
});
