import JSZip from 'jszip';
import mammoth from 'mammoth';
import * as Y from 'yjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newTextBox, slidesOf } from '../../src/model/content.js';
import { parseFragment, toYNodes, type ProseMirrorNode } from '../../src/model/rich-text/schema.js';
import { oneParagraphPropertiesEach } from '../../src/domain/export/converters/pptx.js';
import { testDatabases } from '../support/databases.js';
import { ooxmlProblems, ooxmlSchemaFolder } from '../support/ooxml.js';
import { startService, type TestService } from '../support/service.js';
import { importAndWait } from '../import/support.js';
import { author, createFile, exportFile, paragraph, setCells, text, writeRichText } from './support.js';

/**
 * Files that open everywhere (docs/IMPORT-EXPORT.md "Files that open everywhere"): the Office exports follow the
 * structure ECMA-376 sets for what they hold (test/support/ooxml.ts, also run on every docx, xlsx and pptx that
 * exportFile downloads), and read back as they were written.
 */

const bold = [{ type: 'bold' }];
const MIXED: ProseMirrorNode[] = [
  { type: 'heading', attrs: { level: 1 }, content: [text('Plan '), text('2026', [{ type: 'italic' }])] },
  {
    type: 'bulletList',
    content: [
      { type: 'listItem', content: [paragraph(text('Ship '), text('faster', bold)), { type: 'bulletList', content: [{ type: 'listItem', content: [paragraph(text('nested '), text('point', bold))] }] }] },
      { type: 'listItem', content: [paragraph(text('Hire'))] },
    ],
  },
  paragraph(text('After the list, '), text('linked', [{ type: 'link', attrs: { href: 'https://example.com/' } }]), text('.')),
];

const TABLE: ProseMirrorNode[] = [
  {
    type: 'table',
    content: [
      { type: 'tableRow', content: [{ type: 'tableHeader', content: [paragraph(text('Region'))] }, { type: 'tableHeader', content: [paragraph(text('Sales'))] }] },
      { type: 'tableRow', content: [{ type: 'tableCell', content: [paragraph(text('North'))] }, { type: 'tableCell', content: [paragraph(text('42'))] }] },
      { type: 'tableRow', content: [{ type: 'tableCell', content: [paragraph(text('South'))] }, { type: 'tableCell', content: [paragraph(text('17'))] }] },
    ],
  },
];

/** The paragraphs of each slide's text bodies: their a:pPr count and their text. */
async function slideParagraphs(bytes: Uint8Array): Promise<Array<{ properties: number; text: string }>> {
  const zip = await JSZip.loadAsync(bytes);
  const xml = await zip.file('ppt/slides/slide1.xml')!.async('string');
  return [...xml.matchAll(/<a:p>([\s\S]*?)<\/a:p>/g)].map(([, inner]) => ({
    properties: (inner!.match(/<a:pPr\b/g) ?? []).length,
    text: [...inner!.matchAll(/<a:t>([^<]*)<\/a:t>/g)].map((match) => match[1]).join(''),
  }));
}

for (const database of testDatabases()) {
  describe(`Office files that open everywhere [${database.name}]`, { timeout: 180_000 }, () => {
    let svc: TestService;
    beforeAll(async () => {
      svc = await startService(database, { integrator: true });
    });
    afterAll(async () => {
      await svc.close();
    });

    it('pptx: a paragraph mixing formatting has one a:pPr, a nested list item stays its own bulleted paragraph', async () => {
      await createFile(svc, 'deck', 'presentation', 'Deck');
      await svc.services.content.change(svc.app.id, 'deck', author, (doc) => {
        const boxes = slidesOf(doc).get(0).get('boxes') as Y.Array<Y.Map<unknown>>;
        const box = newTextBox({ x: 72, y: 36, width: 720, height: 360 });
        boxes.push([box]);
        (box.get('content') as Y.XmlFragment).insert(0, toYNodes(parseFragment(MIXED)));
      });
      const { bytes } = await exportFile(svc, 'deck', 'pptx'); // exportFile checks the structure too
      expect(await slideParagraphs(bytes)).toEqual([
        { properties: 1, text: 'Plan 2026' },
        { properties: 1, text: 'Ship faster' },
        { properties: 1, text: 'nested point' },
        { properties: 1, text: 'Hire' },
        { properties: 1, text: 'After the list, linked.' },
      ]);
      const xml = await (await JSZip.loadAsync(bytes)).file('ppt/slides/slide1.xml')!.async('string');
      const bullets = [...xml.matchAll(/<a:p>([\s\S]*?)<\/a:p>/g)].map(([, inner]) => /<a:buChar\b/.test(inner!));
      expect(bullets).toEqual([false, true, true, true, false]);
    });

    it('docx: a table exported and imported again keeps its header row alone as the header', async () => {
      await createFile(svc, 'sales', 'document', 'Sales');
      await writeRichText(svc, 'sales', TABLE);
      const roundTrip = '<table><thead><tr><th><p>Region</p></th><th><p>Sales</p></th></tr></thead><tbody><tr><td><p>North</p></td><td><p>42</p></td></tr><tr><td><p>South</p></td><td><p>17</p></td></tr></tbody></table>';
      const { bytes } = await exportFile(svc, 'sales', 'docx');
      expect((await mammoth.convertToHtml({ buffer: bytes })).value).toBe(roundTrip);

      // imported again, then exported again: the header row alone is a header (each row was, imported)
      const imported = await importAndWait(svc, { fileId: 'sales-again', type: 'document' }, { name: 'sales.docx', data: bytes });
      expect(imported.body, imported.text).toMatchObject({ status: 0, data: { progress: 100 } });
      const again = await exportFile(svc, 'sales-again', 'docx');
      expect((await mammoth.convertToHtml({ buffer: again.bytes })).value).toBe(roundTrip);
    });

    it('xlsx: a workbook with formulas, text and a second sheet follows the worksheet structure', async () => {
      await createFile(svc, 'budget', 'spreadsheet', 'Budget');
      await setCells(svc, 'budget', { A1: { v: 'Item' }, B1: { v: 'Cost' }, A2: { v: 'Rent' }, B2: { v: 1200 }, A3: { v: '电费' }, B3: { v: 80.5 }, A4: { v: 'Total' }, B4: { f: '=SUM(B2:B3)' } });
      const { bytes } = await exportFile(svc, 'budget', 'xlsx');
      expect(await ooxmlProblems(bytes)).toEqual([]);
    });
  });
}

