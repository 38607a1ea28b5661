import { paragraphsFromText } from '../../../model/rich-text/schema.js';
import type { FormatReader } from '../conversion.js';
import { decodeText } from './text-decoding.js';

/** Plain text: one paragraph per line. */
export const txt: FormatReader = {
  zip: false,
  async read(bytes, report) {
    const blocks = paragraphsFromText(decodeText(bytes).replace(/\0/g, ''));
    report(1);
    return { shape: 'richText', blocks, images: [] };
  },
};
