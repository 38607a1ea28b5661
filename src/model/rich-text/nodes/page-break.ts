import { canInsertNode, mergeAttributes, Node } from '@tiptap/core';
import { TextSelection } from '@tiptap/pm/state';

declare module '@tiptap/core' {
  interface Commands<ReturnType> {
    pageBreak: {
      /** Puts a page break at the caret (splitting its paragraph), the caret at the start of what follows it. */
      setPageBreak: () => ReturnType;
    };
  }
}

export interface PageBreakOptions {
  /** false where pages mean nothing (a presentation's text box): shown, never inserted; Mod-Enter stays the hard break's */
  insertable: boolean;
  /** the name shown on the dashed line (`data-label`), in the page's language; none outside the editor */
  label: string;
}

/**
 * `pageBreak` (docs/CONTENT-MODEL.md): a leaf block after which the content starts on a new page, in
 * documentPro's pages (web/shared/panels/pages/page-breaks.ts) and in pdf and docx exports. Shown as a dashed
 * line with its name. Ctrl/Cmd+Enter inserts one, as in Word; it runs before the hard break's own Mod-Enter.
 */
export const PageBreak = Node.create<PageBreakOptions>({
  name: 'pageBreak',
  group: 'block',
  atom: true,
  selectable: true,
  // above hardBreak (100) for Mod-Enter, below paragraph (1000) so a paragraph stays the default block
  priority: 200,

  addOptions() {
    return { insertable: true, label: '' };
  },

  parseHTML() {
    return [{ tag: 'div[data-page-break]' }, { tag: 'hr[data-page-break]' }];
  },

  renderHTML({ HTMLAttributes }) {
    return ['div', mergeAttributes({ class: 'page-break', 'data-page-break': '', ...(this.options.label ? { 'data-label': this.options.label } : {}), style: 'break-after: page' }, HTMLAttributes)];
  },

  // Markdown has no pages: the export (markdownForm) and getMarkdownFromSelection keep the division as a thematic break
  markdownForm: { block: () => '---' },
  renderMarkdown: () => '---',

  addCommands() {
    return {
      setPageBreak:
        () =>
        ({ state, chain }) =>
          this.options.insertable &&
          canInsertNode(state, this.type) &&
          chain()
            .insertContent({ type: this.name })
            .command(({ tr, dispatch }) => {
              if (!dispatch) return true;
              // the selection sits right after the inserted break: go into the block after it, or make one
              const { $to } = tr.selection;
              if ($to.nodeAfter?.isTextblock) {
                tr.setSelection(TextSelection.create(tr.doc, $to.pos + 1));
              } else {
                const paragraph = tr.doc.type.schema.nodes.paragraph!.create();
                tr.insert($to.pos, paragraph);
                tr.setSelection(TextSelection.create(tr.doc, $to.pos + 1));
              }
              tr.scrollIntoView();
              return true;
            })
            .run(),
    };
  },

  addKeyboardShortcuts() {
    return { 'Mod-Enter': () => this.editor.commands.setPageBreak() };
  },
});
