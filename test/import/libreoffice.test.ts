import { execFile } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { Document, HeadingLevel, Packer, Paragraph, TextRun } from 'docx';
import ExcelJS from 'exceljs';
import pptxgen from 'pptxgenjs';
import type * as Y from 'yjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findSoffice } from '../../src/domain/conversion/libreoffice.js';
import { richTextOf } from '../../src/model/content.js';
import { png } from '../attachments/images.js';
import { createFile, exportFile, paragraph, text, writeRichText } from '../export/support.js';
import { ALL_PERMISSIONS } from '../../examples/integrator/integrator.js';
import { testDatabases } from '../support/databases.js';
import { DEFAULT_USER } from '../support/integrator.js';
import { renderedPages } from '../preview/support.js';
import { startService, type TestService } from '../support/service.js';
import { importAndWait, postImport, waitForTask } from './support.js';
import { sheetModels } from '../../src/model/sheets/sheet-model.js';

/**
 * The legacy binary formats through the real LibreOffice, when `soffice` is on the PATH (machines without it run
 * the stand-in tests of import.test.ts and export-errors.test.ts). Each soffice start costs one to three seconds,
 * so the fixtures are made in three runs at once and every test converts several files.
 */
const soffice = findSoffice();

/** Writes `files` (name → bytes) to a directory and converts them all with one soffice run to `to`; answers the outputs by input name. */
async function convertWithSoffice(files: Record<string, Uint8Array>, to: string): Promise<Record<string, Buffer>> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'lo-fixture-'));
  try {
    const inputs = await Promise.all(
      Object.entries(files).map(async ([name, bytes]) => {
        await writeFile(path.join(dir, name), bytes);
        return path.join(dir, name);
      }),
    );
    const profile = pathToFileURL(path.join(dir, 'profile')).href;
    await promisify(execFile)(soffice!, [`-env:UserInstallation=${profile}`, '--headless', '--norestore', '--convert-to', to, '--outdir', path.join(dir, 'out'), ...inputs], { timeout: 120_000 });
    const outputs: Record<string, Buffer> = {};
    for (const name of Object.keys(files)) outputs[name] = await readFile(path.join(dir, 'out', `${path.parse(name).name}.${to.split(':')[0]}`));
    return outputs;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function docxFixture(): Promise<Uint8Array> {
  const doc = new Document({
    sections: [
      {
        children: [
          new Paragraph({ text: 'Legacy minutes', heading: HeadingLevel.HEADING_1 }),
          new Paragraph({ children: [new TextRun('Agreed '), new TextRun({ text: 'unanimously', bold: true }), new TextRun(' 一致')] }),
        ],
      },
    ],
  });
  return new Uint8Array(await Packer.toBuffer(doc));
}

async function xlsxFixture(): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Budget');
  sheet.addRow(['Item', 'Cost', 'Count', 'Total']);
  sheet.addRow(['Chairs', 25, 4, { formula: 'B2*C2', result: 100 }]);
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}

async function pptxFixture(): Promise<Uint8Array> {
  const pptx = new (pptxgen as unknown as typeof import('pptxgenjs').default)();
  pptx.layout = 'LAYOUT_16x9';
  const slide = pptx.addSlide();
  slide.addText('Legacy deck', { x: 1, y: 1, w: 5, h: 1 });
  slide.addImage({ data: `image/png;base64,${png(40, 20).toString('base64')}`, x: 2, y: 2.5, w: 2, h: 1 });
  return new Uint8Array((await pptx.write({ outputType: 'nodebuffer' })) as Buffer);
}

const TASKS = { worker: true, concurrency: 2, perAppConcurrency: 2, pollMs: 50, leaseMs: 30_000, maxAttempts: 1, retentionMs: 3_600_000 };
const OLE_SIGNATURE = 'd0cf11e0a1b11ae1';

