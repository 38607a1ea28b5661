import { Italic } from '@tiptap/extension-italic';

/** `italic`, Tiptap's, with its Markdown form: emphasis (`*`). */
export const italic = Italic.extend({
  markdownForm: { kind: 'emphasis', delimiter: '*' },
});
