import JSZip from 'jszip';
import mammoth from 'mammoth';
import { ConversionError, type FormatReader } from '../conversion.js';
import { htmlToBlocks, PAGE_BREAK_MARKER } from './rich-text-html.js';
import { HIGHLIGHT_STYLE_MAP, WordFormatting } from './word-formatting.js';
import { wordPageSetup } from './word-page-setup.js';
import { WordRevisions } from './word-revisions.js';

/** What mammoth writes for a page break (styleMap below); mammoth writes no other `hr` and escapes text. */
const MAMMOTH_PAGE_BREAK = '<hr class="page-break" />';

/**
 * mammoth's style map beyond its defaults (which map Heading 1-6, lists, bold, italic, tables, links, footnotes):
 * Word's built-in styles that have a form in the content model. Title is the document's top heading (20 of the 140
 * documents of the fidelity corpus open with it, docs/IMPORT-EXPORT.md "Fidelity over real files"); Quote and
 * Intense Quote are quotes; HTML Preformatted is a code block; the Strong and Emphasis character styles are bold and
 * italic. Word's own names and their lower-case forms (LibreOffice writes some in lower case). Then Word's highlight
 * colours, which word-formatting.ts turns into the highlight mark's. The one map the import and the fidelity
 * script (scripts/office-fidelity.ts) give mammoth.
 */
export const STYLE_MAP = [
  'u => u',
  'strike => s',
  "br[type='page'] => hr.page-break",
  "p[style-name='Title'] => h1:fresh",
  "p[style-name='Quote'] => blockquote > p:fresh",
  "p[style-name='Intense Quote'] => blockquote > p:fresh",
  "p[style-name='HTML Preformatted'] => pre:separator('\\n')",
  "r[style-name='Strong'] => strong",
  "r[style-name='Emphasis'] => em",
  "r[style-name='Intense Emphasis'] => strong > em",
  ...HIGHLIGHT_STYLE_MAP,
];

/** The part of a package as text; empty when it is missing. */
async function partText(zip: JSZip, name: string): Promise<string> {
  return (await zip.file(name)?.async('string')) ?? '';
}

/**
 * The docx with what mammoth would lose marked in its document.xml (read with the package by the caller): tracked changes
 * (word-revisions.ts) and run colours and fonts (word-run-looks.ts); the same bytes when nothing is marked.
 */
async function markedForMammoth(bytes: Buffer, zip: JSZip, document: string, revisions: WordRevisions, formatting: WordFormatting): Promise<Buffer> {
  if (!document) return bytes;
  const marked = formatting.marked(revisions.marked(document), await partText(zip, 'word/styles.xml'), await partText(zip, 'word/theme/theme1.xml'));
  if (marked === document) return bytes;
  zip.file('word/document.xml', marked);
  return zip.generateAsync({ type: 'nodebuffer' });
}

/**
 * Word (docx) through mammoth, which maps the document's structure (headings by style, lists, tables, bold,
 * italic, underline, strike, links, pictures, page breaks) to HTML; pictures become attachments of the new file.
 * A page break (`<w:br w:type="page"/>`) comes out of mammoth as `<hr class="page-break" />` (its style map can
 * only make known HTML elements) and is swapped for the parser's page-break marker, the model's `pageBreak`.
 * Word's "page break before" paragraph property is not read by mammoth and is lost. Tracked changes stay
 * suggestions (word-revisions.ts). The page setup (paper, margins, header and footer), which mammoth ignores, is read
 * from the XML (word-page-setup.ts); a documentPro keeps it.
 */
export const docx: FormatReader = {
  zip: true,
  async read(bytes, report) {
    let html: string;
    let pageSetup: Awaited<ReturnType<typeof wordPageSetup>>;
    try {
      // the package read once: the page setup (word-page-setup.ts), then what mammoth would lose (markedForMammoth)
      const zip = await JSZip.loadAsync(bytes);
      const document = await partText(zip, 'word/document.xml');
      pageSetup = await wordPageSetup(zip, document);
      // fonts, sizes, colours, alignment, indents and highlight colours: word-formatting.ts
      const formatting = new WordFormatting();
      const revisions = new WordRevisions();
      const converted = await mammoth.convertToHtml(
        { buffer: await markedForMammoth(bytes, zip, document, revisions, formatting) },
        {
          styleMap: STYLE_MAP,
          convertImage: mammoth.images.dataUri,
          transformDocument: formatting.transform,
        },
      );
      html = revisions.suggested(formatting.styled(converted.value)).replaceAll(MAMMOTH_PAGE_BREAK, PAGE_BREAK_MARKER);
    } catch (error) {
      throw new ConversionError('importCorrupt', `the file is not a readable docx document (${error instanceof Error ? error.message.slice(0, 200) : 'unreadable'})`);
    }
    report(0.6);
    const images: Parameters<typeof htmlToBlocks>[1] = [];
    const blocks = htmlToBlocks(html, images);
    report(1);
    return { shape: 'richText', blocks, images, ...(pageSetup ? { pageSetup } : {}) };
  },
};