describe.runIf(soffice)('legacy formats through the real LibreOffice [sqlite]', { timeout: 180_000 }, () => {
  let svc: TestService;
  let legacy: { doc: Buffer; xls: Buffer; ppt: Buffer };
  beforeAll(async () => {
    const [doc, xls, ppt] = await Promise.all([
      convertWithSoffice({ 'minutes.docx': await docxFixture() }, 'doc:MS Word 97'),
      convertWithSoffice({ 'budget.xlsx': await xlsxFixture() }, 'xls'),
      convertWithSoffice({ 'deck.pptx': await pptxFixture() }, 'ppt'),
    ]);
    legacy = { doc: doc['minutes.docx']!, xls: xls['budget.xlsx']!, ppt: ppt['deck.pptx']! };
    for (const bytes of Object.values(legacy)) expect(bytes.subarray(0, 8).toString('hex')).toBe(OLE_SIGNATURE);
    svc = await startService(testDatabases()[0]!, {
      integrator: true,
      tasks: TASKS,
      soffice,
      imports: { limitBytes: 4 * 1024 * 1024, converterMemoryMb: 256, converterTimeoutMs: 60_000, fetchTimeoutMs: 2000 },
    });
  });
  afterAll(async () => {
    await svc?.close();
  });

  async function plainText(fileId: string): Promise<string> {
    const answer = await svc.call('GET', `/sdk/v2/collab-files/${fileId}/plain-text`);
    expect(answer.status, answer.text).toBe(200);
    return answer.body.data.content as string;
  }

  it('doc, xls and ppt import, two conversions at once; a file LibreOffice cannot make a presentation of fails with 121005 and its reason', async () => {
    const imports = [
      { fields: { fileId: 'minutes', type: 'document' }, file: { name: 'minutes.doc', data: legacy.doc } },
      { fields: { fileId: 'budget', type: 'spreadsheet' }, file: { name: 'budget.xls', data: legacy.xls } },
      { fields: { fileId: 'deck', type: 'presentation' }, file: { name: 'deck.ppt', data: legacy.ppt } },
      // not a presentation: LibreOffice reads it as text, which it cannot write as pptx
      { fields: { fileId: 'not-a-deck', type: 'presentation' }, file: { name: 'notes.ppt', data: new TextEncoder().encode('just some notes') } },
    ];
    const accepted = await Promise.all(imports.map(({ fields, file }) => postImport(svc, fields, file)));
    for (const answer of accepted) expect(answer.status, answer.text).toBe(200);
    const [minutes, budget, deck, notADeck] = await Promise.all(accepted.map((answer) => waitForTask(svc, answer.body.data.taskId as string)));
    for (const done of [minutes, budget, deck]) expect(done!.body.status, done!.text).toBe(0);

    const document = await plainText('minutes');
    expect(document).toContain('Legacy minutes');
    expect(document).toContain('Agreed unanimously 一致');
    const heading = richTextOf(await svc.services.content.read(svc.app.id, 'minutes')).get(0) as Y.XmlElement;
    expect(heading.nodeName).toBe('heading');

    const values = await svc.call('GET', '/sdk/v2/api/files/budget/sheets/values', { query: { range: 'Budget!A1:D2' } });
    expect(values.status, values.text).toBe(200);
    expect(values.body.data.values).toEqual([
      ['Item', 'Cost', 'Count', 'Total'],
      ['Chairs', 25, 4, 100],
    ]);
    const sheet = sheetModels(await svc.services.content.read(svc.app.id, 'budget'))[0]!;
    expect(sheet.cell(1, 3)).toEqual({ f: '=B2*C2' });

    expect(await plainText('deck')).toContain('Legacy deck');
    const boxes = ((await svc.services.content.read(svc.app.id, 'deck')).getArray<Y.Map<unknown>>('slides').get(0).get('boxes') as Y.Array<Y.Map<unknown>>).toArray();
    const picture = boxes.find((box) => box.get('type') === 'image');
    // pptxgenjs placed it at 2 in, 2.5 in on a 10 in wide slide: 192, 240 of the model's 960 points
    expect([picture?.get('x'), picture?.get('y'), picture?.get('width'), picture?.get('height')].map((value) => Math.round(Number(value) / 8))).toEqual([24, 30, 24, 12]);

    expect(notADeck!.status).toBe(400);
    expect(notADeck!.body.status).toBe(121005);
    expect(notADeck!.body.message).toMatch(/LibreOffice could not convert this ppt file to pptx \(Error: no export filter for input\.pptx/);
    expect(notADeck!.body.message).not.toMatch(/javaldx|svc-soffice-/);
    expect(await svc.services.files.find(svc.app.id, 'not-a-deck')).toBeUndefined();
  });

  it('a document exported as wps is Word 97 that imports back as wps with its text', async () => {
    await createFile(svc, 'letter', 'document', 'Letter 信');
    await writeRichText(svc, 'letter', [{ type: 'heading', attrs: { level: 1 }, content: [text('Dear friend')] }, paragraph(text('See you in 北京.'))]);
    const { bytes, response } = await exportFile(svc, 'letter', 'wps');
    expect(response.headers.get('content-disposition')).toContain(`filename*=UTF-8''${encodeURIComponent('Letter 信.wps')}`);
    expect(bytes.subarray(0, 8).toString('hex')).toBe(OLE_SIGNATURE);
    const done = await importAndWait(svc, { fileId: 'letter-again', type: 'document' }, { name: 'letter.wps', data: bytes });
    expect(done.body.status, done.text).toBe(0);
    expect(await plainText('letter-again')).toMatch(/Dear friend\s+See you in 北京\./);
  });

  it('a ppt of the integrator is previewed through LibreOffice: its text and its picture on the page', async () => {
    const store = http.createServer((_request, response) => response.writeHead(200, { 'content-length': legacy.ppt.length }).end(legacy.ppt));
    await new Promise<void>((resolve) => store.listen(0, '127.0.0.1', resolve));
    try {
      const downloadUrl = `http://127.0.0.1:${(store.address() as AddressInfo).port}/deck.ppt`;
      svc.integrator.addFile({ id: 'shared-deck', name: 'Deck.ppt', type: 'file', ext: 'ppt', downloadUrl, grants: { [DEFAULT_USER.id]: { ...ALL_PERMISSIONS } } });
      const created = await svc.call('POST', '/sdk/v2/api/cloud-files/shared-deck/create');
      expect(created.status, created.text).toBe(200);
      const shown = (await renderedPages(svc, 'shared-deck')).join('');
      expect(shown).toContain('Legacy deck');
      expect(shown).toContain(`data:image/png;base64,${png(40, 20).toString('base64')}`);
    } finally {
      store.close();
    }
  });
});
