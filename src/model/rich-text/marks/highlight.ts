import Highlight from '@tiptap/extension-highlight';
import { hexColor, styleOf } from '../formatting.js';

/**
 * `highlight` (docs/CONTENT-MODEL.md "Formatting"): Tiptap's `<mark>` with a `color` (`#rrggbb`; none reads as
 * yellow, the highlight of documents written before colours). Word's highlight colours (WORD_HIGHLIGHTS) go to
 * docx and come back as `w:highlight`. Markdown has no form for it (MARKDOWN_CONTENT_ONLY).
 */
export const highlight = Highlight.extend({
  addAttributes() {
    return {
      color: {
        default: null,
        parseHTML: (element) => hexColor(element.getAttribute('data-color') ?? styleOf(element, 'background-color')) ?? null,
        renderHTML: (attributes) => {
          // a stored value is read as a colour again: another client may have stored anything
          const color = hexColor(attributes.color);
          return color ? { 'data-color': color, style: `background-color: ${color}; color: inherit` } : {};
        },
      },
    };
  },
}).configure({ multicolor: true });
