import { mergeAttributes, Node, wrappingInputRule } from '@tiptap/core';
import { markdownQuote } from '../markdown.js';

declare module '@tiptap/core' {
  interface Commands<ReturnType> {
    callout: {
      /** Wraps the selected blocks in a callout, or lifts them out of the one they are in. */
      toggleCallout: () => ReturnType;
    };
  }
}

/**
 * `callout` (docs/CONTENT-MODEL.md): a framed, tinted box around blocks that should stand out (a note, a
 * warning), no attributes. HTML `<div data-type="callout" class="callout">`; Markdown a GitHub alert
 * (`> [!NOTE]` then the quoted blocks), which other Markdown readers show as a quote; docx a shaded, framed
 * run of paragraphs (src/domain/export/converters/docx.ts). Typing `!> ` at the start of a line starts one;
 * Ctrl/Cmd+Alt+Q toggles it.
 */
export const Callout = Node.create({
  name: 'callout',
  group: 'block',
  content: 'block+',
  defining: true,

  parseHTML() {
    return [{ tag: 'div[data-type="callout"]' }];
  },

  renderHTML({ HTMLAttributes }) {
    return ['div', mergeAttributes({ 'data-type': 'callout', class: 'callout' }, HTMLAttributes), 0];
  },

  // the export's form, and @tiptap/markdown's for the editor's getMarkdownFromSelection: the same alert
  markdownForm: { block: (node, writer) => markdownQuote(['[!NOTE]', ...writer.blocks(node.content).join('\n\n').split('\n')]) },
  renderMarkdown: (node, helpers) => markdownQuote(['[!NOTE]', ...helpers.renderChildren(node.content ?? [], '\n\n').split('\n')]),

  addCommands() {
    return {
      toggleCallout:
        () =>
        ({ commands }) =>
          commands.toggleWrap(this.name),
    };
  },

  addKeyboardShortcuts() {
    return { 'Mod-Alt-q': () => this.editor.commands.toggleCallout() };
  },

  addInputRules() {
    return [wrappingInputRule({ find: /^\s*!>\s$/, type: this.type })];
  },
});
