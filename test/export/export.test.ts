import { imageSize } from 'image-size';
import JSZip from 'jszip';
import mammoth from 'mammoth';
import { parse as parsePptx } from 'pptxtojson/dist/index.js';
import { extractText, getDocumentProxy } from 'unpdf';
import * as Y from 'yjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newImageBox, newTextBox, slidesOf } from '../../src/model/content.js';
import { parseFragment, toYNodes, type ProseMirrorNode } from '../../src/model/rich-text/schema.js';
import { png } from '../attachments/images.js';
import { ticketFor, upload } from '../attachments/support.js';
import { createBase, createTable, insertRows } from '../tables/helpers.js';
import { testDatabases } from '../support/databases.js';
import { startService, type TestService } from '../support/service.js';
import { appendSheet } from '../../src/model/sheets/sheet-model.js';
import { putCells } from '../sheets/stored-cells.js';
import { importAndWait } from '../import/support.js';
import { author, createFile, exportFile, paragraph, setCells, text, workbookOf, writeRichText } from './support.js';

const REPORT: ProseMirrorNode[] = [
  { type: 'heading', attrs: { level: 1 }, content: [text('Quarterly report')] },
  paragraph(text('Revenue grew, '), text('strongly', [{ type: 'bold' }]), text(' this quarter. See '), text('the site', [{ type: 'link', attrs: { href: 'https://example.com/' } }]), text('.')),
  {
    type: 'bulletList',
    content: [
      { type: 'listItem', content: [paragraph(text('first point'))] },
      { type: 'listItem', content: [paragraph(text('second point'))] },
    ],
  },
  { type: 'orderedList', content: [{ type: 'listItem', content: [paragraph(text('step one'))] }] },
  {
    type: 'table',
    content: [
      { type: 'tableRow', content: [{ type: 'tableHeader', content: [paragraph(text('Region'))] }, { type: 'tableHeader', content: [paragraph(text('Sales'))] }] },
      { type: 'tableRow', content: [{ type: 'tableCell', content: [paragraph(text('North'))] }, { type: 'tableCell', content: [paragraph(text('42'))] }] },
    ],
  },
  paragraph(text('Ask '), { type: 'mention', attrs: { id: 'user-2', label: 'Second User', guid: 'at-1' } }, text(' about it.')),
  { type: 'codeBlock', attrs: { language: 'js' }, content: [text('const x = 1;')] },
  paragraph(text('中文内容，很好。')),
];

async function pdfText(bytes: Uint8Array): Promise<{ pages: number; text: string }> {
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  const { totalPages, text: content } = await extractText(pdf, { mergePages: true });
  return { pages: totalPages, text: content };
}

