import fc from 'fast-check';
import JSZip from 'jszip';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toDocx } from '../../src/domain/export/converters/docx.js';
import { docx } from '../../src/domain/import/formats/docx.js';
import { DEFAULT_PAGE_SETUP, writePageSetup, type PageSetup } from '../../src/model/rich-text/page-setup.js';
import { testDatabases } from '../support/databases.js';
import { startService, type TestService } from '../support/service.js';
import { importAndWait } from '../import/support.js';
import { author, createFile, exportFile, paragraph, text, writeRichText } from './support.js';

const progress = { step: () => undefined };
const source = (pageSetup: PageSetup) => ({ kind: 'richText' as const, title: 'Pages', blocks: [paragraph(text('Body text'))], images: {}, pageSetup });

const word = fc.stringMatching(/^[A-Za-z0-9è中文]{1,6}$/);
/** Slot text as the import gives it back: words and fields, single spaces, no space at either end. */
const slotText = fc.array(fc.oneof(word, fc.constantFrom('{page}', '{pages}', '{date}', '/', '-')), { maxLength: 4 }).map((parts) => parts.join(' '));
const line = fc.record({ left: slotText, center: slotText, right: slotText });
const margin = fc.integer({ min: 0, max: 500 }).map((tenths) => tenths / 10);
const setups: fc.Arbitrary<PageSetup> = fc.record({
  size: fc.constantFrom('A4' as const, 'Letter' as const),
  orientation: fc.constantFrom('portrait' as const, 'landscape' as const),
  margins: fc.record({ top: margin, bottom: margin, left: margin, right: margin }),
  header: line,
  footer: line,
});

async function parts(bytes: Uint8Array): Promise<Record<string, string>> {
  const zip = await JSZip.loadAsync(bytes);
  const names = Object.keys(zip.files).filter((name) => /^word\/(document|header\d*|footer\d*)\.xml$/.test(name));
  return Object.fromEntries(await Promise.all(names.map(async (name) => [name, await zip.file(name)!.async('string')] as const)));
}

describe('page setup in docx (documentPro)', () => {
  it('the export writes w:sectPr with paper, orientation and margins, and real header and footer parts with Word fields', async () => {
    const setup: PageSetup = {
      size: 'Letter',
      orientation: 'landscape',
      margins: { top: 20, bottom: 15, left: 30, right: 25 },
      header: { left: 'Acme & Co', center: '', right: 'Printed {date}' },
      footer: { left: '', center: 'Page {page} of {pages}', right: '' },
    };
    const xml = await parts(await toDocx(source(setup), progress));
    const section = /<w:sectPr\b[\s\S]*<\/w:sectPr>/.exec(xml['word/document.xml']!)![0];
    // Letter is 8.5 x 11 in: 12240 x 15840 twips, turned
    expect(section).toMatch(/<w:pgSz w:w="15840" w:h="12240" w:orient="landscape"\/>/);
    expect(section).toMatch(/<w:pgMar w:top="1134" w:right="1417" w:bottom="850" w:left="1701"/);
    const header = Object.entries(xml).find(([name]) => name.startsWith('word/header'))![1];
    const footer = Object.entries(xml).find(([name]) => name.startsWith('word/footer'))![1];
    expect(header).toContain('Acme &amp; Co');
    expect(header).toMatch(/DATE/);
    expect(footer).toMatch(/PAGE[\s\S]*NUMPAGES/);
    expect(footer).toContain('Page ');
    // an empty line writes no part
    const plain = await parts(await toDocx(source({ ...setup, header: { left: '', center: '', right: '' } }), progress));
    expect(Object.keys(plain).some((name) => name.startsWith('word/header'))).toBe(false);
  });

  it('export and import again give the same page setup', async () => {
    await fc.assert(
      fc.asyncProperty(setups.filter((setup) => setup.margins.left + setup.margins.right <= 150 && setup.margins.top + setup.margins.bottom <= 150), async (setup) => {
        const read = await docx.read(Buffer.from(await toDocx(source(setup), progress)), () => undefined);
        expect(read.shape === 'richText' && read.pageSetup).toEqual(setup);
      }),
      { numRuns: 25 },
    );
  });

  it('a document from a file without section properties takes the default page setup; one without a footer gets none', async () => {
    const read = await docx.read(Buffer.from(await toDocx(source({ ...DEFAULT_PAGE_SETUP, footer: { left: '', center: '', right: '' } }), progress)), () => undefined);
    expect(read.shape === 'richText' && read.pageSetup?.footer).toEqual({ left: '', center: '', right: '' });
  });
});

for (const database of testDatabases()) {
  describe(`page setup through the service [${database.name}]`, { timeout: 240_000 }, () => {
    let svc: TestService;
    beforeAll(async () => {
      svc = await startService(database, { integrator: true });
    });
    afterAll(async () => {
      await svc.close();
    });

    it('a pdf of a documentPro is printed on its paper, landscape wider than tall, with its header and footer on every page', async () => {
      await createFile(svc, 'pages', 'documentPro', 'Pages');
      await writeRichText(svc, 'pages', Array.from({ length: 80 }, (_, index) => paragraph(text(`Line ${index + 1} of the report`))));
      await svc.services.content.change(svc.app.id, 'pages', author, (doc) =>
        writePageSetup(doc, { ...DEFAULT_PAGE_SETUP, size: 'Letter', orientation: 'landscape', header: { left: 'Quarterly report', center: '', right: 'ACME-7Q' }, footer: { left: '', center: 'Page {page} of {pages}', right: '' } }),
      );
      const { bytes } = await exportFile(svc, 'pages', 'pdf');
      const pdf = await getDocumentProxy(new Uint8Array(bytes));
      const first = (await pdf.getPage(1)).getViewport({ scale: 1 });
      // Letter landscape: 11 x 8.5 in, 792 x 612 pt
      expect([Math.round(first.width), Math.round(first.height)]).toEqual([792, 612]);
      const { text: pages } = await extractText(pdf, { mergePages: false });
      expect(pages.length).toBeGreaterThanOrEqual(2);
      (pages as string[]).forEach((page, index) => {
        expect(page).toContain('Quarterly report');
        expect(page).toContain(`Page ${index + 1} of ${pages.length}`);
      });
    });

    it('a docx imported as a documentPro keeps its paper, margins, header and footer (exported again: the same section)', async () => {
      const setup: PageSetup = { size: 'Letter', orientation: 'portrait', margins: { top: 12.7, bottom: 12.7, left: 50.8, right: 50.8 }, header: { left: '', center: 'Draft', right: '' }, footer: { left: '{date}', center: '', right: '{page}' } };
      const done = await importAndWait(svc, { fileId: 'imported-pages', type: 'documentPro' }, { name: 'pages.docx', data: await toDocx(source(setup), progress) });
      expect(done.body.status, done.text).toBe(0);
      const original = await parts(await toDocx(source(setup), progress));
      const again = await parts((await exportFile(svc, 'imported-pages', 'docx')).bytes);
      const sectionOf = (xml: Record<string, string>) => /<w:pgSz[^>]*>[\s\S]*?<w:pgMar[^>]*>/.exec(xml['word/document.xml']!)![0];
      expect(sectionOf(again)).toBe(sectionOf(original));
      const footer = Object.entries(again).find(([name]) => name.startsWith('word/footer'))![1];
      expect(footer).toMatch(/DATE[\s\S]*PAGE/);
    });
  });
}
