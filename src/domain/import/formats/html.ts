import type { FormatReader } from '../conversion.js';
import { htmlToBlocks } from './rich-text-html.js';
import { decodeText } from './text-decoding.js';

/** HTML: its body's structure and formatting; scripts and styles are dropped. */
export const html: FormatReader = {
  zip: false,
  async read(bytes, report) {
    const images: Parameters<typeof htmlToBlocks>[1] = [];
    const blocks = htmlToBlocks(decodeText(bytes), images);
    report(1);
    return { shape: 'richText', blocks, images };
  },
};
