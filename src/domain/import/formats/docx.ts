import mammoth from 'mammoth';
import { ConversionError, type FormatReader } from '../conversion.js';
import { htmlToBlocks } from './rich-text-html.js';

/**
 * Word (docx) through mammoth, which maps the document's structure (headings by style, lists, tables, bold,
 * italic, underline, strike, links, pictures) to HTML; pictures become attachments of the new file.
 */
export const docx: FormatReader = {
  zip: true,
  async read(bytes, report) {
    let html: string;
    try {
      const converted = await mammoth.convertToHtml(
        { buffer: bytes },
        { styleMap: ['u => u', 'strike => s'], convertImage: mammoth.images.dataUri },
      );
      html = converted.value;
    } catch (error) {
      throw new ConversionError('importCorrupt', `the file is not a readable docx document (${error instanceof Error ? error.message.slice(0, 200) : 'unreadable'})`);
    }
    report(0.6);
    const images: Parameters<typeof htmlToBlocks>[1] = [];
    const blocks = htmlToBlocks(html, images);
    report(1);
    return { shape: 'richText', blocks, images };
  },
};
