import { HardBreak } from '@tiptap/extension-hard-break';

/** `hardBreak`, Tiptap's, with its Markdown form: a backslash at the line's end. */
export const hardBreak = HardBreak.extend({
  markdownForm: { inline: () => '\\\n' },
});
