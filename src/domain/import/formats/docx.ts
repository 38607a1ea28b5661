import mammoth from 'mammoth';
import { ConversionError, type FormatReader } from '../conversion.js';
import { htmlToBlocks, PAGE_BREAK_MARKER } from './rich-text-html.js';

/** What mammoth writes for a page break (styleMap below); mammoth writes no other `hr` and escapes text. */
const MAMMOTH_PAGE_BREAK = '<hr class="page-break" />';

/**
 * Word (docx) through mammoth, which maps the document's structure (headings by style, lists, tables, bold,
 * italic, underline, strike, links, pictures, page breaks) to HTML; pictures become attachments of the new file.
 * A page break (`<w:br w:type="page"/>`) comes out of mammoth as `<hr class="page-break" />` (its style map can
 * only make known HTML elements) and is swapped for the parser's page-break marker, the model's `pageBreak`.
 * Word's "page break before" paragraph property is not read by mammoth and is lost.
 */
export const docx: FormatReader = {
  zip: true,
  async read(bytes, report) {
    let html: string;
    try {
      const converted = await mammoth.convertToHtml(
        { buffer: bytes },
        { styleMap: ['u => u', 'strike => s', "br[type='page'] => hr.page-break"], convertImage: mammoth.images.dataUri },
      );
      html = converted.value.replaceAll(MAMMOTH_PAGE_BREAK, PAGE_BREAK_MARKER);
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
