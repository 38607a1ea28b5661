import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Document, Packer, Paragraph, TextRun } from 'docx';
import ExcelJS from 'exceljs';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS } from '../../examples/integrator/integrator.js';
import { png } from '../attachments/images.js';
import { testDatabases } from '../support/databases.js';
import { DEFAULT_USER } from '../support/integrator.js';
import { startService, type CallResult, type TestService } from '../support/service.js';

const TASKS = { worker: true, concurrency: 2, perAppConcurrency: 2, pollMs: 50, leaseMs: 10_000, maxAttempts: 2, retentionMs: 3_600_000 };
const create = (fileId: string) => `/sdk/v2/api/cloud-files/${fileId}/create`;
const page = (fileId: string) => `/sdk/v2/api/cloud-files/${fileId}/page`;

async function docxFixture(): Promise<Buffer> {
  const doc = new Document({
    sections: [{ children: [new Paragraph({ children: [new TextRun('Quarterly preview report')] }), new Paragraph({ children: [new TextRun('<script>alert(1)</script> & more')] })] }],
  });
  return Packer.toBuffer(doc);
}

async function xlsxFixture(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.addWorksheet('Revenue').addRows([
    ['Region', 'Amount'],
    ['North', 1200],
  ]);
  workbook.addWorksheet('Costs').addRow(['Rent', 800]);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** Serves fixtures by path, as an integrator's file store would. */
let fixtures: http.Server;
let fixtureUrl: string;
const served = new Map<string, Buffer>();

beforeAll(async () => {
  served.set('/report.docx', await docxFixture());
  served.set('/picture.png', png(40, 30));
  served.set('/book.xlsx', await xlsxFixture());
  served.set('/archive.zip', Buffer.from('PK not really'));
  fixtures = http.createServer((request, response) => {
    const body = served.get(request.url ?? '');
    if (!body) response.writeHead(404).end();
    else response.writeHead(200, { 'content-length': body.length }).end(body);
  });
  await new Promise<void>((resolve) => fixtures.listen(0, '127.0.0.1', resolve));
  fixtureUrl = `http://127.0.0.1:${(fixtures.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => fixtures.close(() => resolve())));

function addPreviewFile(svc: TestService, id: string, name: string, ext: string, downloadUrl: string): void {
  svc.integrator.addFile({ id, name, type: 'file', ext, downloadUrl, grants: { [DEFAULT_USER.id]: { ...ALL_PERMISSIONS } } });
}

/** Opens the page until the preview is no longer being built; answers the last page. */
async function settledPage(svc: TestService, fileId: string, lang = 'en'): Promise<CallResult> {
  let last: CallResult | undefined;
  await expect
    .poll(
      async () => {
        last = await svc.call('GET', page(fileId), { query: { lang } });
        return last.text.includes('Preparing the preview');
      },
      { timeout: 60_000, interval: 200 },
    )
    .toBe(false);
  return last!;
}

for (const database of testDatabases()) {
  describe(`preview [${database.name}]`, { timeout: 120_000 }, () => {
    let svc: TestService;
    beforeEach(async () => {
      svc = await startService(database, { integrator: true, tasks: TASKS, imports: { limitBytes: 2 * 1024 * 1024, converterMemoryMb: 256, converterTimeoutMs: 60_000, fetchTimeoutMs: 2000 } });
    });
    afterEach(async () => {
      await svc.close();
    });

    it('a docx is read by the importer and shown as the export HTML, escaped, with the viewer headers', async () => {
      addPreviewFile(svc, 'report', 'Report.docx', 'docx', `${fixtureUrl}/report.docx`);
      const created = await svc.call('POST', create('report'));
      expect(created.status, created.text).toBe(200);
      expect(created.body).toEqual({ code: 0, message: 'success' });
      const shown = await settledPage(svc, 'report');
      expect(shown.status, shown.text).toBe(200);
      expect(shown.headers.get('content-type')).toMatch(/^text\/html/);
      expect(shown.headers.get('cache-control')).toBe('no-store');
      expect(shown.headers.get('referrer-policy')).toBe('no-referrer');
      expect(shown.headers.get('content-security-policy')).toContain('frame-ancestors *');
      expect(shown.text).toContain('Quarterly preview report');
      expect(shown.text).toContain('Zoom in');
      // the file's text is escaped twice: once in the export page, once as the frame's srcdoc attribute
      expect(shown.text).not.toContain('<script>alert');
      expect(shown.text).toContain('&amp;#60;script&amp;#62;alert(1)');
      const chinese = await svc.call('GET', page('report'), { query: { lang: 'zh-CN' } });
      expect(chinese.text).toContain('放大');
    });

    it('a workbook is one page per sheet, with page navigation; with a token the read permission is asked again on the page', async () => {
      addPreviewFile(svc, 'book', 'Book.xlsx', 'xlsx', `${fixtureUrl}/book.xlsx`);
      expect((await svc.call('POST', create('book'))).status).toBe(200);
      const shown = await settledPage(svc, 'book');
      expect(shown.status, shown.text).toBe(200);
      expect(shown.text.match(/<iframe /g)).toHaveLength(2);
      expect(shown.text).toContain('id="next"');
      const [first, second] = shown.text.split('<iframe ').slice(1);
      expect(first).toContain('Revenue');
      expect(first).toContain('North');
      expect(first).not.toContain('Rent');
      expect(second).toContain('Costs');
      expect(second).toContain('Rent');
      svc.integrator.grant('book', DEFAULT_USER.id, { readable: false });
      svc.services.access.forget();
      const refused = await svc.call('GET', page('book'), { query: { lang: 'en' } });
      expect(refused.status).toBe(403);
      expect(refused.text).toContain('<code>40300</code>');
    });

    it('an image is shown as it is; without a token the application itself asks the integrator', async () => {
      addPreviewFile(svc, 'picture', 'Picture.png', 'png', `${fixtureUrl}/picture.png`);
      const created = await svc.call('POST', create('picture'), { token: null });
      expect(created.status, created.text).toBe(200);
      const shown = await settledPage(svc, 'picture');
      expect(shown.status, shown.text).toBe(200);
      expect(shown.text).toContain(`src="data:image/png;base64,${png(40, 30).toString('base64')}"`);
    });

    it('an unsupported type and an unreachable downloadUrl give an error page with their codes', async () => {
      addPreviewFile(svc, 'archive', 'Archive.zip', 'zip', `${fixtureUrl}/archive.zip`);
      addPreviewFile(svc, 'gone', 'Gone.docx', 'docx', `${fixtureUrl}/nothing-here.docx`);
      expect((await svc.call('POST', create('archive'))).status).toBe(200);
      expect((await svc.call('POST', create('gone'))).status).toBe(200);
      const archive = await settledPage(svc, 'archive');
      expect(archive.status).toBe(200);
      expect(archive.text).toContain('<code>123001</code>');
      const gone = await settledPage(svc, 'gone');
      expect(gone.text).toContain('<code>121008</code>');
    });

    it("another application's preview does not exist for it; a collaborative file is no preview file; the token's read permission applies", async () => {
      addPreviewFile(svc, 'mine', 'Picture.png', 'png', `${fixtureUrl}/picture.png`);
      expect((await svc.call('POST', create('mine'))).status).toBe(200);
      await settledPage(svc, 'mine');
      const other = await svc.createApp();
      const peek = await svc.call('GET', page('mine'), { signature: await svc.sign({}, other), query: { lang: 'en' } });
      expect(peek.status).toBe(404);
      expect(peek.text).toContain('<code>123003</code>');

      svc.integrator.addFile({ id: 'collab', type: 'document', grants: { [DEFAULT_USER.id]: { ...ALL_PERMISSIONS } } });
      const collab = await svc.call('POST', create('collab'));
      expect(collab.status).toBe(400);
      expect(collab.body.status).toBe(123002);

      svc.integrator.addFile({ id: 'secret', name: 'Secret.png', type: 'file', ext: 'png', downloadUrl: `${fixtureUrl}/picture.png`, grants: { [DEFAULT_USER.id]: { readable: false } } });
      const refused = await svc.call('POST', create('secret'));
      expect(refused.status).toBe(403);
      const unsigned = await svc.call('GET', page('mine'), { signature: null, token: null });
      expect(unsigned.status).toBe(401);
      expect(unsigned.headers.get('content-type')).toMatch(/^text\/html/);
    });
  });
}
