import { Bold } from '@tiptap/extension-bold';

/** `bold`, Tiptap's, with its Markdown form: strong emphasis (`**`). */
export const bold = Bold.extend({
  markdownForm: { kind: 'emphasis', delimiter: '**' },
});
