import { CodeBlock } from '@tiptap/extension-code-block';

/**
 * `codeBlock`, Tiptap's, with its Markdown form: a fence longer than any backtick run of the code, and the
 * language reduced to characters an info string can carry.
 */
export const codeBlock = CodeBlock.extend({
  markdownForm: {
    block: (node) => {
      const code = (node.content ?? []).map((child) => child.text ?? '').join('');
      const fence = '`'.repeat(Math.max(3, ...[...code.matchAll(/`+/g)].map((match) => match[0].length + 1)));
      const language = typeof node.attrs?.language === 'string' ? node.attrs.language.replace(/[^\w+-]/g, '') : '';
      return `${fence}${language}\n${code}\n${fence}`;
    },
  },
});