describe('the Office checks catch what the schemas forbid', () => {
  /** A package of `parts` with content types for xml and rels. */
  async function pack(parts: Record<string, string>): Promise<Uint8Array> {
    const zip = new JSZip();
    zip.file(
      '[Content_Types].xml',
      '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/></Types>',
    );
    for (const [name, content] of Object.entries(parts)) zip.file(name, content);
    return zip.generateAsync({ type: 'uint8array' });
  }
  const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
  /** A slide with one text box holding `paragraphs` (DrawingML a:p elements). */
  const slideOf = (paragraphs: string) =>
    '<p:sld xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"><p:cSld><p:spTree>' +
    '<p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>' +
    `<p:sp><p:nvSpPr><p:cNvPr id="2" name="Text"/><p:cNvSpPr/><p:nvPr/></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/>${paragraphs}</p:txBody></p:sp>` +
    '</p:spTree></p:cSld></p:sld>';

  it('a second a:pPr in a paragraph, which oneParagraphPropertiesEach removes', async () => {
    const slide = slideOf('<a:p><a:pPr marL="0"><a:buNone/></a:pPr><a:r><a:t>x</a:t></a:r><a:pPr marL="0"/><a:r><a:t>y</a:t></a:r></a:p>');
    // the structural check always, the schema's validator too where the schemas are placed
    expect(await ooxmlProblems(await pack({ 'ppt/slides/slide1.xml': slide }))).toEqual([
      ...(ooxmlSchemaFolder ? [expect.stringMatching(/^ppt\/slides\/slide1\.xml: line 1: Element '\{[^}]+\}pPr': This element is not expected/)] : []),
      expect.stringMatching(/^ppt\/slides\/slide1\.xml: a:p: a:pPr not allowed at child 3/),
    ]);
    expect(await ooxmlProblems(await pack({ 'ppt/slides/slide1.xml': oneParagraphPropertiesEach(slide) }))).toEqual([]);
  });

  it.skipIf(!ooxmlSchemaFolder)('extensions marked ignorable (mc:Ignorable) are skipped as a reader that does not know them skips them (needs the ECMA-376 schemas: test/fixtures/ooxml-xsd/README.md)', async () => {
    const extended = slideOf('<a:p><a:r><a:t>x</a:t></a:r></a:p>').replace('<p:sld ', '<p:sld xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" xmlns:x="urn:svc:test:extension" mc:Ignorable="x" x:note="kept by readers that know it" ').replace('<p:spPr/>', '<p:spPr x:shade="1"/>');
    expect(await ooxmlProblems(await pack({ 'ppt/slides/slide1.xml': extended }))).toEqual([]);
    // the same attribute without mc:Ignorable is refused
    expect(await ooxmlProblems(await pack({ 'ppt/slides/slide1.xml': extended.replace(' mc:Ignorable="x"', '') }))).toEqual([
      expect.stringMatching(/attribute '\{urn:svc:test:extension\}note': The attribute .* is not allowed/),
      expect.stringMatching(/attribute '\{urn:svc:test:extension\}shade': The attribute .* is not allowed/),
    ]);
  });

  it('a w:tblHeader of false, an empty table cell, a cell ending with a table, malformed XML, a relationship to a missing part, a part without a type', async () => {
    const document = `<w:document ${W}><w:body><w:tbl><w:tblPr/><w:tblGrid/><w:tr><w:trPr><w:tblHeader w:val="false"/></w:trPr><w:tc><w:tcPr/></w:tc></w:tr><w:tr><w:tc><w:tbl><w:tblPr/><w:tblGrid/></w:tbl></w:tc></w:tr></w:tbl></w:body></w:document>`;
    const problems = await ooxmlProblems(
      await pack({
        'word/document.xml': document,
        'word/broken.xml': '<w:p>',
        'word/_rels/document.xml.rels': '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="media/gone.png"/></Relationships>',
        'word/media/here.png': 'png',
      }),
    );
    expect(problems).toHaveLength(6);
    expect(problems).toEqual(expect.arrayContaining([
      '[Content_Types].xml: no content type for word/media/here.png',
      expect.stringMatching(/^word\/broken\.xml: not well-formed XML/),
      expect.stringMatching(/^word\/document\.xml: w:tblHeader: a row that is not a header row/),
      expect.stringMatching(/^word\/document\.xml: w:tc: expected w:p or w:tbl/),
      'word/document.xml: w:tc: a table cell must end with a w:p',
      'word/_rels/document.xml.rels: relationship rId1 points to word/media/gone.png, which is not in the package',
    ]));
  });
});