// Chromium and the worker threads are shared by the tests of one database: each test uses its own files.
for (const database of testDatabases()) {
  // several exports per test, each a worker thread and for pdf/jpg Chromium: slow on a loaded machine
  describe(`export formats [${database.name}]`, { timeout: 180_000 }, () => {
    let svc: TestService;
    beforeAll(async () => {
      svc = await startService(database, { integrator: true });
      await createFile(svc, 'report', 'document', 'Quarterly report 季度');
      await writeRichText(svc, 'report', REPORT);
    });
    afterAll(async () => {
      await svc.close();
    });

    it('document → docx: mammoth reads the headings, marks, lists, table, mention and CJK text back', async () => {
      const { bytes, response } = await exportFile(svc, 'report', 'docx');
      expect(response.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
      expect(response.headers.get('content-disposition')).toContain(`filename*=UTF-8''${encodeURIComponent('Quarterly report 季度.docx')}`);
      const { value: html } = await mammoth.convertToHtml({ buffer: bytes });
      expect(html).toContain('<h1>Quarterly report</h1>');
      expect(html).toContain('<strong>strongly</strong>');
      expect(html).toContain('<a href="https://example.com/">the site</a>');
      expect(html).toMatch(/<ul><li>first point<\/li><li>second point<\/li><\/ul>/);
      expect(html).toMatch(/<ol><li>step one<\/li><\/ol>/);
      expect(html).toMatch(/<table>.*Region.*Sales.*North.*42.*<\/table>/s);
      expect(html).toContain('@Second User');
      expect(html).toContain('中文内容，很好。');
    });

    it('document → md: CommonMark with the GFM table', async () => {
      const { bytes, response } = await exportFile(svc, 'report', 'md');
      expect(response.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
      const markdown = bytes.toString('utf8');
      expect(markdown).toContain('# Quarterly report\n');
      expect(markdown).toContain('Revenue grew, **strongly** this quarter. See [the site](<https://example.com/>).');
      expect(markdown).toContain('- first point\n- second point');
      expect(markdown).toContain('1. step one');
      expect(markdown).toContain('| Region | Sales |\n| --- | --- |\n| North | 42 |');
      expect(markdown).toContain('```js\nconst x = 1;\n```');
      expect(markdown).toContain('中文内容，很好。');
    });

    it('document → pdf: the text, Chinese included, is in the PDF, with Noto Sans SC embedded', async () => {
      const { bytes, response } = await exportFile(svc, 'report', 'pdf');
      expect(response.headers.get('content-type')).toBe('application/pdf');
      const { pages, text: content } = await pdfText(bytes);
      expect(pages).toBe(1);
      expect(content).toContain('Quarterly report');
      expect(content).toContain('@Second User');
      expect(content).toContain('中文内容，很好。');
      expect(bytes.toString('latin1')).toMatch(/FontName \/[A-Z]{6}\+NotoSansSC/);
    });

    it('document → jpg: one image of the page width', async () => {
      const { bytes, response } = await exportFile(svc, 'report', 'jpg');
      expect(response.headers.get('content-type')).toBe('image/jpeg');
      const size = imageSize(bytes);
      expect(size.type).toBe('jpg');
      expect(size.width).toBe(Math.round(794 * 1.5));
      expect(size.height).toBeGreaterThan(300);
    });

    it('documentPro with an uploaded image → docx embeds the image, pdf shows the bookmarked text', async () => {
      await createFile(svc, 'pro', 'documentPro');
      const ticket = await ticketFor(svc, { fileGuid: 'pro' });
      const uploaded = await upload(svc, { accessToken: ticket.accessToken, file: png(40, 20) });
      expect(uploaded.status, uploaded.text).toBe(200);
      const src = ticket.url;
      await writeRichText(svc, 'pro', [
        { type: 'bookmark', attrs: { name: 'greeting' }, content: [paragraph(text('Hello old friend'))] },
        { type: 'image', attrs: { src, alt: 'red box' } },
        { type: 'image', attrs: { src: 'https://example.com/remote.png', alt: 'remote chart' } },
      ]);
      const docx = await exportFile(svc, 'pro', 'docx');
      const { value: html } = await mammoth.convertToHtml({ buffer: docx.bytes });
      expect(html).toContain('<p><a id="greeting"></a>Hello old friend</p>');
      expect(html).toMatch(/<img alt="red box" src="data:image\/png;base64,[^"]+"/);
      expect(html).toContain('[remote chart]');
      const pdf = await pdfText((await exportFile(svc, 'pro', 'pdf')).bytes);
      expect(pdf.text).toContain('Hello old friend');
    });

    it('a callout: html import keeps it; docx frames and tints it, md writes a GitHub alert, pdf shows it', async () => {
      svc.integrator.addFile({ id: 'noted', type: 'document', name: 'Noted', grants: { [author.userId]: { readable: true, editable: true, exportable: true } } });
      const html = '<p>Before</p><div data-type="callout" class="callout"><p>Mind the <strong>gap</strong>.</p><p>Second line</p></div><p>After</p>';
      const imported = await importAndWait(svc, { fileId: 'noted', type: 'document' }, { name: 'noted.html', data: new TextEncoder().encode(html) });
      expect(imported.body.data.progress, imported.text).toBe(100);

      expect((await exportFile(svc, 'noted', 'md')).bytes.toString('utf8')).toBe('Before\n\n> [!NOTE]\n> Mind the **gap**.\n>\n> Second line\n\nAfter\n');
      const docx = (await exportFile(svc, 'noted', 'docx')).bytes;
      const documentXml = await (await JSZip.loadAsync(docx)).file('word/document.xml')!.async('string');
      // both paragraphs of the callout, and nothing else, are tinted
      expect(documentXml.match(/w:fill="EFF6FF"/g)).toHaveLength(2);
      const { value: docxHtml } = await mammoth.convertToHtml({ buffer: docx });
      expect(docxHtml).toBe('<p>Before</p><p>Mind the <strong>gap</strong>.</p><p>Second line</p><p>After</p>');
      expect((await pdfText((await exportFile(svc, 'noted', 'pdf')).bytes)).text).toMatch(/Before.*Mind the gap\..*Second line.*After/s);
    });

    it('documentPro with a page break → docx holds a Word page break, pdf one more page, md a thematic break', async () => {
      const before = paragraph(text('Before the break'));
      const after = paragraph(text('After the break'));
      await createFile(svc, 'paged', 'documentPro');
      await writeRichText(svc, 'paged', [before, { type: 'pageBreak' }, after]);
      await createFile(svc, 'unpaged', 'documentPro');
      await writeRichText(svc, 'unpaged', [before, after]);

      const docx = (await exportFile(svc, 'paged', 'docx')).bytes;
      const documentXml = await (await JSZip.loadAsync(docx)).file('word/document.xml')!.async('string');
      expect(documentXml.match(/<w:br w:type="page"\/>/g)).toHaveLength(1);
      const { value: html } = await mammoth.convertToHtml({ buffer: docx }, { styleMap: ["br[type='page'] => hr.page-break"] });
      expect(html).toMatch(/Before the break<\/p>.*<hr class="page-break" \/>.*<p>After the break/s);

      const paged = await pdfText((await exportFile(svc, 'paged', 'pdf')).bytes);
      const unpaged = await pdfText((await exportFile(svc, 'unpaged', 'pdf')).bytes);
      expect(unpaged.pages).toBe(1);
      expect(paged.pages).toBe(2);
      expect(paged.text).toContain('After the break');

      expect((await exportFile(svc, 'paged', 'md')).bytes.toString('utf8')).toBe('Before the break\n\n---\n\nAfter the break\n');
      expect(imageSize((await exportFile(svc, 'paged', 'jpg')).bytes).height).toBeGreaterThan(imageSize((await exportFile(svc, 'unpaged', 'jpg')).bytes).height!);
    });

    it('spreadsheet → xlsx: values, formulas with their results, every sheet', async () => {
      await createFile(svc, 'sheet', 'spreadsheet', 'Scores');
      await setCells(svc, 'sheet', { A1: { v: 'Name' }, B1: { v: 'Score' }, A2: { v: 'Ann' }, B2: { v: 9.5 }, A3: { v: '张三' }, B3: { v: 4 }, B4: { f: '=SUM(B2:B3)' }, B5: { f: '=1/0' }, A6: { v: true } });
      await svc.services.content.change(svc.app.id, 'sheet', author, (doc) => {
        appendSheet(doc, 'Second', 'second');
        putCells(doc, { A1: { f: '=Sheet1!B4*2' } }, 1);
      });
      const { bytes } = await exportFile(svc, 'sheet', 'xlsx');
      const workbook = await workbookOf(bytes);
      expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(['Sheet1', 'Second']);
      const first = workbook.getWorksheet('Sheet1')!;
      expect(first.getCell('A1').value).toBe('Name');
      expect(first.getCell('B2').value).toBe(9.5);
      expect(first.getCell('A3').value).toBe('张三');
      expect(first.getCell('B4').value).toEqual({ formula: 'SUM(B2:B3)', result: 13.5 });
      expect(first.getCell('B5').value).toEqual({ formula: '1/0', result: { error: '#DIV/0!' } });
      expect(first.getCell('A6').value).toBe(true);
      expect(workbook.getWorksheet('Second')!.getCell('A1').value).toEqual({ formula: 'Sheet1!B4*2', result: 27 });
    });

    it('spreadsheet → xlsx: each formula with its cached value of every kind, newer functions with Excel\'s _xlfn. prefix', async () => {
      await createFile(svc, 'cached', 'spreadsheet', 'Cached');
      await setCells(svc, 'cached', {
        A1: { v: 'Ann' }, B1: { v: 4 },
        A2: { f: '=A1&"!"' }, A3: { f: '=B1>3' }, A4: { f: '=CONCAT(A1,B1)' }, A5: { f: '=XLOOKUP(4,B1:B1,A1:A1)' }, A6: { f: '=LET(x,B1,x*2)' }, A7: { f: '=IFERROR(1/0,"none")' },
      });
      const sheet = (await workbookOf((await exportFile(svc, 'cached', 'xlsx')).bytes)).getWorksheet('Sheet1')!;
      expect(['A2', 'A3', 'A4', 'A5', 'A6', 'A7'].map((address) => sheet.getCell(address).value)).toEqual([
        { formula: 'A1&"!"', result: 'Ann!' },
        { formula: 'B1>3', result: true },
        { formula: '_xlfn.CONCAT(A1,B1)', result: 'Ann4' },
        { formula: '_xlfn.XLOOKUP(4,B1:B1,A1:A1)', result: 'Ann' },
        { formula: '_xlfn.LET(_xlpm.x,B1,_xlpm.x*2)', result: 8 },
        { formula: 'IFERROR(1/0,"none")', result: 'none' },
      ]);
    });

    it('spreadsheet → csv: the first sheet, computed values, quoted where needed, UTF-8 with BOM', async () => {
      await setCells(svc, 'sheet', { A7: { v: 'a, "quoted"\nline' } });
      const { bytes, response } = await exportFile(svc, 'sheet', 'csv');
      expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(bytes.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
      expect(bytes.toString('utf8').slice(1)).toBe('Name,Score\r\nAnn,9.5\r\n张三,4\r\n,13.5\r\n,#DIV/0!\r\nTRUE\r\n"a, ""quoted""\nline"\r\n');
    });

    it('spreadsheet → pdf: the cells as a grid, sheet by sheet', async () => {
      const { text: content } = await pdfText((await exportFile(svc, 'sheet', 'pdf')).bytes);
      expect(content).toContain('Ann');
      expect(content).toContain('张三');
      expect(content).toContain('13.5');
      expect(content).toContain('Second');
      expect(content).toContain('27');
    });

    it('presentation → pptx, pdf and jpg: boxes at their place, text and images', async () => {
      await createFile(svc, 'deck', 'presentation');
      const ticket = await ticketFor(svc, { fileGuid: 'deck' });
      const uploaded = await upload(svc, { accessToken: ticket.accessToken, file: png(64, 32) });
      expect(uploaded.status, uploaded.text).toBe(200);
      await svc.services.content.change(svc.app.id, 'deck', author, (doc) => {
        const slides = slidesOf(doc);
        const boxes = slides.get(0).get('boxes') as Y.Array<Y.Map<unknown>>;
        const title = newTextBox({ x: 72, y: 36, width: 600, height: 80 });
        boxes.push([title]);
        (title.get('content') as Y.XmlFragment).insert(0, toYNodes(parseFragment([{ type: 'heading', attrs: { level: 1 }, content: [text('开场 Opening')] }])));
        boxes.push([newImageBox({ x: 480, y: 200, width: 200, height: 100 }, { src: ticket.url, alt: 'logo' })]);
        const second = new Y.Map<unknown>();
        second.set('id', 'slide-2');
        const secondBoxes = new Y.Array<Y.Map<unknown>>();
        second.set('boxes', secondBoxes);
        slides.push([second]);
        const body = newTextBox({ x: 72, y: 144, width: 720, height: 200 });
        secondBoxes.push([body]);
        (body.get('content') as Y.XmlFragment).insert(0, toYNodes(parseFragment([{ type: 'bulletList', content: [{ type: 'listItem', content: [paragraph(text('Second slide point'))] }] }])));
      });

      const pptx = await parsePptx((await exportFile(svc, 'deck', 'pptx')).bytes.buffer as ArrayBuffer);
      expect(pptx.slides).toHaveLength(2);
      // pptxtojson reads a text box as a rectangle shape whose content is HTML
      const textOf = (element: object) => ('content' in element && typeof element.content === 'string' ? element.content.replace(/&nbsp;/g, ' ') : '');
      const [heading, image] = pptx.slides[0]!.elements;
      expect(textOf(heading!)).toContain('开场 Opening');
      expect(textOf(heading!)).toContain('font-size: 36pt');
      const frame = (element: { left: number; top: number; width: number; height: number }) => [element.left, element.top, element.width, element.height].map(Math.round);
      expect(frame(heading!)).toEqual([72, 36, 600, 80]);
      expect(image?.type).toBe('image');
      expect(frame(image!)).toEqual([480, 200, 200, 100]);
      expect(textOf(pptx.slides[1]!.elements[0]!)).toContain('Second slide point');

      const pdf = await pdfText((await exportFile(svc, 'deck', 'pdf')).bytes);
      expect(pdf.pages).toBe(2);
      expect(pdf.text).toContain('开场 Opening');
      expect(pdf.text).toContain('Second slide point');

      const size = imageSize((await exportFile(svc, 'deck', 'jpg')).bytes);
      expect(size.width).toBe(960 * 1.5);
      expect(size.height).toBeGreaterThanOrEqual(2 * 540 * 1.5);
    });

    it('table → xlsx: each table a sheet, a header row, typed values', async () => {
      const base = await createBase(svc, 'base-export');
      svc.integrator.grant(base, 'user-1', { readable: true, editable: true, exportable: true });
      const table = await createTable(svc, base, [
        { name: 'Title', type: 'SingleLineText' },
        { name: 'Count', type: 'Number' },
        { name: 'Done', type: 'CheckBox', props: { type: 'check' } },
        { name: 'Due', type: 'Date' },
        { name: 'Tags', type: 'MultipleChoice', props: { options: [{ name: 'red' }, { name: 'blue' }] } },
      ]);
      await insertRows(svc, table.guid, [
        { Title: '任务一', Count: 3, Done: true, Due: '2024-05-01T08:30:00Z', Tags: ['red', 'blue'] },
        { Title: 'Second', Count: 4.5 },
      ]);
      const workbook = await workbookOf((await exportFile(svc, base, 'xlsx')).bytes);
      const sheet = workbook.getWorksheet('Tasks')!;
      expect(sheet.getRow(1).values).toEqual([undefined, 'Title', 'Count', 'Done', 'Due', 'Tags']);
      // the column names: a bold header row, frozen
      expect(sheet.getCell('E1').font?.bold).toBe(true);
      expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
      expect(sheet.getCell('A2').value).toBe('任务一');
      expect(sheet.getCell('B2').value).toBe(3);
      expect(sheet.getCell('C2').value).toBe(true);
      expect((sheet.getCell('D2').value as Date).toISOString()).toBe('2024-05-01T08:30:00.000Z');
      expect(sheet.getCell('E2').value).toBe('red, blue');
      expect(sheet.getCell('B3').value).toBe(4.5);
      expect(sheet.getCell('C3').value).toBe(null);
    });

    it('POST files/export/table-sheets/{fileId} answers when done, with downloadUrl beside the status (the kits read it there)', async () => {
      const response = await svc.call('POST', '/sdk/v2/api/files/export/table-sheets/base-export');
      expect(response.status, response.text).toBe(200);
      expect(response.body.status).toBe(0);
      expect(response.body.downloadUrl).toBe(response.body.data.downloadUrl);
      const download = await fetch(response.body.downloadUrl as string);
      expect(download.status).toBe(200);
      const workbook = await workbookOf(Buffer.from(await download.arrayBuffer()));
      expect(workbook.getWorksheet('Tasks')!.getCell('A2').value).toBe('任务一');
    });
  });
}
