import { TextStyle } from '@tiptap/extension-text-style';
import { fontFamilyCss, fontFamilyOf, fontSizeOf, hexColor, styleOf } from '../formatting.js';

/**
 * `textStyle` (docs/CONTENT-MODEL.md "Formatting"): Tiptap's span mark, with the run attributes of the
 * toolbar's font, size and colour choices defined here once. Stored values are the ones Word carries: `fontFamily`
 * one family name (`Arial`), `fontSize` points (`12pt`), `color` `#rrggbb`; HTML reads any CSS spelling of them
 * (`16px`, `rgb(…)`, a quoted family list) and writes them as inline style, each stored value read through the
 * same reader first (another client, or the API, may have stored anything: it must not reach a style). Markdown has no form for them (the
 * text stays, unstyled: MARKDOWN_CONTENT_ONLY).
 */
export const textStyle = TextStyle.extend({
  addAttributes() {
    return {
      ...this.parent?.(),
      fontFamily: {
        default: null,
        parseHTML: (element) => fontFamilyOf(styleOf(element, 'font-family')) ?? null,
        renderHTML: (attributes) => {
          const family = fontFamilyOf(attributes.fontFamily);
          return family ? { style: `font-family: ${fontFamilyCss(family)}` } : {};
        },
      },
      fontSize: {
        default: null,
        parseHTML: (element) => fontSizeOf(styleOf(element, 'font-size')) ?? null,
        renderHTML: (attributes) => {
          const size = fontSizeOf(attributes.fontSize);
          return size ? { style: `font-size: ${size}` } : {};
        },
      },
      color: {
        default: null,
        parseHTML: (element) => hexColor(styleOf(element, 'color')) ?? null,
        renderHTML: (attributes) => {
          const color = hexColor(attributes.color);
          return color ? { style: `color: ${color}` } : {};
        },
      },
    };
  },
});
