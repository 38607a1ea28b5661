import { Extension, type CommandProps } from '@tiptap/core';
import { INDENT_STEP_PT, MAX_INDENT, TEXT_ALIGNS, indentOf, lineHeightOf, pointsOf, styleOf, type TextAlign } from './formatting.js';

/** The blocks that carry paragraph formatting: the textblocks people write in. */
export const FORMATTED_BLOCKS = ['paragraph', 'heading'] as const;

declare module '@tiptap/core' {
  interface Commands<ReturnType> {
    paragraphFormat: {
      /** Aligns the paragraphs of the selection; `left` (the default) removes the attribute. */
      setTextAlign: (align: TextAlign) => ReturnType;
      /** Line spacing of the paragraphs of the selection (a multiple such as `1.5`); null for the default. */
      setLineHeight: (lineHeight: string | null) => ReturnType;
      /** One indent step more (`by` 1) or less (`by` -1) for the paragraphs of the selection. */
      changeIndent: (by: 1 | -1) => ReturnType;
    };
  }
}

function isTextAlign(value: unknown): value is TextAlign {
  return typeof value === 'string' && (TEXT_ALIGNS as readonly string[]).includes(value);
}

/**
 * Paragraph formatting (docs/CONTENT-MODEL.md "Formatting"): `textAlign` (`center`, `right`, `justify`; none is
 * left), `lineHeight` (a multiple of the line, `1.5`) and `indent` (1–8 steps of 36 pt), attributes of
 * paragraphs and headings. Defaults are null so a plain paragraph stores none of them. HTML form: inline
 * `text-align`, `line-height`, `margin-left` (read back from any CSS length); docx: `w:jc`, `w:spacing
 * w:line`, `w:ind w:left`. Markdown cannot carry them (the text stays). Keys: Mod-Shift-L/E/R/J align,
 * Mod-] and Mod-[ indent and outdent (inside a list Tab still nests the item).
 */
export const paragraphFormat = Extension.create({
  name: 'paragraphFormat',
  addGlobalAttributes() {
    return [
      {
        types: [...FORMATTED_BLOCKS],
        attributes: {
          textAlign: {
            default: null,
            parseHTML: (element) => {
              const align = (styleOf(element, 'text-align') ?? element.getAttribute('align') ?? '').toLowerCase();
              const normalised = align === 'start' ? 'left' : align === 'end' ? 'right' : align;
              return isTextAlign(normalised) && normalised !== 'left' ? normalised : null;
            },
            renderHTML: (attributes) => (isTextAlign(attributes.textAlign) ? { style: `text-align: ${attributes.textAlign}` } : {}),
          },
          lineHeight: {
            default: null,
            parseHTML: (element) => lineHeightOf(styleOf(element, 'line-height')) ?? null,
            renderHTML: (attributes) => {
              // read as a multiple again: another client may have stored anything (a number, or text ending the style)
              const lineHeight = lineHeightOf(attributes.lineHeight);
              return lineHeight ? { style: `line-height: ${lineHeight}` } : {};
            },
          },
          indent: {
            default: null,
            parseHTML: (element) => indentOf(pointsOf(styleOf(element, 'margin-left') ?? styleOf(element, 'padding-left'))) ?? null,
            renderHTML: (attributes) => {
              const level = Number(attributes.indent);
              return level >= 1 ? { style: `margin-left: ${Math.min(level, MAX_INDENT) * INDENT_STEP_PT}pt` } : {};
            },
          },
        },
      },
    ];
  },
  addCommands() {
    const setOnBlocks =
      (attribute: string, value: (current: Record<string, unknown>) => unknown) =>
      ({ tr, state, dispatch }: CommandProps) => {
        let changed = false;
        for (const range of state.selection.ranges) {
          state.doc.nodesBetween(range.$from.pos, range.$to.pos, (node, pos) => {
            if (!(FORMATTED_BLOCKS as readonly string[]).includes(node.type.name)) return true;
            const next = value(node.attrs);
            if (node.attrs[attribute] !== next) {
              if (dispatch) tr.setNodeAttribute(pos, attribute, next);
              changed = true;
            }
            return false;
          });
        }
        return changed;
      };
    return {
      setTextAlign: (align) => setOnBlocks('textAlign', () => (align === 'left' ? null : align)),
      setLineHeight: (lineHeight) => setOnBlocks('lineHeight', () => lineHeight),
      changeIndent: (by) =>
        setOnBlocks('indent', (attrs) => {
          const level = Math.max(0, Math.min(MAX_INDENT, (Number(attrs.indent) || 0) + by));
          return level === 0 ? null : level;
        }),
    };
  },
  addKeyboardShortcuts() {
    return {
      'Mod-Shift-l': () => this.editor.commands.setTextAlign('left'),
      'Mod-Shift-e': () => this.editor.commands.setTextAlign('center'),
      'Mod-Shift-r': () => this.editor.commands.setTextAlign('right'),
      'Mod-Shift-j': () => this.editor.commands.setTextAlign('justify'),
      'Mod-]': () => this.editor.commands.changeIndent(1),
      'Mod-[': () => this.editor.commands.changeIndent(-1),
    };
  },
});
