import { Code } from '@tiptap/extension-code';

/**
 * `code`, Tiptap's, with its Markdown form: a code span, written unescaped; a backtick in it becomes `ˋ`
 * (U+02CB) so one pair of backticks always suffices.
 */
export const code = Code.extend({
  markdownForm: { kind: 'literal', write: (raw) => `\`${raw.replace(/`/g, 'ˋ')}\`` },
});
