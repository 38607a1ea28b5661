import { Document, Packer, Paragraph, TextRun } from 'docx';
import JSZip from 'jszip';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exportFile } from '../export/support.js';
import { testDatabases } from '../support/databases.js';
import { startService, type TestService } from '../support/service.js';
import { importAndWait } from './support.js';
import { toProseMirrorNodes, type ProseMirrorNode } from '../../src/model/rich-text/schema.js';

/** Each text run of the content with its textStyle attributes (none: an empty object). */
function runStyles(nodes: readonly ProseMirrorNode[], into = new Map<string, Record<string, unknown>>()): Map<string, Record<string, unknown>> {
  for (const node of nodes) {
    if (node.type === 'text') into.set(node.text ?? '', { ...node.marks?.find((mark) => mark.type === 'textStyle')?.attrs });
    runStyles(node.content ?? [], into);
  }
  return into;
}

const TASKS = { worker: true, concurrency: 2, perAppConcurrency: 2, pollMs: 50, leaseMs: 10_000, maxAttempts: 2, retentionMs: 3_600_000 };

/**
 * Run colours and fonts mammoth does not read (src/domain/import/formats/word-run-looks.ts), as Word writes them:
 * a colour on the run, a colour and font through a character style based on another, a font named only as
 * `w:hAnsi`, an East Asian font that applies to Chinese text and not to Latin text, and the theme's minor font.
 */
async function lookedDocx(): Promise<Uint8Array> {
  const doc = new Document({
    styles: {
      characterStyles: [
        { id: 'Brand', name: 'Brand', run: { color: '1F6FEB', font: 'Georgia' } },
        { id: 'BrandLoud', name: 'Brand Loud', basedOn: 'Brand', run: { bold: true } },
      ],
    },
    sections: [
      {
        children: [
          new Paragraph({ children: [new TextRun('Plain, '), new TextRun({ text: 'red alert', color: 'C00000' }), new TextRun({ text: ' auto', color: 'auto' })] }),
          new Paragraph({ children: [new TextRun({ text: 'styled brand', style: 'BrandLoud' }), new TextRun({ text: ' green own', style: 'Brand', color: '2F9E44' })] }),
          new Paragraph({ children: [new TextRun({ text: 'latin only', font: { hAnsi: 'Verdana' } }), new TextRun({ text: '季度报告', font: { eastAsia: 'SimSun' } }), new TextRun({ text: 'no east', font: { eastAsia: 'SimSun' } })] }),
        ],
      },
    ],
  });
  const zip = await JSZip.loadAsync(await Packer.toBuffer(doc));
  // the theme's minor Latin font, as Word names Calibri in documents made from its default template
  const body = await zip.file('word/document.xml')!.async('string');
  zip.file('word/document.xml', body.replace(/(<w:sectPr\b)/, '<w:p><w:r><w:rPr><w:rFonts w:asciiTheme="minorHAnsi" w:hAnsiTheme="minorHAnsi"/></w:rPr><w:t>themed</w:t></w:r></w:p>$1'));
  const theme = await zip.file('word/theme/theme1.xml')?.async('string');
  expect(theme, 'the docx library writes a theme').toMatch(/<a:minorFont>/);
  return new Uint8Array(await zip.generateAsync({ type: 'nodebuffer' }));
}

for (const database of testDatabases()) {
  describe(`docx run colours and fonts [${database.name}]`, { timeout: 120_000 }, () => {
    let svc: TestService;
    beforeEach(async () => {
      svc = await startService(database, { integrator: true, tasks: TASKS });
    });
    afterEach(async () => {
      await svc.close();
    });

    it('colours on the run and through character styles, and fonts mammoth misses, reach textStyle and a re-export', async () => {
      const done = await importAndWait(svc, { fileId: 'looks', type: 'document' }, { name: 'looks.docx', data: await lookedDocx() });
      expect(done.body.status, done.text).toBe(0);
      const doc = await svc.services.content.read(svc.app.id, 'looks');
      const runs = runStyles(toProseMirrorNodes(doc.getXmlFragment('default')));
      const style = (text: string) => ({ color: null, fontFamily: null, ...runs.get(text) });
      // no marker of the reader is left in the text
      expect([...runs.keys()]).toEqual(['Plain, ', 'red alert', ' auto', 'styled brand', ' green own', 'latin only', '季度报告', 'no east', 'themed']);
      expect(style('Plain, ')).toMatchObject({ color: null, fontFamily: null });
      expect(style('red alert')).toMatchObject({ color: '#c00000', fontFamily: null });
      expect(style(' auto')).toMatchObject({ color: null });
      // the style's colour and font through basedOn; the run's own colour before its style's
      expect(style('styled brand')).toMatchObject({ color: '#1f6feb', fontFamily: 'Georgia' });
      expect(style(' green own')).toMatchObject({ color: '#2f9e44', fontFamily: 'Georgia' });
      expect(style('latin only')).toMatchObject({ fontFamily: 'Verdana' });
      expect(style('季度报告')).toMatchObject({ fontFamily: 'SimSun' });
      expect(style('no east')).toMatchObject({ fontFamily: null });
      expect(style('themed')).toMatchObject({ fontFamily: 'Calibri' });

      const exported = await JSZip.loadAsync((await exportFile(svc, 'looks', 'docx')).bytes);
      const body = await exported.file('word/document.xml')!.async('string');
      expect(body).toMatch(/<w:color w:val="C00000"\/>[\s\S]*?red alert/i);
      expect(body).toMatch(/<w:color w:val="1F6FEB"\/>[\s\S]*?styled brand/i);
      expect(body).toMatch(/<w:rFonts w:ascii="SimSun"[^>]*\/>[\s\S]*?季度报告/);
    });
  });
}
